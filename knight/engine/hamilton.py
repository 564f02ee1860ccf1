"""Searches for one tour from a given start that do not get stuck: Warnsdorff's rule repaired by
Pósa's rotations, a pruned depth-first search, and closed tours of any size joined from small ones.

* :func:`rotation_tour` — Warnsdorff's rule with random ties; when the walk is stuck, a *rotation*
  (Pósa 1976) turns the end of the path round: if the end ``v_k`` is a knight move from an earlier
  square ``v_i``, then ``v_0 … v_i v_k v_(k-1) … v_(i+1)`` is a path over the same squares that
  ends on ``v_(i+1)``. The start never moves, so the path stays a path from the asked start. With
  ``closed`` it also rotates a full path until its end is a knight move from its start.
* :func:`pruned_tour` — depth-first search in Warnsdorff's order with the exact pruning of the
  census kernel (no unvisited square left without a way in; at most two squares of degree one,
  which must be the next and the last square), so that when it ends without a tour it has proved
  that no tour starts there.
* :func:`joined_closed_tour` — a closed tour of a large board: the board cut into blocks of 5 to
  10 squares a side, a closed tour of each block, and the cycles joined two at a time by
  exchanging one move of each for two moves between them (the join of Parberry 1997, found by
  search instead of fixed in advance); one block may hold an open tour from a given start
  instead, and then the result is an open tour from that start.
"""

from __future__ import annotations

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.kernel import kernel
from knight.engine.tour import Tour
from knight.errors import InvalidInput

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

#: Rotations allowed per attempt of :func:`rotation_tour`, per square of the board.
ROTATIONS_PER_SQUARE = 20
#: Side lengths of the blocks :func:`joined_closed_tour` cuts a board into.
BLOCK_SIDES = (5, 6, 7, 8, 9, 10)


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
    :func:`knight.engine.census._count_tours`.
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


def joined_closed_tour(
    board: Board,
    start: Square = (0, 0),
    *,
    open_block: tuple[int, int, int, int] | None = None,
    seed: int = 0,
    compiled: bool | None = None,
) -> Tour | None:
    """A tour of ``board`` from ``start`` joined from tours of blocks; None when a join is not found.

    Without ``open_block`` the board (both sides at least 5, not both odd) is cut into blocks
    whose sides come from :data:`BLOCK_SIDES`, every block with a closed tour (the same tour for
    blocks of one size), and the result is a closed tour. With ``open_block = (row, col, height,
    width)``, that block (which must hold ``start``) gets an open tour from ``start`` instead and
    the others closed tours; the result is an open tour from ``start``. Two neighbouring pieces
    are joined by taking a move ``a–b`` out of one and ``c–d`` out of the other where ``a–c`` and
    ``b–d`` are knight moves, and putting those two in: one cycle (or path) results.

    Example
    -------
    >>> tour = joined_closed_tour(Board(15, 22), (7, 3))
    >>> tour.closed, tour.start
    (True, (7, 3))

    Reference: I. Parberry, "An efficient algorithm for the knight's tour problem", Discrete
    Applied Mathematics 73 (1997) 251–260 (joining closed tours of quadrants by exchanging moves).
    """
    first = board.index(start)
    rows, cols = _cut(board, open_block)
    if rows is None or cols is None:
        return None
    links = np.full((board.size, 2), -1, dtype=np.int64)
    bases: dict[tuple[int, int], np.ndarray] = {}
    for r0, h in rows:
        for c0, w in cols:
            if open_block is not None and (r0, c0) == open_block[:2]:
                block, inside = Board(h, w), (start[0] - r0, start[1] - c0)
                local = rotation_tour(block, inside, seed=seed, compiled=compiled)
                if not local.full:
                    local = pruned_tour(block, inside, compiled=compiled)
                if not local.full:
                    return None
                path, cycle = local.path.astype(np.int64), False
            else:
                if (h, w) not in bases:
                    tour = small_closed_tour(Board(h, w), seed=seed, compiled=compiled)
                    if tour is None:
                        return None
                    bases[h, w] = tour.path.astype(np.int64)
                path, cycle = bases[h, w], True
            r, c = np.divmod(path, w)
            squares = (r + r0) * board.m + c + c0
            links[squares[:-1], 0] = squares[1:]
            links[squares[1:], 1] = squares[:-1]
            if cycle:
                links[squares[-1], 0] = squares[0]
                links[squares[0], 1] = squares[-1]
    joins = [(r0, r0 + h, c0, False) for r0, h in rows for c0, _ in cols[1:]]
    joins += [(r0, board.n, 0, True) for r0, _ in rows[1:]]
    join = _join.choose(board.size, compiled)
    for r0, r1, c0, up in joins:
        if not join(board.neighbours, links, board.m, r0, r1, c0, up):
            return None
    walk = np.empty(board.size, dtype=np.int32)
    length = _walk_links.choose(board.size, compiled)(links, first, walk)
    if length != board.size:
        return None
    params = {"blocks": len(rows) * len(cols)}
    return Tour(board=board, path=walk, method="joined", params=params, work=board.size - 1)


def small_closed_tour(board: Board, *, seed: int = 0, compiled: bool | None = None) -> Tour | None:
    """A closed tour of a board of up to a few thousand squares from its top-left corner, or None if not found.

    Rotations first (:func:`rotation_tour`); where they fail (5 × 6, whose eight closed tours
    they miss), depth-first search in Warnsdorff's order (:func:`knight.engine.backtrack.backtrack_tour`).

    >>> small_closed_tour(Board(5, 6)).closed
    True

    Reference: Pósa (1976); the Eiffel text's Try_Next_Move.
    """
    from knight.engine.backtrack import backtrack_tour

    tour = rotation_tour(board, (0, 0), closed=True, seed=seed, compiled=compiled)
    if tour.closed:
        return tour
    tour = backtrack_tour(board, (0, 0), closed=True, order="warnsdorff", budget=2_000_000, compiled=compiled)
    return tour if tour.closed else None


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


def strip_tour(board: Board, start: Square, *, compiled: bool | None = None) -> Tour | None:
    """A tour of a 3 × m board (or m × 3) from ``start``, built from a small tour by adding 3 × 4 blocks.

    For even m ≥ 10 a closed tour of 3 × 10 or 3 × 12 (search); for odd m ≥ 9 an open tour of a
    3 × 9 to 3 × 15 window around ``start`` (search). Then, four columns at a time on either side,
    a move a–b of the tour next to the new columns is replaced by an open tour x … y of the 3 × 4
    block with a–x and b–y knight moves (Schwenk's induction from 3 × n to 3 × (n + 4)). Returns
    None where no such window or join is found (the caller then searches).

    Example
    -------
    >>> tour = strip_tour(Board(3, 101), (1, 51))
    >>> tour.full, tour.start
    (True, (1, 51))
    >>> strip_tour(Board(3, 102), (0, 0)).closed
    True

    Reference: A. J. Schwenk (1991), the 3 × n boards; the join of Parberry (1997).
    """
    if board.n != 3:
        if board.m != 3:
            return None
        turned = strip_tour(Board(board.m, board.n), (start[1], start[0]), compiled=compiled)
        if turned is None:
            return None
        cols, rows = np.divmod(turned.path.astype(np.int64), board.n)
        return Tour(board=board, path=rows * board.m + cols, method="strip", params={}, work=turned.work)
    m = board.m
    if m % 2 == 0:
        if m < 10:
            return None
        c0, width = 0, 10 if m % 4 == 2 else 12
        base = small_closed_tour(Board(3, width), compiled=compiled)
        if base is None:
            return None
    else:
        windows = [
            (c0, width)
            for width in (9, 11, 13, 15)
            for c0 in range(0, m, 4)
            if (m - c0 - width) % 4 == 0 and c0 <= start[1] < c0 + width <= m
        ]
        if not windows:
            return None
        c0, width = min(windows, key=lambda window: window[1])
        block, inside = Board(3, width), (start[0], start[1] - c0)
        base = rotation_tour(block, inside, compiled=compiled)
        if not base.full:
            base = pruned_tour(block, inside, compiled=compiled)
        if not base.full:
            return None
    links = np.full((board.size, 2), -1, dtype=np.int64)
    r, c = np.divmod(base.path.astype(np.int64), width)
    _link(links, r * m + c + c0, closed=m % 2 == 0)
    pieces = _four_column_paths()
    for left in [*range(c0 + width, m, 4), *range(c0 - 4, -1, -4)]:
        if not _insert(links, m, left, pieces, right=left >= c0 + width):
            return None
    walk = np.empty(board.size, dtype=np.int32)
    length = _walk_links.choose(board.size, compiled)(links, board.index(start), walk)
    if length != board.size:
        return None
    return Tour(board=board, path=walk, method="strip", params={}, work=board.size - 1)


def _link(links: np.ndarray, squares: np.ndarray, closed: bool) -> None:
    """Write the path (or cycle) ``squares`` into ``links``."""
    links[squares[:-1], 0] = squares[1:]
    links[squares[1:], 1] = squares[:-1]
    if closed:
        links[squares[-1], 0] = squares[0]
        links[squares[0], 1] = squares[-1]


def _four_column_paths() -> list[list[Square]]:
    """Every open tour of the 3 × 4 board, as (row, col) squares (sixteen: eight and their reversals)."""
    board = Board(3, 4)
    moves = [[board.coords(t) for t in row if t >= 0] for row in board.neighbours]
    found: list[list[Square]] = []

    def extend(path: list[Square]) -> None:
        if len(path) == 12:
            found.append(list(path))
            return
        for square in moves[board.index(path[-1])]:
            if square not in path:
                path.append(square)
                extend(path)
                path.pop()

    for s in range(12):
        extend([board.coords(s)])
    return found


def _insert(links: np.ndarray, m: int, left: int, pieces: list[list[Square]], right: bool) -> bool:
    """Add the 3 × 4 block of columns left..left+3 to the tour in ``links`` (the tour lies to its left when
    ``right``, else to its right): a move a–b of the tour next to the block becomes a–x … y–b."""
    near = range(left - 2, left) if right else range(left + 4, left + 6)
    for col in near:
        for row in range(3):
            a = row * m + col
            for x_side in range(2):
                b = int(links[a, x_side])
                if b < 0 or not (left - 2 <= b % m < left if right else left + 4 <= b % m < left + 6):
                    continue
                for piece in pieces:
                    (xr, xc), (yr, yc) = piece[0], piece[-1]
                    ar, ac, br, bc = a // m, a % m, b // m, b % m
                    if abs((ar - xr) * (ac - xc - left)) == 2 and abs((br - yr) * (bc - yc - left)) == 2:
                        squares = np.array([r * m + c + left for r, c in piece], dtype=np.int64)
                        _link(links, squares, closed=False)
                        x, y = int(squares[0]), int(squares[-1])
                        links[a, x_side] = x
                        links[x, 1] = a
                        links[b, 0 if links[b, 0] == a else 1] = y
                        links[y, 0] = b
                        return True
    return False


def _cut(
    board: Board, open_block: tuple[int, int, int, int] | None
) -> tuple[list[tuple[int, int]] | None, list[tuple[int, int]] | None]:
    """The blocks' rows and columns, as (first, length) lists."""
    if open_block is None:
        even_rows = board.n % 2 == 0
        return _parts(0, board.n, even_rows), _parts(0, board.m, not even_rows)
    r0, c0, h, w = open_block
    rows = [_parts(0, r0, True), [(r0, h)], _parts(r0 + h, board.n - r0 - h, True)]
    cols = [_parts(0, c0, True), [(c0, w)], _parts(c0 + w, board.m - c0 - w, True)]
    if any(part is None for part in rows + cols):
        return None, None
    return [p for part in rows for p in part], [p for part in cols for p in part]  # type: ignore[union-attr]


def _parts(first: int, length: int, even: bool) -> list[tuple[int, int]] | None:
    """Cut ``length`` into parts of 5–10 (only even ones when ``even``), as (first, length); None if impossible."""
    sizes: list[int] = []
    if length % 2:
        if even or length < 5:
            return None
        sizes, length = [5 if length >= 11 or length == 5 else length], length - (5 if length >= 11 else length)
    if length in (2, 4):
        return None
    eights, rest = divmod(length, 8)
    sizes += {0: [8] * eights, 6: [8] * eights + [6], 2: [8] * (eights - 1) + [10], 4: [8] * (eights - 1) + [6, 6]}[
        rest
    ]
    parts, at = [], first
    for size in sizes:
        parts.append((at, size))
        at += size
    return parts


def odd_board_block(board: Board, start: Square) -> tuple[int, int, int, int] | None:
    """For an odd × odd board: a block (row, col, height, width) with odd sides of at least 5 holding
    ``start``, placed so that the rest of the board cuts into blocks with an even side; None if none."""
    found = []
    for side, at in ((board.n, start[0]), (board.m, start[1])):
        options = [
            (length, first)
            for first in range(0, at + 1, 2)
            for length in range(5, 16, 2)
            if first + length > at
            and _parts(0, first, True) is not None
            and _parts(0, side - first - length, True) is not None
            and first + length <= side
        ]
        if not options:
            return None
        length, first = min(options)
        found.append((first, length))
    (r0, h), (c0, w) = found
    return r0, c0, h, w


# --- kernels ------------------------------------------------------------------------------------


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
    degree = np.zeros(size, dtype=np.int64)
    for s in range(size):
        for k in range(8):
            if neighbours[s, k] >= 0:
                degree[s] += 1
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
            for k in range(8):
                t = neighbours[square, k]
                if t >= 0:
                    degree[t] -= 1
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


@kernel(compile_from=0, signature="Tuple((b1, i8, i8, b1))(i4[:, ::1], i8, i8, i4[::1], i4[::1])")
def _pruned(neighbours, start, budget, path, longest):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Depth-first search for an open tour with exact pruning; return ``(found, nodes, longest, exhausted)``."""
    size = neighbours.shape[0]
    visited = np.zeros(size, dtype=np.bool_)
    degree = np.zeros(size, dtype=np.int64)
    for s in range(size):
        for k in range(8):
            if neighbours[s, k] >= 0:
                degree[s] += 1
    ones = np.empty(size, dtype=np.int64)  # unvisited squares of degree 1, in slots
    slot = np.full(size, -1, dtype=np.int64)
    count_ones = 0
    zeros = 0  # unvisited squares of degree 0
    for s in range(size):
        if degree[s] == 1:
            ones[count_ones] = s
            slot[s] = count_ones
            count_ones += 1
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
            last = ones[count_ones - 1]
            ones[slot[square]] = last
            slot[last] = slot[square]
            slot[square] = -1
            count_ones -= 1
        elif degree[square] == 0:
            zeros -= 1
        for k in range(8):
            t = neighbours[square, k]
            if t >= 0:
                degree[t] -= 1
                if not visited[t]:
                    if degree[t] == 1:
                        ones[count_ones] = t
                        slot[t] = count_ones
                        count_ones += 1
                    elif degree[t] == 0:
                        last = ones[count_ones - 1]
                        ones[slot[t]] = last
                        slot[last] = slot[t]
                        slot[t] = -1
                        count_ones -= 1
                        zeros += 1
        depth += 1
        if depth > longest_length:
            longest_length = depth
            longest[:depth] = path[:depth]
        if depth == size:
            return True, nodes, longest_length, False
        remaining = size - depth
        count = 0
        dead = (zeros > 0 and remaining > 1) or count_ones > 2
        forced = -1
        if not dead and count_ones > 0:
            away = 0
            for i in range(count_ones):
                u = ones[i]
                near = False
                for k in range(8):
                    if neighbours[square, k] == u:
                        near = True
                if not near:
                    away += 1
                elif count_ones == 2:
                    forced = u if forced < 0 else forced
            if away > 1 or (count_ones == 2 and forced < 0):
                dead = True
            if count_ones == 2 and away == 0:
                forced = -2  # both next to the end: the next move takes either
        if not dead:
            for k in range(8):
                t = neighbours[square, k]
                if t >= 0 and not visited[t]:
                    if count_ones == 2 and (t != forced if forced != -2 else slot[t] < 0):
                        continue  # two squares of degree 1: the next move takes one of them
                    key = degree[t] * 8 + k
                    i = count
                    while i > 0 and keys[i - 1] > key:
                        keys[i] = keys[i - 1]
                        moves[depth, i] = moves[depth, i - 1]
                        i -= 1
                    keys[i] = key
                    moves[depth, i] = t
                    count += 1
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
                            ones[count_ones] = t
                            slot[t] = count_ones
                            count_ones += 1
                        elif degree[t] == 2:
                            last = ones[count_ones - 1]
                            ones[slot[t]] = last
                            slot[last] = slot[t]
                            slot[t] = -1
                            count_ones -= 1
            visited[undone] = False
            if degree[undone] == 1:
                ones[count_ones] = undone
                slot[undone] = count_ones
                count_ones += 1
            elif degree[undone] == 0:
                zeros += 1
        if depth == 0:
            return False, nodes, longest_length, False
        if nodes >= budget:
            return False, nodes, longest_length, True
        square = moves[depth, next_move[depth]]
        next_move[depth] += 1


@kernel(compile_from=0, signature="b1(i4[:, ::1], i8[:, ::1], i8, i8, i8, i8, b1)")
def _join(neighbours, links, m, r0, r1, c0, up):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Join two pieces: rows r0..r1-1 right of column c0 to those left of it, or (``up``) the rows
    from r0 on to the rows above r0 (then c0 is 0).

    Looks along the border for a move a–b on one side and c–d on the other with a–c and b–d
    knight moves, and exchanges them. Return True when joined.
    """
    hi = m if up else r1
    lo = 0 if up else r0
    for along in range(lo, hi):
        for depth in range(2):
            if up:
                a = (r0 - 1 - depth) * m + along
            else:
                a = along * m + c0 - 1 - depth
            for x in range(2):
                b = links[a, x]
                if b < 0:
                    continue
                br = b // m
                bc = b % m
                if (up and br >= r0) or (not up and (bc >= c0 or br < r0 or br >= r1)):
                    continue
                for k in range(8):
                    c = neighbours[a, k]
                    if c < 0:
                        continue
                    if (up and c // m < r0) or (not up and (c % m < c0 or c // m < r0 or c // m >= r1)):
                        continue
                    for y in range(2):
                        d = links[c, y]
                        if d < 0 or (up and d // m < r0):
                            continue
                        if not up and (d % m < c0 or d // m < r0 or d // m >= r1):
                            continue
                        dr = abs(br - d // m)
                        dc = abs(bc - d % m)
                        if dr * dc == 2:
                            links[a, x] = c
                            links[c, y] = a
                            for z in range(2):
                                if links[b, z] == a:
                                    links[b, z] = d
                                    break
                            for z in range(2):
                                if links[d, z] == c:
                                    links[d, z] = b
                                    break
                            return True
    return False


@kernel(compile_from=0, signature="i8(i8[:, ::1], i8, i4[::1])")
def _walk_links(links, start, walk):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
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
