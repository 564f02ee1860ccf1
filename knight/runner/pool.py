"""A process pool that knows which task a dead worker was running.

The standard pools cannot say that: ``concurrent.futures`` fails every pending future when one
worker dies, and ``multiprocessing.Pool`` waits forever. Here each worker has its own pipe and
a shared counter: it runs the chunks of tasks it is sent in order, writes into the counter the
position of the task it starts (a store to shared memory, no system call), and sends a chunk's
results in one message when the chunk is done. So when a worker dies (killed, out of memory) the
parent knows the one task it was running. That task is retried, up to ``max_attempts`` runs in
all, and then recorded as failed with the reason; the rest of its chunks go back to the queue,
and a fresh worker takes the dead one's place.

Each worker has up to :data:`IN_FLIGHT` chunks at once (the one it runs and the next, waiting
in its pipe), so that it never idles while the parent stores another worker's results; and
chunks shrink towards the end of a sweep (:func:`split`), so that the workers finish together.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import signal
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from typing import Any

from knight.runner.logs import unblock_after_a_kill
from knight.runner.work import init_worker, run_task
from knight.tasks import Task, TaskResult

__all__ = ["MAX_ATTEMPTS", "IN_FLIGHT", "start_method", "chunk_size", "split", "ProcessPool"]

log = logging.getLogger("knight.runner.pool")

#: Runs of a task, those lost with a dead worker included, before it is recorded as failed.
MAX_ATTEMPTS = 3
#: Chunks sent to a worker and not yet answered, at most: the one it runs and the next. (A chunk
#: of tasks pickles to a few tens of kB, so the one waiting fits in the pipe's buffer and sending
#: it never blocks the parent.)
IN_FLIGHT = 2
#: prctl's option that sets the signal a process gets when its parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1
#: Tasks per chunk, at most, and at least (but for the last).
MAX_CHUNK, MIN_CHUNK = 256, 8


def start_method() -> str:
    """The start method for workers: fork where the platform has it (workers inherit the compiled
    kernels and the logging queue), else spawn. Chosen explicitly, never the platform default."""
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


def chunk_size(tasks: int, workers: int) -> int:
    """Tasks per chunk: about 16 chunks per worker, between 1 and :data:`MAX_CHUNK` tasks each."""
    return max(1, min(MAX_CHUNK, -(-tasks // (workers * 16))))


def split(tasks: list[Task], workers: int) -> list[list[Task]]:
    """``tasks`` in chunks, in order: :func:`chunk_size` tasks each, but never more than half a
    worker's share of what is left (and not fewer than :data:`MIN_CHUNK`), so that the last chunks
    are small and no worker waits long on another's last chunk (guided scheduling). Not smaller:
    each chunk costs the runner two store transactions, which a sweep of quick tasks feels."""
    size, chunks, begin = chunk_size(len(tasks), workers), [], 0
    while begin < len(tasks):
        share = -(-(len(tasks) - begin) // (2 * workers))
        end = begin + min(size, max(share, MIN_CHUNK))
        chunks.append(tasks[begin:end])
        begin = end
    return chunks


def _die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this worker when the runner dies, even in the middle of a long task
    (Linux's PR_SET_PDEATHSIG; elsewhere the idle worker's check of its parent below must do)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the runner died before the request took effect
        os._exit(1)


def _worker_main(connection: Connection, running: Any, setup: Callable[[], None] | None, parent: int) -> None:
    """A worker: run the chunks it is sent until told to stop, noting in ``running`` the position
    of the task it is on, and sending each chunk's results when the chunk is done."""
    _die_with_parent(parent)
    init_worker()
    if setup is not None:
        setup()
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
    running: Any  # shared int: position in ``sent[0]`` of the task being run
    sent: deque[list[Task]] = field(default_factory=deque)  # chunks sent and not yet answered, in order


class ProcessPool:
    """``workers`` processes that run chunks of tasks and hand each chunk's results to ``on_results``."""

    def __init__(
        self, workers: int, worker_setup: Callable[[], None] | None = None, max_attempts: int = MAX_ATTEMPTS
    ) -> None:
        self.workers = workers
        self.context: Any = multiprocessing.get_context(start_method())  # BaseContext's stubs lack Process
        self.worker_setup = worker_setup
        self.max_attempts = max_attempts

    def _start_worker(self) -> _Worker:
        parent_end, child_end = self.context.Pipe()
        running = self.context.RawValue("l", -1)
        process = self.context.Process(
            target=_worker_main,
            args=(child_end, running, self.worker_setup, os.getpid()),
            daemon=True,
            name=f"knight-worker-{os.getpid()}",
        )
        process.start()
        child_end.close()
        log.debug("started worker %d", process.pid)
        return _Worker(process, parent_end, running)

    def run(
        self,
        tasks: list[Task],
        on_results: Callable[[list[TaskResult]], None],
        claim: Callable[[list[Task]], list[Task]] | None = None,
    ) -> None:
        """Run ``tasks``; call ``on_results`` with each finished chunk's results. Every task run
        ends with exactly one result (a tour, or a failure with its reason).

        With ``claim``, each chunk is passed through it just before it is sent to a worker, and
        only the tasks it returns are run (those another run has claimed are left to that run);
        a worker is started only when there is a chunk for it.
        """
        queue: deque[list[Task]] = deque(split(tasks, self.workers))
        crashes: Counter[str] = Counter()
        workers: list[_Worker] = []
        claimed: deque[list[Task]] = deque()  # claimed for a worker about to start

        def next_chunk() -> list[Task]:
            if claimed:
                return claimed.popleft()
            while queue:
                chunk = queue.popleft()
                chunk = claim(chunk) if claim is not None else chunk
                if chunk:
                    return chunk
            return []

        def feed(worker: _Worker, limit: int = IN_FLIGHT) -> None:
            while len(worker.sent) < limit and (chunk := next_chunk()):
                worker.sent.append(chunk)
                try:
                    worker.connection.send(chunk)
                except OSError:  # the worker has died: the chunk goes back to the queue when it is replaced
                    return

        def deliver(worker: _Worker, results: list[TaskResult], refill: bool = True) -> None:
            """Hand on the results of the worker's oldest chunk (first giving it its next chunk, so that it
            always has one, unless it has died)."""
            chunk = worker.sent.popleft()
            if refill:
                feed(worker)
            if crashes:  # count the runs lost with dead workers in the tasks' attempts
                results = [
                    replace(r, attempts=crashes[t.key] + 1) if t.key in crashes else r for r, t in zip(results, chunk)
                ]
            on_results(results)

        try:
            while True:
                # First a worker for each chunk there is to run, one chunk each (two big tasks on two workers,
                # not one after the other on one); then every worker its next chunk too.
                while len(workers) < self.workers and queue:
                    chunk = next_chunk()
                    if not chunk:
                        break
                    claimed.append(chunk)
                    workers.append(self._start_worker())
                    feed(workers[-1], limit=1)
                for worker in workers:
                    feed(worker)
                busy = [w for w in workers if w.sent]
                if not busy:
                    break
                ready = wait([w.connection for w in busy] + [w.process.sentinel for w in busy])
                for worker in busy:
                    results = _received(worker) if worker.connection in ready else None
                    if results is not None:
                        deliver(worker, results)
                    elif worker.process.sentinel in ready or not worker.process.is_alive():
                        # A chunk's results that it sent before it died are taken first (they may have come
                        # since the wait): its position counter is the chunk's after them, which it was running.
                        while (results := _received(worker)) is not None:
                            deliver(worker, results, refill=False)
                        workers[workers.index(worker)] = self._replace(worker, queue, crashes, on_results)
        finally:
            for worker in workers:
                _stop(worker)

    def _replace(
        self,
        worker: _Worker,
        queue: deque[list[Task]],
        crashes: Counter[str],
        on_results: Callable[[list[TaskResult]], None],
    ) -> _Worker:
        """A worker died: retry or fail the task it was running, requeue the rest, start another."""
        worker.process.join(timeout=5)
        code = worker.process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exited with status {code}"
        if code is not None and code < 0 and unblock_after_a_kill():
            log.debug("worker %d died holding the log queue's lock: released", worker.process.pid)
        chunk, position = (worker.sent[0] if worker.sent else []), worker.running.value
        for unstarted in reversed(list(worker.sent)[1:]):  # back to the queue's front, in their order
            queue.appendleft(unstarted)
        if 0 <= position < len(chunk):
            lost = chunk[position]
            crashes[lost.key] += 1
            if crashes[lost.key] >= self.max_attempts:
                log.error(
                    "task %s (%s): worker %d %s; failed after %d attempts",
                    lost.key,
                    lost.describe(),
                    worker.process.pid,
                    how,
                    crashes[lost.key],
                )
                on_results(
                    [
                        TaskResult(
                            lost.key,
                            lost.n,
                            lost.m,
                            lost.method,
                            ok=False,
                            attempts=crashes[lost.key],
                            error=f"worker {how} while running it, {crashes[lost.key]} times",
                        )
                    ]
                )
            else:
                log.warning(
                    "task %s (%s): worker %d %s; retrying (attempt %d of %d)",
                    lost.key,
                    lost.describe(),
                    worker.process.pid,
                    how,
                    crashes[lost.key] + 1,
                    self.max_attempts,
                )
                queue.appendleft([lost])
            rest = chunk[:position] + chunk[position + 1 :]  # results of the tasks before it were lost too
        else:
            rest = chunk
        if rest:
            queue.appendleft(rest)
        worker.sent.clear()
        _stop(worker)
        return self._start_worker()


def _received(worker: _Worker) -> list[TaskResult] | None:
    """The results of a chunk that the worker has sent, if a whole message is there; None otherwise (nothing
    sent, or the pipe closed: the worker died)."""
    try:
        if not worker.connection.poll():
            return None
        results: list[TaskResult] = worker.connection.recv()
    except (EOFError, OSError):
        return None
    return results


def _stop(worker: _Worker) -> None:
    """Ask a worker to stop; end it if it does not."""
    try:
        if worker.process.is_alive() and not worker.sent:
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
