"""Run jobs: expand them into tasks, skip those the store has, run the rest, store every result."""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field

from knight.engine.census import SYMMETRY_LIMIT, cycles_up_to_symmetry
from knight.runner.jobs import Job
from knight.runner.logs import run_logging
from knight.runner.pool import ProcessPool, start_method
from knight.runner.progress import LineReporter, Reporter
from knight.runner.work import warm_up
from knight.store import Store
from knight.tasks import Task, TaskResult

__all__ = ["EXECUTORS", "RunSummary", "default_workers", "run_jobs"]

log = logging.getLogger("knight.runner")

EXECUTORS = ("process", "dask")


@dataclass
class RunSummary:
    """What a run did: tasks asked for, found in the store, run now, and failed."""

    run_id: int
    total: int
    already_done: int
    ran: int = 0
    failed: int = 0
    status: str = "running"
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)


def default_workers() -> int:
    """All the cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def run_jobs(
    jobs: list[Job],
    store: Store,
    *,
    workers: int | None = None,
    executor: str = "process",
    scheduler: str | None = None,
    verbose: bool = False,
    reporter: Reporter | None = None,
) -> RunSummary:
    """Run every task of ``jobs`` that ``store`` has no tour for; store each result as it comes.

    Interrupted (KeyboardInterrupt, which the CLI also raises on SIGTERM), the run stops its
    workers, stores what had finished, records itself as ``interrupted`` and re-raises; the
    next run does only what is missing.
    """
    workers = workers or default_workers()
    reporter = reporter or LineReporter()
    tasks: dict[str, Task] = {}
    for job in jobs:
        job_tasks = job.tasks()
        store.register_job(job.name, job_tasks, job.censuses())
        for task in job_tasks:
            tasks.setdefault(task.key, task)
    done = store.done_keys()
    pending = [task for key, task in tasks.items() if key not in done]
    run_id = store.start_run([job.name for job in jobs], executor, workers)
    summary = RunSummary(run_id, len(tasks), len(tasks) - len(pending))
    started = time.monotonic()

    def on_results(results: list[TaskResult]) -> None:
        store.record(run_id, results)
        summary.ran += len(results)
        for result in results:
            if not result.ok:
                summary.failed += 1
                summary.failures.append(f"{tasks[result.key].describe()}: {result.error}")
        reporter.advance(len(results))

    with run_logging(verbose, reporter.log_handler(), start_method()) as worker_setup:
        log.info(
            "run %d: %d tasks in %s, %d already in %s, %d to run on %d %s worker(s)",
            run_id,
            len(tasks),
            ", ".join(job.name for job in jobs),
            summary.already_done,
            store.path,
            len(pending),
            workers,
            executor,
        )
        reporter.start(len(pending))
        try:
            if pending and executor == "dask":
                from knight.runner.dask_executor import DaskExecutor

                DaskExecutor(scheduler, workers).run(pending, on_results)
            elif pending:
                warm_up({task.method for task in pending})  # compiled here once, inherited by forked workers
                ProcessPool(workers, worker_setup).run(pending, on_results)
            summary.status = "done"
            _list_symmetry_classes(store, jobs)
        finally:
            reporter.finish()
            summary.seconds = time.monotonic() - started
            if summary.status != "done":
                summary.status = "interrupted"
            store.finish_run(run_id, summary.status, summary.total, summary.ran)
            log.info(
                "run %d %s: %d tasks run (%d failed) in %.1f s",
                run_id,
                summary.status,
                summary.ran,
                summary.failed,
                summary.seconds,
            )
    return summary


def _list_symmetry_classes(store: Store, jobs: list[Job]) -> None:
    """Count the closed tours up to symmetry of every complete closed census of ``jobs`` that the
    store has no count for (listing the cycles takes about a second for 6 x 6: once, here, rather
    than in every report)."""
    for job in jobs:
        for stored in store.censuses(job.name):
            census, spec = stored.census, stored.spec
            if (
                census is None
                or not spec.closed
                or stored.symmetric is not None
                or census.cycles is None
                or census.cycles > SYMMETRY_LIMIT
            ):
                continue
            store.record_classes(stored.census_id, cycles_up_to_symmetry(spec.board, removed=spec.removed))
