"""A census's progress by the estimated cost of its units (issue 29, item 7): its units differ in cost a
thousand-fold, so the time left is measured in work, not in units."""

from __future__ import annotations

import io

import pytest

from knight.engine import Board
from knight.engine.census import CensusSpec
from knight.engine.census_count import count_unit
from knight.engine.census_plan import census_units, unit_costs
from knight.runner.bar import BarReporter
from knight.runner.jobs import census_job
from knight.runner.progress import LineReporter, WorkTracker
from knight.runner.sweep import run_jobs
from knight.store import Store

COSTS = {"corner": 40.0, "edge": 25.0, "a": 9.0, "b": 4.0, "c": 1.0, "d": 1.0}  # seconds each, run in this order


def test_time_left_by_weight_is_exact_for_tasks_run_one_after_another(monkeypatch):
    """One worker, weights equal to the tasks' costs: after every task the time left is the truth, where counting
    tasks (a sixth done after 40 of 80 s: 200 s left) is five times it."""
    clock = [10.0]
    monkeypatch.setattr("knight.runner.progress.time.monotonic", lambda: clock[0])
    tracker = WorkTracker(COSTS, workers=1)
    line = LineReporter(io.StringIO())
    bar = BarReporter(get_time=lambda: clock[0])
    line.start(len(COSTS), tracker.total)
    bar.start(len(COSTS), tracker.total)
    try:
        left = sum(COSTS.values())
        for key, cost in COSTS.items():
            clock[0] += cost
            left -= cost
            work = tracker.finish([key])
            line.advance(1, work)
            bar.advance(1, work)
            assert line.time_left(clock[0]) == pytest.approx(left)
            assert bar.time_left() == pytest.approx(left)
    finally:
        bar.finish()
    counted = LineReporter(io.StringIO())
    counted.start(len(COSTS))
    counted.advance(1)  # the corner, after 40 s
    assert counted.time_left(counted.started + 40) == pytest.approx(200)


def test_the_work_done_credits_half_of_what_the_other_workers_run():
    tracker = WorkTracker(COSTS, workers=2)
    assert tracker.done == 0.0  # nothing is known to run before a result comes
    assert tracker.finish(["edge"]) == pytest.approx(25 + 40 / 2)  # the corner runs on the other worker
    assert tracker.finish(["corner"]) == pytest.approx(40 - 40 / 2 + 9 / 2)
    before = tracker.done
    assert tracker.finish(list(COSTS)) == pytest.approx(80 - before)  # all done: no credit left
    assert tracker.done == tracker.total == 80


def test_unit_costs_are_the_census_kernels_nodes_when_the_whole_tree_fits():
    """Open tours: the cheap rules are the kernel's own, so a tree expanded to its leaves counts its nodes (a
    unit the colours rule out at its start: one node, the kernel's; its cost, at least its prefix)."""
    for board in (Board(5, 5), Board(4, 5)):
        units = census_units(board)
        costs = unit_costs(units, rows=10**6)
        exact = [count_unit(unit).nodes for unit in units]
        assert [cost for cost, nodes in zip(costs, exact) if nodes > 1] == [n for n in exact if n > 1]
        assert max(costs) > 100 * min(costs)  # the spread the progress needs to see


def test_unit_costs_rank_the_heavy_units_of_six_by_six_first():
    units = census_units(Board(6, 6))
    costs = unit_costs(units)
    assert len(costs) == 20 and min(costs) >= 1
    heaviest = max(range(20), key=costs.__getitem__)
    assert (units[heaviest].start, units[heaviest].first) in {((0, 0), (1, 2)), ((0, 1), (2, 0))}
    assert max(costs) > 30 * min(costs)


class _Recorder(LineReporter):
    def __init__(self) -> None:
        super().__init__(io.StringIO())
        self.works: list[float | None] = []

    def start(self, total: int, work: float | None = None) -> None:
        super().start(total, work)
        self.started_with = (total, work)

    def advance(self, count: int, work: float | None = None) -> None:
        super().advance(count, work)
        self.works.append(work)


def test_a_census_run_advances_its_progress_by_the_units_costs(tmp_path):
    spec = CensusSpec(5, 5)
    reporter = _Recorder()
    with Store(tmp_path / "s.sqlite") as store:
        run_jobs([census_job(spec)], store, reporter=reporter)
    expected = sum(unit_costs(spec.units()))
    assert reporter.started_with == (12, pytest.approx(expected))
    assert None not in reporter.works and sum(reporter.works) == pytest.approx(expected)  # type: ignore[arg-type]
    assert reporter.done == 12 and reporter.work == pytest.approx(expected)
