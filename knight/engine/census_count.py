"""Counting a census's units: the kernel that counts the tours beginning with a unit's squares, and the
closed tours a unit lists for the symmetry count.

This is the Eiffel text's Try_All (after Wirth 1976, §3.4): a depth-first search that does not stop at
the first tour but counts them all, in a compiled kernel (:func:`_count_tours`) with the visited set as
a 64-bit bitboard, so boards up to 64 squares, and pruning by conditions that every completion of the
partial path must meet (so the counts stay exact; the kernel's docstring proves each one), switchable
off for the tests that compare it with plain backtracking.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from knight.engine.board import Board
from knight.engine.census_plan import CensusUnit, removed_indices
from knight.engine.census_symmetry import kept_cycles
from knight.engine.kernel import kernel
from knight.engine.search_steps import degree_one_rule
from knight.errors import InvalidInput

__all__ = ["SYMMETRY_LIMIT", "UnitCount", "count_unit", "closed_tours", "KeptCycles", "UnitCounter"]

#: Closed tours are listed (to tell them apart up to symmetry) only when there are at most this many.
SYMMETRY_LIMIT = 1_000_000
#: Rows of the first record of :func:`closed_tours` (at most 16 MB, touched only as far as it is filled): a unit
#: with fewer tours is searched once, not counted first and listed after.
_FIRST_RECORD = 1 << 17


@dataclass(frozen=True)
class UnitCount:
    """What one unit found: ``tours`` directed tours, after ``nodes`` squares placed.

    For a closed unit counted with ``share=True`` whose tours could be listed (at most ``_FIRST_RECORD``),
    ``share`` is its share of Burnside's sum: how many times a symmetry of the board carries one of its tours' cycles onto itself
    (:func:`~knight.engine.census.classes_from_shares`); None otherwise.
    """

    tours: int
    nodes: int
    share: int | None = None


def count_unit(unit: CensusUnit, *, prune: bool = True, compiled: bool | None = None, share: bool = False) -> UnitCount:
    """Count the directed tours of one unit: from ``unit.start``, first move to ``unit.first``.

    Parameters
    ----------
    unit : the unit, from :func:`~knight.engine.census_plan.census_units`.
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
    >>> count_unit(CensusUnit(3, 10, (0, 0), (2, 1), closed=True), share=True)  # 16 closed tours: 24, as in KeptCycles
    UnitCount(tours=16, nodes=1040, share=24)

    Reference: Eiffel text, Try_All.
    """
    board = unit.board
    gone = removed_indices(board, unit.removed)
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
    found = kept_cycles(board, gone, record[:tours]) if listed and tours <= len(record) else None
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

    For telling closed tours apart up to the board's symmetries (:func:`~knight.engine.census.cycles_up_to_symmetry`).
    Raises :class:`InvalidInput` when there are more than ``limit`` of them. A unit's ``weight`` is not
    applied: these are the tours of its own first move.

    >>> closed_tours(CensusUnit(3, 10, (0, 0), (2, 1), closed=True)).shape
    (16, 30)
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


@dataclass(frozen=True)
class KeptCycles:
    """For one closed-tour unit: over its closed tours and the board's symmetries (those that keep its
    removed squares), how many times a symmetry carries a tour's cycle onto itself (the unit's share of
    Burnside's sum in :func:`~knight.engine.census.cycles_up_to_symmetry`). Picklable, for a process pool's ``map``.

    >>> KeptCycles()(CensusUnit(3, 10, (0, 0), (2, 1), closed=True))  # its 16 tours by the identity, 8 by the others
    24
    """

    limit: int = SYMMETRY_LIMIT

    def __call__(self, unit: CensusUnit) -> int:
        gone = removed_indices(unit.board, unit.removed)
        tours = _closed_tours(dataclasses.replace(unit, weight=1), self.limit, None)
        return kept_cycles(unit.board, gone, tours)


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
    removes a tour, so the counts are exact (the tests compare them with ``prune=False``). Rules 3
    and 4 are the step the exhaustive pruned search takes too (:func:`degree_one_rule`).
    """
    size = neighbours.shape[0]
    zero = np.uint64(0)
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
                if x != zero:  # rules 3 and 4
                    candidates &= degree_one_rule(x, x & ~masks[square], closed)
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
