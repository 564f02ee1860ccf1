"""What several report tests share: the small job their stores are made from, and the text of a page (HTML or PDF)
and the numbers it states."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pymupdf

#: A small job: enough for every question of the answer key, run in seconds.
SMALL_JOB = """
name = "report-test"
[[sweep]]
boards = [8]
starts = "all"
method = "naive"
[[sweep]]
boards = [6, 8]
starts = "all"
method = "static"
[[sweep]]
boards = [5, 6, 8]
starts = "all"
method = "warnsdorff"
params = { tie = ["homework", "first", "lookahead-min"] }
[[sweep]]
boards = [8]
starts = "all"
method = "warnsdorff"
params = { tie = "random" }
repeats = 2
[[sweep]]
boards = [5]
starts = "all"
method = "backtrack"
[[sweep]]
boards = [6, 8]
starts = [[0, 0]]
method = "backtrack"
params = { order = "warnsdorff", closed = [false, true] }
[[sweep]]
boards = [8]
starts = [[0, 0]]
method = "parberry"
[[sweep]]
boards = [5]
method = "census"
[[sweep]]
boards = ["5..70"]
starts = [[0, 0]]
method = "warnsdorff"
params = { tie = ["first", "roth"] }
"""


def html_text(markup: str) -> str:
    """The text of an HTML page: tags dropped, entities decoded, white space collapsed."""
    markup = re.sub(r"<(style|title)\b.*?</\1>", " ", markup, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).strip()


def pdf_pages(path: Path) -> list[str]:
    with pymupdf.open(path) as document:
        return [re.sub(r"\s+", " ", page.get_text()) for page in document]


def numbers(text: str) -> set[str]:
    """The numbers in ``text``, thousands separators dropped ("1,728" is 1728; "(0, 0)" is two zeros)."""
    return {token.replace(",", "") for token in re.findall(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?", text)}


#: A course file whose key is public from DAY on (tests/report/test_site.py, tests/test_docs.py).
COURSE = """title = "Knight's tours"
class = "CS 1, spring"
due = 2030-03-01
time_zone = "Europe/Berlin"
key_public_from = 2030-03-04
"""
DAY_BEFORE, DAY = "2030-03-03", "2030-03-04"


def canonical(squares: list[tuple[int, int]], n: int) -> tuple:
    """A tour's least image under reversal and the 8 symmetries of the n x n board (for counting)."""
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - c, r),
    ]
    return min(tuple(f(r, c) for r, c in seq) for f in maps for seq in (squares, squares[::-1]))
