"""Job files: what a sweep covers, read from TOML and checked before anything runs.

A job file names one job and one or more sweeps. Each sweep is one method over a set of
boards and start squares, with a grid of parameter values::

    name = "homework-8"                 # optional; the file's stem by default
    description = "Homework #8: ..."    # optional
    source = "homework-8-knights-tour.txt"  # optional: the document it answers

    [[sweep]]
    boards = [5, "6x8", "10..12"]       # N (N x N), "NxM", "A..B" (square boards A..B), "A..BxM"
    starts = "all"                      # "all", "corners", [[row, col], ...] or {sample = K, seed = S}
    method = "warnsdorff"               # one of knight.engine.METHODS
    params = {tie = ["first", "random"]}  # each value a scalar or a list: the sweep takes every combination
    repeats = 5                         # random tie-breaks and random-walk only: seeds 0..4 (unless params give seeds)

A census sweep (method ``census``) counts every tour instead of building one; it runs as one
task per :class:`~knight.engine.census.CensusUnit` (a start square and a first move, one of each class of
first moves the start's symmetries carry onto each other), so the
same pool, store, resume and executors apply::

    [[sweep]]
    boards = [5, 6]                     # boards of at most 64 squares
    starts = "all"                      # optional: "all" (the default) or [[row, col], ...]
    method = "census"
    params = {closed = [false, true], removed = [[0, 0], [5, 5]], depth = 1}
                                        # closed: a grid axis; removed: one set of squares; depth:
                                        # moves fixed per unit (default 1)

A backtracking sweep may take squares off the board, ``params = {removed = [[0, 0], [6, 6]]}``:
one set of squares for every task (not a grid axis), none of them a start.

A tree-size sweep (method ``estimate``) runs Knuth's estimator of the plain backtracking tree
from each start (:mod:`knight.engine.treesize`), one task per start and parameter set; its
result goes to the store's ``estimates`` table::

    [[sweep]]
    boards = [8]                        # boards of at most 144 squares
    starts = [[0, 0]]
    method = "estimate"
    params = {probes = 1_000_000, seed = 0, rate_nodes = 5_000_000}
                                        # probes 1..10^7; rate_nodes: plain backtracking to time (0: none)

A frontier sweep (method ``frontier``) counts every tour of each board at once, by dynamic programming over
the board's frontier (:mod:`knight.engine.frontier`): one task per board and value of ``closed``, from no start
square in particular (``starts`` is left out); its result goes to the store's ``frontier_counts`` table::

    [[sweep]]
    boards = ["6x7"]                    # boards whose shorter side is at most 13
    method = "frontier"
    params = {closed = [false, true], removed = [[0, 0]], max_states = 200_000_000}
                                        # closed: a grid axis; removed: one set of squares; max_states: the
                                        # state cap (default 200,000,000), how far a run may go: not in the key

Every size is bounded, and checked before anything is listed: a board's sides at most
:data:`MAX_SIDE` in a range (``"5..4096"``) and its squares at most 16,777,216; at most
:data:`MAX_BOARDS` boards a sweep; ``repeats`` at most :data:`MAX_REPEATS`; a census's depth
below its number of squares and at most 2,000,000 units a census
(:data:`~knight.engine.census.MAX_CENSUS_UNITS`); and at most :data:`MAX_TASKS` tasks a job,
counted arithmetically (boards × starts × parameter grid × repeats) before any task is built,
unless ``knight run --force``.

How a file is checked: its shape (the keys of the file and of each sweep, every value's type
and bounds, each method's parameters) is declared once as pydantic models: the file's in
:mod:`knight.runner.jobfile`, each sweep's by its kind (:meth:`knight.tasks.sweep.Expander.sweep_model`, a tour
method's made from the engine's :class:`~knight.engine.parameters.Parameter` descriptions, read live), and
pydantic's first complaint (an unknown key first) becomes one :class:`JobError` line naming the file, the key path
(``sweep[0].params.tie``) and what is valid. Expanding boards and starts and counting tasks stay here, by hand;
each kind lists its own tasks (:meth:`knight.tasks.sweep.Expander.sweep`), the same way for every kind.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from knight.engine import Board, InvalidInput
from knight.engine.census import CensusSpec
from knight.engine.parameters import Params
from knight.errors import JobError, Unreadable
from knight.files import read_regular
from knight.runner.shipped import job_file, shipped_jobs
from knight.tasks import CensusPlan, FrontierParams, Task, census, frontier, kind_of
from knight.tasks.frontier import MAX_STATE_CAP
from knight.tasks.sweep import (
    MAX_REPEATS,
    MAX_SIDE,
    START_SETS,
    Asked,
    Sweep,
    expander,
    on_board,
    start_count,
    start_squares,
)

if TYPE_CHECKING:  # the models are loaded when a file is read (knight.runner.jobfile)
    from knight.tasks.params import BoardRange, SweepTable

__all__ = [
    "START_SETS",
    "MAX_STATE_CAP",
    "MAX_SIDE",
    "MAX_BOARDS",
    "MAX_REPEATS",
    "MAX_TASKS",
    "start_count",
    "Sweep",
    "Job",
    "start_squares",
    "load_job",
    "parse_job",
    "census_job",
    "frontier_job",
]

#: The most boards one sweep may list.
MAX_BOARDS = 100_000
#: The most tasks a job may have, counted before it is expanded (``knight run --force`` lifts it).
MAX_TASKS = 10_000_000
#: The largest job file read (the shipped ones are under 3 KB): a larger one, a device or a FIFO is refused.
MAX_JOB_BYTES = 1 << 20

# ---- what is ours: the job, its boards and starts expanded, its tasks counted ---------------------


@dataclass(frozen=True)
class Job:
    """A job file, read and checked."""

    name: str
    path: Path
    description: str
    source: str
    sweeps: tuple[Sweep, ...]

    def tasks(self) -> list[Task]:
        """Every task of every sweep, each once, in a stable order."""
        seen: dict[str, Task] = {}
        for sweep in self.sweeps:
            for task in sweep.tasks():
                seen.setdefault(task.key, task)
        return list(seen.values())

    def censuses(self) -> list[CensusPlan]:
        """Every census the job's census sweeps ask for."""
        return [plan for sweep in self.sweeps for plan in sweep.censuses()]


def load_job(path: str | Path, *, force: bool = False) -> Job:
    """Read and check the job file at ``path``; raise :class:`JobError` (one line) if it cannot be run
    (or has more than :data:`MAX_TASKS` tasks, unless ``force``). A job shipped with knight may be named
    instead of given by path (``homework-8``: :func:`~knight.runner.shipped.job_file`)."""
    path = job_file(path)
    if not path.exists() and not path.is_symlink():
        raise JobError(
            f"{path}: no such job file; give the path of a .toml file or the name of a shipped job "
            f"({', '.join(shipped_jobs())})"
        )
    try:
        raw = read_regular(path, MAX_JOB_BYTES)
    except Unreadable as error:
        raise JobError(f"{path}: cannot read the job file: {error}") from None
    if len(raw) > MAX_JOB_BYTES:
        raise JobError(f"{path}: larger than {MAX_JOB_BYTES >> 20} MB, so not a job file; give the job's .toml file")
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))  # a byte-order mark, as Windows editors write, is no error
    except UnicodeDecodeError:
        raise JobError(f"{path}: not UTF-8 text; save the job file as UTF-8") from None
    except tomllib.TOMLDecodeError as error:
        raise JobError(f"{path}: not valid TOML: {error}") from None
    return parse_job(data, path, force=force)


def parse_job(data: dict[str, Any], path: Path, *, force: bool = False) -> Job:  # TOML as read: checked below
    """Check the TOML ``data`` of the job file ``path`` and build the :class:`Job`; its size is counted
    before each sweep is expanded, and more than :data:`MAX_TASKS` tasks are refused unless ``force``."""
    from knight.runner.jobfile import JobFile, checked, sweep_model  # pydantic: loaded to read a file

    where = _Where(path, None if force else MAX_TASKS)
    job = checked(JobFile, {"name": path.stem, **data}, where)  # the file's stem names it by default
    sweeps = []
    for index, table in enumerate(job.sweep):
        where.prefix = f"sweep[{index}]."
        method = table.get("method")
        sweep = checked(sweep_model(method), table, where)
        sweeps.append(_build(sweep, table.get("params", {}), sweep.label or f"sweep {index}", where))
    return Job(job.name, path, job.description, job.source, tuple(sweeps))


@dataclass
class _Where:
    """Which file and sweep a key is in, for messages; and the job's tasks counted so far, against ``limit``."""

    path: Path
    limit: int | None
    prefix: str = ""
    tasks: int = 0

    def fail(self, key: str, message: str) -> NoReturn:
        raise JobError(f"{self.path}: {self.prefix}{key}: {message}")

    def grid(self, sets: int, starts: int) -> None:
        """Refuse a parameter grid of ``sets`` sets over ``starts`` start squares past the job's bound, before it is
        built (its tasks are counted once it is)."""
        self.count("params" if sets > 1 else "boards", sets * starts, add=False)

    def count(self, key: str, tasks: int, *, add: bool = True) -> None:
        """Refuse the job (naming ``key``) when ``tasks`` more pass its bound; else count them (if ``add``)."""
        if self.limit is not None and self.tasks + tasks > self.limit:
            self.fail(
                key,
                f"the job has more than {self.limit:,} tasks (at least {self.tasks + tasks:,} counted so far); "
                "make it smaller (fewer boards, starts, parameter values or repeats) or pass --force to knight run",
            )
        self.tasks += tasks if add else 0


def _build(sweep: SweepTable, given: Any, label: str, where: _Where) -> Sweep:
    """The :class:`Sweep` of a checked sweep table (``given``: its params as written, for their order), as its kind
    lists it."""
    from knight.tasks.params import Sample

    boards = _boards(sweep.boards, where)
    starts = sweep.starts
    if isinstance(starts, Sample):
        starts = ("sample", starts.sample, starts.seed)
    elif isinstance(starts, list):
        starts = tuple(dict.fromkeys(starts))
        on_board(starts, boards, "starts", where)
    written = tuple(given) if isinstance(given, dict) else ()
    return expander(kind_of(sweep.method)).sweep(Asked(sweep, written, boards, starts, label), where)


def _boards(items: list[BoardRange], where: _Where) -> tuple[Board, ...]:
    """The boards a sweep names, each once: counted from the ranges before any is listed."""
    listed = sum(len(rows) * (1 if cols is None else len(cols)) for _, rows, cols in items)
    if listed > MAX_BOARDS:
        where.fail("boards", f"{listed:,} boards; a sweep takes at most {MAX_BOARDS:,}: split it or narrow the ranges")
    boards: dict[Board, None] = {}
    for item, rows, cols in items:
        for n in rows:
            for m in cols if cols is not None else (n,):
                try:
                    boards[Board(n, m)] = None
                except InvalidInput as error:
                    where.fail("boards", f"{item!r}: {error}")
    return tuple(boards)


def frontier_job(board: Board, params: FrontierParams, max_states: int | None = None) -> Job:
    """The job `knight census --method frontier` runs for one count: named after it (e.g. ``frontier-7x7-open``,
    ``frontier-6x6-closed-less-0.0``), so that the store and a rerun find it again."""
    name = f"frontier-{board}-{'closed' if params.closed else 'open'}"
    if params.removed:
        name += "-less-" + "-".join(f"{row}.{col}" for row, col in params.removed)
    sweep = frontier.sweep_of(name, (board,), ({"closed": params.closed, "removed": params.removed},), max_states)
    return Job(name, Path(f"<knight census {name}>"), f"knight census --method frontier: {name}", "", (sweep,))


def census_job(spec: CensusSpec) -> Job:
    """The job `knight census` runs for one census: named after it (e.g. ``census-8x8-open-less-0.0-7.7``,
    ``census-5x5-open-from-2.2``), so that the store, `knight results` and a rerun find it again."""
    name = f"census-{spec.board}-{spec.kind}"
    if spec.removed:
        name += "-less-" + "-".join(f"{row}.{col}" for row, col in spec.removed)
    if spec.starts is not None:
        name += "-from-" + "-".join(f"{row}.{col}" for row, col in spec.starts)
    if spec.depth != 1:
        name += f"-depth-{spec.depth}"
    params: Params = {"closed": spec.closed, "removed": spec.removed, "depth": spec.depth}
    starts = "all" if spec.starts is None else spec.starts
    sweep = census.sweep_of(name, (spec.board,), starts, (params,), (CensusPlan.of(spec),))
    return Job(name, Path(f"<knight census {name}>"), f"knight census: {name}", "", (sweep,))
