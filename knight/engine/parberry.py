"""Parberry's divide-and-conquer closed tour: structured base tours joined four at a time.

A closed tour is *structured* when, in each corner, it uses the two moves (1,0)–(0,2) and
(2,0)–(0,1) (shown for the top-left corner; the other corners mirrored). A corner square
has only two moves, so every closed tour uses those two as well. Split a board into four
quadrants, each with a structured closed tour; around the centre, take out one guaranteed
move of each quadrant — a structured move in the top-left and bottom-right quadrants, a
corner move in the other two — and put in four moves that link the four paths into one
cycle (:data:`JOIN_REMOVED`, :data:`JOIN_ADDED`). The corners of the whole board are
outer corners of quadrants, untouched, so the result is structured again: the *join
property* that lets the construction recurse.

The base tours (Parberry's 6×6, 6×8, 8×8, 8×10, 10×10, 10×12, and 6×10, 6×12, 8×12 for boards of
other proportions) were found once by a constrained search
(``tools/parberry_base_tours.py``) and are kept as data in :mod:`knight.engine.parberry_base`.

Reference: I. Parberry, "An efficient algorithm for the knight's tour problem", Discrete
Applied Mathematics 73 (1997) 251–260; the Eiffel text's "join property" figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.kernel import kernel
from knight.engine.tour import Tour
from knight.errors import InvalidInput

__all__ = [
    "BASE_SIZES",
    "JOIN_REMOVED",
    "JOIN_ADDED",
    "structured_moves",
    "covered",
    "parberry_tour",
    "parberry_links",
    "Join",
    "parberry_join",
]

#: The boards with a stored base tour (and their transposes): Parberry's six, and three more
#: (6×10, 6×12, 8×12) so that boards of other proportions are covered too.
BASE_SIZES: tuple[tuple[int, int], ...] = (
    (6, 6),
    (6, 8),
    (8, 8),
    (8, 10),
    (10, 10),
    (10, 12),
    (6, 10),
    (6, 12),
    (8, 12),
)

#: The moves the join takes out, relative to the centre (A, C) where the quadrants meet:
#: a structured move of the top-left quadrant, the inner-corner moves of the top-right and
#: bottom-left quadrants, a structured move of the bottom-right quadrant.
JOIN_REMOVED: tuple[tuple[Square, Square], ...] = (
    ((-2, -1), (-1, -3)),  # top-left quadrant, structured
    ((-1, 0), (-3, 1)),  # top-right quadrant, its corner square's move
    ((0, -1), (2, -2)),  # bottom-left quadrant, its corner square's move
    ((1, 0), (0, 2)),  # bottom-right quadrant, structured
)
#: The moves the join puts in: each joins an end of one quadrant's path to an end of the next.
JOIN_ADDED: tuple[tuple[Square, Square], ...] = (
    ((-2, -1), (-3, 1)),
    ((-1, 0), (0, 2)),
    ((1, 0), (2, -2)),
    ((0, -1), (-1, -3)),
)


def structured_moves(n: int, m: int) -> list[tuple[Square, Square]]:
    """The eight moves a structured tour of the n × m board uses: two in each corner.

    >>> structured_moves(6, 6)[:2]
    [((1, 0), (0, 2)), ((2, 0), (0, 1))]
    """
    moves = []
    for row, dr in ((0, 1), (n - 1, -1)):
        for col, dc in ((0, 1), (m - 1, -1)):
            moves.append(((row + dr, col), (row, col + 2 * dc)))
            moves.append(((row + 2 * dr, col), (row, col + dc)))
    return moves


def covered(n: int, m: int) -> bool:
    """True when Parberry's construction, with the stored base tours, builds a closed tour of n × m.

    That is a base board, or a board whose sides are both at least 12 and whose four
    quadrants are covered (each side halved into even parts, 4k → 2k + 2k, 4k+2 → 2k + 2k+2).
    Among them: n × n and n × (n + 2) for every even n ≥ 6, the boards of Parberry's paper,
    and boards whose sides halve down to base boards together, such as 8 × 12 or 12 × 20.

    >>> covered(8, 8), covered(1000, 1000), covered(12, 20), covered(6, 14), covered(7, 7)
    (True, True, True, False, False)
    """
    return _covered(*sorted((int(n), int(m))))


def parberry_tour(board: Board, start: Square = (0, 0), *, compiled: bool | None = None) -> Tour:
    """A structured closed tour of ``board`` by Parberry's divide and conquer, walked from ``start``.

    Parameters
    ----------
    board : an n × n or n × (n + 2) board with even n ≥ 6, or another board :func:`covered` accepts.
    start : the square the tour starts (and ends next to); the cycle is the same from any start.
    compiled : force the compiled (True) or interpreted (False) walk along the cycle.

    Time and memory are linear in the number of squares: each base block is copied in once,
    each join changes eight squares, and one walk reads the cycle off.

    Example
    -------
    >>> tour = parberry_tour(Board(8, 8), (0, 0))
    >>> tour.closed, tour.squares[:3]
    (True, [(0, 0), (2, 1), (1, 3)])

    Reference: I. Parberry, "An efficient algorithm for the knight's tour problem",
    Discrete Applied Mathematics 73 (1997) 251–260.
    """
    first = board.index(start)
    if not covered(board.n, board.m):
        raise InvalidInput(
            f"parberry builds closed tours on n×n and n×(n+2) boards with even n ≥ 6, and on other boards with "
            f"even sides ≥ 6 whose halves reach its base boards (6 to 12 squares a side) together, e.g. 8×12 or "
            f"12×20; {board} is not one of them"
        )
    links = _cycle_links(board)
    walk = _walk_cycle.choose(board.size, compiled)
    path = walk(links, first)
    return Tour(board=board, path=path, method="parberry", params={}, work=board.size - 1, work_unit="steps")


def parberry_links(board: Board) -> np.ndarray:
    """The closed tour of :func:`parberry_tour` as links: ``links[s]`` holds the two squares next to ``s``
    on the cycle (plain ints), for a walk that needs no compiled kernel
    (:func:`knight.engine.hamilton.walk_cycle`).

    >>> parberry_links(Board(6, 6)).shape
    (36, 2)

    Reference: Parberry (1997).
    """
    if not covered(board.n, board.m):
        raise InvalidInput(f"parberry does not build a closed tour of {board} (see `covered`)")
    return _cycle_links(board)


@dataclass(frozen=True)
class Join:
    """The last step of the construction on one board: its four quarters' closed tours (each as squares of the
    whole board, in cycle order), the four moves taken out of them and the four put in to make one cycle."""

    quarters: tuple[tuple[Square, ...], ...]
    removed: tuple[tuple[Square, Square], ...]
    added: tuple[tuple[Square, Square], ...]


def parberry_join(board: Board) -> Join:
    """How :func:`parberry_tour` makes the closed tour of a board that is not a base board: the four quarter
    tours it joins and the moves the join changes, around the centre where the quarters meet.

    >>> join = parberry_join(Board(12, 12))
    >>> [len(q) for q in join.quarters], join.removed[0], join.added[0]
    ([36, 36, 36, 36], ((4, 5), (5, 3)), ((4, 5), (3, 7)))

    Reference: Parberry (1997), the join of four structured tours.
    """
    n, m = board.n, board.m
    if (n, m) in BASE_SIZES or (m, n) in BASE_SIZES or not covered(n, m):
        raise InvalidInput(f"{board} is not made by joining four quarter tours (a base board, or not covered)")
    (h1, h2), (w1, w2) = _halves(n), _halves(m)
    quarters = []
    for r0, c0, h, w in ((0, 0, h1, w1), (0, w1, h1, w2), (h1, 0, h2, w1), (h1, w1, h2, w2)):
        tour = parberry_tour(Board(h, w), (0, 0), compiled=False)
        quarters.append(tuple((r0 + r, c0 + c) for r, c in tour.squares))

    def placed(moves: tuple[tuple[Square, Square], ...]) -> tuple[tuple[Square, Square], ...]:
        return tuple(((h1 + a, w1 + b), (h1 + c, w1 + d)) for (a, b), (c, d) in moves)

    return Join(tuple(quarters), placed(JOIN_REMOVED), placed(JOIN_ADDED))


@cache
def _covered(n: int, m: int) -> bool:
    if (n, m) in BASE_SIZES:
        return True
    if n < 12 or n % 2 or m % 2:
        return False
    return all(_covered(*sorted((a, b))) for a in _halves(n) for b in _halves(m))


def _halves(side: int) -> tuple[int, int]:
    """Split an even side into two even parts as equal as can be: 4k → 2k + 2k, 4k + 2 → 2k + (2k + 2)."""
    half = side // 2
    first = half if half % 2 == 0 else half - 1
    return first, side - first


@cache
def _base_links(n: int, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stored base tour of n × m (or its transpose), as local rows, cols and the two cycle neighbours."""
    from knight.engine.parberry_base import BASE_TOURS

    transposed = (n, m) not in BASE_TOURS
    path = np.array(BASE_TOURS[(m, n) if transposed else (n, m)], dtype=np.int64)
    rows, cols = np.divmod(path, n if transposed else m)
    if transposed:
        rows, cols = cols, rows
    local = rows * m + cols
    before, after = np.roll(local, 1), np.roll(local, -1)
    return local, before, after


def _cycle_links(board: Board) -> np.ndarray:
    """The two cycle neighbours of every square of the joined tour (size × 2, plain-int squares)."""
    n, m = board.n, board.m
    blocks: dict[tuple[int, int], list[tuple[int, int]]] = {}
    centres: list[tuple[int, int]] = []
    regions = [(0, 0, n, m)]
    while regions:
        r0, c0, h, w = regions.pop()
        if (h, w) in BASE_SIZES or (w, h) in BASE_SIZES:
            blocks.setdefault((h, w), []).append((r0, c0))
            continue
        (h1, h2), (w1, w2) = _halves(h), _halves(w)
        centres.append((r0 + h1, c0 + w1))
        regions += [(r0, c0, h1, w1), (r0, c0 + w1, h1, w2), (r0 + h1, c0, h2, w1), (r0 + h1, c0 + w1, h2, w2)]
    links = np.empty((board.size, 2), dtype=np.int64)
    for (h, w), origins in blocks.items():
        local, before, after = _base_links(h, w)
        r0, c0 = np.array(origins, dtype=np.int64).T
        offset = (r0 * m + c0)[:, None]

        def to_global(squares: np.ndarray, w: int = w, offset: np.ndarray = offset) -> np.ndarray:
            rows, cols = np.divmod(squares, w)
            return np.asarray(offset + rows * m + cols)

        links[to_global(local), 0] = to_global(before)
        links[to_global(local), 1] = to_global(after)
    if centres:
        a, c = np.array(centres, dtype=np.int64).T
        for ((dr1, dc1), (dr2, dc2)), removed in zip(JOIN_ADDED, _removed_partners()):
            for (dr, dc), (er, ec), (old_r, old_c) in (
                ((dr1, dc1), (dr2, dc2), removed[0]),
                ((dr2, dc2), (dr1, dc1), removed[1]),
            ):
                square = (a + dr) * m + c + dc
                old = (a + old_r) * m + c + old_c
                column = (links[square, 0] != old).astype(np.int64)
                links[square, column] = (a + er) * m + c + ec
    return links


def _removed_partners() -> list[tuple[Square, Square]]:
    """For each added move (x, y): the partner x loses and the partner y loses, from :data:`JOIN_REMOVED`."""
    lost: dict[Square, Square] = {}
    for x, y in JOIN_REMOVED:
        lost[x], lost[y] = y, x
    return [(lost[x], lost[y]) for x, y in JOIN_ADDED]


@kernel(compile_from=40_000, signature="i4[::1](i8[:, ::1], i8)")
def _walk_cycle(links, start):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Read a cycle off its links: the squares in order from ``start``, first towards ``links[start, 0]``."""
    size = links.shape[0]
    path = np.empty(size, dtype=np.int32)
    previous = -1
    square = start
    for i in range(size):
        path[i] = square
        following = links[square, 0]
        if following == previous:
            following = links[square, 1]
        previous = square
        square = following
    return path
