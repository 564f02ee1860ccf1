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
from knight.runner.progress import LineReporter, WorkTracker, work_time_left
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


def finish_times(durations: list[float], workers: int) -> list[float]:
    """When each task ends, run in order on ``workers`` workers, each taking the next task as it is free."""
    free, ends = [0.0] * workers, []
    for duration in durations:
        worker = min(range(workers), key=free.__getitem__)
        free[worker] += duration
        ends.append(free[worker])
    return ends


def test_the_time_left_of_six_by_six_after_a_tenth_of_its_work_is_within_twice_the_truth():
    """Issue 29, item 7, without a clock: the census's units take as long as their nodes (the kernel's speed is
    steady), run on two workers in the run's order; at the first result after a tenth of the work, the time left
    the tracker's work gives is within a factor of 2 of the truth (by the units' exact counts as weights: 1.3;
    by the estimate: 1.2; by the old estimate, nodes counted to 15,000 paths: 3.8)."""
    units = census_units(Board(6, 6))
    durations = [float(count_unit(unit).nodes) for unit in units]
    keys = [unit.key for unit in units]
    ends = finish_times(durations, workers=2)
    tracker = WorkTracker(dict(zip(keys, unit_costs(units))), workers=2)
    finished = 0.0
    for index in sorted(range(len(units)), key=ends.__getitem__):
        tracker.finish([keys[index]])
        finished += durations[index]
        if finished >= 0.1 * sum(durations):
            now = ends[index]
            left = work_time_left(now, tracker.done, tracker.total)
            assert left is not None and 0.5 < left / (max(ends) - now) < 2
            return
    pytest.fail("no result came after a tenth of the work")


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
