"""What a task is and what a worker sends back for it: the envelope every kind of work shares.

A :class:`Task` is one unit of work (a method with its parameters, from one start square of one board), named by
a stable :attr:`~Task.key`. Running it gives a :class:`TaskResult`: the task's key and board, and either its
kind's outcome (:attr:`~TaskResult.outcome`: a tour, a census unit's count, a frontier count, an estimate; see
:mod:`knight.tasks.kind`) or its :class:`Failure`. :func:`validate` checks a result in full before it is stored;
the store checks every result it is given for completeness (:func:`incomplete`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from knight.engine import Board
from knight.engine.board import Square, size_text
from knight.engine.parameters import Params, ParamValue
from knight.errors import InvalidInput

if TYPE_CHECKING:
    from knight.engine import Tour
    from knight.engine.census import CensusUnit
    from knight.tasks.estimate import EstimateParams, EstimateResult
    from knight.tasks.frontier import FrontierParams, FrontierResult

__all__ = [
    "CENSUS",
    "ESTIMATE",
    "FRONTIER",
    "Failure",
    "FailureCause",
    "InvalidResult",
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
    under one cap is found again under any other (None: the engine's default); so is ``checkpoints``.
    """

    method: str
    params: tuple[tuple[str, ParamValue], ...]  # sorted (name, value) pairs, defaults filled in
    n: int
    m: int
    start: Square
    key: str = field(init=False, repr=False, compare=False)
    max_states: int | None = field(default=None, compare=False)
    #: Where a kind that checkpoints a long task (:attr:`~knight.tasks.Kind.checkpoints`) keeps where it stands,
    #: so that a killed run goes on from there: a folder the runner names beside the store (None: nowhere).
    checkpoints: str | None = field(default=None, compare=False)

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
        from knight.engine.census import CensusUnit

        return CensusUnit.from_dict({**self.params_dict, "n": self.n, "m": self.m, "start": self.start})

    @property
    def estimate(self) -> EstimateParams:
        """The parameters of a tree-size task (``method == "estimate"``)."""
        if self.method != ESTIMATE:
            raise ValueError(f"task {self.key} is not a tree-size estimate ({self.method})")
        from knight.tasks.estimate import EstimateParams

        return EstimateParams.of(self.params_dict)

    @property
    def frontier(self) -> FrontierParams:
        """The parameters of a frontier count (``method == "frontier"``)."""
        if self.method != FRONTIER:
            raise ValueError(f"task {self.key} is not a frontier count ({self.method})")
        from knight.tasks.frontier import FrontierParams

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
        from knight.tasks.kind import kind_of

        return kind_of(self.method).describe(self)


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
        if isinstance(error, InvalidResult):
            return cls(FailureCause.INVALID, str(error))
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
    """What one task produced, as a worker sends it back: its kind's outcome, or why it failed.

    ``outcome`` is the result type of the task's kind (:func:`~knight.tasks.kind.kind_of`: a
    :class:`~knight.tasks.tour.TourOutcome`, a :class:`~knight.tasks.census.UnitCount`, a
    :class:`~knight.tasks.frontier.FrontierResult`, an :class:`~knight.tasks.estimate.EstimateResult`, or another
    kind's), set exactly when ``ok``; ``failure`` exactly when not. ``attempts`` counts the runs of the task, those
    lost with a dead worker included; ``checksum`` is that of the row that stores it, where it was made
    (:func:`knight.store.database.sealed`; '' if not).
    """

    key: str
    n: int
    m: int
    method: str
    ok: bool
    failure: Failure | None = None
    attempts: int = 1
    outcome: Any = None
    checksum: str = ""

    @classmethod
    def done(cls, task: Task, outcome: Any) -> TaskResult:
        """The result of ``task`` that produced ``outcome``."""
        return cls(task.key, task.n, task.m, task.method, ok=True, outcome=outcome)

    @classmethod
    def failed(cls, task: Task, failure: Failure, attempts: int = 1) -> TaskResult:
        """The result of ``task`` that failed with ``failure`` after ``attempts`` runs."""
        return cls(task.key, task.n, task.m, task.method, ok=False, failure=failure, attempts=attempts)

    @classmethod
    def from_tour(cls, key: str, tour: Tour) -> TaskResult:
        """The result of a task that built ``tour``: its path encoded, unless the board has more
        than :data:`PATH_KEPT_UP_TO_SQUARES` squares."""
        from knight.tasks.tour import TourOutcome

        return cls(key, tour.board.n, tour.board.m, tour.method, ok=True, outcome=TourOutcome.of(tour))

    @classmethod
    def from_count(
        cls, key: str, n: int, m: int, tours: int, nodes: int, share: int | None = None, seconds: float = 0.0
    ) -> TaskResult:
        """The result of a census-unit task on an ``n`` x ``m`` board that counted ``tours`` in ``nodes`` (and, for
        a closed unit, its ``share`` of Burnside's sum) in ``seconds``."""
        from knight.tasks.census import UnitCount

        return cls(key, n, m, CENSUS, ok=True, outcome=UnitCount(tours, nodes, share, seconds))

    @classmethod
    def from_frontier(cls, key: str, n: int, m: int, counted: FrontierResult) -> TaskResult:
        """The result of a frontier count on an ``n`` x ``m`` board."""
        return cls(key, n, m, FRONTIER, ok=True, outcome=counted)

    @classmethod
    def from_estimate(cls, key: str, n: int, m: int, estimate: EstimateResult) -> TaskResult:
        """The result of a tree-size task on an ``n`` x ``m`` board."""
        return cls(key, n, m, ESTIMATE, ok=True, outcome=estimate)

    @property
    def error(self) -> str:
        """The failure's message ('' for a done result)."""
        return "" if self.failure is None else self.failure.message


class InvalidResult(InvalidInput):
    """A kind's run found the outcome it made unsound (a fault in the engine or the codec): the task fails with
    cause :attr:`FailureCause.INVALID`."""


def validate(result: TaskResult, built: Tour | None = None) -> str:
    """Check a result as it will be stored; return '' when sound, else what is wrong: complete
    (:func:`incomplete`), and a tour's squares rebuilt and checked in full
    (:func:`~knight.tasks.tour.validate_tour`; with ``built``, the tour it was made from)."""
    if not result.ok:
        return ""
    problem = incomplete(result)
    from knight.tasks.tour import TourOutcome, validate_tour

    if problem or not isinstance(result.outcome, TourOutcome):
        return problem
    return validate_tour(result.outcome, result.n, result.m, result.method, built)


def incomplete(result: TaskResult) -> str:
    """What a done result lacks to be stored ('' when complete): cheap, checked by the store itself."""
    from knight.tasks.kind import kind_of

    kind = kind_of(result.method)
    outcome = result.outcome
    if outcome is None:
        return f"invalid {kind.name}: no outcome"
    try:
        return kind.problem(outcome, result)
    except (AttributeError, TypeError) as error:  # an outcome of another kind's type
        return f"invalid {kind.name}: {type(outcome).__name__} is not its outcome ({error})"


def removed_squares(params: Mapping[str, Any]) -> tuple[Square, ...]:  # as the store's JSON gives them back
    """The squares a task's (or tour's) parameters take off the board (``removed``), as ``(row, col)``."""
    return tuple((int(row), int(col)) for row, col in params.get("removed", ()))
