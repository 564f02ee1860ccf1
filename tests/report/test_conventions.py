"""Each document answered in its own terms first (issue 37, item 1).

Homework #8 in its own order of the eight moves, computed here by a Warnsdorff walk written out in that order (no
engine), checked against what the key states; the Eiffel text's first tour in Wirth's order as well as Deitel's,
by a backtracking search written out here; every grid of the key in the unit the worksheet asks (squares reached);
the conventions box saying each document's choices; the errata re-checked.
"""

from __future__ import annotations

import dataclasses
import html
import re

import pytest
from report_helpers import canonical

from knight.engine import Board, Tour
from knight.engine.backtrack import backtrack_tour
from knight.engine.greedy import naive_tour, static_tour, warnsdorff_tour
from knight.report.context import StoreData, build_context
from knight.report.handout import GRID_LEGEND
from knight.report.questions import labels, questions
from knight.report.records import Results
from knight.report.render import render_html
from knight.store.records import TourRecord
from knight.tasks import TaskResult

META = {"version": "0", "commit": "test", "date": "2023-11-14", "jobs": []}
#: Homework #8's moves from (i, j), (row, col), in the order it lists them.
HOMEWORK_ORDER = [(-1, -2), (-1, 2), (1, -2), (1, 2), (-2, -1), (-2, 1), (2, -1), (2, 1)]
#: Deitel's moves 0-7 as (row, col) changes: (vertical[k], horizontal[k]).
DEITEL_ORDER = [(-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2)]
#: Wirth's a and b (1976), a the row change.
WIRTH_ORDER = list(zip((2, 1, -1, -2, -2, -1, 1, 2), (1, 2, 2, 1, -1, -2, -2, -1)))
BUDGET = 50_000  # the 8 x 8 searches: small, so that the key's run of try_next_move.py is quick

pytestmark = pytest.mark.usefixtures("own_cache")


def walk(n: int, start: tuple[int, int], order: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Homework #8's heuristic as a student writes it: of the possible squares, in ``order``, the first of lowest
    degree (unvisited squares a move away)."""
    path, seen = [start], {start}

    def possible(square: tuple[int, int]) -> list[tuple[int, int]]:
        r, c = square
        return [
            (r + dr, c + dc) for dr, dc in order if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in seen
        ]

    while nexts := possible(path[-1]):
        best = min(nexts, key=lambda square: len(possible(square)))  # min keeps the first of equal degree
        path.append(best)
        seen.add(best)
    return path


def is_move(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def first_tour_nodes(n: int, order: list[tuple[int, int]]) -> int:
    """Try_Next_Move from (0, 0) in ``order``: the squares it places up to its first tour, the start the first."""
    board = [[False] * n for _ in range(n)]
    board[0][0] = True
    nodes = 1

    def go(k: int, r: int, c: int) -> bool:
        nonlocal nodes
        if k > n * n:
            return True
        for dr, dc in order:
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < n and 0 <= c2 < n and not board[r2][c2]:
                nodes += 1
                board[r2][c2] = True
                if go(k + 1, r2, c2):
                    return True
                board[r2][c2] = False
        return False

    assert go(2, 0, 0)
    return nodes


def record(tour: Tour) -> TourRecord:
    result = TaskResult.from_tour("test", tour)
    fields = {**vars(result.outcome), "n": result.n, "m": result.m, "method": result.method}
    stored = {f.name: fields[f.name] for f in dataclasses.fields(TourRecord) if f.name in fields}
    return TourRecord(**{**stored, "params": dict(tour.params), "start": tour.start, "jobs": ("test",)})


def everywhere(n: int):
    return [(r, c) for r in range(n) for c in range(n)]


@pytest.fixture(scope="module")
def data() -> StoreData:
    runs = [
        record(warnsdorff_tour(Board(n, n), start, tie))
        for n in (5, 6, 8)
        for start in everywhere(n)
        for tie in ("homework", "first")
    ]
    runs += [record(naive_tour(Board(8, 8), start)) for start in everywhere(8)]
    runs += [record(static_tour(Board(n, n), start)) for n in (6, 8) for start in everywhere(n)]
    runs += [record(backtrack_tour(Board(n, n), (n - 1, 0) if wirth else (0, 0))) for n in (5, 6) for wirth in (0, 1)]
    runs += [record(backtrack_tour(Board(8, 8), start, budget=BUDGET)) for start in ((0, 0), (7, 0))]
    return StoreData(Results(runs), [])


@pytest.fixture(scope="module")
def sections(data) -> dict[str, str]:
    page = render_html({**build_context(data), "meta": META}, edition="key")
    found = dict(re.findall(r'<section class="question" id="q-([\w-]+)">(.*?)</section>', page, re.S))
    found["conventions"] = re.search(r'<section class="conventions">(.*?)</section>', page, re.S).group(1)
    found["glance"] = re.search(r"Answers at a glance(.*?)</table>", page, re.S).group(1)
    return found


def text(markup: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).strip()


def test_the_engines_homework_tie_walks_as_the_homework_lists_its_moves():
    for n in (5, 6, 8):
        for start in everywhere(n):
            assert warnsdorff_tour(Board(n, n), start, "homework").squares == walk(n, start, HOMEWORK_ORDER)


@pytest.mark.parametrize("n", [5, 6, 8])
def test_the_homework_is_answered_first_in_its_own_order(sections, n):
    """Always a tour, open or closed, how many different, where it fails: the homework's order first, Deitel's beside."""
    section = text(sections[f"homework-{n}x{n}"])
    question = next(q for q in questions() if q.id == f"homework-{n}x{n}")
    asked = [tuple(s) for s in question.starts] or everywhere(n)
    own = {start: walk(n, start, HOMEWORK_ORDER) for start in everywhere(n)}
    full = {start: path for start, path in own.items() if len(path) == n * n and start in asked}
    closed = sum(is_move(p[0], p[-1]) for p in full.values())
    lead = section.split("In Deitel's move order instead")[0]
    assert "in the homework's own move order" in lead
    if len(full) == len(asked):
        assert f"finds a full tour from all {len(asked)} starts — it always finds one" in lead
    else:
        assert f"finds a full tour from {len(full)} of the {len(asked)} starts — it does not always find one" in lead
    assert (f"{closed} of them is closed" if closed == 1 else f"{closed or 'None'} of them are closed") in lead
    assert f"They are {len({tuple(p) for p in full.values()})} different tours" in lead
    assert f"{len({canonical(p, n) for p in full.values()})} up to reversal and the board's" in lead
    for start, path in own.items():
        if len(path) < n * n and (n * n) % 2 == 0:  # on the even boards each failing start is named
            assert f"{start}: {len(path)}" in lead
    deitel = {start: walk(n, start, DEITEL_ORDER) for start in asked}
    beside = section.split("In Deitel's move order instead")[1]
    assert f"a full tour from {sum(len(p) == n * n for p in deitel.values())} of the {len(asked)} starts" in beside


def test_the_homework_program_prints_the_homeworks_order(sections):
    section = text(sections["homework-program"])
    own = {start: walk(5, start, HOMEWORK_ORDER) for start in everywhere(5)}
    failing = [s for s, p in own.items() if len(p) < 25]
    shown = next(s for s in sorted(failing) if sum(s) % 2 == 0)  # the first where a tour exists (the larger colour)
    assert f"From {shown}: {len(own[shown])} of 25 squares." in section
    assert f"from {len(failing)} of the 25 squares" in section
    deitel = [s for s in everywhere(5) if len(walk(5, s, DEITEL_ORDER)) < 25]
    assert f"fails from {len(deitel)} of the 25 instead" in section


def test_the_glance_leads_with_the_homeworks_order(sections):
    glance = text(sections["glance"])
    own = [walk(5, s, HOMEWORK_ORDER) for s in everywhere(5)]
    full = [p for p in own if len(p) == 25]
    assert f"No: {len(full)} of 25; all open; {len(full)} different" in glance


def test_the_eiffel_first_tour_in_wirths_order_and_deitels(sections):
    section = text(sections["eiffel-first"])
    assert "its move order is open" in section and "Wirth" in section
    for n in (5, 6):
        for order, name in ((DEITEL_ORDER, "Deitel's"), (WIRTH_ORDER, "Wirth's")):
            assert f"{n} × {n} {name} {first_tour_nodes(n, order):,}" in section
    for name in ("Deitel's", "Wirth's"):
        assert f"8 × 8 {name} none within {BUDGET:,}" in section


def numbers_of_figure(section: str, caption: str) -> list[int]:
    """The numbers drawn in the squares of the figure with ``caption`` (the axis labels 0-7 left out)."""
    figure = re.search(
        r"<figure[^>]*>(<svg(?:(?!</svg>).)*</svg>)<figcaption>[^<]*" + re.escape(caption), section, re.S
    )
    assert figure, caption
    labels_dropped = re.sub(r'<text[^>]*class="label[^"]*"[^>]*>.*?</text>', "", figure.group(1))
    return [int(x) for x in re.findall(r"<text[^>]*>(\d+)</text>", labels_dropped)]


def test_every_grid_gives_the_squares_reached_as_the_worksheet_asks(sections):
    """The worksheet's grids ask, in each start square, how many squares the tour reached (✓ where full)."""
    naive = sorted(len(naive_tour(Board(8, 8), s).squares) for s in everywhere(8))
    drawn = numbers_of_figure(sections["deitel-naive"], "Squares reached from each start square")
    assert sorted(n for n in drawn if n >= 8) == naive  # 42 at (0, 0), not the 41 moves
    static6 = [len(static_tour(Board(6, 6), s).squares) for s in everywhere(6)]
    drawn6 = numbers_of_figure(sections["deitel-64-tours"], "the static table: the same.")
    assert sorted(n for n in drawn6 if n >= 8) == sorted(n for n in static6 if n < 36)
    own = [len(walk(5, s, HOMEWORK_ORDER)) for s in everywhere(5)]
    drawn5 = numbers_of_figure(sections["homework-5x5"], "a disc where the tour is full, else the squares numbered")
    assert sorted(n for n in drawn5 if n >= 5) == sorted(n for n in own if n < 25)
    assert "how many squares it reached" in GRID_LEGEND  # what the worksheet asks in each grid without a legend


def test_the_conventions_box_says_each_documents_choices(sections):
    box = text(sections["conventions"])
    number = labels()
    assert "(row, col), counted from 0 at the top-left, everywhere in this key" in box
    assert "A chess name beside a square" in box and "(0, 0) of 8 × 8 is a8" in box
    for document in ("Deitel", "Homework", "Eiffel", "Blog"):
        assert re.search(rf"[A-D]\. {document}", box), document
    assert f"its own list of the moves ({number['homework-program']})" in box
    assert "Wirth's" in box and "row change" in box and "61st move” is the 61st square, 60 moves" in box
    assert "“64 moves” are 64 squares, 63 moves" in box


def test_the_errata_rechecked(sections):
    assert 'class="erratum' not in sections["blog-ties"]  # "a tie between two squares": ordinary wording
    colours = text(sections["eiffel-colours"])
    assert "The document's count" in colours and "After the 60th move (the 61st square numbered)" in colours
    assert "Erratum" not in colours  # true in its own count: no error of its authors
    by_hand = text(sections["deitel-by-hand"])
    assert "The document's count" in by_hand and "Erratum" not in by_hand  # the same convention, treated alike
