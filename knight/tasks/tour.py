"""The tour kind: a task that builds one tour with an engine method (every method of
:data:`knight.engine.METHODS`), and its outcome, the tour as the store keeps it (table ``tours``)."""

from __future__ import annotations

import itertools
import json
import logging
import math
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from knight.engine import Board, Tour
from knight.engine.board import Square, size_text
from knight.engine.codec import decode_path, encode_path, encoded_size
from knight.engine.parameters import Parameter, Params, ParamValue
from knight.errors import InvalidInput, MissingData, PathNotKept
from knight.tasks.kind import TaskShape, kinds
from knight.tasks.shown import Reader, Shown, format_params, job_names
from knight.tasks.sweep import Asked, Grid, Sweep, Where, removed_off_starts, start_squares, starts_total
from knight.tasks.task import InvalidResult, removed_squares

if TYPE_CHECKING:
    from knight.tasks.task import Task

__all__ = [
    "DRAWN_UP_TO_SQUARES",
    "KIND",
    "PATH_KEPT_UP_TO_SQUARES",
    "RANDOM_WALK",
    "TourKind",
    "TourOutcome",
    "TourRecord",
    "records",
    "stored_tour",
    "summary",
    "validate_tour",
    "warm_method",
]

#: Tours on boards of more squares than this are stored without their path (``moves`` NULL).
PATH_KEPT_UP_TO_SQUARES = 100_000
#: Paths of tours on boards up to this many squares are read (to be drawn); larger ones are
#: counted from their stored keys and flags only.
DRAWN_UP_TO_SQUARES = 64 * 64
#: The method whose every task takes a random seed (``repeats`` seeds, 0..repeats-1).
RANDOM_WALK = "random-walk"

log = logging.getLogger("knight.runner.work")


@dataclass(frozen=True)
class TourOutcome:
    """A built tour as the store keeps it: its path encoded (:mod:`knight.engine.codec`; None on boards over
    :data:`PATH_KEPT_UP_TO_SQUARES` squares), its flags, the search's work and the three deduplication keys."""

    moves: bytes | None
    length: int
    full: bool
    closed: bool
    success: bool
    work: int
    work_unit: str
    budget_exhausted: bool
    key_directed: str
    key_undirected: str
    key_symmetric: str
    removed: tuple[Square, ...] = ()  # squares taken off the board (a full tour covers the others)

    @classmethod
    def of(cls, tour: Tour) -> TourOutcome:
        """The outcome that keeps ``tour``: its path encoded unless its board is over the limit."""
        kept = tour.board.size <= PATH_KEPT_UP_TO_SQUARES
        return cls(
            encode_path(tour.path, tour.board.m) if kept else None,
            tour.length,
            tour.full,
            tour.closed,
            tour.success,
            tour.work,
            tour.work_unit,
            tour.budget_exhausted,
            tour.key_directed,
            tour.key_undirected,
            tour.key_symmetric,
            tour.removed,
        )


class TourKind:
    """Build one tour (see the module's docstring)."""

    name = "tour"
    table = "tours"
    columns = (
        "length INTEGER NOT NULL",
        "full INTEGER NOT NULL",
        "closed INTEGER NOT NULL",
        "success INTEGER NOT NULL",
        "work INTEGER NOT NULL",
        "work_unit TEXT NOT NULL",
        "budget_exhausted INTEGER NOT NULL",
        "key_directed TEXT NOT NULL",
        "key_undirected TEXT NOT NULL",
        "key_symmetric TEXT NOT NULL",
        "moves BLOB",
    )
    checkpoints = False
    sealed_when_stored = False

    def run(self, task: Task) -> TourOutcome:
        from knight.engine.methods import find_tour  # lazily: a store that only reads needs no method

        tour = find_tour(task.board, task.start, task.method, compiled=True, **task.params_dict)
        log.debug("task %s (%s): %d squares%s", task.key, task.describe(), tour.length, ", full" if tour.full else "")
        outcome = TourOutcome.of(tour)
        problem = validate_tour(outcome, task.n, task.m, task.method, tour)  # as the store will keep it
        if problem:
            raise InvalidResult(problem)
        return outcome

    def problem(self, outcome: TourOutcome, task: TaskShape) -> str:
        if not 0 < outcome.length <= task.n * task.m:
            return "invalid tour: its length does not fit its board"
        if outcome.moves is None:
            if task.n * task.m <= PATH_KEPT_UP_TO_SQUARES:
                return "invalid tour: its path is missing"
        elif len(outcome.moves) != encoded_size(outcome.length):
            return "invalid tour: its path does not match its length"
        if not all((outcome.key_directed, outcome.key_undirected, outcome.key_symmetric)):
            return "invalid tour: a deduplication key is missing"
        return ""

    def row(self, outcome: TourOutcome) -> tuple[Any, ...]:
        return (
            int(outcome.length),
            int(outcome.full),
            int(outcome.closed),
            int(outcome.success),
            int(outcome.work),
            str(outcome.work_unit),
            int(outcome.budget_exhausted),
            str(outcome.key_directed),
            str(outcome.key_undirected),
            str(outcome.key_symmetric),
            None if outcome.moves is None else bytes(outcome.moves),
        )

    def derived(self, key: str, outcome: TourOutcome) -> list[tuple[str, tuple[Any, ...]]]:
        return []

    def warm(self) -> None:
        """Every tour method's kernels: see :func:`warm_method` (the runner warms the methods a run has)."""

    def describe(self, task: Task) -> str:
        params = ", ".join(f"{name}={value}" for name, value in task.params)
        return f"{task.method}({params}) {size_text(task.n, task.m)} from {task.start}"

    def results(self, reader: Reader, job: str | None, counts_only: bool) -> Shown:
        """Its summary: per job, board, method and parameters, the tours found and how many differ (none with
        ``counts_only``: a tour is no count)."""
        rows = [] if counts_only else summary(reader, job)
        names = tuple(_HEADINGS)
        return Shown(
            "Sweep results: full tours, the starts that gave one, and the distinct full tours "
            "(directed, up to reversal, up to reversal and symmetry)",
            tuple(_HEADINGS.values()),
            tuple(tuple(_cells(row).values()) for row in rows),
            key="tours",
            names=names,
            text=("job", "board", "method", "params"),
            dropped=("pending", "tasks", "done", "starts", "failed", "closed", "distinct_undirected"),
            json=tuple(_json(row) for row in rows),
            csv=tuple(tuple(_cells(row, grouped=False).values()) for row in rows),
        )

    def sweep_model(self, method: str) -> type[Any]:
        """The model of a sweep of the tour method ``method``, its ``params`` made from the engine's descriptions."""
        return _tour_sweep(method)

    def sweep(self, asked: Asked, where: Where) -> Sweep:
        """Every board, start and set of the parameter grid (a seeded set once a seed), counted before it is listed."""
        table, boards, starts = asked.table, asked.boards, asked.starts
        params = {name: getattr(table.params, name) for name in asked.written}  # in the file's order
        removed = removed_off_starts(params.pop("removed", []), boards, starts, where)
        grid = _grid(table.method, params, table.repeats, starts_total(boards, starts), where)
        if removed:  # one set of squares for every task of the sweep
            grid = tuple({**params, "removed": removed} for params in grid)
        if any(params.get("tie") == "squirrel" for params in grid) and any(
            not b.is_square or b.n < 5 or start_squares(b, starts) != [(0, 0)] for b in boards
        ):
            where.fail(
                "params.tie",
                "'squirrel' needs square boards of side 5 or more and starts = [[0, 0]]; put it in a sweep of its own",
            )
        built = Sweep(asked.label, table.method, boards, starts, grid, Grid(table.method, boards, starts, grid))
        where.count("boards", built.count())
        return built


def _grid(
    method: str, choices: dict[str, list[ParamValue]], repeats: int | None, starts: int, where: Where
) -> tuple[Params, ...]:
    """The parameter grid of a tour method's sweep over ``starts`` start squares in all, counted before it is built."""
    from knight.engine.methods import METHODS

    seeded = METHODS[method].seeded
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
        if seeded(params):
            grid.extend({**params, "seed": seed} for seed in (seeds if seeds is not None else range(repeats or 1)))
        else:
            grid.append(params)
    if seeds is not None and not any(seeded(params) for params in grid):
        where.fail("params.seed", "applies only to the tie-break 'random'; add tie = \"random\"")
    return tuple({json.dumps(params, sort_keys=True): params for params in grid}.values())


@cache
def _tour_sweep(method: str) -> type[Any]:
    """The model of a sweep of ``method`` (pydantic, built the first time a job file names it)."""
    from pydantic import create_model

    from knight.engine.methods import METHODS
    from knight.tasks.params import SweepTable, Table

    # pydantic's field definitions, (type, default) each: create_model takes them as Any (a type form)
    fields: dict[str, Any] = {name: (_tour_parameter(p), None) for name, p in METHODS[method].parameters.items()}
    params = create_model(f"params of {method}", __base__=Table, **fields)
    return create_model(f"sweep of {method}", __base__=SweepTable, params=(params, params()))


def _tour_parameter(parameter: Parameter) -> Any:
    """The type of one parameter of a tour method: a grid axis of the values its description accepts
    (read at each check: a choice registered later is valid), or one set of squares."""
    from typing import Annotated

    from pydantic import AfterValidator

    from knight.tasks.params import Axis, Removed, problem

    if parameter.kind == "squares":
        return Removed

    def check(value: Any) -> Any:
        if (found := parameter.problem(value)) is not None:
            raise problem(found)
        return value

    return Axis[Annotated[Any, AfterValidator(check)]]


@dataclass(frozen=True)
class TourRecord:
    """One tour task's result as stored: the method, its parameters, board and start, and the tour it made."""

    method: str
    params: Mapping[str, Any]  # the task's parameters, as the store's JSON gives them back
    n: int
    m: int
    start: Square
    length: int
    full: bool
    closed: bool
    success: bool
    work: int
    work_unit: str
    budget_exhausted: bool
    key_directed: str
    key_undirected: str
    key_symmetric: str
    moves: bytes | None = None  # the path as knight.engine.codec encodes it; None when not loaded or not kept
    jobs: tuple[str, ...] = field(default=())

    @property
    def board(self) -> Board:
        return Board(self.n, self.m)

    def tour(self) -> Tour:
        """The stored tour, decoded, rebuilt and validated again; :class:`MissingData` when its path
        was not loaded (or not kept, on a board too large)."""
        if self.moves is None:
            raise MissingData(
                f"the path of {self.method} on {size_text(self.n, self.m)} from {self.start} was not loaded"
            )
        return Tour(
            board=self.board,
            path=decode_path(self.moves, self.n, self.m),
            method=self.method,
            params=self.params,
            work=self.work,
            work_unit=self.work_unit,
            budget_exhausted=self.budget_exhausted,
            removed=removed_squares(self.params),
        )

    def matches(self, method: str | None, n: int | None, m: int | None, params: Mapping[str, Any]) -> bool:
        return (
            (method is None or self.method == method)
            and (n is None or self.n == n)
            and (m is None or self.m == m)
            and all(self.params.get(k) == v for k, v in params.items())
        )


_RECORDS = """
SELECT t.method, t.params, t.n, t.m, t.start_row, t.start_col,
       o.length, o.full, o.closed, o.success, o.work, o.work_unit, o.budget_exhausted,
       o.key_directed, o.key_undirected, o.key_symmetric,
       CASE WHEN t.n * t.m <= :drawn THEN o.moves END,
       (SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = t.key)
FROM tasks t JOIN tours o ON o.task_key = t.key
WHERE :job IS NULL OR EXISTS (SELECT 1 FROM job_tasks j WHERE j.task_key = t.key AND j.job = :job)
"""


def records(db: sqlite3.Connection, job: str | None, drawn_up_to: int = DRAWN_UP_TO_SQUARES) -> list[TourRecord]:
    """Every stored tour of ``job`` (every job for None), its path only on boards of at most ``drawn_up_to``
    squares."""
    found = []
    # _RECORDS gives the task, then the outcome's columns in TourRecord's own field order, its path, its jobs
    for method, params, n, m, row, col, length, full, closed, success, *rest in db.execute(
        _RECORDS, {"drawn": drawn_up_to, "job": job}
    ):
        work, unit, exhausted, directed, undirected, symmetric, moves, jobs = rest
        flags = (bool(full), bool(closed), bool(success), work, unit, bool(exhausted))
        task = (method, json.loads(params), n, m, (row, col), length)
        found.append(TourRecord(*task, *flags, directed, undirected, symmetric, moves, job_names(jobs)))
    return found


def stored_tour(db: sqlite3.Connection, task_key: str) -> Tour:
    """The stored tour of a done task, decoded and rebuilt; KeyError when the store has none."""
    row = db.execute(
        "SELECT t.n, t.m, t.method, t.params, r.moves, r.work, r.work_unit, r.budget_exhausted "
        "FROM tours r JOIN tasks t ON t.key = r.task_key WHERE r.task_key = ?",
        (task_key,),
    ).fetchone()
    if row is None:
        raise KeyError(task_key)
    n, m, method, params, moves, work, unit, exhausted = row
    if moves is None:
        raise PathNotKept(
            f"the path of task {task_key} on {size_text(n, m)} was not kept: boards over "
            f"{PATH_KEPT_UP_TO_SQUARES:,} squares keep only a tour's flags, counts and keys"
        )
    stored = json.loads(params)
    return Tour(
        board=Board(n, m),
        path=decode_path(moves, n, m),
        method=method,
        params=stored,
        work=work,
        work_unit=unit,
        budget_exhausted=bool(exhausted),
        removed=removed_squares(stored),
    )


_SUMMARY = """
SELECT j.job, t.n, t.m, t.method, t.group_params,
       COUNT(*) AS tasks,
       COUNT(DISTINCT t.start_row * t.m + t.start_col) AS starts,
       COUNT(DISTINCT t.params) AS variants,
       COALESCE(SUM(r.status = 'done'), 0) AS done,
       COALESCE(SUM(r.status = 'failed'), 0) AS failed,
       COUNT(*) - COUNT(r.task_key) AS pending,
       COALESCE(SUM(o.full), 0) AS full,
       COALESCE(SUM(o.closed), 0) AS closed,
       COUNT(DISTINCT CASE WHEN o.full THEN t.start_row * t.m + t.start_col END) AS starts_full,
       COUNT(DISTINCT CASE WHEN o.full THEN o.key_directed END) AS distinct_directed,
       COUNT(DISTINCT CASE WHEN o.full THEN o.key_undirected END) AS distinct_undirected,
       COUNT(DISTINCT CASE WHEN o.full THEN o.key_symmetric END) AS distinct_symmetric
FROM job_tasks j
JOIN tasks t ON t.key = j.task_key
LEFT JOIN results r ON r.task_key = t.key
LEFT JOIN tours o ON o.task_key = t.key AND r.status = 'done'
WHERE (? IS NULL OR j.job = ?) AND t.method NOT IN (SELECT value FROM json_each(?))
GROUP BY j.job, t.n, t.m, t.method, t.group_params
ORDER BY j.job, t.n * t.m, t.n, t.method, t.group_params
"""


# rows by column name, as SQLite gives them or as <store>-known keeps them (JSON read back)
def summary(reader: Reader, job: str | None = None) -> list[dict[str, Any]]:
    """Per job, board, method and parameters: tasks, outcomes and distinct tours (:meth:`Store.summary`)."""
    # The whole store's summary is kept beside it while its files are unchanged (knight.store.known):
    # its six distinct counts over every tour take a good part of `knight results`' time.
    facts = reader.facts()
    known = facts.get("summary")  # as noted: the rows below, for the whole store
    if known is not None:
        return [row for row in known if job is None or row["job"] == job]
    # tours only: not every other kind's tasks, those of a kind not loaded here among them
    others = json.dumps([*(kind.name for kind in kinds() if kind.name != "tour"), *reader.stored_kinds()])
    cursor = reader.db.execute(_SUMMARY, (job, job, others))
    names = [column[0] for column in cursor.description]
    rows = []
    for values in cursor:
        row = dict(zip(names, values))
        row["params"] = json.loads(row.pop("group_params"))
        rows.append(row)
    if job is None:
        facts.note(summary=rows)
    return rows


#: The summary's columns, with their headings in the table.
_HEADINGS = {
    "job": "job",
    "board": "board",
    "method": "method",
    "params": "parameters",
    "starts": "starts",
    "tasks": "tasks",
    "done": "done",
    "failed": "failed",
    "pending": "pending",
    "full": "full",
    "closed": "closed",
    "starts_full": "starts full",
    "distinct_directed": "distinct",
    "distinct_undirected": "≠ reversal",
    "distinct_symmetric": "≠ symmetry",
}
_COUNTS = tuple(_HEADINGS)[4:]


def _params(row: Mapping[str, Any]) -> Params:  # a summary row, by column name
    """A row's parameters, random seeds counted together (as ``seeds``)."""
    params: Params = row["params"]
    if row["variants"] > 1 and (params.get("tie") == "random" or row["method"] == RANDOM_WALK):
        params = {**params, "seeds": row["variants"]}
    return params


def _cells(row: Mapping[str, Any], *, grouped: bool = True) -> dict[str, str]:  # a summary row by column name
    """A summary row as text under its columns (parameters' numbers grouped unless not ``grouped``: CSV)."""
    return {
        "job": row["job"],
        "board": size_text(row["n"], row["m"]),
        "method": row["method"],
        "params": format_params(_params(row), grouped=grouped),
        **{key: str(row[key]) for key in _COUNTS},
    }


class TourJson(TypedDict):
    """A summary row in ``knight results --json``: the board as ``[n, m]``, then its counts (:data:`_COUNTS`)."""

    job: str
    board: list[int]
    method: str
    params: Params


def _json(row: Mapping[str, Any]) -> TourJson:  # a summary row, by column name
    """A summary row in ``knight results --json``: the board as ``[n, m]``, then its numbers."""
    head = TourJson(job=row["job"], board=[row["n"], row["m"]], method=row["method"], params=_params(row))
    return {**head, **{key: row[key] for key in _COUNTS}}  # type: ignore[typeddict-item]


def warm_method(method: str) -> None:
    """Run the tour method ``method`` once on a small board, so that its kernels are loaded (or compiled)."""
    from knight.engine.methods import find_tour

    # 6 x 6 is small and every method takes it (Parberry's smallest board); a search needs only a taste.
    find_tour(Board(6, 6), (0, 0), method, compiled=True, **({"budget": 1000} if method == "backtrack" else {}))


def validate_tour(outcome: TourOutcome, n: int, m: int, method: str, built: Tour | None = None) -> str:
    """Check a tour outcome as it will be stored; '' when sound, else what is wrong.

    Without ``built``, the tour is decoded from ``moves`` and rebuilt as a :class:`Tour` (so validated: on the
    board, no square twice, knight moves), and must be as long, full and closed as the outcome says, and the path
    its directed key names. With ``built``, the tour the outcome was made from (already validated when it was
    built, as in a worker), ``moves`` must decode to exactly its squares. An outcome without ``moves`` (a board too
    large to keep the path) is checked for completeness only: its tour was validated when built.
    """
    if outcome.moves is None:
        return ""
    try:
        path = decode_path(outcome.moves, n, m)
        tour = (
            built if built is not None else Tour(board=Board(n, m), path=path, method=method, removed=outcome.removed)
        )
    except (InvalidInput, ValueError) as error:
        return f"invalid tour: {error}"
    if built is not None and not np.array_equal(path, built.path):
        return "invalid tour: its stored form does not decode to its squares"
    if (tour.length, tour.full, tour.closed) != (outcome.length, outcome.full, outcome.closed):
        return "invalid tour: its length, fullness or closedness does not match its squares"
    if tour.key_directed != outcome.key_directed:
        return "invalid tour: its squares are not the tour its key names"
    return ""


KIND = TourKind()
