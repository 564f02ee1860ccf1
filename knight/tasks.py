"""The contract between the runner, the store and the report: what a task is, what its result
holds, and how a result is checked before it is stored.

A :class:`Task` is one unit of work (a method with its parameters, from one start square of
one board), named by a stable :attr:`~Task.key`. Running it gives a :class:`TaskResult`: a
tour, or for the three special methods a count (:data:`CENSUS`: one census unit's directed
tours; :data:`FRONTIER`: every tour of a board, by the frontier method) or an estimate
(:data:`ESTIMATE`: Knuth's estimate of a search tree). :func:`validate` checks a result's tour
in full; the store checks every result it is given for completeness.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any

import numpy as np

from knight.engine import Board, Tour
from knight.engine.board import Square, size_text
from knight.engine.census import CensusSpec, CensusUnit
from knight.engine.codec import decode_path, encode_path, encoded_size
from knight.engine.parameters import Params, ParamValue
from knight.engine.treesize import TreeEstimate
from knight.errors import InvalidInput

__all__ = [
    "CENSUS",
    "ESTIMATE",
    "FRONTIER",
    "PATH_KEPT_UP_TO_SQUARES",
    "CensusPlan",
    "EstimateParams",
    "EstimateResult",
    "Failure",
    "FailureCause",
    "FrontierParams",
    "FrontierResult",
    "Task",
    "TaskResult",
    "failure_cause",
    "incomplete",
    "rate_of",
    "removed_squares",
    "validate",
]


#: The method name of a census-unit task: it counts tours (``counts``) rather than building one (``tours``).
CENSUS = "census"
#: The method name of a tree-size task: Knuth's estimate of the plain backtracking tree (``estimates``).
ESTIMATE = "estimate"
#: The method name of a frontier count: every tour of one board counted at once, by dynamic programming over its
#: frontier (:func:`knight.engine.frontier.frontier_count`; table ``frontier_counts``).
FRONTIER = "frontier"
#: Tours on boards of more squares than this are stored without their path (``moves`` NULL).
PATH_KEPT_UP_TO_SQUARES = 100_000
#: Parameters that tell the tasks of one group apart (random seeds; a census unit's first moves).
_PER_TASK_PARAMS = ("seed", "first", "more")


@lru_cache(maxsize=1024)
def _params_text(params: tuple[tuple[str, ParamValue], ...]) -> str:
    """Parameters as canonical JSON (a sweep has few parameter sets: each is encoded once)."""
    return json.dumps(dict(params), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Task:
    """One unit of work: a method with its parameters, from one start square of one board.

    ``key`` is its stable identity: equal for equal work, whatever job or file asked for it.
    A census-unit task (method :data:`~knight.store.CENSUS`) is made from its unit with
    :meth:`from_unit`; its parameters are the unit's (closed, removed, first, more), so its key
    is the unit's, and :attr:`unit` gives the unit back.

    A frontier count (method :data:`FRONTIER`) counts the whole board from no square in particular (its start is
    ``(0, 0)``); its parameters are ``closed`` and ``removed`` (:attr:`frontier`). Its state cap, ``max_states``,
    says how far a run may go, not what it counts: it is no parameter, and not in the key, so that a count made
    under one cap is found again under any other (None: the engine's default).
    """

    method: str
    params: tuple[tuple[str, ParamValue], ...]  # sorted (name, value) pairs, defaults filled in
    n: int
    m: int
    start: Square
    key: str = field(init=False, repr=False, compare=False)
    max_states: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Computed once, here (a sweep makes tens of thousands of tasks, each wanting its key).
        text = f"{self.method}|{_params_text(self.params)}|{size_text(self.n, self.m)}|{self.start[0]},{self.start[1]}"
        object.__setattr__(self, "key", hashlib.blake2b(text.encode(), digest_size=12).hexdigest())

    @classmethod
    def from_unit(cls, unit: CensusUnit) -> Task:
        """The task that counts the tours of one census unit."""
        params: tuple[tuple[str, ParamValue], ...] = (
            ("closed", unit.closed),
            ("first", unit.first),
            ("more", unit.more),
            ("removed", unit.removed),
        )
        if unit.weight != 1:  # a unit that stands for its symmetric images too (a unit of weight 1 keeps its key)
            params += (("weight", unit.weight),)
        return cls(CENSUS, params, unit.n, unit.m, unit.start)

    @property
    def board(self) -> Board:
        """The task's board (the store keeps its ``n`` and ``m``)."""
        return Board(self.n, self.m)

    @property
    def unit(self) -> CensusUnit:
        """The census unit of a census task (``method == "census"``)."""
        if self.method != CENSUS:
            raise ValueError(f"task {self.key} builds a tour ({self.method}); it has no census unit")
        return CensusUnit.from_dict({**self.params_dict, "n": self.n, "m": self.m, "start": self.start})

    @property
    def estimate(self) -> EstimateParams:
        """The parameters of a tree-size task (``method == "estimate"``)."""
        if self.method != ESTIMATE:
            raise ValueError(f"task {self.key} is not a tree-size estimate ({self.method})")
        return EstimateParams.of(self.params_dict)

    @property
    def frontier(self) -> FrontierParams:
        """The parameters of a frontier count (``method == "frontier"``)."""
        if self.method != FRONTIER:
            raise ValueError(f"task {self.key} is not a frontier count ({self.method})")
        return FrontierParams.of(self.params_dict)

    @property
    def params_dict(self) -> Params:
        return dict(self.params)

    @property
    def group_params(self) -> Params:
        """The parameters that tell one group of tasks apart: without random seeds (repeats of one
        rule are counted together) or a census unit's moves (the units of one census together)."""
        return {name: value for name, value in self.params if name not in _PER_TASK_PARAMS}

    def describe(self) -> str:
        """A short human label, e.g. ``warnsdorff(tie=random, seed=3) 8x8 from (0, 0)`` or
        ``census 5x5 open start 0,0 first 1,2``."""
        if self.method == CENSUS:
            return f"census {self.unit.key}"
        if self.method == FRONTIER:
            return f"frontier {self.frontier.describe(self.n, self.m)}"
        params = ", ".join(f"{name}={value}" for name, value in self.params)
        return f"{self.method}({params}) {size_text(self.n, self.m)} from {self.start}"


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


@dataclass(frozen=True)
class FrontierParams:
    """A frontier count's parameters: closed tours (as cycles) or directed open ones, and the squares taken off."""

    closed: bool
    removed: tuple[Square, ...] = ()

    def __post_init__(self) -> None:  # each square once, in order: one count, one key
        object.__setattr__(self, "removed", tuple(sorted({(int(row), int(col)) for row, col in self.removed})))

    @classmethod
    def of(cls, params: Mapping[str, ParamValue]) -> FrontierParams:
        """The parameters of a frontier task's ``params``; ValueError when ``closed`` is not true or false."""
        closed = params.get("closed")
        if not isinstance(closed, bool):
            raise ValueError(f"a frontier count's closed must be true or false, got {closed!r}")
        return cls(closed, removed_squares(params))

    def task(self, n: int, m: int, max_states: int | None = None) -> Task:
        """The task that counts these tours of the n x m board (under the state cap ``max_states``)."""
        params: tuple[tuple[str, ParamValue], ...] = (("closed", self.closed), ("removed", self.removed))
        return Task(FRONTIER, params, n, m, (0, 0), max_states=max_states)

    def describe(self, n: int, m: int) -> str:
        """``5x5 open``, ``6x6 closed less 0,0 5,5``."""
        less = f" less {' '.join(f'{row},{col}' for row, col in self.removed)}" if self.removed else ""
        return f"{size_text(n, m)} {'closed' if self.closed else 'open'}{less}"


def _whole(params: Mapping[str, ParamValue], name: str) -> int:
    value = params.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"an estimate task's {name} must be a whole number, got {value!r}")
    return value


@dataclass(frozen=True)
class CensusPlan:
    """One census a sweep asks for (its :class:`~knight.engine.census.CensusSpec`), with the tasks of its units."""

    spec: CensusSpec
    tasks: tuple[Task, ...]

    @property
    def keys(self) -> list[str]:
        """The keys of its unit tasks."""
        return [task.key for task in self.tasks]

    @classmethod
    def of(cls, spec: CensusSpec) -> CensusPlan:
        """The plan of a census: one task per unit, as the engine lists them."""
        return cls(spec, tuple(Task.from_unit(unit) for unit in spec.units()))


@dataclass(frozen=True)
class EstimateResult:
    """What a tree-size task (method :data:`ESTIMATE`) found from its start square: Knuth's estimate
    of the plain backtracking tree (``estimate``), the tree counted exactly where the task could
    (``exact_nodes``, ``exact_tours``; None elsewhere), and the plain search timed where asked:
    ``rate_nodes`` nodes in ``rate_seconds`` seconds (None when not timed)."""

    estimate: TreeEstimate
    exact_nodes: int | None = None
    exact_tours: int | None = None
    rate_nodes: int | None = None
    rate_seconds: float | None = None

    @property
    def nodes_per_second(self) -> float | None:
        """The measured speed of the plain search, or None when it was not timed."""
        return rate_of(self.rate_nodes, self.rate_seconds)


@dataclass(frozen=True)
class FrontierResult:
    """What a frontier count (method :data:`FRONTIER`) found: the board's ``tours`` (directed open tours, or closed
    tours as cycles, as :class:`~knight.engine.frontier.FrontierCount` counts them), the most frontier states held
    at once (``peak_states``) and in all (``states``), and the ``seconds`` the count took (timed by the worker)."""

    tours: int
    peak_states: int
    states: int
    seconds: float


class FailureCause(StrEnum):
    """Why a task failed, as a program tests it (the store's ``results.cause``)."""

    ENGINE = "engine"  #: the engine raised an error on the task (a bug, or a limit of its own)
    STATE_CAP = "state-cap"  #: a frontier count would pass its state cap (``--max-states``): a limit, not a fault
    INVALID = "invalid"  #: the result failed validation (a tour that is not one, an incomplete count)
    WORKER_LOST = "worker-lost"  #: its worker died or hung on every attempt, or the cluster lost its chunk


@dataclass(frozen=True)
class Failure:
    """A failed task's cause and the one line a person reads (``message``: for :attr:`FailureCause.ENGINE`
    the error's class, then its text; for :attr:`FailureCause.STATE_CAP` the engine's line as it is)."""

    cause: FailureCause
    message: str

    @classmethod
    def of(cls, error: Exception) -> Failure:
        """The failure of a task the engine raised ``error`` on."""
        from knight.engine.frontier import TooManyStates  # lazily: the frontier module loads its kernels

        if isinstance(error, TooManyStates):
            return cls(FailureCause.STATE_CAP, str(error))
        return cls(FailureCause.ENGINE, f"{type(error).__name__}: {error}")


def failure_cause(stored: str) -> FailureCause:
    """The cause a store's ``results.cause`` names; one this version does not know reads as the engine's."""
    try:
        return FailureCause(stored)
    except ValueError:
        return FailureCause.ENGINE


def rate_of(nodes: int | None, seconds: float | None) -> float | None:
    """Nodes per second, or None when not measured."""
    return nodes / seconds if nodes and seconds else None


@dataclass(frozen=True)
class TaskResult:
    """What one task produced, as a worker sends it back: a tour (full or not), a census unit's
    count, or why it failed.

    A tour task's result carries the tour (``moves`` and the flags and keys after it); a census
    unit's (method :data:`CENSUS`) carries ``tours``, ``nodes`` and ``seconds`` instead; a frontier
    count's (method :data:`FRONTIER`) its ``frontier``; a failed task's its :class:`Failure` (made with
    :meth:`failed`). ``attempts`` counts the runs of the task, those lost with a dead worker included.
    """

    key: str
    n: int
    m: int
    method: str
    ok: bool
    failure: Failure | None = None  # set exactly when not ok
    attempts: int = 1
    moves: bytes | None = None  # the path, encoded by knight.engine.codec; None when not kept (or not ok)
    length: int = 0
    full: bool = False
    closed: bool = False
    success: bool = False
    work: int = 0
    work_unit: str = ""
    budget_exhausted: bool = False
    key_directed: str = ""
    key_undirected: str = ""
    key_symmetric: str = ""
    removed: tuple[Square, ...] = ()  # squares taken off the board (a full tour covers the others)
    tours: int | None = None  # census units only: directed tours counted (None for a tour task)
    nodes: int = 0  # census units only: squares placed by the search
    share: int | None = None  # closed census units only: their share of Burnside's sum (UnitCount.share)
    seconds: float = 0.0  # census units only: the time the unit's count took (timed by the worker)
    estimate: EstimateResult | None = None  # tree-size tasks only
    frontier: FrontierResult | None = None  # frontier counts only
    checksum: str = ""  # of the row that stores it, where it was made (knight.store.database.sealed); '' if not

    @classmethod
    def failed(cls, task: Task, failure: Failure, attempts: int = 1) -> TaskResult:
        """The result of ``task`` that failed with ``failure`` after ``attempts`` runs."""
        return cls(task.key, task.n, task.m, task.method, ok=False, failure=failure, attempts=attempts)

    @property
    def error(self) -> str:
        """The failure's message ('' for a done result)."""
        return "" if self.failure is None else self.failure.message

    @property
    def is_count(self) -> bool:
        """True for a census unit's result (a count), False for a tour task's (a tour)."""
        return self.method == CENSUS

    @property
    def is_estimate(self) -> bool:
        """True for a tree-size task's result (an estimate)."""
        return self.method == ESTIMATE

    @property
    def is_frontier(self) -> bool:
        """True for a frontier count's result."""
        return self.method == FRONTIER

    @classmethod
    def from_frontier(cls, key: str, n: int, m: int, counted: FrontierResult) -> TaskResult:
        """The result of a frontier count on an ``n`` x ``m`` board."""
        return cls(key, n, m, FRONTIER, ok=True, frontier=counted)

    @classmethod
    def from_estimate(cls, key: str, n: int, m: int, estimate: EstimateResult) -> TaskResult:
        """The result of a tree-size task on an ``n`` x ``m`` board."""
        return cls(key, n, m, ESTIMATE, ok=True, estimate=estimate)

    @classmethod
    def from_count(
        cls, key: str, n: int, m: int, tours: int, nodes: int, share: int | None = None, seconds: float = 0.0
    ) -> TaskResult:
        """The result of a census-unit task on an ``n`` x ``m`` board that counted ``tours`` in ``nodes`` (and, for
        a closed unit, its ``share`` of Burnside's sum: its cycles kept by the board's symmetries that many times)
        in ``seconds``."""
        return cls(key, n, m, CENSUS, ok=True, tours=tours, nodes=nodes, share=share, seconds=seconds)

    @classmethod
    def from_tour(cls, key: str, tour: Tour) -> TaskResult:
        """The result of a task that built ``tour``: its path encoded, unless the board has more
        than :data:`PATH_KEPT_UP_TO_SQUARES` squares."""
        kept = tour.board.size <= PATH_KEPT_UP_TO_SQUARES
        return cls(
            key,
            tour.board.n,
            tour.board.m,
            tour.method,
            ok=True,
            moves=encode_path(tour.path, tour.board.m) if kept else None,
            length=tour.length,
            full=tour.full,
            closed=tour.closed,
            success=tour.success,
            work=tour.work,
            work_unit=tour.work_unit,
            budget_exhausted=tour.budget_exhausted,
            key_directed=tour.key_directed,
            key_undirected=tour.key_undirected,
            key_symmetric=tour.key_symmetric,
            removed=tour.removed,
        )


def validate(result: TaskResult, built: Tour | None = None) -> str:
    """Check a result's tour as it will be stored; return '' when sound, else what is wrong.

    Without ``built``, the tour is decoded from ``moves`` and rebuilt as a :class:`Tour` (so
    validated: on the board, no square twice, knight moves), and must be as long, full and
    closed as the result says, and the path its directed key names. With ``built``, the tour the
    result was made from (already validated when it was built, as in a worker, which checks every
    result before sending it), ``moves`` must decode to exactly its squares, and the result carry
    its flags and key. A result without ``moves`` (a board too large to keep the path) is checked
    for completeness only: its tour was validated when built.
    """
    if not result.ok:
        return ""
    problem = incomplete(result)
    if problem or result.is_count or result.is_estimate or result.is_frontier or result.moves is None:
        return problem
    try:
        path = decode_path(result.moves, result.n, result.m)
        tour = (
            built
            if built is not None
            else Tour(board=Board(result.n, result.m), path=path, method=result.method, removed=result.removed)
        )
    except (InvalidInput, ValueError) as error:
        return f"invalid tour: {error}"
    if built is not None and not np.array_equal(path, built.path):
        return "invalid tour: its stored form does not decode to its squares"
    if (tour.length, tour.full, tour.closed) != (result.length, result.full, result.closed):
        return "invalid tour: its length, fullness or closedness does not match its squares"
    if tour.key_directed != result.key_directed:
        return "invalid tour: its squares are not the tour its key names"
    return ""


def incomplete(result: TaskResult) -> str:
    """What a done result lacks to be stored ('' when complete): cheap, checked by the store itself."""
    if result.is_count:
        if result.tours is None or result.tours < 0 or result.nodes < 1:
            return "invalid count: a census unit counts zero or more tours in at least one node"
        if result.share is not None and not result.tours <= result.share <= 8 * result.tours:
            return "invalid count: the identity keeps each cycle, and no more than the 8 symmetries in all do"
        if not (math.isfinite(result.seconds) and result.seconds >= 0):
            return "invalid count: its time is not a number of seconds"
        return ""
    if result.is_frontier:
        counted = result.frontier
        if (
            counted is None
            or counted.tours < 0
            or not 0 <= counted.peak_states <= counted.states
            or not (math.isfinite(counted.seconds) and counted.seconds >= 0)
        ):
            return "invalid count: a frontier count of zero or more tours, its peak within its states, in seconds"
        return ""
    if result.is_estimate:
        found = result.estimate
        if (
            found is None
            or found.estimate.probes < 1
            or not np.isfinite(
                [found.estimate.node_mean, found.estimate.node_sd, found.estimate.tour_mean, found.estimate.tour_sd]
            ).all()
            or found.estimate.node_mean < 1
        ):
            return "invalid estimate: a tree of at least one node, from at least one probe, in finite numbers"
        return ""
    if not 0 < result.length <= result.n * result.m:
        return "invalid tour: its length does not fit its board"
    if result.moves is None:
        if result.n * result.m <= PATH_KEPT_UP_TO_SQUARES:
            return "invalid tour: its path is missing"
    elif len(result.moves) != encoded_size(result.length):
        return "invalid tour: its path does not match its length"
    if not all((result.key_directed, result.key_undirected, result.key_symmetric)):
        return "invalid tour: a deduplication key is missing"
    return ""


def removed_squares(params: Mapping[str, Any]) -> tuple[Square, ...]:  # as the store's JSON gives them back
    """The squares a task's (or tour's) parameters take off the board (``removed``), as ``(row, col)``."""
    return tuple((int(row), int(col)) for row, col in params.get("removed", ()))
