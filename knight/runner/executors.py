"""Where a run's tasks are run, behind one interface: :class:`Executor`.

Three executors: :class:`InProcess` (the runner's own process, for a small run), the process pool
(:class:`~knight.runner.pool.ProcessPool`, on pebble: retries, a hung worker's watch, chunks that shrink towards
the end) and a Dask cluster (:class:`~knight.runner.dask_executor.DaskExecutor`). The run's session
(:class:`~knight.runner.session.RunSession`) chooses one (:func:`~knight.runner.sweep.choose_executor`) and reads
them all the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Protocol

from knight.runner.pool import split
from knight.runner.work import run_chunk
from knight.tasks import Task, TaskResult

__all__ = ["Claim", "Executor", "InProcess"]

#: Claims a chunk's tasks for the run just before they are sent: returns those granted (the others are another
#: run's, left to it).
Claim = Callable[[list[Task]], list[Task]]


class Executor(Protocol):
    """Runs chunks of tasks and yields each chunk's results as it finishes."""

    def prepare(self, tasks: list[Task]) -> None:
        """Get ready for ``tasks`` (not empty) before the first is sent: the pool compiles their kernels here."""

    def results(
        self, tasks: list[Task], claim: Claim, weights: Mapping[str, float] | None = None
    ) -> Generator[list[TaskResult]]:
        """Submit ``tasks`` in chunks, each passed through ``claim`` before it is sent and only its granted tasks
        run; yield each chunk's results as it finishes. Every task sent ends with exactly one result: a task
        whose worker died (or hung) is retried, then yielded as failed with its reason, naming how the worker
        ended. ``weights``: each task's estimated cost, where the executor watches for a hung worker. Closed
        early (the caller stopped), the executor stops its workers."""
        ...


class InProcess:
    """Runs the tasks in the runner's own process, claimed and yielded a chunk at a time as a pool would (the
    kernels choose for themselves how to run: without the ahead-of-time module, a small board runs
    interpreted). For a small run (:func:`~knight.runner.sweep.is_small`): its work takes less than a pool's
    start."""

    def prepare(self, tasks: list[Task]) -> None:
        """Nothing to prepare: the kernels load as the first task runs."""

    def results(
        self, tasks: list[Task], claim: Claim, weights: Mapping[str, float] | None = None
    ) -> Generator[list[TaskResult]]:
        for chunk in split(tasks, 1):
            granted = claim(chunk)
            if granted:
                yield run_chunk(granted)
