"""A path or cycle held as links: ``links[s]`` the two squares next to ``s`` on it (-1 past a path's end).

Written from a row of squares (:func:`link`), changed a few links at a time when pieces are joined
(:mod:`knight.engine.joined`, :mod:`knight.engine.strip`), and walked back into a row of squares
(:data:`walk_links`, compiled; :func:`walk_cycle`, plain numpy, for a cycle of a million squares).
"""

from __future__ import annotations

import numpy as np

from knight.engine.kernel import kernel

__all__ = ["link", "walk_links", "walk_cycle"]


def link(links: np.ndarray, squares: np.ndarray, closed: bool) -> None:
    """Write the path (or cycle) ``squares`` into ``links``."""
    links[squares[:-1], 0] = squares[1:]
    links[squares[1:], 1] = squares[:-1]
    if closed:
        links[squares[-1], 0] = squares[0]
        links[squares[0], 1] = squares[-1]


def walk_cycle(links: np.ndarray, start: int, *, marks: int = 4096, seed: int = 0) -> np.ndarray:
    """The squares of a cycle in order from ``start``, given its links (``links[s]``: the two squares next to ``s``).

    Plain numpy, no compiled kernel (so a process that needs nothing else compiled does not pay
    for numba's start-up): ``marks`` random squares cut the cycle into pieces, all pieces are
    walked at once (one array operation per step, for every piece), in both directions, and
    the pieces are put in order by a walk over the marks alone. A 1000 × 1000 cycle takes
    about a tenth of a second.

    Parameters
    ----------
    links : size × 2 array of plain-int squares, a single cycle through every square.
    start : the first square (plain int); the walk goes first towards ``links[start, 0]``.
    marks : how many squares cut the cycle (more: fewer steps, more pieces).
    seed : seed of the choice of marks (the result does not depend on it).

    Example
    -------
    >>> walk_cycle(np.array([[1, 3], [2, 0], [3, 1], [0, 2]]), 2).tolist()
    [2, 3, 0, 1]

    Reference: list ranking by a sparse ruling set (R. J. Anderson and G. L. Miller, 1988).
    """
    links = np.asarray(links, dtype=np.int64)
    size = links.shape[0]
    chosen = np.random.default_rng(seed).choice(size, size=min(size, int(marks)), replace=False)
    cuts = np.unique(np.concatenate([[int(start)], chosen]))
    is_cut = np.zeros(size, dtype=np.bool_)
    is_cut[cuts] = True
    count = 2 * cuts.size  # walker 2i leaves cut i towards links[cut, 0], walker 2i + 1 towards links[cut, 1]
    origin = np.repeat(cuts, 2)
    length = np.ones(count, dtype=np.int64)
    last = origin.copy()
    arrival = np.empty(count, dtype=np.int64)
    walkers = np.arange(count)
    previous, current = origin.copy(), links[origin, np.tile([0, 1], cuts.size)]
    ids, squares, sizes = [walkers], [origin], [count]
    step = 1
    while walkers.size:
        ended = is_cut[current]
        if ended.any():
            done = walkers[ended]
            arrival[done] = current[ended]
            last[done] = previous[ended]
            length[done] = step
            going = ~ended
            walkers, previous, current = walkers[going], previous[going], current[going]
        ids.append(walkers)
        squares.append(current)
        sizes.append(walkers.size)
        following = links[current, 0]
        back = following == previous
        following[back] = links[current[back], 1]
        previous, current = current, following
        step += 1
    # Put the pieces in order: from the start's walker 0, each piece ends at a cut, where the walker
    # that does not go back the way it came takes over.
    where = {int(cut): i for i, cut in enumerate(cuts.tolist())}
    offset = np.full(count, -1, dtype=np.int64)
    walker, at = 2 * where[int(start)], 0
    arrival_list, last_list, length_list = arrival.tolist(), last.tolist(), length.tolist()
    first_steps = links[cuts].tolist()
    while at < size:
        offset[walker] = at
        at += length_list[walker]
        cut = where[arrival_list[walker]]
        walker = 2 * cut + (1 if first_steps[cut][0] == last_list[walker] else 0)
    every_id, every_square = np.concatenate(ids), np.concatenate(squares)
    every_step = np.repeat(np.arange(len(sizes)), sizes)
    used = offset[every_id] >= 0
    path = np.empty(size, dtype=np.int32)
    path[offset[every_id[used]] + every_step[used]] = every_square[used]
    return path


@kernel(compile_from=0, signature="i8(i8[:, ::1], i8, i4[::1])")
def walk_links(links, start, walk):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Walk a path or cycle given as links from ``start`` (an end of a path); return the squares walked."""
    size = links.shape[0]
    previous = -1
    square = start
    length = 0
    while length < size:
        walk[length] = square
        length += 1
        following = links[square, 0]
        if following == previous or following < 0:
            following = links[square, 1]
            if following == previous:
                following = -1
        if following < 0 or following == start:
            break
        previous = square
        square = following
    return length
