"""The census through the sweep runner: census sweeps in job files, counts in the store, resume, dask.

The census's own numbers are checked in test_census.py against brute force and the published
totals; here every census that went through the runner and the store is compared with
`census()` computed directly, in one process.
"""

from __future__ import annotations

import builtins
import io
import json
import signal
import sqlite3

import numpy as np
import pytest
from distributed import LocalCluster
from runner_helpers import REPO, end_session, knight, start_knight, stored_results, wait_for_results, write_job

from knight.cli import main
from knight.engine import Board
from knight.engine.census import CensusSpec, census, census_units
from knight.report.data import load_census
from knight.runner import load_job, run_jobs
from knight.runner.progress import LineReporter
from knight.store import Store
from knight.tasks import Task

JOB = """
name = "counted"
[[sweep]]
boards = [5]
method = "census"

[[sweep]]
label = "one start, and the closed tours of 3x10"
boards = [5]
starts = [[0, 4]]
method = "census"

[[sweep]]
boards = ["3x10"]
method = "census"
params = { closed = true }

[[sweep]]
boards = [4]
method = "census"
params = { removed = [[0, 0], [3, 3]] }
"""


def quiet() -> LineReporter:
    return LineReporter(io.StringIO())


def by_spec(store: Store) -> dict:
    return {stored.spec: stored for stored in store.censuses()}


def test_a_census_job_through_the_runner_equals_the_census_computed_directly(tmp_path):
    job = load_job(write_job(tmp_path, "counted", JOB))
    with Store(tmp_path / "s.sqlite") as store:
        run = run_jobs([job], store, workers=2, reporter=quiet())
        stored = by_spec(store)
    expected_units = (
        len(census_units(Board(5, 5)))
        + len(census_units(Board(5, 5), start=(0, 4)))
        + len(census_units(Board(3, 10), closed=True))
        + len(census_units(Board(4, 4), removed=[(0, 0), (3, 3)]))
    )
    assert run.status == "done" and run.failed == 0 and run.ran == expected_units == len(job.tasks())
    assert len(stored) == 4 and all(
        s.units_done == s.units_total and s.units_failed == 0 and s.jobs == ("counted",) for s in stored.values()
    )
    five = stored[CensusSpec(5, 5)].census
    direct = census(Board(5, 5))
    assert np.array_equal(five.counts, direct.counts) and five.nodes == direct.nodes
    assert five.total == int(five.counts.sum()) == 1728
    assert [int(five.counts[r, c]) for r, c in [(0, 0), (0, 4), (4, 0), (4, 4)]] == [304] * 4
    one = stored[CensusSpec(5, 5, starts=((0, 4),))].census
    assert np.array_equal(one.counts, census(Board(5, 5), start=(0, 4)).counts)
    closed = stored[CensusSpec(3, 10, closed=True)].census
    assert closed.cycles == census(Board(3, 10), closed=True).cycles > 0
    mutilated = stored[CensusSpec(4, 4, removed=((0, 0), (3, 3)))].census
    assert mutilated.total == census(Board(4, 4), removed=[(0, 0), (3, 3)]).total


def test_census_tasks_have_stable_keys_and_their_units_back():
    units = census_units(Board(5, 5))
    tasks = [Task.from_unit(unit) for unit in units]
    assert [task.unit for task in tasks] == units
    assert [task.key for task in tasks] == [Task.from_unit(unit).key for unit in census_units(Board(5, 5))]
    assert len({task.key for task in tasks}) == len(tasks)
    assert "census 5x5 open start 0,0 first" in tasks[0].describe()
    with pytest.raises(ValueError, match="has no census unit"):
        _ = Task("warnsdorff", (("tie", "first"),), 5, 5, (0, 0)).unit


def test_load_census_gives_the_report_every_census(tmp_path):
    job = load_job(write_job(tmp_path, "counted", JOB))
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        run_jobs([job], store, workers=1, reporter=quiet())
        with store.transaction() as db:  # one unit of 4x4 undone: that census is incomplete
            key = job.censuses()[-1].keys[0]
            db.execute("DELETE FROM counts WHERE task_key = ?", (key,))
            db.execute("DELETE FROM results WHERE task_key = ?", (key,))
    records = {(r.n, r.m, r.closed, r.starts): r for r in load_census(path)}
    assert len(records) == 4
    five = records[(5, 5, False, None)]
    direct = census(Board(5, 5))
    assert five.counts == {(r, c): int(direct.counts[r, c]) for r in range(5) for c in range(5)}
    assert (five.total, five.undirected, five.symmetric, five.nodes) == (1728, 864, None, direct.nodes)
    units = len(census_units(Board(5, 5)))  # 12: one per class of (start, first move) under the symmetries
    assert five.complete and five.units_done == five.units_total == units and five.jobs == ("counted",)
    closed = records[(3, 10, True, None)]
    assert closed.undirected == census(Board(3, 10), closed=True).cycles and closed.symmetric is not None
    assert 0 < closed.symmetric < closed.undirected
    assert set(closed.counts.values()) == {2 * closed.undirected}
    partial = records[(4, 4, False, None)]
    assert not partial.complete and partial.units_done == partial.units_total - 1
    assert partial.counts == {} and partial.total is None and partial.removed == ((0, 0), (3, 3))


def test_closed_tours_up_to_symmetry_are_counted_from_the_units_shares_and_read_back(tmp_path, monkeypatch):
    from knight.engine.census import cycles_up_to_symmetry
    from knight.runner import sweep

    path = tmp_path / "s.sqlite"
    job = write_job(
        tmp_path, "closed", '[[sweep]]\nmethod = "census"\nboards = ["3x10", "4x5"]\nparams = { closed = true }\n'
    )
    calls = []
    monkeypatch.setattr(
        sweep, "cycles_up_to_symmetry", lambda *a, **k: calls.append(a) or cycles_up_to_symmetry(*a, **k)
    )
    with Store(path) as store:
        run_jobs([load_job(job)], store, workers=1, reporter=quiet())
        stored, none = sorted(store.censuses(), key=lambda record: -record.census.total)
        shares = store.unit_shares(stored.census_id)
    assert calls == []  # the units' tasks listed their tours as they counted them: no second search
    assert stored.symmetric == cycles_up_to_symmetry(Board(3, 10)) == 6
    assert shares and all(share is not None and share >= 1 for _, share in shares)
    assert none.census.cycles == none.symmetric == 0  # no cycle on 4 x 5: no class, and no listing
    with sqlite3.connect(path) as db:  # units counted without shares (an older knight's): the cycles are listed
        db.execute("DELETE FROM census_shares")
        db.execute("DELETE FROM census_classes")
    with Store(path) as store:
        run_jobs([load_job(job)], store, workers=1, reporter=quiet())
        run_jobs([load_job(job)], store, workers=1, reporter=quiet())  # the count is stored: not listed again
        assert sorted(record.symmetric for record in store.censuses()) == [0, 6]
    assert len(calls) == 1
    with Store(tmp_path / "two.sqlite") as store:  # on two workers, the same from the shares
        run_jobs([load_job(job)], store, workers=2, reporter=quiet())
        assert sorted(record.symmetric for record in store.censuses()) == [0, stored.symmetric]
    with sqlite3.connect(path) as db:  # a store from before the table existed: no count, no error
        db.execute("DROP TABLE census_classes")
    record = next(record for record in load_census(path) if record.undirected)
    assert record.symmetric is None and record.undirected == stored.census.cycles


def test_knight_census_twice_does_no_work_the_second_time(tmp_path, capsys):
    store = tmp_path / "s.sqlite"
    answers = []
    for _ in range(2):
        with pytest.raises(SystemExit) as stop:
            main(["census", "5", "--store", str(store), "--json"])
        assert stop.value.code == 0
        answers.append(json.loads(capsys.readouterr().out))
    first, second = answers
    units = len(census_units(Board(5, 5)))
    assert first["units_run"] == first["units"] == units and first["units_stored"] == 0
    assert second["units_run"] == 0 and second["units_stored"] == units
    assert first["counts"] == second["counts"] and second["total"] == 1728 and first["nodes"] == second["nodes"]
    assert stored_results(store) == units
    with sqlite3.connect(store) as db:
        # the second had nothing to do: no run recorded, the store left as it was
        assert db.execute("SELECT tasks_run FROM runs ORDER BY id").fetchall() == [(units,)]


def test_knight_results_shows_censuses_and_keeps_its_tour_rows(tmp_path, capsys):
    store = str(tmp_path / "s.sqlite")

    def knight_here(*argv: str) -> str:
        with pytest.raises(SystemExit) as stop:
            main([*argv, "--store", store])
        assert stop.value.code == 0
        return capsys.readouterr().out

    out = knight_here("census", "6", "--closed")
    assert "closed tours: 9,862 as cycles" in out and "1,245 up to the board's symmetries" in out
    assert json.loads(knight_here("results", "--json"))["tours"] == []  # the tour rows: none
    (row,) = json.loads(knight_here("results", "--census", "--json"))["censuses"]
    assert (row["board"], row["kind"], row["directed"], row["undirected"]) == ([6, 6], "closed", 36 * 2 * 9862, 9862)
    assert row["done"] == row["units"] and row["jobs"] == ["census-6x6-closed"]
    table = knight_here("results")
    assert "Censuses" in table and "710,064" in table and "census-6x6-closed" in table
    csv = knight_here("results", "--census", "--csv").splitlines()
    assert csv[0].startswith("jobs,board,kind") and ",710064,9862," in csv[1]


def test_resume_after_sigkill_of_a_census_equals_an_uninterrupted_one(tmp_path):
    store = tmp_path / "s.sqlite"
    args = ["census", "5", "--depth", "2", "--workers", "2", "--json"]
    total = len(census_units(Board(5, 5), depth=2))
    runner = start_knight(args, store, faults="delay:0.02")
    try:
        wait_for_results(store, 10, runner)
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=10)
    finally:
        end_session(runner)
    before = stored_results(store)
    assert 10 <= before < total
    resumed = knight(args, store)
    assert resumed.returncode == 0, resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["units_stored"] == before and data["units_run"] == total - before
    direct = census(Board(5, 5), depth=2)
    assert data["counts"] == direct.counts.tolist() and data["nodes"] == direct.nodes and data["total"] == 1728


def test_a_killed_census_worker_is_retried_and_the_census_is_exact(tmp_path):
    store = tmp_path / "s.sqlite"
    marker = tmp_path / "killed-once"
    done = knight(["census", "5", "--workers", "2", "--json", "-v"], store, faults=f"kill:5x5:0,0:{marker}")
    # What the user gets: the worker was killed (the fault fired), its unit ran again, nothing failed, the count is
    # exact. Not the log's wording: which of the pool's paths notices a death first depends on the machine's load.
    report = json.loads(done.stdout)
    assert done.returncode == 0, done.stderr
    assert marker.exists() and report["units_failed"] == 0 and report["units_done"] == report["units"]
    assert report["counts"] == census(Board(5, 5)).counts.tolist()


def test_a_census_that_keeps_failing_is_reported_incomplete(tmp_path):
    store = tmp_path / "s.sqlite"
    done = knight(["census", "5", "--workers", "2"], store, faults="kill:5x5:1,1:always")
    assert done.returncode == 1 and "the census is incomplete" in done.stderr
    assert "failed: census" in done.stderr and done.stdout == ""
    again = knight(["census", "5", "--workers", "2", "--json"], store, faults="kill:5x5:1,1:always")
    incomplete = json.loads(again.stdout)  # still one document, the counts unknown
    assert again.returncode == 1 and incomplete["total"] is None and incomplete["units_failed"] > 0
    assert incomplete["units_done"] < incomplete["units"] and incomplete["failures"]
    healed = knight(["census", "5", "--json"], store)
    data = json.loads(healed.stdout)
    assert healed.returncode == 0 and data["total"] == 1728 and 0 < data["units_run"] < data["units"]


def test_the_dask_executor_runs_a_census(tmp_path):
    job = load_job(write_job(tmp_path, "counted", JOB))
    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=":0"
    ) as cluster:
        with Store(tmp_path / "dask.sqlite") as store:
            run = run_jobs(
                [job], store, workers=2, executor="dask", scheduler=cluster.scheduler_address, reporter=quiet()
            )
            assert run.status == "done" and run.failed == 0 and run.ran == len(job.tasks())
            stored = by_spec(store)
    assert np.array_equal(stored[CensusSpec(5, 5)].census.counts, census(Board(5, 5)).counts)
    assert stored[CensusSpec(3, 10, closed=True)].census.cycles == census(Board(3, 10), closed=True).cycles


def test_the_shipped_census_job_covers_the_published_counts_and_the_mutilated_boards():
    job = load_job(REPO / "jobs" / "census.toml")
    specs = {plan.spec for plan in job.censuses()}
    assert {CensusSpec(5, 5), CensusSpec(6, 6), CensusSpec(6, 6, closed=True)} <= specs
    for n, m in [(4, 4), (4, 6), (6, 6), (8, 8)]:
        assert CensusSpec(n, m, removed=((0, 0), (n - 1, m - 1))) in specs


SWEEP = '[[sweep]]\nboards = [5]\nmethod = "census"\n'
MALFORMED = {
    "too-big": (SWEEP.replace("[5]", '["9x8"]'), "sweep[0].boards: the census counts tours on boards of at most 64"),
    "unknown-param": (SWEEP + 'params = { tie = "first" }\n', "sweep[0].params.tie: not a parameter of method"),
    "closed-not-bool": (SWEEP + 'params = { closed = "yes" }\n', "sweep[0].params.closed: must be true or false"),
    "bad-depth": (SWEEP + "params = { depth = 0 }\n", "sweep[0].params.depth: must be moves fixed per unit"),
    "removed-not-squares": (SWEEP + "params = { removed = [0, 0] }\n", "sweep[0].params.removed: must be a list"),
    "removed-off-board": (SWEEP + "params = { removed = [[0, 9]] }\n", "square [0, 9] is off the 5x5 board"),
    "start-removed": (
        SWEEP + "starts = [[0, 0]]\nparams = { removed = [[0, 0]] }\n",
        "sweep[0].starts: square [0, 0] is removed",
    ),
    "corners": (SWEEP + 'starts = "corners"\n', 'a census takes starts = "all" or a list'),
    "sample": (SWEEP + "starts = { sample = 3 }\n", 'a census takes starts = "all" or a list'),
    "closed-from-a-start": (
        SWEEP + "starts = [[0, 0]]\nparams = { closed = true }\n",
        "sweep[0].starts: a closed census searches from one square",
    ),
    "repeats": (SWEEP + "repeats = 2\n", "sweep[0].repeats: does not apply to method 'census'"),
    "everything-removed": (
        '[[sweep]]\nboards = [1]\nmethod = "census"\nparams = { removed = [[0, 0]] }\n',
        "sweep[0].params: 1x1: every square of the 1x1 board is removed",
    ),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_a_malformed_census_sweep_is_refused_in_one_line(tmp_path, capsys, kind):
    text, expected = MALFORMED[kind]
    bad = write_job(tmp_path, kind, text)
    store = tmp_path / "store.sqlite"
    with pytest.raises(SystemExit) as stop:
        main(["run", str(bad), "--store", str(store)])
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"knight: error: {bad}: ") and expected in err, err
    assert not store.exists()


def test_a_listing_process_that_dies_leaves_the_listing_to_the_run(tmp_path, monkeypatch):
    from concurrent.futures.process import BrokenProcessPool

    from knight.engine.census import cycles_up_to_symmetry
    from knight.runner import sweep

    def dies_in_a_pool(*args, map=map, **kwargs):  # noqa: A002 - the parameter's name
        if map is not builtins.map:
            raise BrokenProcessPool("a listing process was killed")
        return cycles_up_to_symmetry(*args, **kwargs)

    monkeypatch.setattr(sweep, "cycles_up_to_symmetry", dies_in_a_pool)
    monkeypatch.setattr(sweep, "_classes_from_shares", lambda *_: None)  # as for units with too many tours to list
    job = write_job(tmp_path, "closed", '[[sweep]]\nmethod = "census"\nboards = ["3x10"]\nparams = { closed = true }\n')
    with Store(tmp_path / "s.sqlite") as store:
        run_jobs([load_job(job)], store, workers=2, reporter=quiet())
        (stored,) = store.censuses()
    assert stored.symmetric == cycles_up_to_symmetry(Board(3, 10)) == 6


@pytest.mark.parametrize(("tours", "share", "stored"), [(16, 24, True), (16, 15, False), (2, 17, False), (0, 0, True)])
def test_a_units_share_of_burnside_is_stored_only_when_it_can_be_right(tmp_path, tours, share, stored):
    """The identity keeps each of a unit's tours and at most eight symmetries do: a share outside that is refused
    with the count, as a failure that the next run retries."""
    from knight.tasks import TaskResult

    job = write_job(tmp_path, "closed", '[[sweep]]\nmethod = "census"\nboards = ["3x10"]\nparams = { closed = true }\n')
    tasks = load_job(job).tasks()
    task = tasks[0]
    with Store(tmp_path / "s.sqlite") as store:
        store.register_job("closed", tasks, load_job(job).censuses())
        run_id = store.start_run(["closed"], "process", 1)
        store.record(run_id, [TaskResult.from_count(task.key, 3, 10, tours, 1040, share)])
        (census,) = store.censuses()
        assert store.unit_shares(census.census_id) == ([(task.unit, share)] if stored else [])
        assert (census.units_failed == 0) is stored


def test_classes_come_from_the_shares_however_many_cycles_and_are_listed_only_up_to_the_limit(tmp_path, monkeypatch):
    from knight.runner import sweep

    monkeypatch.setattr(sweep, "SYMMETRY_LIMIT", 5)  # 3 x 10 has 16 cycles
    job = write_job(tmp_path, "closed", '[[sweep]]\nmethod = "census"\nboards = ["3x10"]\nparams = { closed = true }\n')
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        run_jobs([load_job(job)], store, workers=1, reporter=quiet())
        (stored,) = store.censuses()
    assert stored.census.cycles == 16 and stored.symmetric == 6
    with sqlite3.connect(path) as db:  # without the shares, too many to list: no count
        db.execute("DELETE FROM census_shares")
        db.execute("DELETE FROM census_classes")
    with Store(path) as store:
        run_jobs([load_job(job)], store, workers=1, reporter=quiet())
        (stored,) = store.censuses()
    assert stored.symmetric is None


def test_shares_that_do_not_add_up_are_not_trusted_the_cycles_are_listed(tmp_path):
    job = write_job(tmp_path, "closed", '[[sweep]]\nmethod = "census"\nboards = ["3x10"]\nparams = { closed = true }\n')
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        run_jobs([load_job(job)], store, workers=1, reporter=quiet())
    with sqlite3.connect(path) as db:  # a share changed by hand: the sum is no longer a whole number of classes
        db.execute("UPDATE census_shares SET share = share + 1 WHERE rowid = (SELECT MIN(rowid) FROM census_shares)")
        db.execute("DELETE FROM census_classes")
    lines = io.StringIO()
    with Store(path) as store:
        run_jobs([load_job(job)], store, workers=1, reporter=LineReporter(lines))
        (stored,) = store.censuses()
    assert stored.symmetric == 6
    assert "not a whole number of classes of 8; listing its cycles instead" in lines.getvalue()
