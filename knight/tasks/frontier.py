"""The frontier-count kind: a task that counts every tour of one board at once, by dynamic programming over its
frontier (:func:`knight.engine.frontier.frontier_count`), and its outcome (table ``frontier_counts``)."""

from __future__ import annotations

import json
import logging
import math
import sqlite3
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, TypedDict

from knight.engine import Board
from knight.engine.board import Square, size_text
from knight.engine.frontier import DEFAULT_MAX_STATES, MAX_STATES, check_frontier_board
from knight.engine.parameters import Params, ParamValue
from knight.errors import InvalidInput
from knight.tasks.kind import TaskShape
from knight.tasks.shown import Reader, Shown, job_names, squares_text, text, words
from knight.tasks.sweep import Asked, Sweep, Where, removed_off_starts
from knight.tasks.task import FRONTIER, Task, removed_squares

__all__ = [
    "KIND",
    "MAX_STATE_CAP",
    "FrontierKind",
    "FrontierParams",
    "FrontierRecord",
    "FrontierResult",
    "records",
    "sweep_of",
]

log = logging.getLogger("knight.runner.work")

#: The largest state cap a frontier sweep may set: the engine's (a table of fewer than 2^32 slots, some 150 GB).
MAX_STATE_CAP = MAX_STATES


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


@dataclass(frozen=True)
class FrontierResult:
    """What a frontier count found: the board's ``tours`` (directed open tours, or closed tours as cycles, as
    :class:`~knight.engine.frontier.FrontierCount` counts them), the most frontier states held at once
    (``peak_states``) and in all (``states``), the ``seconds`` the count took (timed by the worker), and the
    ``shards`` its states were spread over (1: one process; :mod:`knight.runner.frontier_shards`)."""

    tours: int
    peak_states: int
    states: int
    seconds: float
    shards: int = 1


class FrontierKind:
    """Count every tour of a board by the frontier method (see the module's docstring). A count that would pass
    the task's state cap fails with :class:`~knight.engine.frontier.TooManyStates` (cause ``state-cap``)."""

    name = FRONTIER
    table = "frontier_counts"
    columns = (
        "tours INTEGER NOT NULL CHECK (tours >= 0)",
        "peak_states INTEGER NOT NULL CHECK (peak_states >= 0)",
        "states INTEGER NOT NULL CHECK (states >= peak_states)",
        "seconds REAL NOT NULL CHECK (seconds >= 0)",
        "shards INTEGER NOT NULL DEFAULT 1 CHECK (shards >= 1)",
    )
    checkpoints = True
    sealed_when_stored = False

    def run(self, task: Task) -> FrontierResult:
        from knight.engine.frontier import frontier_count  # lazily: the workers' alone
        from knight.tasks.checkpoint import Checkpoints

        params = task.frontier
        checkpoints = Checkpoints(task)
        self.warm()  # a kernel compiled just in time is compiled before the clock starts
        began = time.perf_counter()
        width, rows = min(task.n, task.m), max(task.n, task.m)

        def swept(square: int, states: int) -> None:  # a count may take minutes: each row said (knight -v)
            if square % width == width - 1:
                row = square // width + 1
                elapsed = time.perf_counter() - began
                log.info(
                    "%s: row %d of %d swept, %s states, %.1f s", task.describe(), row, rows, f"{states:,}", elapsed
                )

        counted = frontier_count(
            task.board,
            closed=params.closed,
            removed=params.removed,
            max_states=DEFAULT_MAX_STATES if task.max_states is None else task.max_states,
            compiled=True,
            progress=swept,
            on_row=checkpoints.keep,
            resume=checkpoints.last(),
        )
        seconds = time.perf_counter() - began + checkpoints.before  # the runs before this one's too
        log.debug(
            "task %s (%s): %d tours, peak %d states", task.key, task.describe(), counted.tours, counted.peak_states
        )
        return FrontierResult(counted.tours, counted.peak_states, counted.states, seconds)

    def problem(self, outcome: FrontierResult, task: TaskShape) -> str:
        if (
            outcome.tours < 0
            or not 0 <= outcome.peak_states <= outcome.states
            or not (math.isfinite(outcome.seconds) and outcome.seconds >= 0)
            or outcome.shards < 1
        ):
            return (
                "invalid count: a frontier count of zero or more tours, its peak within its states, in seconds, "
                "on one shard or more"
            )
        return ""

    def row(self, outcome: FrontierResult) -> tuple[Any, ...]:
        return (
            int(outcome.tours),
            int(outcome.peak_states),
            int(outcome.states),
            float(outcome.seconds),
            int(outcome.shards),
        )

    def derived(self, key: str, outcome: FrontierResult) -> list[tuple[str, tuple[Any, ...]]]:
        return []

    def warm(self) -> None:
        _warm()

    def describe(self, task: Task) -> str:
        return f"frontier {task.frontier.describe(task.n, task.m)}"

    def results(self, reader: Reader, job: str | None, counts_only: bool) -> Shown:
        """Its done counts, smallest board first: every tour of a board, counted at once (no start square)."""
        counts = records(reader.db, job)
        cells = tuple(
            (words(c.jobs), size_text(c.n, c.m), _KINDS[c.closed], squares_text(c.removed))
            + (text(c.tours), text(c.peak_states), text(c.states), f"{c.seconds:.2f}", str(c.shards))
            for c in counts
        )
        return Shown(
            "Frontier counts: every tour of a board counted at once, from no start in particular (open: directed "
            "tours; closed: tours as cycles), the most frontier states held at once and in all, the time, and the "
            "shards the states were spread over",
            ("jobs", "board", "kind", "removed", "tours", "peak states", "states in all", "seconds", "shards"),
            cells,
            key="frontier_counts",
            names=("jobs", "board", "kind", "removed", "tours", "peak_states", "states", "seconds", "shards"),
            text=("jobs", "board", "kind", "removed"),
            dropped=("states", "shards"),
            json=tuple(count.to_json() for count in counts),
            counts=True,
        )

    def sweep_model(self, method: str) -> type[Any]:
        return _sweep_model()

    def sweep(self, asked: Asked, where: Where) -> Sweep:
        """Each board one the frontier method can count, one task per board and value of closed."""
        params = asked.table.params
        for board in asked.boards:
            try:
                check_frontier_board(board)
            except InvalidInput as error:
                where.fail("boards", f"{board}: {error}")
        removed = removed_off_starts(params.removed, asked.boards, (), where)
        grid: tuple[Params, ...] = tuple(
            {"closed": closed, "removed": removed} for closed in dict.fromkeys(params.closed)
        )
        built = sweep_of(asked.label, asked.boards, grid, params.max_states)
        where.count("boards", built.count())
        return built


#: A count's kind, by ``closed``.
_KINDS = {False: "open", True: "closed"}


class FrontierJson(TypedDict):
    """A frontier count in ``knight results --json``: the board as ``[n, m]``; ``tours`` directed open tours, or
    for ``closed`` the closed tours as cycles; the most frontier states held at once and in all; the seconds."""

    jobs: list[str]
    board: list[int]
    kind: str
    removed: list[list[int]]
    tours: int
    peak_states: int
    states: int
    seconds: float
    shards: int


@dataclass(frozen=True)
class FrontierRecord:
    """A board's tours counted by the frontier method (:func:`knight.engine.frontier.frontier_count`), as stored.

    ``tours``: directed open tours (as the census's ``total`` counts them), or for ``closed`` the closed tours as
    cycles (as its ``undirected``); of the n × m board less ``removed``. ``peak_states``: the most frontier states
    held at once, ``states`` in all; ``seconds``: the time the count took; ``shards``: the shards its states were
    spread over (1: one process). ``jobs``: the jobs that asked for it.
    """

    n: int
    m: int
    closed: bool
    removed: tuple[Square, ...]
    tours: int
    peak_states: int
    states: int
    seconds: float
    shards: int = 1
    jobs: tuple[str, ...] = ()

    @property
    def board(self) -> Board:
        return Board(self.n, self.m)

    def to_json(self) -> FrontierJson:
        """The count in ``knight results --json``: the board as ``[n, m]``, the removed squares as lists."""
        return {
            "jobs": list(self.jobs),
            "board": [self.n, self.m],
            "kind": _KINDS[self.closed],
            "removed": [list(square) for square in self.removed],
            "tours": self.tours,
            "peak_states": self.peak_states,
            "states": self.states,
            "seconds": self.seconds,
            "shards": self.shards,
        }


_RECORDS = f"""
SELECT t.n, t.m, t.params, f.tours, f.peak_states, f.states, f.seconds, f.shards,
       (SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = t.key)
FROM frontier_counts f JOIN tasks t ON t.key = f.task_key JOIN results r ON r.task_key = t.key AND r.status = 'done'
WHERE t.method = '{FRONTIER}' AND (? IS NULL OR EXISTS (SELECT 1 FROM job_tasks j WHERE j.task_key = t.key AND j.job = ?))
ORDER BY t.n * t.m, t.n, t.params
"""


def records(db: sqlite3.Connection, job: str | None = None) -> list[FrontierRecord]:
    """The done frontier counts of ``job`` (every job by default), smallest board first."""
    found = []
    for n, m, params, tours, peak, states, seconds, shards, jobs in db.execute(_RECORDS, (job, job)):
        asked = FrontierParams.of(json.loads(params))
        found.append(
            FrontierRecord(n, m, asked.closed, asked.removed, tours, peak, states, seconds, shards, job_names(jobs))
        )
    return found


@dataclass(frozen=True)
class PerBoard:
    """A frontier sweep's tasks: board, then parameters (it has no start square), under the state cap."""

    boards: tuple[Board, ...]
    grid: tuple[Params, ...]
    max_states: int | None

    def count(self) -> int:
        return len(self.boards) * len(self.grid)

    def tasks(self) -> Iterator[Task]:
        for board in self.boards:
            for asked in self.grid:
                yield FrontierParams.of(asked).task(board.n, board.m, self.max_states)


def sweep_of(label: str, boards: tuple[Board, ...], grid: tuple[Params, ...], max_states: int | None) -> Sweep:
    """The sweep that counts every tour of each of ``boards`` for each parameter set of ``grid`` (closed, removed),
    under the state cap ``max_states`` (None: the engine's default)."""
    return Sweep(label, FRONTIER, boards, "all", grid, PerBoard(boards, grid, max_states))


@cache
def _sweep_model() -> type[Any]:
    """The model of a frontier sweep (pydantic, built the first time a job file names one)."""
    from typing import Annotated, Literal

    from pydantic import Field, StrictInt

    from knight.tasks.params import CountParams, SweepTable, must_be, otherwise

    class FrontierSweepParams(CountParams):
        max_states: Annotated[
            Annotated[StrictInt, Field(ge=1, le=MAX_STATE_CAP)] | None,
            must_be(f"the state cap, a whole number of states 1..{MAX_STATE_CAP:,} (default {DEFAULT_MAX_STATES:,})"),
        ] = None

    class FrontierSweep(SweepTable):
        starts: Annotated[
            Literal["all"],
            otherwise(lambda _: f"method {FRONTIER!r} counts every tour at once, from no start: leave starts out"),
        ] = "all"
        params: FrontierSweepParams = FrontierSweepParams()
        repeats: Annotated[
            None, otherwise(lambda _: f"does not apply to method {FRONTIER!r}, which counts every tour")
        ] = None

    return FrontierSweep


@cache
def _warm() -> None:
    """The frontier's step on a board of a few states, once a process."""
    from knight.engine.frontier import frontier_count

    frontier_count(Board(3, 4), compiled=True)


KIND = FrontierKind()
