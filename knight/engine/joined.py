"""Closed tours of any size joined from small ones: the board cut into blocks of 5 to 10 squares a side, a
closed tour of each block, and the cycles joined two at a time by exchanging one move of each for two
moves between them (the join of Parberry 1997, found by search instead of fixed in advance); one block
may hold an open tour from a given start instead, and then the result is an open tour from that start.
"""

from __future__ import annotations

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.kernel import kernel
from knight.engine.links import link, walk_links
from knight.engine.pruned import pruned_tour
from knight.engine.rotation import rotation_tour
from knight.engine.tour import Tour

__all__ = ["BLOCK_SIDES", "joined_closed_tour", "small_closed_tour", "small_open_tour", "odd_board_block"]

#: Side lengths of the blocks :func:`joined_closed_tour` cuts a board into.
BLOCK_SIDES = (5, 6, 7, 8, 9, 10)


def joined_closed_tour(
    board: Board,
    start: Square = (0, 0),
    *,
    open_block: tuple[int, int, int, int] | None = None,
    seed: int = 0,
    compiled: bool | None = None,
) -> Tour | None:
    """A tour of ``board`` from ``start`` joined from tours of blocks; None when a join is not found.

    Without ``open_block`` the board (both sides at least 5, not both odd) is cut into blocks
    whose sides come from :data:`BLOCK_SIDES`, every block with a closed tour (the same tour for
    blocks of one size), and the result is a closed tour. With ``open_block = (row, col, height,
    width)``, that block (which must hold ``start``) gets an open tour from ``start`` instead and
    the others closed tours; the result is an open tour from ``start``. Two neighbouring pieces
    are joined by taking a move ``a–b`` out of one and ``c–d`` out of the other where ``a–c`` and
    ``b–d`` are knight moves, and putting those two in: one cycle (or path) results.

    Example
    -------
    >>> tour = joined_closed_tour(Board(15, 22), (7, 3))
    >>> tour.closed, tour.start
    (True, (7, 3))

    Reference: I. Parberry, "An efficient algorithm for the knight's tour problem", Discrete
    Applied Mathematics 73 (1997) 251–260 (joining closed tours of quadrants by exchanging moves).
    """
    first = board.index(start)
    rows, cols = _cut(board, open_block)
    if rows is None or cols is None:
        return None
    links = np.full((board.size, 2), -1, dtype=np.int64)
    bases: dict[tuple[int, int], np.ndarray] = {}
    for r0, h in rows:
        for c0, w in cols:
            if open_block is not None and (r0, c0) == open_block[:2]:
                local = small_open_tour(Board(h, w), (start[0] - r0, start[1] - c0), seed=seed, compiled=compiled)
                if local is None:
                    return None
                path, cycle = local.path.astype(np.int64), False
            else:
                if (h, w) not in bases:
                    tour = small_closed_tour(Board(h, w), seed=seed, compiled=compiled)
                    if tour is None:
                        return None
                    bases[h, w] = tour.path.astype(np.int64)
                path, cycle = bases[h, w], True
            r, c = np.divmod(path, w)
            link(links, (r + r0) * board.m + c + c0, closed=cycle)
    joins = [(r0, r0 + h, c0, False) for r0, h in rows for c0, _ in cols[1:]]
    joins += [(r0, board.n, 0, True) for r0, _ in rows[1:]]
    join = _join.choose(board.size, compiled)
    for r0, r1, c0, up in joins:
        if not join(board.neighbours, links, board.m, r0, r1, c0, up):
            return None
    walk = np.empty(board.size, dtype=np.int32)
    length = walk_links.choose(board.size, compiled)(links, first, walk)
    if length != board.size:
        return None
    params = {"blocks": len(rows) * len(cols)}
    return Tour(board=board, path=walk, method="joined", params=params, work=board.size - 1)


def small_closed_tour(board: Board, *, seed: int = 0, compiled: bool | None = None) -> Tour | None:
    """A closed tour of a board of up to a few thousand squares from its top-left corner, or None if not found.

    Rotations first (:func:`rotation_tour`); where they fail (5 × 6, whose eight closed tours
    they miss), depth-first search in Warnsdorff's order (:func:`knight.engine.backtrack.backtrack_tour`).

    >>> small_closed_tour(Board(5, 6)).closed
    True

    Reference: Pósa (1976); the Eiffel text's Try_Next_Move.
    """
    from knight.engine.backtrack import backtrack_tour

    tour = rotation_tour(board, (0, 0), closed=True, seed=seed, compiled=compiled)
    if tour.closed:
        return tour
    tour = backtrack_tour(board, (0, 0), closed=True, order="warnsdorff", budget=2_000_000, compiled=compiled)
    return tour if tour.closed else None


def small_open_tour(board: Board, start: Square, *, seed: int = 0, compiled: bool | None = None) -> Tour | None:
    """An open tour of a small board from ``start``, or None if there is none (or none found in the budget).

    Rotations first (:func:`~knight.engine.rotation.rotation_tour`); where they fail, the exhaustive
    search (:func:`~knight.engine.pruned.pruned_tour`).

    >>> small_open_tour(Board(3, 7), (1, 3)) is None, small_open_tour(Board(3, 7), (1, 1)).full
    (True, True)
    """
    tour = rotation_tour(board, start, seed=seed, compiled=compiled)
    if not tour.full:
        tour = pruned_tour(board, start, compiled=compiled)
    return tour if tour.full else None


def _cut(
    board: Board, open_block: tuple[int, int, int, int] | None
) -> tuple[list[tuple[int, int]] | None, list[tuple[int, int]] | None]:
    """The blocks' rows and columns, as (first, length) lists."""
    if open_block is None:
        even_rows = board.n % 2 == 0
        return _parts(0, board.n, even_rows), _parts(0, board.m, not even_rows)
    r0, c0, h, w = open_block
    rows = [_parts(0, r0, True), [(r0, h)], _parts(r0 + h, board.n - r0 - h, True)]
    cols = [_parts(0, c0, True), [(c0, w)], _parts(c0 + w, board.m - c0 - w, True)]
    if any(part is None for part in rows + cols):
        return None, None
    return [p for part in rows for p in part], [p for part in cols for p in part]  # type: ignore[union-attr]


def _parts(first: int, length: int, even: bool) -> list[tuple[int, int]] | None:
    """Cut ``length`` into parts of 5–10 (only even ones when ``even``), as (first, length); None if impossible."""
    sizes: list[int] = []
    if length % 2:
        if even or length < 5:
            return None
        sizes, length = [5 if length >= 11 or length == 5 else length], length - (5 if length >= 11 else length)
    if length in (2, 4):
        return None
    eights, rest = divmod(length, 8)
    sizes += {0: [8] * eights, 6: [8] * eights + [6], 2: [8] * (eights - 1) + [10], 4: [8] * (eights - 1) + [6, 6]}[
        rest
    ]
    parts, at = [], first
    for size in sizes:
        parts.append((at, size))
        at += size
    return parts


def odd_board_block(board: Board, start: Square) -> tuple[int, int, int, int] | None:
    """For an odd × odd board: a block (row, col, height, width) with odd sides of at least 5 holding
    ``start``, placed so that the rest of the board cuts into blocks with an even side; None if none."""
    found = []
    for side, at in ((board.n, start[0]), (board.m, start[1])):
        options = [
            (length, first)
            for first in range(0, at + 1, 2)
            for length in range(5, 16, 2)
            if first + length > at
            and _parts(0, first, True) is not None
            and _parts(0, side - first - length, True) is not None
            and first + length <= side
        ]
        if not options:
            return None
        length, first = min(options)
        found.append((first, length))
    (r0, h), (c0, w) = found
    return r0, c0, h, w


@kernel(compile_from=0, signature="b1(i4[:, ::1], i8[:, ::1], i8, i8, i8, i8, b1)")
def _join(neighbours, links, m, r0, r1, c0, up):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Join two pieces: rows r0..r1-1 right of column c0 to those left of it, or (``up``) the rows
    from r0 on to the rows above r0 (then c0 is 0).

    Looks along the border for a move a–b on one side and c–d on the other with a–c and b–d
    knight moves, and exchanges them. Return True when joined.
    """
    hi = m if up else r1
    lo = 0 if up else r0
    for along in range(lo, hi):
        for depth in range(2):
            if up:
                a = (r0 - 1 - depth) * m + along
            else:
                a = along * m + c0 - 1 - depth
            for x in range(2):
                b = links[a, x]
                if b < 0:
                    continue
                br = b // m
                bc = b % m
                if (up and br >= r0) or (not up and (bc >= c0 or br < r0 or br >= r1)):
                    continue
                for k in range(8):
                    c = neighbours[a, k]
                    if c < 0:
                        continue
                    if (up and c // m < r0) or (not up and (c % m < c0 or c // m < r0 or c // m >= r1)):
                        continue
                    for y in range(2):
                        d = links[c, y]
                        if d < 0 or (up and d // m < r0):
                            continue
                        if not up and (d % m < c0 or d // m < r0 or d // m >= r1):
                            continue
                        dr = abs(br - d // m)
                        dc = abs(bc - d % m)
                        if dr * dc == 2:
                            links[a, x] = c
                            links[c, y] = a
                            for z in range(2):
                                if links[b, z] == a:
                                    links[b, z] = d
                                    break
                            for z in range(2):
                                if links[d, z] == c:
                                    links[d, z] = b
                                    break
                            return True
    return False
