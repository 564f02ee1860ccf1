"""What the report reads: one record per stored tour, and queries over them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from knight.engine import Board, Tour
from knight.engine.board import Square, size_text
from knight.engine.codec import decode_path
from knight.engine.treesize import TreeEstimate
from knight.errors import MissingData
from knight.tasks import rate_of, removed_squares


@dataclass(frozen=True)
class Record:
    """One task's result as stored: the method, its parameters, board and start, and the tour it made."""

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
            raise MissingData(f"the path of {self.method} on {size_text(self.n, self.m)} from {self.start} was not loaded")
        return Tour(board=self.board, path=decode_path(self.moves, self.n, self.m), method=self.method,
                    params=self.params, work=self.work, work_unit=self.work_unit,
                    budget_exhausted=self.budget_exhausted, removed=removed_squares(self.params))

    def matches(self, method: str | None, n: int | None, m: int | None, params: Mapping[str, Any]) -> bool:
        return ((method is None or self.method == method) and (n is None or self.n == n)
                and (m is None or self.m == m) and all(self.params.get(k) == v for k, v in params.items()))


class Results:
    """All records, with the few queries the report needs."""

    def __init__(self, records: Iterable[Record], *, hint: str = "knight run jobs/*.toml") -> None:
        self.records = sorted(records, key=lambda r: (r.n, r.m, r.start, sorted(r.params.items(), key=str)))
        self.hint = hint
        # Indexes, so that the report's many queries do not each scan every record.
        self._by_method: dict[str, list[Record]] = {}
        self._by_board: dict[tuple[int, int], list[Record]] = {}
        for record in self.records:
            self._by_method.setdefault(record.method, []).append(record)
            self._by_board.setdefault((record.n, record.m), []).append(record)

    def select(self, method: str | None = None, n: int | None = None, m: int | None = None,
               **params: Any) -> list[Record]:
        """The records of one method (and parameters) on one board size, sorted by start square."""
        if n is not None and m is not None:
            candidates = self._by_board.get((n, m), [])
        elif method is not None:
            candidates = self._by_method.get(method, [])
        else:
            candidates = self.records
        return [r for r in candidates if r.matches(method, n, m, params)]

    def require(self, method: str, n: int, m: int, **params: Any) -> list[Record]:
        """Like :meth:`select`, but at least one record must exist."""
        chosen = self.select(method, n, m, **params)
        if not chosen:
            described = ", ".join(f"{k}={v}" for k, v in params.items())
            raise MissingData(f"the store has no {method} tours on {size_text(n, m)}"
                              f"{f' with {described}' if described else ''}; run `{self.hint}` first")
        return chosen

    def by_start(self, method: str, n: int, m: int, **params: Any) -> dict[Square, Record]:
        """One record per start square (the first, when several seeds share a start)."""
        found: dict[Square, Record] = {}
        for record in self.require(method, n, m, **params):
            found.setdefault(record.start, record)
        return found


@dataclass(frozen=True)
class Summary:
    """What a group of runs found: how many, how many full or closed, and how many distinct tours."""

    runs: int
    starts: int
    full: int
    closed: int
    starts_with_full: int
    distinct_directed: int
    distinct_undirected: int
    distinct_symmetric: int
    mean_length: float

    @classmethod
    def of(cls, records: list[Record]) -> Summary:
        full = [r for r in records if r.full]
        return cls(
            runs=len(records),
            starts=len({r.start for r in records}),
            full=len(full),
            closed=sum(r.closed for r in records),
            starts_with_full=len({r.start for r in full}),
            distinct_directed=len({r.key_directed for r in full}),
            distinct_undirected=len({r.key_undirected for r in full}),
            distinct_symmetric=len({r.key_symmetric for r in full}),
            mean_length=sum(r.length for r in records) / len(records) if records else 0.0,
        )


@dataclass(frozen=True)
class CensusRecord:
    """One census as stored: every directed open (or closed) tour of a board, counted per start square.

    ``counts`` maps each square counted to its number of directed tours starting there (empty
    until every unit is done; for a start set, the squares the chosen starts stand for by
    symmetry). ``total`` is their sum; ``undirected`` the tours up to reversal (for closed
    tours: as cycles, up to start square and direction); ``symmetric`` the closed tours up to
    the board's symmetries too, where known (None for open tours). Totals are None until the
    census is complete (``units_done == units_total``).
    """

    n: int
    m: int
    closed: bool
    removed: tuple[Square, ...]
    starts: tuple[Square, ...] | None  # None: every start
    depth: int
    counts: Mapping[Square, int]
    total: int | None
    undirected: int | None
    symmetric: int | None
    nodes: int
    units_done: int
    units_total: int
    jobs: tuple[str, ...]

    @property
    def complete(self) -> bool:
        """True when every unit has its count."""
        return self.units_done == self.units_total

    @property
    def board(self) -> Board:
        """The census's board."""
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
    ``"tree"`` (that same count) or ``"census"`` (the stored census's directed open tours from
    ``start``, e.g. 6 × 6); None when unknown. ``rate_nodes`` nodes of plain backtracking (move
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
