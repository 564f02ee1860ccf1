"""A process pool that knows which task a dead worker was running.

The standard pools cannot say that: ``concurrent.futures`` fails every pending future when one
worker dies, and ``multiprocessing.Pool`` waits forever. Here each worker has its own pipe and
a shared counter: it takes one chunk of tasks at a time, writes into the counter the position
of the task it starts (a store to shared memory, no system call), and sends the chunk's results
in one message when the chunk is done. So when a worker dies (killed, out of memory) the parent
knows the one task it was running. That task is retried, up to ``max_attempts`` runs in all, and
then recorded as failed with the reason; the rest of the chunk goes back to the queue, and a
fresh worker takes the dead one's place.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections import Counter, deque
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from typing import Any, Callable

from knight.runner.jobs import Task
from knight.runner.work import init_worker, run_task
from knight.store import TaskResult

log = logging.getLogger("knight.runner.pool")

#: Runs of a task, those lost with a dead worker included, before it is recorded as failed.
MAX_ATTEMPTS = 3


def start_method() -> str:
    """The start method for workers: fork where the platform has it (workers inherit the compiled
    kernels and the logging queue), else spawn. Chosen explicitly, never the platform default."""
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


def chunk_size(tasks: int, workers: int) -> int:
    """Tasks per chunk: about 16 chunks per worker, between 1 and 256 tasks each."""
    return max(1, min(256, -(-tasks // (workers * 16))))


def _worker_main(connection: Connection, running: Any, setup: Callable[[], None] | None) -> None:
    """A worker: run the chunks it is sent until told to stop, noting in ``running`` the position
    of the task it is on, and sending each chunk's results when the chunk is done."""
    init_worker()
    if setup is not None:
        setup()
    parent = os.getppid()
    while True:
        while not connection.poll(0.5):
            if os.getppid() != parent:  # the runner was killed outright: do not linger
                return
        chunk = connection.recv()
        if chunk is None:
            return
        results = []
        for position, task in enumerate(chunk):
            running.value = position
            results.append(run_task(task))
        running.value = -1
        connection.send(results)


@dataclass
class _Worker:
    process: Any
    connection: Connection
    running: Any  # shared int: position in ``chunk`` of the task being run
    chunk: list[Task] | None = None  # the chunk sent and not yet answered


class ProcessPool:
    """``workers`` processes that run chunks of tasks and hand each chunk's results to ``on_results``."""

    def __init__(self, workers: int, worker_setup: Callable[[], None] | None = None,
                 max_attempts: int = MAX_ATTEMPTS) -> None:
        self.workers = workers
        self.context = multiprocessing.get_context(start_method())
        self.worker_setup = worker_setup
        self.max_attempts = max_attempts

    def _start_worker(self) -> _Worker:
        parent_end, child_end = self.context.Pipe()
        running = self.context.RawValue("l", -1)
        process = self.context.Process(target=_worker_main, args=(child_end, running, self.worker_setup),
                                       daemon=True, name=f"knight-worker-{os.getpid()}")
        process.start()
        child_end.close()
        log.debug("started worker %d", process.pid)
        return _Worker(process, parent_end, running)

    def run(self, tasks: list[Task], on_results: Callable[[list[TaskResult]], None]) -> None:
        """Run ``tasks``; call ``on_results`` with each finished chunk's results. Every task ends
        with exactly one result (a tour, or a failure with its reason)."""
        size = chunk_size(len(tasks), self.workers)
        queue: deque[list[Task]] = deque(tasks[i:i + size] for i in range(0, len(tasks), size))
        crashes: Counter[str] = Counter()
        workers = [self._start_worker() for _ in range(min(self.workers, len(queue)))]
        try:
            while True:
                for worker in workers:
                    if worker.chunk is None and queue:
                        worker.chunk = queue.popleft()
                        worker.connection.send(worker.chunk)
                busy = [w for w in workers if w.chunk is not None]
                if not busy:
                    break
                ready = wait([w.connection for w in busy] + [w.process.sentinel for w in busy])
                for worker in busy:
                    results = None
                    if worker.connection in ready:
                        try:
                            results = worker.connection.recv()
                        except (EOFError, OSError):
                            results = None
                    if results is not None:
                        chunk, worker.chunk = worker.chunk, None
                        if queue:  # keep the worker busy while the parent stores its results
                            worker.chunk = queue.popleft()
                            worker.connection.send(worker.chunk)
                        on_results([replace(r, attempts=crashes[t.key] + 1) if crashes[t.key] else r
                                    for r, t in zip(results, chunk)])
                    elif worker.process.sentinel in ready or not worker.process.is_alive():
                        workers[workers.index(worker)] = self._replace(worker, queue, crashes, on_results)
        finally:
            for worker in workers:
                _stop(worker)

    def _replace(self, worker: _Worker, queue: deque[list[Task]], crashes: Counter[str],
                 on_results: Callable[[list[TaskResult]], None]) -> _Worker:
        """A worker died: retry or fail the task it was running, requeue the rest, start another."""
        worker.process.join(timeout=5)
        code = worker.process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exited with status {code}"
        chunk, position = worker.chunk or [], worker.running.value
        if 0 <= position < len(chunk):
            lost = chunk[position]
            crashes[lost.key] += 1
            if crashes[lost.key] >= self.max_attempts:
                log.error("task %s (%s): worker %d %s; failed after %d attempts", lost.key, lost.describe(),
                          worker.process.pid, how, crashes[lost.key])
                on_results([TaskResult(lost.key, lost.n, lost.m, lost.method, ok=False, attempts=crashes[lost.key],
                                       error=f"worker {how} while running it, {crashes[lost.key]} times")])
            else:
                log.warning("task %s (%s): worker %d %s; retrying (attempt %d of %d)", lost.key, lost.describe(),
                            worker.process.pid, how, crashes[lost.key] + 1, self.max_attempts)
                queue.appendleft([lost])
            rest = chunk[:position] + chunk[position + 1:]  # results of the tasks before it were lost too
        else:
            rest = chunk
        if rest:
            queue.appendleft(rest)
        worker.chunk = None
        _stop(worker)
        return self._start_worker()


def _stop(worker: _Worker) -> None:
    """Ask a worker to stop; end it if it does not."""
    try:
        if worker.process.is_alive() and worker.chunk is None:
            worker.connection.send(None)
            worker.process.join(timeout=2)
    except (OSError, ValueError):
        pass
    if worker.process.is_alive():
        worker.process.terminate()
        worker.process.join(timeout=2)
    if worker.process.is_alive():
        worker.process.kill()
        worker.process.join()
    worker.connection.close()
