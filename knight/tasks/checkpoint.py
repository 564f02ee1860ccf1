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
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from knight.engine.frontier import FrontierProgress
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
    every: float = field(default_factory=lambda: float(os.environ.get(SECONDS_VARIABLE, CHECKPOINT_SECONDS)))
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
        try:
            with np.load(path, allow_pickle=False) as saved:
                about = json.loads(str(saved["about"]))
                states = saved["states"]
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
            log.warning("%s: checkpoint %s not read (%s): counting from the start", self.task.describe(), path, error)
            return None
        if about.get("format") != FORMAT or about.get("task") != self.task.key:
            return None
        log.info("%s: going on from square %d (a checkpoint)", self.task.describe(), about["square"])
        self.before = float(about.get("seconds", 0.0))
        return FrontierProgress(about["square"], states, about["ways"], about["peak"], about["total"], about["growth"])

    def keep(self, at: FrontierProgress) -> None:
        """Write where the count stands, when :attr:`every` seconds have passed since the last."""
        path = self.path
        if path is None or time.monotonic() - self.written < self.every:
            return
        about = {"format": FORMAT, "task": self.task.key, "square": at.square, "ways": at.ways}
        about |= {"peak": at.peak, "total": at.total, "growth": at.growth}
        about["seconds"] = self.before + time.monotonic() - self.started
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        with open(partial, "wb") as file:
            np.savez(file, states=at.states, about=np.array(json.dumps(about)))
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
        self.written = time.monotonic()
        log.info("%s: checkpoint after square %d, %s states", self.task.describe(), at.square, f"{at.held:,}")

    def done(self) -> None:
        """The count is made: its checkpoint goes."""
        path = self.path
        if path is not None:
            path.unlink(missing_ok=True)
