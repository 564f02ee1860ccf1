"""Sweeps end to end: distinct-tour counts checked independently, resume, and the store's contents."""

from __future__ import annotations

import gc
import io
import json
import sqlite3

from runner_helpers import knight, summary, write_job

from knight.engine import Board, find_tour
from knight.runner import load_job, run_jobs
from knight.runner.progress import LineReporter
from knight.store import Store

SWEEP = """
name = "counted"
[[sweep]]
boards = [5, 6, "5x6"]
starts = "all"
method = "warnsdorff"
params = { tie = ["first", "random"] }
repeats = 4
"""


def symmetric_images(n: int, m: int, squares: list[tuple[int, int]]) -> list[tuple[tuple[int, int], ...]]:
    """Every image of a path under the board's symmetries and reversal, written without the engine."""
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (r, m - 1 - c),
        lambda r, c: (n - 1 - r, m - 1 - c),
    ]
    if n == m:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (m - 1 - c, n - 1 - r),
            lambda r, c: (c, n - 1 - r),
            lambda r, c: (m - 1 - c, r),
        ]
    images = []
    for f in maps:
        image = tuple(f(r, c) for r, c in squares)
        images += [image, image[::-1]]
    return images


def independent_counts(n: int, m: int, tie: str, seeds: list[int]) -> dict[str, int]:
    """Full tours, starts with one, and distinct full tours three ways, from tours built directly."""
    board = Board(n, m)
    paths = []
    starts = set()
    for row in range(n):
        for col in range(m):
            for seed in seeds:
                params = {"tie": tie, **({"seed": seed} if tie == "random" else {})}
                squares = find_tour(board, (row, col), "warnsdorff", compiled=False, **params).squares
                if len(squares) == n * m:
                    paths.append(tuple(squares))
                    starts.add((row, col))
    return {
        "full": len(paths),
        "starts_full": len(starts),
        "distinct_directed": len(set(paths)),
        "distinct_undirected": len({min(p, p[::-1]) for p in paths}),
        "distinct_symmetric": len({min(symmetric_images(n, m, list(p))) for p in paths}),
    }


def test_distinct_tour_counts_match_an_independent_count(tmp_path):
    job = load_job(write_job(tmp_path, "counted", SWEEP))
    with Store(tmp_path / "store.sqlite") as store:
        run = run_jobs([job], store, workers=2, reporter=LineReporter(io.StringIO()))
        rows = store.summary("counted")
    assert run.status == "done" and run.failed == 0 and run.ran == len(job.tasks())
    assert len(rows) == 6
    checked_symmetry_difference = False
    for row in rows:
        tie = row["params"]["tie"]
        expected = independent_counts(row["n"], row["m"], tie, [0, 1, 2, 3] if tie == "random" else [0])
        assert {key: row[key] for key in expected} == expected, (row["n"], row["m"], tie)
        checked_symmetry_difference |= expected["distinct_symmetric"] < expected["distinct_undirected"]
    assert checked_symmetry_difference  # the sweep exercises the symmetric count, not only the plain one


def test_stored_tours_are_the_engines_tours(tmp_path):
    job = load_job(write_job(tmp_path, "counted", SWEEP))
    with Store(tmp_path / "store.sqlite") as store:
        run_jobs([job], store, workers=1, reporter=LineReporter(io.StringIO()))
        for task in job.tasks()[::17]:
            stored = store.tour(task.key)
            direct = find_tour(Board(task.n, task.m), task.start, task.method, **task.params_dict)
            assert stored.squares == direct.squares


def test_a_second_run_does_no_work_and_a_grown_job_runs_only_what_is_new(tmp_path):
    store = tmp_path / "store.sqlite"
    path = write_job(tmp_path, "counted", SWEEP)
    first = knight(["run", str(path)], store)
    assert first.returncode == 0, first.stderr
    total = len(load_job(path).tasks())
    # the summary line, on stderr
    assert f"{total} tasks: {total} run now, 0 reused from {store}, 0 failed;" in first.stderr
    again = json.loads(knight(["run", str(path), "--json"], store).stdout)
    assert (again["tasks"], again["reused"], again["ran"], again["failed"]) == (total, total, 0, 0)
    path.write_text(SWEEP.replace('"5x6"', '"5x6", 7'))
    grown = json.loads(knight(["run", str(path), "--json"], store).stdout)
    assert (grown["reused"], grown["ran"]) == (total, 49 * 5)
    rows = summary(store, "counted")
    assert {tuple(row["board"]) for row in rows} == {(5, 5), (6, 6), (5, 6), (7, 7)}


def test_results_in_json_and_csv_agree(tmp_path):
    store = tmp_path / "store.sqlite"
    path = write_job(tmp_path, "counted", SWEEP)
    assert knight(["run", str(path), "--workers", "1"], store).returncode == 0
    rows = summary(store)
    csv = knight(["results", str(path), "--csv"], store).stdout.splitlines()
    assert len(csv) == len(rows) + 1 and csv[0].startswith("job,board,method,params")
    table = knight(["results"], store).stdout
    assert "counted" in table and "starts full" in table
    with sqlite3.connect(store) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        keys = db.execute("SELECT key_directed, key_undirected, key_symmetric, length(moves) FROM tours").fetchall()
    assert all(all(k) for k in keys) and len(keys) == sum(row["tasks"] for row in rows)


def test_workers_can_warm_up_every_method():
    """The warm-up builds one tour with each method; a method that refuses its board would break every run."""
    from knight.engine import METHODS
    from knight.runner.work import warm_up

    warm_up(set(METHODS))


SMALL = '[[sweep]]\nboards = [5]\nstarts = "all"\nmethod = "warnsdorff"\nparams = { tie = ["first", "roth"] }\n'


def test_a_small_run_is_done_in_the_runners_process_and_asking_for_workers_starts_them(tmp_path, monkeypatch):
    import knight.runner.sweep as sweep

    started = []
    real_pool = sweep.ProcessPool
    monkeypatch.setattr(sweep, "ProcessPool", lambda *args: started.append(args) or real_pool(*args))
    small = load_job(write_job(tmp_path, "small", SMALL))
    assert sweep.is_small(small.tasks()) and len(small.tasks()) == 50
    with Store(tmp_path / "a.sqlite") as store:
        done = run_jobs([small], store, reporter=LineReporter(io.StringIO()))
        assert (done.ran, done.failed, done.workers, started) == (50, 0, 0, [])
        assert len(store.done_keys()) == 50
    frozen = gc.get_freeze_count()
    with Store(tmp_path / "b.sqlite") as store:  # --workers 1 asks for a worker process
        run_jobs([small], store, workers=1, reporter=LineReporter(io.StringIO()))
        assert len(started) == 1
    assert gc.get_freeze_count() == frozen  # what the run kept from the collector is given back
    big = load_job(write_job(tmp_path, "big", SMALL.replace("boards = [5]", "boards = [6]")))
    assert not sweep.is_small(big.tasks())


def test_a_run_with_nothing_to_do_records_none_and_leaves_the_store_as_it_was(tmp_path, capsys):
    """So that a reader that has checked the store (the report, after `make report`'s run) need not again."""
    from knight.cli import main

    job = write_job(tmp_path, "small", '[[sweep]]\nboards = [5]\nstarts = "corners"\nmethod = "warnsdorff"\n')
    store = tmp_path / "s.sqlite"

    def run() -> str:
        try:
            main(["run", str(job), "--store", str(store), "--json"])
        except SystemExit as stop:
            assert stop.code == 0
        return capsys.readouterr().out

    assert json.loads(run())["run"] == 1
    files = {path.name: (path.stat().st_size, path.stat().st_mtime_ns) for path in tmp_path.glob("s.sqlite*")}
    again = json.loads(run())
    assert again["run"] is None and again["ran"] == 0 and again["reused"] == again["tasks"] == 4
    assert {path.name: (path.stat().st_size, path.stat().st_mtime_ns) for path in tmp_path.glob("s.sqlite*")} == files
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone() == (1,)
