"""A depth-first search for an open tour from a given start with exact pruning: when it ends without a
tour it has proved that no tour starts there.

Moves go in Warnsdorff's order, and a branch is cut only when no tour can complete it (the pruning of
the census kernel, :mod:`knight.engine.census_count`: no unvisited square left without a way in; at
most two squares of degree one, which must be the next and the last square: the same step,
:func:`~knight.engine.search_steps.degree_one_rule`).
"""

from __future__ import annotations

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.kernel import kernel, kernel_step
from knight.engine.search_steps import EVERY, degree_one_rule, degrees, few, insert_by_key
from knight.engine.tour import Tour
from knight.errors import InvalidInput

__all__ = ["pruned_tour"]


def pruned_tour(board: Board, start: Square, *, budget: int = 1_000_000, compiled: bool | None = None) -> Tour:
    """The first open tour from ``start`` found by a depth-first search with exact pruning.

    Moves go to the lowest-degree square first (Warnsdorff's rule as an ordering). A branch is
    cut only when no tour can complete it: an unvisited square with no unvisited neighbour (it
    could only be the next and last square), or more than two unvisited squares with one
    unvisited neighbour (each must be the next or the last square), or two of them not both
    reachable as next and last. So when the search ends without a tour, ``budget_exhausted``
    is False and no open tour starts on ``start``: the node count (``work``) is the proof's size.

    Parameters
    ----------
    board : the board.
    start : the first square, ``(row, col)``.
    budget : the most nodes (squares placed) to visit.

    Example
    -------
    >>> tour = pruned_tour(Board(3, 7), (1, 3))
    >>> tour.full, tour.budget_exhausted, tour.work
    (False, False, 145)
    >>> pruned_tour(Board(3, 7), (1, 1)).full
    True

    Reference: the Eiffel text's Try_Next_Move (after Wirth 1976) with the pruning rules of
    the census kernel (:mod:`knight.engine.census_count`).
    """
    first = board.index(start)
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < 1:
        raise InvalidInput(f"budget must be a positive number of nodes, got {budget!r}")
    path = np.empty(board.size, dtype=np.int32)
    longest = np.empty(board.size, dtype=np.int32)
    search = _pruned.choose(board.size, compiled)
    found, nodes, longest_length, exhausted = search(board.neighbours, first, int(budget), path, longest)
    squares = path if found else longest[:longest_length]
    return Tour(
        board=board,
        path=squares,
        method="pruned-search",
        params={"budget": int(budget)},
        work=int(nodes),
        work_unit="nodes",
        budget_exhausted=bool(exhausted),
    )


@kernel(compile_from=0, signature="Tuple((b1, i8, i8, b1))(i4[:, ::1], i8, i8, i4[::1], i4[::1])")
def _pruned(neighbours, start, budget, path, longest):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Depth-first search for an open tour with exact pruning; return ``(found, nodes, longest, exhausted)``."""
    size = neighbours.shape[0]
    visited = np.zeros(size, dtype=np.bool_)
    degree = degrees(neighbours)
    ones = np.empty(size, dtype=np.int64)  # unvisited squares of degree 1, in slots
    slot = np.full(size, -1, dtype=np.int64)
    count_ones = 0
    zeros = 0  # unvisited squares of degree 0
    for s in range(size):
        if degree[s] == 1:
            count_ones = _add_one(ones, slot, count_ones, s)
        elif degree[s] == 0:
            zeros += 1
    moves = np.empty((size + 1, 8), dtype=np.int64)
    move_count = np.zeros(size + 1, dtype=np.int64)
    next_move = np.zeros(size + 1, dtype=np.int64)
    keys = np.empty(8, dtype=np.int64)
    depth = 0
    nodes = 0
    longest_length = 0
    square = start
    while True:
        # Place `square` at `depth`: it leaves the unvisited set, its neighbours lose a degree.
        nodes += 1
        visited[square] = True
        path[depth] = square
        if slot[square] >= 0:
            count_ones = _drop_one(ones, slot, count_ones, square)
        elif degree[square] == 0:
            zeros -= 1
        for k in range(8):
            t = neighbours[square, k]
            if t >= 0:
                degree[t] -= 1
                if not visited[t]:
                    if degree[t] == 1:
                        count_ones = _add_one(ones, slot, count_ones, t)
                    elif degree[t] == 0:
                        count_ones = _drop_one(ones, slot, count_ones, t)
                        zeros += 1
        depth += 1
        if depth > longest_length:
            longest_length = depth
            longest[:depth] = path[:depth]
        if depth == size:
            return True, nodes, longest_length, False
        remaining = size - depth
        count = 0
        dead = zeros > 0 and remaining > 1  # a square with no way in can only be the last
        allowed = EVERY
        if not dead and count_ones > 0:
            away = 0
            for i in range(count_ones if count_ones <= 2 else 0):  # more than two: dead whatever the rest
                near = False
                for k in range(8):
                    if neighbours[square, k] == ones[i]:
                        near = True
                if not near:
                    away += 1
            allowed = degree_one_rule(few(count_ones), few(away), False)  # none, EVERY, or the squares of degree 1
            dead = allowed == np.uint64(0)
        if not dead:
            for k in range(8):
                t = neighbours[square, k]
                if t >= 0 and not visited[t] and (allowed == EVERY or slot[t] >= 0):
                    count = insert_by_key(keys, moves[depth], count, degree[t] * 8 + k, t)
        move_count[depth] = count
        next_move[depth] = 0
        # Take the next untried move, unplacing squares whose moves are all tried.
        while depth > 0 and next_move[depth] == move_count[depth]:
            depth -= 1
            undone = path[depth]
            for k in range(8):
                t = neighbours[undone, k]
                if t >= 0:
                    degree[t] += 1
                    if not visited[t]:
                        if degree[t] == 1:
                            zeros -= 1
                            count_ones = _add_one(ones, slot, count_ones, t)
                        elif degree[t] == 2:
                            count_ones = _drop_one(ones, slot, count_ones, t)
            visited[undone] = False
            if degree[undone] == 1:
                count_ones = _add_one(ones, slot, count_ones, undone)
            elif degree[undone] == 0:
                zeros += 1
        if depth == 0:
            return False, nodes, longest_length, False
        if nodes >= budget:
            return False, nodes, longest_length, True
        square = moves[depth, next_move[depth]]
        next_move[depth] += 1


@kernel_step
def _add_one(ones: np.ndarray, slot: np.ndarray, count: int, square: int) -> int:
    """``square`` joins the ``count`` squares of degree one listed in ``ones`` (``slot[s]``: where ``s`` is in it,
    -1 when not); return the new count."""
    ones[count] = square
    slot[square] = count
    return count + 1


@kernel_step
def _drop_one(ones: np.ndarray, slot: np.ndarray, count: int, square: int) -> int:
    """``square`` leaves the list of squares of degree one (the last one takes its slot); return the new count."""
    last = ones[count - 1]
    ones[slot[square]] = last
    slot[last] = slot[square]
    slot[square] = -1
    return count - 1
