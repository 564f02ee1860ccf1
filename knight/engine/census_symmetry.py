"""The symmetry bookkeeping of a census: which start squares and first moves stand for others, and which
closed tours a symmetry of the board carries onto themselves.

Only the symmetries that keep the removed squares in place count. A symmetry carries tours onto tours
one-to-one, so the census searches one start of each class of squares (:func:`orbits`) and one first
move of each class under the symmetries that keep the start in place (:func:`first_move_weights`);
Burnside's lemma counts closed tours up to symmetry from how many cycles each symmetry keeps
(:func:`kept_cycles`, summed in :func:`knight.engine.census.classes_from_shares`).
"""

from __future__ import annotations

import numpy as np

from knight.engine.board import Board

__all__ = ["orbits", "first_move_weights", "kept_cycles"]


def orbits(board: Board, gone: set[int]) -> dict[int, list[int]]:
    """For every square on the board (not in ``gone``), the squares the symmetries that keep ``gone`` carry it to.

    >>> orbits(Board(3, 3), set())[0]
    [0, 2, 6, 8]
    """
    images = list(board.symmetric_images(np.arange(board.size, dtype=np.int64), keeping=gone))
    return {s: sorted({int(image[s]) for image in images}) for s in range(board.size) if s not in gone}


def first_move_weights(board: Board, start: int, gone: set[int]) -> dict[int, int]:
    """The first moves from ``start`` (plain ints) a census searches, each with how many first moves it
    stands for.

    The symmetries of the board that keep ``start`` and the ``gone`` squares in place (a corner of a
    square board has two: the identity and the diagonal mirror) map the tours of one first move one-to-one
    onto those of another. Of each class of first moves under them only the least is searched; its weight
    is the size of its class. No symmetry but the identity keeps two squares a knight move apart in place,
    so deeper moves need no such care.

    >>> first_move_weights(Board(6, 6), 0, set())  # (1, 2) stands for itself and its mirror (2, 1)
    {8: 2}
    >>> first_move_weights(Board(6, 6), 1, set())  # (0, 1): no symmetry keeps it
    {9: 1, 12: 1, 14: 1}
    """
    moves = sorted(int(t) for t in board.neighbours[start] if t >= 0 and int(t) not in gone)
    keeping = board.symmetric_images(np.arange(board.size, dtype=np.int64), keeping=gone)
    fixing = [image for image in keeping if int(image[start]) == start]
    weights: dict[int, int] = {}
    for t in moves:
        images = {int(image[t]) for image in fixing}
        if t == min(images):
            weights[t] = len(images)
    return weights


def kept_cycles(board: Board, gone: set[int], tours: np.ndarray) -> int:
    """Over the closed ``tours`` (rows of squares) and the symmetries of ``board`` that keep ``gone`` in place,
    how many times a symmetry carries a tour's cycle onto itself (a cycle is carried onto itself when the image
    of each of its moves is one of its moves)."""
    if len(tours) == 0:
        return 0
    after = np.roll(tours, -1, axis=1)  # the moves of each tour: tours[t, i] -> after[t, i]
    offsets = (np.arange(len(tours), dtype=np.int64) * board.size)[:, None]
    successor = np.full(len(tours) * board.size, -1, dtype=np.int16)  # successor[t * size + a]: a's next
    successor[offsets + tours] = after
    symmetries = list(board.symmetric_images(np.arange(board.size, dtype=np.int16), keeping=gone))
    kept = len(tours)  # the identity keeps every cycle
    for image in symmetries[1:]:
        # A few moves at a time, over the tours still kept: most cycles lose at their first moves.
        alive = np.arange(len(tours))
        for first in range(0, tours.shape[1], _MOVES_AT_A_TIME):
            moves = slice(first, first + _MOVES_AT_A_TIME)
            moved_from, moved_to = image[tours[alive, moves]], image[after[alive, moves]]
            base = offsets[alive]
            both = (successor[base + moved_from] == moved_to) | (successor[base + moved_to] == moved_from)
            alive = alive[both.all(axis=1)]
            if len(alive) == 0:
                break
        kept += len(alive)
    return kept


#: Moves of each tour compared at once (:func:`kept_cycles`) before the cycles already lost are dropped.
_MOVES_AT_A_TIME = 4
