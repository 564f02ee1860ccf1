"""Shared test helpers: an independent tour checker, written without the engine."""

from __future__ import annotations

import os

from hypothesis import settings

# A kernel called with other types than it declares is an error in the tests, not a quiet fall-back to the JIT:
# the ahead-of-time module (knight/aot.py) is used for every call it can take.
os.environ.setdefault("KNIGHT_AOT", "strict")

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def is_knight_path(n: int, m: int, squares: list[tuple[int, int]]) -> bool:
    """True when `squares` lie on the n x m board, repeat none, and each step is a knight move."""
    if len(set(squares)) != len(squares):
        return False
    if not all(0 <= r < n and 0 <= c < m for r, c in squares):
        return False
    return all({abs(r1 - r2), abs(c1 - c2)} == {1, 2} for (r1, c1), (r2, c2) in zip(squares, squares[1:]))
