"""A process pool that knows which task a dead worker was running.

The standard pools cannot say that: ``concurrent.futures`` fails every pending future when one
worker dies, and ``multiprocessing.Pool`` waits forever. Here each worker has its own pipe,
takes one chunk of tasks at a time and sends each result as soon as it has it; so when a worker
dies (killed, out of memory) the parent knows the one task it was running. That task is retried,
up to ``max_attempts`` runs in all, and then recorded as failed with the reason; the rest of the
chunk goes back to the queue, and a fresh worker takes the dead one's place.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections import Counter, deque
from dataclasses import dataclass, field, replace
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


def _worker_main(connection: Connection, setup: Callable[[], None] | None) -> None:
    """A worker: run the chunks it is sent, sending each task's result at once, until told to stop."""
    init_worker()
    if setup is not None:
        setup()
    parent = os.getppid()
    while True:
        while not connection.poll(0.5):
            if os.getppid() != parent:  # the runner was killed outright: do not linger
                return
        message = connection.recv()
        if message is None:
            return
        for task in message:
            connection.send(run_task(task))
        connection.send(None)  # the chunk is done


@dataclass
class _Worker:
    process: Any
    connection: Connection
    chunk: deque[Task] = field(default_factory=deque)  # the tasks sent and not yet answered
    busy: bool = False  # a chunk was sent and its end not yet seen


class ProcessPool:
    """``workers`` processes that run chunks of tasks and hand each result to ``on_results``."""

    def __init__(self, workers: int, worker_setup: Callable[[], None] | None = None,
                 max_attempts: int = MAX_ATTEMPTS) -> None:
        self.workers = workers
        self.context = multiprocessing.get_context(start_method())
        self.worker_setup = worker_setup
        self.max_attempts = max_attempts

    def _start_worker(self) -> _Worker:
        parent_end, child_end = self.context.Pipe()
        process = self.context.Process(target=_worker_main, args=(child_end, self.worker_setup), daemon=True,
                                       name=f"knight-worker-{os.getpid()}")
        process.start()
        child_end.close()
        log.debug("started worker %d", process.pid)
        return _Worker(process, parent_end)

    def run(self, tasks: list[Task], on_results: Callable[[list[TaskResult]], None]) -> None:
        """Run ``tasks``; call ``on_results`` with the results of each finished chunk (and, on the
        way out, with whatever finished since). Every task ends with exactly one result."""
        size = chunk_size(len(tasks), self.workers)
        queue: deque[list[Task]] = deque(tasks[i:i + size] for i in range(0, len(tasks), size))
        crashes: Counter[str] = Counter()
        buffer: list[TaskResult] = []
        workers = [self._start_worker() for _ in range(min(self.workers, len(queue)))]

        def take(worker: _Worker, result: TaskResult | None) -> None:
            if result is None:  # the chunk is done: store it
                worker.busy = False
                on_results(buffer[:])
                buffer.clear()
                return
            task = worker.chunk.popleft()
            if crashes[task.key]:
                result = replace(result, attempts=crashes[task.key] + 1)
            buffer.append(result)

        try:
            while True:
                for worker in workers:
                    if not worker.busy and queue:
                        worker.chunk, worker.busy = deque(queue.popleft()), True
                        worker.connection.send(list(worker.chunk))
                busy = [w for w in workers if w.busy]
                if not busy:
                    break
                ready = wait([w.connection for w in busy] + [w.process.sentinel for w in busy])
                for worker in busy:
                    died = worker.process.sentinel in ready
                    try:
                        while worker.connection.poll():
                            take(worker, worker.connection.recv())
                    except (EOFError, OSError):
                        died = True
                    if died or not worker.process.is_alive():
                        workers[workers.index(worker)] = self._replace(worker, queue, crashes, buffer)
        finally:
            if buffer:
                on_results(buffer[:])
            for worker in workers:
                _stop(worker)

    def _replace(self, worker: _Worker, queue: deque[list[Task]], crashes: Counter[str],
                 buffer: list[TaskResult]) -> _Worker:
        """A worker died: retry or fail the task it was running, requeue the rest, start another."""
        worker.process.join(timeout=5)
        code = worker.process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exited with status {code}"
        if worker.chunk:
            lost = worker.chunk.popleft()
            crashes[lost.key] += 1
            if crashes[lost.key] >= self.max_attempts:
                log.error("task %s (%s): worker %d %s; failed after %d attempts", lost.key, lost.describe(),
                          worker.process.pid, how, crashes[lost.key])
                buffer.append(TaskResult(lost.key, lost.n, lost.m, lost.method, ok=False,
                                         attempts=crashes[lost.key],
                                         error=f"worker {how} while running it, {crashes[lost.key]} times"))
            else:
                log.warning("task %s (%s): worker %d %s; retrying (attempt %d of %d)", lost.key, lost.describe(),
                            worker.process.pid, how, crashes[lost.key] + 1, self.max_attempts)
                queue.appendleft([lost])
            if worker.chunk:
                queue.appendleft(list(worker.chunk))
        _stop(worker)
        return self._start_worker()


def _stop(worker: _Worker) -> None:
    """Ask a worker to stop; end it if it does not."""
    try:
        if worker.process.is_alive() and not worker.busy:
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
