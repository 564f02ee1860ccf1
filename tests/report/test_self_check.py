"""The self-check page (check.html, built by `knight site`) agrees with `knight check`.

A few hundred submissions are generated with a fixed seed (tours of the engine on several boards, written
as 1- and 0-based arrays, bordered or comma-separated, with prose around, and as 0- and 1-based pairs; then
broken in each way `knight check` knows) and each is checked twice: by the Python checker and by the page,
driven in Debian's Chromium through Playwright as a student would (paste, board size, the Check button).
The verdict, whether a full tour is closed, the first error step and the repeated and unvisited squares must
be the same. The page is also checked offline (no request leaves it) and on a 390 px phone.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from browser_helpers import OVERFLOWING
from runner_helpers import knight

from knight.engine import Board, find_tour
from knight.errors import Unreadable
from knight.grading.check import check
from knight.grading.formats import parse_text

PHONE = 390
SEED = 28


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    rows: int | None = None  # the board the student types in, for pairs
    cols: int | None = None


# --- generating submissions ------------------------------------------------------------------------


def tours() -> list[tuple[Board, list[tuple[int, int]]]]:
    """Full open and closed tours and partial ones, from the engine, on several boards."""
    specs = [
        (5, 5, (0, 0), "warnsdorff", {}),
        (5, 5, (2, 2), "warnsdorff", {}),
        (6, 6, (0, 0), "warnsdorff", {}),
        (6, 6, (0, 0), "parberry", {}),  # closed
        (8, 8, (0, 0), "warnsdorff", {}),
        (8, 8, (3, 4), "parberry", {}),  # closed
        (8, 8, (0, 0), "naive", {}),  # partial
        (7, 7, (0, 0), "naive", {}),  # partial
        (3, 4, (0, 0), "backtrack", {}),
        (5, 6, (0, 0), "backtrack", {}),
        (6, 8, (1, 2), "warnsdorff", {}),
        (10, 10, (0, 0), "warnsdorff", {}),
    ]
    return [
        (Board(n, m), find_tour(Board(n, m), start, method, **params).squares) for n, m, start, method, params in specs
    ]


def array_text(board: Board, squares: list[tuple[int, int]], *, zero: bool, style: str) -> str:
    """The numbered board: square k holds k (k - 1 when 0-based); unvisited 0 (a dot when 0-based)."""
    cells = [["." if zero else "0"] * board.m for _ in range(board.n)]
    for k, (r, c) in enumerate(squares, start=1):
        if board.contains((r, c)):
            cells[r][c] = str(k - 1 if zero else k)
    width = max(len(cell) for row in cells for cell in row)
    if style == "bordered":
        rule = "+" + "+".join("-" * (width + 2) for _ in range(board.m)) + "+"
        lines = [rule]
        for row in cells:
            lines += ["| " + " | ".join(cell.rjust(width) for cell in row) + " |", rule]
        return "\n".join(lines)
    if style == "commas":
        return "\n".join(", ".join(row) for row in cells)
    body = "\n".join(" ".join(cell.rjust(width) for cell in row) for row in cells)
    return f"Knight's tour from the corner:\n{body}\nDone: {len(squares)} moves.\n" if style == "prose" else body


def pairs_text(squares: list[tuple[int, int]], *, one: bool, style: str) -> str:
    shift = 1 if one else 0
    shifted = [(r + shift, c + shift) for r, c in squares]
    if style == "lines":
        return "\n".join(f"{r} {c}" for r, c in shifted)
    if style == "brackets":
        return " ".join(f"[{r}, {c}]" for r, c in shifted)
    return "Path: " + " -> ".join(f"({r}, {c})" for r, c in shifted)


def broken(rng: random.Random, board: Board, squares: list[tuple[int, int]]) -> list[tuple[str, list]]:
    """The tour broken in each way knight check knows (squares, not yet written)."""
    n = len(squares)
    i, j = sorted(rng.sample(range(1, n), 2))
    swapped = list(squares)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    repeated = list(squares)
    repeated[j] = repeated[i]
    missing = squares[:i] + squares[i + 1 :]
    off = list(squares)
    off[i] = (board.n, rng.randrange(board.m)) if rng.random() < 0.5 else (rng.randrange(board.n), -1)
    not_knight = list(squares)
    far = [sq for sq in ((r, c) for r in range(board.n) for c in range(board.m)) if sq not in squares[i - 1 : i + 2]]
    not_knight[i] = rng.choice(far)
    truncated = squares[: rng.randrange(2, n)]
    return [
        ("swapped", swapped),
        ("repeated", repeated),
        ("missing", missing),
        ("off-board", off),
        ("not-a-knight-move", not_knight),
        ("truncated", truncated),
    ]


def cases() -> list[Case]:
    rng = random.Random(SEED)
    found: list[Case] = []
    for board, squares in tours():
        size = f"{board.n}x{board.m}"
        variants = [("valid", squares), *broken(rng, board, squares)]
        for what, path in variants:
            on_board = all(board.contains(sq) for sq in path)
            for style in rng.sample(["plain", "bordered", "commas", "prose"], 2):
                if on_board:
                    zero = style in ("commas", "prose") or rng.random() < 0.3
                    text = array_text(board, path, zero=zero, style=style)
                    found.append(Case(f"{size} {what} array {style} {'0' if zero else '1'}-based", text))
            for style in rng.sample(["arrows", "lines", "brackets"], 2):
                one = rng.random() < 0.4
                given = rng.random() < 0.5
                found.append(
                    Case(
                        f"{size} {what} pairs {style} {'1' if one else '0'}-based{' board given' if given else ''}",
                        pairs_text(path, one=one, style=style),
                        board.n if given else None,
                        board.m if given else None,
                    )
                )
        # what an array alone can get wrong: a number written twice, one out of range, a ragged row, long digits
        text = array_text(board, squares, zero=False, style="plain").splitlines()
        first = text[0].split()
        found += [
            Case(f"{size} array twice", "\n".join([" ".join([first[1], *first[1:]]), *text[1:]])),
            Case(f"{size} array out of range", "\n".join([" ".join([str(board.size + 5), *first[1:]]), *text[1:]])),
            Case(f"{size} array ragged", "\n".join([" ".join(first[:-1]), *text[1:]])),
            Case(f"{size} array long digits", "\n".join([" ".join(["1" * 13, *first[1:]]), *text[1:]])),
            Case(f"{size} array a number zeroed", "\n".join([" ".join(["0", *first[1:]]), *text[1:]])),
            Case(f"{size} array empty", "\n".join(" ".join("0" for _ in range(board.m)) for _ in range(board.n))),
        ]
    found += [
        Case("nothing", "   \n"),
        Case("prose only", "My program crashed."),
        Case("one pair", "(0, 0)"),
        Case("mixed pairs and chess", "(0, 0) (2, 1)\na8 b6 c8"),
    ]
    return found


# --- the two checkers ------------------------------------------------------------------------------


def python_verdict(case: Case) -> dict:
    board = Board(case.rows, case.cols or case.rows) if case.rows else None
    try:
        submission = parse_text(case.text, board=board)
    except Unreadable:
        return {"verdict": "unreadable"}
    result = check(submission, reproduce=False)
    return {
        "verdict": result.verdict,
        "closed": result.closed,
        "first_error": result.first_error_step,
        "repeated": sorted([list(sq), nums] for sq, nums in result.repeated.items()),
        "unvisited": [list(sq) for sq in result.unvisited],
    }


#: One case through the page's own controls, in one round trip: the text into #tour, the board into #rows and
#: #cols, a click on #check, and what #verdict then shows (its data and its words). Playwright's fill and click
#: take 50 ms a case; the tests that type and tap as a student would are below.
SUBMIT = """([text, rows, cols]) => {
  document.querySelector("#tour").value = text;
  document.querySelector("#rows").value = rows;
  document.querySelector("#cols").value = cols;
  document.querySelector("#check").click();
  const verdict = document.querySelector("#verdict");
  return {...verdict.dataset, text: verdict.textContent};
}"""


def page_verdict(page, case: Case) -> dict:
    data = page.evaluate(SUBMIT, [case.text, str(case.rows or ""), str(case.cols or "")])
    assert data["text"].strip(), f"{case.name}: the page shows no verdict"
    if data["verdict"] == "unreadable":
        return {"verdict": "unreadable"}
    return {
        "verdict": data["verdict"],
        "closed": data["closed"] == "true",
        "first_error": int(data["firstError"]) if data["firstError"] else None,
        "repeated": sorted(json.loads(data["repeated"])),
        "unvisited": json.loads(data["unvisited"]),
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site's pages, before the key's day (the self-check page needs no store)."""
    out = tmp_path_factory.mktemp("site")
    store = out / "no-store.sqlite"
    done = knight(["site", "--out", str(out), "--today", "2000-01-01", "--no-pdf"], store)
    assert done.returncode == 0, done.stderr
    return out


def open_check(browser, site: Path, width: int):  # noqa: F811 - the fixture's value
    context = browser.new_context(viewport={"width": width, "height": 800}, offline=True)
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.on("request", lambda request: requests.append(request.url))
    page.goto((site / "check.html").as_uri())
    return page, errors, requests


def test_the_cases_cover_every_verdict_and_error():
    verdicts = [python_verdict(case) for case in cases()]
    assert len(verdicts) >= 300
    assert {v["verdict"] for v in verdicts} == {"full", "partial", "not a tour", "unreadable"}
    assert any(v.get("closed") for v in verdicts) and any(v.get("repeated") for v in verdicts)
    assert sum(v.get("first_error") not in (None, 1) for v in verdicts) > 50


def test_the_page_agrees_with_knight_check(browser, site):  # noqa: F811
    page, errors, requests = open_check(browser, site, 1024)
    try:
        disagree = []
        for case in cases():
            expected, shown = python_verdict(case), page_verdict(page, case)
            if expected != shown:
                disagree.append(f"{case.name}: knight check {expected}, the page {shown}")
        assert disagree == [], f"{len(disagree)} disagreements:\n" + "\n".join(disagree[:10])
        assert errors == []
        assert requests == [(site / "check.html").as_uri()]  # offline: nothing but the page itself
    finally:
        page.context.close()


def test_the_page_marks_the_first_error_on_the_board(browser, site):  # noqa: F811
    board, squares = tours()[4]  # 8 x 8
    squares = list(squares)
    squares[10], squares[20] = squares[20], squares[10]
    page, errors, _ = open_check(browser, site, PHONE)
    try:
        page.fill("#tour", array_text(board, squares, zero=False, style="plain"))
        page.click("#check")
        assert page.get_attribute("#verdict", "data-verdict") == "not a tour"
        assert "step 10" in page.text_content("#verdict")
        assert page.locator("#board rect.sq").count() == 64
        assert page.locator("#board .error-square").count() == 1 and page.locator("#board .error-move").count() == 1
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("name", ["check.html", "index.html"])
def test_usable_on_a_phone(browser, site, name):  # noqa: F811
    """At 390 px nothing is cut off and the board fits: a 10 x 10 tour drawn within the screen."""
    page, errors, _ = open_check(browser, site, PHONE)
    try:
        if name == "index.html":
            page.goto((site / name).as_uri())
        else:
            board, squares = tours()[-1]
            page.fill("#tour", array_text(board, squares, zero=False, style="bordered"))
            page.click("#check")
            box = page.locator("#board svg").bounding_box()
            assert box is not None and box["width"] >= 300 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE
            for control in ("#tour", "#check", "#rows", "#cols", "#file"):
                edge = page.locator(control).bounding_box()
                assert edge is not None and edge["x"] >= 0 and edge["x"] + edge["width"] <= PHONE, control
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE, "\n".join([f"{name} is {width} px wide:", *page.evaluate(OVERFLOWING, PHONE)])
        assert errors == []
    finally:
        page.context.close()
