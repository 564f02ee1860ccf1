"""The frontier count with its states sharded over processes: the local machine's cores, or a Dask cluster's workers.

The engine sweeps one square for one shard (:mod:`knight.engine.frontier_shards`); this module runs every shard's
square as a task and makes them meet. A square's task for shard ``d`` reads the parts every shard sent ``d`` after
the square before (files ``s<square-1>/p<from>-<d>.i8`` in the run's folder: raw int64, the kernels' flat pairs or
rows), merges them, sweeps the square and writes one part for each shard (``s<square>/p<d>-<to>.i8``, each written
whole: a temporary file renamed); the next square's tasks start when every shard's are done, and the parts of the
square before are then removed. A task reads only files that stay until the square after it is done, and writes
its files whole, so it can be run again: a worker killed mid-square costs its shard's task for that square, run
again on another worker, not the count. (The tests kill a task's worker with :mod:`knight.runner.faults`, whose
rules name a task by its square and shard where a tour's name its start.) The tasks are the same function (:func:`shard_task`) on a local process
pool (:class:`concurrent.futures.ProcessPoolExecutor`) and on a Dask cluster (``distributed.Client.submit``).

More shards than processes keeps each process's memory to a fraction of the whole (a process holds one shard's
states at a time): 7 × 7 open, which one process counts in 8.6 GB, is counted in 16 shards by 2 processes in 3.3 GB
(docs/census.md, "Sharded counts"). On a cluster of several machines the folder must be one that every worker and
the caller see at the same path (NFS, a cluster file system): the parts go through it.

A count given a ``key`` can be resumed: its folder is ``<folder>/<key>-shards``, and after each square a marker
(``marker.json``, :data:`MARKER_NAME`, written whole) says where it stands: the square done, what the count has
added up (ways, peak, total, growth, the rows' seconds), its parts' sizes, and the count it belongs to (board, closed, removed, shards,
wide, and the engine's sources by :func:`knight.engine.kernel.module_name`). The marker is written before the parts
of the square before are removed, so the disk always holds a marker and the parts it names. A count interrupted
(Ctrl-C, a kill) and called again with the same key and parameters goes on from the square after the marker's; a
marker of other parameters, damaged, or without its parts, and the folder is removed and the count starts over. A
count that ends (counted, or failed) removes its folder; an interrupted one keeps it for the next call.

Public: :func:`sharded_frontier_count` (a :class:`ShardedCount`), :func:`default_shards`, and :func:`shard_task`
with its :class:`ShardJob` and :class:`ShardReport` (what a worker runs).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.frontier import (
    DEFAULT_MAX_STATES,
    check_frontier_board,
    finish_count,
    frontier_count,
    too_many_states,
)
from knight.engine.frontier_shards import (
    MAX_SHARDS,
    ShardSweep,
    held_states,
    merge_parts,
    shard_sweep,
    step_shard,
)
from knight.errors import InvalidInput, KnightError
from knight.runner.faults import ENVIRONMENT_VARIABLE, Faults

__all__ = [
    "SHARDS_PER_PROCESS",
    "MAX_ATTEMPTS",
    "ShardedCount",
    "ShardJob",
    "ShardReport",
    "RowDone",
    "MARKER_NAME",
    "default_shards",
    "shard_task",
    "sharded_frontier_count",
]

#: Shards a process by default: a process holds one shard at a time, so more shards keep its memory smaller, and
#: more find more states twice (6 x 6 open sends 1.25 states a state merged with 2 shards, 1.48 with 4, 1.78 with 16).
#: 7 x 7 open on 2 processes: 8 shards 321 s, 563 s of CPU, 5.59 GB in all; 16 shards 314 s, 580 s, 3.30 GB.
SHARDS_PER_PROCESS = 8
#: How many times a square's tasks are sent to a local pool whose worker died, before the count stops.
MAX_ATTEMPTS = 3
#: The file name of the part shard ``source`` sends shard ``target``.
PART_NAME = "p{source:04d}-{target:04d}.i8"
#: A keyed run's marker, in its folder: where the count stands (see the module); its format, :data:`MARKER_FORMAT`.
MARKER_NAME = "marker.json"
MARKER_FORMAT = 1

log = logging.getLogger("knight.runner.work")
#: How often the local pool looks at its workers' CPU time (a hung one's threshold is seconds).
_HUNG_CHECK_SECONDS = 0.5


@dataclass(frozen=True)
class RowDone:
    """A row of the sweep done: its index (0 the first), the seconds it took, the states after it (sharded: as the
    shards found them, before they are merged: a state found by two shards is counted twice)."""

    row: int
    seconds: float
    states: int


@dataclass(frozen=True)
class ShardedCount:
    """A sharded frontier count: :class:`knight.engine.frontier.FrontierCount`'s fields (the tours as it counts
    them, the most states held at once and the states summed over every square: the same numbers), and how it ran:
    ``shards``, ``processes`` (the local pool's, or the cluster's threads), ``row_seconds`` (each row's wall time),
    ``peak_shard_states`` (the most states one shard held after a merge) and ``peak_bytes`` (the most resident
    memory one worker process reached, as it reported it; 0 unknown)."""

    board: Board
    closed: bool
    tours: int
    peak_states: int
    states: int
    removed: tuple[Square, ...]
    shards: int
    processes: int
    row_seconds: tuple[float, ...]
    peak_shard_states: int
    peak_bytes: int
    #: The squares an earlier call with the same key had done, which this one went on from (0: from the start).
    resumed: int = 0


@dataclass(frozen=True)
class ShardJob:
    """One shard's task for one square: merge the parts sent to ``shard`` after ``square - 1``, sweep ``square``
    (none when ``square`` is the board's squares: the last merge only), write its parts. ``folder`` the run's."""

    board: Board
    closed: bool
    removed: tuple[Square, ...]
    wide: bool
    square: int
    shard: int
    shards: int
    folder: str
    growth: float
    max_states: int


@dataclass(frozen=True)
class ShardReport:
    """What a shard's task found: the states it merged (each once: its share of the states after the square
    before), the states after its square (``sent``, before the other shards' merge), the ways completed there,
    its seconds, and its process's peak resident memory in bytes (0 unknown)."""

    shard: int
    square: int
    merged: int
    sent: int
    ways: int
    seconds: float
    peak_bytes: int


def default_shards(board: Board, *, closed: bool = False, processes: int | None = None) -> int:
    """How many shards a count of ``board`` should use on ``processes`` processes (default: this machine's cores):
    1, one process and no files, where a count takes about a minute or less on one core (a shorter side of at
    most 5; 6 for closed tours, and for open ones up to 7 long: 6 × 7 open takes 45 s), else
    :data:`SHARDS_PER_PROCESS` a process.

    >>> default_shards(Board(6, 7), processes=2), default_shards(Board(7, 7), processes=2)
    (1, 16)
    """
    processes = processes or os.cpu_count() or 1
    width, length = sorted((board.n, board.m))
    small = width <= 5 or (width == 6 and (closed or length <= 7))
    return 1 if small or processes < 2 else SHARDS_PER_PROCESS * processes


def sharded_frontier_count(
    board: Board,
    *,
    closed: bool = False,
    removed: Iterable[Square] = (),
    shards: int | None = None,
    processes: int | None = None,
    scheduler: str | None = None,
    folder: str | os.PathLike[str],
    max_states: int = DEFAULT_MAX_STATES,
    wide: bool | None = None,
    on_row: Callable[[RowDone], None] | None = None,
    key: str | None = None,
) -> ShardedCount:
    """Count ``board``'s tours by the frontier method with its states in ``shards`` shards, run on a local pool of
    ``processes`` processes or on the Dask cluster whose scheduler is at ``scheduler`` (see the module).

    Parameters
    ----------
    board, closed, removed, max_states, wide : as :func:`knight.engine.frontier.frontier_count` takes them;
        ``max_states`` caps the states of all shards together, and of each.
    shards : how many shards, 1 to :data:`knight.engine.frontier_shards.MAX_SHARDS`; None, :func:`default_shards`.
        One shard on the local machine is :func:`~knight.engine.frontier.frontier_count` in this process.
    processes : the local pool's processes (default: this machine's cores, at most ``shards``); 1 runs the shards
        one after another in this process. Not with ``scheduler``.
    scheduler : a Dask scheduler's address, ``tcp://HOST:PORT``; the count runs on its workers.
    folder : where the run's parts go (a folder of its own is made in it, and removed at the end); on a cluster of
        several machines, one every worker sees at the same path.
    on_row : called after each row with a :class:`RowDone`.
    key : names the run's folder, ``<folder>/<key>-shards``, kept when the count is interrupted: a call with the
        same key and parameters goes on from where it stood (see the module). None: a temporary folder.

    Returns a :class:`ShardedCount`, whose tours, peak states and states are ``frontier_count``'s.

    Example
    -------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     sharded_frontier_count(Board(5, 5), shards=3, processes=1, folder=folder).tours
    1728

    Reference: docs/census.md, "Sharded counts" (the runbook and the figures measured).
    """
    address = _checked_address(scheduler, processes)
    _check_numbers(shards, processes)
    sweep = shard_sweep(board, closed=closed, removed=removed, wide=wide)
    check_frontier_board(board, max_states)
    parent = _usable_folder(folder)
    if sweep.trivial:  # no tour by the colours, or a square or none: nothing to sweep, anywhere
        return _one_process(sweep, max_states, wide, on_row)
    if address is None:
        processes = processes or os.cpu_count() or 1
        shards = shards or default_shards(board, closed=closed, processes=processes)
        if shards == 1:
            return _one_process(sweep, max_states, wide, on_row)
        with _local_runner(min(processes, shards)) as runner:
            return _count(sweep, shards, runner, _open_run(parent, key, sweep, shards), max_states, on_row)
    with _dask_runner(address) as runner:
        shards = shards or default_shards(board, closed=closed, processes=max(2, runner.processes))
        return _count(sweep, shards, runner, _open_run(parent, key, sweep, shards), max_states, on_row)


def shard_task(job: ShardJob) -> ShardReport:
    """Run one shard's square (:class:`ShardJob`): read and merge its parts, sweep, write its parts whole. Run again
    with the same job, it writes the same parts: what a lost worker's task needs."""
    _faults(os.environ.get(ENVIRONMENT_VARIABLE, "")).before_task(job.board.n, job.board.m, (job.square, job.shard))
    began = time.perf_counter()
    sweep = _sweep(job.board, job.closed, job.removed, job.wide)
    folder = Path(job.folder)
    if job.square == 0:
        states = sweep.first_states() if job.shard == 0 else sweep.no_states()
    else:
        sources = [folder / _square_folder(job.square - 1) / _part(source, job.shard) for source in range(job.shards)]
        held = sum(path.stat().st_size for path in sources) // (8 * (3 if sweep.wide else 2))
        states = merge_parts((_read(path, sweep.wide) for path in sources), held, sweep)
    merged = held_states(states)
    if job.square == sweep.squares:  # the last merge: the states after the last square, counted
        return ShardReport(job.shard, job.square, merged, 0, 0, time.perf_counter() - began, _peak_bytes())
    step = step_shard(sweep, job.square, states, job.shards, growth=job.growth, max_states=job.max_states)
    del states
    out = folder / _square_folder(job.square)
    out.mkdir(exist_ok=True)
    for target in range(job.shards):  # one part at a time: the states are held once more by a part's share only
        _write(out / _part(job.shard, target), step.part(target))
    return ShardReport(job.shard, job.square, merged, step.held, step.ways, time.perf_counter() - began, _peak_bytes())


class _Runner(Protocol):
    processes: int

    def run(self, jobs: list[ShardJob]) -> list[ShardReport]: ...


def _count(
    sweep: ShardSweep,
    shards: int,
    runner: _Runner,
    run: _Run,
    max_states: int,
    on_row: Callable[[RowDone], None] | None,
) -> ShardedCount:
    """The count, square after square, each square's tasks run by ``runner`` in ``run``'s folder, going on from its
    marker's square when it has one."""
    kept = False
    try:
        tally = run.tally(sweep.layout.width)
        for square in range(run.resumed, sweep.squares + 1):
            jobs = [_job(sweep, square, shard, shards, run.path, tally.growth, max_states) for shard in range(shards)]
            (run.path / _square_folder(square)).mkdir(exist_ok=True)
            merged, sent = tally.add(square, runner.run(jobs))
            if merged > max_states or sent > max_states * shards:
                raise too_many_states(sweep.board, max_states)
            row_end = square < sweep.squares and square % tally.width == tally.width - 1
            done = tally.row_done(sent) if row_end else None
            if square < sweep.squares:  # the marker first: the parts it names stay until the next one is written
                run.mark(square, tally)
            if square:
                shutil.rmtree(run.path / _square_folder(square - 1), ignore_errors=True)
            if done is not None and on_row is not None:
                on_row(done)
            if square and not merged:  # every partial tour died
                break
        count = finish_count(sweep.board, sweep.closed, tally.ways, sweep.removed, tally.peak, tally.total)
        return ShardedCount(
            count.board, count.closed, count.tours, count.peak_states, count.states, count.removed, shards,
            runner.processes, tuple(tally.row_seconds), tally.peak_shard, tally.peak_bytes, run.resumed,
        )  # fmt: skip
    except BaseException as error:  # an interrupted keyed count keeps its folder for the next call; a failed one not
        kept = run.about is not None and not isinstance(error, Exception)
        raise
    finally:
        if not kept:
            shutil.rmtree(run.path, ignore_errors=True)


def _job(sweep: ShardSweep, square: int, shard: int, shards: int, run: Path, growth: float, most: int) -> ShardJob:
    """Shard ``shard``'s task for ``square``."""
    board, closed, removed, wide = sweep.board, sweep.closed, sweep.removed, sweep.wide
    return ShardJob(board, closed, removed, wide, square, shard, shards, str(run), growth, most)


@dataclass
class _Run:
    """A count's folder of parts; a keyed one's ``about`` (the count it belongs to) and its marker's contents
    (``marker``: what an earlier call had done, empty when none), else None and a temporary folder."""

    path: Path
    about: dict[str, Any] | None = None
    marker: dict[str, Any] = field(default_factory=dict)

    @property
    def resumed(self) -> int:
        """The first square to run: the one after the marker's, or 0."""
        return int(self.marker["square"]) + 1 if self.marker else 0

    def tally(self, width: int) -> _Tally:
        """The tally the count goes on from: the marker's, or a new one."""
        return _Tally.restored(width, self.marker) if self.marker else _Tally(width, time.perf_counter())

    def mark(self, square: int, tally: _Tally) -> None:
        """A keyed run's marker after ``square``, written whole (beside it, synced, then renamed over the last)."""
        if self.about is None:
            return
        sizes = _part_sizes(self.path / _square_folder(square), int(self.about["shards"]))
        marker = {**self.about, "square": square, **tally.saved(), "parts": sizes}
        partial = self.path / f".{MARKER_NAME}.{os.getpid()}.partial"
        with open(partial, "w", encoding="utf-8") as file:
            json.dump(marker, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, self.path / MARKER_NAME)


def _open_run(parent: Path, key: str | None, sweep: ShardSweep, shards: int) -> _Run:
    """The count's folder in ``parent``: a temporary one without ``key``; else ``<key>-shards``, with its marker
    when that is of this count and its parts are whole (the other squares' folders removed), else made anew."""
    try:
        if key is None:
            return _Run(Path(tempfile.mkdtemp(prefix="frontier-shards-", dir=parent)))
        about = json.loads(json.dumps(_about(key, sweep, shards)))  # as the marker holds it: lists, not tuples
        run = _Run(parent / f"{key}-shards", about, _marker(parent / f"{key}-shards", about, sweep, shards))
        if not run.marker:
            shutil.rmtree(run.path, ignore_errors=True)
            run.path.mkdir()
            return run
        log.info("sharded count %s: going on from square %d", key, run.resumed)
        for path in run.path.iterdir():  # a square after the marker's begun, partial files: made again
            if path.name not in (MARKER_NAME, _square_folder(run.resumed - 1)):
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink()
        return run
    except OSError as error:
        raise InvalidInput(
            f"cannot make the parts' folder in {parent}: {error.strerror}; give a writable folder"
        ) from None


def _about(key: str, sweep: ShardSweep, shards: int) -> dict[str, Any]:
    """The count a marker belongs to: what must be the same for a call to go on from it."""
    from knight.engine.kernel import module_name

    board, engine = [sweep.board.n, sweep.board.m], module_name()
    return {"format": MARKER_FORMAT, "key": key, "engine": engine, "board": board, "closed": sweep.closed} | {
        "removed": [list(square) for square in sweep.removed],
        "shards": shards,
        "wide": sweep.wide,
    }


def _marker(folder: Path, about: dict[str, Any], sweep: ShardSweep, shards: int) -> dict[str, Any]:
    """The marker in ``folder`` when it is of the count ``about`` says, sound, and its square's parts all there;
    else empty (none, another count's, damaged: said in the log)."""
    path = folder / MARKER_NAME
    if not path.is_file():
        return {}
    try:
        marker = json.loads(path.read_text(encoding="utf-8"))
        if any(marker.get(name) != value for name, value in about.items()):
            return {}  # another count's, format's or engine's
        square = marker["square"]
        if not isinstance(square, int) or not 0 <= square < sweep.squares:
            raise ValueError(f"square {square!r}")
        tally = _Tally.restored(sweep.layout.width, marker)
        if len(tally.row_seconds) != (square + 1) // tally.width:
            raise ValueError("rows")
        if _part_sizes(folder / _square_folder(square), shards) != marker["parts"]:
            raise ValueError("its parts are not as it says")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        log.warning("sharded count's marker %s not read (%s): counting from the start", path, error)
        return {}
    return dict(marker)


@dataclass
class _Tally:
    """What a sharded count adds up as its squares' reports come in."""

    width: int
    row_began: float
    ways: int = 0
    peak: int = 0
    total: int = 0
    peak_shard: int = 0
    peak_bytes: int = 0
    growth: float = 4.0
    row_seconds: list[float] = field(default_factory=list)

    def add(self, square: int, reports: list[ShardReport]) -> tuple[int, int]:
        """A square's reports added in; the states merged (the states after the square before, each once) and the
        states sent (after this square, an equal state found by two shards twice)."""
        merged = sum(report.merged for report in reports)
        sent = sum(report.sent for report in reports)
        self.ways += sum(report.ways for report in reports)
        self.peak_shard = max(self.peak_shard, *(report.merged for report in reports))
        self.peak_bytes = max(self.peak_bytes, *(report.peak_bytes for report in reports))
        if square:
            self.peak, self.total = max(self.peak, merged), self.total + merged
        self.growth = max(sent / merged, 0.25) if merged else 4.0
        return merged, sent

    def saved(self) -> dict[str, Any]:
        """What a marker keeps of the tally (the seconds of the row under way as ``row_elapsed``)."""
        kept = {name: getattr(self, name) for name in ("ways", "peak", "total", "peak_shard", "peak_bytes")}
        row_elapsed = time.perf_counter() - self.row_began
        return kept | {"growth": self.growth, "row_seconds": list(self.row_seconds), "row_elapsed": row_elapsed}

    @classmethod
    def restored(cls, width: int, marker: dict[str, Any]) -> _Tally:
        """The tally a marker kept (:meth:`saved`); ValueError, KeyError or TypeError when it is not sound."""
        whole = [marker[name] for name in ("ways", "peak", "total", "peak_shard", "peak_bytes")]
        if any(isinstance(value, bool) or not isinstance(value, int) or value < 0 for value in whole):
            raise ValueError("a count that is not a whole number")
        growth, elapsed = float(marker["growth"]), float(marker["row_elapsed"])
        row_seconds = [float(seconds) for seconds in marker["row_seconds"]]
        if not growth > 0 or min([elapsed, *row_seconds]) < 0:
            raise ValueError("a growth or seconds out of range")
        ways, peak, total, peak_shard, peak_bytes = whole
        return cls(width, time.perf_counter() - elapsed, ways, peak, total, peak_shard, peak_bytes, growth, row_seconds)

    def row_done(self, sent: int) -> RowDone:
        """A row ended now: its time kept."""
        now = time.perf_counter()
        self.row_seconds.append(now - self.row_began)
        self.row_began = now
        return RowDone(len(self.row_seconds) - 1, self.row_seconds[-1], sent)


def _one_process(
    sweep: ShardSweep, max_states: int, wide: bool | None, on_row: Callable[[RowDone], None] | None
) -> ShardedCount:
    """One shard: :func:`~knight.engine.frontier.frontier_count` in this process, each row timed."""
    row_seconds: list[float] = []
    began = [time.perf_counter()]
    width = sweep.layout.width

    def progress(square: int, states: int) -> None:
        if square % width == width - 1:
            now = time.perf_counter()
            row_seconds.append(now - began[0])
            began[0] = now
            if on_row is not None:
                on_row(RowDone(len(row_seconds) - 1, row_seconds[-1], states))

    count = frontier_count(
        sweep.board, closed=sweep.closed, removed=sweep.removed, max_states=max_states, wide=wide, progress=progress
    )
    return ShardedCount(
        count.board,
        count.closed,
        count.tours,
        count.peak_states,
        count.states,
        count.removed,
        1,
        1,
        tuple(row_seconds),
        count.peak_states,
        _peak_bytes(),
    )


@contextmanager
def _local_runner(processes: int) -> Iterator[_Runner]:
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
    worker that takes no CPU time for too long on a task (:class:`_HungWatch`) is killed: a worker that died."""

    def __init__(self, processes: int) -> None:
        import multiprocessing

        from knight.runner.pool import hung_floor, start_method

        self.processes = processes
        self.context = multiprocessing.get_context(start_method())
        self.running: Any = self.context.RawArray("q", MAX_SHARDS)  # by shard: its task's worker's pid, 0 none yet
        self.watch = _HungWatch(hung_floor(), self.running)
        self.pool = self._new()

    def _new(self) -> ProcessPoolExecutor:
        initargs = (os.getpid(), self.running)
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
            for process in list((getattr(self.pool, "_processes", None) or {}).values()):
                with suppress(OSError, ValueError):  # gone already
                    process.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)


class _HungWatch:
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


#: In a pool's worker: the shared array its tasks note their pid in (:class:`_HungWatch`).
_running: Any = None


def _pooled_task(job: ShardJob) -> ShardReport:
    """:func:`shard_task` in a pool's worker, its pid noted first for the watch."""
    _running[job.shard] = os.getpid()
    return shard_task(job)


def _pool_worker(parent: int, running: Any = None) -> None:
    """The local pool's initializer, in each worker as it starts: the worker dies with the caller, ``parent``,
    however that ends (Linux's death signal, elsewhere a thread that watches it: as the runner's pool's workers), and
    leaves Ctrl-C to it, which stops the pool in order."""
    from knight.runner.pool import _die_with_parent
    from knight.runner.work import init_worker

    global _running
    _die_with_parent(parent)
    init_worker()
    _running = running


@contextmanager
def _dask_runner(address: str) -> Iterator[_Runner]:
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


def _check_numbers(shards: int | None, processes: int | None) -> None:
    """:class:`InvalidInput` unless ``shards`` and ``processes`` are None or whole numbers in range."""
    if shards is not None and (
        isinstance(shards, bool) or not isinstance(shards, int) or not 1 <= shards <= MAX_SHARDS
    ):
        raise InvalidInput(f"shards must be a whole number from 1 to {MAX_SHARDS}, got {shards!r}")
    if processes is not None and (isinstance(processes, bool) or not isinstance(processes, int) or processes < 1):
        raise InvalidInput(f"processes must be a whole number of at least 1, got {processes!r}")


def _checked_address(scheduler: str | None, processes: int | None) -> str | None:
    """``scheduler`` checked (:func:`knight.runner.dask_executor.scheduler_address`), or None."""
    if scheduler is None:
        return None
    if processes is not None:
        raise InvalidInput("give processes for a local count or scheduler for a Dask cluster's, not both")
    from knight.runner.dask_executor import scheduler_address

    return scheduler_address(scheduler)


def _usable_folder(folder: str | os.PathLike[str]) -> Path:
    """``folder``, made if it is not there; :class:`InvalidInput` in one line when it cannot be written in."""
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".frontier-shards-probe-"):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InvalidInput(
            f"the sharded count's folder {path} cannot be written in ({reason}); give a writable folder"
        ) from None
    return path


@lru_cache(maxsize=1)
def _faults(rules: str) -> Faults:
    """The faults the tests inject by ``rules`` (:mod:`knight.runner.faults`'s variable, read at each task; a rule's
    start square is a task's square and shard): none outside the tests."""
    return Faults.from_environment() if rules else Faults()


@lru_cache(maxsize=4)
def _sweep(board: Board, closed: bool, removed: tuple[Square, ...], wide: bool) -> ShardSweep:
    """The board's sweep, made once a process."""
    return shard_sweep(board, closed=closed, removed=removed, wide=wide)


def _part_sizes(folder: Path, shards: int) -> list[int]:
    """The sizes in bytes of a square's parts (``folder``'s), sent by shard 0 first; OSError when one is missing."""
    return [(folder / _part(source, target)).stat().st_size for source in range(shards) for target in range(shards)]


def _square_folder(square: int) -> str:
    return f"s{square:04d}"


def _part(source: int, target: int) -> str:
    return PART_NAME.format(source=source, target=target)


def _read(path: Path, wide: bool) -> np.ndarray:
    """A part as written by :func:`_write`: raw int64, flat pairs or rows of three."""
    values = np.fromfile(path, dtype=np.int64)
    return values.reshape(-1, 3) if wide else values


def _write(path: Path, part: np.ndarray) -> None:
    """``part`` into ``path`` whole: written beside it, then renamed over it (a reader sees all of it or none)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.partial")
    np.ascontiguousarray(part, dtype=np.int64).tofile(partial)
    os.replace(partial, path)


def _peak_bytes() -> int:
    """This process's peak resident memory in bytes, 0 where the system does not say."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if os.uname().sysname == "Darwin" else int(peak) * 1024
