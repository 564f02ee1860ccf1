"""The records the store gives back: one type per kind of stored result, the same for every reader.

:class:`TourRecord` — a tour task's outcome; :class:`CensusRecord` — a census put together from
its units; :class:`FrontierRecord` — a board's tours counted by the frontier method;
:class:`EstimateRecord` — a tree-size estimate. Read them with :meth:`knight.store.Store.tours`,
:meth:`~knight.store.Store.censuses`, :meth:`~knight.store.Store.frontier_counts` and
:meth:`~knight.store.Store.estimates`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from knight.engine import Board, Tour
from knight.engine.board import Square, size_text
from knight.engine.census import Census, CensusSpec
from knight.engine.codec import decode_path
from knight.engine.treesize import TreeEstimate
from knight.errors import MissingData
from knight.tasks import Failure, rate_of, removed_squares

__all__ = ["DRAWN_UP_TO_SQUARES", "CensusRecord", "EstimateRecord", "FailureRecord", "FrontierRecord", "TourRecord"]

#: Paths of tours on boards up to this many squares are read (to be drawn); larger ones are
#: counted from their stored keys and flags only.
DRAWN_UP_TO_SQUARES = 64 * 64


@dataclass(frozen=True)
class FailureRecord:
    """A failed task as stored: its key, what it is (``what``: ``frontier 6x6 open``, a tour task with its
    parameters and start), how many times it ran, and its :class:`~knight.tasks.Failure` (cause and message)."""

    key: str
    what: str
    attempts: int
    failure: Failure

    @property
    def line(self) -> str:
        """``frontier 8x8 closed after 1 attempt(s): …``: the line a person reads."""
        return f"{self.what} after {self.attempts} attempt(s): {self.failure.message}"


@dataclass(frozen=True)
class TourRecord:
    """One tour task's result as stored: the method, its parameters, board and start, and the tour it made."""

    method: str
    params: Mapping[str, Any]
    n: int
    m: int
    start: Square
    length: int
    full: bool
    closed: bool
    success: bool
    work: int
    work_unit: str
    budget_exhausted: bool
    key_directed: str
    key_undirected: str
    key_symmetric: str
    moves: bytes | None = None  # the path as knight.engine.codec encodes it; None when not loaded or not kept
    jobs: tuple[str, ...] = field(default=())

    @property
    def board(self) -> Board:
        return Board(self.n, self.m)

    def tour(self) -> Tour:
        """The stored tour, decoded, rebuilt and validated again; :class:`MissingData` when its path
        was not loaded (or not kept, on a board too large)."""
        if self.moves is None:
            raise MissingData(
                f"the path of {self.method} on {size_text(self.n, self.m)} from {self.start} was not loaded"
            )
        return Tour(
            board=self.board,
            path=decode_path(self.moves, self.n, self.m),
            method=self.method,
            params=self.params,
            work=self.work,
            work_unit=self.work_unit,
            budget_exhausted=self.budget_exhausted,
            removed=removed_squares(self.params),
        )

    def matches(self, method: str | None, n: int | None, m: int | None, params: Mapping[str, Any]) -> bool:
        return (
            (method is None or self.method == method)
            and (n is None or self.n == n)
            and (m is None or self.m == m)
            and all(self.params.get(k) == v for k, v in params.items())
        )


@dataclass(frozen=True)
class CensusRecord:
    """One census as stored: every directed open (or closed) tour of a board, counted per start square.

    ``spec`` defines it (board, open or closed, removed squares, start set, depth); ``census`` is
    the :class:`~knight.engine.census.Census` put together from its units' counts once every unit
    is done (None until then). ``counts`` maps each square counted to its number of directed tours
    starting there (empty until complete; for a start set, the squares the chosen starts stand for
    by symmetry). ``total`` is their sum; ``undirected`` the tours up to reversal (for closed tours:
    as cycles, up to start square and direction); ``symmetric`` the closed tours up to the board's
    symmetries too, where the runner has listed them (None for open tours). ``nodes`` are the
    search's nodes over the units done so far, and ``seconds`` the time their counts took, added up
    (one core's time: the units may have run side by side).
    """

    spec: CensusSpec
    units_total: int
    units_done: int
    units_failed: int
    nodes: int
    jobs: tuple[str, ...]
    census: Census | None
    symmetric: int | None = None
    census_id: int = 0
    seconds: float = 0.0

    @property
    def n(self) -> int:
        return self.spec.n

    @property
    def m(self) -> int:
        return self.spec.m

    @property
    def board(self) -> Board:
        return self.spec.board

    @property
    def closed(self) -> bool:
        return self.spec.closed

    @property
    def removed(self) -> tuple[Square, ...]:
        return self.spec.removed

    @property
    def starts(self) -> tuple[Square, ...] | None:
        """The start squares counted (None: every start)."""
        return self.spec.starts

    @property
    def depth(self) -> int:
        return self.spec.depth

    @property
    def complete(self) -> bool:
        """True when every unit has its count."""
        return self.census is not None

    @property
    def counts(self) -> dict[Square, int]:
        """Directed tours from each square counted (empty until complete)."""
        if self.census is None:
            return {}
        counts = self.census.counts
        return {
            (row, col): int(counts[row, col]) for row in range(self.n) for col in range(self.m) if counts[row, col] >= 0
        }

    @property
    def total(self) -> int | None:
        return None if self.census is None else self.census.total

    @property
    def undirected(self) -> int | None:
        return None if self.census is None else self.census.undirected


@dataclass(frozen=True)
class FrontierRecord:
    """A board's tours counted by the frontier method (:func:`knight.engine.frontier.frontier_count`), as stored.

    ``tours``: directed open tours (as the census's ``total`` counts them), or for ``closed`` the closed tours as
    cycles (as its ``undirected``); of the n × m board less ``removed``. ``peak_states``: the most frontier states
    held at once, ``states`` in all; ``seconds``: the time the count took. ``jobs``: the jobs that asked for it.
    """

    n: int
    m: int
    closed: bool
    removed: tuple[Square, ...]
    tours: int
    peak_states: int
    states: int
    seconds: float
    jobs: tuple[str, ...] = ()

    @property
    def board(self) -> Board:
        return Board(self.n, self.m)


@dataclass(frozen=True)
class EstimateRecord(TreeEstimate):
    """Knuth's estimate of the plain backtracking tree from one start square, as stored (job ``tree-size``).

    The tree: every path of the knight from ``start`` on the n × m board, nothing pruned; its leaves
    at depth n·m are the full tours. The fields of :class:`~knight.engine.treesize.TreeEstimate`:
    ``probes`` random probes from ``seed`` gave the node estimate ``node_mean`` (sample standard
    deviation ``node_sd``, standard error :attr:`node_se`) and the tour estimate ``tour_mean``
    (``tour_sd``, :attr:`tour_se`); ``full_probes`` of them reached a full tour, and a probe's path
    had ``mean_depth`` squares on average. ``checkpoints`` are the running estimates after 10^2,
    10^3, ... probes (each a :class:`~knight.engine.treesize.Checkpoint`: probes, node_mean,
    node_se, tour_mean, tour_se).

    Then the exact numbers beside them, where known: ``exact_nodes`` (the tree counted in full,
    boards of at most 25 squares), ``exact_tours`` and where it comes from, ``exact_tours_source``:
    ``"tree"`` (that same count; the store fills in only these) or ``"census"`` (the stored census's
    directed open tours from ``start``, e.g. 6 × 6, which the report adds); None when unknown. ``rate_nodes`` nodes of plain backtracking (move
    order, from ``start``) took ``rate_seconds`` seconds (the fastest of a few runs), so
    :attr:`nodes_per_second` is the search's speed; None where the task did not time it.
    ``jobs`` are the jobs that asked for the estimate.
    """

    exact_nodes: int | None
    exact_tours: int | None
    exact_tours_source: str | None
    rate_nodes: int | None
    rate_seconds: float | None
    jobs: tuple[str, ...]

    @property
    def nodes_per_second(self) -> float | None:
        """The measured speed of plain backtracking, or None where it was not timed."""
        return rate_of(self.rate_nodes, self.rate_seconds)
