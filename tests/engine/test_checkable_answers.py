"""Answers a student can check: the tours the homework asks for drawn as numbered boards, every failing start named
with how far it got, verdicts given for each tie-break where the answer depends on it, and Parberry's join drawn.

A small store is made by `knight run`, the key's HTML rendered from it, and every expected value is computed here
again with the engine, independently of the report's code.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

import pytest
from runner_helpers import knight, write_job

from knight.engine import Board, find_tour
from knight.engine.parberry import parberry_join, parberry_tour

JOB = """
name = "checkable"
[[sweep]]
boards = [6, 8]
starts = "all"
method = "warnsdorff"
params = { tie = ["homework", "first", "lookahead-sum"] }
[[sweep]]
boards = [8]
starts = "all"
method = "warnsdorff"
params = { tie = "blog" }
[[sweep]]
boards = [5]
starts = "all"
method = "warnsdorff"
params = { tie = ["homework", "first"] }
[[sweep]]
boards = [8]
starts = "all"
method = "naive"
[[sweep]]
boards = [6, 8]
starts = "all"
method = "static"
[[sweep]]
boards = ["40..70"]
starts = [[0, 0]]
method = "warnsdorff"
params = { tie = ["first", "roth"] }
[[sweep]]
boards = [8, 12]
starts = [[0, 0]]
method = "parberry"
"""
#: The starts Homework #8 asks about on 6 x 6 and 8 x 8 (questions.toml).
ASKED = {6: [(0, 0), (0, 1), (1, 2), (2, 2)], 8: [(0, 0), (0, 1), (1, 2), (3, 3)]}
#: How the PDF is read: an SVG's units are scaled to its figure's width in millimetres.
POINTS_PER_MM = 72 / 25.4


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> str:
    directory = tmp_path_factory.mktemp("checkable")
    store = directory / "knight.sqlite"
    done = knight(["run", str(write_job(directory, "checkable", JOB)), "--workers", "2"], store, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = directory / "out"
    done = knight(["report", "--store", str(store), "--out", str(out), "--edition", "key", "--no-pdf"], store)
    assert done.returncode == 0, done.stderr[-2000:]
    return (out / "knights-tour.html").read_text().replace("\u00a0", " ")


def section(page: str, question: str) -> str:
    """The HTML of one question's section, up to the next question's."""
    start = page.index(f'id="q-{question}"')
    following = page.find('<section class="question"', start)
    return page[start : following if following != -1 else len(page)]


def text(fragment: str) -> str:
    """What a reader sees: the text, tags removed, spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment)))


def name(n: int, square: tuple[int, int]) -> str:
    """A square's chess name on an n x n board, row 0 the top rank: (2, 3) on 6 x 6 is d4."""
    return "abcdefghijklmnop"[square[1]] + str(n - square[0])


def named(n: int, start: tuple[int, int], reached: int) -> str:
    """How the key names a failing start: ``d4 (2, 3): 34``."""
    return f"{name(n, start)} ({start[0]}, {start[1]}): {reached}"


def figures(fragment: str, kind: str) -> list[tuple[float, ET.Element]]:
    """The SVGs of class ``board <kind>`` in the fragment, each with the width in mm its figure prints at."""
    found = []
    for width, svg in re.findall(
        r'<figure class="[^"]*"(?: style="width: ([\d.]+)mm")?>(<svg[^>]*class="board ' + kind + r'".*?</svg>)',
        fragment,
        re.S,
    ):
        found.append((float(width) if width else 0.0, ET.fromstring(svg)))
    return found


def numbers_on(svg: ET.Element) -> dict[tuple[int, int], int]:
    """The move number in each square of a numbered board (the squares are 40 units, row 0 at the top)."""
    ns = "{http://www.w3.org/2000/svg}"
    return {
        (int(float(t.get("y", 0)) // 40), int(float(t.get("x", 0)) // 40)): int(t.text or "")
        for t in svg.iter(f"{ns}text")
        if (t.text or "").isdigit() and float(t.get("x", -1)) >= 0 and float(t.get("y", -1)) >= 0
    }


def smallest_number_pt(width_mm: float, svg: ET.Element) -> float:
    """The size in points the smallest number of an SVG prints at, the SVG drawn ``width_mm`` wide."""
    units = float(svg.get("viewBox", "0 0 1 1").split()[2])
    sizes = [float(t.get("font-size", 0)) for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    return min(sizes) * width_mm / units * POINTS_PER_MM


#: A cell of a numbered board's printed rows: one figure between figure spaces, two between spaces, three, or none.
CELL = re.compile("\u2007(\\d)\u2007| (\\d\\d) |(\\d{3})|\u2007{3}")


def numbered_boards(fragment: str) -> list[tuple[dict, dict, float]]:
    """Each numbered board of the fragment: the numbers of its screen layer, those of its printed rows (by square),
    and the size in points the printed numbers have."""
    found = []
    for layer, style, rows in re.findall(
        r'<div class="numbers-layer">(<svg.*?</svg>)</div><pre class="board-numbers"[^>]*style="([^"]*)">(.*?)</pre>',
        fragment,
        re.S,
    ):
        printed = {}
        for r, line in enumerate(html.unescape(re.sub(r"<[^>]+>", "", rows)).split("\n")):
            cells = list(CELL.finditer(line))
            assert "".join(c[0] for c in cells) == line, repr(line)  # nothing on the line but whole cells
            for c, cell in enumerate(cells):
                number = next(filter(None, cell.groups()), None)
                if number:
                    printed[(r, c)] = int(number)
        font_mm = float(re.search(r"font-size: ([\d.]+)mm", style)[1])
        found.append((numbers_on(ET.fromstring(layer)), printed, font_mm * POINTS_PER_MM))
    return found


@pytest.mark.parametrize("n", [6, 8])
def test_the_tours_asked_for_are_numbered_boards_with_the_programs_numbers(page, n):
    b = section(page, f"homework-{n}x{n}")
    boards = numbered_boards(b)
    assert len(boards) == len(ASKED[n])
    for (screen, printed, points), start in zip(boards, ASKED[n]):
        array = find_tour(Board(n, n), start, "warnsdorff", tie="homework").array()  # the homework's own order
        expected = {(r, c): int(array[r, c]) for r in range(n) for c in range(n) if array[r, c]}
        assert screen == expected, start
        assert printed == expected, start
        assert points >= 8.5, f"numbers too small to read on {n} x {n}"
        assert f"From {start}:" in text(b)


def test_every_full_tour_of_5x5_is_drawn_numbered_beside_each_starts_outcome(page):
    b2 = section(page, "homework-5x5")
    squares = [(r, c) for r in range(5) for c in range(5)]
    tours = {s: find_tour(Board(5, 5), s, "warnsdorff", tie="homework") for s in squares}  # the homework's own order
    drawn = [(screen, printed) for screen, printed, _ in numbered_boards(b2)]
    full = [s for s, t in tours.items() if t.full]
    assert len(drawn) == len(full)
    for start in full:
        numbers = {square: int(tours[start].array()[square]) for square in squares}
        assert (numbers, numbers) in drawn, start
    outcomes = figures(b2, "outcomes")
    assert len(outcomes) == 1
    marked = numbers_on(outcomes[0][1])  # a failing start shows the squares it reached
    assert marked == {s: t.length for s, t in tours.items() if not t.full}


@pytest.mark.parametrize(
    "question, n, tie",
    [
        ("homework-5x5", 5, "homework"),
        ("homework-5x5", 5, "first"),
        ("homework-6x6", 6, "first"),
        ("homework-6x6", 6, "lookahead-sum"),
        ("homework-8x8", 8, "homework"),
        ("homework-8x8", 8, "first"),
        ("homework-8x8", 8, "lookahead-sum"),
        ("deitel-64-tours", 8, "first"),
        ("blog-ties", 8, "first"),
        ("blog-ties", 8, "lookahead-sum"),
        ("blog-ties", 8, "blog"),
        ("blog-script", 8, "blog"),
    ],
)
def test_every_failing_start_is_named_with_how_far_it_got(page, question, n, tie):
    shown = text(section(page, question))
    board = Board(n, n)
    failed = [
        t for t in (find_tour(board, (r, c), "warnsdorff", tie=tie) for r in range(n) for c in range(n)) if not t.full
    ]
    assert failed, "the test needs a rule that fails somewhere"
    for tour in failed:
        if n % 2 and board.colour(tour.start) == 1:
            continue  # the smaller colour of an odd board: summed up ("each of the 12 squares …"), its map shows each
        assert named(n, tour.start, tour.length) in shown, (question, tie, tour.start)


def table_rows(fragment: str, table_class: str) -> dict[str, list[str]]:
    """The rows of the table of that class in the fragment: its first cell's text -> the other cells' texts."""
    table = re.search(rf'<table class="[^"]*{table_class}[^"]*">(.*?)</table>', fragment, re.S)
    assert table, table_class
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S):
        cells = [text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if cells:
            rows[cells[0]] = cells[1:]
    return rows


def test_a3_answers_did_you_get_a_full_tour_for_each_tie_break(page):
    rows = table_rows(section(page, "deitel-heuristic"), "tie-verdicts")
    corners = [(0, 0), (0, 7), (7, 0), (7, 7)]
    for tie in ("first", "lookahead-sum", "blog"):
        tours = {s: find_tour(Board(8, 8), s, "warnsdorff", tie=tie) for s in corners}
        answer, corner_full, stopped = rows[tie]
        assert answer == ("Yes" if tours[(0, 0)].full else "No"), tie
        assert corner_full == f"{sum(t.full for t in tours.values())} of 4", tie
        for start, tour in tours.items():
            assert (named(8, start, tour.length) in stopped) == (not tour.full), (tie, start)
    assert "No with lookahead-sum ties" in text(section(page, "deitel-heuristic"))


@pytest.mark.parametrize("n", [6, 8])
def test_always_a_tour_is_answered_for_each_tie_break_from_the_starts_asked(page, n):
    rows = table_rows(section(page, f"homework-{n}x{n}"), "tie-verdicts")
    assert list(rows)[:2] == ["homework (its own order)", "first (Deitel's order)"]  # the homework's own order first
    for tie, row in (
        ("homework", "homework (its own order)"),
        ("first", "first (Deitel's order)"),
        ("lookahead-sum",) * 2,
    ):
        full = sum(find_tour(Board(n, n), s, "warnsdorff", tie=tie).full for s in ASKED[n])
        verdict = "Yes" if full == len(ASKED[n]) else "No"
        assert rows[row][-1] == f"{full} of {len(ASKED[n])}: {verdict}", tie


def test_the_blogs_claim_is_judged_for_each_tie_break(page):
    shown = text(section(page, "blog-past-50"))
    for tie in ("first", "roth"):
        failing = [m for m in range(40, 71) if not find_tour(Board(m, m), (0, 0), "warnsdorff", tie=tie).full]
        holds = not [m for m in failing if m <= 50] and [m for m in failing if m > 50]
        verdict = "agree" if holds else "disagree"
        assert re.search(rf"<td>{tie}</td>.*?<span class=\"verdict {verdict}\">", section(page, "blog-past-50"), re.S)
    assert re.search(r"our runs agree for first, disagree for the 1 other", shown)


@pytest.mark.parametrize("side", [12, 16])
def test_parberrys_join_is_four_quarter_tours_with_four_moves_changed(side):
    join = parberry_join(Board(side, side))
    tour = parberry_tour(Board(side, side))

    def moves(cycle) -> set[frozenset]:
        return {frozenset(pair) for pair in zip(cycle, [*cycle[1:], cycle[0]])}

    assert len(join.quarters) == 4 and sum(map(len, join.quarters)) == side * side
    for cycle in join.quarters:
        for move in moves(cycle):
            a, b = tuple(move)
            assert abs(a[0] - b[0]) * abs(a[1] - b[1]) == 2, move  # a closed knight's tour of the quarter
    made = set().union(*(moves(q) for q in join.quarters))
    assert {frozenset(m) for m in join.removed} <= made
    made = (made - {frozenset(m) for m in join.removed}) | {frozenset(m) for m in join.added}
    assert made == moves(tour.squares)


def test_the_join_is_drawn_in_c6(page):
    c6 = section(page, "eiffel-parberry")
    drawn = figures(c6, "join")
    assert len(drawn) == 1
    svg = drawn[0][1]
    ns = "{http://www.w3.org/2000/svg}"
    assert len([p for p in svg.iter(f"{ns}polyline") if p.get("class") == "quarter-tour"]) == 4
    join = parberry_join(Board(12, 12))

    def lines(kind: str) -> set[frozenset]:
        return {
            frozenset(
                {
                    (int(float(ln.get("y1", 0)) // 40), int(float(ln.get("x1", 0)) // 40)),
                    (int(float(ln.get("y2", 0)) // 40), int(float(ln.get("x2", 0)) // 40)),
                }
            )
            for ln in svg.iter(f"{ns}line")
            if ln.get("class") == kind
        }

    assert lines("removed") == {frozenset(m) for m in join.removed}
    assert lines("added") == {frozenset(m) for m in join.added}
    shown = text(c6)
    for a, b in [*join.removed, *join.added]:
        assert f"{a}–{b}" in shown
    assert "exactly these four quarter tours with these eight moves changed" in shown
