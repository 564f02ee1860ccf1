"""The executor that counts a large board's frontier with its states sharded over the run's processes.

A frontier count is one task, and in one process it holds all its states: 7 × 7 open is 9 minutes on one core, 8.6 GB.
:class:`Sharding` wraps the run's executor (:class:`~knight.runner.executors.Executor`): a frontier task worth
sharding (:func:`~knight.runner.frontier_shards.default_shards`, or as many shards as ``--shards`` says) is
counted by :func:`~knight.runner.frontier_shards.sharded_frontier_count` on the run's workers (a local pool, or the
Dask cluster's), one such task at a time; every other task goes to the executor it wraps. A sharded count's
result is made as a worker makes any task's (:func:`~knight.runner.work.run_task`: sealed, or a typed failure).
Its parts go in the store's checkpoint folder under the task's key: an interrupted count, run again, resumes.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
import time
from collections.abc import Generator, Mapping
from pathlib import Path

from knight.runner.executors import Claim, Executor
from knight.runner.work import run_task
from knight.tasks import FRONTIER, Task, TaskResult, kind_of
from knight.tasks.frontier import FrontierResult

__all__ = ["Sharding", "shards_for"]

log = logging.getLogger("knight.runner.work")


def shards_for(task: Task, shards: int | None, processes: int, scheduler: str | None = None) -> int:
    """The shards ``task`` is counted in: 1 for any task but a frontier count; ``shards`` when given; else 1 on a
    Dask cluster (its workers must share a folder with the runner: sharded there only when asked), and as many as
    pay on ``processes`` local processes (:func:`~knight.runner.frontier_shards.default_shards`: 1 for a small
    board or one process)."""
    if task.method != FRONTIER:
        return 1
    if shards is not None:
        return shards
    if scheduler is not None:
        return 1
    from knight.runner.frontier_shards import default_shards  # lazily: it loads numpy and the engine

    return default_shards(task.board, closed=task.frontier.closed, processes=processes)


class Sharding:
    """Runs the frontier counts worth sharding itself, on ``processes`` local processes or the Dask cluster at
    ``scheduler``, their parts in the task's checkpoint folder (beside the store); every other task on ``inner``."""

    def __init__(self, inner: Executor, shards: int | None, processes: int, scheduler: str | None) -> None:
        self.inner, self.shards, self.processes, self.scheduler = inner, shards, processes, scheduler

    def sharded(self, task: Task) -> bool:
        return shards_for(task, self.shards, self.processes, self.scheduler) > 1

    def prepare(self, tasks: list[Task]) -> None:
        """The cluster reached before a sharded count is begun (one line, exit 2, when it cannot be: not a failure
        of the count); the executor wrapped prepared for the rest."""
        if self.scheduler is not None and any(self.sharded(task) for task in tasks):
            from knight.runner.dask_executor import connect

            connect(self.scheduler).close()
        rest = [task for task in tasks if not self.sharded(task)]
        if rest:
            self.inner.prepare(rest)

    def results(
        self, tasks: list[Task], claim: Claim, weights: Mapping[str, float] | None = None
    ) -> Generator[list[TaskResult]]:
        """The sharded counts first, one at a time with every worker (the biggest tasks: a pool of the others would
        wait beside them), then the rest on the executor wrapped."""
        for task in tasks:
            if self.sharded(task) and claim([task]):
                yield [run_task(task, self.count)]
        rest = [task for task in tasks if not self.sharded(task)]
        if rest:
            yield from self.inner.results(rest, claim, weights)

    def count(self, task: Task) -> FrontierResult:
        """Count ``task``'s board sharded: its parts in ``<key>-shards`` in its checkpoint folder (made if missing),
        kept when the count is interrupted so that the same count run again goes on from its last square; without a
        checkpoint folder, in a temporary one."""
        from knight.engine.frontier import DEFAULT_MAX_STATES
        from knight.runner.frontier_shards import RowDone, sharded_frontier_count

        kind_of(FRONTIER).warm()  # its kernels loaded before the clock starts, as a count in one process
        params, began = task.frontier, time.perf_counter()
        rows = max(task.n, task.m)

        def row_done(done: RowDone) -> None:  # a count may take minutes: each row said (knight -v)
            log.info(
                "%s: row %d of %d swept, %s states, %.1f s",
                task.describe(),
                done.row + 1,
                rows,
                f"{done.states:,}",
                time.perf_counter() - began,
            )

        folder = Path(task.checkpoints) if task.checkpoints else Path(tempfile.gettempdir())
        try:
            counted = sharded_frontier_count(
                task.board,
                closed=params.closed,
                removed=params.removed,
                shards=shards_for(task, self.shards, self.processes, self.scheduler),
                processes=None if self.scheduler else self.processes,
                scheduler=self.scheduler,
                folder=folder,
                max_states=DEFAULT_MAX_STATES if task.max_states is None else task.max_states,
                on_row=row_done,
                key=task.key if task.checkpoints else None,  # in the store's checkpoints: a rerun goes on from it
            )
        finally:
            if task.checkpoints:
                with contextlib.suppress(OSError):  # the folder the count made, if nothing else is in it
                    folder.rmdir()
        # a count resumed took its earlier runs' rows too, as a count in one process adds its checkpoint's time
        seconds = max(time.perf_counter() - began, sum(counted.row_seconds))
        return FrontierResult(counted.tours, counted.peak_states, counted.states, seconds, counted.shards)
