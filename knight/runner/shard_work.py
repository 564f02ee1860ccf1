"""One shard's task for one square of the sharded frontier count: what a worker runs, on a local pool or a Dask
cluster (:mod:`knight.runner.frontier_shards` sends the tasks, :mod:`knight.runner.shard_runners` runs them).

A square's task for shard ``d`` reads the parts every shard sent ``d`` after the square before, merges them, sweeps
the square (:mod:`knight.engine.frontier_shards`) and writes one part for each shard, each whole
(:mod:`knight.runner.shard_files`). It reads only files that stay until the square after it is done, and writes its
files whole, so it can be run again: a worker killed mid-square costs its shard's task for that square, run again
on another worker, not the count. (The tests kill a task's worker with :mod:`knight.runner.faults`, whose rules name
a task by its square and shard where a tour's name its start.)

Public: :func:`shard_task` with its :class:`ShardJob` and :class:`ShardReport`, and :func:`peak_bytes`.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from knight.engine.board import Board, Square
from knight.engine.frontier_shards import ShardSweep, held_states, merge_parts, shard_sweep, step_shard
from knight.runner.faults import ENVIRONMENT_VARIABLE, Faults
from knight.runner.shard_files import part_name, read_part, square_folder, write_part

__all__ = ["ShardJob", "ShardReport", "peak_bytes", "shard_task"]


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
        sources = [
            folder / square_folder(job.square - 1) / part_name(source, job.shard) for source in range(job.shards)
        ]
        held = sum(path.stat().st_size for path in sources) // (8 * (3 if sweep.wide else 2))
        states = merge_parts((read_part(path, sweep.wide) for path in sources), held, sweep)
    merged = held_states(states)
    if job.square == sweep.squares:  # the last merge: the states after the last square, counted
        return ShardReport(job.shard, job.square, merged, 0, 0, time.perf_counter() - began, peak_bytes())
    step = step_shard(sweep, job.square, states, job.shards, growth=job.growth, max_states=job.max_states)
    del states
    out = folder / square_folder(job.square)
    out.mkdir(exist_ok=True)
    for target in range(job.shards):  # one part at a time: the states are held once more by a part's share only
        write_part(out / part_name(job.shard, target), step.part(target))
    return ShardReport(job.shard, job.square, merged, step.held, step.ways, time.perf_counter() - began, peak_bytes())


def peak_bytes() -> int:
    """This process's peak resident memory in bytes, 0 where the system does not say."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if os.uname().sysname == "Darwin" else int(peak) * 1024


@lru_cache(maxsize=1)
def _faults(rules: str) -> Faults:
    """The faults the tests inject by ``rules`` (:mod:`knight.runner.faults`'s variable, read at each task; a rule's
    start square is a task's square and shard): none outside the tests."""
    return Faults.from_environment() if rules else Faults()


@lru_cache(maxsize=4)
def _sweep(board: Board, closed: bool, removed: tuple[Square, ...], wide: bool) -> ShardSweep:
    """The board's sweep, made once a process."""
    return shard_sweep(board, closed=closed, removed=removed, wide=wide)
