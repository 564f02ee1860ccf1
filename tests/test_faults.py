"""Faults: the runner killed outright, workers killed, Ctrl-C and SIGTERM, two runs on one store.

Slow sweeps and dying workers come from the test-only hook ``KNIGHT_FAULT_INJECTION``
(knight/runner/faults.py), read by each worker when it starts.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time

import psutil
import pytest
from runner_helpers import end_session, knight, start_knight, stored_results, summary, wait_for_results, write_job

SWEEP = """
name = "faulty"
[[sweep]]
boards = [5, 6, 7]
starts = "all"
method = "warnsdorff"
params = { tie = ["first", "roth"] }

[[sweep]]
boards = [6]
starts = "all"
method = "warnsdorff"
params = { tie = "random" }
repeats = 3
"""
TOTAL = (25 + 36 + 49) * 2 + 36 * 3
SLOW = "delay:0.01"  # every task sleeps 10 ms: about 2 s for the sweep on 2 workers


@pytest.fixture
def job(tmp_path):
    return write_job(tmp_path, "faulty", SWEEP)


@pytest.fixture
def reference(tmp_path, job):
    """The summary of an uninterrupted run."""
    store = tmp_path / "reference.sqlite"
    done = knight(["run", str(job)], store)
    assert done.returncode == 0, done.stderr
    return summary(store)


def integrity(store) -> str:
    with sqlite3.connect(store) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]


def run_count(stdout: str) -> int:
    """Tasks run now, from `knight run --json`."""
    return json.loads(stdout)["ran"]


def test_resume_after_sigkill_of_the_runner_equals_an_uninterrupted_run(tmp_path, job, reference):
    store = tmp_path / "store.sqlite"
    runner = start_knight(["run", str(job), "--workers", "2"], store, faults=SLOW)
    try:
        wait_for_results(store, 40, runner)
        workers = psutil.Process(runner.pid).children()
        runner.send_signal(signal.SIGKILL)  # the runner only: its workers must notice and go
        runner.wait(timeout=10)
        _, alive = psutil.wait_procs(workers, timeout=10)
    finally:
        end_session(runner)
    assert runner.returncode == -signal.SIGKILL
    assert len(workers) == 2 and alive == []  # no orphaned worker lingers
    before = stored_results(store)
    assert 40 <= before < TOTAL and integrity(store) == "ok"
    resumed = knight(["run", str(job), "--json"], store)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["reused"] == before and run_count(resumed.stdout) == TOTAL - before
    assert summary(store) == reference


def test_workers_die_with_the_runner_even_in_the_middle_of_a_task(tmp_path, job):
    """SIGKILL of the runner while every worker is inside a long task: the kernel ends them at
    once (PR_SET_PDEATHSIG), and the next run marks the dead run as killed."""
    store = tmp_path / "store.sqlite"
    runner = start_knight(["run", str(job), "--workers", "2"], store, faults="delay:60")
    try:
        deadline = time.monotonic() + 60
        while len(psutil.Process(runner.pid).children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = psutil.Process(runner.pid).children()
        time.sleep(1)  # both are now inside their first task, which sleeps a minute
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=10)
        _, alive = psutil.wait_procs(workers, timeout=3)
    finally:
        end_session(runner)
    assert len(workers) == 2 and alive == []
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT status FROM runs").fetchall() == [("running",)]
    again = start_knight(["run", str(job), "--workers", "1"], store, faults="delay:60")
    try:
        deadline, runs = time.monotonic() + 60, []
        while len(runs) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            with sqlite3.connect(store, timeout=30) as db:
                runs = db.execute("SELECT status FROM runs ORDER BY id").fetchall()
    finally:
        end_session(again)
    assert runs == [("killed",), ("running",)]


def test_a_killed_worker_loses_nothing_and_its_task_is_retried(tmp_path, job, reference):
    store = tmp_path / "store.sqlite"
    marker = tmp_path / "killed-once"
    done = knight(["run", str(job), "--workers", "2", "-v"], store, faults=f"kill:6x6:2,3:{marker}")
    assert done.returncode == 0, done.stderr
    assert marker.exists()  # the worker really was killed
    assert "killed by signal 9; retrying (attempt 2 of 3)" in done.stderr
    assert summary(store) == reference
    with sqlite3.connect(store) as db:
        attempts = dict(
            db.execute(
                "SELECT t.params, r.attempts FROM results r JOIN tasks t ON t.key = r.task_key "
                "WHERE t.n = 6 AND t.start_row = 2 AND t.start_col = 3"
            )
        )
        others = db.execute(
            "SELECT MAX(attempts) FROM results r JOIN tasks t ON t.key = r.task_key "
            "WHERE NOT (t.n = 6 AND t.start_row = 2 AND t.start_col = 3)"
        ).fetchone()[0]
    assert sorted(attempts.values()) == [1] * (len(attempts) - 1) + [2]  # only the task that was running
    assert others == 1


def test_a_task_that_keeps_killing_its_worker_is_recorded_as_failed(tmp_path, job):
    store = tmp_path / "store.sqlite"
    done = knight(["run", str(job), "--workers", "2", "--json"], store, faults="kill:5x5:1,1:always")
    assert done.returncode == 1, done.stderr
    # two tasks start on (1, 1) of 5x5, ties first and roth: both fail, nothing else does
    failures = json.loads(done.stdout)["failures"]
    assert len(failures) == 2 and all("killed by signal 9 while running it, 3 times" in f for f in failures)
    assert ", 2 failed;" in done.stderr and done.stderr.count("knight: failed: ") == 2  # and said on stderr
    rows = {(*row["board"], row["params"]["tie"]): row for row in summary(store)}
    assert rows[(5, 5, "first")]["failed"] == rows[(5, 5, "roth")]["failed"] == 1
    assert sum(row["failed"] for row in rows.values()) == 2
    assert sum(row["done"] for row in rows.values()) == TOTAL - 2
    shown = knight(["results"], store).stdout
    assert "failed: warnsdorff" in shown and "after 3 attempt(s)" in shown
    healed = knight(["run", str(job), "--json"], store)  # the fault is gone: the failed task is retried
    assert healed.returncode == 0 and run_count(healed.stdout) == 2
    assert sum(row["failed"] for row in summary(store)) == 0


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT"])
def test_sigterm_or_ctrl_c_leaves_the_store_consistent_and_the_next_run_finishes(tmp_path, job, reference, how):
    store = tmp_path / "store.sqlite"
    runner = start_knight(["run", str(job), "--workers", "2"], store, faults=SLOW)
    try:
        wait_for_results(store, 40, runner)
        if how == "SIGINT":  # Ctrl-C: the terminal signals the whole process group
            os.killpg(runner.pid, signal.SIGINT)
        else:
            runner.send_signal(signal.SIGTERM)
        _, err = runner.communicate(timeout=30)
    finally:
        end_session(runner)
    assert runner.returncode == 130 and "knight: interrupted" in err and "Traceback" not in err
    assert integrity(store) == "ok"
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT status FROM runs ORDER BY id DESC LIMIT 1").fetchone()[0] == "interrupted"
    before = stored_results(store)
    assert 40 <= before < TOTAL
    resumed = knight(["run", str(job), "--json"], store)
    assert resumed.returncode == 0 and run_count(resumed.stdout) == TOTAL - before
    assert summary(store) == reference


def test_two_runs_on_one_store_at_once(tmp_path, job, reference):
    store = tmp_path / "store.sqlite"
    first = start_knight(["run", str(job), "--workers", "1"], store, faults="delay:0.002")
    second = start_knight(["run", str(job), "--workers", "1"], store, faults="delay:0.002")
    try:
        outputs = [first.communicate(timeout=120), second.communicate(timeout=120)]
    finally:
        end_session(first)
        end_session(second)
    assert first.returncode == 0 and second.returncode == 0, outputs
    assert integrity(store) == "ok"
    assert stored_results(store) == TOTAL
    assert summary(store) == reference
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT COUNT(*) FROM runs WHERE status = 'done'").fetchone()[0] == 2


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interruption_at_any_stage_of_a_command_is_one_line_and_status_130(tmp_path, how):
    """While the command line loads, while the kernels load, and while a big tour is built or printed."""
    for after in (0.3, 1.0, 2.5):
        command = start_knight(["tour", "1500", "--tie", "roth", "--json"], tmp_path / "unused.sqlite")
        try:
            time.sleep(after)
            command.send_signal(how)
            _, err = command.communicate(timeout=60)
        finally:
            end_session(command)
        assert (command.returncode, err) == (130, "knight: interrupted\n"), after
