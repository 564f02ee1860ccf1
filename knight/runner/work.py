"""The worker side: run tasks with the engine and return plain, picklable results."""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from knight.runner.faults import ENVIRONMENT_VARIABLE, Faults
from knight.store.database import sealed
from knight.tasks import Failure, FailureCause, Task, TaskResult, kind_of
from knight.tasks.tour import KIND as TOUR
from knight.tasks.tour import warm_method

__all__ = ["run_task", "run_chunk", "init_worker", "warm_up"]

log = logging.getLogger("knight.runner.work")


def run_task(task: Task, run: Callable[[Task], Any] | None = None) -> TaskResult:
    """Run the task with its kind (:func:`~knight.tasks.kind_of`), or with ``run`` where given (a frontier count
    sharded over the run's processes: :mod:`knight.runner.sharding`): its outcome, or, when the kind or the engine
    raises, a failed result with the :class:`~knight.tasks.Failure` (the state cap's, an unsound result's, or
    the engine's). A done result comes sealed with the checksum of the row that will store it
    (:func:`~knight.store.database.sealed`): computed here, in the worker, not by the runner."""
    _faults().before_task(task.n, task.m, task.start)
    try:
        outcome = (run or kind_of(task.method).run)(task)
    except Exception as error:  # noqa: BLE001 - any error is recorded with the task, not lost
        failure = Failure.of(error)
        if failure.cause is FailureCause.STATE_CAP:  # a limit reached, not a fault: the run's summary says it
            log.info("task %s (%s): %s", task.key, task.describe(), error)
        else:
            log.warning("task %s (%s) failed: %s", task.key, task.describe(), failure.message)
        return TaskResult.failed(task, failure)
    return sealed(TaskResult.done(task, outcome))


def run_chunk(tasks: list[Task]) -> list[TaskResult]:
    """Run a chunk of tasks in order (one call per chunk keeps the pool's overhead small)."""
    return [run_task(task) for task in tasks]


def init_worker() -> None:
    """Pool initializer: leave Ctrl-C to the parent, which shuts the pool down in order."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the runner's handler, inherited through fork
    log.debug("worker %d ready", os.getpid())


@lru_cache(maxsize=1)
def _faults() -> Faults:
    return Faults.from_environment() if os.environ.get(ENVIRONMENT_VARIABLE) else Faults()


def warm_up(methods: set[str]) -> None:
    """Load the compiled kernels of ``methods`` (the ahead-of-time module, or numba's JIT and its disk cache), so
    forked workers inherit them: each kind's own, and each tour method's."""
    for method in sorted(methods):
        kind = kind_of(method)
        if kind is TOUR:
            warm_method(method)
        else:
            kind.warm()
