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
task per :class:`~knight.engine.census.CensusUnit` (a start square and a first move), so the
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

Every size is bounded, and checked before anything is listed: a board's sides at most
:data:`MAX_SIDE` in a range (``"5..4096"``) and its squares at most 16,777,216; at most
:data:`MAX_BOARDS` boards a sweep; ``repeats`` at most :data:`MAX_REPEATS`; a census's depth
below its number of squares and at most 2,000,000 units a census
(:data:`~knight.engine.census.MAX_CENSUS_UNITS`); and at most :data:`MAX_TASKS` tasks a job,
counted arithmetically (boards × starts × parameter grid × repeats) before any task is built,
unless ``knight run --force``.

A file that is not valid TOML, has an unknown key, names a method or parameter that does
not exist, or an impossible board or start, raises :class:`JobError` with one line naming
the file, the key and what would be valid.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from knight.engine import METHODS, Board, InvalidInput, check_parameters
from knight.engine.board import MAX_SQUARES, Square
from knight.engine.census import MAX_CENSUS_SQUARES, CensusSpec, census_size
from knight.engine.treesize import MAX_ESTIMATE_SQUARES
from knight.errors import JobError
from knight.runner.shipped import job_file, shipped_jobs
from knight.tasks import CENSUS, ESTIMATE, CensusPlan, Task

__all__ = [
    "JOB_KEYS",
    "SWEEP_KEYS",
    "START_SETS",
    "PARAMETER_DEFAULTS",
    "RANDOM_WALK",
    "SWEEP_METHODS",
    "MAX_PROBES",
    "MAX_RATE_NODES",
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
    "CENSUS_PARAMS",
    "ESTIMATE_PARAMS",
    "census_job",
]

JOB_KEYS = {
    "name": "the job's name",
    "description": "what it answers",
    "source": "the document it answers",
    "sweep": "the sweeps ([[sweep]] tables)",
}
SWEEP_KEYS = {
    "boards": "board sizes",
    "starts": "start squares",
    "method": "the method",
    "params": "parameter grid",
    "repeats": "seeds per random tie-break",
    "label": "a short label",
}
START_SETS = ("all", "corners")
_BOARD_PATTERN = re.compile(r"^\s*(\d+)(?:\s*\.\.\s*(\d+))?(?:\s*x\s*(\d+)(?:\s*\.\.\s*(\d+))?)?\s*$")
_BOARD_FORMS = 'N, "NxM", "A..B" or "A..BxC..D"'
#: Default value of each parameter, so that a task's key does not depend on how the job spelled it
#: (a method's from its :class:`~knight.engine.parameters.Parameter` descriptions).
PARAMETER_DEFAULTS: dict[str, dict[str, Any]] = {
    **{name: method.defaults() for name, method in METHODS.items()},
    ESTIMATE: {"probes": 100_000, "seed": 0, "rate_nodes": 0},
}
#: The method whose every task takes a random seed (``repeats`` seeds, 0..repeats-1).
RANDOM_WALK = "random-walk"
#: Every method a sweep may name: the engine's tour builders, the census and the tree-size estimate.
SWEEP_METHODS = (*METHODS, CENSUS, ESTIMATE)
#: The most probes one estimate task may run (about 25 s on 8 x 8, compiled).
MAX_PROBES = 10_000_000
#: The most nodes one estimate task may time the plain search for (about 10 s at 2·10^7 nodes a second).
MAX_RATE_NODES = 200_000_000
#: The largest side a board range may reach ("A..B" with B at most this): 4096 x 4096 is the board limit.
MAX_SIDE = 4096
#: The most boards one sweep may list.
MAX_BOARDS = 100_000
#: The most seeds ``repeats`` may ask for.
MAX_REPEATS = 100_000
#: The most tasks a job may have, counted before it is expanded (``knight run --force`` lifts it).
MAX_TASKS = 10_000_000


@dataclass(frozen=True)
class Sweep:
    """One method over boards and starts, with a grid of parameters."""

    label: str
    method: str
    boards: tuple[Board, ...]
    starts: Any  # "all", "corners", a tuple of squares, or ("sample", K, seed)
    param_grid: tuple[dict[str, Any], ...]
    plans: tuple[CensusPlan, ...] = ()  # a census sweep's censuses, listed when the file is read

    def censuses(self) -> list[CensusPlan]:
        """The censuses of a census sweep, one per board and parameter set (none for other methods)."""
        return list(self.plans)

    def count(self) -> int:
        """How many tasks the sweep has, counted without listing them (an upper bound: another sweep may share some)."""
        if self.method == CENSUS:
            return sum(len(plan.tasks) for plan in self.plans)
        return sum(start_count(board, self.starts) for board in self.boards) * len(self.param_grid)

    def tasks(self) -> Iterator[Task]:
        """Every task of the sweep, in a fixed order: board, then start, then parameters (a census:
        board, parameters, then its units in the order the engine lists them)."""
        if self.method == CENSUS:
            for plan in self.censuses():
                yield from plan.tasks
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


def parse_job(data: dict[str, Any], path: Path, *, force: bool = False) -> Job:
    """Check the TOML ``data`` of the job file ``path`` and build the :class:`Job`; its size is counted
    before each sweep is expanded, and more than :data:`MAX_TASKS` tasks are refused unless ``force``."""
    where = _Where(path, budget=_Budget(None if force else MAX_TASKS))
    _no_unknown_keys(data, JOB_KEYS, where, "")
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        where.fail("name", f"must be a word of letters, digits, '.', '_' or '-', got {name!r}")
    for key in ("description", "source"):
        if not isinstance(data.get(key, ""), str):
            where.fail(key, "must be a string")
    sweeps = data.get("sweep")
    if not isinstance(sweeps, list) or not sweeps or not all(isinstance(s, dict) for s in sweeps):
        where.fail("sweep", "give at least one [[sweep]] table with boards, starts and method")
    parsed = tuple(_parse_sweep(sweep, where.child(f"sweep[{i}]"), i) for i, sweep in enumerate(sweeps))
    return Job(name, path, data.get("description", ""), data.get("source", ""), parsed)


class _Budget:
    """The tasks a job has been counted to have so far, against its bound (None: no bound)."""

    def __init__(self, limit: int | None) -> None:
        self.limit, self.tasks = limit, 0


class _Where:
    """Where in which file a key is, for messages; and the job's task count so far."""

    def __init__(self, path: Path, prefix: str = "", budget: _Budget | None = None) -> None:
        self.path, self.prefix = path, prefix
        self.budget = budget or _Budget(MAX_TASKS)

    def child(self, name: str) -> _Where:
        return _Where(self.path, f"{self.prefix}{name}.", self.budget)

    def count(self, key: str, tasks: int) -> None:
        """Add ``tasks`` to the job's count, and refuse the job (naming ``key``) when it passes the bound."""
        self.budget.tasks += tasks
        limit = self.budget.limit
        if limit is not None and self.budget.tasks > limit:
            self.fail(
                key,
                f"the job has more than {limit:,} tasks (at least {self.budget.tasks:,} counted so far); "
                "make it smaller (fewer boards, starts, parameter values or repeats) or pass --force to knight run",
            )

    def fail(self, key: str, message: str) -> NoReturn:
        raise JobError(f"{self.path}: {self.prefix}{key}: {message}")


def _no_unknown_keys(table: dict[str, Any], known: dict[str, str], where: _Where, what: str) -> None:
    for key in table:
        if key not in known:
            where.fail(key, f"unknown key{what}; valid keys: {', '.join(known)}")


def _parse_sweep(table: dict[str, Any], where: _Where, index: int) -> Sweep:
    _no_unknown_keys(table, SWEEP_KEYS, where, " in a sweep")
    required = ("boards", "method") if table.get("method") == CENSUS else ("boards", "starts", "method")
    for key in required:
        if key not in table:
            where.fail(key, f"missing; every sweep needs boards, starts and method ({', '.join(SWEEP_METHODS)})")
    method = table["method"]
    if method not in SWEEP_METHODS:
        where.fail("method", f"unknown method {method!r}; choose one of: {', '.join(SWEEP_METHODS)}")
    label = table.get("label", f"sweep {index}")
    if not isinstance(label, str):
        where.fail("label", "must be a string")
    boards = _parse_boards(table["boards"], where)
    if method == CENSUS:
        return _parse_census_sweep(table, boards, label, where)
    if method == ESTIMATE:
        return _parse_estimate_sweep(table, boards, label, where)
    starts = _parse_starts(table["starts"], boards, where)
    params = table.get("params", {})
    removed: tuple[Square, ...] = ()
    if isinstance(params, dict) and "removed" in params and "removed" in METHODS[method].parameters:
        params = {name: value for name, value in params.items() if name != "removed"}
        removed = _parse_removed(table["params"]["removed"], boards, starts, where)
    grid = _parse_params(method, params, table.get("repeats"), where, sum(start_count(b, starts) for b in boards))
    if removed:  # one set of squares for every task of the sweep
        grid = tuple({**params, "removed": removed} for params in grid)
    for params in grid:
        if params.get("tie") == "squirrel":
            bad = [b for b in boards if not b.is_square or b.n < 5]
            if bad or any(start_squares(b, starts) != [(0, 0)] for b in boards):
                where.fail(
                    "params.tie",
                    "'squirrel' needs square boards of side 5 or more and starts = [[0, 0]]; "
                    "put it in a sweep of its own",
                )
    sweep = Sweep(label, method, boards, starts, grid)
    where.count("boards", sweep.count())
    return sweep


CENSUS_PARAMS = {
    "closed": "true or false, or a list of both",
    "removed": "a list of [row, col] squares",
    "depth": "moves fixed per unit, a positive integer or a list",
}


def _parse_census_sweep(table: dict[str, Any], boards: tuple[Board, ...], label: str, where: _Where) -> Sweep:
    """A census sweep: check boards, starts and parameters, and list every census's units."""
    _at_most(boards, MAX_CENSUS_SQUARES, "the census counts tours", where)
    if "repeats" in table:
        where.fail("repeats", "does not apply to method 'census', which counts every tour")
    starts = _parse_starts(table.get("starts", "all"), boards, where)
    if not (starts == "all" or isinstance(starts, tuple) and starts[0] != "sample"):
        where.fail("starts", 'a census takes starts = "all" or a list of [row, col]')
    params = table.get("params", {})
    if not isinstance(params, dict):
        where.fail("params", "must be a table such as {closed = [false, true], removed = [[0, 0], [7, 7]]}")
    valid = "; ".join(f"{name}: {what}" for name, what in CENSUS_PARAMS.items())
    for name in params:
        if name not in CENSUS_PARAMS:
            where.fail(f"params.{name}", f"not a parameter of method 'census'; it takes {valid}")
    closed = params.get("closed", False)
    closed = closed if isinstance(closed, list) else [closed]
    depths = params.get("depth", 1)
    depths = depths if isinstance(depths, list) else [depths]
    if not closed or not all(isinstance(value, bool) for value in closed):
        where.fail("params.closed", f"must be {CENSUS_PARAMS['closed']}, got {params['closed']!r}")
    if not depths or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in depths):
        where.fail("params.depth", f"must be {CENSUS_PARAMS['depth']}, got {params['depth']!r}")
    removed_squares = _parse_removed(params.get("removed", []), boards, () if starts == "all" else starts, where)
    if True in closed and starts != "all":
        where.fail(
            "starts",
            'a closed census searches from one square (every closed tour passes through all); use starts = "all"',
        )
    for board in boards:  # counted first: a census's units are listed only when the job's size allows
        for is_closed, depth in itertools.product(dict.fromkeys(closed), dict.fromkeys(depths)):
            spec = CensusSpec(board.n, board.m, is_closed, removed_squares, None if starts == "all" else starts, depth)
            try:
                units = sum(
                    census_size(board, closed=is_closed, removed=removed_squares, start=start, depth=depth)
                    for start in (spec.starts or (None,))
                )
            except InvalidInput as error:
                where.fail("params", f"{board}: {error}")
            where.count("params.depth", units)
    plans = []
    for board in boards:
        for is_closed, depth in itertools.product(dict.fromkeys(closed), dict.fromkeys(depths)):
            try:
                plans.append(
                    CensusPlan.of(
                        CensusSpec(
                            board.n, board.m, is_closed, removed_squares, None if starts == "all" else starts, depth
                        )
                    )
                )
            except InvalidInput as error:
                where.fail("params", f"{board}: {error}")
    grid = tuple(
        {"closed": c, "removed": removed_squares, "depth": d}
        for c, d in itertools.product(dict.fromkeys(closed), dict.fromkeys(depths))
    )
    return Sweep(label, CENSUS, boards, starts, grid, tuple(plans))


ESTIMATE_PARAMS = {
    "probes": f"a number of Knuth's random probes, 1..{MAX_PROBES:,} (default 100,000)",
    "seed": "a non-negative integer, the probes' seed (default 0)",
    "rate_nodes": f"a number of nodes of plain backtracking to time, 0..{MAX_RATE_NODES:,} (default 0: not timed)",
}


def _parse_estimate_sweep(table: dict[str, Any], boards: tuple[Board, ...], label: str, where: _Where) -> Sweep:
    """A tree-size sweep: Knuth's estimator from each start; each parameter a value or a list (a grid)."""
    _at_most(boards, MAX_ESTIMATE_SQUARES, "the tree is estimated", where)
    if "repeats" in table:
        where.fail("repeats", f"does not apply to method {ESTIMATE!r}; give params.seed (a list for several)")
    starts = _parse_starts(table["starts"], boards, where)
    params = table.get("params", {})
    if not isinstance(params, dict):
        where.fail("params", "must be a table such as {probes = 100_000, seed = 0}")
    valid = "; ".join(f"{name}: {what}" for name, what in ESTIMATE_PARAMS.items())
    limits = {"probes": (1, MAX_PROBES), "seed": (0, None), "rate_nodes": (0, MAX_RATE_NODES)}
    choices = {}
    for name, value in params.items():
        if name not in ESTIMATE_PARAMS:
            where.fail(f"params.{name}", f"not a parameter of method {ESTIMATE!r}; it takes {valid}")
        values = value if isinstance(value, list) else [value]
        low, high = limits[name]
        if not values or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= low and (high is None or v <= high) for v in values
        ):
            where.fail(f"params.{name}", f"must be {ESTIMATE_PARAMS[name].split(' (')[0]}, got {value!r}")
        choices[name] = values
    names = list(choices)
    _grid_fits(
        math.prod(len(values) for values in choices.values()), sum(start_count(b, starts) for b in boards), where
    )
    grid = tuple(
        {**PARAMETER_DEFAULTS[ESTIMATE], **dict(zip(names, combination))}
        for combination in itertools.product(*(choices[name] for name in names))
    )
    sweep = Sweep(label, ESTIMATE, boards, starts, grid)
    where.count("boards", sweep.count())
    return sweep


def _at_most(boards: tuple[Board, ...], squares: int, what: str, where: _Where) -> None:
    """Refuse the first board of more than ``squares`` squares (``what`` is done on boards of at most that)."""
    for board in boards:
        if board.size > squares:
            where.fail("boards", f"{what} on boards of at most {squares} squares; {board} has {board.size}")


def _parse_removed(value: Any, boards: tuple[Board, ...], starts: Any, where: _Where) -> tuple[Square, ...]:
    """``params.removed``: one set of squares (not a grid axis), on every board, none of them a start."""
    if not isinstance(value, list) or not all(
        isinstance(item, list) and len(item) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in item)
        for item in value
    ):
        where.fail("params.removed", f"must be {CENSUS_PARAMS['removed']} (one set of squares), got {value!r}")
    removed = tuple(sorted({(row, col) for row, col in value}))
    for board in boards:
        for square in removed:
            if not board.contains(square):
                where.fail(
                    "params.removed",
                    f"square {list(square)} is off the {board} board: row must be "
                    f"0..{board.n - 1} and column 0..{board.m - 1}",
                )
        for square in start_squares(board, starts):
            if square in removed:
                where.fail("starts", f"square {list(square)} is removed (params.removed); start elsewhere")
    return removed


def _parse_boards(value: Any, where: _Where) -> tuple[Board, ...]:
    """The boards a sweep names, each once; every range is checked and counted before a board is listed."""
    items = value if isinstance(value, list) else [value]
    if not items:
        where.fail("boards", f"give at least one board: {_BOARD_FORMS}")
    ranges: list[tuple[Any, range, range]] = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, str)):
            where.fail("boards", f"{item!r} is not a board; write {_BOARD_FORMS}")
        match = _BOARD_PATTERN.match(str(item)) if len(str(item)) <= 100 else None
        if not match:
            where.fail("boards", f"{item!r} is not a board; write {_BOARD_FORMS}")
        low, high, low_m, high_m = (None if text is None else int(text) for text in match.groups())
        rows, cols = _sides(item, low, high, where), _sides(item, low_m, high_m, where)
        if not rows or (low_m is not None and not cols):
            where.fail("boards", f"{item!r} is an empty range; write A..B with A <= B")
        ranges.append((item, rows, cols))
    listed = sum(len(rows) * (len(cols) if len(cols) else 1) for _, rows, cols in ranges)
    if listed > MAX_BOARDS:
        where.fail("boards", f"{listed:,} boards; a sweep takes at most {MAX_BOARDS:,}: split it or narrow the ranges")
    boards: dict[Board, None] = {}
    for item, rows, cols in ranges:
        for n, m in ((n, m) for n in rows for m in cols) if len(cols) else ((n, n) for n in rows):
            try:
                boards[Board(n, m)] = None
            except InvalidInput as error:
                where.fail("boards", f"{item!r}: {error}")
    return tuple(boards)


def _sides(item: Any, low: int | None, high: int | None, where: _Where) -> range:
    """The sides ``low..high`` of a board item (one side when ``high`` is None; none when ``low`` is None):
    a range may reach :data:`MAX_SIDE`, one side :data:`~knight.engine.board.MAX_SQUARES` (a 1 x N board)."""
    if low is None:
        return range(0)
    if high is None:
        if low > MAX_SQUARES:
            where.fail("boards", f"{item!r}: a side of {low:,} squares is past the limit of {MAX_SQUARES:,} squares")
        return range(low, low + 1)
    if high > MAX_SIDE:
        where.fail("boards", f"{item!r}: a range of sides ends at most at {MAX_SIDE} (4096 x 4096 is the board limit)")
    return range(low, high + 1)


def _parse_starts(value: Any, boards: tuple[Board, ...], where: _Where) -> Any:
    valid = 'write "all", "corners", a list of [row, col] or {sample = K, seed = S}'
    if isinstance(value, str):
        if value not in START_SETS:
            where.fail("starts", f"unknown start set {value!r}; {valid}")
        return value
    if isinstance(value, dict):
        if set(value) - {"sample", "seed"} or "sample" not in value:
            where.fail("starts", f"a sample is {{sample = K, seed = S}}; {valid}")
        count, seed = value["sample"], value.get("seed", 0)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            where.fail("starts.sample", f"must be a positive number of squares, got {count!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            where.fail("starts.seed", f"must be an integer, got {seed!r}")
        return ("sample", count, seed)
    if isinstance(value, list) and value:
        squares = []
        for item in value:
            if not (
                isinstance(item, list)
                and len(item) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in item)
            ):
                where.fail("starts", f"{item!r} is not a square; {valid}")
            squares.append((item[0], item[1]))
        for board in boards:
            for square in squares:
                if not board.contains(square):
                    where.fail(
                        "starts",
                        f"square {list(square)} is off the {board} board: row must be "
                        f"0..{board.n - 1} and column 0..{board.m - 1}",
                    )
        return tuple(dict.fromkeys(squares))
    where.fail("starts", valid)


def _seeded(method: str, params: dict[str, Any]) -> bool:
    """True for the parameter sets that take a random seed: the random walk and random ties."""
    return method == RANDOM_WALK or params.get("tie") == "random"


def _grid_fits(grid: int, starts: int, where: _Where) -> None:
    """Refuse a parameter grid of ``grid`` sets, over ``starts`` boards' start squares, past the job's bound."""
    limit = where.budget.limit
    if limit is not None and grid * starts + where.budget.tasks > limit:
        where.fail(
            "params" if grid > 1 else "boards",
            f"{grid:,} parameter set{'s' if grid != 1 else ''} over {starts:,} start squares make more than {limit:,} "
            "tasks; "
            "make the sweep smaller or pass --force to knight run",
        )


def _parse_params(method: str, value: Any, repeats: Any, where: _Where, starts: int) -> tuple[dict[str, Any], ...]:
    """The parameter grid of a sweep over ``starts`` start squares in all, counted before it is built."""
    if not isinstance(value, dict):
        where.fail("params", 'must be a table such as {tie = ["first", "random"]}')
    try:
        check_parameters(method, {name: None for name in value if name != "seed"})
    except InvalidInput as error:
        where.fail("params", str(error))
    accepted = METHODS[method].parameters
    if "seed" in value and "seed" not in accepted:
        where.fail("params.seed", f"parameter 'seed' does not apply to method {method!r}")
    choices = {name: (v if isinstance(v, list) else [v]) for name, v in value.items()}
    for name, values in choices.items():
        if not values:
            where.fail(f"params.{name}", "an empty list; give at least one value")
        for v in values:
            if (problem := accepted[name].problem(v)) is not None:
                where.fail(f"params.{name}", problem)
    if repeats is not None:
        if isinstance(repeats, bool) or not isinstance(repeats, int) or not 1 <= repeats <= MAX_REPEATS:
            where.fail("repeats", f"must be a number of seeds 1..{MAX_REPEATS:,}, got {repeats!r}")
        if method != RANDOM_WALK and "random" not in choices.get("tie", []):
            where.fail(
                "repeats",
                f"applies only to the tie-break 'random' and to method '{RANDOM_WALK}'; add tie = \"random\" to params",
            )
        if "seed" in choices:
            where.fail("repeats", "give either repeats or params.seed, not both")
    grid: list[dict[str, Any]] = []
    seeds = choices.pop("seed", None)
    names = list(choices)
    per_set = len(seeds) if seeds is not None else (repeats or 1)  # at most, for the seeded sets
    _grid_fits(math.prod(len(values) for values in choices.values()) * per_set, starts, where)
    for combination in itertools.product(*(choices[name] for name in names)):
        params = {**METHODS[method].defaults(), **dict(zip(names, combination))}
        if _seeded(method, params):
            for seed in seeds if seeds is not None else range(repeats or 1):
                grid.append({**params, "seed": seed})
        else:
            grid.append(params)
    if seeds is not None and not any(_seeded(method, p) for p in grid):
        where.fail("params.seed", "applies only to the tie-break 'random'; add tie = \"random\"")
    unique = {json.dumps(params, sort_keys=True): params for params in grid}
    return tuple(unique.values())


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
    params = {"closed": spec.closed, "removed": spec.removed, "depth": spec.depth}
    sweep = Sweep(
        name, CENSUS, (spec.board,), "all" if spec.starts is None else spec.starts, (params,), (CensusPlan.of(spec),)
    )
    return Job(name, Path(f"<knight census {name}>"), f"knight census: {name}", "", (sweep,))
