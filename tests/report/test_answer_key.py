"""The answer key as a teacher gets it from `make report`: every question answered at a glance, pages well
filled, no text below 7 pt, chart series told apart without colour; and `--job` showing exactly those jobs.

The store is made by `knight run` on the shipped job files, as `make report` does (conftest.py: shipped_store).
"""

from __future__ import annotations

import html as html_text
import re
from pathlib import Path

import pytest
from browser_helpers import badly_fitting_tables, uneven_board_figures
from pdf_layout import (
    MM,
    heading_positions,
    listing_lines,
    number_sizes,
    output_blocks,
    page_fill,
    page_margins,
    small_texts,
)
from runner_helpers import REPO, knight

from knight.report.appendix import GLOSSARY
from knight.report.charts import estimates_svg, success_by_size_svg
from knight.report.questions import labels, questions

DEFAULT_JOBS = sorted((REPO / "jobs").glob("*.toml"))
MOST_PAGES = 28  # the cap, the reference programs and the marking scheme's pointer included
LEAST_FILL = 0.60
SMALLEST_TEXT = 7.0
#: A question's heading starts above the last quarter of its page's content box.
LOWEST_HEADING = 0.75


@pytest.fixture(scope="module")
def default_store(shipped_store) -> Path:
    return shipped_store


@pytest.fixture(scope="module")
def default_key(default_store, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("default-key")
    done = knight(
        [  # as `make report` makes it: the course's line under the title too
            "report",
            "--store",
            str(default_store),
            "--out",
            str(out),
            "--course",
            str(REPO / "course.toml"),
            *(f"--job={job}" for job in DEFAULT_JOBS),
        ],
        default_store,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return out


def glance_cells(page: str) -> dict[str, tuple[bool, str]]:
    """The answers-at-a-glance table: question anchor -> (marked missing, answer text)."""
    rows = re.findall(
        r'<td class="number"><a href="#(q-[\w-]+)">.*?</td>.*?'
        r'<td class="glance-answer( missing)?">(.*?)</td>',
        page,
        re.S,
    )
    return {anchor: (bool(missing), html_text.unescape(text).strip()) for anchor, missing, text in rows}


def test_every_question_is_answered_at_a_glance(default_key):
    page = (default_key / "knights-tour.html").read_text()
    cells = glance_cells(page)
    assert list(cells) == [q.anchor for q in questions()]  # one row per question, in the documents' order
    for question in questions():
        missing, answer = cells[question.anchor]
        assert not missing, f"{question.id}: {answer}"
        assert re.search(r"\d", answer), f"{question.id} has no number in its answer: {answer}"
        assert page.count(f'id="{question.anchor}"') == 1, question.id  # the section the row links to


def test_the_key_opens_with_every_answer_on_its_first_page(default_key):
    """A teacher sees every question answered at a glance without turning the page."""
    import pymupdf

    with pymupdf.open(default_key / "knights-tour.pdf") as document:
        first = document[0].get_text()
    assert "Answers at a glance" in first
    for label in labels().values():
        assert re.search(rf"^{label}$", first, re.M), f"{label} is not answered on page 1"


def test_the_documents_claims_get_a_verdict(default_key):
    cells = glance_cells((default_key / "knights-tour.html").read_text())
    for claim in ("q-blog-wozniak", "q-blog-past-50", "q-blog-w-plus", "q-eiffel-corners"):
        assert re.search(r"our runs (agree|disagree)", cells[claim][1]), claim


def test_layout_of_the_key(default_key):
    pdf = default_key / "knights-tour.pdf"
    fills = page_fill(pdf)
    assert len(fills) <= MOST_PAGES
    thin = [(number, round(fill, 2)) for number, fill in enumerate(fills[:-1], start=1) if fill < LEAST_FILL]
    assert not thin, f"pages less than {LEAST_FILL:.0%} filled: {thin}"
    assert not small_texts(pdf, SMALLEST_TEXT)


def test_no_question_heading_in_the_bottom_quarter_of_a_page(default_key):
    """A heading keeps its quote and the answer's first lines with it: never alone, or nearly, at a page's foot."""
    pdf = default_key / "knights-tour.pdf"
    found = heading_positions(pdf, list(labels().values()))
    assert sorted(found) == sorted(labels().values())  # every question's heading found, on a page after the first
    assert all(page > 1 for page, _ in found.values())
    low = {label: (page, round(at, 2)) for label, (page, at) in found.items() if at > LOWEST_HEADING}
    assert not low, f"headings in the bottom quarter of their page (label: page, height): {low}"


def test_no_section_heading_in_the_bottom_quarter_of_a_page(default_key):
    """The documents' headings, the marking scheme's and the appendix's (and the appendix's parts) keep to a page's
    upper three quarters too: each starts a page or has its first lines under it."""
    pdf = default_key / "knights-tour.pdf"
    labels = ["A.", "B.", "C.", "D.", "Conventions", "Marking", "Appendix:", "Other", "Counting", "Glossary", "Sources"]
    found = heading_positions(pdf, labels)
    assert sorted(found) == sorted(labels)
    low = {label: (page, round(at, 2)) for label, (page, at) in found.items() if at > LOWEST_HEADING}
    assert not low, f"headings in the bottom quarter of their page (label: page, height): {low}"


def test_each_program_is_on_one_page_with_its_output(default_key):
    """A reference program is read whole: its first and last lines and every output printed beside it on one page
    (each program has at most 60 lines, so each fits)."""
    pdf = default_key / "knights-tour.pdf"
    page = (default_key / "knights-tour.html").read_text()
    programs = re.findall(r'<div class="program" id="program-([\w-]+)">.*?<div class="listing', page, re.S)
    runs = [
        len(re.findall(r'<figure class="run">', block))
        for block in re.findall(r'<div class="program" id="program-[\w-]+">(.*?)<div class="listing', page, re.S)
    ]
    lines = [int(n) for n in re.findall(r"\((\d+) lines\)", page)]
    listings = listing_lines(pdf)
    assert len(listings) == len(programs) == len(lines) >= 9
    outputs = output_blocks(pdf)
    assert len(outputs) == sum(runs), "an output block split across pages"
    for name, listing, count, runs_here in zip(programs, listings, lines, runs, strict=True):
        assert [n for n, _ in listing] == list(range(1, count + 1)), name  # every line of it, in order
        pages = {number for _, number in listing}
        assert len(pages) == 1, f"{name}: lines on pages {sorted(pages)}"
        beside, outputs = outputs[:runs_here], outputs[runs_here:]
        assert {number for number, _, _ in beside} == pages, f"{name}: its output is not on its page"


def test_c2s_heat_maps_print_their_numbers_at_one_size(default_key):
    """C2's maps of tours from each start square (5 x 5 and 6 x 6 side by side) print every number at one size, the
    size the longest of them fits in its square, 7 pt or more."""
    import pymupdf

    pdf = default_key / "knights-tour.pdf"
    with pymupdf.open(pdf) as document:
        pages = [n for n, p in enumerate(document, start=1) if "Directed open tours of 5" in p.get_text()]
    assert len(pages) == 1
    sizes = number_sizes(pdf, pages[0], ("DejaVu-Sans",), (0x222222, 0xFFFFFF))
    assert len(sizes) >= 25 + 36  # both maps' squares
    assert max(sizes) - min(sizes) < 0.05 and min(sizes) >= SMALLEST_TEXT, sorted(set(sizes))


def test_every_board_is_drawn_by_the_board_renderer(default_key):
    """No board is an HTML table of numbers: B1's arrays are numbered boards, as every other board of the key."""
    page = (default_key / "knights-tour.html").read_text()
    for table in re.findall(r"<table\b.*?</table>", page, re.S):
        if "<th" in table:
            continue  # a table of data, with its headings
        rows = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in re.findall(r"<tr.*?</tr>", table, re.S)]
        cells = [re.sub(r"<[^>]+>", "", cell).strip() for row in rows for cell in row]
        square = len(rows) >= 3 and len({len(row) for row in rows}) == 1 and len(rows[0]) >= 3
        assert not (square and all(re.fullmatch(r"\d*", cell) for cell in cells)), table[:200]
    b1 = re.search(r'<section class="question" id="q-homework-program">(.*?)</section>', page, re.S)
    assert b1 and b1.group(1).count('class="numbered-board"') == 2


def test_every_chess_name_is_the_conventions(default_key):
    """A chess name (c5) is used only as the conventions box defines it: beside its square as (row, col), the letter
    the column's."""
    page = (default_key / "knights-tour.html").read_text()
    prose = re.sub(r"<(pre|code|script|svg|style)\b.*?</\1>", " ", page, flags=re.S)
    text = " ".join(html_text.unescape(re.sub(r"<[^>]+>", " ", prose)).split())
    assert "A chess name beside a square, as in c5 (3, 2)" in text
    names = list(re.finditer(r"(?<![\w.'’-])([a-p])([1-9]\d?)(?![\w-])", text))
    assert len(names) > 50
    for name in names:
        if text[name.start() - 30 : name.start()].endswith("(0, 0) of 8 × 8 is "):
            continue  # the convention's own example, its square named first
        square = re.match(r" \((\d+), (\d+)\)", text[name.end() :])
        assert square, f"{name.group(0)} without its square: …{text[name.start() - 40 : name.end() + 20]}…"
        assert int(square.group(2)) == ord(name.group(1)) - ord("a"), name.group(0)


def test_heading_positions_measure_what_they_say(tmp_path):
    """A heading set 150 mm down a page's content box (259 mm high on A4 with the report's margins) is found there;
    the same label in small type is not a heading."""
    from weasyprint import HTML

    top, right, bottom, left = page_margins()
    page = f"""<style>@page {{ size: A4; margin: {top}pt {right}pt {bottom}pt {left}pt }}
    body {{ margin: 0; font: 10pt "DejaVu Sans" }} h3 {{ margin: 0; font-size: 11.5pt }}</style>
    <p style="margin: 0; height: 150mm"><b style="font-size: 8pt">Z9</b> small</p><h3>Z9 A question</h3>
    <p style="break-before: page; margin: 0"><b style="font-size: 8pt">Y1</b> only small</p>"""
    pdf = tmp_path / "headings.pdf"
    HTML(string=page).write_pdf(pdf)
    found = heading_positions(pdf, ["Z9", "Y1"])
    assert list(found) == ["Z9"]
    number, at = found["Z9"]
    content = (297 * MM - top - bottom) / MM
    assert number == 1 and at == pytest.approx(150 / content, abs=0.01)


def test_the_key_on_a_phone_and_its_boards_as_printed(request, default_key):
    """With every answer's data: at 390 px each table fits its column, no row taller than 600 px; as printed, the
    boards of one figure (C1's, C2's heat maps, C3's closed tours, the homework's rows) share one square size."""
    browser = request.getfixturevalue("browser")
    html = default_key / "knights-tour.html"
    assert badly_fitting_tables(browser, html) == []
    groups, uneven = uneven_board_figures(browser, html)
    assert groups >= 8 and uneven == []


def test_glossary_defines_the_technical_terms(default_key):
    page = (default_key / "knights-tour.html").read_text()
    for word in ("census", "node", "lookahead", "tie-break", "degree", "symmetry", "rotations"):
        assert any(word in term for term in GLOSSARY), word
    plain = html_text.unescape(page)
    assert all(term in plain for term in GLOSSARY)
    # the key's own prose: a program's text, its output and a quoted error are the program's words ("# test every
    # potential move" is English there), not the tool's
    prose = re.sub(r"<(pre|code|script)\b.*?</\1>", " ", page, flags=re.S)
    assert len(prose) < len(page) and "<pre" in page  # the listings were there, and are left out
    words = re.findall(r"[\w-]+", re.sub(r"<[^>]+>", " ", html_text.unescape(prose)))
    for jargon in ("store", "sha256", "FULL", "test", "issue"):  # the tool's own words, not the subject's
        assert jargon not in words, jargon


def test_chart_series_differ_in_marker_and_line_style():
    series = {f"rule {k}": ([5, 10, 15], [1.0, 0.5 + k / 20, 0.2]) for k in range(6)}
    svg = success_by_size_svg(series, title="t")
    shapes = set(re.findall(r'<path id="[\w-]*m[0-9a-f]+" d="([^"]+)"', svg))  # marker shapes (and 2 tick marks)
    dashes = set(re.findall(r"stroke-dasharray: ([\d.,\s]+);", svg))
    assert len(shapes) >= len(series) + 2
    assert len(dashes) >= 3  # dashed, dash-dot and dotted besides the solid lines


def test_job_option_shows_exactly_those_jobs(default_store, tmp_path):
    only = REPO / "jobs" / "census.toml"  # counts only, no tours: every other question must say what to run
    done = knight(
        ["report", "--store", str(default_store), "--out", str(tmp_path), "--no-pdf", "--job", str(only)],
        default_store,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "knights-tour.html").read_text()
    cells = glance_cells(page)
    for question in questions():
        missing, answer = cells[question.anchor]
        if "census" in question.jobs:
            assert not missing, f"{question.id}: {answer}"
        else:
            assert missing and "knight run jobs/" in answer, question.id
    assert "from the runs census (" in " ".join(page.split())


def test_the_estimate_chart_shows_how_each_estimate_settles_within_its_band():
    """Each running estimate divided by its final one (so every series ends at 1, whatever its magnitude), a shaded
    band of two standard errors per series, and the exact count as a level where it is known."""
    series = {"5 × 5": ([100, 1000, 10000], [1.1e6, 1.8e6, 1.7e6]), "8 × 8": ([100, 1000, 10000], [4e21, 3e21, 4e21])}
    svg = estimates_svg(series, spread={"5 × 5": 1.5, "8 × 8": 6.3}, exact={"5 × 5": 1.735e6})
    assert len(set(re.findall(r'id="[\w-]*PolyCollection_\d+"', svg))) == len(series)  # one band each
    assert "5 × 5: exact" in svg and "estimate ÷ final estimate" in svg
    ticks = re.findall(r">(\d\.\d)</text>", svg)  # the y axis's tick labels (text kept as text)
    assert "1.0" in ticks and min(ticks) < "1.0" < max(ticks)  # a linear axis around 1
    strays = estimates_svg({"8 × 8": ([100, 1000, 10000], [1.2e22, 3e21, 4e21])}, spread={"8 × 8": 6.3})
    assert max(float(t) for t in re.findall(r">(\d\.\d)</text>", strays)) >= 3.0  # the axis widens to show it


def test_the_estimate_chart_ends_at_the_estimate_from_every_probe():
    """Checkpoints come at powers of ten of probes: a run of 50,000 probes ends with its own point, the estimate the
    text quotes; a run of fewer than 100 probes, with no checkpoint, is that point alone (and still charted)."""
    from types import SimpleNamespace

    from knight.report.answers.blog import running_estimate

    checkpoint = SimpleNamespace
    fifty = SimpleNamespace(
        probes=50_000,
        node_mean=2.0e6,
        checkpoints=[checkpoint(probes=100, node_mean=1.5e6), checkpoint(probes=10_000, node_mean=1.9e6)],
    )
    assert running_estimate(fifty) == ([100, 10_000, 50_000], [1.5e6, 1.9e6, 2.0e6])
    exact = SimpleNamespace(
        probes=1000,
        node_mean=7.0,
        checkpoints=[checkpoint(probes=100, node_mean=6.0), checkpoint(probes=1000, node_mean=7.0)],
    )
    assert running_estimate(exact) == ([100, 1000], [6.0, 7.0])
    few = SimpleNamespace(probes=20, node_mean=3.0, checkpoints=[])
    assert running_estimate(few) == ([20], [3.0])
    svg = estimates_svg({"5 × 5": running_estimate(few)}, spread={"5 × 5": 1.5}, exact={"5 × 5": 9.0})
    assert "5 × 5: exact" in svg
    assert max(float(t) for t in re.findall(r">(\d\.\d)</text>", svg)) >= 3.0  # the exact level, 3 times over, shown
