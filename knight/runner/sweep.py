"""Run jobs: expand them into tasks, skip those the store has, run the rest, store every result.

:func:`run_jobs` is the door; a :class:`~knight.runner.session.RunSession` does the run, step by step. Here are the
parts it is made of: its options and summary, the choice of executor, the tasks' order, the claims, and the
closed censuses' classes counted once their units are done."""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from knight.engine.census import SYMMETRY_LIMIT, classes_from_shares, cycles_up_to_symmetry
from knight.engine.census_plan import unit_costs
from knight.errors import InvalidInput
from knight.runner.executors import Executor, InProcess
from knight.runner.jobs import Job
from knight.runner.pool import ProcessPool, start_method
from knight.runner.progress import LineReporter, Reporter, WorkTracker
from knight.runner.sharding import Sharding
from knight.store import CensusRecord, Claimed, Store
from knight.tasks import CENSUS, FRONTIER, Task

__all__ = [
    "EXECUTORS",
    "SMALL_SQUARES",
    "SMALL_TASKS",
    "RunOptions",
    "RunSummary",
    "biggest_first",
    "choose_executor",
    "claim_keys",
    "censuses_of",
    "cycles_to_class",
    "default_workers",
    "is_small",
    "job_names",
    "list_symmetry_classes",
    "run_jobs",
    "work_tracker",
]

log = logging.getLogger("knight.runner")

EXECUTORS = ("process", "dask")
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


@dataclass(frozen=True)
class RunOptions:
    """How a run runs its tasks: ``workers`` as asked for (None: one per core, or none for a small run, which the
    runner does itself: :func:`is_small`), on which executor (:data:`EXECUTORS`; Dask's ``scheduler``, None for a
    local cluster), each task logged when ``verbose``; a frontier count's ``shards`` (None: as many as pay,
    :func:`~knight.runner.sharding.shards_for`)."""

    workers: int | None = None
    executor: str = "process"
    scheduler: str | None = None
    verbose: bool = False
    shards: int | None = None

    def runs_here(self, pending: list[Task]) -> bool:
        """Whether ``pending`` is run in the runner's own process: a small run (:func:`is_small`), no workers asked
        for, no cluster."""
        return self.executor != "dask" and self.workers is None and is_small(pending)


def choose_executor(options: RunOptions, here: bool, workers: int, worker_setup: Callable[[], None] | None) -> Executor:
    """The executor a run's tasks go to: this process (``here``), a Dask cluster, or ``workers`` processes of a pool
    that each run ``worker_setup`` as they start; a frontier count worth sharding, its states sharded over as many
    processes or the cluster's workers (:class:`~knight.runner.sharding.Sharding`)."""
    scheduler = options.scheduler if options.executor == "dask" else None
    return Sharding(_executor(options, here, workers, worker_setup), options.shards, workers, scheduler)


def _executor(options: RunOptions, here: bool, workers: int, worker_setup: Callable[[], None] | None) -> Executor:
    if here:
        return InProcess()
    if options.executor == "dask":
        from knight.runner.dask_executor import DaskExecutor

        return DaskExecutor(options.scheduler, workers)
    return ProcessPool(workers, worker_setup)


def run_jobs(
    jobs: list[Job],
    store: Store,
    *,
    workers: int | None = None,
    executor: str = "process",
    scheduler: str | None = None,
    verbose: bool = False,
    reporter: Reporter | None = None,
    shards: int | None = None,
) -> RunSummary:
    """Run every task of ``jobs`` that ``store`` has no tour for; store each result as it comes
    (:class:`~knight.runner.session.RunSession`, whose steps say how).

    Tasks are claimed in the store a chunk at a time, just before a worker gets them, so that another
    run of the same job at the same time runs the others; at the end this run waits for what that run
    holds (or takes it over if it dies), and the summary counts its share (``by_others``).

    ``workers`` worker processes run the tasks (by default one per core, or none for a small run, which the
    runner does itself: :func:`is_small`); a frontier count worth sharding has its states sharded over them
    (``shards``: how many; None, as many as pay: :mod:`knight.runner.sharding`).

    Interrupted (KeyboardInterrupt, which the CLI also raises on SIGTERM), the run stops its
    workers, stores what had finished, records itself as ``interrupted`` and re-raises; the
    next run does only what is missing. A store the readers' checks find damaged is refused first
    (:class:`~knight.errors.StoreError`, saying to run ``knight verify --repair``).
    """
    from knight.runner.session import RunSession  # here: the session is built on this module

    options = RunOptions(workers, executor, scheduler, verbose, shards)
    return RunSession(jobs, store, options, reporter or LineReporter()).run()


def biggest_first(tasks: Iterable[Task]) -> list[Task]:
    """``tasks``, the biggest boards first (a stable sort: the jobs' order otherwise): their tasks take longest,
    and a long task started last keeps one worker busy while the others wait (longest-first scheduling). Frontier
    counts go before all: one takes seconds to an hour on a board of a few dozen squares (6 x 6 open, 20 s, last in
    the shipped jobs' run made it 30 s longer; first, the other worker does the rest meanwhile)."""
    return sorted(tasks, key=lambda task: (task.method != FRONTIER, -task.n * task.m))


def work_tracker(pending: list[Task], workers: int) -> WorkTracker | None:
    """The work of a census run's units by their estimated cost (:func:`unit_costs`, some 20 ms for 6 × 6), for
    its time left: they differ in cost a thousand-fold. None for other runs (their tasks are counted)."""
    if not pending or any(task.method != CENSUS for task in pending):
        return None
    costs = unit_costs([task.unit for task in pending])
    return WorkTracker({task.key: cost for task, cost in zip(pending, costs)}, workers)


def claim_keys(store: Store, run_id: int, keys: list[str]) -> Claimed:
    """Claim ``keys`` for run ``run_id`` (:meth:`Store.claim`), saying when a dead run's are taken over."""
    claimed = store.claim(run_id, keys)
    for owner, count in claimed.taken_over.items():
        log.info("run %d: took over %d task(s) claimed by run %d, which is gone", run_id, count, owner)
    return claimed


def list_symmetry_classes(store: Store, jobs: list[Job], run_id: int, workers: int) -> None:
    """Count the closed tours up to symmetry of every complete closed census of ``jobs`` that the
    store has no count for: once, here, rather than in every report. Its units' tasks listed their tours
    as they counted them and stored their shares of Burnside's sum, which add up to the count; where a
    unit has none (more tours than it lists, or counted by an older knight), the cycles are listed again
    when there are at most :data:`SYMMETRY_LIMIT`, the census's first moves spread over ``workers``
    processes. A census's count is claimed first (``classes:<census>``), so that of two runs of one job
    only one counts it."""
    listed = [
        (stored, cycles) for stored in censuses_of(store, jobs) if (cycles := cycles_to_class(stored)) is not None
    ]
    listed = [  # another run may be listing some of them
        (stored, cycles)
        for stored, cycles in listed
        if f"classes:{stored.census_id}" in claim_keys(store, run_id, [f"classes:{stored.census_id}"]).granted
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


def censuses_of(store: Store, jobs: list[Job]) -> list[CensusRecord]:
    """The censuses ``jobs`` ask for, as stored."""
    return [stored for job in jobs for stored in store.censuses(job.name)]


def job_names(jobs: list[Job]) -> str:
    return ", ".join(job.name for job in jobs)


def cycles_to_class(stored: CensusRecord) -> int | None:
    """The cycles of a complete closed census whose classes are to be counted (not stored yet); None for any
    other census."""
    census = stored.census
    if census is None or not stored.spec.closed or stored.symmetric is not None:
        return None
    return census.cycles
