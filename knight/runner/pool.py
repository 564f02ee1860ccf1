"""Tasks on pebble's process pool, a dead worker costing only the task it was running.

The workers are pebble's (``pebble.ProcessPool``): it starts them, hands them chunks of tasks,
starts another in place of one that dies, and fails that one's chunk with ``ProcessExpired`` (its
pid and exit status) while the other workers go on. What no pool knows is which task *of a chunk*
the worker was on: so each chunk in flight has a slot in shared memory (:class:`_Slots`) where its
worker writes its pid and the position of the task it starts (a store, no system call). That task
is retried, up to ``max_attempts`` runs in all, then recorded as failed with the reason; the rest of
the chunk goes back to the queue. Here too: the kernel's death signal for workers whose runner was
killed (:func:`die_with_parent`; a watching thread where there is none), the claims, and the chunks, which shrink towards the end of a
sweep (:func:`split`) so that the workers finish together.

Why pebble: of the pools that survive a killed worker, it alone says whose task died.
``concurrent.futures`` and loky fail every pending task of the pool when one worker dies (loky then
starts a new pool, by spawn: every worker loads the kernels again), and ``multiprocessing.Pool``
waits forever. Measured (``benchmarks/pool_choice.py``, the sweep benchmark's 10,240 tasks, best of 5,
interleaved, on this shared 2-core machine): see that file's docstring for the figures.

Races of pebble covered here. When a worker dies moments after it sent a chunk's results and took the
next, pebble may blame the chunk it had finished (its slot says so: the chunk is run again, no task
blamed) and hold the one it had taken as running for ever. When a worker dies moments after it took a
chunk, pebble may look for the dead worker's chunk before it has read the worker's note that it took
one: then it reports nothing at all, and holds that chunk for ever too (seen under load: a census whose
worker is killed at one task hung, 2 runs in 10). Either way the chunk's slot names a worker that is
gone: :meth:`ProcessPool._orphans`. A worker killed
at the very moment it takes a chunk off pebble's channel leaves the channel locked (pebble issue #163):
pebble's workers give up on it after 60 s and the pool breaks; then a new pool takes over the chunks in
flight (:class:`BrokenProcessPool`).

A hung worker (stopped with SIGSTOP, or blocked for good) never dies, so pebble never reports it: the
runner watches the task each worker is on (:class:`_Watch`). One whose worker has taken no CPU time for
:func:`hung_after` seconds (at least a minute; more for a task expected to be long) has its worker killed
(SIGKILL), and the task is retried as a dead worker's. CPU time, not the clock alone: a task far slower than
expected that still computes (a frontier count of an hour, a census unit a thousand times its neighbours)
is working, and no estimate of the runner's is good enough to kill it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any

import pebble

from knight.errors import InvalidInput, KnightError
from knight.runner.work import init_worker, run_task, warm_up
from knight.store.runs import alive
from knight.tasks import FRONTIER, Failure, FailureCause, Task, TaskResult

__all__ = [
    "MAX_ATTEMPTS",
    "IN_FLIGHT",
    "HUNG_VARIABLE",
    "start_method",
    "die_with_parent",
    "chunk_size",
    "split",
    "hung_after",
    "ProcessPool",
    "WorkersLost",
]

log = logging.getLogger("knight.runner.pool")

#: Runs of a task, those lost with a dead worker included, before it is recorded as failed.
MAX_ATTEMPTS = 3
#: Chunks in flight per worker, at most: the one it runs and the next, waiting in pebble's channel so
#: that no worker idles while the runner stores another's results. (Each is claimed just before it is
#: sent: fewer in flight, more claims left to another run of the same job.)
IN_FLIGHT = 2
#: prctl's option that sets the signal a process gets when its parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1
#: Seconds between a worker's looks for its runner, where the kernel has no death signal (macOS, Windows).
_PARENT_CHECK_SECONDS = 0.5
#: Tasks per chunk, at most, and at least (but for the last).
MAX_CHUNK, MIN_CHUNK = 256, 8
#: Seconds between looks for a chunk pebble holds for a worker it has already reported dead.
_ORPHAN_CHECK_SECONDS = 0.5
#: Pools broken one after the other, with no chunk finished between them, before the run gives up.
_MAX_BROKEN_POOLS = 3
#: How often pebble's pool threads look for work, results and ended workers (pebble's default is 0.1 s).
#: A pool's end waits for each thread's next look: at 0.1 s that cost a short run (a census of the 22 small
#: boards) 50 ms of its 0.74 s; at 0.01 s the threads' wake-ups cost nothing measurable on a long sweep.
POLL_SECONDS = 0.01
#: The environment variable that sets the hung threshold's floor, in seconds (the tests lower it).
HUNG_VARIABLE = "KNIGHT_HUNG_AFTER"
#: Seconds without CPU time, at least, before a worker on a task is taken as hung: far above any pause of a
#: working process (a loaded machine's scheduling, swapping, a kernel's first load), far below "for ever".
HUNG_FLOOR = 60.0
#: A task's worker may stay still this many times the task's expected time, when that is longer than the floor.
HUNG_FACTOR = 20.0
#: Seconds between two looks at the workers' CPU time.
_HUNG_CHECK_SECONDS = 0.5


def start_method() -> str:
    """The start method for workers: fork where the platform has it (workers inherit the compiled
    kernels), else spawn, as on Windows; on macOS spawn too, Python's default there (a process forked
    after the system's frameworks started threads may crash). Chosen explicitly, never the platform default."""
    forks = "fork" in multiprocessing.get_all_start_methods() and hasattr(os, "fork")
    return "fork" if forks and sys.platform != "darwin" else "spawn"


def chunk_size(tasks: int, workers: int) -> int:
    """Tasks per chunk: about 16 chunks per worker, between 1 and :data:`MAX_CHUNK` tasks each."""
    return max(1, min(MAX_CHUNK, -(-tasks // (workers * 16))))


def split(tasks: list[Task], workers: int) -> list[list[Task]]:
    """``tasks`` in chunks, in order: :func:`chunk_size` tasks each, but never more than half a
    worker's share of what is left (and not fewer than :data:`MIN_CHUNK`), so that the last chunks
    are small and no worker waits long on another's last chunk (guided scheduling). Not smaller:
    each chunk costs the runner two store transactions, which a sweep of quick tasks feels. A frontier
    count is a chunk of its own: it may take an hour, and tasks chunked with it would wait for it."""
    size, chunks, begin = chunk_size(len(tasks), workers), [], 0
    while begin < len(tasks):
        share = -(-(len(tasks) - begin) // (2 * workers))
        end = min(begin + min(size, max(share, MIN_CHUNK)), len(tasks))
        alone = next((i for i in range(begin, end) if getattr(tasks[i], "method", None) == FRONTIER), None)
        if alone is not None:  # the tasks before it, then it alone
            end = alone if alone > begin else alone + 1
        chunks.append(tasks[begin:end])
        begin = end
    return chunks


def die_with_parent(parent: int) -> None:
    """End this worker when the runner dies, even in the middle of a long task: Linux's kernel kills it
    (PR_SET_PDEATHSIG); elsewhere (macOS, Windows) a thread of the worker looks for the runner every
    :data:`_PARENT_CHECK_SECONDS` and ends the worker once it is gone (as soon as the worker's Python runs:
    a kernel compiled ahead of time may hold the interpreter until it returns). An idle worker also sees
    pebble's channel close."""
    if not _death_signal():
        _watch_parent(parent)
    if os.getppid() != parent:  # the runner died before the request took effect
        os._exit(1)


def _death_signal() -> bool:
    """Ask Linux's kernel to kill this process when its parent dies; whether it was done."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL) == 0)
    except (OSError, AttributeError):  # no libc to load, or no prctl in it
        return False


def _watch_parent(parent: int) -> None:
    """A daemon thread that ends this process once process ``parent`` is gone (psutil: on Windows a process
    id stays the parent's when it dies, and ``os.kill(pid, 0)`` is Ctrl-C)."""
    import psutil

    try:
        runner = psutil.Process(parent)
    except psutil.Error:
        os._exit(1)

    def gone() -> bool:
        try:
            return os.getppid() != parent or runner.status() == psutil.STATUS_ZOMBIE or not runner.is_running()
        except psutil.Error:
            return True

    def watch() -> None:
        while not gone():
            time.sleep(_PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="knight-runner-watch", daemon=True).start()


class _Slots:
    """Shared memory, a slot per chunk in flight: the pid of the worker running it and the position of the
    task it is on (-1 before the first, the chunk's length once all are done)."""

    def __init__(self, context: Any, count: int) -> None:
        self.array = context.RawArray("q", 2 * count)
        self.free = list(range(count))

    def take(self) -> int:
        slot = self.free.pop()
        self.array[2 * slot], self.array[2 * slot + 1] = 0, -1
        return slot

    def read(self, slot: int) -> tuple[int, int]:
        return self.array[2 * slot], self.array[2 * slot + 1]


_slots: Any = None  # in a worker: the slots' shared array


def _worker_setup(slots: Any, setup: Callable[[], None] | None, parent: int) -> None:
    """Pebble's initializer, run in each worker as it starts."""
    global _slots
    die_with_parent(parent)
    if setup is not None:
        setup()
    init_worker()
    _slots = slots


def _run_chunk(slot: int, chunk: list[Task]) -> list[TaskResult]:
    """Run a chunk of tasks in order in a worker, noting in its slot the task it is on."""
    _slots[2 * slot] = os.getpid()
    results = []
    for position, task in enumerate(chunk):
        _slots[2 * slot + 1] = position
        results.append(run_task(task))
    _slots[2 * slot + 1] = len(chunk)
    return results


def hung_floor() -> float:
    """The hung threshold's floor: ``$KNIGHT_HUNG_AFTER`` seconds, or :data:`HUNG_FLOOR`; :class:`InvalidInput`
    when it is not a number of seconds above 0."""
    text = os.environ.get(HUNG_VARIABLE, "").strip()
    if not text:
        return HUNG_FLOOR
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):  # NaN fails too
        raise InvalidInput(f"${HUNG_VARIABLE} must be a number of seconds above 0, got {text!r}")
    return seconds


def hung_after(expected: float | None, floor: float = HUNG_FLOOR) -> float:
    """Seconds a worker may take no CPU time on a task expected to take ``expected`` seconds (None: not known
    yet) before it is taken as hung: ``max(floor, HUNG_FACTOR × expected)``.

    >>> hung_after(None), hung_after(0.01), hung_after(10.0)
    (60.0, 60.0, 200.0)
    """
    return max(floor, HUNG_FACTOR * expected) if expected is not None else floor


class _Watch:
    """What the runner knows of the tasks its workers are on, to find a hung worker: when each chunk and each task
    started (as first seen in its slot), the seconds per unit of work of the chunks finished so far (a task's
    ``weights``: its estimated cost, as the progress display has it; 1 each by default), and when each worker's CPU
    time last moved."""

    def __init__(self, weights: Mapping[str, float] | None, floor: float) -> None:
        self.weights = weights or {}
        self.floor = floor
        self.seconds = self.work = 0.0  # of the chunks finished
        self.started: dict[int, float] = {}  # by slot: when its chunk was first seen running
        self.task: dict[int, tuple[int, int, float]] = {}  # by slot: pid, position, and when first seen
        self.cpu: dict[int, tuple[Any, float, float]] = {}  # by pid: the process, its CPU time, when it last moved
        self.looked = 0.0
        self.killed: dict[int, str] = {}  # by pid: why the worker was ended as hung

    def weight(self, task: Task) -> float:
        return self.weights.get(task.key, 1.0)

    def expected(self, task: Task) -> float | None:
        """Seconds ``task`` should take, at the pace of the chunks finished so far (None before one has)."""
        return self.seconds / self.work * self.weight(task) if self.work else None

    def see(self, sent: Mapping[Future[list[TaskResult]], _Sent], slots: _Slots, now: float) -> None:
        """Note the chunks and tasks that have started since the last look."""
        for item in sent.values():
            pid, position = slots.read(item.slot)
            if not pid:
                continue
            self.started.setdefault(item.slot, now)
            seen = self.task.get(item.slot)
            if seen is None or seen[:2] != (pid, position):
                self.task[item.slot] = (pid, position, now)

    def finished(self, item: _Sent, now: float, ran: bool) -> None:
        """A chunk is no longer in flight: its time counts in the pace if it ``ran`` to the end."""
        began = self.started.pop(item.slot, None)
        self.task.pop(item.slot, None)
        if began is not None and ran:
            self.seconds += now - began
            self.work += sum(self.weight(task) for task in item.chunk)

    def hung(self, sent: Mapping[Future[list[TaskResult]], _Sent], now: float) -> None:
        """End the worker of each task whose worker has taken no CPU time for its threshold (:func:`hung_after`)."""
        if now - self.looked < _HUNG_CHECK_SECONDS:
            return
        self.looked = now
        import psutil  # lazily, as store.runs does: only a pool's run looks

        for item in sent.values():
            if (seen := self.task.get(item.slot)) is None:
                continue
            pid, position, since = seen
            if pid in self.killed or not 0 <= position < len(item.chunk):
                continue
            try:
                process, cpu, moved = self.cpu.get(pid) or (psutil.Process(pid), -1.0, now)
                times = process.cpu_times()
            except psutil.Error:  # gone: a dead worker, pebble's (or _orphans') to report
                continue
            if times.user + times.system != cpu:
                cpu, moved = times.user + times.system, now
            self.cpu[pid] = (process, cpu, moved)
            task = item.chunk[position]
            expected = self.expected(task)
            limit = hung_after(expected, self.floor)
            still = now - max(moved, since)
            if still < limit:
                continue
            pace = "not known yet" if expected is None else f"{expected:.3g} s"
            why = f"hung (no CPU time for {still:.0f} s on one task, expected {pace})"
            log.warning("task %s (%s): worker %d %s; killing it", task.key, task.describe(), pid, why)
            self.killed[pid] = why
            with contextlib.suppress(psutil.Error):  # gone meanwhile: dead all the same
                process.kill()  # SIGKILL, even to a stopped process (TerminateProcess on Windows)


class WorkersLost(KnightError):
    """The worker processes kept dying before they finished anything (see the log, with ``-v``)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"{what}; what finished is stored: see why with -v, then run again")


@dataclass
class _Sent:
    chunk: list[Task]
    slot: int


class ProcessPool:
    """``workers`` processes that run chunks of tasks and yield each chunk's results as it finishes: an
    :class:`~knight.runner.executors.Executor`."""

    def __init__(
        self, workers: int, worker_setup: Callable[[], None] | None = None, max_attempts: int = MAX_ATTEMPTS
    ) -> None:
        self.workers = workers
        self.context: Any = multiprocessing.get_context(start_method())
        self.worker_setup = worker_setup
        self.max_attempts = max_attempts

    def _start_workers(self, slots: _Slots) -> pebble.ProcessPool:
        pebble.CONSTS.sleep_unit = POLL_SECONDS  # a public setting of pebble's (in pebble.__all__)
        return pebble.ProcessPool(
            max_workers=self.workers,
            initializer=_worker_setup,
            initargs=(slots.array, self.worker_setup, os.getpid()),
            context=self.context,
        )

    def prepare(self, tasks: list[Task]) -> None:
        """Before the first chunk: each method's kernels compiled here once, inherited by the forked workers; the
        objects numba leaves behind (hundreds of thousands) kept out of the collector's walks for the run (here,
        while results are stored, and in each forked worker), as Python's docs advise before forking. The run's
        session gives them back to the collector when it ends (``gc.unfreeze``)."""
        warm_up({task.method for task in tasks})
        gc.freeze()

    def run(
        self,
        tasks: list[Task],
        on_results: Callable[[list[TaskResult]], None],
        claim: Callable[[list[Task]], list[Task]] | None = None,
        weights: Mapping[str, float] | None = None,
    ) -> None:
        """Run ``tasks``; call ``on_results`` with each finished chunk's results (:meth:`results`)."""
        with contextlib.closing(self.results(tasks, claim, weights)) as finished:
            for results in finished:
                on_results(results)

    def results(
        self,
        tasks: list[Task],
        claim: Callable[[list[Task]], list[Task]] | None = None,
        weights: Mapping[str, float] | None = None,
    ) -> Generator[list[TaskResult]]:
        """Run ``tasks``; yield each finished chunk's results. Every task run ends with exactly one result (a
        tour, or a failure with its reason: a task whose worker died, or hung and was ended, is retried up to
        :attr:`max_attempts` runs, then failed naming how its worker ended).

        With ``claim``, each chunk is passed through it just before it is sent to a worker, and
        only the tasks it returns are run (those another run has claimed are left to that run);
        the workers are started only when there is a chunk for them. ``weights``: each task's estimated cost
        (1 where not given), for the time a task is expected to take, which sets how long its worker may
        seem hung before it is ended (:func:`hung_after`). Closed early (the caller stopped), the workers are
        stopped at once.
        """
        self.watch = _Watch(weights, hung_floor())
        self.queue: deque[list[Task]] = deque(split(tasks, self.workers))
        self.slots = _Slots(self.context, self.workers * IN_FLIGHT)
        self.sent: dict[Future[list[TaskResult]], _Sent] = {}
        self.crashes: Counter[str] = Counter()  # runs of each task lost with a dead worker
        self.dead: dict[int, int] = {}  # the exit status of each worker pebble reported dead, by pid
        self.hung = self.watch.killed  # why each worker ended as hung was ended, by pid
        self.claim = claim
        self.pool: pebble.ProcessPool | None = None
        self.broken = 0  # pools broken since a chunk last finished
        try:
            while True:
                if self.pool is not None and not self.pool.active:  # broken: a new pool takes its chunks
                    self._replace_broken_pool()
                self._send()
                if not self.sent:
                    if self.queue:
                        continue
                    break
                yield from self._collect()
        except BaseException:  # GeneratorExit too: the caller stopped
            if self.pool is not None:
                _end(self.pool, stop=True)
            raise
        if self.pool is not None:
            _end(self.pool, stop=False)

    def _next_chunk(self) -> list[Task]:
        """The next chunk of the queue that has a task left once claimed; empty when the queue is."""
        while self.queue:
            chunk = self.queue.popleft()
            chunk = self.claim(chunk) if self.claim is not None else chunk
            if chunk:
                return chunk
        return []

    def _replace_broken_pool(self) -> None:
        """The pool broke: its chunks in flight go back to the queue, for a new pool; :class:`WorkersLost` once
        pools have broken :data:`_MAX_BROKEN_POOLS` times in a row."""
        assert self.pool is not None
        self.broken += 1
        if self.broken > _MAX_BROKEN_POOLS:
            raise WorkersLost(f"the worker pool broke {self.broken} times in a row, running nothing")
        log.warning("the worker pool broke; starting another")
        for future, item in self.sent.items():
            future.cancel()
            self.watch.finished(item, time.monotonic(), ran=False)
            self.queue.appendleft(item.chunk)
            self.slots.free.append(item.slot)
        self.sent.clear()
        _end(self.pool, stop=True)
        self.pool = None

    def _send(self) -> None:
        """Send chunks, each claimed just before, until :data:`IN_FLIGHT` per worker are in flight (the workers
        started with the first)."""
        while len(self.sent) < self.workers * IN_FLIGHT and (chunk := self._next_chunk()):
            self.pool = self.pool or self._start_workers(self.slots)
            slot = self.slots.take()
            try:
                self.sent[self.pool.schedule(_run_chunk, (slot, chunk))] = _Sent(chunk, slot)
            except RuntimeError:  # the pool has just broken
                self.queue.appendleft(chunk)
                self.slots.free.append(slot)
                break

    def _collect(self) -> Iterator[list[TaskResult]]:
        """Wait a moment for chunks to finish; yield their results (a lost task's failure among them), requeue
        what a dead worker left, and end the workers that hang."""
        sent, slots = self.sent, self.slots
        done, _ = wait(list(sent), timeout=_ORPHAN_CHECK_SECONDS, return_when=FIRST_COMPLETED)
        now = time.monotonic()
        self.watch.see(sent, slots, now)
        for future in done or self._orphans(sent, slots):
            item = sent.pop(future)
            self.watch.finished(item, now, ran=future.done() and not future.cancelled() and not future.exception())
            if future.cancelled():  # an orphan (see _orphans)
                pid = slots.read(item.slot)[0]
                yield from self._lost(item, self._how(pid, self.dead.get(pid)))
            elif (error := future.exception()) is None:
                self.broken = 0
                yield self._counted(item.chunk, future.result())
            elif isinstance(error, pebble.ProcessExpired):
                self.dead[error.pid] = error.exitcode
                yield from self._lost(item, self._how(error.pid, error.exitcode))
            elif isinstance(error, BrokenProcessPool):
                self.queue.appendleft(item.chunk)  # the pool broke under it: run again, no task blamed
            else:  # run_task itself raised (it turns the engine's errors into results)
                yield from self._lost(item, f"raised {type(error).__name__}: {error}")
            slots.free.append(item.slot)
        self.watch.hung(sent, now)

    def _orphans(self, sent: dict[Future[list[TaskResult]], _Sent], slots: _Slots) -> list[Future[list[TaskResult]]]:
        """Chunks that pebble still holds as running on a worker that is gone (whether pebble reported its death
        or not: see the module's docstring): cancelled, to be handled as lost. Pebble reaps its workers as it finds
        them dead, so that an ended worker's pid names no process (one not reaped yet is found at the next look)."""
        orphans = [
            future
            for future, item in sent.items()
            if (pid := slots.read(item.slot)[0]) and (pid in self.dead or not alive(pid))
        ]
        for future in orphans:
            future.cancel()
        return orphans

    def _how(self, pid: int, code: int | None) -> str:
        """How worker ``pid`` ended: hung and ended by the runner, or :func:`_how` from its exit status."""
        return f"was {self.hung[pid]}, ended" if pid in self.hung else _how(code)

    def _counted(self, chunk: list[Task], results: list[TaskResult]) -> list[TaskResult]:
        """``results`` with the runs lost with dead workers counted in their tasks' attempts."""
        if not self.crashes:
            return results
        return [
            replace(r, attempts=self.crashes[t.key] + 1) if t.key in self.crashes else r for r, t in zip(results, chunk)
        ]

    def _lost(self, item: _Sent, how: str) -> Iterator[list[TaskResult]]:
        """A chunk's worker died (or ``how`` says what else happened): retry the task it was running, or yield its
        failure, naming how the worker ended; requeue the rest."""
        pid, position = self.slots.read(item.slot)
        chunk = item.chunk
        if not 0 <= position < len(chunk):  # not started, or all run and the results lost with the worker
            self.queue.appendleft(chunk)
            return
        lost = chunk[position]
        self.crashes[lost.key] += 1
        attempts = self.crashes[lost.key]
        rest = chunk[:position] + chunk[position + 1 :]  # results of the tasks before it were lost too
        if rest:
            self.queue.appendleft(rest)
        if attempts >= self.max_attempts:
            log.error(
                "task %s (%s): worker %d %s; failed after %d attempts", lost.key, lost.describe(), pid, how, attempts
            )
            failure = Failure(FailureCause.WORKER_LOST, f"worker {how} while running it, {attempts} times")
            yield [TaskResult.failed(lost, failure, attempts)]
        else:
            log.warning(
                "task %s (%s): worker %d %s; retrying (attempt %d of %d)",
                lost.key,
                lost.describe(),
                pid,
                how,
                attempts + 1,
                self.max_attempts,
            )
            self.queue.appendleft([lost])


def _how(code: int | None) -> str:
    """How a worker ended, from its exit status (None: pebble did not report it)."""
    if code is None:
        return "ended"
    return f"killed by signal {-code}" if code < 0 else f"exited with status {code}"


def _end(pool: pebble.ProcessPool, stop: bool) -> None:
    """Close ``pool`` once its chunks are done, or stop it at once (its workers ended)."""
    if stop:
        pool.stop()
    else:
        pool.close()
    pool.join()
