"""The steps the searches share, written once and compiled into each kernel that calls them
(:func:`~knight.engine.kernel.kernel_step`): the degree-one rule that proves a branch dead, the degrees of
the squares as the path grows and shrinks, and the moves to try kept in order of a key.

The census (:mod:`knight.engine.census_count`) and the exhaustive pruned search (:mod:`knight.engine.pruned`)
cut a branch by the same rule (:func:`degree_one_rule`). Backtracking (:mod:`knight.engine.backtrack`) and
the rotations (:mod:`knight.engine.rotation`) keep the same degrees (:func:`degrees`, :func:`lower_degrees`,
:func:`raise_degrees`) but prune nothing: backtracking is the Eiffel text's plain Try_Next_Move, whose node
counts the report shows, and the rotations' walk is not exhaustive.
"""

from __future__ import annotations

import numpy as np

from knight.engine.kernel import kernel_step

__all__ = [
    "EVERY",
    "degree_one_rule",
    "few",
    "degrees",
    "lower_degrees",
    "raise_degrees",
    "insert_by_key",
]

#: Every square, as a bitboard: what :func:`degree_one_rule` allows when it cuts nothing.
EVERY = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


@kernel_step
def degree_one_rule(ones: np.uint64, away: np.uint64, closed: bool) -> np.uint64:
    """The squares the next move may go to, by the unvisited squares with one way in: none (the path is dead),
    ``ones`` (the next move must take one of them) or :data:`EVERY`.

    ``ones`` holds a bit for each unvisited square with one neighbour left among the *targets* (the
    unvisited squares; for a closed tour, the start too), ``away`` a bit for each of them that is not a
    knight move from the path's end: a bitboard of the squares, or any bits as many as the squares (up to
    three: :func:`few`). Such a square is entered either from that one neighbour or from the end of the path:

    * open tours: it is the next square (entered from the end) or the last one (entered from its
      neighbour). There is one next and one last square, so: at most two such squares, at most one of
      them away from the end, and when there are two the next move takes one of them;
    * closed tours: the last square is fixed (the start), so such a square must be the next one: at most
      one, next to the end, and the next move takes it.

    These are Warnsdorff's degrees read as a proof that a branch is dead: no tour is cut, so counts stay
    exact and a search that ends without a tour has proved there is none. On bits, and giving bits, so that
    the census's bitboards go in as they are and its candidate moves are masked with what comes out
    (counting bits, or branching on a verdict, made the census ~3 % slower).

    >>> int(degree_one_rule(few(2), few(1), False)), int(degree_one_rule(few(3), few(0), False))  # take one; dead
    (3, 0)
    >>> bool(degree_one_rule(few(1), few(1), False) == EVERY), int(degree_one_rule(few(1), few(1), True))
    (True, 0)
    """
    zero = np.uint64(0)
    one = np.uint64(1)
    if ones == zero:
        return EVERY
    more = ones & (ones - one)  # the squares but one (each "- one" only on bits, as uint64 would wrap at 0)
    if closed:
        return ones if more == zero and away == zero else zero
    if more != zero and (more & (more - one)) != zero or away != zero and (away & (away - one)) != zero:
        return zero
    return ones if more != zero else EVERY


@kernel_step
def few(count: int) -> np.uint64:
    """``count`` bits (at most three, all :func:`degree_one_rule` tells apart), for a search that counts its
    squares of degree one rather than keeping them as a bitboard.

    >>> int(few(2)), int(few(9))
    (3, 7)
    """
    return np.uint64((1 << min(count, 3)) - 1)


@kernel_step
def degrees(neighbours: np.ndarray) -> np.ndarray:
    """Each square's number of moves (``neighbours``: a move table, -1 for no move), as int64.

    >>> from knight.engine.board import Board
    >>> degrees(Board(3, 4).neighbours).tolist()
    [2, 3, 3, 2, 2, 2, 2, 2, 2, 3, 3, 2]
    """
    size = neighbours.shape[0]
    degree = np.zeros(size, dtype=np.int64)
    for s in range(size):
        for k in range(8):
            if neighbours[s, k] >= 0:
                degree[s] += 1
    return degree


@kernel_step
def lower_degrees(neighbours: np.ndarray, degree: np.ndarray, square: int) -> None:
    """``square`` joins the path: each of its neighbours has one way in fewer."""
    for k in range(8):
        t = neighbours[square, k]
        if t >= 0:
            degree[t] -= 1


@kernel_step
def raise_degrees(neighbours: np.ndarray, degree: np.ndarray, square: int) -> None:
    """``square`` leaves the path: each of its neighbours has its way in back."""
    for k in range(8):
        t = neighbours[square, k]
        if t >= 0:
            degree[t] += 1


@kernel_step
def insert_by_key(keys: np.ndarray, row: np.ndarray, count: int, key: int, square: int) -> int:
    """Put ``square`` among the first ``count`` entries of ``row``, kept in increasing order of their ``keys``
    (an insertion sort: a square has at most 8 moves), after those of an equal key; return the new count.

    >>> keys, row = np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64)
    >>> count = insert_by_key(keys, row, 0, 5, 10)
    >>> count = insert_by_key(keys, row, count, 3, 11)
    >>> insert_by_key(keys, row, count, 5, 12), row[:3].tolist()
    (3, [11, 10, 12])
    """
    i = count
    while i > 0 and keys[i - 1] > key:
        keys[i] = keys[i - 1]
        row[i] = row[i - 1]
        i -= 1
    keys[i] = key
    row[i] = square
    return count + 1
