"""Planning a census: the units it splits into, and how many there are before any is listed.

A census (:mod:`knight.engine.census`) is split into independent units, a start square and a first
move (or a path of ``depth`` moves), that any pool can run. Only one start of each class of squares the
board's symmetries carry onto each other is searched, and of its first moves one of each class under the
symmetries that keep the start in place, with the class's size as the unit's ``weight``
(:mod:`knight.engine.census_symmetry`). A request too big to list is refused before anything is listed.
"""

from __future__ import annotations

import math
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
    "COST_NODES",
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


#: Nodes the cost estimate (:func:`unit_costs`) counts at most, all boards together: 6 × 6 to level 9 (90,744
#: nodes) in some 30 ms.
COST_NODES = 100_000
#: The level, as a fraction of the squares, where a census's trees hold most of their nodes (some 0.6 on the boards
#: counted; 0.5 fitted the heavy units' shares best): the level each unit's share of the nodes is carried to.
_BULK_LEVEL = 0.5


def unit_costs(units: Sequence[CensusUnit], *, budget: int = COST_NODES) -> list[float]:
    """An estimate of each unit's search, for a run's progress: its pruned search tree's nodes, counted level by
    level while the trees, all together, have at most ``budget`` nodes, and carried on from there.

    The units of a census differ in cost some thousand-fold (6 × 6: the corner's first unit is 29 % of the
    census), so a run's progress counted in units says little about its time left. The trees are expanded a
    level at a time, for every unit at once, under the census kernel's rules (colours; a square left with no
    free neighbour ends the path; open tours: at most two squares with one, and the next move takes one of them
    when there are two; closed tours: at most one, taken next; the start of a closed tour keeps a way in), so a
    tree that fits is counted exactly as the kernel counts it (5 × 5, 5 × 6 closed, ...). Trees cut off at a
    level are weighed by :func:`_carried_on`: a unit's share of a level's nodes changes steadily from level to
    level (the heavy units' trees branch more the deeper they go: 6 × 6's corner unit holds 15 % of level 8, 20 %
    of level 11 and 29 % of all nodes), so each share is carried on at its last rate to the level holding most
    nodes. Counted to 100,000 nodes and no further, 6 × 6's two heaviest units weigh half their share; carried
    on, 0.98 and 1.06 of it (5 × 7: 1.09 and 1.06; 5 × 6: 0.86 and 0.88).

    Exact and repeatable, no random probes: Knuth's estimate of these trees varied several-fold between seeds
    at this cost, and so did following a few hundred sampled paths per level of each tree. Units of more than
    one board are estimated board by board, the smaller boards first, each with an equal share of the budget
    left (a small board, counted whole, leaves the rest of its share to the bigger ones); more units than
    ``budget`` weigh 1 each.

    >>> costs = unit_costs(census_units(Board(5, 5)))
    >>> len(costs), costs[0] > costs[-1] > 0
    (12, True)
    """
    if len(units) > budget:
        return [1.0] * len(units)
    costs = [1.0] * len(units)
    groups: dict[tuple[int, int, bool, tuple[Square, ...]], list[int]] = {}
    for i, unit in enumerate(units):
        groups.setdefault((unit.n, unit.m, unit.closed, unit.removed), []).append(i)
    left = budget
    for count, (n, m, closed, removed) in enumerate(sorted(groups, key=lambda group: (group[0] * group[1], group))):
        members = groups[n, m, closed, removed]
        share = left // (len(groups) - count)  # the smaller boards, often counted whole, leave the rest to the others
        levels, whole = _tree_levels(Board(n, m), closed, removed, [units[i].prefix for i in members], share)
        left -= int(levels.sum())
        found = levels.sum(axis=1) if whole else _carried_on(levels, n * m - len(removed))
        for i, nodes in zip(members, found):
            costs[i] = float(max(nodes, 1))
    return costs


def _carried_on(levels: np.ndarray, squares: int) -> np.ndarray:
    """Each tree's nodes from its first ``levels`` (a row per tree, a column per level from its start; some trees
    still growing at the last), carried on to the whole tree of a board of ``squares`` squares.

    A tree that stopped growing is counted. For the others, what is carried on is a tree's share of the
    nodes of a level, over two levels at a time (a knight's levels alternate colours): its logarithm is
    carried from the last level at the rate it changed over the last two levels, up to the level holding most
    nodes (:data:`_BULK_LEVEL`). The total is carried on too: the levels grow at their last rate, that rate
    falling steadily to none at that level, and the levels after it hold half as many on average, until the
    last square; each tree weighs its share of that total, and at least what was counted of it. The total
    only weighs one board's census against another's: from 100,000 nodes it is 0.6 to 2 times the truth on
    the boards up to 40 squares with over 100,000 nodes (4 for 4 × 10); from the few thousand nodes a board
    gets in a run of twenty boards, 0.3 to 12 times, the larger the longer and thinner the board.
    """
    counted: np.ndarray = levels.sum(axis=1).astype(np.float64)
    last = levels.shape[1] - 1
    growing = levels[:, last] > 0
    if last < 3 or not growing.any():  # too few levels to see a rate: what was counted
        return counted
    totals = levels.sum(axis=0).astype(np.float64)

    def share(level: int) -> np.ndarray:
        shares: np.ndarray = (levels[:, level] + levels[:, level - 1]) / (totals[level] + totals[level - 1])
        return shares

    now, before = share(last)[growing], share(last - 2)[growing]
    bulk = _BULK_LEVEL * squares
    steps = max(bulk - last, 0.0)
    carried = now * np.exp(np.log(now / before) / 2 * steps)
    # The total: the level counts grow at their last rate (per level, over two), falling steadily to none at the
    # bulk level; then half as many on average in the levels left.
    rate = np.sqrt((totals[last] + totals[last - 1]) / (totals[last - 2] + totals[last - 3]))
    climb = max(int(round(bulk - last)), 0)
    level, total = totals[last], totals.sum()
    for step in range(1, climb + 1):
        level *= 1 + (rate - 1) * (1 - step / climb)
        total += level
    total += level * max(squares - bulk, 0) / 2
    costs = counted.copy()
    costs[growing] = np.maximum(carried / math.fsum(carried) * (total - counted[~growing].sum()), counted[growing])
    return costs


def _bit_count(values: np.ndarray) -> np.ndarray:
    """The bits set in each of ``values`` (uint64): numpy's ``bitwise_count`` where it has one (numpy 2.0 on), else
    counted by halves, quarters and bytes (the project needs numpy 1.26 only)."""
    counter = getattr(np, "bitwise_count", None)
    if counter is not None:
        counted: np.ndarray = counter(values)
        return counted
    x = np.asarray(values, dtype=np.uint64)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555_5555_5555_5555))
    x = (x & np.uint64(0x3333_3333_3333_3333)) + ((x >> np.uint64(2)) & np.uint64(0x3333_3333_3333_3333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F_0F0F_0F0F_0F0F)
    bytes_added: np.ndarray = (x * np.uint64(0x0101_0101_0101_0101)) >> np.uint64(56)  # wraps: the top byte's sum
    return bytes_added.astype(np.uint8)


def _tree_levels(
    board: Board, closed: bool, removed: tuple[Square, ...], prefixes: list[tuple[Square, ...]], budget: int
) -> tuple[np.ndarray, bool]:
    """The nodes of each prefix's pruned tree (:func:`unit_costs`) level by level, a row per prefix and a column
    per level (0: the start), while the nodes so far stay within ``budget``; and whether the trees ended there.

    The paths of a level are rows of bitboards (visited squares, the last square), grown all at once; along its
    prefix, a path grows only onto the prefix's next square, under the same rules, as the kernel's does. A level
    that would not fit, grown as the last one grew, is not grown (growing it took half the time)."""
    size = board.size
    one = np.uint64(1)
    bit = np.left_shift(one, np.arange(size, dtype=np.uint64))
    shifts = np.arange(size, dtype=np.uint64)
    table = np.asarray(board.neighbours, dtype=np.int64)
    masks = np.array([np.bitwise_or.reduce(bit[row[row >= 0]], initial=np.uint64(0)) for row in table], np.uint64)
    board_bits = np.bitwise_or.reduce(bit, initial=np.uint64(0))
    for gone in removed:
        board_bits &= ~bit[board.index(gone)]
    guide = np.full((len(prefixes), max(map(len, prefixes))), -1, dtype=np.int64)  # each prefix's squares
    for row, prefix in enumerate(prefixes):
        guide[row, : len(prefix)] = [board.index(square) for square in prefix]
    first = guide[:, 0]
    # The colours first: the squares left alternate colours from the start's other colour on (a closed tour then
    # ends on the start's other colour), or no tour is left; the kernel stops at the start (one node).
    colour = board.colours()
    dark = np.bitwise_or.reduce(bit[colour == 1], initial=np.uint64(0))
    free = board_bits & ~bit[first]
    on_dark = colour[first] == 1
    darks, lights = _bit_count(free & dark).astype(np.int64), _bit_count(free & ~dark).astype(np.int64)
    other, same = np.where(on_dark, lights, darks), np.where(on_dark, darks, lights)
    fits = other == same + 1 if closed else (other == same) | (other == same + 1)
    levels = [np.ones(len(prefixes), dtype=np.int64)]
    owner = np.nonzero(fits)[0]
    visited, current, first = bit[first[owner]], first[owner], first[owner]
    nodes, level = len(prefixes), 0
    while len(current):
        if level > 1 and nodes + len(current) ** 2 / max(int(levels[-2].sum()), 1) > budget:
            break  # the next level, as many times the last as the last was the one before, would not fit
        free = board_bits & ~visited
        targets = free | bit[first] if closed else free  # a closed tour comes back to its start
        degree = _bit_count(targets[:, None] & masks[None, :])
        free_squares = ((free[:, None] >> shifts) & one).astype(bool)
        near = ((masks[current][:, None] >> shifts) & one).astype(bool)
        lost = free_squares & (degree == 0)
        ones = free_squares & (degree == 1)
        singles = ones.sum(axis=1)
        if closed:  # the start is a target too: it must keep a way in while squares are left
            home = (masks[first] & free == 0) & (free != 0)
            dead = lost.any(axis=1) | home | (singles > 1) | (ones & ~near).any(axis=1)
            forced = singles == 1
        else:
            dead = (lost & ~near).any(axis=1) | (lost.any(axis=1) & (_bit_count(free) > 1))
            dead |= (singles > 2) | ((ones & ~near).sum(axis=1) > 1)
            forced = singles == 2
        moves = free_squares & near & ~dead[:, None]
        moves = np.where(forced[:, None], moves & ones, moves)
        if level + 1 < guide.shape[1]:  # along the prefix: onto its next square only
            onto = guide[owner, level + 1]
            moves &= (onto[:, None] < 0) | (onto[:, None] == np.arange(size))
        grown, square = np.nonzero(moves)
        if nodes + len(grown) > budget:
            break
        nodes, level = nodes + len(grown), level + 1
        levels.append(np.bincount(owner[grown], minlength=len(prefixes)))
        visited, owner, first = visited[grown] | bit[square], owner[grown], first[grown]
        current = square
    return np.array(levels, dtype=np.int64).T, not len(current)
