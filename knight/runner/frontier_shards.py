"""The frontier count with its states sharded over processes: the local machine's cores, or a Dask cluster's workers.

The engine sweeps one square for one shard (:mod:`knight.engine.frontier_shards`); this module runs every shard's
square as a task (:func:`~knight.runner.shard_work.shard_task`) and makes them meet. A square's task for shard ``d``
reads the parts every shard sent ``d`` after the square before (files ``s<square-1>/p<from>-<d>.i8`` in the run's
folder: raw int64, the kernels' flat pairs or rows; :mod:`knight.runner.shard_files`), merges them, sweeps the square
and writes one part for each shard (``s<square>/p<d>-<to>.i8``, each written whole: a temporary file renamed); the
next square's tasks start when every shard's are done, and the parts of the square before are then removed. A task
reads only files that stay until the square after it is done, and writes its files whole, so it can be run again: a
worker killed mid-square costs its shard's task for that square, run again on another worker, not the count. The
tasks are the same function on a local process pool (:class:`concurrent.futures.ProcessPoolExecutor`) and on a Dask
cluster (``distributed.Client.submit``): :mod:`knight.runner.shard_runners`.

More shards than processes keeps each process's memory to a fraction of the whole (a process holds one shard's
states at a time): 7 × 7 open, which one process counts in 8.6 GB, is counted in 16 shards by 2 processes in 3.3 GB
(docs/census.md, "Sharded counts"). On a cluster of several machines the folder must be one that every worker and
the caller see at the same path (NFS, a cluster file system): the parts go through it.

A count given a ``key`` can be resumed: its folder is ``<folder>/<key>-shards``, and after each square a marker
(``marker.json``, :data:`MARKER_NAME`, written whole) says where it stands (:mod:`knight.runner.shard_files`). A
count interrupted (Ctrl-C, a kill) and called again with the same key and parameters goes on from the square after
the marker's; a marker of other parameters, damaged, or without its parts, and the folder is removed and the count
starts over. A count that ends (counted, or failed) removes its folder; an interrupted one keeps it for the next call.

Public: :func:`sharded_frontier_count` (a :class:`ShardedCount`), :class:`RowDone`, :func:`default_shards`, and
:func:`shard_task` with its :class:`ShardJob` and :class:`ShardReport` (what a worker runs, importable from here).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from knight.engine.board import Board, Square
from knight.engine.frontier import (
    DEFAULT_MAX_STATES,
    check_frontier_board,
    finish_count,
    frontier_count,
    too_many_states,
)
from knight.engine.frontier_shards import MAX_SHARDS, ShardSweep, shard_sweep
from knight.errors import InvalidInput
from knight.runner.shard_files import MARKER_NAME, Run, open_run, square_folder
from knight.runner.shard_runners import MAX_ATTEMPTS, Runner, dask_runner, local_runner
from knight.runner.shard_work import ShardJob, ShardReport, peak_bytes, shard_task

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
        run = open_run(parent, key, sweep, shards)
        with _removed_unless_resumable(run), local_runner(min(processes, shards)) as runner:  # workers end first
            return _count(sweep, shards, runner, run, max_states, on_row)
    return _on_dask(address, sweep, shards, parent, key, max_states, on_row)


def _on_dask(
    address: str,
    sweep: ShardSweep,
    shards: int | None,
    parent: Path,
    key: str | None,
    max_states: int,
    on_row: Callable[[RowDone], None] | None,
) -> ShardedCount:
    """The count on the Dask cluster at ``address`` (shards by default: as many as pay on its threads)."""
    with dask_runner(address) as runner:
        shards = shards or default_shards(sweep.board, closed=sweep.closed, processes=max(2, runner.processes))
        run = open_run(parent, key, sweep, shards)
        with _removed_unless_resumable(run):
            return _count(sweep, shards, runner, run, max_states, on_row)


@contextmanager
def _removed_unless_resumable(run: Run) -> Iterator[None]:
    """``run``'s folder removed at the end, unless the count was interrupted and can go on from it (it has a key):
    counted or failed, nothing stays."""
    kept = False
    try:
        yield
    except BaseException as error:  # an interrupted keyed count keeps its folder for the next call; a failed one not
        kept = run.about is not None and not isinstance(error, Exception)
        raise
    finally:
        if not kept:
            shutil.rmtree(run.path, ignore_errors=True)


def _count(
    sweep: ShardSweep,
    shards: int,
    runner: Runner,
    run: Run,
    max_states: int,
    on_row: Callable[[RowDone], None] | None,
) -> ShardedCount:
    """The count, square after square, each square's tasks run by ``runner`` in ``run``'s folder, going on from its
    marker's square when it has one."""
    tally = run.tally(sweep.layout.width)
    for square in range(run.resumed, sweep.squares + 1):
        jobs = [_job(sweep, square, shard, shards, run.path, tally.growth, max_states) for shard in range(shards)]
        (run.path / square_folder(square)).mkdir(exist_ok=True)
        merged, sent = tally.add(square, runner.run(jobs))
        if merged > max_states or sent > max_states * shards:
            raise too_many_states(sweep.board, max_states)
        row_end = square < sweep.squares and square % tally.width == tally.width - 1
        done = RowDone(len(tally.row_seconds), tally.end_row(), sent) if row_end else None
        if square < sweep.squares:  # the marker first: the parts it names stay until the next one is written
            run.mark(square, tally)
        if square:
            shutil.rmtree(run.path / square_folder(square - 1), ignore_errors=True)
        if done is not None and on_row is not None:
            on_row(done)
        if square and not merged:  # every partial tour died
            break
    count = finish_count(sweep.board, sweep.closed, tally.ways, sweep.removed, tally.peak, tally.total)
    return ShardedCount(
        count.board, count.closed, count.tours, count.peak_states, count.states, count.removed, shards,
        runner.processes, tuple(tally.row_seconds), tally.peak_shard, tally.peak_bytes, run.resumed,
    )  # fmt: skip


def _job(sweep: ShardSweep, square: int, shard: int, shards: int, run: Path, growth: float, most: int) -> ShardJob:
    """Shard ``shard``'s task for ``square``."""
    board, closed, removed, wide = sweep.board, sweep.closed, sweep.removed, sweep.wide
    return ShardJob(board, closed, removed, wide, square, shard, shards, str(run), growth, most)


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
        peak_bytes(),
    )


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
