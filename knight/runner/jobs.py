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
and bounds, each method's parameters, a tour method's made from the engine's
:class:`~knight.engine.parameters.Parameter` descriptions, read live) is declared once as
pydantic models, and pydantic's first complaint (an unknown key first) becomes one
:class:`JobError` line naming the file, the key path (``sweep[0].params.tie``) and what is
valid. Expanding boards and starts, counting tasks, and building the grid, tasks and census
plans stay here, by hand.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, cast

from knight.engine import METHODS, Board, InvalidInput
from knight.engine.board import Square
from knight.engine.census import MAX_CENSUS_SQUARES, CensusSpec, census_size
from knight.engine.frontier import MAX_STATES, check_frontier_board
from knight.engine.parameters import Params, ParamValue
from knight.engine.treesize import MAX_ESTIMATE_SQUARES
from knight.errors import JobError
from knight.runner.shipped import job_file, shipped_jobs
from knight.tasks import CENSUS, ESTIMATE, FRONTIER, CensusPlan, EstimateParams, FrontierParams, Task, kind_of

if TYPE_CHECKING:  # the models are loaded when a file is read (knight.runner.jobfile)
    from knight.runner.jobfile import BoardRange, CensusParams, FrontierSweepParams, SweepTable
    from knight.tasks import SweepKind

__all__ = [
    "START_SETS",
    "PARAMETER_DEFAULTS",
    "RANDOM_WALK",
    "SWEEP_METHODS",
    "MAX_PROBES",
    "MAX_RATE_NODES",
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

START_SETS = ("all", "corners")
#: The method whose every task takes a random seed (``repeats`` seeds, 0..repeats-1).
RANDOM_WALK = "random-walk"
#: Every method a sweep may name: the engine's tour builders, the census, the tree-size estimate and the frontier count.
SWEEP_METHODS = (*METHODS, CENSUS, ESTIMATE, FRONTIER)
#: The most probes one estimate task may run (about 25 s on 8 x 8, compiled).
MAX_PROBES = 10_000_000
#: The most nodes one estimate task may time the plain search for (about 10 s at 2·10^7 nodes a second).
MAX_RATE_NODES = 200_000_000
#: The largest state cap a frontier sweep may set: the engine's (a table of fewer than 2^32 slots, some 150 GB).
MAX_STATE_CAP = MAX_STATES
#: The largest side a board range may reach ("A..B" with B at most this): 4096 x 4096 is the board limit.
MAX_SIDE = 4096
#: The most boards one sweep may list.
MAX_BOARDS = 100_000
#: The most seeds ``repeats`` may ask for.
MAX_REPEATS = 100_000
#: The most tasks a job may have, counted before it is expanded (``knight run --force`` lifts it).
MAX_TASKS = 10_000_000

#: A tree-size sweep's parameters when the file leaves them out.
ESTIMATE_DEFAULT = EstimateParams(probes=100_000, seed=0, rate_nodes=0)
ESTIMATE_DEFAULTS: Params = dataclasses.asdict(ESTIMATE_DEFAULT)
#: Default value of each parameter, so that a task's key does not depend on how the job spelled it
#: (a method's from its :class:`~knight.engine.parameters.Parameter` descriptions).
PARAMETER_DEFAULTS: dict[str, Params] = {
    **{name: method.defaults() for name, method in METHODS.items()},
    ESTIMATE: ESTIMATE_DEFAULTS,
}

# ---- what is ours: boards and starts expanded, tasks counted, grids and tasks built ---------------


@dataclass(frozen=True)
class Sweep:
    """One method over boards and starts, with a grid of parameters."""

    label: str
    method: str
    boards: tuple[Board, ...]
    starts: Any  # "all", "corners", a tuple of squares, or ("sample", K, seed)
    param_grid: tuple[Params, ...]
    plans: tuple[CensusPlan, ...] = ()  # a census sweep's censuses, listed when the file is read
    max_states: int | None = None  # a frontier sweep's state cap (None: the engine's default)
    listed: tuple[Task, ...] | None = None  # a registered kind's tasks, as it listed them

    def censuses(self) -> list[CensusPlan]:
        """The censuses of a census sweep, one per board and parameter set (none for other methods)."""
        return list(self.plans)

    def count(self) -> int:
        """How many tasks the sweep has, counted without listing them (an upper bound: another sweep may share some)."""
        if self.listed is not None:
            return len(self.listed)
        if self.method == CENSUS:
            return sum(len(plan.tasks) for plan in self.plans)
        if self.method == FRONTIER:
            return len(self.boards) * len(self.param_grid)
        return sum(start_count(board, self.starts) for board in self.boards) * len(self.param_grid)

    def tasks(self) -> Iterator[Task]:
        """Every task of the sweep, in a fixed order: board, then start, then parameters (a census:
        board, parameters, then its units in the order the engine lists them; a frontier count: board, then
        parameters)."""
        if self.listed is not None:
            yield from self.listed
            return
        if self.method == CENSUS:
            for plan in self.censuses():
                yield from plan.tasks
            return
        if self.method == FRONTIER:
            for board in self.boards:
                for asked in self.param_grid:
                    yield FrontierParams.of(asked).task(board.n, board.m, self.max_states)
            return
        grid = [tuple(sorted(params.items())) for params in self.param_grid]
        for board in self.boards:
            for start in start_squares(board, self.starts):
                for params in grid:
                    yield Task(self.method, params, board.n, board.m, start)


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


def start_squares(board: Board, starts: Any) -> list[Square]:
    """The start squares a sweep's ``starts`` names on ``board``."""
    if starts == "all":
        return [(row, col) for row in range(board.n) for col in range(board.m)]
    if starts == "corners":
        return sorted({(0, 0), (0, board.m - 1), (board.n - 1, 0), (board.n - 1, board.m - 1)})
    if isinstance(starts, tuple) and starts and starts[0] == "sample":
        _, count, seed = starts
        # random.sample picks by index alone: sampling the indices picks the squares a list of them would
        picked = random.Random(f"{seed}:{board}").sample(range(board.size), min(count, board.size))
        return sorted(divmod(index, board.m) for index in picked)
    return list(starts)


def start_count(board: Board, starts: Any) -> int:
    """How many start squares :func:`start_squares` gives on ``board``, without listing them."""
    if starts == "all":
        return board.size
    if starts == "corners":
        return len(start_squares(board, starts))
    if isinstance(starts, tuple) and starts and starts[0] == "sample":
        return min(starts[1], board.size)
    return len(starts)


def load_job(path: str | Path, *, force: bool = False) -> Job:
    """Read and check the job file at ``path``; raise :class:`JobError` (one line) if it cannot be run
    (or has more than :data:`MAX_TASKS` tasks, unless ``force``). A job shipped with knight may be named
    instead of given by path (``homework-8``: :func:`~knight.runner.shipped.job_file`)."""
    path = job_file(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise JobError(
            f"{path}: no such job file; give the path of a .toml file or the name of a shipped job "
            f"({', '.join(shipped_jobs())})"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise JobError(f"{path}: cannot read the job file: {error}") from None
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
    """The :class:`Sweep` of a checked sweep table (``given``: its params as written, for their order)."""
    from knight.runner.jobfile import CensusSweep, EstimateSweep, FrontierSweep, KindSweep, Sample

    boards = _boards(sweep.boards, where)
    starts = sweep.starts
    if isinstance(starts, Sample):
        starts = ("sample", starts.sample, starts.seed)
    elif isinstance(starts, list):
        starts = tuple(dict.fromkeys(starts))
        _on_board(starts, boards, "starts", where)
    if isinstance(sweep, KindSweep):
        return _kind_sweep(sweep.method, sweep.params, boards, starts, label, where)
    if isinstance(sweep, CensusSweep):
        return _census_sweep(sweep.params, boards, starts, label, where)
    if isinstance(sweep, FrontierSweep):
        built = _frontier_sweep(sweep.params, boards, label, where)
        where.count("boards", built.count())
        return built
    params = {name: getattr(sweep.params, name) for name in given}  # in the file's order
    if isinstance(sweep, EstimateSweep):
        _at_most(boards, MAX_ESTIMATE_SQUARES, "the tree is estimated", where)
        where.grid(math.prod(len(values) for values in params.values()), _starts(boards, starts))
        grid = tuple(ESTIMATE_DEFAULTS | dict(zip(params, values)) for values in itertools.product(*params.values()))
    else:
        removed = _removed(params.pop("removed", []), boards, starts, where)
        grid = _grid(sweep.method, params, sweep.repeats, _starts(boards, starts), where)
        if removed:  # one set of squares for every task of the sweep
            grid = tuple({**params, "removed": removed} for params in grid)
        if any(params.get("tie") == "squirrel" for params in grid) and any(
            not b.is_square or b.n < 5 or start_squares(b, starts) != [(0, 0)] for b in boards
        ):
            where.fail(
                "params.tie",
                "'squirrel' needs square boards of side 5 or more and starts = [[0, 0]]; put it in a sweep of its own",
            )
    built = Sweep(label, sweep.method, boards, starts, grid)
    where.count("boards", built.count())
    return built


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


def _starts(boards: tuple[Board, ...], starts: Any) -> int:
    return sum(start_count(board, starts) for board in boards)


def _on_board(squares: tuple[Square, ...], boards: tuple[Board, ...], key: str, where: _Where) -> None:
    """Refuse the first of ``squares`` (at ``key``) that is off one of ``boards``."""
    for board in boards:
        for square in squares:
            if not board.contains(square):
                where.fail(
                    key,
                    f"square {list(square)} is off the {board} board: row must be "
                    f"0..{board.n - 1} and column 0..{board.m - 1}",
                )


def _removed(squares: list[Square], boards: tuple[Board, ...], starts: Any, where: _Where) -> tuple[Square, ...]:
    """``params.removed``: one set of squares, on every board, none of them a start."""
    removed = tuple(sorted(set(squares)))
    _on_board(removed, boards, "params.removed", where)
    for board in boards if removed else ():  # starts are listed only to be checked against removed squares
        for square in start_squares(board, starts):
            if square in removed:
                where.fail("starts", f"square {list(square)} is removed (params.removed); start elsewhere")
    return removed


def _at_most(boards: tuple[Board, ...], squares: int, what: str, where: _Where) -> None:
    """Refuse the first board of more than ``squares`` squares (``what`` is done on boards of at most that)."""
    for board in boards:
        if board.size > squares:
            where.fail("boards", f"{what} on boards of at most {squares} squares; {board} has {board.size}")


def _seeded(method: str, params: Params) -> bool:
    """True for the parameter sets that take a random seed (the method says: the random walk, random ties)."""
    return METHODS[method].seeded(params)


def _grid(
    method: str, choices: dict[str, list[ParamValue]], repeats: int | None, starts: int, where: _Where
) -> tuple[Params, ...]:
    """The parameter grid of a tour method's sweep over ``starts`` start squares in all, counted before it is built."""
    seeds = choices.pop("seed", None)
    if repeats is not None:
        if method != RANDOM_WALK and "random" not in choices.get("tie", []):
            where.fail(
                "repeats",
                f"applies only to the tie-break 'random' and to method '{RANDOM_WALK}'; add tie = \"random\" to params",
            )
        if seeds is not None:
            where.fail("repeats", "give either repeats or params.seed, not both")
    per_set = len(seeds) if seeds is not None else (repeats or 1)  # at most, for the seeded sets
    where.grid(math.prod(len(values) for values in choices.values()) * per_set, starts)
    grid: list[Params] = []
    for combination in itertools.product(*choices.values()):
        params = {**METHODS[method].defaults(), **dict(zip(choices, combination))}
        if _seeded(method, params):
            grid.extend({**params, "seed": seed} for seed in (seeds if seeds is not None else range(repeats or 1)))
        else:
            grid.append(params)
    if seeds is not None and not any(_seeded(method, params) for params in grid):
        where.fail("params.seed", "applies only to the tie-break 'random'; add tie = \"random\"")
    return tuple({json.dumps(params, sort_keys=True): params for params in grid}.values())


def _census_sweep(params: CensusParams, boards: tuple[Board, ...], starts: Any, label: str, where: _Where) -> Sweep:
    """A census sweep: every census's units counted against the job's bound, then listed."""
    _at_most(boards, MAX_CENSUS_SQUARES, "the census counts tours", where)
    removed = _removed(params.removed, boards, () if starts == "all" else starts, where)
    if True in params.closed and starts != "all":
        where.fail(
            "starts",
            'a closed census searches from one square (every closed tour passes through all); use starts = "all"',
        )
    kinds = list(itertools.product(dict.fromkeys(params.closed), dict.fromkeys(params.depth)))
    specs = [
        CensusSpec(board.n, board.m, closed, removed, None if starts == "all" else starts, depth)
        for board in boards
        for closed, depth in kinds
    ]
    for spec in specs:  # counted first: a census's units are listed only when the job's size allows
        try:
            units = sum(
                census_size(spec.board, closed=spec.closed, removed=removed, start=start, depth=spec.depth)
                for start in (spec.starts or (None,))
            )
        except InvalidInput as error:
            where.fail("params", f"{spec.board}: {error}")
        where.count("params.depth", units)
    plans = []
    for spec in specs:
        try:
            plans.append(CensusPlan.of(spec))
        except InvalidInput as error:
            where.fail("params", f"{spec.board}: {error}")
    grid = tuple({"closed": closed, "removed": removed, "depth": depth} for closed, depth in kinds)
    return Sweep(label, CENSUS, boards, starts, grid, tuple(plans))


def _frontier_sweep(params: FrontierSweepParams, boards: tuple[Board, ...], label: str, where: _Where) -> Sweep:
    """A frontier sweep: each board one the frontier method can count, one task per board and value of closed."""
    for board in boards:
        try:
            check_frontier_board(board)
        except InvalidInput as error:
            where.fail("boards", f"{board}: {error}")
    removed = _removed(params.removed, boards, (), where)
    grid: tuple[Params, ...] = tuple({"closed": closed, "removed": removed} for closed in dict.fromkeys(params.closed))
    return Sweep(label, FRONTIER, boards, "all", grid, max_states=params.max_states)


def _kind_sweep(
    method: str, params: Mapping[str, Any], boards: tuple[Board, ...], starts: Any, label: str, where: _Where
) -> Sweep:
    """A sweep of a registered kind of its own: its tasks listed by the kind (which checks its params), counted."""
    kind = cast("SweepKind", kind_of(method))
    where.grid(1, _starts(boards, starts))  # the starts to hand it, bounded before they are listed
    try:
        listed = tuple(kind.tasks({board: start_squares(board, starts) for board in boards}, params))
    except InvalidInput as error:
        where.fail("params", str(error))
    except Exception as error:  # noqa: BLE001 - the kind's module is the user's code: its fault, in one line
        where.fail("params", f"kind {method!r} failed to list its tasks: {type(error).__name__}: {error}")
    strays = sorted({task.method for task in listed} - {method})
    if strays:
        where.fail(
            "method", f"kind {method!r} listed tasks of another method ({', '.join(strays)}): a fault of its module"
        )
    where.count("params", len(listed))
    return Sweep(label, method, boards, starts, (dict(params),), listed=listed)


def frontier_job(board: Board, params: FrontierParams, max_states: int | None = None) -> Job:
    """The job `knight census --method frontier` runs for one count: named after it (e.g. ``frontier-7x7-open``,
    ``frontier-6x6-closed-less-0.0``), so that the store and a rerun find it again."""
    name = f"frontier-{board}-{'closed' if params.closed else 'open'}"
    if params.removed:
        name += "-less-" + "-".join(f"{row}.{col}" for row, col in params.removed)
    grid: tuple[Params, ...] = ({"closed": params.closed, "removed": params.removed},)
    sweep = Sweep(name, FRONTIER, (board,), "all", grid, max_states=max_states)
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
    sweep = Sweep(
        name, CENSUS, (spec.board,), "all" if spec.starts is None else spec.starts, (params,), (CensusPlan.of(spec),)
    )
    return Job(name, Path(f"<knight census {name}>"), f"knight census: {name}", "", (sweep,))
