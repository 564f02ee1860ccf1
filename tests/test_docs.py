"""The README stays short and the docs hold the rest (issue 29, item 4): the README at most 150 lines, every
relative link in it and in the docs leads to a file that exists, and the command reference is the command
line's own."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import typer

from knight.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: A Markdown link or image's target: [text](target) — not inside inline code.
LINK = re.compile(r"(?<!`)\[[^\]\n]*\]\(([^)\s]+)\)")


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def relative_links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)  # code blocks hold no links
    return [target for target in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:|#", target)]


def test_the_readme_is_at_most_150_lines():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150


def test_every_relative_link_resolves():
    broken = [
        f"{page.relative_to(ROOT)}: {target}"
        for page in pages()
        for target in relative_links(page)
        if not (page.parent / target.split("#")[0]).exists()
    ]
    assert broken == []
    assert sum(len(relative_links(page)) for page in pages()) > 20  # the check looked at the links


def test_the_readme_links_every_guide():
    targets = set(relative_links(ROOT / "README.md"))
    for page in ("docs/install.md", "docs/teacher.md", "docs/student.md", "ARCHITECTURE.md"):
        assert page in targets


def test_every_docs_page_is_in_the_table_of_contents():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^([a-z-]+)$", index, flags=re.M))
    assert {page.stem for page in [*DOCS.glob("*.md"), *DOCS.glob("*.rst")]} - {"index"} == listed


def test_the_command_reference_is_built_from_every_command_and_option():
    sys.path.insert(0, str(DOCS))
    try:
        from cli_command import command
    finally:
        sys.path.remove(str(DOCS))
    typer_group = typer.main.get_command(app)
    assert set(command.commands) == set(typer_group.commands)  # type: ignore[attr-defined]
    for name, documented in command.commands.items():
        source = typer_group.commands[name]  # type: ignore[attr-defined]
        assert {tuple(p.opts) for p in documented.params} >= {
            tuple(p.opts)
            for p in source.params
            if p.opts and "--install-completion" not in p.opts and "--show-completion" not in p.opts
        }
    start = next(p for p in command.commands["tour"].params if p.name == "start")
    assert start.metavar == "SQUARE" and "chess name" in start.help


def test_the_site_copies_the_built_docs_without_sphinxs_own_files(tmp_path, capsys):
    from cli_helpers import knight_cli
    from report_helpers import COURSE, DAY_BEFORE

    course = tmp_path / "course.toml"
    course.write_text(COURSE, encoding="utf-8")
    built = tmp_path / "docs" / "_build" / "html"
    (built / ".doctrees").mkdir(parents=True)
    (built / ".doctrees" / "index.doctree").write_bytes(b"pickled")
    (built / ".buildinfo").write_text("# Sphinx build info", encoding="utf-8")
    (built / "index.html").write_text("<h1>knight</h1>", encoding="utf-8")
    out = tmp_path / "site"
    argv = ["site", "--out", out, "--course", course, "--today", DAY_BEFORE, "--docs", built, "--no-pdf", "--json"]
    status, printed, err = knight_cli(capsys, *argv)
    assert status == 0, err
    assert sorted(name for name in json.loads(printed)["files"] if name.startswith("docs/")) == ["docs/index.html"]
    assert 'href="docs/index.html"' in (out / "index.html").read_text(encoding="utf-8")
    # without them: said in one line, and the site is written all the same
    status, _, err = knight_cli(capsys, *argv[:-4], "--docs", tmp_path / "nothing", "--no-pdf")
    assert status == 0 and err.count("\n") == 1 and "make docs" in err


def test_the_site_takes_the_built_docs_by_default():
    site = typer.main.get_command(app).commands["site"]  # type: ignore[attr-defined]
    docs = next(param for param in site.params if param.name == "docs")
    assert Path(docs.default) == Path("docs/_build/html")
