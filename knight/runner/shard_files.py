"""A sharded frontier count's folder: the parts its tasks send one another, and a keyed count's resume marker.

The parts of square ``s`` are the files ``s<s>/p<from>-<to>.i8`` in the run's folder (:data:`PART_NAME`: raw int64,
the kernels' flat pairs or rows of three), each written whole: a temporary file renamed (:func:`write_part`).

A count given a ``key`` can be resumed: its folder is ``<folder>/<key>-shards``, and after each square a marker
(``marker.json``, :data:`MARKER_NAME`, written whole) says where it stands: the square done, what the count has
added up (:class:`Tally`: ways, peak, total, growth, the rows' seconds), its parts' sizes, and the count it belongs
to (:class:`MarkerAbout`: board, closed, removed, shards, wide, and the engine's sources by
:func:`knight.engine.kernel.module_name`). The marker is written before the parts of the square before are removed,
so the disk always holds a marker and the parts it names. A marker of other parameters, damaged, or without its
parts (:func:`open_run`), and the folder is removed and the count starts over.

Public: :func:`open_run` (a :class:`Run`), :class:`Tally`, the marker's shapes (:class:`Marker`), and the parts'
names and files (:func:`square_folder`, :func:`part_name`, :func:`read_part`, :func:`write_part`).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import numpy as np

from knight.engine.frontier_shards import ShardSweep
from knight.errors import InvalidInput
from knight.tasks.checkpoint import shards_folder

if TYPE_CHECKING:  # the reports' type only: the task's module reads and writes the parts with this one
    from knight.runner.shard_work import ShardReport

__all__ = [
    "PART_NAME",
    "MARKER_NAME",
    "MARKER_FORMAT",
    "MarkerAbout",
    "SavedTally",
    "Marker",
    "Run",
    "Tally",
    "open_run",
    "part_name",
    "part_sizes",
    "read_part",
    "square_folder",
    "write_part",
]

#: The file name of the part shard ``source`` sends shard ``target``.
PART_NAME = "p{source:04d}-{target:04d}.i8"
#: A keyed run's marker, in its folder: where the count stands (see the module); its format, :data:`MARKER_FORMAT`.
MARKER_NAME = "marker.json"
MARKER_FORMAT = 1

log = logging.getLogger("knight.runner.work")


class MarkerAbout(TypedDict):
    """The count a marker belongs to, as its JSON holds it: what must be the same for a call to go on from it."""

    format: int
    key: str
    engine: str
    board: list[int]
    closed: bool
    removed: list[list[int]]
    shards: int
    wide: bool


class SavedTally(TypedDict):
    """What a marker keeps of a :class:`Tally` (the seconds of the row under way as ``row_elapsed``)."""

    ways: int
    peak: int
    total: int
    peak_shard: int
    peak_bytes: int
    growth: float
    row_seconds: list[float]
    row_elapsed: float


class Marker(MarkerAbout, SavedTally):
    """A marker's JSON: the count it belongs to, the square done, its tally, and its square's parts' sizes."""

    square: int
    parts: list[int]


@dataclass
class Tally:
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

    def saved(self) -> SavedTally:
        """What a marker keeps of the tally (the seconds of the row under way as ``row_elapsed``)."""
        row_elapsed = time.perf_counter() - self.row_began
        return SavedTally(
            ways=self.ways, peak=self.peak, total=self.total, peak_shard=self.peak_shard, peak_bytes=self.peak_bytes,
            growth=self.growth, row_seconds=list(self.row_seconds), row_elapsed=row_elapsed,
        )  # fmt: skip

    @classmethod
    def restored(cls, width: int, marker: Marker) -> Tally:
        """The tally a marker kept (:meth:`saved`); ValueError, KeyError or TypeError when it is not sound."""
        whole = [marker["ways"], marker["peak"], marker["total"], marker["peak_shard"], marker["peak_bytes"]]
        if any(isinstance(value, bool) or not isinstance(value, int) or value < 0 for value in whole):
            raise ValueError("a count that is not a whole number")
        growth, elapsed = float(marker["growth"]), float(marker["row_elapsed"])
        row_seconds = [float(seconds) for seconds in marker["row_seconds"]]
        if not growth > 0 or min([elapsed, *row_seconds]) < 0:
            raise ValueError("a growth or seconds out of range")
        ways, peak, total, peak_shard, peak_bytes = whole
        return cls(width, time.perf_counter() - elapsed, ways, peak, total, peak_shard, peak_bytes, growth, row_seconds)

    def end_row(self) -> float:
        """A row ended now: its time kept, and returned."""
        now = time.perf_counter()
        self.row_seconds.append(now - self.row_began)
        self.row_began = now
        return self.row_seconds[-1]


@dataclass
class Run:
    """A count's folder of parts; a keyed one's ``about`` (the count it belongs to) and its marker (``marker``: what
    an earlier call had done, None when none), else None and a temporary folder."""

    path: Path
    about: MarkerAbout | None = None
    marker: Marker | None = None

    @property
    def resumed(self) -> int:
        """The first square to run: the one after the marker's, or 0."""
        return int(self.marker["square"]) + 1 if self.marker else 0

    def tally(self, width: int) -> Tally:
        """The tally the count goes on from: the marker's, or a new one."""
        return Tally.restored(width, self.marker) if self.marker else Tally(width, time.perf_counter())

    def mark(self, square: int, tally: Tally) -> None:
        """A keyed run's marker after ``square``, written whole (beside it, synced, then renamed over the last)."""
        if self.about is None:
            return
        sizes = part_sizes(self.path / square_folder(square), int(self.about["shards"]))
        marker = Marker(**self.about, square=square, **tally.saved(), parts=sizes)
        partial = self.path / f".{MARKER_NAME}.{os.getpid()}.partial"
        with open(partial, "w", encoding="utf-8") as file:
            json.dump(marker, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, self.path / MARKER_NAME)


def open_run(parent: Path, key: str | None, sweep: ShardSweep, shards: int) -> Run:
    """The count's folder in ``parent``: a temporary one without ``key``; else ``<key>-shards``, with its marker
    when that is of this count and its parts are whole (the other squares' folders removed), else made anew."""
    try:
        if key is None:
            return Run(Path(tempfile.mkdtemp(prefix="frontier-shards-", dir=parent)))
        about: MarkerAbout = json.loads(json.dumps(_about(key, sweep, shards)))  # as the marker holds it: lists
        folder = shards_folder(parent, key)
        run = Run(folder, about, _marker(folder, about, sweep, shards))
        if not run.marker:
            shutil.rmtree(run.path, ignore_errors=True)
            run.path.mkdir()
            return run
        log.info("sharded count %s: going on from square %d", key, run.resumed)
        for path in run.path.iterdir():  # a square after the marker's begun, partial files: made again
            if path.name not in (MARKER_NAME, square_folder(run.resumed - 1)):
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink()
        return run
    except OSError as error:
        raise InvalidInput(
            f"cannot make the parts' folder in {parent}: {error.strerror}; give a writable folder"
        ) from None


def _about(key: str, sweep: ShardSweep, shards: int) -> MarkerAbout:
    """The count a marker belongs to: what must be the same for a call to go on from it."""
    from knight.engine.kernel import module_name

    return MarkerAbout(
        format=MARKER_FORMAT, key=key, engine=module_name(), board=[sweep.board.n, sweep.board.m],
        closed=sweep.closed, removed=[list(square) for square in sweep.removed], shards=shards, wide=sweep.wide,
    )  # fmt: skip


def _marker(folder: Path, about: MarkerAbout, sweep: ShardSweep, shards: int) -> Marker | None:
    """The marker in ``folder`` when it is of the count ``about`` says, sound, and its square's parts all there;
    else None (none, another count's, damaged: said in the log)."""
    path = folder / MARKER_NAME
    if not path.is_file():
        return None
    try:
        marker = json.loads(path.read_text(encoding="utf-8"))
        if any(marker.get(name) != value for name, value in about.items()):
            return None  # another count's, format's or engine's
        square = marker["square"]
        if not isinstance(square, int) or not 0 <= square < sweep.squares:
            raise ValueError(f"square {square!r}")
        tally = Tally.restored(sweep.layout.width, marker)
        if len(tally.row_seconds) != (square + 1) // tally.width:
            raise ValueError("rows")
        if part_sizes(folder / square_folder(square), shards) != marker["parts"]:
            raise ValueError("its parts are not as it says")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        log.warning("sharded count's marker %s not read (%s): counting from the start", path, error)
        return None
    checked: Marker = dict(marker)  # type: ignore[assignment]  # a JSON object, its fields checked above
    return checked


def part_sizes(folder: Path, shards: int) -> list[int]:
    """The sizes in bytes of a square's parts (``folder``'s), sent by shard 0 first; OSError when one is missing."""
    return [(folder / part_name(source, target)).stat().st_size for source in range(shards) for target in range(shards)]


def square_folder(square: int) -> str:
    """The folder, in the run's, of the parts sent after ``square``."""
    return f"s{square:04d}"


def part_name(source: int, target: int) -> str:
    """The file of the part shard ``source`` sends shard ``target``."""
    return PART_NAME.format(source=source, target=target)


def read_part(path: Path, wide: bool) -> np.ndarray:
    """A part as written by :func:`write_part`: raw int64, flat pairs or rows of three."""
    values = np.fromfile(path, dtype=np.int64)
    return values.reshape(-1, 3) if wide else values


def write_part(path: Path, part: np.ndarray) -> None:
    """``part`` into ``path`` whole: written beside it, then renamed over it (a reader sees all of it or none)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.partial")
    np.ascontiguousarray(part, dtype=np.int64).tofile(partial)
    os.replace(partial, path)
