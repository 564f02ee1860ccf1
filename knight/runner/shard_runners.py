"""Where a sharded frontier count's tasks run (:func:`~knight.runner.shard_work.shard_task`, a square's tasks at a
time): in this process, on a local process pool (:class:`concurrent.futures.ProcessPoolExecutor`), or on a Dask
cluster (``distributed.Client.submit``), behind one interface, :class:`Runner`.

The local pool's workers die with their caller however it ends (as the runner's pool's:
:func:`knight.runner.pool.die_with_parent`) and leave Ctrl-C to it; each notes its pid as it starts, so that a pool
stopped in the middle of a square (interrupted, failed) kills them rather than wait for their tasks. A pool whose
worker died is made again and the square's unfinished tasks sent again, :data:`MAX_ATTEMPTS` times; a worker that
takes no CPU time for too long on a task (:class:`HungWatch`) is killed: a worker that died.

Public: :class:`Runner`, :func:`local_runner`, :func:`dask_runner`, :data:`MAX_ATTEMPTS`.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from typing import Any, Protocol

from knight.engine.frontier_shards import MAX_SHARDS
from knight.errors import KnightError
from knight.runner.shard_work import ShardJob, ShardReport, shard_task

__all__ = ["MAX_ATTEMPTS", "Runner", "HungWatch", "dask_runner", "local_runner"]

#: How many times a square's tasks are sent to a local pool whose worker died, before the count stops.
MAX_ATTEMPTS = 3

log = logging.getLogger("knight.runner.work")
#: How often the local pool looks at its workers' CPU time (a hung one's threshold is seconds).
_HUNG_CHECK_SECONDS = 0.5


class Runner(Protocol):
    """Runs a square's tasks, one a shard, and gives their reports in the jobs' order."""

    processes: int

    def run(self, jobs: list[ShardJob]) -> list[ShardReport]: ...


@contextmanager
def local_runner(processes: int) -> Iterator[Runner]:
    """A runner of the tasks on a local pool of ``processes`` processes, or in this process for one."""
    runner = _InProcess() if processes == 1 else _LocalPool(processes)
    try:
        yield runner
    except BaseException:  # interrupted or failed: the tasks under way are not waited for
        runner.close(now=True)
        raise
    runner.close()


class _InProcess:
    """Each task in turn, in this process."""

    processes = 1

    def run(self, jobs: list[ShardJob]) -> list[ShardReport]:
        return [shard_task(job) for job in jobs]

    def close(self, now: bool = False) -> None:
        """Nothing to close."""


class _LocalPool:
    """The tasks on a pool of processes (forked where the platform can: they load the kernels once each); a pool
    whose worker died is made again and the square's unfinished tasks sent again, :data:`MAX_ATTEMPTS` times. A
    worker that takes no CPU time for too long on a task (:class:`HungWatch`) is killed: a worker that died."""

    def __init__(self, processes: int) -> None:
        import multiprocessing

        from knight.runner.pool import hung_floor, start_method

        self.processes = processes
        self.context = multiprocessing.get_context(start_method())
        self.running: Any = self.context.RawArray("q", MAX_SHARDS)  # by shard: its task's worker's pid, 0 none yet
        self.watch = HungWatch(hung_floor(), self.running)
        self.workers: Any = None  # the pool's workers' pids, each noted by the worker as it starts; 0 a free slot
        self.pool = self._new()

    def _new(self) -> ProcessPoolExecutor:
        self.workers = self.context.Array("q", self.processes)  # a lock of its own: the workers take slots in turn
        initargs = (os.getpid(), self.running, self.workers)
        return ProcessPoolExecutor(self.processes, mp_context=self.context, initializer=_pool_worker, initargs=initargs)

    def run(self, jobs: list[ShardJob]) -> list[ShardReport]:
        done: dict[int, ShardReport] = {}
        for attempt in range(1, MAX_ATTEMPTS + 1):
            futures: dict[int, Future[ShardReport]] = {}
            for job in jobs:
                if job.shard not in done:
                    self.running[job.shard] = 0
                    futures[job.shard] = self.pool.submit(_pooled_task, job)
            try:
                self._wait(futures, done)
                self.watch.square_done([done[job.shard] for job in jobs])
                return [done[job.shard] for job in jobs]
            except BrokenProcessPool:
                for shard, future in futures.items():  # what finished before the pool broke is kept
                    if future.done() and not future.cancelled() and future.exception() is None:
                        done[shard] = future.result()
                self.pool.shutdown(wait=True, cancel_futures=True)
                self.pool = self._new()
                if attempt == MAX_ATTEMPTS:
                    raise KnightError(
                        f"a worker died or hung {MAX_ATTEMPTS} times on square {jobs[0].square} of the sharded "
                        "count; see whether memory ran out (fewer processes, more shards)"
                    ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _wait(self, futures: dict[int, Future[ShardReport]], done: dict[int, ShardReport]) -> None:
        """Each future's report into ``done``, the workers of those under way watched meanwhile; BrokenProcessPool
        when a worker died (or was killed as hung)."""
        self.watch.begin()
        pending = set(futures)
        while pending:
            wait([futures[shard] for shard in pending], timeout=_HUNG_CHECK_SECONDS, return_when=FIRST_COMPLETED)
            for shard in [shard for shard in pending if futures[shard].done()]:
                done[shard] = futures[shard].result()
                pending.discard(shard)
            self.watch.look(pending, time.monotonic())

    def close(self, now: bool = False) -> None:
        """The pool shut down once its tasks are done; ``now`` (interrupted, failed), its workers killed first: a
        task writes whole files only, so a resumed count runs the killed ones again."""
        if now:
            self._kill_workers()
        self.pool.shutdown(wait=True, cancel_futures=True)

    def _kill_workers(self) -> None:
        """SIGKILL to each worker the pool started (each noted its pid as it started: one still starting runs no
        task, and ends at the shutdown), if it is still this process's child (not a reused pid)."""
        import psutil

        for pid in [int(pid) for pid in self.workers.get_obj() if pid]:  # read without the lock: never waited for
            with suppress(psutil.Error):  # gone already
                process = psutil.Process(pid)
                if process.ppid() == os.getpid():
                    process.kill()


class HungWatch:
    """The local pool's watch for a hung worker (as :mod:`knight.runner.pool`'s): the worker of a task under way
    that has taken no CPU time for :func:`~knight.runner.pool.hung_after` of the pace (the slowest task of the
    square before) and ``floor`` (``KNIGHT_HUNG_AFTER``) is killed, so that the pool breaks and the square's
    unfinished tasks are sent again."""

    def __init__(self, floor: float, running: Any) -> None:
        self.floor, self.running = floor, running
        self.pace: float | None = None
        self.cpu: dict[tuple[int, int], tuple[Any, float, float]] = {}  # by shard and pid: process, CPU, when moved

    def begin(self) -> None:
        """A square's tasks sent: what was seen of the square before is forgotten."""
        self.cpu.clear()

    def square_done(self, reports: list[ShardReport]) -> None:
        self.pace = max(report.seconds for report in reports)

    def look(self, shards: Iterable[int], now: float) -> None:
        """Kill the worker of each of ``shards``' tasks whose CPU time has not moved for too long."""
        import psutil

        from knight.runner.pool import hung_after

        limit = hung_after(self.pace, self.floor)
        for shard in shards:
            pid = int(self.running[shard])
            if not pid:  # not begun yet
                continue
            try:
                process, cpu, moved = self.cpu.get((shard, pid)) or (psutil.Process(pid), -1.0, now)
                times = process.cpu_times()
            except psutil.Error:  # gone: the pool sees a dead worker
                continue
            if times.user + times.system != cpu:
                cpu, moved = times.user + times.system, now
            self.cpu[(shard, pid)] = (process, cpu, moved)
            if now - moved >= limit:
                log.warning("sharded count: worker %d hung (no CPU time for %.0f s on shard %d): killing it", pid,
                            now - moved, shard)  # fmt: skip
                with suppress(psutil.Error):
                    process.kill()  # SIGKILL, even to a stopped process


#: In a pool's worker: the shared array its tasks note their pid in (:class:`HungWatch`).
_running: Any = None


def _pooled_task(job: ShardJob) -> ShardReport:
    """:func:`shard_task` in a pool's worker, its pid noted first for the watch."""
    _running[job.shard] = os.getpid()
    return shard_task(job)


def _pool_worker(parent: int, running: Any = None, workers: Any = None) -> None:
    """The local pool's initializer, in each worker as it starts: the worker dies with the caller, ``parent``,
    however that ends (Linux's death signal, elsewhere a thread that watches it: as the runner's pool's workers),
    notes its pid in a free slot of ``workers`` (for the pool to kill it when stopped), and leaves Ctrl-C to the
    caller, which stops the pool in order."""
    from knight.runner.pool import die_with_parent
    from knight.runner.work import init_worker

    global _running
    die_with_parent(parent)
    if workers is not None:
        with workers.get_lock():
            free = [slot for slot in range(len(workers)) if not workers[slot]]
            if free:
                workers[free[0]] = os.getpid()
    init_worker()
    _running = running


@contextmanager
def dask_runner(address: str) -> Iterator[Runner]:
    """A runner of the tasks on the Dask cluster at ``address``."""
    from knight.runner.dask_executor import connect

    client = connect(address)
    try:
        yield _DaskRunner(client, address)
    finally:
        client.close()


class _DaskRunner:
    """The tasks on a Dask cluster; Dask sends a lost worker's task to another (it reads only files still there)."""

    def __init__(self, client: Any, address: str) -> None:
        self.client = client
        self.address = address
        self.processes = max(1, sum(client.nthreads().values()))
        self.run_id = uuid.uuid4().hex[:12]  # the tasks' keys this call's own: a resumed count's folder is the last's

    def run(self, jobs: list[ShardJob]) -> list[ShardReport]:
        futures = [
            self.client.submit(shard_task, job, pure=False, retries=MAX_ATTEMPTS - 1, key=_task_key(job, self.run_id))
            for job in jobs
        ]
        try:
            reports: list[ShardReport] = self.client.gather(futures)
        except Exception as error:  # noqa: BLE001 - a KilledWorker, a lost scheduler: one line
            raise KnightError(
                f"square {jobs[0].square} of the sharded count failed on the Dask cluster at {self.address}: "
                f"{type(error).__name__}: {error}"
            ) from None
        finally:
            for future in futures:
                future.release()
        return reports


def _task_key(job: ShardJob, run_id: str) -> str:
    return f"frontier-shard-{run_id}-{job.square}-{job.shard}"
