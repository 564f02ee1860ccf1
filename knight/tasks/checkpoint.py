"""A long frontier count's checkpoints: where it stood after a row, kept on disk, so that a count whose process is
killed goes on from its last row instead of from the start (issue 40).

One file per task, ``<folder>/<task key>.npz`` (the folder the runner names beside the store:
:attr:`knight.tasks.Task.checkpoints`): the states as they were after the row, and what the count had added up
(:class:`~knight.engine.frontier.FrontierProgress`), with the board and parameters it belongs to. Written to a
temporary file and renamed over the last one, so that a kill while writing leaves the one before; read only when
it is of this count and this format; removed once the count is stored.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
import zipfile
from contextlib import suppress
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from knight.engine.frontier import FrontierProgress
from knight.engine.kernel import module_name
from knight.tasks.task import Task

__all__ = ["CHECKPOINTS_SUFFIX", "CHECKPOINT_SECONDS", "SECONDS_VARIABLE", "Checkpoints"]

#: The checkpoints' folder is the store's path and this (``var/knight.sqlite-checkpoints``).
CHECKPOINTS_SUFFIX = "-checkpoints"

log = logging.getLogger("knight.runner.work")

#: A checkpoint is written after a row when at least this many seconds have passed since the count began or since
#: the last one (writing the states takes a second or two a GB); ``KNIGHT_CHECKPOINT_SECONDS`` says otherwise.
CHECKPOINT_SECONDS = 60.0
SECONDS_VARIABLE = "KNIGHT_CHECKPOINT_SECONDS"
#: The checkpoint's format: one that differs is not read.
FORMAT = 1


@dataclass
class Checkpoints:
    """The checkpoints of one task (none when it names no folder): :meth:`last` to resume, :meth:`keep` after
    each row (as :func:`~knight.engine.frontier.frontier_count`'s ``on_row``), :meth:`done` once the runner has
    stored its count."""

    task: Task
    every: float = field(default_factory=lambda: _seconds(os.environ.get(SECONDS_VARIABLE)))
    started: float = field(default_factory=time.monotonic)
    written: float = field(default_factory=time.monotonic)
    #: The seconds the runs before this one spent on the count, up to the checkpoint it goes on from.
    before: float = 0.0

    @property
    def path(self) -> Path | None:
        folder = self.task.checkpoints
        return None if folder is None else Path(folder) / f"{self.task.key}.npz"

    def last(self) -> FrontierProgress | None:
        """Where an earlier run of this count stood, or None (no checkpoint, or one that is not of this count)."""
        path = self.path
        if path is None or not path.is_file():
            return None
        for partial in path.parent.glob(f".{path.name}.*"):  # one a killed write left: never read
            with suppress(OSError):
                partial.unlink()
        try:
            with np.load(path, allow_pickle=False) as saved:
                about = json.loads(str(saved["about"]))
                states = saved["states"]
            progress = FrontierProgress(
                int(about["square"]),
                states,
                int(about["ways"]),
                int(about["peak"]),
                int(about["total"]),
                float(about["growth"]),
            )
        except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as error:
            log.warning("%s: checkpoint %s not read (%s): counting from the start", self.task.describe(), path, error)
            return None
        if (about.get("format"), about.get("task"), about.get("engine")) != (FORMAT, self.task.key, module_name()):
            return None  # another count's, another format's, or made by other engine sources: not this count's
        if not _sound(progress, self.task.n, self.task.m):
            log.warning("%s: checkpoint %s is not of this board: counting from the start", self.task.describe(), path)
            return None
        log.info("%s: going on from square %d (a checkpoint)", self.task.describe(), progress.square)
        self.before = float(about.get("seconds", 0.0))
        return progress

    def keep(self, at: FrontierProgress) -> None:
        """Write where the count stands, when :attr:`every` seconds have passed since the last. A checkpoint that
        cannot be written (a full disk, a folder not ours) is said once and not tried again: the count goes on."""
        path = self.path
        if path is None or time.monotonic() - self.written < self.every:
            return
        try:
            self._write(path, at)
        except OSError as error:
            log.warning("%s: no checkpoints (%s): the count goes on without them", self.task.describe(), error)
            self.task = replace(self.task, checkpoints=None)

    def _write(self, path: Path, at: FrontierProgress) -> None:
        about = {"format": FORMAT, "task": self.task.key, "engine": module_name(), "square": at.square, "ways": at.ways}
        about |= {"peak": at.peak, "total": at.total, "growth": at.growth}
        about["seconds"] = self.before + time.monotonic() - self.started
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        try:
            with open(partial, "wb") as file:
                np.savez(file, states=at.states, about=np.array(json.dumps(about)))
                file.flush()
                os.fsync(file.fileno())
            os.replace(partial, path)
        except OSError:
            with suppress(OSError):  # a checkpoint cut short is no checkpoint: the last one stays
                partial.unlink()
            raise
        self.written = time.monotonic()
        log.info("%s: checkpoint after square %d, %s states", self.task.describe(), at.square, f"{at.held:,}")

    def done(self) -> None:
        """The count is made: its checkpoint goes, and a sharded run's folder of it (:func:`shards_folder`), however
        the count was made."""
        path = self.path
        if path is not None:
            with suppress(OSError):  # one left behind is not read again once the count is stored
                path.unlink(missing_ok=True)
            shutil.rmtree(shards_folder(path.parent, self.task.key), ignore_errors=True)
            with suppress(OSError):  # the folder too, once no count keeps one there
                path.parent.rmdir()


def shards_folder(parent: Path, key: str) -> Path:
    """The folder in ``parent`` where a sharded count of the task ``key`` keeps its parts and marker
    (:mod:`knight.runner.shard_files`): ``<key>-shards``."""
    return parent / f"{key}-shards"


def _seconds(given: str | None) -> float:
    """``KNIGHT_CHECKPOINT_SECONDS`` as a number of seconds; :data:`CHECKPOINT_SECONDS` when unset or not one."""
    try:
        seconds = float(given) if given else CHECKPOINT_SECONDS
    except ValueError:
        return CHECKPOINT_SECONDS
    return seconds if seconds >= 0 else CHECKPOINT_SECONDS


def _sound(at: FrontierProgress, n: int, m: int) -> bool:
    """Whether ``at`` can be where a count of the n x m board stood after a row: a row's last square before the
    board's last, states of 64-bit words in pairs or rows of three, counts that are not negative."""
    width, squares = min(n, m), n * m
    shaped = (at.states.ndim == 1 and at.states.shape[0] % 2 == 0) or (at.states.ndim == 2 and at.states.shape[1] == 3)
    return (
        0 <= at.square < squares - 1
        and at.square % width == width - 1
        and at.states.dtype == np.int64
        and shaped
        and min(at.ways, at.peak, at.total) >= 0
    )
