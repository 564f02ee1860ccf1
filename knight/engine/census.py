"""The census: every directed open tour, or every closed tour, counted exactly, per start square.

This is the Eiffel text's Try_All (after Wirth 1976, §3.4): a depth-first search that does
not stop at the first tour but counts them all. Three things make it fast enough for 6 × 6:

* a compiled kernel (:func:`_count_tours`) with the visited set as a 64-bit bitboard, so
  boards up to 64 squares;
* pruning by conditions that every completion of the partial path must meet (so the counts
  stay exact; the kernel's docstring proves each one), with the pruning switchable off for
  the tests that compare it with plain backtracking;
* work split into independent units — a start square and a first move — that any pool can
  run (:func:`census_units`, :func:`count_unit`), with only one start of each class of
  squares the board's symmetries carry onto each other searched, and of its first moves one
  of each class under the symmetries that keep the start in place, counted with the class's
  size (the unit's ``weight``, :func:`first_move_weights`; :func:`assemble` weighs them).

Boards may have removed squares (the Eiffel text's mutilated board): they are simply never
visited, and only the symmetries that keep the removed set in place are used.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from knight.engine.board import Board, Square, size_text
from knight.engine.kernel import kernel
from knight.errors import InvalidInput

__all__ = [
    "MAX_CENSUS_SQUARES",
    "SYMMETRY_LIMIT",
    "CensusUnit",
    "UnitCount",
    "Census",
    "CensusSpec",
    "MAX_CENSUS_UNITS",
    "census_units",
    "census_unit_count",
    "census_size",
    "assemble",
    "census",
    "count_unit",
    "closed_tours",
    "first_move_weights",
    "cycles_up_to_symmetry",
    "classes_from_shares",
    "KeptCycles",
    "UnitCounter",
]

#: The census kernel keeps the visited set in one 64-bit word.
MAX_CENSUS_SQUARES = 64
#: Closed tours are listed (to tell them apart up to symmetry) only when there are at most this many.
SYMMETRY_LIMIT = 1_000_000
#: The most units one census may list (about 1 KB of memory each, units and their tasks):
#: 7 × 7 at depth 8 has 727,587. Counted before any is listed (:func:`census_unit_count`).
MAX_CENSUS_UNITS = 2_000_000
#: Frontier paths expanded at a time while counting units (keeps the count within a few tens of MB).
_COUNT_CHUNK = 100_000


@dataclass(frozen=True)
class CensusUnit:
    """One independent piece of a census: the tours of one board from ``start`` whose first move is to ``first``
    (and whose next moves, when ``more`` names them, go to those squares).

    ``weight`` is how many first moves the unit stands for: a symmetry of the board that keeps the start
    (and the removed squares) in place carries the tours of one first move one-to-one onto those of
    another, so only the least of such first moves is searched, and its count is taken ``weight`` times.

    ``first`` is None for a start with no move at all (the 1 × 1 board). Plain data, so a
    unit can be pickled to a worker, stored under :attr:`key`, and rebuilt with
    :meth:`from_dict`.

    >>> CensusUnit(5, 5, (0, 0), (1, 2)).key
    '5x5 open start 0,0 first 1,2'
    """

    n: int
    m: int
    start: Square
    first: Square | None
    closed: bool = False
    removed: tuple[Square, ...] = ()
    more: tuple[Square, ...] = ()
    weight: int = 1

    @property
    def board(self) -> Board:
        return Board(self.n, self.m)

    @property
    def prefix(self) -> tuple[Square, ...]:
        """The squares every tour of the unit begins with."""
        return (self.start,) + (() if self.first is None else (self.first,)) + self.more

    @property
    def key(self) -> str:
        """A stable name for the unit, e.g. to store its result under."""
        first = "none" if self.first is None else f"{self.first[0]},{self.first[1]}"
        removed = f" removed {';'.join(f'{r},{c}' for r, c in self.removed)}" if self.removed else ""
        kind = "closed" if self.closed else "open"
        more = f" then {';'.join(f'{r},{c}' for r, c in self.more)}" if self.more else ""
        times = f" x{self.weight}" if self.weight != 1 else ""
        return (
            f"{size_text(self.n, self.m)} {kind}{removed} start {self.start[0]},{self.start[1]} first {first}{more}"
            f"{times}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "m": self.m,
            "start": list(self.start),
            "first": None if self.first is None else list(self.first),
            "closed": self.closed,
            "removed": [list(square) for square in self.removed],
            "more": [list(square) for square in self.more],
            **({"weight": self.weight} if self.weight != 1 else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CensusUnit:
        first = data.get("first")
        return cls(
            int(data["n"]),
            int(data["m"]),
            tuple(data["start"]),
            None if first is None else tuple(first),
            bool(data.get("closed", False)),
            tuple(tuple(square) for square in data.get("removed", ())),
            tuple(tuple(square) for square in data.get("more", ())),
            int(data.get("weight", 1)),
        )


@dataclass(frozen=True)
class UnitCount:
    """What one unit found: ``tours`` directed tours, after ``nodes`` squares placed.

    For a closed unit counted with ``share=True`` whose tours could be listed (at most ``_FIRST_RECORD``),
    ``share`` is its share of Burnside's sum: how many times a symmetry of the board carries one of its tours' cycles onto itself
    (:func:`classes_from_shares`); None otherwise.
    """

    tours: int
    nodes: int
    share: int | None = None


@dataclass(frozen=True)
class Census:
    """The result of a census on ``board`` (less its ``removed`` squares).

    ``counts[row, col]`` is the number of directed tours (open, or closed when ``closed``)
    that start on that square; -1 where the census did not look (a removed square, or a
    square other than the one asked for with ``start``). ``nodes`` is the search work:
    squares placed on the path, over all units searched. ``searched_starts`` are the start
    squares actually searched; the other counts follow by symmetry (open) or because a
    closed tour passes through every square (closed).

    For closed tours ``cycles`` is the number of closed tours as cycles: up to the start
    square and the direction. Every cycle gives two directed closed tours from each square,
    so ``counts`` holds ``2 * cycles`` on every square.
    """

    board: Board
    closed: bool
    counts: np.ndarray
    nodes: int
    units: int
    searched_starts: tuple[Square, ...]
    removed: tuple[Square, ...] = ()
    cycles: int | None = None

    def _repr_svg_(self) -> str:
        """The counts per start square as a heat map, for Jupyter (blank where the census did not look)."""
        from knight.engine.diagrams import heat_map_svg

        kind = "closed" if self.closed else "open"
        values = np.where(self.counts >= 0, self.counts, np.nan)
        return heat_map_svg(self.board, values, title=f"directed {kind} tours from each square of {self.board}")

    @property
    def total(self) -> int:
        """Directed tours, summed over the start squares counted."""
        return int(self.counts[self.counts >= 0].sum())

    @property
    def complete(self) -> bool:
        """True when every square of the board (less the removed ones) was counted."""
        return int((self.counts >= 0).sum()) == self.board.size - len(self.removed)

    @property
    def undirected(self) -> int | None:
        """Tours up to reversal (an open tour and its reversal are one), when every start was counted.

        For closed tours this is :attr:`cycles`; for open tours, half the directed total
        (no open tour of two or more squares is its own reversal; a one-square board has one).
        """
        if self.closed:
            return self.cycles
        if not self.complete:
            return None
        return self.total if self.board.size - len(self.removed) == 1 else self.total // 2


@dataclass(frozen=True)
class CensusSpec:
    """What defines a census: the board, open or closed tours, the removed squares, the start
    squares (None: every start, one per symmetry class searched) and the depth of its units.

    >>> spec = CensusSpec(5, 5)
    >>> spec.describe(), len(spec.units())
    ('5x5 open, every start', 12)
    """

    n: int
    m: int
    closed: bool = False
    removed: tuple[Square, ...] = ()
    starts: tuple[Square, ...] | None = None
    depth: int = 1

    @property
    def board(self) -> Board:
        return Board(self.n, self.m)

    @property
    def kind(self) -> str:
        """``open`` or ``closed``."""
        return "closed" if self.closed else "open"

    def units(self) -> list[CensusUnit]:
        """The census's units, as :func:`census_units` lists them (start by start, for a start set)."""
        return [
            unit
            for start in (self.starts or (None,))
            for unit in census_units(
                self.board, closed=self.closed, removed=self.removed, start=start, depth=self.depth
            )
        ]

    def describe(self) -> str:
        """A short label, e.g. ``6x6 open less (0, 0), (5, 5), every start``."""
        less = f" less {', '.join(map(str, self.removed))}" if self.removed else ""
        starts = "every start" if self.starts is None else f"from {', '.join(map(str, self.starts))}"
        depth = f", depth {self.depth}" if self.depth != 1 else ""
        return f"{size_text(self.n, self.m)} {self.kind}{less}, {starts}{depth}"


# --- the plan: units, and how their counts make the census ------------------------------------


def census_units(
    board: Board,
    *,
    closed: bool = False,
    removed: Iterable[Square] = (),
    start: Square | None = None,
    depth: int = 1,
) -> list[CensusUnit]:
    """The independent units a census of ``board`` consists of, in a fixed order.

    Open tours: for one start square of every symmetry class (the smallest square of its
    class; only the symmetries that keep ``removed`` in place count), one unit per first
    move — per class of first moves under the symmetries that keep the start in place, with
    the class's size as the unit's ``weight`` (:func:`first_move_weights`; a third fewer nodes
    on 6 × 6). Closed tours: every closed tour passes through every square, so one start
    suffices — a square of least degree (fewest units) — with one unit per first move.
    ``start`` restricts the census to that square. ``depth`` > 1 splits finer, one unit per
    path of ``depth`` moves (for a cluster: 7 × 7 at depth 8 gives 727,587 units).

    Parameters
    ----------
    board : the board, at most 64 squares.
    closed : count closed tours instead of open ones.
    removed : squares taken off the board, ``(row, col)``.
    start : only this start square.
    depth : moves fixed by each unit (1: the first move).

    Example
    -------
    >>> [(unit.start, unit.first) for unit in census_units(Board(5, 5))][:3]
    [((0, 0), (1, 2)), ((0, 1), (2, 0)), ((0, 1), (2, 2))]
    >>> [unit.weight for unit in census_units(Board(6, 6), closed=True)]  # from a corner: (1, 2) and its mirror
    [2]

    Reference: Eiffel text, Try_All; the split into (start, first move) units as in
    performance notes of this project.
    """
    gone, starts = _unit_starts(board, closed, removed, start, depth)
    census_size(board, closed=closed, removed=removed, start=start, depth=depth)
    removed_squares = tuple(sorted(board.coords(s) for s in gone))
    units = []
    for s in starts:
        weights = first_move_weights(board, s, gone)
        firsts = [int(t) for t in board.neighbours[s] if int(t) in weights]  # in move order; images left out
        paths = [p for t in firsts for p in _paths(board, gone, [s, t], depth - 1)] if firsts else [[s]]
        for path in paths:
            squares = [board.coords(t) for t in path]
            units.append(
                CensusUnit(
                    board.n,
                    board.m,
                    squares[0],
                    squares[1] if len(squares) > 1 else None,
                    bool(closed),
                    removed_squares,
                    tuple(squares[2:]),
                    weights[path[1]] if len(path) > 1 else 1,
                )
            )
    return units


def first_move_weights(board: Board, start: int, gone: set[int]) -> dict[int, int]:
    """The first moves from ``start`` (plain ints) a census searches, each with how many first moves it
    stands for.

    The symmetries of the board that keep ``start`` and the ``gone`` squares in place (a corner of a
    square board has two: the identity and the diagonal mirror) map the tours of one first move one-to-one
    onto those of another. Of each class of first moves under them only the least is searched; its weight
    is the size of its class. No symmetry but the identity keeps two squares a knight move apart in place,
    so deeper moves need no such care.

    >>> first_move_weights(Board(6, 6), 0, set())  # (1, 2) stands for itself and its mirror (2, 1)
    {8: 2}
    >>> first_move_weights(Board(6, 6), 1, set())  # (0, 1): no symmetry keeps it
    {9: 1, 12: 1, 14: 1}
    """
    moves = sorted(int(t) for t in board.neighbours[start] if t >= 0 and int(t) not in gone)
    keeping = board.symmetric_images(np.arange(board.size, dtype=np.int64), keeping=gone)
    fixing = [image for image in keeping if int(image[start]) == start]
    weights: dict[int, int] = {}
    for t in moves:
        images = {int(image[t]) for image in fixing}
        if t == min(images):
            weights[t] = len(images)
    return weights


def census_unit_count(
    board: Board,
    *,
    closed: bool = False,
    removed: Iterable[Square] = (),
    start: Square | None = None,
    depth: int = 1,
    limit: int = MAX_CENSUS_UNITS,
) -> int | None:
    """How many units :func:`census_units` would list, counted without listing them; None when more than ``limit``.

    The paths are extended a move at a time as arrays (last square, visited set as a 64-bit word),
    and the count stops as soon as it passes ``limit``: a path either stops (one unit) or extends,
    so the units found so far plus the paths still growing never decrease. Time and memory stay
    within a few times ``limit`` small array entries. A request :func:`census_units` refuses (a depth
    not below the number of squares, a removed start, ...) raises :class:`InvalidInput` here too.

    >>> census_unit_count(Board(5, 5)), census_unit_count(Board(6, 6), depth=30, limit=1000)
    (12, None)
    """
    gone, starts = _unit_starts(board, closed, removed, start, depth)
    table = np.asarray(board.neighbours, dtype=np.int64)
    if gone:
        table = np.where(np.isin(table, sorted(gone)), -1, table)
    one = np.uint64(1)
    total = 0
    for s in starts:
        # The first move, as census_units makes it: one searched move of each class under the start's
        # symmetries (a start with no move at all is one unit); then every path grows freely.
        searched = sorted(first_move_weights(board, s, gone))
        if not searched:
            total += 1
            continue
        last = np.array(searched, dtype=np.int64)
        visited = np.array([(1 << s) | (1 << t) for t in searched], dtype=np.uint64)
        for _ in range(depth - 1):
            if not len(last):
                break
            grown_last, grown_visited = [], []
            growing = 0
            for begin in range(0, len(last), _COUNT_CHUNK):
                ends, seen = last[begin : begin + _COUNT_CHUNK], visited[begin : begin + _COUNT_CHUNK]
                targets = table[ends]
                bits = np.left_shift(one, np.maximum(targets, 0).astype(np.uint64))
                free = (targets >= 0) & ((seen[:, None] & bits) == 0)
                total += int(np.count_nonzero(~free.any(axis=1)))  # paths that stop here: one unit each
                rows, cols = np.nonzero(free)
                grown_last.append(targets[rows, cols])
                grown_visited.append(seen[rows] | bits[rows, cols])
                growing += len(rows)
                if total + growing + len(last) - begin - len(ends) > limit:  # the rest of the frontier: one each
                    return None
            last, visited = np.concatenate(grown_last), np.concatenate(grown_visited)
        total += len(last)
        if total > limit:
            return None
    return total


def census_size(
    board: Board, *, closed: bool = False, removed: Iterable[Square] = (), start: Square | None = None, depth: int = 1
) -> int:
    """How many units :func:`census_units` lists; :class:`InvalidInput` past :data:`MAX_CENSUS_UNITS`.

    >>> census_size(Board(6, 6), depth=3)
    322
    """
    count = census_unit_count(board, closed=closed, removed=removed, start=start, depth=depth)
    if count is None:
        raise InvalidInput(
            f"depth {depth} splits the census of {board} into more than {MAX_CENSUS_UNITS:,} units, "
            "too many to list in memory; use a smaller depth"
        )
    return count


def _unit_starts(
    board: Board, closed: bool, removed: Iterable[Square], start: Square | None, depth: int
) -> tuple[set[int], list[int]]:
    """Check a census's request and give its removed squares and the start squares its units begin on."""
    gone = _check_removed(board, removed)
    if board.size > MAX_CENSUS_SQUARES:
        raise InvalidInput(
            f"the census counts tours on boards of at most {MAX_CENSUS_SQUARES} squares; {board} has {board.size}"
        )
    available = [s for s in range(board.size) if s not in gone]
    if not available:
        raise InvalidInput(f"every square of the {board} board is removed; leave at least one")
    deepest = max(1, len(available) - 1)  # a path of len(available) - 1 moves is a whole tour
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= deepest:
        raise InvalidInput(
            f"depth must be a positive number of moves, at most {deepest} (below the {len(available)} squares "
            f"of {board}), got {depth!r}"
        )
    if start is not None:
        first_square = board.index(start)
        if first_square in gone:
            raise InvalidInput(f"start {tuple(start)} is a removed square; choose one on the board")
        return gone, [first_square]
    if closed:
        degree = {s: sum(1 for t in board.neighbours[s] if t >= 0 and t not in gone) for s in available}
        return gone, [min(available, key=lambda s: (degree[s], s))]
    return gone, sorted({min(orbit) for orbit in _orbits(board, gone).values()})


def _paths(board: Board, gone: set[int], path: list[int], depth: int) -> list[list[int]]:
    """Every knight's path that extends ``path`` by ``depth`` moves (or as far as it goes, if it stops sooner)."""
    moves = [[int(t) for t in row if t >= 0 and int(t) not in gone] for row in board.neighbours]
    found: list[list[int]] = []

    def extend(path: list[int], depth: int) -> None:
        before = len(found)
        if depth > 0:
            for t in moves[path[-1]]:
                if t not in path:
                    path.append(t)
                    extend(path, depth - 1)
                    path.pop()
        if len(found) == before:  # no move left, or deep enough
            found.append(list(path))

    extend(list(path), depth)
    return found


def assemble(board: Board, units: list[CensusUnit], results: list[UnitCount]) -> Census:
    """Put the counts of ``units`` (as :func:`census_units` made them) together into a :class:`Census`.

    Open tours: a start's count is the sum over its first moves (each unit's count times its ``weight``,
    the first moves it stands for), and every square of its
    symmetry class has the same count (a symmetry maps tours to tours one-to-one). Closed
    tours: ``2 * cycles`` directed tours start on every square.

    >>> units = census_units(Board(3, 4))
    >>> census = assemble(Board(3, 4), units, [count_unit(unit) for unit in units])
    >>> census.total, census.counts[0].tolist()
    (16, [2, 0, 0, 2])
    """
    if len(units) != len(results):
        raise InvalidInput(f"{len(units)} units but {len(results)} results; give one result per unit")
    if not units:
        raise InvalidInput("a census needs at least one unit")
    closed, removed = units[0].closed, units[0].removed
    gone = {board.index(square) for square in removed}
    per_start: dict[int, int] = {}
    for unit, result in zip(units, results):
        if (unit.n, unit.m, unit.closed, unit.removed) != (board.n, board.m, closed, removed):
            raise InvalidInput(f"unit {unit.key} belongs to another census than {board} {units[0].key}")
        s = board.index(unit.start)
        per_start[s] = per_start.get(s, 0) + result.tours * unit.weight
    counts = np.full(board.size, -1, dtype=np.int64)
    cycles = None
    if closed:
        if len(per_start) != 1:
            raise InvalidInput(f"a closed census searches one start square; these units have {len(per_start)}")
        (directed,) = per_start.values()
        cycles = directed // 2 if board.size - len(gone) >= 3 else 0
        counts[[t for t in range(board.size) if t not in gone]] = 2 * cycles
    else:
        orbits = _orbits(board, gone)
        for s, directed in per_start.items():
            for t in orbits[s]:
                counts[t] = directed
    return Census(
        board=board,
        closed=closed,
        counts=counts.reshape(board.n, board.m),
        nodes=sum(result.nodes for result in results),
        units=len(units),
        searched_starts=tuple(board.coords(s) for s in sorted(per_start)),
        removed=removed,
        cycles=cycles,
    )


def census(
    board: Board,
    *,
    closed: bool = False,
    removed: Iterable[Square] = (),
    start: Square | None = None,
    map_units: Callable[..., Iterable[UnitCount]] = map,
    compiled: bool | None = None,
    prune: bool = True,
    depth: int = 1,
) -> Census:
    """Count every directed open tour (or closed tour) of ``board``, per start square.

    Parameters
    ----------
    board : the board, at most 64 squares.
    closed : count closed tours (re-entrant: the last square a knight move from the first).
    removed : squares taken off the board, ``(row, col)``.
    start : count only the tours from this square.
    map_units : how to run the units, ``map(count_unit, units)`` by default; pass an
        executor's ``map`` to run them in parallel.
    compiled : force the compiled (True) or interpreted (False) kernel; see :mod:`knight.engine.kernel`.
    prune : use the kernel's exact pruning (default); False is plain backtracking, for checks.
    depth : moves fixed by each unit (see :func:`census_units`); more units for more workers.

    Returns a :class:`Census`: per-square counts, totals and the nodes searched.

    Example
    -------
    >>> result = census(Board(5, 5))
    >>> result.total, int(result.counts[0, 0]), int(result.counts[0, 1])
    (1728, 304, 0)

    Reference: Eiffel text, Try_All; exact counts in OEIS A165134 (open, n × n) and
    A001230 (closed, 2n × 2n), and McKay (1997) for 8 × 8 closed tours.
    """
    units = census_units(board, closed=closed, removed=removed, start=start, depth=depth)
    results = list(map_units(UnitCounter(compiled=compiled, prune=prune), units))
    return assemble(board, units, results)


def count_unit(unit: CensusUnit, *, prune: bool = True, compiled: bool | None = None, share: bool = False) -> UnitCount:
    """Count the directed tours of one unit: from ``unit.start``, first move to ``unit.first``.

    Parameters
    ----------
    unit : the unit, from :func:`census_units`.
    prune : use the kernel's exact pruning (default); False runs plain backtracking, for checks.
    compiled : force the compiled (True) or interpreted (False) kernel.
    share : for a closed unit, also list its tours as they are found and count its share of Burnside's
        count of the closed tours up to symmetry (``share``): the same search gives both.

    Returns ``UnitCount(tours, nodes, share)``, nodes being the squares placed (start and first move
    included); ``share`` is None unless it was asked for and the tours were few enough to list.

    Example
    -------
    >>> count_unit(CensusUnit(3, 4, (0, 0), (1, 2)))
    UnitCount(tours=2, nodes=18, share=None)
    >>> count_unit(census_units(Board(3, 10), closed=True)[0], share=True)  # 16 closed tours: 24, as in KeptCycles
    UnitCount(tours=16, nodes=1040, share=24)

    Reference: Eiffel text, Try_All.
    """
    board = unit.board
    gone = _check_removed(board, unit.removed)
    prefix = [board.index(square) for square in unit.prefix]
    if any(s in gone for s in prefix):
        raise InvalidInput(f"unit {unit.key} starts or moves onto a removed square")
    for a, b in zip(prefix, prefix[1:]):
        if b not in board.neighbours[a]:
            raise InvalidInput(f"unit {unit.key}: {board.coords(b)} is not a knight move from {board.coords(a)}")
    if len(set(prefix)) < len(prefix):
        raise InvalidInput(f"unit {unit.key} visits a square twice")
    squares = board.size - len(gone)
    if unit.closed and squares < 3:  # a closed tour is a cycle: at least three squares (as Tour.closed says)
        return UnitCount(
            0, _run(unit, prune, compiled, np.zeros((0, squares), dtype=np.int16))[1], 0 if share else None
        )
    listed = unit.closed and share
    record = np.zeros((_FIRST_RECORD if listed else 0, squares), dtype=np.int16)  # touched as far as filled
    tours, nodes = _run(unit, prune, compiled, record)
    found = _kept_cycles(board, gone, record[:tours]) if listed and tours <= len(record) else None
    return UnitCount(tours, nodes, found)


def _run(unit: CensusUnit, prune: bool, compiled: bool | None, record: np.ndarray) -> tuple[int, int]:
    """Run the kernel on one (checked) unit, writing the first tours into ``record``."""
    board = unit.board
    masks, bits, colours = _tables(board)
    available = np.uint64(0)
    for s in range(board.size):
        if board.coords(s) not in unit.removed:
            available |= bits[s]
    prefix = [board.index(square) for square in unit.prefix]
    count = _count_tours.choose(board.size, compiled)
    tours, nodes, _ = count(
        board.neighbours,
        masks,
        bits,
        colours,
        available,
        np.array(prefix, dtype=np.int64),
        bool(unit.closed),
        bool(prune),
        record,
    )
    return int(tours), int(nodes)


def closed_tours(unit: CensusUnit, *, limit: int = 1_000_000, compiled: bool | None = None) -> np.ndarray:
    """Every closed tour of one closed-tour unit, as rows of squares (plain ints) in visiting order.

    For telling closed tours apart up to the board's symmetries (:func:`cycles_up_to_symmetry`).
    Raises :class:`InvalidInput` when there are more than ``limit`` of them. A unit's ``weight`` is not
    applied: these are the tours of its own first move.

    >>> closed_tours(census_units(Board(3, 4), closed=True)[0]).shape
    (0, 12)
    """
    return _closed_tours(unit, limit, compiled).astype(np.int64)


def _closed_tours(unit: CensusUnit, limit: int, compiled: bool | None) -> np.ndarray:
    """:func:`closed_tours` as the kernel records them, int16 (a board of at most 64 squares): a million
    tours of 36 squares in 72 MB, not 290."""
    if not unit.closed:
        raise InvalidInput(f"unit {unit.key} counts open tours; closed_tours lists closed ones")
    squares = unit.board.size - len(unit.removed)
    record = np.zeros((min(_FIRST_RECORD, limit), squares), dtype=np.int16)
    found, _ = _run(unit, True, compiled, record)  # one search when the tours fit the first record
    if found > limit:
        raise InvalidInput(f"{unit.key} has {found:,} closed tours, more than the limit {limit:,}")
    if found > len(record):
        record = np.zeros((found, squares), dtype=np.int16)
        _run(unit, True, compiled, record)
    return record[:found]


#: Rows of the first record of :func:`closed_tours` (at most 16 MB, touched only as far as it is filled): a unit
#: with fewer tours is searched once, not counted first and listed after.
_FIRST_RECORD = 1 << 17


def cycles_up_to_symmetry(
    board: Board,
    *,
    removed: Iterable[Square] = (),
    limit: int = SYMMETRY_LIMIT,
    map: Callable[[Callable[[CensusUnit], int], list[CensusUnit]], Iterable[int]] = map,  # noqa: A002 - as Python's
) -> int:
    """The number of closed tours up to start square, direction and the board's symmetries.

    Burnside's lemma: the classes are the average, over the symmetries that keep ``removed`` in place,
    of the number of cycles a symmetry carries onto themselves (a cycle is carried onto itself when the
    image of each of its moves is one of its moves). The closed tours through one square are listed (at
    most ``limit`` per first move; each cycle twice, once each way), a first move of each class under the
    symmetries that keep that square in place (the closed census's units): a symmetry ``h`` that keeps
    the square carries the tours of one first move onto those of another, and ``g`` keeps a cycle
    exactly when ``h g h⁻¹`` keeps its image, so a unit's count is taken ``weight`` times. No sorting
    of edge sets: a few array lookups per tour and symmetry.

    ``map`` runs the units (Python's ``map``; a process pool's ``map`` spreads them over its processes).

    >>> cycles_up_to_symmetry(Board(3, 10))  # of 16 closed tours
    6

    Reference: the 9,862 closed tours of 6 × 6 fall into 1,245 classes under the board's
    eight symmetries (OEIS A001230 and its symmetric companion); Burnside's lemma (the
    Cauchy–Frobenius lemma) for counting orbits.
    """
    units = census_units(board, closed=True, removed=removed)  # the closed census's start, first moves folded
    return classes_from_shares(board, units, list(map(KeptCycles(limit), units)), removed=removed)


def classes_from_shares(
    board: Board, units: list[CensusUnit], shares: list[int], *, removed: Iterable[Square] = ()
) -> int:
    """The closed tours of ``board`` up to start square, direction and symmetry, from the shares of
    Burnside's sum (``shares``, :attr:`UnitCount.share`) of the units of a closed census from one start square:
    each taken ``weight`` times, their sum averaged over the symmetries (that keep ``removed``) and halved
    (each cycle is listed once each way). See :func:`cycles_up_to_symmetry`.

    >>> units = census_units(Board(3, 10), closed=True)
    >>> classes_from_shares(Board(3, 10), units, [count_unit(unit, share=True).share for unit in units])
    6
    """
    if len({unit.start for unit in units}) > 1:
        raise InvalidInput("shares of Burnside's sum add up over the units of one start square only")
    gone = _check_removed(board, removed)
    symmetries = len(list(board.symmetric_images(np.arange(board.size, dtype=np.int16), keeping=gone)))
    fixed = sum(unit.weight * share for unit, share in zip(units, shares, strict=True))
    classes, rest = divmod(fixed, 2 * symmetries)  # each cycle listed twice; both ways kept or neither
    if rest:  # Burnside's average is a whole number: these shares are not all of one census's units
        raise InvalidInput(f"the shares add up to {fixed:,}, not a whole number of classes of {2 * symmetries}")
    return classes


@dataclass(frozen=True)
class KeptCycles:
    """For one closed-tour unit: over its closed tours and the board's symmetries (those that keep its
    removed squares), how many times a symmetry carries a tour's cycle onto itself (the unit's share of
    Burnside's sum in :func:`cycles_up_to_symmetry`). Picklable, for a process pool's ``map``.

    >>> KeptCycles()(census_units(Board(3, 10), closed=True)[0])  # its 16 tours by the identity, 8 by the others
    24
    """

    limit: int = SYMMETRY_LIMIT

    def __call__(self, unit: CensusUnit) -> int:
        gone = _check_removed(unit.board, unit.removed)
        tours = _closed_tours(dataclasses.replace(unit, weight=1), self.limit, None)
        return _kept_cycles(unit.board, gone, tours)


def _kept_cycles(board: Board, gone: set[int], tours: np.ndarray) -> int:
    """Over the closed ``tours`` (rows of squares) and the symmetries of ``board`` that keep ``gone`` in place,
    how many times a symmetry carries a tour's cycle onto itself (a cycle is carried onto itself when the image
    of each of its moves is one of its moves)."""
    if len(tours) == 0:
        return 0
    after = np.roll(tours, -1, axis=1)  # the moves of each tour: tours[t, i] -> after[t, i]
    offsets = (np.arange(len(tours), dtype=np.int64) * board.size)[:, None]
    successor = np.full(len(tours) * board.size, -1, dtype=np.int16)  # successor[t * size + a]: a's next
    successor[offsets + tours] = after
    symmetries = list(board.symmetric_images(np.arange(board.size, dtype=np.int16), keeping=gone))
    kept = len(tours)  # the identity keeps every cycle
    for image in symmetries[1:]:
        # A few moves at a time, over the tours still kept: most cycles lose at their first moves.
        alive = np.arange(len(tours))
        for first in range(0, tours.shape[1], _MOVES_AT_A_TIME):
            moves = slice(first, first + _MOVES_AT_A_TIME)
            moved_from, moved_to = image[tours[alive, moves]], image[after[alive, moves]]
            base = offsets[alive]
            both = (successor[base + moved_from] == moved_to) | (successor[base + moved_to] == moved_from)
            alive = alive[both.all(axis=1)]
            if len(alive) == 0:
                break
        kept += len(alive)
    return kept


#: Moves of each tour compared at once (:func:`_kept_cycles`) before the cycles already lost are dropped.
_MOVES_AT_A_TIME = 4


@dataclass(frozen=True)
class UnitCounter:
    """:func:`count_unit` with fixed options, as one picklable callable for a pool's ``map``.

    >>> UnitCounter()(CensusUnit(3, 4, (0, 0), (1, 2))).tours
    2
    """

    compiled: bool | None = None
    prune: bool = True

    def __call__(self, unit: CensusUnit) -> UnitCount:
        return count_unit(unit, prune=self.prune, compiled=self.compiled)


def _check_removed(board: Board, removed: Iterable[Square]) -> set[int]:
    return {board.index((square[0], square[1])) for square in removed}


def _orbits(board: Board, gone: set[int]) -> dict[int, list[int]]:
    """For every square on the board, the squares the kept symmetries carry it to."""
    images = list(board.symmetric_images(np.arange(board.size, dtype=np.int64), keeping=gone))
    return {s: sorted({int(image[s]) for image in images}) for s in range(board.size) if s not in gone}


def _tables(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's tables: the neighbour mask and the bit of every square, and its colour."""
    bits = np.array([1 << s for s in range(board.size)], dtype=np.uint64)
    masks = np.zeros(board.size, dtype=np.uint64)
    for s in range(board.size):
        for t in board.neighbours[s]:
            if t >= 0:
                masks[s] |= bits[t]
    return masks, bits, board.colours()


@kernel(
    compile_from=16, signature="UniTuple(i8, 3)(i4[:, ::1], u8[::1], u8[::1], i8[::1], u8, i8[::1], b1, b1, i2[:, ::1])"
)
def _count_tours(neighbours, masks, bits, colours, available, prefix, closed, prune, record):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Count the tours that begin with ``prefix``; return ``(tours, nodes, recorded)``.

    A depth-first search over the squares of ``available`` (a bitboard), the visited set
    one 64-bit word. ``nodes`` counts squares placed on the path, the prefix included.
    Open tours end anywhere; closed tours end a knight move from the start. When
    ``record`` has rows, the first tours found are written there, one per row.

    With ``prune``, a partial path is abandoned as soon as a condition that every
    completion needs fails. Let ``c`` be the current (last) square, ``U`` the unvisited
    squares, and the *targets* ``T`` = ``U`` for open tours, ``U`` plus the start for
    closed tours (a closed tour must still come back to its start). The degree of a square
    is its number of neighbours in ``T``. The rest of a tour is a path from ``c`` through
    all of ``U`` (and, closed, on to the start):

    1. Colour count (checked once, after the start is placed; moves keep it true): a
       knight's path alternates colours, so the squares after ``c`` are ``ceil(|U|/2)`` of
       the other colour than ``c`` and ``floor(|U|/2)`` of its colour; a closed tour has
       as many of each colour in all.
    2. No target of degree 0: a square of ``U`` has a square before it on the path, from
       ``T`` or ``c``, and one after, from ``T`` — unless it is the last square of an open
       tour. A square that just lost its last neighbour in ``T`` is next to ``c``; it can
       only be the next and last square, so the path dies unless ``|U| == 1`` (open). For
       a closed tour every square of ``U`` has a successor in ``T`` and the start needs a
       predecessor in ``U``, so degree 0 is fatal while ``U`` is not empty.
    3. Degree 1 (open tours): a square ``u`` of ``U`` with one neighbour in ``U`` is
       either the next square (entered from ``c``) or the last one (entered from that
       neighbour). There is one next and one last square, so: at most two such squares;
       at most one of them not next to ``c``; and when there are two, the next move takes
       one of them.
    4. Degree 1 (closed tours): the last square is fixed (the start), so a square of ``U``
       with one neighbour in ``T`` must be next: at most one such square, next to ``c``,
       and the next move takes it.

    Rules 2–4 are Warnsdorff's degrees read as a proof that a branch is dead; none of them
    removes a tour, so the counts are exact (the tests compare them with ``prune=False``).
    """
    size = neighbours.shape[0]
    zero = np.uint64(0)
    one = np.uint64(1)
    start = prefix[0]
    # Each square's moves packed to the front, in move order (no -1 holes to test in the hot loops).
    packed = np.empty((size, 8), dtype=np.int64)
    moves = np.zeros(size, dtype=np.int64)
    for s in range(size):
        for k in range(8):
            t = neighbours[s, k]
            if t >= 0:
                packed[s, moves[s]] = t
                moves[s] += 1
    unvisited = available
    target = available  # T: for a closed tour the start stays a target
    degree = np.zeros(size, dtype=np.int64)
    ones = zero  # squares of degree 1 (bits also set for visited squares; always masked)
    for s in range(size):
        degree[s] = 0
        for k in range(8):
            t = neighbours[s, k]
            if t >= 0 and (available & bits[t]) != zero:
                degree[s] += 1
        if degree[s] == 1:
            ones |= bits[s]
    remaining = 0  # |U| before the start is placed
    for s in range(size):
        if (available & bits[s]) != zero:
            remaining += 1
    path = np.empty(size, dtype=np.int64)
    allowed = np.empty(size, dtype=np.uint64)
    next_move = np.zeros(size, dtype=np.int64)
    last_required = 0 if closed else 1  # rule 2: a degree-0 target survives only as the last square

    tours = 0
    nodes = 0
    recorded = 0
    depth = 0
    square = start
    while True:
        # Place `square` at `depth`.
        nodes += 1
        path[depth] = square
        unvisited &= ~bits[square]
        if not (closed and depth == 0):
            target &= ~bits[square]
        remaining -= 1
        dead = False
        keep = depth == 0 and closed  # the start stays a target: its neighbours keep their degree
        for k in range(0 if keep else moves[square]):
            t = packed[square, k]
            degree[t] -= 1
            if degree[t] == 1:
                ones |= bits[t]
            else:
                ones &= ~bits[t]
            if degree[t] == 0 and (target & bits[t]) != zero and remaining > last_required:
                dead = True
        if prune and depth == 0:  # rule 1
            other = 0
            for s in range(size):
                if (unvisited & bits[s]) != zero and colours[s] != colours[start]:
                    other += 1
                if (target & bits[s]) != zero and degree[s] == 0 and remaining > last_required:
                    dead = True  # rule 2 for squares isolated from the outset
            same = remaining - other
            if closed:
                dead = dead or other != same + 1
            else:
                dead = dead or not (other == same or other == same + 1)

        candidates = zero
        if remaining == 0:
            if not closed or (masks[square] & bits[start]) != zero:
                if recorded < record.shape[0]:
                    for i in range(depth + 1):
                        record[recorded, i] = path[i]
                    recorded += 1
                tours += 1
        elif not (prune and dead):
            candidates = masks[square] & unvisited
            if prune:
                x = ones & unvisited
                if closed:  # rule 4
                    if x != zero:
                        if (x & (x - one)) != zero or (x & masks[square]) == zero:
                            candidates = zero
                        else:
                            candidates = x
                elif x != zero:  # rule 3
                    x2 = x & (x - one)
                    away = x & ~masks[square]
                    if x2 != zero and (x2 & (x2 - one)) != zero or away != zero and (away & (away - one)) != zero:
                        candidates = zero
                    elif x2 != zero:
                        candidates &= x
            if depth + 1 < prefix.shape[0]:
                candidates &= bits[prefix[depth + 1]]
        allowed[depth] = candidates
        next_move[depth] = 0

        # Take the next allowed move, unplacing squares whose moves are all tried.
        while True:
            found = -1
            current = path[depth]
            k = next_move[depth]
            while k < moves[current]:
                t = packed[current, k]
                k += 1
                if (allowed[depth] & bits[t]) != zero:
                    found = t
                    break
            next_move[depth] = k
            if found >= 0:
                square = found
                depth += 1
                break
            # Unplace `current`.
            unvisited |= bits[current]
            target |= bits[current]
            remaining += 1
            for k in range(0 if depth == 0 and closed else moves[current]):
                t = packed[current, k]
                degree[t] += 1
                if degree[t] == 1:
                    ones |= bits[t]
                else:
                    ones &= ~bits[t]
            if depth == 0:
                return tours, nodes, recorded
            depth -= 1
