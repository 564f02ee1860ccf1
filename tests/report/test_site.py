"""`knight site`: the class's static site, with the answer key only from the course's key_public_from on.

The site is built, with the docs (built here by Sphinx from docs/), the day before that day and on it, from a
store of every shipped job (the key complete), and every file of it is read: before the day no key file, no
link to one, none of the key's pictures and no figure of the key's answers at a glance, in the site's own pages
(the handout's give-away rule of tests/report/test_handout.py, HTML by its text and PDF by its pages) and in
the docs, their sources and their search index (in any form a reader would meet: 1,728, 1728, 1 728, 1_728);
the store is not even opened. On the day the key is there, linked from the index, and the docs whole. Bad
course files and dates are refused in one line with exit status 2 (more bad input: test_site_inputs.py).
"""

from __future__ import annotations

import datetime
import hashlib
import html as entities
import re
import shutil
import subprocess
import sys
import tomllib
import zlib
from importlib import resources
from pathlib import Path

import pytest
from cli_helpers import knight_cli
from report_helpers import COURSE, DAY, DAY_BEFORE, html_text, numbers, pdf_pages
from runner_helpers import REPO, knight

from knight.errors import InvalidInput
from knight.report.course import parse_course
from knight.report.questions import documents, questions
from knight.report.render import TEMPLATES
from knight.report.site import ANSWER_PAGES

KEY_LINK = re.compile(r"knights-tour\.(?:html|pdf)")
#: What a reader may find between the digit groups of a figure: 1,728, 1 728 (a space, a no-break or thin one),
#: 1_728 (Python and TOML), 1'728.
_GROUP = re.compile(r"(?<=\d)[,_ '\u00a0\u2009\u202f](?=\d{3}(?!\d))")
#: Files with no text to read: the theme's fonts and pictures.
_NO_TEXT = {".woff", ".woff2", ".ttf", ".eot", ".png", ".jpg", ".jpeg", ".gif", ".ico"}


def build(out: Path, course: Path, store: Path, today: str, docs: Path | str = "none") -> list[str]:
    done = knight(
        ["site", "--out", str(out), "--course", str(course), "--today", today, "--docs", str(docs)], store, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return sorted(str(path.relative_to(out)) for path in out.rglob("*") if path.is_file())


@pytest.fixture(scope="module")
def sites(tmp_path_factory, shipped_store) -> dict[str, object]:
    """The site, docs included, built the day before key_public_from (never opening a store), then on that day
    from a store of every shipped job (in a copy of the first: its handout PDF is kept), and the key's glance
    answers and pictures."""
    folder = tmp_path_factory.mktemp("site")
    course = folder / "course.toml"
    course.write_text(COURSE, encoding="utf-8")
    docs = folder / "docs" / "_build" / "html"
    sphinx = [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(REPO / "docs"), str(docs)]
    built = subprocess.run(sphinx, capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    store = shipped_store
    before = folder / "before"
    no_store = folder / "no-store.sqlite"
    before_files = build(before, course, no_store, DAY_BEFORE, docs)
    assert not no_store.exists()  # before the day the store is not opened: nothing of the results can be in
    after = folder / "after"
    shutil.copytree(before, after)
    after_files = build(after, course, store, DAY, docs)
    key = (after / "knights-tour.html").read_text(encoding="utf-8")
    cells = re.findall(r'<td\b[^>]*class="[^"]*\bglance-answer\b[^"]*"[^>]*>(.*?)</td>', key, flags=re.S)
    assert len(cells) == len(questions())  # every question answered at a glance: the key is complete
    answers = {number for cell in cells for number in numbers(html_text(cell)) if len(number.replace(".", "")) >= 2}
    assert answers, "the key gives no numbers: the test would check nothing"
    return {
        "course": course,
        "store": store,
        "docs": docs,
        "before": before,
        "before_files": before_files,
        "after": after,
        "after_files": after_files,
        "answers": answers,
        "pictures": set(re.findall(r"<svg\b.*?</svg>", key, flags=re.S)),
    }


def allowed_numbers(course: Path) -> set[str]:
    """Numbers a site may print that are no answer: the documents' (as for the handout) and the line numbers of
    the blog's script as the handout prints it, the course file's dates, the constants of the site's own
    stylesheet and script (the same whatever the store holds), and the shipped jobs' parameters (a budget of
    2,000,000 nodes, 1,000,000 probes: what the key ran, not what it found; their labels are not read)."""
    allowed = numbers(" ".join(documents().values()))
    for question in questions():
        allowed |= numbers(" ".join([question.quote, *(part.ask for part in question.parts)]))
        for n, m in question.boards:
            allowed |= {str(k) for k in range(max(n, m) + 1)} | {str(n * m)}
    script = resources.files("knight") / "programs" / "blog_script_as_printed.txt"  # the handout numbers its lines
    allowed |= {str(k) for k in range(1, len(script.read_text(encoding="utf-8").splitlines()) + 1)}
    allowed |= numbers(course.read_text(encoding="utf-8"))
    for constant in ("check.js", "site.css"):
        allowed |= numbers((TEMPLATES / constant).read_text(encoding="utf-8"))
    for job in (REPO / "jobs").glob("*.toml"):
        allowed |= {str(value) for value in _parameters(tomllib.loads(job.read_text(encoding="utf-8")))}
    return allowed


def _parameters(table: object) -> list[int]:
    """The whole numbers of a job file's sweeps, labels and descriptions left out."""
    if isinstance(table, dict):
        skipped = ("label", "description", "name", "source")
        return [n for key, value in table.items() if key not in skipped for n in _parameters(value)]
    if isinstance(table, list):
        return [n for value in table for n in _parameters(value)]
    return [table] if isinstance(table, int) and not isinstance(table, bool) else []


def text_of(path: Path) -> str:
    if path.suffix == ".pdf":
        return re.sub(r"page \d+ of \d+", " ", " ".join(pdf_pages(path)))
    raw = path.read_text(encoding="utf-8", errors="replace")
    if path.name.endswith(".pdf.source"):  # the PDF's stamp: the SHA-256 of the HTML it was made from, no figure
        assert re.fullmatch(r"[0-9a-f]{64}\s*", raw), f"{path.name} is not a stamp"
        return ""
    return html_text(raw) if path.suffix == ".html" else raw


def readable_text(path: Path) -> str:
    """Everything a reader of ``path`` could find in it: a page's text and its markup (entities decoded), a
    PDF's pages, Sphinx's inventory (objects.inv) unpacked, any other file as text; nothing of fonts and
    pictures."""
    if path.suffix in _NO_TEXT:
        return ""
    if path.suffix == ".pdf":
        return text_of(path)
    data = path.read_bytes()
    if path.name == "objects.inv":  # four lines of header, then zlib
        data = zlib.decompress(data.split(b"\n", 4)[4])
    text = data.decode("utf-8", errors="replace")
    return f"{text_of(path)} {entities.unescape(text)}" if path.suffix == ".html" else text


def figures_in(text: str) -> set[str]:
    """The whole numbers in ``text``, digit groups joined whatever separates them (1,728, 1 728, 1_728: 1728)."""
    return set(re.findall(r"(?<![\d.])\d+(?![\d])", _GROUP.sub("", text)))


def theme_files() -> set[bytes]:
    """The SHA-256 of every file Sphinx and the docs' theme (furo) ship: copied into _static/ unchanged, they say
    nothing of the docs (a number in them is the same whatever the docs state)."""
    import furo
    import sphinx

    shipped = [*Path(furo.__file__).parent.rglob("*"), *(Path(sphinx.__file__).parent / "themes").rglob("*")]
    return {hashlib.sha256(path.read_bytes()).digest() for path in shipped if path.is_file()}


def key_figures(sites: dict[str, object]) -> list[str]:
    """The figures of the key's answers at a glance that no page may state before the day: its whole numbers of
    three digits or more that are no parameter, date or number of the documents (smaller ones, 12 or 35, are
    met in the docs for other reasons: the site's own pages are held to those too, by the test above)."""
    allowed = allowed_numbers(sites["course"])  # type: ignore[arg-type]
    found = {n for n in sites["answers"] if "." not in n and len(n) >= 3} - allowed  # type: ignore[attr-defined]
    return sorted(found, key=int)


def test_before_the_day_nothing_of_the_key_is_in_the_site(sites):
    before: Path = sites["before"]  # type: ignore[assignment]
    assert {"index.html", "check.html", "knights-tour-handout.html", "knights-tour-handout.pdf"} <= set(
        sites["before_files"]  # type: ignore[arg-type]
    )
    allowed = allowed_numbers(sites["course"])  # type: ignore[arg-type]
    for name in sites["before_files"]:  # type: ignore[attr-defined]
        path = before / name
        assert not KEY_LINK.search(name), f"{name}: a file of the key"
        raw = path.read_bytes().decode("utf-8", errors="replace")
        assert not re.search(r"""href=["'][^"']*knights-tour\.(?:html|pdf)""", raw), f"{name} links to the key"
        shown = [picture for picture in sites["pictures"] if picture in raw]  # type: ignore[attr-defined]
        assert not shown, f"{name} holds {len(shown)} of the key's pictures"
        if name.startswith("docs/"):
            continue  # the docs: the next test
        assert not KEY_LINK.search(raw), f"{name} names the key's files"
        given_away = (numbers(text_of(path)) & sites["answers"]) - allowed  # type: ignore[operator]
        assert not given_away, f"{name} prints answers of the key: {sorted(given_away)}"
    index = (before / "index.html").read_text(encoding="utf-8")
    assert "published here on 2030-03-04" in html_text(index)


def test_before_the_day_the_docs_state_no_figure_of_the_key(sites):
    """Every file of the docs, their sources (_sources/), search index (searchindex.js) and inventory included,
    is searched for every figure of the key's answers at a glance, in any form a reader would meet."""
    figures = key_figures(sites)
    print("the key's figures looked for:", ", ".join(f"{int(n):,}" for n in figures))
    assert {"1728", "6637920", "9862", "524486"} <= set(figures)  # C2 and C3: what the docs used to give away
    before: Path = sites["before"]  # type: ignore[assignment]
    docs = [name for name in sites["before_files"] if name.startswith("docs/")]  # type: ignore[attr-defined]
    assert {"docs/index.html", "docs/searchindex.js", "docs/_sources/index.md.txt", "docs/census.html"} <= set(docs)
    theirs = theme_files()
    for name in docs:
        if name.startswith("docs/_static/") and hashlib.sha256((before / name).read_bytes()).digest() in theirs:
            continue  # a file of Sphinx's or the theme's as they ship it (furo.css.map cites "issues/412")
        stated = figures_in(readable_text(before / name)) & set(figures)
        assert not stated, f"{name} states figures of the key: {sorted(stated, key=int)}"
    for page in ANSWER_PAGES:  # held back: a page that says when it comes, no source
        assert "published here on 2030-03-04" in html_text((before / "docs" / f"{page}.html").read_text())
        assert not [name for name in docs if name.startswith(f"docs/_sources/{page}.")]


def test_the_figures_are_found_in_every_form_a_reader_meets():
    text = "1,728 tours; 6 637 920; 9\u202f862 closed; 524_486; 1'245; &#8239; (0, 0) 1.728 s"
    assert {"1728", "6637920", "9862", "524486", "1245", "0"} <= figures_in(text)
    assert "728" not in figures_in(text)


def test_on_the_day_the_key_is_there_and_linked(sites):
    after: Path = sites["after"]  # type: ignore[assignment]
    assert set(sites["after_files"]) - set(sites["before_files"]) >= {"knights-tour.html", "knights-tour.pdf"}  # type: ignore[arg-type]
    index = (after / "index.html").read_text(encoding="utf-8")
    assert 'href="knights-tour.html"' in index and 'href="knights-tour.pdf"' in index
    assert 'class="gaps"' not in index  # complete: no gaps to mark
    key = (after / "knights-tour.html").read_text(encoding="utf-8")
    assert "Knight's tours · CS 1, spring · due 2030-03-01" in html_text(key)  # the course heads the key
    assert any(picture in key for picture in sites["pictures"])  # type: ignore[attr-defined]
    assert pdf_pages(after / "knights-tour.pdf")
    # the docs whole again: the pages held back, their sources, and the figures they state
    for page in ANSWER_PAGES:
        assert f"docs/_sources/{page}.md.txt" in sites["after_files"]  # type: ignore[operator]
        assert (after / "docs" / f"{page}.html").read_bytes() == (sites["docs"] / f"{page}.html").read_bytes()  # type: ignore[operator]
    assert "1728" in figures_in(readable_text(after / "docs" / "census.html"))
    assert (after / "docs" / "searchindex.js").read_bytes() == (sites["docs"] / "searchindex.js").read_bytes()  # type: ignore[operator]


def test_a_key_left_by_an_earlier_build_is_removed_before_the_day(sites, tmp_path):
    out = tmp_path / "site"
    shutil.copytree(sites["after"], out)  # type: ignore[arg-type]
    files = build(out, sites["course"], tmp_path / "no-store.sqlite", DAY_BEFORE, sites["docs"])  # type: ignore[arg-type]
    assert files == sites["before_files"]  # the key's files gone, and the docs' pages held back again
    assert not KEY_LINK.search((out / "index.html").read_text(encoding="utf-8"))


def test_the_site_says_how_to_check_a_tour_before_handing_it_in(sites):
    before: Path = sites["before"]  # type: ignore[assignment]
    index = html_text((before / "index.html").read_text(encoding="utf-8"))
    assert "Before you hand it in, check it" in index and 'href="check.html"' in (before / "index.html").read_text()
    handout = html_text((before / "knights-tour-handout.html").read_text(encoding="utf-8"))
    assert "Check each tour before you hand it in" in handout and "knight check" in handout
    assert "Knight's tours · CS 1, spring · due 2030-03-01" in handout  # the course heads the handout


def test_the_docs_are_copied_under_docs(tmp_path, capsys):
    course = tmp_path / "course.toml"
    course.write_text(COURSE, encoding="utf-8")
    docs = tmp_path / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / "index.html").write_text("<h1>knight</h1>", encoding="utf-8")
    (docs / "guide" / "grading.md").write_text("# Grading", encoding="utf-8")
    out = tmp_path / "site"
    argv = ["site", "--out", out, "--course", course, "--today", DAY_BEFORE, "--docs", docs, "--no-pdf"]
    status, _, err = knight_cli(capsys, *argv)
    assert status == 0, err
    assert (out / "docs" / "guide" / "grading.md").read_text() == "# Grading"
    assert 'href="docs/index.html"' in (out / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (COURSE.replace('class = "CS 1, spring"\n', ""), "class: missing"),
        (COURSE + "secret = 1\n", "secret: unknown key"),
        (COURSE.replace("due = 2030-03-01", 'due = "March 1st"'), "due: give a day as YYYY-MM-DD"),
        (COURSE.replace("due = 2030-03-01", "due = 2030-03-01T09:00:00"), "due: give a day"),
        (COURSE.replace('"Europe/Berlin"', '"Mars/Olympus"'), "unknown time zone"),
        (COURSE.replace("2030-03-04", "2030-02-01"), "key_public_from 2030-02-01 is before the due date"),
        (COURSE.replace('title = "Knight\'s tours"', 'title = "  "'), "title: is empty"),
        (COURSE.replace('title = "Knight\'s tours"', "title = 7"), "title: Input should be a valid string"),
        ("title = [", "not valid TOML"),
    ],
)
def test_a_bad_course_file_is_one_line_and_exit_2(tmp_path, capsys, text, says):
    course = tmp_path / "course.toml"
    course.write_text(text, encoding="utf-8")
    status, out, err = knight_cli(capsys, "site", "--out", tmp_path / "site", "--course", course)
    assert status == 2 and out == ""
    assert err.startswith(f"knight: error: {course}: ") and err.count("\n") == 1 and says in err
    assert not (tmp_path / "site").exists()  # nothing written


@pytest.mark.parametrize("today", ["2030-02-30", "tomorrow", "2030/03/04", ""])
def test_a_bad_date_is_one_line_and_exit_2(tmp_path, capsys, today):
    course = tmp_path / "course.toml"
    course.write_text(COURSE, encoding="utf-8")
    status, _, err = knight_cli(capsys, "site", "--out", tmp_path / "site", "--course", course, "--today", today)
    assert status == 2 and err.startswith("knight: error: --today takes a date as YYYY-MM-DD") and err.count("\n") == 1


def test_a_missing_course_file_says_how_to_make_one(tmp_path, capsys):
    status, _, err = knight_cli(capsys, "site", "--out", tmp_path / "site", "--course", tmp_path / "nope.toml")
    assert status == 2 and "no such course file" in err and "--course" in err


def test_today_is_the_course_time_zone_s_day():
    late = parse_course(
        {
            "title": "t",
            "class": "c",
            "due": datetime.date(2030, 3, 1),
            "key_public_from": datetime.date(2030, 3, 4),
            "time_zone": "Pacific/Kiritimati",
        },  # UTC+14: its day is, most hours, ahead of UTC's
        Path("course.toml"),
    )
    utc = datetime.datetime.now(datetime.UTC)
    assert late.today() in (utc.date(), utc.date() + datetime.timedelta(days=1))
    assert late.today() == (utc + datetime.timedelta(hours=14)).date()
    with pytest.raises(InvalidInput):
        parse_course({"title": "t"}, Path("course.toml"))
