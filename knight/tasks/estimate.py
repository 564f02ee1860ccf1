"""The tree-size kind: a task that estimates the plain backtracking tree from one start by Knuth's random probes
(:func:`knight.engine.treesize.knuth_estimate`), counts it exactly on small boards and times the plain search
where asked; and its outcome (table ``estimates``)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from knight.engine import Board
from knight.engine.board import Square, size_text
from knight.engine.parameters import Params, ParamValue
from knight.engine.treesize import MAX_ESTIMATE_SQUARES, TreeEstimate
from knight.tasks.kind import TaskShape
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
    "EstimateResult",
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
