"""Run jobs: expand them into tasks, skip those the store has, run the rest, store every result."""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from knight.engine.census import SYMMETRY_LIMIT, classes_from_shares, cycles_up_to_symmetry
from knight.engine.census_plan import unit_costs
from knight.errors import InvalidInput
from knight.runner.jobs import Job
from knight.runner.logs import run_logging
from knight.runner.pool import ProcessPool, split, start_method
from knight.runner.progress import LineReporter, Reporter, WorkTracker
from knight.runner.work import run_chunk, warm_up
from knight.store import CensusRecord, Claimed, Store
from knight.tasks import CENSUS, FRONTIER, Task, TaskResult

__all__ = ["EXECUTORS", "SMALL_SQUARES", "SMALL_TASKS", "RunSummary", "default_workers", "is_small", "run_jobs"]

log = logging.getLogger("knight.runner")

EXECUTORS = ("process", "dask")
#: Seconds between looks at the store while the last tasks are run by another run.
POLL_SECONDS = 0.2
#: The longest pause between two polls while another run's tasks are waited for and none finishes.
MAX_POLL_SECONDS = 2.0
#: A run of at most SMALL_TASKS tasks, all on boards under SMALL_SQUARES squares, is done in the runner's
#: own process when no number of workers is asked for: its work takes less than starting a pool.
SMALL_SQUARES, SMALL_TASKS = 30, 256


@dataclass
class RunSummary:
    """What a run did: tasks asked for, found in the store, run now, and failed. ``run_id`` is 0 when there was
    nothing to do (every task done, every count made): no run was recorded."""

    run_id: int
    total: int
    already_done: int
    ran: int = 0
    failed: int = 0
    status: str = "running"
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    #: Tasks that another run of the same job, at the same time, finished (run there, not here);
    #: their failures are in ``failed`` and ``failures`` too, so the summary covers the whole job.
    by_others: int = 0
    #: Worker processes the tasks ran on; 0 when the runner did them itself (a small run, :func:`is_small`).
    workers: int = 0


def is_small(tasks: list[Task]) -> bool:
    """True when ``tasks`` are few and on small boards (see :data:`SMALL_TASKS`): run them without a pool."""
    return len(tasks) <= SMALL_TASKS and all(task.n * task.m < SMALL_SQUARES for task in tasks)


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

    Tasks are claimed in the store a chunk at a time, just before a worker gets them, so that another
    run of the same job at the same time runs the others; at the end this run waits for what that run
    holds (or takes it over if it dies), and the summary counts its share (``by_others``).

    ``workers`` worker processes run the tasks (by default one per core, or none for a small run, which the
    runner does itself: :func:`is_small`).

    Interrupted (KeyboardInterrupt, which the CLI also raises on SIGTERM), the run stops its
    workers, stores what had finished, records itself as ``interrupted`` and re-raises; the
    next run does only what is missing. A store the readers' checks find damaged is refused first
    (:class:`~knight.errors.StoreError`, saying to run ``knight verify --repair``).
    """
    # A damaged store is refused, as readers refuse it: a run would report success over it. (Done tasks whose
    # result has gone are let by: the run computes them again.) Free while the store is as last found sound.
    store.refuse_if_damaged(runs_again=True)
    asked = workers
    workers = workers or default_workers()
    reporter = reporter or LineReporter()
    tasks: dict[str, Task] = {}
    for job in jobs:
        job_tasks = job.tasks()
        store.register_job(job.name, job_tasks, job.censuses())
        for task in job_tasks:
            tasks.setdefault(task.key, task)
    done = store.done_keys()  # read once: a task another run finishes after this is not granted to this one
    if tasks.keys() <= done and not any(_cycles(stored) is not None for stored in _censuses(store, jobs)):
        # Nothing to run or count: no run is recorded and the store is left as it was, so that a reader that
        # has checked it (make report, after this) need not check it again.
        log.info("%d tasks in %s, all already in %s: nothing to run", len(tasks), _names(jobs), store.path)
        return RunSummary(0, len(tasks), len(tasks), status="done", workers=0)
    run_id = store.start_run([job.name for job in jobs], executor, workers)  # before the work: outcomes since count
    pending = _biggest_first(task for key, task in tasks.items() if key not in done)
    here = executor != "dask" and asked is None and is_small(pending)
    summary = RunSummary(run_id, len(tasks), len(tasks) - len(pending), workers=0 if here else workers)
    started = time.monotonic()

    unfinished = {task.key for task in pending}  # no outcome yet, here or from another run
    tracker = _work_tracker(pending, 1 if here else workers)

    def progress(keys: list[str]) -> None:
        if tracker is None:
            reporter.advance(len(keys))
        else:
            reporter.advance(len(keys), tracker.finish(keys))

    def on_results(results: list[TaskResult]) -> None:
        store.record(run_id, results)
        summary.ran += len(results)
        for result in results:
            unfinished.discard(result.key)
            if not result.ok:
                summary.failed += 1
                summary.failures.append(f"{tasks[result.key].describe()}: {result.error}")
        progress([result.key for result in results])

    def claim(chunk: list[Task]) -> list[Task]:
        granted = _claim(store, run_id, [task.key for task in chunk]).granted
        return [task for task in chunk if task.key in granted]

    with run_logging(verbose, reporter.log_handler(), start_method()) as worker_setup:

        def run(batch: list[Task]) -> None:
            """Run what ``batch`` holds that this run can claim; leave the rest to the runs that hold it."""
            if here:
                _run_here(batch, on_results, claim)
                return
            if executor != "dask":
                weights = None if tracker is None else tracker.weights  # a census unit's cost: its expected time
                ProcessPool(workers, worker_setup).run(batch, on_results, claim, weights)  # claimed chunk by chunk
                return
            claimed = claim(batch)  # the cluster takes all its tasks at once
            if claimed:
                from knight.runner.dask_executor import DaskExecutor

                DaskExecutor(scheduler, workers).run(claimed, on_results)

        log.info(
            "run %d: %d tasks in %s, %d already in %s, %d to run %s",
            run_id,
            len(tasks),
            _names(jobs),
            summary.already_done,
            store.path,
            len(pending),
            f"on {workers} {executor} worker(s)" if summary.workers else "in this process (a small run)",
        )
        if tracker is None:
            reporter.start(len(pending))  # at once: the bar turns while the kernels load
        try:
            if pending and executor != "dask" and not here:
                warm_up({task.method for task in pending})  # compiled here once, inherited by forked workers
                # Numba, when it compiles, leaves hundreds of thousands of objects behind: kept out of the
                # collector's walks for the run (here, while results are stored, and in each forked worker), as
                # Python's docs advise before forking; given back to it when the run ends.
                gc.freeze()
            if tracker is not None:  # timed from the work's start: the time left scales the time the work took
                reporter.start(len(pending), tracker.total)
            batch = pending
            while batch:
                run(batch)
                batch = _wait_for_others(store, summary, tasks, unfinished, progress)
            summary.status = "done"
            _list_symmetry_classes(store, jobs, run_id, summary.workers)
        finally:
            gc.unfreeze()
            reporter.finish()
            summary.seconds = time.monotonic() - started
            if summary.status != "done":
                summary.status = "interrupted"
            store.finish_run(run_id, summary.status, summary.total, summary.ran)
            log.info(
                "run %d %s: %d tasks run here, %d by another run at the same time (%d failed in all) in %.1f s",
                run_id,
                summary.status,
                summary.ran,
                summary.by_others,
                summary.failed,
                summary.seconds,
            )
    return summary


def _run_here(
    tasks: list[Task],
    on_results: Callable[[list[TaskResult]], None],
    claim: Callable[[list[Task]], list[Task]],
) -> None:
    """Run ``tasks`` in this process, claimed and stored a chunk at a time as a pool would (the kernels
    choose for themselves how to run: without the ahead-of-time module, a small board runs interpreted)."""
    for chunk in split(tasks, 1):
        granted = claim(chunk)
        if granted:
            on_results(run_chunk(granted))


def _biggest_first(tasks: Iterable[Task]) -> list[Task]:
    """``tasks``, the biggest boards first (a stable sort: the jobs' order otherwise): their tasks take longest,
    and a long task started last keeps one worker busy while the others wait (longest-first scheduling). Frontier
    counts go before all: one takes seconds to an hour on a board of a few dozen squares (6 x 6 open, 20 s, last in
    the shipped jobs' run made it 30 s longer; first, the other worker does the rest meanwhile)."""
    return sorted(tasks, key=lambda task: (task.method != FRONTIER, -task.n * task.m))


def _work_tracker(pending: list[Task], workers: int) -> WorkTracker | None:
    """The work of a census run's units by their estimated cost (:func:`unit_costs`, some 20 ms for 6 × 6), for
    its time left: they differ in cost a thousand-fold. None for other runs (their tasks are counted)."""
    if not pending or any(task.method != CENSUS for task in pending):
        return None
    costs = unit_costs([task.unit for task in pending])
    return WorkTracker({task.key: cost for task, cost in zip(pending, costs)}, workers)


def _claim(store: Store, run_id: int, keys: list[str]) -> Claimed:
    """Claim ``keys`` for run ``run_id`` (:meth:`Store.claim`), saying when a dead run's are taken over."""
    claimed = store.claim(run_id, keys)
    for owner, count in claimed.taken_over.items():
        log.info("run %d: took over %d task(s) claimed by run %d, which is gone", run_id, count, owner)
    return claimed


def _wait_for_others(
    store: Store,
    summary: RunSummary,
    tasks: dict[str, Task],
    unfinished: set[str],
    progress: Callable[[list[str]], None],
) -> list[Task]:
    """Wait until another run has finished each task of ``unfinished`` (which it had claimed), or
    until some of them are free to claim (that run ended or died): return those, claimed, for this
    run to do; an empty list once every task has its outcome. Outcomes recorded by other runs count
    in ``summary``, so that it describes the whole job."""
    waiting_on: set[int] = set()  # the runs last said to be waited for
    pause = POLL_SECONDS
    while True:
        finished = store.outcomes(summary.run_id, sorted(unfinished))
        for key, outcome in finished.items():
            unfinished.discard(key)
            summary.by_others += 1
            if outcome.status == "failed":
                summary.failed += 1
                summary.failures.append(f"{tasks[key].describe()}: {outcome.error} (in run {outcome.run_id})")
            progress([key])
        if not unfinished:
            return []
        claimed = _claim(store, summary.run_id, sorted(unfinished))
        if claimed.granted:
            return _biggest_first(task for key, task in tasks.items() if key in claimed.granted)
        if set(claimed.held) != waiting_on:
            waiting_on = set(claimed.held)
            log.info(
                "run %d: waiting for %s",
                summary.run_id,
                ", ".join(f"run {owner} to finish {count} task(s)" for owner, count in sorted(claimed.held.items())),
            )
        # Polled less often while nothing moves (each poll is a write transaction over every key waited for).
        pause = POLL_SECONDS if finished else min(pause * 1.5, MAX_POLL_SECONDS)
        time.sleep(pause)


def _list_symmetry_classes(store: Store, jobs: list[Job], run_id: int, workers: int) -> None:
    """Count the closed tours up to symmetry of every complete closed census of ``jobs`` that the
    store has no count for: once, here, rather than in every report. Its units' tasks listed their tours
    as they counted them and stored their shares of Burnside's sum, which add up to the count; where a
    unit has none (more tours than it lists, or counted by an older knight), the cycles are listed again
    when there are at most :data:`SYMMETRY_LIMIT`, the census's first moves spread over ``workers``
    processes. A census's count is claimed first (``classes:<census>``), so that of two runs of one job
    only one counts it."""
    listed = [(stored, cycles) for stored in _censuses(store, jobs) if (cycles := _cycles(stored)) is not None]
    listed = [  # another run may be listing some of them
        (stored, cycles)
        for stored, cycles in listed
        if f"classes:{stored.census_id}" in _claim(store, run_id, [f"classes:{stored.census_id}"]).granted
    ]
    searched = []
    for stored, cycles in listed:
        if not cycles:  # no cycle, no class: most boards of a closed census job have none
            store.record_classes(stored.census_id, 0)
        elif (classes := _classes_from_shares(store, stored)) is not None:  # counted with the tours: no search
            store.record_classes(stored.census_id, classes)
        elif cycles <= SYMMETRY_LIMIT:  # more would take too long to list: left without a count
            searched.append(stored)
    if not searched:
        return
    from concurrent.futures import ProcessPoolExecutor  # here: rarely needed, and 20 ms to import
    from concurrent.futures.process import BrokenProcessPool

    with ExitStack() as stack:
        spread: Any = map
        if workers > 1:  # forked: the kernels loaded here go along
            context = multiprocessing.get_context(start_method())
            spread = stack.enter_context(ProcessPoolExecutor(workers, mp_context=context)).map
        for stored in searched:
            spec = stored.spec
            try:
                classes = cycles_up_to_symmetry(spec.board, removed=spec.removed, map=spread)
            except BrokenProcessPool:  # a listing process died (killed, out of memory): the rest are listed here
                log.warning("run %d: a process listing %s's cycles died; listing them here", run_id, spec.describe())
                spread = map
                classes = cycles_up_to_symmetry(spec.board, removed=spec.removed)
            store.record_classes(stored.census_id, classes)


def _classes_from_shares(store: Store, stored: CensusRecord) -> int | None:
    """The classes of a complete closed census from its units' shares of Burnside's sum, when every unit (all
    from one start square) has one; None when a unit had too many tours to list or was counted without, and
    when the shares do not add up (a store damaged by hand: the cycles are listed instead)."""
    units, shares = [], []
    for unit, share in store.unit_shares(stored.census_id):
        if share is None:
            return None
        units.append(unit)
        shares.append(share)
    if not units or len({unit.start for unit in units}) > 1:  # several starts: the listing takes one
        return None
    try:
        return classes_from_shares(stored.spec.board, units, shares, removed=stored.spec.removed)
    except InvalidInput as error:
        log.warning("%s: %s; listing its cycles instead", stored.spec.describe(), error)
        return None


def _censuses(store: Store, jobs: list[Job]) -> list[CensusRecord]:
    """The censuses ``jobs`` ask for, as stored."""
    return [stored for job in jobs for stored in store.censuses(job.name)]


def _names(jobs: list[Job]) -> str:
    return ", ".join(job.name for job in jobs)


def _cycles(stored: CensusRecord) -> int | None:
    """The cycles of a complete closed census whose classes are to be counted (not stored yet); None for any
    other census."""
    census = stored.census
    if census is None or not stored.spec.closed or stored.symmetric is not None:
        return None
    return census.cycles
