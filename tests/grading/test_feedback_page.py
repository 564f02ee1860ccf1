"""A student's feedback page (`knight grade`), rendered by the report's jinja2 environment: what comes from the
hand-in (names, a file's content in the reason it could not be read) is shown as text, never run as markup."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from knight.engine import Board
from knight.grading.gradebook import feedback_html, grade_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "submissions"
HOSTILE = "<img src=x onerror=alert(1)> & \"quoted\" 'single' <b>bold"  # a file name: no slash
#: The elements the page itself writes (the board's SVG aside): no other may come from a hand-in.
PAGE_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "p", "code", "table", "tr", "th", "td", "small"}


class Page(HTMLParser):
    """A page as a browser reads it: the elements outside the SVG, and the text of each."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: dict[str, list[str]] = {}
        self._open: list[str] = []
        self._in_svg = 0
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_svg += tag == "svg"
        if not self._in_svg:
            self.tags.append(tag)
            self._open.append(tag)
            self.text.setdefault(tag, []).append("")

    def handle_endtag(self, tag: str) -> None:
        if not self._in_svg and self._open and self._open[-1] == tag:
            self._open.pop()
        self._in_svg -= tag == "svg"

    def handle_data(self, data: str) -> None:
        if not self._in_svg:
            for tag in self._open:
                self.text[tag][-1] += data


def hand_in(folder: Path, name: str, source: str) -> Path:
    folder.mkdir(exist_ok=True)
    return Path(shutil.copy(EXAMPLES / source, folder / name))


def test_a_hostile_name_is_shown_as_text_on_a_graded_page(tmp_path):
    row = grade_file(hand_in(tmp_path, f"{HOSTILE}.txt", "ivan.txt"), board=Board(8, 8), start=(0, 0))
    row.copied_from, row.copied_count = [HOSTILE], 1
    html = feedback_html(row)
    page = Page(html)
    assert set(page.tags) <= PAGE_TAGS and "<img" not in html
    assert page.text["title"] == page.text["h1"] == [f"Knight's tour feedback: {HOSTILE}"]
    facts = dict(zip(page.text["th"], page.text["td"]))
    assert facts["File"] == f"{HOSTILE}.txt" and facts["Same tour (up to symmetry) as"] == HOSTILE
    assert facts["Verdict"] == row.result.summary() and facts["First error"] == row.result.errors[0]
    assert facts["Exercise"] == "not passed: not a tour" and facts["Board"] == "8x8"
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html and 'class="first-error"' in html  # drawn, not escaped
    assert page.text["p"][-1] == row.result.advice()


def test_a_file_that_cannot_be_read_says_why_as_text(tmp_path):
    path = tmp_path / f"{HOSTILE}.txt"
    path.write_text("<script>alert(1)</script>\n")
    row = grade_file(path)
    assert row.result is None
    html = feedback_html(row)
    page = Page(html)
    assert set(page.tags) <= PAGE_TAGS and "<script" not in html and "<svg" not in html
    assert page.text["h1"] == [f"Knight's tour feedback: {HOSTILE}"] and page.text["code"] == [path.name]
    assert page.text["p"][0] == f"File {path.name} could not be read: {row.note}."


@pytest.mark.parametrize("columns", [8, 30])
def test_squares_are_named_as_on_the_diagram(tmp_path, columns):
    """Every square the page names is (row, col), 0-based, as the diagram labels its rows and columns."""
    path = tmp_path / "pairs.txt"
    path.write_text("(0, 0) (1, 2) (2, 4) (2, 5)\n")
    row = grade_file(path, board=Board(3, columns))
    page = Page(feedback_html(row))
    assert "(row, column), counted from 0" in page.text["small"][0]
    facts = dict(zip(page.text["th"], page.text["td"]))
    assert "(2, 4) → (2, 5) is not a knight move" in facts["First error"]
