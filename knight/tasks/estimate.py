"""The tree-size kind: a task that estimates the plain backtracking tree from one start by Knuth's random probes
(:func:`knight.engine.treesize.knuth_estimate`), counts it exactly on small boards and times the plain search
where asked; and its outcome (table ``estimates``)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import math
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from knight.engine import Board
from knight.engine.board import Square, size_text
from knight.engine.parameters import Params, ParamValue
from knight.engine.treesize import MAX_ESTIMATE_SQUARES, Checkpoint, TreeEstimate
from knight.tasks.kind import TaskShape
from knight.tasks.shown import Reader, Shown, job_names, squares_text, text, words
from knight.tasks.sweep import Asked, Grid, Sweep, Where, at_most, starts_total
from knight.tasks.task import ESTIMATE, Task, rate_of

__all__ = [
    "DEFAULT",
    "DEFAULTS",
    "EXACT_TREE_UP_TO",
    "KIND",
    "MAX_PROBES",
    "MAX_RATE_NODES",
    "RATE_RUNS",
    "EstimateKind",
    "EstimateParams",
    "EstimateRecord",
    "EstimateResult",
    "records",
    "time_plain_search",
]

log = logging.getLogger("knight.runner.work")

#: An estimate task also counts the plain tree exactly on boards of at most this many squares
#: (5 x 5 from a corner: 1,735,079 nodes, about 0.1 s; 6 x 6 has about 2·10^10).
EXACT_TREE_UP_TO = 25
#: The plain search is timed this many times; the fastest run gives the node rate (the others
#: lost time to the machine, not to the search).
RATE_RUNS = 3
#: The most probes one estimate task may run (about 25 s on 8 x 8, compiled).
MAX_PROBES = 10_000_000
#: The most nodes one estimate task may time the plain search for (about 10 s at 2·10^7 nodes a second).
MAX_RATE_NODES = 200_000_000


@dataclass(frozen=True)
class EstimateParams:
    """A tree-size task's parameters: Knuth's random probes, their seed, and how many nodes of the plain
    search to time (0: none)."""

    probes: int
    seed: int
    rate_nodes: int

    @classmethod
    def of(cls, params: Mapping[str, ParamValue]) -> EstimateParams:
        """The parameters of an estimate task's ``params``; ValueError when one is missing or not a whole number."""
        return cls(_whole(params, "probes"), _whole(params, "seed"), _whole(params, "rate_nodes"))


#: A tree-size sweep's parameters when the file leaves them out (task keys are made with them).
DEFAULT = EstimateParams(probes=100_000, seed=0, rate_nodes=0)
DEFAULTS: Params = dataclasses.asdict(DEFAULT)


def _whole(params: Mapping[str, ParamValue], name: str) -> int:
    value = params.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"an estimate task's {name} must be a whole number, got {value!r}")
    return value


@dataclass(frozen=True)
class EstimateResult:
    """What a tree-size task found from its start square: Knuth's estimate of the plain backtracking tree
    (``estimate``), the tree counted exactly where the task could (``exact_nodes``, ``exact_tours``; None
    elsewhere), and the plain search timed where asked: ``rate_nodes`` nodes in ``rate_seconds`` seconds (None
    when not timed)."""

    estimate: TreeEstimate
    exact_nodes: int | None = None
    exact_tours: int | None = None
    rate_nodes: int | None = None
    rate_seconds: float | None = None

    @property
    def nodes_per_second(self) -> float | None:
        """The measured speed of the plain search, or None when it was not timed."""
        return rate_of(self.rate_nodes, self.rate_seconds)


class EstimateKind:
    """Estimate a backtracking tree (see the module's docstring). Sealed from its stored row: its REAL columns
    are read back before their checksum is made."""

    name = ESTIMATE
    table = "estimates"
    columns = (
        "probes INTEGER NOT NULL CHECK (probes >= 1)",
        "seed INTEGER NOT NULL",
        "node_mean REAL NOT NULL",
        "node_sd REAL NOT NULL",
        "tour_mean REAL NOT NULL",
        "tour_sd REAL NOT NULL",
        "full_probes INTEGER NOT NULL",
        "mean_depth REAL NOT NULL",
        "checkpoints TEXT NOT NULL",
        "exact_nodes INTEGER",
        "exact_tours INTEGER",
        "rate_nodes INTEGER",
        "rate_seconds REAL",
    )
    checkpoints = False
    sealed_when_stored = True

    def run(self, task: Task) -> EstimateResult:
        from knight.engine.treesize import knuth_estimate, plain_tree  # lazily: the workers' alone

        board, params = task.board, task.estimate
        estimate = knuth_estimate(board, task.start, params.probes, params.seed, compiled=True)
        exact = plain_tree(board, task.start, compiled=True) if board.size <= EXACT_TREE_UP_TO else None
        timed = time_plain_search(board, task.start, params.rate_nodes) if params.rate_nodes else None
        log.debug("task %s (%s): %.4g nodes estimated", task.key, task.describe(), estimate.node_mean)
        return EstimateResult(
            estimate,
            None if exact is None else exact.nodes,
            None if exact is None else exact.tours,
            *(timed or (None, None)),
        )

    def problem(self, outcome: EstimateResult, task: TaskShape) -> str:
        e = outcome.estimate
        if e.probes < 1 or not np.isfinite([e.node_mean, e.node_sd, e.tour_mean, e.tour_sd]).all() or e.node_mean < 1:
            return "invalid estimate: a tree of at least one node, from at least one probe, in finite numbers"
        return ""

    def row(self, outcome: EstimateResult) -> tuple[Any, ...]:
        e = outcome.estimate
        checkpoints = json.dumps([[c.probes, c.node_mean, c.node_se, c.tour_mean, c.tour_se] for c in e.checkpoints])
        return (
            e.probes,
            e.seed,
            e.node_mean,
            e.node_sd,
            e.tour_mean,
            e.tour_sd,
            e.full_probes,
            e.mean_depth,
            checkpoints,
            outcome.exact_nodes,
            outcome.exact_tours,
            outcome.rate_nodes,
            outcome.rate_seconds,
        )

    def derived(self, key: str, outcome: EstimateResult) -> list[tuple[str, tuple[Any, ...]]]:
        return []

    def warm(self) -> None:
        _warm()

    def describe(self, task: Task) -> str:
        params = ", ".join(f"{name}={value}" for name, value in task.params)
        return f"{task.method}({params}) {size_text(task.n, task.m)} from {task.start}"

    def results(self, reader: Reader, job: str | None, counts_only: bool) -> Shown:
        """Its done estimates, smallest board first (none with ``counts_only``: an estimate counts no tours)."""
        estimates = [] if counts_only else records(reader.db, job)
        return Shown(
            "Tree-size estimates: Knuth's probes of the plain backtracking tree (nodes and full "
            "tours), exact counts where the task made them, and the plain search's speed",
            ("jobs", "board", "start", "probes", "seed", "nodes (± s.e.)", "exact nodes", "tours (± s.e.)")
            + ("exact tours", "full probes", "nodes/s"),
            tuple(_cells(estimate) for estimate in estimates),
            key="estimates",
            names=("jobs", "board", "start", "probes", "seed", "nodes", "exact_nodes", "tours", "exact_tours")
            + ("full_probes", "rate"),
            text=("jobs", "board", "start"),
            dropped=("seed", "exact_nodes", "rate", "full_probes", "exact_tours"),
            json=tuple(estimate.to_json() for estimate in estimates),
        )

    def sweep_model(self, method: str) -> type[Any]:
        return _sweep_model()

    def sweep(self, asked: Asked, where: Where) -> Sweep:
        """Every board, start and set of the grid of probes, seeds and timed nodes (the defaults filled in)."""
        boards, starts = asked.boards, asked.starts
        params = {name: getattr(asked.table.params, name) for name in asked.written}  # in the file's order
        at_most(boards, MAX_ESTIMATE_SQUARES, "the tree is estimated", where)
        where.grid(math.prod(len(values) for values in params.values()), starts_total(boards, starts))
        grid = tuple(DEFAULTS | dict(zip(params, values)) for values in itertools.product(*params.values()))
        built = Sweep(asked.label, ESTIMATE, boards, starts, grid, Grid(ESTIMATE, boards, starts, grid))
        where.count("boards", built.count())
        return built


@cache
def _sweep_model() -> type[Any]:
    """The model of an estimate sweep (pydantic, built the first time a job file names one)."""
    from typing import Annotated

    from pydantic import Field, StrictInt

    from knight.tasks.params import Axis, SweepTable, Table, must_be, otherwise

    class EstimateSweepParams(Table):
        probes: Annotated[
            Axis[Annotated[StrictInt, Field(ge=1, le=MAX_PROBES)]],
            must_be(f"a number of Knuth's random probes, 1..{MAX_PROBES:,}"),
        ] = [DEFAULT.probes]
        seed: Annotated[
            Axis[Annotated[StrictInt, Field(ge=0)]], must_be("a non-negative integer, the probes' seed")
        ] = [DEFAULT.seed]
        rate_nodes: Annotated[
            Axis[Annotated[StrictInt, Field(ge=0, le=MAX_RATE_NODES)]],
            must_be(f"a number of nodes of plain backtracking to time, 0..{MAX_RATE_NODES:,}"),
        ] = [DEFAULT.rate_nodes]

    class EstimateSweep(SweepTable):
        params: EstimateSweepParams = EstimateSweepParams()
        repeats: Annotated[
            None, otherwise(lambda _: f"does not apply to method {ESTIMATE!r}; give params.seed (a list for several)")
        ] = None

    return EstimateSweep


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
    directed open tours from ``start``, e.g. 6 × 6, which the report adds); None when unknown. ``rate_nodes`` nodes
    of plain backtracking (move order, from ``start``) took ``rate_seconds`` seconds (the fastest of a few runs), so
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

    def to_json(self) -> dict[str, Any]:  # every field of the record, as asdict gives them
        """The estimate for --json: every stored field, as numbers, with the standard errors and the speed."""
        data = dataclasses.asdict(self)
        n, m = data.pop("n"), data.pop("m")
        return {
            "jobs": list(self.jobs),
            "board": [n, m],
            **data,
            "start": list(self.start),
            "node_se": self.node_se,
            "tour_se": self.tour_se,
            "nodes_per_second": self.nodes_per_second,
        }


def _cells(estimate: EstimateRecord) -> tuple[str, ...]:
    """An estimate as a row of ``knight results`` (exact tours only where the task counted the tree)."""
    rate = estimate.nodes_per_second
    return (
        words(estimate.jobs),
        size_text(estimate.n, estimate.m),
        squares_text([estimate.start]),
        text(estimate.probes),
        text(estimate.seed),
        f"{estimate.node_mean:.4g} ± {estimate.node_se:.2g}",
        text(estimate.exact_nodes),
        f"{estimate.tour_mean:.4g} ± {estimate.tour_se:.2g}",
        text(estimate.exact_tours),
        text(estimate.full_probes),
        text(None if rate is None else f"{rate:.3g}"),
    )


_RECORDS = """
SELECT t.n, t.m, t.start_row, t.start_col, e.probes, e.seed, e.node_mean, e.node_sd, e.tour_mean, e.tour_sd,
       e.full_probes, e.mean_depth, e.checkpoints, e.exact_nodes, e.exact_tours, e.rate_nodes, e.rate_seconds,
       (SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = t.key)
FROM estimates e JOIN tasks t ON t.key = e.task_key JOIN results r ON r.task_key = t.key AND r.status = 'done'
WHERE ? IS NULL OR EXISTS (SELECT 1 FROM job_tasks j WHERE j.task_key = t.key AND j.job = ?)
ORDER BY t.n * t.m, t.n, t.start_row, t.start_col, e.probes, e.seed, e.rate_nodes
"""


def records(db: sqlite3.Connection, job: str | None = None) -> list[EstimateRecord]:
    """The done tree-size estimates of ``job`` (every job by default), smallest board first."""
    found = []
    rows = db.execute(_RECORDS, (job, job))
    # _RECORDS gives the board, the start and the estimate's measures in TreeEstimate's own field order
    for n, m, row, col, *measures, checkpoints, exact_nodes, exact_tours, rate_nodes, rate_seconds, jobs in rows:
        checked = tuple(Checkpoint(*values) for values in json.loads(checkpoints))
        estimate = TreeEstimate(*(n, m, (row, col), *measures, checked))
        found.append(
            EstimateRecord(
                **{field.name: getattr(estimate, field.name) for field in dataclasses.fields(estimate)},
                exact_nodes=exact_nodes,
                exact_tours=exact_tours,
                exact_tours_source=None if exact_tours is None else "tree",
                rate_nodes=rate_nodes,
                rate_seconds=rate_seconds,
                jobs=job_names(jobs),
            )
        )
    return found


def time_plain_search(board: Board, start: Square, nodes: int, runs: int = RATE_RUNS) -> tuple[int, float]:
    """Time plain backtracking (move order, first tour; :func:`~knight.engine.backtrack_tour`) from
    ``start`` for ``nodes`` nodes, ``runs`` times; return the fastest run's ``(nodes, seconds)`` (fewer
    nodes when it found a tour sooner)."""
    from knight.engine.backtrack import backtrack_tour

    best: tuple[int, float] | None = None
    for _ in range(runs):
        began = time.perf_counter()
        found = backtrack_tour(board, start, order="plain", budget=nodes, compiled=True)
        seconds = time.perf_counter() - began
        if best is None or found.work / seconds > best[0] / best[1]:
            best = (found.work, seconds)
    assert best is not None
    return best


@cache
def _warm() -> None:
    """The probes, the exact tree (the census kernel) and the timed search, once a process."""
    from knight.engine.backtrack import backtrack_tour
    from knight.engine.treesize import knuth_estimate, plain_tree

    knuth_estimate(Board(5, 5), (0, 0), 10, compiled=True)
    plain_tree(Board(3, 4), (0, 0), compiled=True)
    backtrack_tour(Board(6, 6), (0, 0), budget=1000, compiled=True)


KIND = EstimateKind()
