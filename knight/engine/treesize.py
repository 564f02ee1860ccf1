"""The size of the plain backtracking tree: Knuth's estimator, and the exact count on small boards.

The tree is that of plain backtracking from one start square, every tour enumerated and
nothing pruned (the Eiffel text's Try_All): its root is the start square, the children of a
node (a knight's path) are the paths one move longer to an unvisited square, and its leaves
at depth n·m are the full tours. Moves are tried in Deitel's order, which changes the order
in which the tree is walked but not the tree. Its number of nodes is the work of a brute-force
search (the blog's Wozniak anecdote: about 10^25 years).

* :func:`knuth_estimate` — Knuth's estimator (1975): random probes from the root, each an
  unbiased estimate of the number of nodes and of the number of full tours;
* :func:`plain_tree` — the exact numbers, by enumerating the tree (5 × 5 in about 0.1 s; 6 × 6 is
  far out of reach, and its tours come from the pruned census, :mod:`knight.engine.census`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.census import CensusUnit, UnitCount, count_unit
from knight.engine.kernel import kernel
from knight.errors import InvalidInput

__all__ = ["CHECKPOINTS", "MAX_ESTIMATE_SQUARES", "Checkpoint", "TreeEstimate", "knuth_estimate", "plain_tree"]

#: The running means are kept at these numbers of probes (those no larger than the probes run).
CHECKPOINTS = (10**2, 10**3, 10**4, 10**5, 10**6, 10**7)
#: Largest board the estimator takes: a probe's product of degrees is at most 8^(squares - 1), and its
#: square (for the spread) must stay a finite float64 (8^286 = 2^858 < 2^1023).
MAX_ESTIMATE_SQUARES = 144
#: Probes are run in chunks of at most this many, so memory stays small whatever the number of probes.
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Checkpoint:
    """The running estimates after the first ``probes`` probes: means and their standard errors."""

    probes: int
    node_mean: float
    node_se: float
    tour_mean: float
    tour_se: float


@dataclass(frozen=True)
class TreeEstimate:
    """What :func:`knuth_estimate` found: the means and sample standard deviations, over ``probes``
    probes from ``seed``, of the estimates of the tree's nodes and of its full tours.

    ``full_probes`` counts the probes that reached a full tour (the only ones whose tour estimate
    is not 0), ``mean_depth`` the mean number of squares on a probe's path, and ``checkpoints``
    the running estimates at 10^2, 10^3, ... probes.
    """

    n: int
    m: int
    start: Square
    probes: int
    seed: int
    node_mean: float
    node_sd: float
    tour_mean: float
    tour_sd: float
    full_probes: int
    mean_depth: float
    checkpoints: tuple[Checkpoint, ...]

    @property
    def node_se(self) -> float:
        """The standard error of :attr:`node_mean`."""
        return self.node_sd / math.sqrt(self.probes)

    @property
    def tour_se(self) -> float:
        """The standard error of :attr:`tour_mean`."""
        return self.tour_sd / math.sqrt(self.probes)


def knuth_estimate(
    board: Board, start: Square, probes: int, seed: int = 0, *, compiled: bool | None = None
) -> TreeEstimate:
    """Estimate the size of the plain backtracking tree from ``start`` with Knuth's random probes.

    A probe walks from the root to a leaf, choosing uniformly among the ``d_k`` children of the
    node at each level (a random walk of the knight that stops when stuck). Its estimate of the
    number of nodes is ``1 + d_1 + d_1 d_2 + ...``, and of the number of full tours (leaves at
    depth n·m) the product ``d_1 d_2 ... d_(nm-1)`` when it reaches a full tour, else 0. Both are
    unbiased: their means over many probes tend to the true numbers (slowly, when the tree is
    lopsided: the spread is reported with them).

    Parameters
    ----------
    board : the board, at most :data:`MAX_ESTIMATE_SQUARES` squares.
    start : the root, ``(row, col)``.
    probes : the number of probes, at least 1.
    seed : the seed of the probes' random choices (an xorshift32 generator, as for random ties:
        the same seed gives the same estimates, interpreted or compiled).
    compiled : force the compiled (True) or interpreted (False) kernel; by default the work decides.

    Returns a :class:`TreeEstimate`: means, standard deviations, and running means at the checkpoints.

    Example
    -------
    >>> estimate = knuth_estimate(Board(3, 4), (0, 0), probes=20_000, seed=1)
    >>> exact = plain_tree(Board(3, 4), (0, 0))
    >>> exact.nodes, abs(estimate.node_mean - exact.nodes) < 4 * estimate.node_se
    (67, True)

    Reference: D. E. Knuth, "Estimating the efficiency of backtrack programs", Mathematics of
    Computation 29 (1975), 121–136.
    """
    first = _check(board, start)
    if isinstance(probes, bool) or not isinstance(probes, (int, np.integer)) or probes < 1:
        raise InvalidInput(f"probes must be a positive number, got {probes!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidInput(f"seed must be a non-negative integer, got {seed!r}")
    probe = _probe.choose(board.size * int(probes), compiled)
    state = (int(seed) * 2654435761 + 1) & 0xFFFFFFFF
    if state == 0:
        state = 0x9E3779B9
    nodes, tours = _Running(), _Running()
    full = 0
    depth_total = 0
    checkpoints: list[Checkpoint] = []
    marks = [p for p in CHECKPOINTS if p <= probes] + [int(probes)]
    done = 0
    for mark in marks:
        while done < mark:
            size = min(_CHUNK, mark - done)
            node_out, tour_out = np.empty(size), np.empty(size)
            depth_out = np.empty(size, dtype=np.int64)
            state = int(probe(board.neighbours, first, state, node_out, tour_out, depth_out))
            nodes.add(node_out)
            tours.add(tour_out)
            full += int(np.count_nonzero(depth_out == board.size))
            depth_total += int(depth_out.sum())
            done += size
        if mark in CHECKPOINTS and (not checkpoints or checkpoints[-1].probes != mark):
            checkpoints.append(Checkpoint(mark, nodes.mean, nodes.se, tours.mean, tours.se))
    return TreeEstimate(
        n=board.n,
        m=board.m,
        start=board.coords(first),
        probes=int(probes),
        seed=int(seed),
        node_mean=nodes.mean,
        node_sd=nodes.sd,
        tour_mean=tours.mean,
        tour_sd=tours.sd,
        full_probes=full,
        mean_depth=depth_total / probes,
        checkpoints=tuple(checkpoints),
    )


def plain_tree(board: Board, start: Square, *, compiled: bool | None = None) -> UnitCount:
    """Count the plain backtracking tree from ``start`` exactly: its nodes and its full tours.

    Enumerates every path from ``start`` (plain backtracking, no pruning: the census kernel
    with its pruning switched off), so the work is the tree's size: 1,735,079 nodes for 5 × 5
    from a corner (about 0.1 s compiled), about 2·10^10 for 6 × 6 (out of reach here).

    Parameters
    ----------
    board : the board, at most 64 squares.
    start : the root, ``(row, col)``.
    compiled : force the compiled (True) or interpreted (False) kernel.

    Returns ``UnitCount(tours, nodes)``: the full tours (leaves at depth n·m) and the nodes, the
    root included.

    Example
    -------
    >>> plain_tree(Board(3, 4), (0, 0))
    UnitCount(tours=2, nodes=67, share=None)

    Reference: the Eiffel text's Try_All; D. E. Knuth (1975), the tree his estimator estimates.
    """
    _check(board, start)
    return count_unit(CensusUnit(board.n, board.m, (start[0], start[1]), None), prune=False, compiled=compiled)


def _check(board: Board, start: Square) -> int:
    if board.size > MAX_ESTIMATE_SQUARES:
        raise InvalidInput(
            f"the tree is estimated on boards of at most {MAX_ESTIMATE_SQUARES} squares; {board} has {board.size}"
        )
    return board.index((start[0], start[1]))


class _Running:
    """Running mean and sum of squared deviations, merged chunk by chunk (Chan et al. 1979), so that
    values near 10^50 keep their precision."""

    def __init__(self) -> None:
        self.count, self.mean, self.m2 = 0, 0.0, 0.0

    def add(self, values: np.ndarray) -> None:
        count = values.size
        mean = float(values.mean())
        m2 = float(((values - mean) ** 2).sum())
        total = self.count + count
        delta = mean - self.mean
        self.mean += delta * count / total
        self.m2 += m2 + delta * delta * self.count * count / total
        self.count = total

    @property
    def sd(self) -> float:
        """The sample standard deviation (0 for a single value)."""
        return math.sqrt(self.m2 / (self.count - 1)) if self.count > 1 else 0.0

    @property
    def se(self) -> float:
        return self.sd / math.sqrt(self.count)


@kernel(
    compile_from=50_000, signature="i8(i4[:, ::1], i8, i8, f8[::1], f8[::1], i8[::1])"
)  # squares times probes: a thousand probes of 8 x 8 already pay for compiling
def _probe(neighbours, start, state, node_out, tour_out, depth_out):  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba; pragma: no cover
    """Run ``node_out.size`` probes from ``start``; return the generator's state after them.

    Probe ``p`` writes its node estimate ``1 + d_1 + d_1 d_2 + ...`` to ``node_out[p]``, its tour
    estimate (``d_1 ... d_(size-1)`` for a full tour, else 0) to ``tour_out[p]`` and its number
    of squares to ``depth_out[p]``. A child is chosen among ``d`` by the high bits of an
    xorshift32 draw, ``(state * d) >> 32``; a node with one child draws nothing.
    """
    size = neighbours.shape[0]
    visited = np.zeros(size, dtype=np.bool_)
    path = np.empty(size, dtype=np.int64)
    children = np.empty(8, dtype=np.int64)
    for p in range(node_out.size):
        square = start
        visited[square] = True
        path[0] = square
        depth = 1
        nodes = 1.0
        weight = 1.0  # d_1 ... d_k: the estimated number of nodes at depth k + 1
        while True:
            count = 0
            for k in range(8):
                t = neighbours[square, k]
                if t >= 0 and not visited[t]:
                    children[count] = t
                    count += 1
            if count == 0:
                break
            weight *= count
            nodes += weight
            chosen = 0
            if count > 1:
                state ^= (state << 13) & 0xFFFFFFFF
                state ^= state >> 17
                state ^= (state << 5) & 0xFFFFFFFF
                chosen = (state * count) >> 32
            square = children[chosen]
            visited[square] = True
            path[depth] = square
            depth += 1
        node_out[p] = nodes
        tour_out[p] = weight if depth == size else 0.0
        depth_out[p] = depth
        for i in range(depth):
            visited[path[i]] = False
    return state
