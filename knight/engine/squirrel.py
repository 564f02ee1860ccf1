"""The Squirrel–Cull switching move orderings for Warnsdorff's rule on square boards.

Source: D. Squirrel and P. Cull, "A Warnsdorff-rule algorithm for knight's tours on square
chessboards" (1996), in the form of S. Ganzfried, "A simple algorithm for knight's tours"
(2004), Table 1. The knight starts in the top-left corner; ties of Warnsdorff's rule go to
the move type that comes first in the current ordering, and the ordering changes each time
the knight reaches the next switching square. For m = 74 Ganzfried uses the single
ordering 21345678.
"""

from __future__ import annotations

import numpy as np

from knight.engine.board import Board, Square
from knight.errors import InvalidInput

__all__ = ["squirrel_table", "squirrel_schedule"]

# Ganzfried's move types 1..8 as our move numbers: type 1 is (-2, +1), which is our move 1, and so on.
_TYPE_TO_MOVE = (1, 0, 7, 6, 5, 4, 3, 2)


def squirrel_table(m: int) -> list[str | tuple[int, int]]:
    """Table 1 as printed, for an m × m board: orderings alternating with 1-based switching squares."""
    row = m % 8
    if row == 0:
        return [
            "34261578",
            (m - 1, m - 2),
            "87642135",
            (2, 2),
            "51867342",
            (m - 8, 1),
            "51342678",
            (7, m - 3),
            "21435678",
        ]
    if row == 1:
        return ["34261578", (m - 1, m - 2), "87642135", (2, 2), "51324678", (m - 6, (m + 9) // 2), "32481765"]
    if row == 2:
        return [
            "34261578",
            (6, 1),
            "87642135",
            (3, 1),
            "54132678",
            (m - 15, 4),
            "52431678",
            (10, m - 2),
            "85647123",
            (5, (m - 6) // 2),
            "15746823",
        ]
    if row == 3:
        return [
            "34625718",
            (m - 1, m - 2),
            "42681357",
            (m - 6, m),
            "86512347",
            (2, 5),
            "51867342",
            (m - 10, 3),
            "61825437",
            ((m + 1) // 2, m - 2),
            "71642538",
        ]
    if row == 4:
        return [
            "34261578",
            (m - 1, m - 2),
            "87642135",
            (2, 2),
            "51867342",
            (m - 8, 1),
            "51342678",
            (10, m - 5),
            "86753421",
            (13, (m + 2) // 2),
            "78563421",
        ]
    if row == 5:
        switch = (m - 2, (m - 5) // 2) if m % 16 == 5 else (m - 2, (m - 13) // 2)
        return ["34261578", (m - 1, m - 2), "87642135", (2, 2), "51324678", switch, "15234678"]
    if row == 6:
        return [
            "34261578",
            (6, 1),
            "87642135",
            (3, 1),
            "54132678",
            (m - 10, 1),
            "52431678",
            (10, m - 2),
            "85647123",
            (3, (m + 8) // 2),
            "12453678",
        ]
    return [
        "34625718",
        (m - 1, m - 2),
        "42681357",
        (m - 6, m),
        "86512347",
        (2, 5),
        "51867342",
        (m - 6, 3),
        "61825437",
        ((m + 1) // 2, m - 2),
        "61357284",
    ]


def squirrel_schedule(board: Board, start: Square, *, as_printed: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The tie-break tables of the Squirrel–Cull rule for ``board``.

    By default m = 74 uses Ganzfried's single ordering 21345678 (Table 1 fails there);
    ``as_printed`` keeps Table 1's row for every m.

    Returns ``(ranks, switches)``: ``ranks[p, k]`` is the preference of our move ``k`` in
    phase ``p`` (0 is preferred), and ``switches[p]`` the square (as a plain int, or -1
    when off the board) whose arrival starts phase ``p + 1``.

    Raises :class:`InvalidInput` unless the board is square and the start is the top-left corner,
    the only case the published table covers.
    """
    name = "squirrel-table" if as_printed else "squirrel"
    if not board.is_square:
        raise InvalidInput(
            f"tie-break '{name}' is defined on square boards only, not {board}; "
            "use another tie-break (e.g. 'roth') on rectangles"
        )
    if tuple(start) != (0, 0):
        raise InvalidInput(f"tie-break '{name}' starts in the top-left corner (0, 0), not {tuple(start)}")
    schedule: list[str | tuple[int, int]] = (
        ["21345678"] if board.m == 74 and not as_printed else squirrel_table(board.m)
    )
    orderings = [entry for entry in schedule if isinstance(entry, str)]
    ranks = np.empty((len(orderings), 8), dtype=np.int64)
    for p, ordering in enumerate(orderings):
        for preference, move_type in enumerate(ordering):
            ranks[p, _TYPE_TO_MOVE[int(move_type) - 1]] = preference
    switches = np.array(
        [
            (r - 1) * board.m + (c - 1) if board.contains((r - 1, c - 1)) else -1
            for r, c in (entry for entry in schedule if isinstance(entry, tuple))
        ],
        dtype=np.int64,
    )
    return ranks, switches
