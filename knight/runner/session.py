"""One run of jobs on a store, its steps in order (:meth:`RunSession.run`).

Refuse a damaged store; register the jobs' tasks and read which are done (nothing to do: no run recorded); begin
the run (recorded in the store, the pending tasks biggest first); execute them on the executor chosen for the run
(:class:`~knight.runner.executors.Executor`), claiming each chunk just before it is sent and recording each
chunk's results as they come, then waiting for what another run of the same job holds; count the closed
censuses' classes; summarise (the run's end recorded, whether done or interrupted).
"""

from __future__ import annotations

import gc
import logging
import time
from contextlib import closing
from dataclasses import replace

from knight.runner.executors import Executor
from knight.runner.jobs import Job
from knight.runner.logs import run_logging
from knight.runner.pool import start_method
from knight.runner.progress import Reporter, WorkTracker
from knight.runner.sweep import (
    RunOptions,
    RunSummary,
    biggest_first,
    censuses_of,
    choose_executor,
    claim_keys,
    cycles_to_class,
    default_workers,
    job_names,
    list_symmetry_classes,
    work_tracker,
)
from knight.store import Store
from knight.tasks import Task, TaskResult, kind_of
from knight.tasks.checkpoint import CHECKPOINTS_SUFFIX, Checkpoints

__all__ = ["MAX_POLL_SECONDS", "POLL_SECONDS", "RunSession"]

log = logging.getLogger("knight.runner")

#: Seconds between looks at the store while the last tasks are run by another run.
POLL_SECONDS = 0.2
#: The longest pause between two polls while another run's tasks are waited for and none finishes.
MAX_POLL_SECONDS = 2.0


class RunSession:
    """A run of ``jobs`` into ``store`` as ``options`` say, its progress shown by ``reporter``: :meth:`run`."""

    def __init__(self, jobs: list[Job], store: Store, options: RunOptions, reporter: Reporter) -> None:
        self.jobs, self.store, self.options, self.reporter = jobs, store, options, reporter
        self.workers = options.workers or default_workers()
        self.tasks: dict[str, Task] = {}  # every task of the jobs, by key
        self.pending: list[Task] = []  # the tasks not done when the run began, biggest first
        self.unfinished: set[str] = set()  # no outcome yet, here or from another run
        self.here = False  # run in this process (a small run)
        self.tracker: WorkTracker | None = None
        self.summary = RunSummary(0, 0, 0)
        self.started = 0.0

    def run(self) -> RunSummary:
        """Run the session's steps in order; what the run did."""
        # A damaged store is refused, as readers refuse it: a run would report success over it. (Done tasks whose
        # result has gone are let by: the run computes them again.) Free while the store is as last found sound.
        self.store.refuse_if_damaged(runs_again=True)
        done = self.register()
        if self.nothing_to_do(done):
            return self.summary
        self.begin(done)
        with run_logging(self.options.verbose, self.reporter.log_handler(), start_method()) as worker_setup:
            self.announce()
            try:
                self.execute(choose_executor(self.options, self.here, self.workers, worker_setup))
                self.summary.status = "done"
                list_symmetry_classes(self.store, self.jobs, self.summary.run_id, self.summary.workers)
            finally:
                self.summarise()
        return self.summary

    def register(self) -> set[str]:
        """Register each job and its tasks in the store; the keys of the tasks done, read once (a task another run
        finishes after this is not granted to this one)."""
        for job in self.jobs:
            job_tasks = job.tasks()
            self.store.register_job(job.name, job_tasks, job.censuses())
            for task in job_tasks:
                self.tasks.setdefault(task.key, task)
        return self.store.done_keys()

    def nothing_to_do(self, done: set[str]) -> bool:
        """Whether every task is ``done`` and every closed census's classes counted: then no run is recorded and the
        store is left as it was, so that a reader that has checked it (make report, after this) need not again."""
        if not self.tasks.keys() <= done:
            return False
        if any(cycles_to_class(stored) is not None for stored in censuses_of(self.store, self.jobs)):
            return False
        log.info(
            "%d tasks in %s, all already in %s: nothing to run", len(self.tasks), job_names(self.jobs), self.store.path
        )
        self.summary = RunSummary(0, len(self.tasks), len(self.tasks), status="done", workers=0)
        return True

    def begin(self, done: set[str]) -> None:
        """Record the run in the store (before the work: outcomes since count) and order what is left to run."""
        run_id = self.store.start_run([job.name for job in self.jobs], self.options.executor, self.workers)
        self.pending = biggest_first(self.checkpointed(task) for key, task in self.tasks.items() if key not in done)
        self.here = self.options.runs_here(self.pending)
        total, workers = len(self.tasks), 0 if self.here else self.workers
        self.summary = RunSummary(run_id, total, total - len(self.pending), workers=workers)
        self.started = time.monotonic()
        self.unfinished = {task.key for task in self.pending}
        self.tracker = work_tracker(self.pending, 1 if self.here else self.workers)

    def announce(self) -> None:
        summary = self.summary
        log.info(
            "run %d: %d tasks in %s, %d already in %s, %d to run %s",
            summary.run_id,
            summary.total,
            job_names(self.jobs),
            summary.already_done,
            self.store.path,
            len(self.pending),
            f"on {summary.workers} {self.options.executor} worker(s)"
            if summary.workers
            else "in this process (a small run)",
        )
        if self.tracker is None:
            self.reporter.start(len(self.pending))  # at once: the bar turns while the kernels load

    def execute(self, executor: Executor) -> None:
        """Run the pending tasks on ``executor``, recording each chunk's results as it finishes; then, while another
        run holds some, wait for them or take over what it left."""
        if self.pending:
            executor.prepare(self.pending)
        if self.tracker is not None:  # timed from the work's start: the time left scales the time the work took
            self.reporter.start(len(self.pending), self.tracker.total)
        weights = None if self.tracker is None else self.tracker.weights  # a census unit's cost: its expected time
        batch = self.pending
        while batch:
            with closing(executor.results(batch, self.claim, weights)) as finished:
                for results in finished:
                    self.record(results)
            batch = self.wait_for_others()

    def claim(self, chunk: list[Task]) -> list[Task]:
        """The tasks of ``chunk`` this run may run: those no other run holds, claimed for this one."""
        granted = claim_keys(self.store, self.summary.run_id, [task.key for task in chunk]).granted
        return [task for task in chunk if task.key in granted]

    def checkpointed(self, task: Task) -> Task:
        """``task`` with the folder beside the store where it keeps its checkpoints, if its kind keeps any."""
        if not kind_of(task.method).checkpoints:
            return task
        return replace(task, checkpoints=f"{self.store.path}{CHECKPOINTS_SUFFIX}")

    def record(self, results: list[TaskResult]) -> None:
        """Store a chunk's results and count them in the summary and the progress; a stored task's checkpoint
        goes (not before: a run killed between the count and its storing goes on from the checkpoint)."""
        self.store.record(self.summary.run_id, results)
        self.summary.ran += len(results)
        for result in results:
            self.unfinished.discard(result.key)
            if result.ok and kind_of(result.method).checkpoints:
                Checkpoints(self.checkpointed(self.tasks[result.key])).done()
            if not result.ok:
                self.summary.failed += 1
                self.summary.failures.append(f"{self.tasks[result.key].describe()}: {result.error}")
        self.progress([result.key for result in results])

    def progress(self, keys: list[str]) -> None:
        if self.tracker is None:
            self.reporter.advance(len(keys))
        else:
            self.reporter.advance(len(keys), self.tracker.finish(keys))

    def wait_for_others(self) -> list[Task]:
        """Wait until another run has finished each unfinished task (which it had claimed), or until some of them
        are free to claim (that run ended or died): return those, claimed, for this run to do; an empty list once
        every task has its outcome. Outcomes recorded by other runs count in the summary, so that it describes the
        whole job."""
        summary = self.summary
        waiting_on: set[int] = set()  # the runs last said to be waited for
        pause = POLL_SECONDS
        while True:
            finished = self.store.outcomes(summary.run_id, sorted(self.unfinished))
            for key, outcome in finished.items():
                self.unfinished.discard(key)
                summary.by_others += 1
                if outcome.failure is not None:
                    summary.failed += 1
                    message = outcome.failure.message
                    summary.failures.append(f"{self.tasks[key].describe()}: {message} (in run {outcome.run_id})")
                self.progress([key])
            if not self.unfinished:
                return []
            claimed = claim_keys(self.store, summary.run_id, sorted(self.unfinished))
            if claimed.granted:
                return biggest_first(task for key, task in self.tasks.items() if key in claimed.granted)
            if set(claimed.held) != waiting_on:
                waiting_on = set(claimed.held)
                held = sorted(claimed.held.items())
                log.info(
                    "run %d: waiting for %s",
                    summary.run_id,
                    ", ".join(f"run {owner} to finish {count} task(s)" for owner, count in held),
                )
            # Polled less often while nothing moves (each poll is a write transaction over every key waited for).
            pause = POLL_SECONDS if finished else min(pause * 1.5, MAX_POLL_SECONDS)
            time.sleep(pause)

    def summarise(self) -> None:
        """End the run: the collector given back what the pool kept from it, the progress ended, the run's status
        (done, or interrupted) and counts recorded in the store and logged."""
        gc.unfreeze()
        self.reporter.finish()
        summary = self.summary
        summary.seconds = time.monotonic() - self.started
        if summary.status != "done":
            summary.status = "interrupted"
        self.store.finish_run(summary.run_id, summary.status, summary.total, summary.ran)
        log.info(
            "run %d %s: %d tasks run here, %d by another run at the same time (%d failed in all) in %.1f s",
            summary.run_id,
            summary.status,
            summary.ran,
            summary.by_others,
            summary.failed,
            summary.seconds,
        )
