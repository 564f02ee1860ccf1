"""Searches for one tour from a given start that do not get stuck: Warnsdorff's rule repaired by
Pósa's rotations, a pruned depth-first search, and closed tours of any size joined from small ones.
Each lives in its own module; this one names them together, for :mod:`knight.engine.starts`.

* :func:`rotation_tour` (:mod:`knight.engine.rotation`) — Warnsdorff's rule with random ties; when the
  walk is stuck, a *rotation* (Pósa 1976) turns the end of the path round: if the end ``v_k`` is a
  knight move from an earlier square ``v_i``, then ``v_0 … v_i v_k v_(k-1) … v_(i+1)`` is a path over
  the same squares that ends on ``v_(i+1)``. The start never moves, so the path stays a path from the
  asked start. With ``closed`` it also rotates a full path until its end is a knight move from its start.
* :func:`pruned_tour` (:mod:`knight.engine.pruned`) — depth-first search in Warnsdorff's order with the
  exact pruning of the census kernel (no unvisited square left without a way in; at most two squares
  of degree one, which must be the next and the last square), so that when it ends without a tour it
  has proved that no tour starts there.
* :func:`joined_closed_tour` (:mod:`knight.engine.joined`) — a closed tour of a large board: the board
  cut into blocks of 5 to 10 squares a side, a closed tour of each block, and the cycles joined two at
  a time by exchanging one move of each for two moves between them (the join of Parberry 1997, found
  by search instead of fixed in advance); one block may hold an open tour from a given start instead,
  and then the result is an open tour from that start.
* :func:`strip_tour` (:mod:`knight.engine.strip`) — a tour of a 3 × m board, widened four columns at a
  time; :func:`walk_cycle` (:mod:`knight.engine.links`) walks a cycle of a million squares held as links.
"""

from __future__ import annotations

from knight.engine.joined import BLOCK_SIDES, joined_closed_tour, odd_board_block, small_closed_tour
from knight.engine.links import walk_cycle
from knight.engine.pruned import pruned_tour
from knight.engine.rotation import ROTATIONS_PER_SQUARE, rotation_tour
from knight.engine.strip import strip_tour

__all__ = [
    "ROTATIONS_PER_SQUARE",
    "BLOCK_SIDES",
    "rotation_tour",
    "pruned_tour",
    "joined_closed_tour",
    "small_closed_tour",
    "walk_cycle",
    "strip_tour",
    "odd_board_block",
]
