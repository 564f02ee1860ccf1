"""The census-unit kind: a task that counts the directed tours of one census unit (a start and its first moves;
:class:`~knight.engine.census.CensusUnit`), and its outcome (table ``counts``; a closed unit's share of
Burnside's sum also in ``census_shares``). A census is its units' counts put together by the store."""

from __future__ import annotations

import itertools
import json
import logging
import math
import sqlite3
import time
from dataclasses import dataclass
from functools import cache
from typing import Any, TypedDict

from knight.engine import Board
from knight.engine.board import Square, size_text
from knight.engine.census import MAX_CENSUS_SQUARES, Census, CensusSpec, CensusUnit, assemble, census_size, count_unit
from knight.engine.census import UnitCount as Counted
from knight.engine.parameters import Params
from knight.errors import InvalidInput
from knight.tasks.kind import TaskShape
from knight.tasks.shown import Cell, Reader, Shown, job_names, squares_text, text, words
from knight.tasks.sweep import Asked, Listed, Starts, Sweep, Where, at_most, removed_off_starts
from knight.tasks.task import CENSUS, Task

__all__ = ["KIND", "CensusKind", "CensusPlan", "CensusRecord", "UnitCount", "records", "sweep_of", "unit_shares"]

log = logging.getLogger("knight.runner.work")


@dataclass(frozen=True)
class UnitCount:
    """What one census unit counted: ``tours`` directed tours in ``nodes`` squares placed, in ``seconds`` (timed by
    the worker); for a closed unit whose tours were listed, its ``share`` of Burnside's sum (None otherwise)."""

    tours: int
    nodes: int
    share: int | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class CensusPlan:
    """One census a sweep asks for (its :class:`~knight.engine.census.CensusSpec`), with the tasks of its units."""

    spec: CensusSpec
    tasks: tuple[Task, ...]

    @property
    def keys(self) -> list[str]:
        """The keys of its unit tasks."""
        return [task.key for task in self.tasks]

    @classmethod
    def of(cls, spec: CensusSpec) -> CensusPlan:
        """The plan of a census: one task per unit, as the engine lists them."""
        return cls(spec, tuple(Task.from_unit(unit) for unit in spec.units()))


class CensusKind:
    """Count one census unit's tours (see the module's docstring)."""

    name = CENSUS
    table = "counts"
    columns = (
        "tours INTEGER NOT NULL CHECK (tours >= 0)",
        "nodes INTEGER NOT NULL CHECK (nodes >= 0)",
        "seconds REAL NOT NULL CHECK (seconds >= 0)",
    )
    checkpoints = False
    sealed_when_stored = False

    def run(self, task: Task) -> UnitCount:
        self.warm()  # a kernel compiled just in time is compiled before the clock starts
        began = time.perf_counter()
        counted = count_unit(task.unit, compiled=True, share=True)  # a closed unit's share of Burnside's sum too
        seconds = time.perf_counter() - began
        log.debug("task %s (%s): %d tours, %d nodes", task.key, task.describe(), counted.tours, counted.nodes)
        return UnitCount(counted.tours, counted.nodes, counted.share, seconds)

    def problem(self, outcome: UnitCount, task: TaskShape) -> str:
        if outcome.tours is None or outcome.tours < 0 or outcome.nodes < 1:
            return "invalid count: a census unit counts zero or more tours in at least one node"
        if outcome.share is not None and not outcome.tours <= outcome.share <= 8 * outcome.tours:
            return "invalid count: the identity keeps each cycle, and no more than the 8 symmetries in all do"
        if not (math.isfinite(outcome.seconds) and outcome.seconds >= 0):
            return "invalid count: its time is not a number of seconds"
        return ""

    def row(self, outcome: UnitCount) -> tuple[Any, ...]:
        return (int(outcome.tours), int(outcome.nodes), float(outcome.seconds))

    def derived(self, key: str, outcome: UnitCount) -> list[tuple[str, tuple[Any, ...]]]:
        """A closed unit's share of Burnside's sum, in ``census_shares`` (the classes are counted from them)."""
        return [] if outcome.share is None else [("census_shares", (key, int(outcome.share)))]

    def warm(self) -> None:
        _warm()

    def describe(self, task: Task) -> str:
        return f"census {task.unit.key}"

    def results(self, reader: Reader, job: str | None, counts_only: bool) -> Shown:
        """Its censuses, each once all its units are done (and how far each is until then)."""
        censuses = records(reader.db, job)
        values = tuple(_values(census) for census in censuses)
        return Shown(
            "Censuses: every tour counted (directed; closed tours from every square), once all units are done",
            ("jobs", "board", "kind", "removed", "starts", "depth", "units", "done", "failed", "directed tours")
            + ("≠ reversal", "nodes"),
            tuple(tuple(text(value) for value in row) for row in values),
            key="censuses",
            names=("jobs", "board", "kind", "removed", "starts", "depth", "units", "done", "failed", "directed")
            + ("undirected", "nodes"),
            text=("jobs", "board", "kind", "removed", "starts"),
            dropped=("done", "starts", "depth", "failed", "units", "undirected"),
            json=tuple(census.to_json() for census in censuses),
            csv=values,
            counts=True,
        )

    def sweep_model(self, method: str) -> type[Any]:
        return _sweep_model()

    def sweep(self, asked: Asked, where: Where) -> Sweep:
        """Every census of the sweep (board, closed, depth): its units counted against the job's bound, then
        listed."""
        params, boards, starts = asked.table.params, asked.boards, asked.starts
        at_most(boards, MAX_CENSUS_SQUARES, "the census counts tours", where)
        removed = removed_off_starts(params.removed, boards, () if starts == "all" else starts, where)
        if True in params.closed and starts != "all":
            where.fail(
                "starts",
                'a closed census searches from one square (every closed tour passes through all); use starts = "all"',
            )
        kinds = list(itertools.product(dict.fromkeys(params.closed), dict.fromkeys(params.depth)))
        chosen = None if starts == "all" else starts
        specs = [CensusSpec(b.n, b.m, closed, removed, chosen, depth) for b in boards for closed, depth in kinds]  # type: ignore[arg-type]
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
        return sweep_of(asked.label, boards, starts, grid, tuple(plans))


class CensusJson(TypedDict):
    """A census in ``knight results --json``: the board as ``[n, m]``, ``starts`` null for every start; its depth,
    units done and failed, and its totals once complete (else null)."""

    jobs: list[str]
    board: list[int]
    kind: str
    removed: list[list[int]]
    starts: list[list[int]] | None
    depth: int
    units: int
    done: int
    failed: int
    directed: int | None
    undirected: int | None
    nodes: int


@dataclass(frozen=True)
class CensusRecord:
    """One census as stored: every directed open (or closed) tour of a board, counted per start square.

    ``spec`` defines it (board, open or closed, removed squares, start set, depth); ``census`` is
    the :class:`~knight.engine.census.Census` put together from its units' counts once every unit
    is done (None until then). ``counts`` maps each square counted to its number of directed tours
    starting there (empty until complete; for a start set, the squares the chosen starts stand for
    by symmetry). ``total`` is their sum; ``undirected`` the tours up to reversal (for closed tours:
    as cycles, up to start square and direction); ``symmetric`` the closed tours up to the board's
    symmetries too, where the runner has listed them (None for open tours). ``nodes`` are the
    search's nodes over the units done so far, and ``seconds`` the time their counts took, added up
    (one core's time: the units may have run side by side).
    """

    spec: CensusSpec
    units_total: int
    units_done: int
    units_failed: int
    nodes: int
    jobs: tuple[str, ...]
    census: Census | None
    symmetric: int | None = None
    census_id: int = 0
    seconds: float = 0.0

    @property
    def n(self) -> int:
        return self.spec.n

    @property
    def m(self) -> int:
        return self.spec.m

    @property
    def board(self) -> Board:
        return self.spec.board

    @property
    def closed(self) -> bool:
        return self.spec.closed

    @property
    def removed(self) -> tuple[Square, ...]:
        return self.spec.removed

    @property
    def starts(self) -> tuple[Square, ...] | None:
        """The start squares counted (None: every start)."""
        return self.spec.starts

    @property
    def depth(self) -> int:
        return self.spec.depth

    @property
    def complete(self) -> bool:
        """True when every unit has its count."""
        return self.census is not None

    @property
    def counts(self) -> dict[Square, int]:
        """Directed tours from each square counted (empty until complete)."""
        if self.census is None:
            return {}
        counts = self.census.counts
        return {
            (row, col): int(counts[row, col]) for row in range(self.n) for col in range(self.m) if counts[row, col] >= 0
        }

    @property
    def total(self) -> int | None:
        return None if self.census is None else self.census.total

    @property
    def undirected(self) -> int | None:
        return None if self.census is None else self.census.undirected

    def to_json(self) -> CensusJson:
        """The census in ``knight results --json``: the board as ``[n, m]``, ``starts`` null for every start, its
        depth, units done and failed, and its totals once complete (else null)."""
        spec = self.spec
        return {
            "jobs": list(self.jobs),
            "board": [spec.n, spec.m],
            "kind": spec.kind,
            "removed": [list(square) for square in spec.removed],
            "starts": None if spec.starts is None else [list(square) for square in spec.starts],
            "depth": spec.depth,
            "units": self.units_total,
            "done": self.units_done,
            "failed": self.units_failed,
            "directed": self.total,
            "undirected": self.undirected,
            "nodes": self.nodes,
        }


def _values(census: CensusRecord) -> tuple[Cell, ...]:
    """A census as a row of ``knight results``: jobs and squares as text, numbers as they are (CSV's row)."""
    spec = census.spec
    return (
        words(census.jobs),
        size_text(spec.n, spec.m),
        spec.kind,
        squares_text(spec.removed),
        "all" if spec.starts is None else squares_text(spec.starts),
        spec.depth,
        census.units_total,
        census.units_done,
        census.units_failed,
        census.total,
        census.undirected,
        census.nodes,
    )


_CENSUSES = """
SELECT c.id, c.n, c.m, c.closed, c.removed, c.starts, c.depth, c.units,
       (SELECT group_concat(jc.job) FROM job_censuses jc WHERE jc.census_id = c.id), {classes}
FROM censuses c
WHERE ? IS NULL OR EXISTS (SELECT 1 FROM job_censuses jc WHERE jc.census_id = c.id AND jc.job = ?)
ORDER BY c.n * c.m, c.n, c.closed, c.removed, c.starts, c.depth
"""
_CENSUS_UNITS = """
SELECT t.params, t.start_row, t.start_col, r.status, k.tours, k.nodes, k.seconds
FROM census_tasks ct JOIN tasks t ON t.key = ct.task_key
LEFT JOIN results r ON r.task_key = t.key LEFT JOIN counts k ON k.task_key = t.key AND r.status = 'done'
WHERE ct.census_id = ?
"""


def records(db: sqlite3.Connection, job: str | None = None) -> list[CensusRecord]:
    """The censuses of ``job`` (every job by default), each put together with
    :func:`~knight.engine.census.assemble` once every unit has its count."""
    # a store written before the table existed, opened read-only, has no classes yet
    has_classes = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'census_classes'").fetchone()
    query = _CENSUSES.format(
        classes="(SELECT classes FROM census_classes cc WHERE cc.census_id = c.id)" if has_classes else "NULL"
    )
    return [_record(db, *row) for row in db.execute(query, (job, job)).fetchall()]


def _record(
    db: sqlite3.Connection, census_id: int, n: int, m: int, closed: int, removed: str, starts: str, depth: int,
    units: int, jobs: str | None, classes: int | None,
) -> CensusRecord:  # fmt: skip
    """The census of id ``census_id`` (its row of ``censuses`` as the arguments), with its units' counts so far."""
    plan, counts, failed, seconds = [], [], 0, 0.0
    for params, row, col, status, tours, nodes, took in db.execute(_CENSUS_UNITS, (census_id,)):
        failed += status == "failed"
        if tours is not None:
            plan.append(_unit(params, n, m, row, col))
            counts.append(Counted(tours, nodes))
            seconds += took
    spec = CensusSpec(
        n,
        m,
        bool(closed),
        tuple((r, c) for r, c in json.loads(removed)),
        None if starts == "all" else tuple((r, c) for r, c in json.loads(starts)),
        depth,
    )
    return CensusRecord(
        spec,
        units_total=units,
        units_done=len(counts),
        units_failed=failed,
        nodes=sum(count.nodes for count in counts),
        jobs=job_names(jobs),
        census=assemble(spec.board, plan, counts) if counts and len(counts) == units else None,
        symmetric=classes,
        census_id=census_id,
        seconds=seconds,
    )


def unit_shares(db: sqlite3.Connection, census_id: int) -> list[tuple[CensusUnit, int | None]]:
    """Each done unit of census ``census_id`` with its share of Burnside's sum (None where none was stored)."""
    return [
        (_unit(params, n, m, row, col), share)
        for params, n, m, row, col, share in db.execute(
            "SELECT t.params, t.n, t.m, t.start_row, t.start_col, k.share FROM census_tasks ct "
            "JOIN tasks t ON t.key = ct.task_key JOIN results r ON r.task_key = t.key AND r.status = 'done' "
            "LEFT JOIN census_shares k ON k.task_key = t.key WHERE ct.census_id = ?",
            (census_id,),
        )
    ]


def _unit(params: str, n: int, m: int, row: int, col: int) -> CensusUnit:
    """A census unit from its task's row."""
    return CensusUnit.from_dict({**json.loads(params), "n": n, "m": m, "start": (row, col)})


def sweep_of(
    label: str, boards: tuple[Board, ...], starts: Starts, grid: tuple[Params, ...], plans: tuple[CensusPlan, ...]
) -> Sweep:
    """The sweep of the censuses ``plans`` (each its board and a set of ``grid``): their units, census by census."""
    return Sweep(label, CENSUS, boards, starts, grid, Listed(tuple(t for plan in plans for t in plan.tasks)), plans)


@cache
def _sweep_model() -> type[Any]:
    """The model of a census sweep (pydantic, built the first time a job file names one)."""
    from typing import Annotated, Literal

    from pydantic import Field, StrictInt

    from knight.tasks.params import Axis, CountParams, SquareItem, SweepTable, must_be, otherwise

    class CensusParams(CountParams):
        depth: Annotated[
            Axis[Annotated[StrictInt, Field(ge=1)]], must_be("moves fixed per unit, a positive integer or a list")
        ] = [1]

    class CensusSweep(SweepTable):
        starts: Annotated[
            Literal["all"] | Annotated[list[SquareItem], Field(min_length=1)],
            otherwise(lambda _: 'a census takes starts = "all" or a list of [row, col]'),
        ] = "all"
        params: CensusParams = CensusParams()
        # None, which TOML cannot write, is the only value: any given is refused
        repeats: Annotated[None, otherwise(lambda _: "does not apply to method 'census', which counts every tour")] = (
            None
        )

    return CensusSweep


@cache
def _warm() -> None:
    """One small unit, once a process: from a corner of 5 x 5, first move to (2, 1)."""
    count_unit(CensusUnit(5, 5, (0, 0), (2, 1)), compiled=True)


KIND = CensusKind()
