"""The answers to the Eiffel text (backtracking: the first tour, closed tours, the colour argument, the board
without two corners, and Parberry's join; all tours, Try_All's counts, in :mod:`.eiffel_counts`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from knight.engine import Board
from knight.engine.board import HORIZONTAL, VERTICAL, Square
from knight.engine.diagrams import join_svg, starts_map_svg, tour_svg
from knight.engine.parberry import BASE_SIZES, parberry_join, structured_moves
from knight.engine.theory import Verdict, colour_counts, open_tour_verdict
from knight.errors import MissingData
from knight.report.answers.common import StoreData, agreement, count_of
from knight.report.answers.eiffel_counts import CLOSED_TOURS_8X8
from knight.report.records import TourRecord
from knight.report.text import board_text
from knight.tasks import removed_squares

__all__ = [
    "ClosedTours",
    "Colours",
    "Corners",
    "FirstTours",
    "JoinDrawn",
    "Parberry",
    "eiffel_closed",
    "eiffel_colours",
    "eiffel_corners",
    "eiffel_first",
    "eiffel_parberry",
]

#: The boards the Eiffel questions ask about.
EIFFEL_SIZES = (5, 6, 8)
#: Wirth's order of the eight moves (Algorithms + Data Structures = Programs, 1976, the knight's tour), which the
#: Eiffel text follows without printing its own row and col: move k goes from (x, y) to (x + a[k], y + b[k]) on his
#: board h[x, y], printed a row of x at a time, so a changes the row and b the column.
WIRTH_A = (2, 1, -1, -2, -2, -1, 1, 2)
WIRTH_B = (1, 2, 2, 1, -1, -2, -2, -1)
#: The move orders C1 gives, as its table names them.
DEITEL, WIRTH = "Deitel's", "Wirth's"


@dataclass(frozen=True)
class FirstTour:
    """The first full tour a backtracking search found from (0, 0) on one board, in one move order."""

    size: int
    board: str
    order: str
    nodes: int


@dataclass(frozen=True)
class GivenUp:
    """A board where the plain search found no tour within its budget of nodes, in one move order."""

    board: str
    nodes: int
    order: str = DEITEL
    size: int = 0


def wirth_start(board: Board, *, a_is_row: bool = True) -> Square | None:
    """The square from which Try_Next_Move in Deitel's move order makes, square for square, the image of its search
    in Wirth's order from (0, 0) under a symmetry of the board (None when no symmetry turns Deitel's move k into
    Wirth's move k). The two searches then place the same number of squares, and find the same tour up to that
    symmetry. ``a_is_row``: Wirth's a changes the row (his reading), else the column.

    >>> wirth_start(Board(5, 5)), wirth_start(Board(5, 5), a_is_row=False)
    ((4, 0), (4, 0))
    """
    wirth = list(zip(WIRTH_A, WIRTH_B)) if a_is_row else list(zip(WIRTH_B, WIRTH_A))
    origin_and_moves = (np.array([0, *VERTICAL]), np.array([0, *HORIZONTAL]))
    rows, cols = np.divmod(np.arange(board.size), board.m)
    for sigma in board.symmetries():
        r, c = sigma(*origin_and_moves)
        if list(zip((r[1:] - r[0]).tolist(), (c[1:] - c[0]).tolist())) == wirth:
            image_rows, image_cols = sigma(rows, cols)
            k = int(np.flatnonzero((image_rows == 0) & (image_cols == 0))[0])
            return int(rows[k]), int(cols[k])
    return None


@dataclass(frozen=True)
class FiveByFive:
    """The plain search run to the end from every start of 5 x 5."""

    starts: int
    found: int
    proven_none: int
    out_of_budget: int
    nodes_total: int


@dataclass(frozen=True)
class FirstTours:
    """Try_Next_Move's first tour on each board (one drawn), and 5 x 5 searched from every start."""

    first_tours: list[FirstTour]
    given_up: list[GivenUp]
    drawn: FirstTour
    svg: str
    five: FiveByFive
    five_map: str = ""  # each start of 5 x 5: a tour found, or none by trying every path

    @property
    def glance(self) -> str:
        sizes = sorted(
            {t.size for t in self.first_tours if t.order in (DEITEL, WIRTH)} | {g.size for g in self.given_up}
        )
        boards = ", ".join(board_text(n) for n in sizes)
        orders = [f"{order} {self._after(order, sizes)}" for order in (DEITEL, WIRTH) if self._after(order, sizes)]
        return (
            f"First tour from (0, 0) on {boards} after: " + " nodes; ".join(orders) + " (the text's order is open)"
            f"; {self.five.found} of 25 squares of 5 × 5 start a tour, {self.five.proven_none} proved none."
        )

    def _after(self, order: str, sizes: list[int]) -> str:
        """The nodes to the first tour on each of ``sizes`` in one move order: ``14,009, 58,692, none within …``."""
        found = {t.size: f"{t.nodes:,}" for t in self.first_tours if t.order == order}
        lost = {
            g.size: f"none within {g.nodes:,}" if order == DEITEL else "none" for g in self.given_up if g.order == order
        }
        if not found and not lost:
            return ""
        return ", ".join(found.get(n) or lost.get(n) or "—" for n in sizes)

    @property
    def wirth_same_either_way(self) -> bool:
        """Whichever of Wirth's a and b changes the row, his search from (0, 0) is Deitel's from the same start."""
        return all(wirth_start(Board(s, s)) == wirth_start(Board(s, s), a_is_row=False) for s in EIFFEL_SIZES)

    @property
    def wirth_a(self) -> tuple[int, ...]:
        return WIRTH_A

    @property
    def wirth_b(self) -> tuple[int, ...]:
        return WIRTH_B


def _order_of(record: TourRecord) -> str | None:
    """The move order a stored search from a start stands for from (0, 0): Deitel's (plain, from (0, 0)), Wirth's
    (plain, from :func:`wirth_start`: the same search up to a symmetry), Warnsdorff's ordering (from (0, 0))."""
    if record.params["order"] != "plain":
        return record.params["order"] if record.start == (0, 0) else None
    if record.start == (0, 0):
        return DEITEL
    return WIRTH if record.start == wirth_start(record.board) else None


def eiffel_first(data: StoreData) -> FirstTours:
    """The first tour from (0, 0) in each move order the text may have meant: Deitel's and Wirth's (the text's
    row and col are not printed), and Warnsdorff's ordering; 5 x 5 searched to the end from every start."""
    results = data.results
    searches = [
        r
        for r in results.select("backtrack", closed=False)
        if r.n == r.m and r.n in EIFFEL_SIZES and "removed" not in r.params and _order_of(r) is not None
    ]
    rank = {DEITEL: 0, WIRTH: 1}
    found = sorted((r for r in searches if r.full), key=lambda r: (r.n, rank.get(str(_order_of(r)), 2)))
    if not found:
        # searches from other starts only (or none that finished): no first tour to show
        raise MissingData(f"no backtracking search from (0, 0) that found a tour; run `{results.hint}` first")
    first_tours = [FirstTour(r.n, board_text(r.n), str(_order_of(r)), r.work) for r in found]
    five = results.by_start("backtrack", 5, 5, order="plain", closed=False)
    drawn = next((i for i, t in enumerate(first_tours) if t.order == DEITEL), 0)
    given_up = sorted(
        {(r.n, r.work, str(_order_of(r))) for r in searches if r.budget_exhausted and _order_of(r) in rank},
        key=lambda g: (g[0], rank[g[2]]),
    )
    return FirstTours(
        first_tours=first_tours,
        given_up=[GivenUp(board_text(n), nodes, order, n) for n, nodes, order in given_up],
        drawn=first_tours[drawn],
        svg=tour_svg(found[drawn].tour(), title=f"first tour found on {first_tours[drawn].board}"),
        five=FiveByFive(
            starts=len(five),
            found=sum(r.full for r in five.values()),
            proven_none=sum(not r.full and not r.budget_exhausted for r in five.values()),
            out_of_budget=sum(r.budget_exhausted for r in five.values()),
            nodes_total=sum(r.work for r in five.values()),
        ),
        five_map=starts_map_svg(
            Board(5, 5),
            {start: "found" if r.full else ("unknown" if r.budget_exhausted else "none") for start, r in five.items()},
            title="5 × 5: where the search found a tour, and where it proved none",
        ),
    )


@dataclass(frozen=True)
class ClosedCount:
    """One board's closed tours as cycles (counted, or from the literature), and how many backtracking found."""

    board: str
    cycles: int
    symmetric: int | None = None
    found: int = 0


@dataclass(frozen=True)
class DrawnTour:
    """A tour drawn with the search that found it (its board, move order and nodes)."""

    board: str
    order: str
    nodes: int
    svg: str


@dataclass(frozen=True)
class ClosedTours:
    """Which homework boards can have a closed tour, how many each has, two of them drawn."""

    even_sizes: list[str]
    boards: list[ClosedCount]
    literature: list[ClosedCount]
    tours: list[DrawnTour]

    @property
    def glance(self) -> str:
        return (
            f"Only on boards with an even number of squares ({', '.join(self.even_sizes)}; never 5 × 5); "
            + "; ".join(f"{b.board} has {b.cycles:,} closed tours" for b in self.boards)
            + "".join(f"; {b.board} has {b.cycles:,} (the literature)" for b in self.literature)
            + "."
        )


def eiffel_closed(data: StoreData) -> ClosedTours:
    closed = [c for c in data.censuses if c.closed and c.total is not None and not c.removed and c.starts is None]
    if not closed:
        raise MissingData("no complete census of closed tours")
    boards = []
    for c in closed:
        found = {r.tour().key_cycle for r in data.results.select("backtrack", c.n, c.m, closed=True) if r.success}
        boards.append(ClosedCount(board_text(c.n, c.m), c.undirected or 0, c.symmetric, len(found)))
    drawn = [
        r
        for r in data.results.select("backtrack", closed=True)
        if r.start == (0, 0) and r.n in EIFFEL_SIZES and r.success
    ]
    counted = {(c.n, c.m) for c in closed}
    return ClosedTours(
        even_sizes=[board_text(s) for s in EIFFEL_SIZES if (s * s) % 2 == 0],
        boards=boards,
        literature=[] if (8, 8) in counted else [ClosedCount(board_text(8, 8), CLOSED_TOURS_8X8)],
        tours=[
            DrawnTour(
                board_text(r.n, r.m),
                r.params["order"],
                r.work,
                tour_svg(r.tour(), title=f"closed tour on {board_text(r.n, r.m)}"),
            )
            for r in drawn[:2]
        ],
    )


@dataclass(frozen=True)
class OddBoard:
    """The runs from the smaller colour of an odd board (or of all odd boards, in one row)."""

    board: str
    runs: int
    full: int
    squares: int | str  # "—" in the row that sums up boards of different sizes


@dataclass(frozen=True)
class Colours:
    """The colour argument on 5 x 5 and the odd boards, with the runs that bear it out."""

    rows: list[OddBoard]
    boards: int  # the odd boards run, whose runs from the smaller colour are summed up in ``runs`` and ``full``
    runs: int
    full: int
    majority: int
    minority: int
    proven_none: int
    proven_none_minority: int

    def runs_in_words(self, other: str = "the smaller colour") -> str:
        """``0 in 216 runs from the smaller colour``: 5 × 5's runs when they were made, else those of every odd
        board, summed up and said so."""
        five = next((row for row in self.rows if row.board == board_text(5)), None)
        if five is not None:
            return f"{five.full} in {five.runs:,} runs from {other}"
        where = f"{self.boards} odd boards" if self.boards > 1 else self.rows[0].board
        return f"{self.full} in {self.runs:,} runs from {other}, on {where}"

    @property
    def glance(self) -> str:
        return (
            f"Each move changes colour: on 5 × 5 only the {self.majority}-square colour starts a tour "
            f"({self.runs_in_words('the other')}), and no odd board has a closed tour."
        )


def eiffel_colours(data: StoreData) -> Colours:
    rows: list[OddBoard] = []
    runs, full, boards = 0, 0, 0
    odd_boards = sorted(
        {(r.n, r.m) for r in data.results.records if (r.n * r.m) % 2 == 1 and not r.params.get("removed")}
    )
    largest = board_text(*max(odd_boards, key=lambda b: (b[0] * b[1], b))) if odd_boards else ""
    for n, m in odd_boards:
        # whole boards only: without two corners, the colour with more squares changes
        board = Board(n, m)
        minority = [
            r
            for r in data.results.select(n=n, m=m)
            if board.colour(r.start) == board.minority_colour() and not r.params.get("removed")
        ]
        if not minority:
            continue
        boards, runs, full = boards + 1, runs + len(minority), full + sum(r.full for r in minority)
        if n * m <= 49:
            rows.append(
                OddBoard(board_text(n, m), len(minority), sum(r.full for r in minority), colour_counts(board)[1])
            )
    if not boards:
        raise MissingData("no runs on odd boards")
    if boards > len(rows):
        rows.append(OddBoard(f"all {boards} odd boards run, up to {largest}", runs, full, "—"))
    five = data.results.require("backtrack", 5, 5, order="plain", closed=False)
    proven_none = [r for r in five if not r.full and not r.budget_exhausted]
    majority, minority_count = colour_counts(Board(5, 5))
    return Colours(
        rows=rows,
        boards=boards,
        runs=runs,
        full=full,
        majority=majority,
        minority=minority_count,
        proven_none=len(proven_none),
        proven_none_minority=sum(Board(5, 5).colour(r.start) == 1 for r in proven_none),
    )


@dataclass(frozen=True)
class Mutilated:
    """A census of a board without two opposite corners."""

    board: str
    odd: bool
    removed: list[Square]
    colours: tuple[int, int]
    total: int
    nodes: int


@dataclass(frozen=True)
class Search:
    """First-tour searches on a board without two opposite corners: starts tried, tours found."""

    board: str
    removed: list[Square]
    colours: tuple[int, int]
    starts: int
    found: int
    nodes: int

    @property
    def tried(self) -> str:
        """From how many of the starts tried a tour was found, as the glance and the table say it."""
        return f"a tour from {count_of(self.found, self.starts, 'start')} tried"


@dataclass(frozen=True)
class Corners:
    """The board without two opposite corners: the colour argument for even n, searches for odd n."""

    boards: list[Mutilated]
    odd_found: list[Search]
    eight: Verdict

    @property
    def verdict(self) -> str:
        """Whether our runs agree that no journey exists for even n: none was counted on an even board."""
        return agreement(all(b.total == 0 for b in self.boards if not b.odd))

    @property
    def glance(self) -> str:
        even = [b for b in self.boards if not b.odd]
        odd = [b for b in self.boards if b.odd]
        found = [f"{b.board}: {b.total:,} tours" for b in odd if b.total > 0] + [
            f"{s.board}: {s.tried}" for s in self.odd_found if s.found
        ]
        odd_text = (
            "odd n: possible, our runs find journeys — " + "; ".join(found)
            if found
            else "odd n: none found on " + ", ".join([b.board for b in odd] + [s.board for s in self.odd_found])
            if odd or self.odd_found
            else "odd n: not searched"
        )
        return (
            f"Even n: impossible, our runs {self.verdict} ({'no tour' if self.verdict == 'agree' else 'tours found'} "
            f"on {', '.join(b.board for b in even)}); {odd_text}."
        )


def eiffel_corners(data: StoreData) -> Corners:
    mutilated = []
    for c in (c for c in data.censuses if c.removed and c.total is not None):
        mutilated.append(
            Mutilated(
                board=board_text(c.n, c.m),
                odd=c.n % 2 == 1,
                removed=[(square[0], square[1]) for square in c.removed],
                colours=colour_counts(c.board, c.removed),
                total=c.total or 0,  # not None: only complete censuses are kept
                nodes=c.nodes,
            )
        )
    if not mutilated:
        raise MissingData("no census without opposite corners")
    return Corners(
        boards=mutilated,
        odd_found=_searches_by_board(
            [r for r in data.results.select("backtrack") if r.params.get("removed") and r.n % 2 == 1]
        ),
        eight=open_tour_verdict(Board(8, 8), removed=[(0, 0), (7, 7)]),
    )


def _searches_by_board(records: list[TourRecord]) -> list[Search]:
    """First-tour searches on boards with squares removed, one row per board: starts tried, tours found."""
    boards: dict[tuple[int, int], list[TourRecord]] = {}
    for record in records:
        boards.setdefault((record.n, record.m), []).append(record)
    searches = []
    for (n, m), runs in sorted(boards.items()):
        removed = removed_squares(runs[0].params)
        searches.append(
            Search(
                board=board_text(n, m),
                removed=list(removed),
                colours=colour_counts(Board(n, m), removed),
                starts=len(runs),
                found=sum(r.full for r in runs),
                nodes=sum(r.work for r in runs),
            )
        )
    return searches


@dataclass(frozen=True)
class ParberryBoard:
    """A tour from Parberry's construction: a base tour or four quarters joined, and its corner moves."""

    board: str
    closed: bool
    base: bool
    quarter: str | None
    corner_moves: int
    of: int


@dataclass(frozen=True)
class JoinDrawn:
    """The join of four quarter tours drawn: which board, its quarters, the moves taken out and put in, and
    whether the stored tour of that board is exactly those quarters with those moves changed."""

    board: str
    quarter: str
    removed: list[tuple[Square, Square]]
    added: list[tuple[Square, Square]]
    matches: bool
    svg: str


@dataclass(frozen=True)
class Parberry:
    """Parberry's join of four quarter tours, with the tours the construction gave (one drawn)."""

    boards: list[ParberryBoard]
    board: str
    joined: ParberryBoard | None
    shown: ParberryBoard
    svg: str
    join: JoinDrawn | None = None

    @property
    def glance(self) -> str:
        shown = self.shown
        return (
            "Four closed quarter tours join by swapping one corner move in each"
            + (f" ({self.joined.board} from four {self.joined.quarter})" if self.joined else "")
            + f"; the {shown.board} tour shown is {'closed' if shown.closed else 'NOT closed'}, with "
            f"{shown.corner_moves} of {shown.of} corner moves."
        )


def eiffel_parberry(data: StoreData) -> Parberry:
    records = [r for r in data.results.select("parberry") if r.moves]
    if not records:
        raise MissingData("no Parberry tour")
    boards = []
    for record in records:
        tour = record.tour()
        moves = {frozenset(pair) for pair in zip(tour.squares, tour.squares[1:] + tour.squares[:1])}
        corner = structured_moves(record.n, record.m)
        base = (record.n, record.m) in BASE_SIZES or (record.m, record.n) in BASE_SIZES
        boards.append(
            ParberryBoard(
                board=board_text(record.n, record.m),
                closed=record.closed,
                base=base,
                quarter=None if base else board_text(record.n // 2, record.m // 2),
                corner_moves=sum(frozenset(pair) in moves for pair in corner),
                of=len(corner),
            )
        )
    eight = next((r for r in records if (r.n, r.m) == (8, 8)), records[0])
    joined = min(
        (r for r, b in zip(records, boards) if not b.base), key=lambda r: r.n * r.m, default=None
    )  # the smallest join reads best
    return Parberry(
        boards=boards,
        board=board_text(eight.n, eight.m),
        joined=next((b for b in boards if not b.base), None),
        shown=next(b for b in boards if b.board == board_text(eight.n, eight.m)),
        svg=tour_svg(
            eight.tour(),
            title=f"a closed tour of {board_text(eight.n, eight.m)} with the join property",
            highlight=structured_moves(eight.n, eight.m),
        ),
        join=_join_drawn(joined) if joined is not None else None,
    )


def _cycle_moves(squares: Sequence[Square]) -> set[frozenset[Square]]:
    """The moves of a closed tour, each as the pair of squares it joins (the closing move too)."""
    return {frozenset(pair) for pair in zip(squares, [*squares[1:], squares[0]])}


def _join_drawn(record: TourRecord) -> JoinDrawn:
    """The last join of a stored Parberry tour drawn, checked against the stored tour move by move."""
    board = record.board
    join = parberry_join(board)
    made = set().union(*(_cycle_moves(q) for q in join.quarters))
    made = (made - {frozenset(m) for m in join.removed}) | {frozenset(m) for m in join.added}
    quarter = board_text(len({r for r, _ in join.quarters[0]}), len({c for _, c in join.quarters[0]}))
    return JoinDrawn(
        board=board_text(board.n, board.m),
        quarter=quarter,
        removed=list(join.removed),
        added=list(join.added),
        matches=made == _cycle_moves(record.tour().squares),
        svg=join_svg(
            board,
            join.quarters,
            join.removed,
            join.added,
            title=f"four closed {quarter} tours joined into one closed tour of {board_text(board.n, board.m)}",
        ),
    )
