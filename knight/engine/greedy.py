"""Greedy walks: the knight moves by a rule and never takes a move back.

Three rules, one kernel:

* ``naive`` — Deitel 7.24's first script: the first legal unvisited move in move order; with
  random ties it is the random walk (:func:`random_walk_tour`), every legal move being tied.
* ``static`` — Deitel's accessibility heuristic with the table of the *empty* board, never
  updated (what a student gets who skips the exercise's note); ties by move order.
* ``warnsdorff`` — Warnsdorff's rule (1823), Deitel's accessibility heuristic with updates,
  Homework #8's heuristic: move to the unvisited square of lowest current degree, with a
  choice of tie-break (:data:`TIE_BREAKS`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from knight.engine.board import HORIZONTAL, VERTICAL, Board, Square
from knight.engine.kernel import kernel
from knight.engine.squirrel import squirrel_schedule
from knight.engine.tour import Tour
from knight.errors import InvalidInput

__all__ = [
    "TIE_BREAKS",
    "BLOG_DX",
    "BLOG_DY",
    "HOMEWORK_MOVES",
    "blog_ranks",
    "homework_ranks",
    "register_tie_break",
    "naive_tour",
    "static_tour",
    "random_walk_tour",
    "warnsdorff_tour",
]

_DR = np.array(VERTICAL, dtype=np.int64)
_DC = np.array(HORIZONTAL, dtype=np.int64)

# Rules and tie-breaks as the kernel knows them.
_NAIVE, _STATIC, _WARNSDORFF = 0, 1, 2
_FIRST, _RANDOM, _LOOKAHEAD_MIN, _LOOKAHEAD_SUM, _ROTH, _SQUIRREL = 0, 1, 2, 3, 4, 5

#: Warnsdorff tie-breaks, each with the source it comes from.
TIE_BREAKS: dict[str, str] = {
    "first": "lowest move number (Deitel 7.24's move order)",
    "random": "uniformly among the tied squares, from a seed (Squirrel 1996; Ganzfried 2004)",
    "lookahead-min": "the tied square whose next move can reach the lowest degree "
    "(Deitel 7.24's follow-up; Pohl 1967), then move order",
    "lookahead-sum": "the tied square whose unvisited neighbours have the least sum of degrees "
    "(Pohl 1967's second-level rule, our reading of the blog's W2), then move order",
    "roth": "the tied square farthest from the board's centre (A. Roth), then move order",
    "squirrel": "Squirrel & Cull's switching move orderings from the top-left corner of a square board "
    "(Squirrel & Cull 1996; Ganzfried 2004, Table 1, with its single ordering for m = 74; "
    "our reading of the blog's W+)",
    "squirrel-table": "the same, with Table 1 as printed for every m, 74 included",
    "blog": "the Warnsdorff blog's Python script as printed: heappush((degree, i)) over its moves "
    "dx = [-2, -1, 1, 2, -2, -1, 1, 2] (columns), dy = [1, 2, 2, 1, -1, -2, -2, -1] (rows), "
    "so ties go to its lowest index i (our moves 4, 5, 6, 7, 3, 2, 1, 0 in that order)",
    "homework": "Homework #8's own order of the eight moves, ties to the first it lists: (i - 1, j - 2), "
    "(i - 1, j + 2), (i + 1, j - 2), (i + 1, j + 2), (i - 2, j - 1), (i - 2, j + 1), (i + 2, j - 1), "
    "(i + 2, j + 1) from (i, j) = (row, col) (our moves 3, 0, 4, 7, 2, 1, 5, 6 in that order)",
}
_TIE_CODES = {
    "first": _FIRST,
    "random": _RANDOM,
    "lookahead-min": _LOOKAHEAD_MIN,
    "lookahead-sum": _LOOKAHEAD_SUM,
    "roth": _ROTH,
    "squirrel": _SQUIRREL,
    "squirrel-table": _SQUIRREL,
    "blog": _FIRST,
    "homework": _FIRST,
}
#: A tie-break that is a fixed preference among the eight moves: ``ranks(board, start)`` gives the
#: kernel's ``ranks`` array (one row of 8, lower wins a tie). Filled below and by :func:`register_tie_break`.
RankFunction = Callable[[Board, Square], np.ndarray]
_TIE_RANKS: dict[str, RankFunction] = {}

#: The blog script's moves as (column, row) changes, in its order: ``dx`` and ``dy``.
BLOG_DX = (-2, -1, 1, 2, -2, -1, 1, 2)
BLOG_DY = (1, 2, 2, 1, -1, -2, -2, -1)


def blog_ranks() -> np.ndarray:
    """The blog script's tie order as the kernel's ranks: ``ranks[0, k]`` is the script's index of
    our move ``k`` (its ``heappush((ctr, i))`` pops the lowest ``i`` among equal degrees).

    >>> blog_ranks()[0].tolist()
    [7, 6, 5, 4, 0, 1, 2, 3]
    """
    ranks = np.empty((1, 8), dtype=np.int64)
    for i, (dx, dy) in enumerate(zip(BLOG_DX, BLOG_DY)):
        ranks[0, list(zip(VERTICAL, HORIZONTAL)).index((dy, dx))] = i
    return ranks


_TIE_RANKS["blog"] = lambda board, start: blog_ranks()

#: Homework #8's eight moves as (row, col) changes, in the order it lists them: from (i, j) to (i - 1, j - 2),
#: (i - 1, j + 2), (i + 1, j - 2), (i + 1, j + 2), (i - 2, j - 1), (i - 2, j + 1), (i + 2, j - 1), (i + 2, j + 1).
HOMEWORK_MOVES = ((-1, -2), (-1, 2), (1, -2), (1, 2), (-2, -1), (-2, 1), (2, -1), (2, 1))


def homework_ranks() -> np.ndarray:
    """Homework #8's order of the moves as the kernel's ranks: ``ranks[0, k]`` is the homework's index of our move
    ``k`` (a student who codes "the next possible square with lowest degree" over its list, keeping the first of
    equal degrees, takes the tied move it lists first).

    >>> homework_ranks()[0].tolist()
    [1, 5, 4, 0, 2, 6, 7, 3]
    """
    ranks = np.empty((1, 8), dtype=np.int64)
    for i, move in enumerate(HOMEWORK_MOVES):
        ranks[0, list(zip(VERTICAL, HORIZONTAL)).index(move)] = i
    return ranks


_TIE_RANKS["homework"] = lambda board, start: homework_ranks()


def register_tie_break(name: str, meaning: str, ranks: RankFunction) -> None:
    """Add a tie-break to :data:`TIE_BREAKS`: ties go to the move of lowest ``ranks(board, start)[0, k]``.

    It is then a choice of ``warnsdorff`` everywhere the tie-breaks are listed: `knight tour`,
    job files and the report's methods appendix.
    """
    if name in TIE_BREAKS:
        raise InvalidInput(f"tie-break {name!r} already exists")
    TIE_BREAKS[name] = meaning
    _TIE_CODES[name] = _FIRST
    _TIE_RANKS[name] = ranks


def naive_tour(board: Board, start: Square, *, compiled: bool | None = None) -> Tour:
    """Walk by taking the first legal unvisited move in move order until stuck.

    Parameters
    ----------
    board : the board to walk on.
    start : the first square, ``(row, col)``.

    Example
    -------
    >>> naive_tour(Board(8, 8), (0, 0)).length < 64
    True

    Reference: Deitel, *Python: How to Program*, exercise 7.24, the first script.
    """
    return _walk(board, start, "naive", {}, _NAIVE, _FIRST, compiled=compiled)


def static_tour(board: Board, start: Square, *, compiled: bool | None = None) -> Tour:
    """Walk to the unvisited square of lowest accessibility in the empty board's table, never updated.

    Ties go to the lowest move number. This is Deitel's heuristic without the note that
    asks for the table to be reduced as squares are used.

    Example
    -------
    >>> static_tour(Board(8, 8), (0, 0)).length  # stuck four squares short
    60

    Reference: Deitel, exercise 7.24, the accessibility heuristic (before its note).
    """
    return _walk(board, start, "static", {}, _STATIC, _FIRST, compiled=compiled)


def random_walk_tour(board: Board, start: Square, seed: int = 0, *, compiled: bool | None = None) -> Tour:
    """Walk by taking, at each step, a uniformly random legal unvisited move, until stuck.

    Parameters
    ----------
    board : the board to walk on.
    start : the first square, ``(row, col)``.
    seed : the seed of the random choices (the same seed gives the same walk).

    This is the naive rule with random ties: under the naive rule every legal move ties, so
    each of the ``d`` legal unvisited moves is taken with probability ``1/d`` (drawn from the
    kernel's xorshift32 generator, as for Warnsdorff's random ties).

    Example
    -------
    >>> walk = random_walk_tour(Board(8, 8), (0, 0), seed=3)
    >>> walk.length < 64, walk.squares == random_walk_tour(Board(8, 8), (0, 0), seed=3).squares
    (True, True)

    Reference: the random walk a brute-force search samples (Knuth 1975, "Estimating the
    efficiency of backtrack programs"); Deitel 7.24's naive knight with the choice made at random.
    """
    return _walk(board, start, "random-walk", {"seed": int(seed)}, _NAIVE, _RANDOM, seed, compiled=compiled)


def warnsdorff_tour(
    board: Board, start: Square, tie: str = "first", seed: int = 0, *, compiled: bool | None = None
) -> Tour:
    """Walk to the unvisited square of lowest degree (fewest unvisited onward squares).

    Parameters
    ----------
    board : the board to walk on.
    start : the first square, ``(row, col)``.
    tie : how to choose among squares of equal lowest degree, one of :data:`TIE_BREAKS`:
        ``first`` lowest move number; ``random`` uniformly, from ``seed``; ``lookahead-min``
        the square from which the next move reaches the lowest degree; ``lookahead-sum`` the
        square whose unvisited neighbours have the least total degree; ``roth`` the square
        farthest from the centre; ``squirrel`` the Squirrel–Cull switching orderings (square
        boards, from the top-left corner only; ``squirrel-table`` without Ganzfried's repair
        for m = 74). The last five fall back to move order.
    seed : the seed of ``random`` (the same seed gives the same tour).

    Example
    -------
    >>> warnsdorff_tour(Board(8, 8), (0, 0)).full
    True

    References: H. C. von Warnsdorff (1823); Deitel exercise 7.24 (with updates);
    Homework #8; for the tie-breaks see :data:`TIE_BREAKS`.
    """
    if tie not in TIE_BREAKS:
        raise InvalidInput(f"unknown tie-break {tie!r}; choose one of: {', '.join(TIE_BREAKS)}")
    params: dict[str, object] = {"tie": tie}
    if tie == "random":
        params["seed"] = int(seed)
    return _walk(board, start, "warnsdorff", params, _WARNSDORFF, _TIE_CODES[tie], seed, compiled=compiled)


def _walk(
    board: Board,
    start: Square,
    method: str,
    params: dict[str, object],
    rule: int,
    tie: int,
    seed: int = 0,
    *,
    compiled: bool | None,
) -> Tour:
    first = board.index(start)
    if tie == _SQUIRREL:
        ranks, switches = squirrel_schedule(board, start, as_printed=params.get("tie") == "squirrel-table")
    elif params.get("tie") in _TIE_RANKS:
        ranks, switches = _TIE_RANKS[str(params["tie"])](board, start), np.empty(0, dtype=np.int64)
    else:
        ranks, switches = np.arange(8, dtype=np.int64)[None, :], np.empty(0, dtype=np.int64)
    path = np.empty(board.size, dtype=np.int32)
    walk = _greedy_walk.choose(board.size, compiled)
    length = walk(board.n, board.m, first, rule, tie, ranks, switches, int(seed) & 0xFFFFFFFF, path)
    return Tour(board=board, path=path[:length], method=method, params=params, work=length - 1)


@kernel(
    compile_from=1024, signature="i8(i8, i8, i8, i8, i8, i8[:, ::1], i8[::1], i8, i4[::1])"
)  # an 8 × 8 walk takes well under a millisecond interpreted
def _greedy_walk(n, m, start, rule, tie, ranks, switches, seed, path):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Fill ``path`` with the walk from ``start``; return its length.

    ``ranks[p, k]`` is the preference of move ``k`` in phase ``p`` (lower wins a tie);
    the phase moves on when the knight reaches ``switches[p]``. ``seed`` drives an
    xorshift32 generator, written out so that both implementations draw the same numbers.
    """
    size = n * m
    visited = np.zeros(size, dtype=np.bool_)
    empty_degree = np.zeros(size, dtype=np.int8)
    for s in range(size):
        r, c = s // m, s % m
        d = 0
        for k in range(8):
            r2, c2 = r + _DR[k], c + _DC[k]
            if 0 <= r2 < n and 0 <= c2 < m:
                d += 1
        empty_degree[s] = d
    degree = empty_degree.copy()
    state = (seed * 2654435761 + 1) & 0xFFFFFFFF
    if state == 0:
        state = 0x9E3779B9
    phase = 0
    candidates = np.empty(8, dtype=np.int64)

    current = start
    length = 0
    while True:
        # Visit the current square: it leaves the degree of each of its neighbours.
        visited[current] = True
        path[length] = current
        length += 1
        r, c = current // m, current % m
        for k in range(8):
            r2, c2 = r + _DR[k], c + _DC[k]
            if 0 <= r2 < n and 0 <= c2 < m:
                degree[r2 * m + c2] -= 1
        if phase < switches.size and current == switches[phase]:
            phase += 1

        # The moves to unvisited squares of lowest key (degree, or none for the naive rule).
        count = 0
        lowest = 99
        for k in range(8):
            r2, c2 = r + _DR[k], c + _DC[k]
            if 0 <= r2 < n and 0 <= c2 < m and not visited[r2 * m + c2]:
                t = r2 * m + c2
                key = 0 if rule == _NAIVE else (empty_degree[t] if rule == _STATIC else degree[t])
                if key < lowest:
                    lowest = key
                    count = 0
                if key == lowest:
                    candidates[count] = k
                    count += 1
        if count == 0:
            return length

        # Break the tie.
        chosen = candidates[0]
        if count > 1 and tie == _RANDOM:
            state ^= (state << 13) & 0xFFFFFFFF
            state ^= state >> 17
            state ^= (state << 5) & 0xFFFFFFFF
            chosen = candidates[state % count]
        elif count > 1:
            best_score = 1 << 40
            best_rank = 99
            for i in range(count):
                k = candidates[i]
                r2, c2 = r + _DR[k], c + _DC[k]
                score = 0
                if tie in (_LOOKAHEAD_MIN, _LOOKAHEAD_SUM):
                    least = 99
                    total = 0
                    for j in range(8):
                        r3, c3 = r2 + _DR[j], c2 + _DC[j]
                        if 0 <= r3 < n and 0 <= c3 < m and not visited[r3 * m + c3]:
                            total += degree[r3 * m + c3]
                            least = min(least, degree[r3 * m + c3])
                    score = least if tie == _LOOKAHEAD_MIN else total
                elif tie == _ROTH:
                    # Farthest from the centre wins: minimise minus the squared distance (doubled to stay integral).
                    score = -((2 * r2 - (n - 1)) ** 2 + (2 * c2 - (m - 1)) ** 2)
                rank = ranks[phase, k]
                if score < best_score or (score == best_score and rank < best_rank):
                    best_score = score
                    best_rank = rank
                    chosen = k
        current = (r + _DR[chosen]) * m + (c + _DC[chosen])
