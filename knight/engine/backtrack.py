"""Backtracking: depth-first search for a full tour, as in the Eiffel text's Try_Next_Move."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.kernel import kernel
from knight.engine.search_steps import degrees, insert_by_key, lower_degrees, raise_degrees
from knight.engine.tour import Tour
from knight.errors import InvalidInput

__all__ = ["ORDERINGS", "DEFAULT_BUDGET", "backtrack_tour"]

#: Move orderings for the search.
ORDERINGS: dict[str, str] = {
    "plain": "moves in move order 0–7, as Try_Next_Move's loop over d",
    "warnsdorff": "moves to lower-degree squares first (Warnsdorff's rule as a move ordering), then move order",
}

#: Nodes (squares placed) the search may visit unless told otherwise: about a second compiled.
DEFAULT_BUDGET = 50_000_000


def backtrack_tour(
    board: Board,
    start: Square,
    *,
    closed: bool = False,
    order: str = "plain",
    budget: int = DEFAULT_BUDGET,
    removed: Iterable[Square] = (),
    compiled: bool | None = None,
) -> Tour:
    """Find the first full tour from ``start`` by depth-first search, trying moves in ``order``.

    Parameters
    ----------
    board : the board.
    start : the first square, ``(row, col)``.
    closed : demand a closed tour (the last square a knight move from the first).
    order : ``plain`` (move order 0–7) or ``warnsdorff`` (lowest degree first); see :data:`ORDERINGS`.
    budget : the most nodes (squares placed, the start included) to visit before giving up.
    removed : squares taken off the board, ``(row, col)``: they start as visited, and a full
        tour covers every other square (the Eiffel text's board without opposite corners).

    Returns the first tour found, with ``work`` the nodes visited. When none is found the
    tour holds the longest path the search met, and ``budget_exhausted`` tells "gave up"
    (True) from "no tour from this start exists" (False).

    Example
    -------
    >>> tour = backtrack_tour(Board(5, 5), (0, 0))
    >>> tour.full, tour.budget_exhausted
    (True, False)
    >>> backtrack_tour(Board(5, 5), (0, 1)).full  # the minority colour of an odd board
    False
    >>> backtrack_tour(Board(5, 5), (0, 1), removed=[(0, 0), (4, 4)]).full  # now the majority colour
    True

    Reference: the Eiffel text on the knight's journey (Try_Next_Move, Try_All), after
    N. Wirth, *Algorithms + Data Structures = Programs* (1976), §3.4.
    """
    if order not in ORDERINGS:
        raise InvalidInput(f"unknown move ordering {order!r}; choose one of: {', '.join(ORDERINGS)}")
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < 1:
        raise InvalidInput(f"budget must be a positive number of nodes, got {budget!r}")
    first = board.index(start)
    gone = sorted({board.index((int(row), int(col))) for row, col in removed})
    if first in gone:
        raise InvalidInput(f"start {tuple(start)} is a removed square; choose one on the board")
    path = np.empty(board.size, dtype=np.int32)
    longest = np.empty(board.size, dtype=np.int32)
    search = _depth_first.choose(board.size, compiled)
    found, nodes, longest_length, out_of_budget = search(
        board.neighbours,
        first,
        bool(closed),
        order == "warnsdorff",
        int(budget),
        np.array(gone, dtype=np.int64),
        path,
        longest,
    )
    squares = path[: board.size - len(gone)] if found else longest[:longest_length]
    params: dict[str, object] = {"order": order, "closed": bool(closed), "budget": int(budget)}
    if gone:
        params["removed"] = [list(board.coords(s)) for s in gone]
    return Tour(
        board=board,
        path=squares,
        method="backtrack",
        params=params,
        work=int(nodes),
        work_unit="nodes",
        budget_exhausted=bool(out_of_budget),
        removed=tuple(board.coords(s) for s in gone),
    )


@kernel(
    compile_from=25, signature="Tuple((b1, i8, i8, b1))(i4[:, ::1], i8, b1, b1, i8, i8[::1], i4[::1], i4[::1])"
)  # exponential work: compile for all but the tiniest boards
def _depth_first(neighbours, start, closed, by_degree, budget, removed, path, longest):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Search for a full tour; return ``(found, nodes, longest_length, out_of_budget)``.

    The squares of ``removed`` start as visited; a full tour covers the others.
    An explicit stack instead of recursion: numba's on-disk cache of recursive functions
    has crashed in a second process (numba issue #6061).
    """
    board_size = neighbours.shape[0]
    size = board_size - removed.shape[0]  # squares a full tour covers
    visited = np.zeros(board_size, dtype=np.bool_)
    degree = degrees(neighbours)
    for i in range(removed.shape[0]):
        visited[removed[i]] = True
        lower_degrees(neighbours, degree, removed[i])
    moves = np.empty((size + 1, 8), dtype=np.int64)  # moves[d]: squares to try at depth d, in order
    move_count = np.zeros(size + 1, dtype=np.int64)
    next_move = np.zeros(size + 1, dtype=np.int64)
    keys = np.empty(8, dtype=np.int64)

    depth = 0
    nodes = 0
    longest_length = 0
    square = start
    while True:
        # Place `square` at `depth`.
        nodes += 1
        visited[square] = True
        path[depth] = square
        lower_degrees(neighbours, degree, square)
        depth += 1
        # The longest partial path; for a closed search not a full open one, which would read as success.
        if depth > longest_length and (depth < size or not closed or depth == 1):
            longest_length = depth
            longest[:depth] = path[:depth]
        if depth == size:
            if not closed:
                return True, nodes, longest_length, False
            for k in range(8):
                if neighbours[square, k] == start:
                    return True, nodes, longest_length, False

        # The squares to try next; none when the tour is complete, or when a closed tour can
        # no longer come back (every neighbour of the start is used).
        count = 0
        if depth < size and not (closed and degree[start] == 0):
            for k in range(8):
                t = neighbours[square, k]
                if t >= 0 and not visited[t]:
                    count = insert_by_key(keys, moves[depth], count, degree[t] * 8 + k if by_degree else k, t)
        move_count[depth] = count
        next_move[depth] = 0

        # Take the next untried move, unplacing squares whose moves are all tried.
        while depth > 0 and (depth == size or next_move[depth] == move_count[depth]):
            depth -= 1
            undone = path[depth]
            visited[undone] = False
            raise_degrees(neighbours, degree, undone)
        if depth == 0:
            return False, nodes, longest_length, False
        if nodes >= budget:
            return False, nodes, longest_length, True
        square = moves[depth, next_move[depth]]
        next_move[depth] += 1
