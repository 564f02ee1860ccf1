"""The board: its size, its squares as plain ints, the knight's moves and their tables.

A board has ``n`` rows and ``m`` columns. A square is ``(row, col)``, 0-based from the
top-left, in the public API; inside the engine it is the plain int ``row * m + col``.

Moves are numbered 0–7 as in Deitel's exercise 7.24: move ``k`` changes ``(row, col)`` by
``(VERTICAL[k], HORIZONTAL[k])``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from knight.errors import InvalidInput

__all__ = ["HORIZONTAL", "VERTICAL", "MAX_SQUARES", "Board", "size_text", "is_knight_move"]

HORIZONTAL = (2, 1, -1, -2, -2, -1, 1, 2)
VERTICAL = (-1, -2, -2, -1, 1, 2, 2, 1)

#: Largest board the engine accepts, in squares (4096 × 4096). Memory stays linear:
#: about 10 bytes a square for a heuristic walk.
MAX_SQUARES = 4096 * 4096

Square = tuple[int, int]
Symmetry = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class Board:
    """An ``n`` × ``m`` board (rows × columns).

    >>> board = Board(8, 8)
    >>> board.index((7, 0)), board.coords(56)
    (56, (7, 0))
    >>> int(board.accessibility()[0, 0])
    2
    """

    n: int
    m: int

    def __post_init__(self) -> None:
        for name, value in (("n", self.n), ("m", self.m)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise InvalidInput(f"board size {name} must be a positive integer, got {value!r}")
        if self.n * self.m > MAX_SQUARES:
            raise InvalidInput(
                f"board {size_text(self.n, self.m)} has {self.n * self.m:,} squares; the limit is {MAX_SQUARES:,}"
            )
        object.__setattr__(self, "n", int(self.n))
        object.__setattr__(self, "m", int(self.m))

    def __str__(self) -> str:
        return self.label()

    def label(self, *, ascii: bool = True) -> str:
        """The board as text: ``6x8``, or for people ``6 × 8`` with no-break spaces (see :func:`size_text`)."""
        return size_text(self.n, self.m, ascii=ascii)

    @property
    def size(self) -> int:
        """The number of squares."""
        return self.n * self.m

    @property
    def is_square(self) -> bool:
        return self.n == self.m

    def contains(self, square: Square) -> bool:
        row, col = square
        return 0 <= row < self.n and 0 <= col < self.m

    def index(self, square: Square) -> int:
        """The plain-int square of ``(row, col)``; raises :class:`InvalidInput` when off the board."""
        row, col = square
        if not self.contains(square):
            raise InvalidInput(
                f"square ({row}, {col}) is off the {self} board: row must be 0..{self.n - 1} and column 0..{self.m - 1}"
            )
        return row * self.m + col

    def coords(self, square: int) -> Square:
        """``(row, col)`` of a plain-int square."""
        return divmod(int(square), self.m)

    def colour(self, square: Square) -> int:
        """0 for the colour of the top-left corner, 1 for the other colour."""
        return (square[0] + square[1]) % 2

    def colours(self) -> np.ndarray:
        """The colour (as :meth:`colour`) of every plain-int square, in square order."""
        rows, cols = np.divmod(np.arange(self.size, dtype=np.int64), self.m)
        return (rows + cols) % 2

    def minority_colour(self) -> int | None:
        """The colour with fewer squares, or None when both colours have as many."""
        if self.size % 2 == 0:
            return None
        return 1  # on an odd board the corners' colour has the extra square

    @cached_property
    def neighbours(self) -> np.ndarray:
        """The move table: ``neighbours[s, k]`` is the square move ``k`` reaches from ``s``, or -1."""
        rows, cols = np.divmod(np.arange(self.size, dtype=np.int64), self.m)
        table = np.full((self.size, 8), -1, dtype=np.int32)
        for k in range(8):
            r, c = rows + VERTICAL[k], cols + HORIZONTAL[k]
            on_board = (r >= 0) & (r < self.n) & (c >= 0) & (c < self.m)
            table[on_board, k] = (r * self.m + c)[on_board]
        table.flags.writeable = False
        return table

    def accessibility(self) -> np.ndarray:
        """Deitel's accessibility table: the degree of every square of the empty board, n × m."""
        rows = np.arange(self.n)[:, None]
        cols = np.arange(self.m)[None, :]
        table = np.zeros((self.n, self.m), dtype=np.int64)
        for dr, dc in zip(VERTICAL, HORIZONTAL):
            table += (rows + dr >= 0) & (rows + dr < self.n) & (cols + dc >= 0) & (cols + dc < self.m)
        return table

    def symmetries(self) -> list[Symmetry]:
        """The maps of (rows, cols) arrays that carry the board onto itself: 8 when square, else 4."""
        n, m = self.n, self.m
        maps: list[Symmetry] = [
            lambda r, c: (r, c),
            lambda r, c: (n - 1 - r, c),
            lambda r, c: (r, m - 1 - c),
            lambda r, c: (n - 1 - r, m - 1 - c),
        ]
        if self.is_square:
            maps += [
                lambda r, c: (c, r),
                lambda r, c: (m - 1 - c, n - 1 - r),
                lambda r, c: (c, n - 1 - r),
                lambda r, c: (m - 1 - c, r),
            ]
        return maps

    def symmetric_images(self, squares: np.ndarray, keeping: Iterable[int] = ()) -> Iterator[np.ndarray]:
        """The images of the plain-int ``squares`` (an array of any shape) under each of the board's
        :meth:`symmetries` that maps the plain-int squares ``keeping`` onto themselves, the identity first.

        One image at a time, so that memory stays linear in the number of squares.

        >>> [image.tolist() for image in Board(2, 3).symmetric_images(np.array([0, 1]))]
        [[0, 1], [3, 4], [2, 1], [5, 4]]
        """
        kept = set(keeping)
        kept_rows, kept_cols = np.divmod(np.array(sorted(kept), dtype=np.int64), self.m)
        rows, cols = np.divmod(squares, np.asarray(self.m, dtype=squares.dtype))
        for symmetry in self.symmetries():
            if kept:
                r, c = symmetry(kept_rows, kept_cols)
                if set((r * self.m + c).tolist()) != kept:
                    continue
            r, c = symmetry(rows, cols)
            yield r * self.m + c  # symmetries of a non-square board keep n × m


def size_text(n: int, m: int, *, ascii: bool = True) -> str:
    """The one text form of an ``n`` × ``m`` board size: ``6x8`` (files, keys, messages) or, with
    ``ascii=False``, ``6 × 8`` with no-break spaces so that it never breaks across lines (the report).

    >>> size_text(6, 8), size_text(5, 5, ascii=False)
    ('6x8', '5\xa0×\xa05')
    """
    return f"{n}x{m}" if ascii else f"{n}\u00a0×\u00a0{m}"


def is_knight_move(a: Square, b: Square) -> bool:
    """True when one knight move joins squares ``a`` and ``b``."""
    return abs((a[0] - b[0]) * (a[1] - b[1])) == 2
