"""Planning a census: the units it splits into, and how many there are before any is listed.

A census (:mod:`knight.engine.census`) is split into independent units, a start square and a first
move (or a path of ``depth`` moves), that any pool can run. Only one start of each class of squares the
board's symmetries carry onto each other is searched, and of its first moves one of each class under the
symmetries that keep the start in place, with the class's size as the unit's ``weight``
(:mod:`knight.engine.census_symmetry`). A request too big to list is refused before anything is listed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

import numpy as np

from knight.engine.board import Board, Square, size_text
from knight.engine.census_symmetry import first_move_weights, orbits
from knight.errors import InvalidInput

__all__ = [
    "MAX_CENSUS_SQUARES",
    "MAX_CENSUS_UNITS",
    "CensusUnit",
    "CensusUnitJson",
    "CensusSpec",
    "census_units",
    "census_unit_count",
    "census_size",
    "removed_indices",
    "COST_ROWS",
    "unit_costs",
]

#: The census kernel keeps the visited set in one 64-bit word.
MAX_CENSUS_SQUARES = 64
#: The most units one census may list (about 1 KB of memory each, units and their tasks):
#: 7 × 7 at depth 8 has 727,587. Counted before any is listed (:func:`census_unit_count`).
MAX_CENSUS_UNITS = 2_000_000
#: Frontier paths expanded at a time while counting units (keeps the count within a few tens of MB).
_COUNT_CHUNK = 100_000


class CensusUnitJson(TypedDict):
    """:meth:`CensusUnit.to_dict`: a unit as JSON, squares as ``[row, col]`` (``weight`` only when not 1)."""

    n: int
    m: int
    start: list[int]
    first: list[int] | None
    closed: bool
    removed: list[list[int]]
    more: list[list[int]]
    weight: NotRequired[int]


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

    def to_dict(self) -> CensusUnitJson:
        data: CensusUnitJson = {
            "n": self.n,
            "m": self.m,
            "start": list(self.start),
            "first": None if self.first is None else list(self.first),
            "closed": self.closed,
            "removed": [list(square) for square in self.removed],
            "more": [list(square) for square in self.more],
        }
        if self.weight != 1:  # written only when not 1, as the unit's key names it
            data["weight"] = self.weight
        return data

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
    gone = removed_indices(board, removed)
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
    return gone, sorted({min(orbit) for orbit in orbits(board, gone).values()})


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


def removed_indices(board: Board, removed: Iterable[Square]) -> set[int]:
    """The squares of ``removed``, ``(row, col)``, as plain-int indices of ``board``."""
    return {board.index((square[0], square[1])) for square in removed}


#: Partial paths the cost estimate (:func:`unit_costs`) holds at most: some 20 ms for 6 × 6 (depth 7).
COST_ROWS = 15_000


def unit_costs(units: Sequence[CensusUnit], *, rows: int = COST_ROWS) -> list[float]:
    """An estimate of each unit's search, for a run's progress: the nodes of its pruned search tree down to the
    depth where the units' paths, all together, pass ``rows``.

    The units of a census differ in cost some thousand-fold (6 × 6: the corner's first unit is ~30 % of the
    census), so a run's progress counted in units says little about its time left. The tree is expanded a
    level at a time, for every unit at once, under the census kernel's cheap rules (a square left with no free
    neighbour ends the path; open tours: at most two squares with one, and the next move takes one of them when
    there are two; closed tours: at most one, taken next), so a unit whose paths die young weighs little.
    Exact and repeatable (no random probes: Knuth's estimate of these trees varied several-fold between seeds
    at this cost); it tends to under-weigh the heaviest units some 1.5-fold. Units of more than one board are
    estimated board by board; more units than ``rows`` weigh 1 each.

    >>> costs = unit_costs(census_units(Board(5, 5)))
    >>> len(costs), costs[0] > costs[-1] > 0
    (12, True)
    """
    if len(units) > rows:
        return [1.0] * len(units)
    costs = [1.0] * len(units)
    groups: dict[tuple[int, int, bool, tuple[Square, ...]], list[int]] = {}
    for i, unit in enumerate(units):
        groups.setdefault((unit.n, unit.m, unit.closed, unit.removed), []).append(i)
    for (n, m, closed, removed), members in groups.items():
        found = _tree_nodes(Board(n, m), closed, removed, [units[i].prefix for i in members], rows)
        for i, nodes in zip(members, found):
            costs[i] = float(max(nodes, 1))
    return costs


def _tree_nodes(
    board: Board, closed: bool, removed: tuple[Square, ...], prefixes: list[tuple[Square, ...]], rows: int
) -> np.ndarray:
    """The nodes of each prefix's pruned tree (:func:`unit_costs`), level by level while the paths fit in ``rows``."""
    size = board.size
    table = np.asarray(board.neighbours, dtype=np.int64)
    adjacent = np.zeros((size, size), dtype=bool)
    for s in range(size):
        adjacent[s, table[s][table[s] >= 0]] = True
    counts = adjacent.astype(np.float32)  # a product with it counts free neighbours (BLAS, exact in float32)
    owner = np.arange(len(prefixes))
    visited = np.zeros((len(prefixes), size), dtype=bool)
    visited[:, [board.index(square) for square in removed]] = True
    for row, prefix in enumerate(prefixes):
        visited[row, [board.index(square) for square in prefix]] = True
    current = np.array([board.index(prefix[-1]) for prefix in prefixes], dtype=np.int64)
    first = np.array([board.index(prefix[0]) for prefix in prefixes], dtype=np.int64)
    nodes = np.array([len(prefix) for prefix in prefixes], dtype=np.int64)
    # The colours first: the squares left alternate colours from the current one's other colour on (a closed tour
    # then ends on the start's other colour), or no tour is left; the kernel stops at the start (one node).
    colour = np.array([(r + c) % 2 for r in range(board.n) for c in range(board.m)])
    free = ~visited
    other = (free & (colour[None, :] != colour[current][:, None])).sum(axis=1)
    same = free.sum(axis=1) - other
    fits = (other == same) | (other == same + 1)
    if closed:  # the path ends next to the start: on its other colour
        home = colour[first] == colour[current]
        fits = np.where(home, other == same + 1, other == same)
    nodes[~fits] = 1
    keep = np.nonzero(fits)[0]
    visited, current, first, owner = visited[keep], current[keep], first[keep], owner[keep]
    while len(current):
        free = ~visited
        targets = free.copy()
        if closed:  # a closed tour comes back to its start: a neighbour to leave from
            targets[np.arange(len(first)), first] = True
        degree = targets.astype(np.float32) @ counts
        near = adjacent[current]
        lost = free & (degree < 0.5)
        ones = free & (np.abs(degree - 1) < 0.5)
        singles = ones.sum(axis=1)
        if closed:
            dead = lost.any(axis=1) | (singles > 1) | (ones & ~near).any(axis=1)
            forced = singles == 1
        else:
            dead = (lost & ~near).any(axis=1) | (lost.any(axis=1) & (free.sum(axis=1) > 1))
            dead |= (singles > 2) | ((ones & ~near).sum(axis=1) > 1)
            forced = singles == 2
        moves = free & near & ~dead[:, None]
        moves = np.where(forced[:, None], moves & ones, moves)
        grown, square = np.nonzero(moves)
        if len(grown) > rows:
            break
        nodes += np.bincount(owner[grown], minlength=len(prefixes))
        visited, owner, first = visited[grown], owner[grown], first[grown]
        visited[np.arange(len(grown)), square] = True
        current = square
    return nodes
