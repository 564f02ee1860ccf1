"""Tours of 3 × m boards of any length: a small tour widened four columns at a time (Schwenk's
induction from 3 × n to 3 × (n + 4)), each 3 × 4 block joined in by exchanging one move.
"""

from __future__ import annotations

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.joined import small_closed_tour, small_open_tour
from knight.engine.links import link, walk_links
from knight.engine.tour import Tour

__all__ = ["strip_tour"]


def strip_tour(board: Board, start: Square, *, compiled: bool | None = None) -> Tour | None:
    """A tour of a 3 × m board (or m × 3) from ``start``, built from a small tour by adding 3 × 4 blocks.

    For even m ≥ 10 a closed tour of 3 × 10 or 3 × 12 (search); for odd m ≥ 9 an open tour of a
    3 × 9 to 3 × 15 window around ``start`` (search). Then, four columns at a time on either side,
    a move a–b of the tour next to the new columns is replaced by an open tour x … y of the 3 × 4
    block with a–x and b–y knight moves (Schwenk's induction from 3 × n to 3 × (n + 4)). Returns
    None where no such window or join is found (the caller then searches).

    Example
    -------
    >>> tour = strip_tour(Board(3, 101), (1, 51))
    >>> tour.full, tour.start
    (True, (1, 51))
    >>> strip_tour(Board(3, 102), (0, 0)).closed
    True

    Reference: A. J. Schwenk (1991), the 3 × n boards; the join of Parberry (1997).
    """
    if board.n != 3:
        if board.m != 3:
            return None
        turned = strip_tour(Board(board.m, board.n), (start[1], start[0]), compiled=compiled)
        if turned is None:
            return None
        cols, rows = np.divmod(turned.path.astype(np.int64), board.n)
        return Tour(board=board, path=rows * board.m + cols, method="strip", params={}, work=turned.work)
    m = board.m
    if m % 2 == 0:
        if m < 10:
            return None
        c0, width = 0, 10 if m % 4 == 2 else 12
        base = small_closed_tour(Board(3, width), compiled=compiled)
        if base is None:
            return None
    else:
        windows = [
            (c0, width)
            for width in (9, 11, 13, 15)
            for c0 in range(0, m, 4)
            if (m - c0 - width) % 4 == 0 and c0 <= start[1] < c0 + width <= m
        ]
        if not windows:
            return None
        c0, width = min(windows, key=lambda window: window[1])
        base = small_open_tour(Board(3, width), (start[0], start[1] - c0), compiled=compiled)
        if base is None:
            return None
    links = np.full((board.size, 2), -1, dtype=np.int64)
    r, c = np.divmod(base.path.astype(np.int64), width)
    link(links, r * m + c + c0, closed=m % 2 == 0)
    pieces = _four_column_paths()
    for left in [*range(c0 + width, m, 4), *range(c0 - 4, -1, -4)]:
        if not _insert(links, m, left, pieces, right=left >= c0 + width):
            return None
    walk = np.empty(board.size, dtype=np.int32)
    length = walk_links.choose(board.size, compiled)(links, board.index(start), walk)
    if length != board.size:
        return None
    return Tour(board=board, path=walk, method="strip", params={}, work=board.size - 1)


def _four_column_paths() -> list[list[Square]]:
    """Every open tour of the 3 × 4 board, as (row, col) squares (sixteen: eight and their reversals)."""
    board = Board(3, 4)
    moves = [[board.coords(t) for t in row if t >= 0] for row in board.neighbours]
    found: list[list[Square]] = []

    def extend(path: list[Square]) -> None:
        if len(path) == 12:
            found.append(list(path))
            return
        for square in moves[board.index(path[-1])]:
            if square not in path:
                path.append(square)
                extend(path)
                path.pop()

    for s in range(12):
        extend([board.coords(s)])
    return found


def _insert(links: np.ndarray, m: int, left: int, pieces: list[list[Square]], right: bool) -> bool:
    """Add the 3 × 4 block of columns left..left+3 to the tour in ``links`` (the tour lies to its left when
    ``right``, else to its right): a move a–b of the tour next to the block becomes a–x … y–b."""
    near = range(left - 2, left) if right else range(left + 4, left + 6)
    for col in near:
        for row in range(3):
            a = row * m + col
            for x_side in range(2):
                b = int(links[a, x_side])
                if b < 0 or not (left - 2 <= b % m < left if right else left + 4 <= b % m < left + 6):
                    continue
                for piece in pieces:
                    (xr, xc), (yr, yc) = piece[0], piece[-1]
                    ar, ac, br, bc = a // m, a % m, b // m, b % m
                    if abs((ar - xr) * (ac - xc - left)) == 2 and abs((br - yr) * (bc - yc - left)) == 2:
                        squares = np.array([r * m + c + left for r, c in piece], dtype=np.int64)
                        link(links, squares, closed=False)
                        x, y = int(squares[0]), int(squares[-1])
                        links[a, x_side] = x
                        links[x, 1] = a
                        links[b, 0 if links[b, 0] == a else 1] = y
                        links[y, 0] = b
                        return True
    return False
