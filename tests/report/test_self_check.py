"""The self-check page (check.html, built by `knight site`) agrees with `knight check`: a differential test.

Several hundred submissions are generated with a fixed seed (tours of the engine and random walks on several
boards, written in every format the command reads: 1- and 0-based arrays, bordered or comma-separated, with
prose around; 0- and 1-based pairs; chess names; CSV; knight tour --json; then broken in each way `knight
check` knows, and written with other line breaks, blanks, digits, byte-order marks and NUL bytes) and each is
checked twice, in one browser session: by the Python checker and by the page, driven in Debian's Chromium
through its own controls (the text pasted or the file picked, the assigned board, start and closed, the Check
button). Every field both give must be the same (tests/conformance/check_page.py). The page also holds up: a
5 MB paste is refused within 2 s in the command's words, a 400 x 400 partial tour gets its verdict, nothing
long runs on paste; and it works offline and on a 390 px phone. tests/conformance/ pins both to a corpus.
"""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from browser_helpers import OVERFLOWING
from conformance.check_page import Given, compared, open_check, page_report, pastable, python_report
from runner_helpers import knight

from knight.engine import Board, find_tour
from knight.grading import formats

PHONE = 390
SEED = 28


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    rows: int | None = None  # the board the student types in, for pairs
    cols: int | None = None
    start: str | None = None
    closed: bool = False
    data: bytes | None = None  # the file's bytes, when not the text's UTF-8

    def given(self) -> Given:
        board = f"{self.rows}x{self.cols or self.rows}" if self.rows else None
        return Given(self.text.encode("utf-8") if self.data is None else self.data, board, self.start, self.closed)


# --- generating submissions ------------------------------------------------------------------------


@functools.cache
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


# --- more formats, more characters, random walks ------------------------------------------------------


def chess_text(board: Board, squares: list[tuple[int, int]], sep: str) -> str:
    names = [f"{chr(97 + c)}{board.n - r}" for r, c in squares]
    return "\n".join(sep.join(names[i : i + 10]) for i in range(0, len(names), 10))


def csv_text(squares: list[tuple[int, int]], rng: random.Random) -> str:
    rows = [f"{k},{r},{c}" for k, (r, c) in enumerate(squares, start=1)]
    rng.shuffle(rows)  # the steps order them
    return "step,row,col\n" + "\n".join(rows)


def json_text(board: Board, squares: list[tuple[int, int]]) -> str:
    return json.dumps({"board": [board.n, board.m], "squares": [list(sq) for sq in squares]})


def random_walk(rng: random.Random, board: Board) -> list[tuple[int, int]]:
    """A knight's random walk that stops where it is stuck (a partial tour), sometimes a step further."""
    square = (rng.randrange(board.n), rng.randrange(board.m))
    path, seen = [square], {square}
    while True:
        r, c = path[-1]
        options = [
            (r + dr, c + dc)
            for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
            if board.contains((r + dr, c + dc)) and (r + dr, c + dc) not in seen
        ]
        if not options:
            return path
        path.append(rng.choice(options))
        seen.add(path[-1])


#: Characters the two front ends once read differently (issue 36): line breaks, blanks, digits, marks, NUL.
ODD_BREAKS = ["\u2028", "\u2029", "\f", "\v", "\x85", "\x1c", "\x1d", "\x1e", "\r", "\r\n"]
ODD_BLANKS = ["\xa0", "\u3000", "\u2007", "\x1f", "\u205f", "\u1680", "\u200b", "\ufeff"]
ODD_DIGITS = ["\u0661", "\uff11", "\u0967", "\u00b9", "\U0001d7cf"]


def odd(rng: random.Random, text: str) -> tuple[str, str, bytes | None]:
    """``text`` with one of the characters of issue 36 put in: (what was done, the text, the bytes or None)."""
    kind = rng.choice(["break", "blank", "digit", "mark", "nul", "utf16", "latin1"])
    if kind == "break":
        ch = rng.choice(ODD_BREAKS)
        return f"rows split by {ch!r}", text.replace("\n", ch), None
    if kind == "blank":
        ch = rng.choice(ODD_BLANKS)
        return f"blanks {ch!r}", text.replace(" ", ch, rng.choice([1, 3, 10**6])), None
    if kind == "digit":
        ch = rng.choice(ODD_DIGITS)
        return f"digit {ch!r}", text.replace("1", ch, rng.choice([1, 10**6])), None
    if kind == "mark":
        at = rng.randrange(len(text) + 1)
        return f"byte-order mark at {at}", text[:at] + "\ufeff" + text[at:], None
    if kind == "nul":
        at = rng.randrange(len(text) + 1)
        return f"NUL at {at}", text[:at] + "\x00" + text[at:], None
    if kind == "utf16":
        return "UTF-16 with its mark", text, text.encode("utf-16")
    return "Latin-1 prose", "Tour by Ren\xe9e\n" + text, ("Tour by Ren\xe9e\n" + text).encode("latin-1")


@functools.cache
def differential_cases() -> list[Case]:
    """The cases above, and as many again in the other formats and characters, random walks and assignments."""
    rng = random.Random(SEED + 1)
    found = cases()
    for board, squares in tours():
        for what, path in [("valid", squares), *broken(rng, board, squares)]:
            on_board = all(board.contains(sq) for sq in path)
            if on_board:
                found.append(
                    Case(f"{board} {what} chess", chess_text(board, path, rng.choice([" ", " -> ", "-", ", "])))
                )
            found.append(Case(f"{board} {what} csv", csv_text(path, rng), board.n if rng.random() < 0.3 else None))
            found.append(Case(f"{board} {what} json", json_text(board, path)))
    for i in range(40):
        board = Board(rng.randrange(3, 13), rng.randrange(3, 13))
        walk = random_walk(rng, board)
        text = array_text(board, walk, zero=False, style=rng.choice(["plain", "bordered", "commas"]))
        start = f"{rng.randrange(board.n)},{rng.randrange(board.m)}" if rng.random() < 0.5 else "{},{}".format(*walk[0])
        found.append(Case(f"walk {i} on {board}", text, board.n, board.m, start, rng.random() < 0.3))
    for i in range(60):
        board, squares = rng.choice(tours())
        text = rng.choice(
            [
                array_text(board, squares, zero=False, style="plain"),
                pairs_text(squares, one=False, style="lines"),
                chess_text(board, squares, " "),
                csv_text(squares, rng),
            ]
        )
        what, text, data = odd(rng, text)
        found.append(Case(f"{board} {what} ({i})", text, data=data))
    return found


# --- the two checkers ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site's pages, before the key's day (the self-check page needs no store), for a course that assigns
    a closed tour of the 6x8 board from (1, 2)."""
    out, here = tmp_path_factory.mktemp("site"), tmp_path_factory.mktemp("course")
    course = Path(__file__).resolve().parents[2] / "course.toml"
    text = course.read_text(encoding="utf-8").split("[assignment]")[0]
    (here / "course.toml").write_text(text + '[assignment]\nboard = "6x8"\nstart = "1,2"\nclosed = true\n')
    store = here / "no-store.sqlite"
    done = knight(
        ["site", "--out", str(out), "--today", "2000-01-01", "--no-pdf", "--course", str(here / "course.toml")], store
    )
    assert done.returncode == 0, done.stderr
    return out


def test_the_cases_cover_every_verdict_format_and_character():
    reports = [python_report(case.given()) for case in differential_cases()]
    assert len(reports) >= 300
    assert {r["verdict"] for r in reports} == {"full", "partial", "not a tour", "unreadable"}
    assert {r["format"] for r in reports if r["verdict"] != "unreadable"} == set(formats.FORMATS)
    assert any(r["closed"] for r in reports) and any(r["repeated"] for r in reports)
    assert any(r["assigned"] is False for r in reports) and any(r["passed"] for r in reports)
    assert sum(r["first_error_step"] not in (None, 1) for r in reports) > 50
    assert any("binary" in r["errors"][0] for r in reports if r["verdict"] == "unreadable")


def test_the_page_agrees_with_knight_check(browser, site):  # noqa: F811
    """Every case in one session, pasted (or picked, when its bytes are not its text's UTF-8)."""
    page, errors, requests = open_check(browser, site)
    try:
        disagree, picked = [], 0
        for case in differential_cases():
            given = case.given()
            paste = case.data is None and pastable(given.data)
            picked += not paste
            expected, shown = compared(python_report(given)), compared(page_report(page, given, paste=paste))
            if expected != shown:
                diff = {key: (shown.get(key), expected.get(key)) for key in expected if shown.get(key) != expected[key]}
                disagree.append(f"{case.name}: page vs knight check {diff}"[:500])
        assert disagree == [], f"{len(disagree)} disagreements:\n" + "\n".join(disagree[:10])
        assert picked >= 10
        assert errors == []
        assert requests == [(site / "check.html").as_uri()]  # offline: nothing but the page itself
    finally:
        page.context.close()


def test_the_page_holds_formats_bounds_and_characters(browser, site):  # noqa: F811
    page, errors, _ = open_check(browser, site)
    try:
        held = page.evaluate("window.knightCheck")
        assert held == {
            "MAX_BYTES": formats.MAX_BYTES,
            "MAX_BOARD_SQUARES": formats.MAX_BOARD_SQUARES,
            "MAX_DIGITS": formats.MAX_DIGITS,
            "MAX_JSON_DEPTH": formats.MAX_JSON_DEPTH,
            "LINE_BREAKS": formats.LINE_BREAKS,
            "SPACES": formats.SPACES,
            "TOO_LARGE": formats.too_large(),
        }
        assert errors == []
    finally:
        page.context.close()


def test_the_assignment_is_prefilled_from_the_course_and_said(browser, site):  # noqa: F811
    page, errors, _ = open_check(browser, site)
    try:
        assert page.input_value("#board-size") == "6x8" and page.input_value("#start") == "1,2"
        assert page.is_checked("#closed")
        assert "a closed tour of the 6x8 board from (1, 2)" in page.text_content("#exercise")
        board, squares = tours()[10]  # 6 x 8 from (1, 2), open
        page.fill("#tour", array_text(board, squares, zero=False, style="plain"))
        page.click("#check")
        shown = page.text_content("#verdict")
        assert "Verdict: full tour, open." in shown
        assert "Exercise: not passed: the assigned exercise; an open tour, a closed one assigned." in shown
        assert page.get_attribute("#verdict", "data-passed") == "false"
        page.fill("#board-size", "5")
        page.click("#check")
        assert "not the assigned exercise: board 6x8, assigned 5x5" in page.text_content("#verdict")
        assert errors == []
    finally:
        page.context.close()


def test_the_page_marks_the_first_error_on_the_board(browser, site):  # noqa: F811
    board, squares = tours()[4]  # 8 x 8
    squares = list(squares)
    squares[10], squares[20] = squares[20], squares[10]
    page, errors, _ = open_check(browser, site, PHONE)
    try:
        page.fill("#board-size", "")
        page.fill("#start", "")
        page.fill("#tour", array_text(board, squares, zero=False, style="plain"))
        page.click("#check")
        assert page.get_attribute("#verdict", "data-verdict") == "not a tour"
        assert "First error: step 10:" in page.text_content("#verdict")
        assert page.locator("#board rect.sq").count() == 64
        assert page.locator("#board .error-square").count() == 1 and page.locator("#board .error-move").count() == 1
        # labelled as the handout's boards: rows and columns numbered from 0
        assert page.locator("#board text.coord").all_text_contents() == [str(i) for i in range(8)] * 2
        assert errors == []
    finally:
        page.context.close()


# --- the page holds up ------------------------------------------------------------------------------

#: A paste as a student makes it: the text into #tour, the input event, then the Check button; the time each
#: took in the page, and the report shown.
PASTE = """([text, press]) => {
  const tour = document.querySelector("#tour"), t0 = performance.now();
  tour.value = text;
  tour.dispatchEvent(new Event("input"));
  const t1 = performance.now();
  if (press) document.querySelector("#check").click();
  return {input: t1 - t0, check: performance.now() - t1, report: window.knightCheckReport,
          pending: document.querySelector("#pending").textContent, text: document.querySelector("#verdict").textContent};
}"""


def test_a_5_mb_paste_is_refused_at_once_in_the_commands_words(browser, site):  # noqa: F811
    page, errors, _ = open_check(browser, site)
    try:
        shown = page.evaluate(PASTE, ["(" + " " * 5_000_000, False])  # refused on paste, no Check needed
        # the page's own time (a few ms here; a quadratic reading took minutes): not the transfer of 5 MB to it,
        # which depends on the machine's load
        assert shown["report"]["errors"] == [formats.too_large()] and shown["input"] < 2000, shown["input"]
        assert f"Cannot read this: {formats.too_large()}." in shown["text"]
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize(
    "text",
    [
        "(" + " " * 1_900_000,  # _PAIR's blanks after a bracket
        "(1" + " " * 1_900_000 + "x",
        "-" * 1_900_000,  # _CHESS_SPLIT's dashes
        "a1 " + "-" * 1_900_000 + "b",
        "{" + '"' + '\\"' * 900_000,  # a JSON string of escapes, unterminated
        "[(" * 900_000,
        "1 " * 950_000,
    ],
    ids=["bracket-blanks", "pair-blanks", "dashes", "chess-dashes", "json-escapes", "brackets", "one-long-row"],
)
def test_a_2_mb_paste_that_was_quadratic_is_answered_within_2_s(browser, site, text):  # noqa: F811
    page, errors, _ = open_check(browser, site)
    try:
        shown = page.evaluate(PASTE, [text, True])
        assert shown["pending"] == "A long text: press Check."  # a long paste is not checked by itself
        assert shown["input"] < 1000 and shown["check"] < 2000, shown  # quadratic: 17 s and more
        expected = python_report(Given(text.encode()))
        assert compared(shown["report"]) == compared(expected)
        assert errors == []
    finally:
        page.context.close()


def test_a_400_by_400_partial_tour_gets_its_verdict(browser, site):  # noqa: F811
    board = Board(400, 400)
    squares = find_tour(board, (0, 0)).squares[:120_000]
    text = array_text(board, squares, zero=False, style="plain")
    assert len(text.encode()) <= formats.MAX_BYTES
    page, errors, _ = open_check(browser, site)
    try:
        page.fill("#board-size", "400")
        page.fill("#start", "0,0")
        page.uncheck("#closed")
        shown = page.evaluate(PASTE, [text, True])
        assert shown["check"] < 2000, shown["check"]
        report = shown["report"]
        assert report["verdict"] == "partial" and report["summary"] == "partial tour of 120000 of 160000 squares"
        assert len(report["unvisited"]) == 40_000 and report["first_error_step"] is None
        assert "Verdict: partial tour of 120000 of 160000 squares." in shown["text"]
        assert "board is too large to draw" in page.text_content("#board")
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
            page.fill("#board-size", "")
            page.fill("#tour", array_text(board, squares, zero=False, style="bordered"))
            page.click("#check")
            box = page.locator("#board svg").bounding_box()
            assert box is not None and box["width"] >= 300 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE
            for control in ("#tour", "#check", "#board-size", "#start", "#closed", "#format", "#file"):
                edge = page.locator(control).bounding_box()
                assert edge is not None and edge["x"] >= 0 and edge["x"] + edge["width"] <= PHONE, control
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE, "\n".join([f"{name} is {width} px wide:", *page.evaluate(OVERFLOWING, PHONE)])
        assert errors == []
    finally:
        page.context.close()
