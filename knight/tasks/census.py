"""The census-unit kind: a task that counts the directed tours of one census unit (a start and its first moves;
:class:`~knight.engine.census.CensusUnit`), and its outcome (table ``counts``; a closed unit's share of
Burnside's sum also in ``census_shares``). A census is its units' counts put together by the store."""

from __future__ import annotations

import itertools
import logging
import math
import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from knight.engine import Board
from knight.engine.census import MAX_CENSUS_SQUARES, CensusSpec, CensusUnit, census_size, count_unit
from knight.engine.parameters import Params
from knight.errors import InvalidInput
from knight.tasks.kind import TaskShape
from knight.tasks.sweep import Asked, Listed, Starts, Sweep, Where, at_most, removed_off_starts
from knight.tasks.task import CENSUS, Task

__all__ = ["KIND", "CensusKind", "CensusPlan", "UnitCount", "sweep_of"]

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
