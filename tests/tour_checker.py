"""An independent tour checker, written without the engine."""

from __future__ import annotations


def is_knight_path(n: int, m: int, squares: list[tuple[int, int]]) -> bool:
    """True when `squares` lie on the n x m board, repeat none, and each step is a knight move."""
    if len(set(squares)) != len(squares):
        return False
    if not all(0 <= r < n and 0 <= c < m for r, c in squares):
        return False
    return all({abs(r1 - r2), abs(c1 - c2)} == {1, 2} for (r1, c1), (r2, c2) in zip(squares, squares[1:]))
