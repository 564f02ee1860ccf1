"""Warnsdorff's rule repaired by Pósa's rotations: a tour from a given start that does not get stuck.

Warnsdorff's rule with random ties; when the walk is stuck, a *rotation* (Pósa 1976) turns the end of
the path round: if the end ``v_k`` is a knight move from an earlier square ``v_i``, then
``v_0 … v_i v_k v_(k-1) … v_(i+1)`` is a path over the same squares that ends on ``v_(i+1)``. The start
never moves, so the path stays a path from the asked start. With ``closed`` it also rotates a full path
until its end is a knight move from its start.
"""

from __future__ import annotations

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.kernel import kernel
from knight.engine.search_steps import degrees, lower_degrees
from knight.engine.tour import Tour

__all__ = ["ROTATIONS_PER_SQUARE", "rotation_tour"]

#: Rotations allowed per attempt of :func:`rotation_tour`, per square of the board.
ROTATIONS_PER_SQUARE = 20


def rotation_tour(
    board: Board,
    start: Square,
    *,
    closed: bool = False,
    seed: int = 0,
    attempts: int = 8,
    rotations: int | None = None,
    compiled: bool | None = None,
) -> Tour:
    """An open (or, with ``closed``, closed) tour from ``start`` by Warnsdorff's rule with rotations.

    Parameters
    ----------
    board : the board.
    start : the first square, ``(row, col)``.
    closed : demand a closed tour (the last square a knight move from ``start``).
    seed : seed of the random ties and rotations; attempt ``i`` uses ``seed + i``.
    attempts : independent attempts, each with its own seed.
    rotations : most rotations per attempt (default :data:`ROTATIONS_PER_SQUARE` per square).

    Returns the first full tour found (``work``: moves made plus rotations, over all attempts),
    or else the longest path met, not full. Failing proves nothing: the search is not exhaustive.

    Example
    -------
    >>> rotation_tour(Board(8, 6), (3, 1)).full
    True
    >>> rotation_tour(Board(6, 6), (0, 0), closed=True).closed
    True

    Reference: H. C. von Warnsdorff (1823); L. Pósa, "Hamiltonian circuits in random graphs",
    Discrete Mathematics 14 (1976) 359–364 (the rotation).
    """
    first = board.index(start)
    limit = ROTATIONS_PER_SQUARE * board.size if rotations is None else int(rotations)
    search = _rotate.choose(board.size, compiled)
    path = np.empty(board.size, dtype=np.int32)
    best = np.empty(0, dtype=np.int32)
    work = 0
    for attempt in range(max(1, int(attempts))):
        length, steps, done = search(
            board.neighbours, first, bool(closed), (int(seed) + attempt) & 0xFFFFFFFF, limit, path
        )
        work += int(steps)
        if length > best.size or done:
            best = path[:length].copy()
        if done:
            break
    params = {"closed": bool(closed), "seed": int(seed)}
    return Tour(board=board, path=best, method="rotation", params=params, work=work, work_unit="steps")


@kernel(
    compile_from=100, signature="Tuple((i8, i8, b1))(i4[:, ::1], i8, b1, i8, i8, i4[::1])"
)  # small boards finish in milliseconds interpreted, sooner than numba loads
def _rotate(neighbours, start, closed, seed, limit, path):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Warnsdorff with random ties, rotating the path's end when stuck; return ``(length, work, done)``.

    ``work`` counts moves and rotations. Stops with a full path (closed when asked) or after
    ``limit`` rotations.
    """
    size = neighbours.shape[0]
    where = np.full(size, -1, dtype=np.int64)
    degree = degrees(neighbours)
    state = (seed * 2654435761 + 1) & 0xFFFFFFFF
    if state == 0:
        state = 0x9E3779B9
    good = np.empty(8, dtype=np.int64)
    length = 0
    work = 0
    rotations = 0
    square = start
    while True:
        if square >= 0:  # place `square` at the end
            where[square] = length
            path[length] = square
            length += 1
            work += 1
            lower_degrees(neighbours, degree, square)
        end = path[length - 1]
        square = -1
        if length == size:
            if not closed:
                return length, work, True
            for k in range(8):
                if neighbours[end, k] == start:
                    return length, work, True
        else:
            lowest = 99
            ties = 0
            for k in range(8):
                t = neighbours[end, k]
                if t >= 0 and where[t] < 0:
                    if degree[t] < lowest:
                        lowest = degree[t]
                        square = t
                        ties = 1
                    elif degree[t] == lowest:
                        ties += 1
                        state ^= (state << 13) & 0xFFFFFFFF
                        state ^= state >> 17
                        state ^= (state << 5) & 0xFFFFFFFF
                        if state % ties == 0:
                            square = t
            if square >= 0:
                continue
        # Stuck (or full but not closed): rotate the end.
        if rotations >= limit or length < 3:
            return length, work, False
        rotations += 1
        work += 1
        count = 0
        fallback = 0
        for k in range(8):
            t = neighbours[end, k]
            if t >= 0 and where[t] >= 0 and where[t] < length - 2:
                fallback += 1
                candidate = path[where[t] + 1]
                useful = False
                for j in range(8):
                    u = neighbours[candidate, j]
                    if u >= 0 and ((length < size and where[u] < 0) or (length == size and closed and u == start)):
                        useful = True
                if useful:
                    good[count] = where[t]
                    count += 1
        if fallback == 0:
            return length, work, False
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        if count > 0:
            pivot = good[state % count]
        else:
            choice = state % fallback
            pivot = -1
            for k in range(8):
                t = neighbours[end, k]
                if t >= 0 and where[t] >= 0 and where[t] < length - 2:
                    if choice == 0:
                        pivot = where[t]
                    choice -= 1
        i = pivot + 1
        j = length - 1
        while i < j:
            a = path[i]
            b = path[j]
            path[i] = b
            path[j] = a
            where[b] = i
            where[a] = j
            i += 1
            j -= 1
