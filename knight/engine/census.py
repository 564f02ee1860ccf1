"""The census: every directed open tour, or every closed tour, counted exactly, per start square.

This is the Eiffel text's Try_All (after Wirth 1976, §3.4): a depth-first search that does
not stop at the first tour but counts them all. Three things make it fast enough for 6 × 6:

* a compiled kernel (:mod:`knight.engine.census_count`) with the visited set as a 64-bit bitboard, so
  boards up to 64 squares;
* pruning by conditions that every completion of the partial path must meet (so the counts
  stay exact; the kernel's docstring proves each one), with the pruning switchable off for
  the tests that compare it with plain backtracking;
* work split into independent units — a start square and a first move — that any pool can
  run (:func:`census_units` in :mod:`knight.engine.census_plan`, :func:`count_unit`), with only
  one start of each class of squares the board's symmetries carry onto each other searched, and
  of its first moves one of each class under the symmetries that keep the start in place,
  counted with the class's size (the unit's ``weight``, :mod:`knight.engine.census_symmetry`; :func:`assemble` weighs them).

Boards may have removed squares (the Eiffel text's mutilated board): they are simply never
visited, and only the symmetries that keep the removed set in place are used.

This module puts the units' counts together (:func:`assemble`, :func:`census`) and counts the closed
tours up to symmetry; the names of the plan and the count are importable from here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.census_count import (
    SYMMETRY_LIMIT,
    KeptCycles,
    UnitCount,
    UnitCounter,
    closed_tours,
    count_unit,
)
from knight.engine.census_plan import (
    MAX_CENSUS_SQUARES,
    MAX_CENSUS_UNITS,
    CensusSpec,
    CensusUnit,
    census_size,
    census_unit_count,
    census_units,
    removed_indices,
)
from knight.engine.census_symmetry import first_move_weights, orbits
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
        from knight.engine.diagrams import heat_map_svg, sized

        kind = "closed" if self.closed else "open"
        values = np.where(self.counts >= 0, self.counts, np.nan)
        return sized(heat_map_svg(self.board, values, title=f"directed {kind} tours from each square of {self.board}"))

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
        classes = orbits(board, gone)
        for s, directed in per_start.items():
            for t in classes[s]:
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
    gone = removed_indices(board, removed)
    symmetries = len(list(board.symmetric_images(np.arange(board.size, dtype=np.int16), keeping=gone)))
    fixed = sum(unit.weight * share for unit, share in zip(units, shares, strict=True))
    classes, rest = divmod(fixed, 2 * symmetries)  # each cycle listed twice; both ways kept or neither
    if rest:  # Burnside's average is a whole number: these shares are not all of one census's units
        raise InvalidInput(f"the shares add up to {fixed:,}, not a whole number of classes of {2 * symmetries}")
    return classes
