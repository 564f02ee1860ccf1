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
from runner_helpers import (
    end_session,
    knight,
    start_knight,
    stored_results,
    summary,
    wait_for_results,
    wait_until_knight_catches_signals,
    write_job,
)

from knight.store import Store
from knight.tasks import FailureCause

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
    # what the user gets: the results of a clean run, the task retried (its attempts, below); not the log's wording,
    # which depends on which of the pool's paths saw the death first under the machine's load
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
    # each its worker lost three times (which of pebble's paths saw the death first, the signal or the end, varies)
    assert len(failures) == 2 and all(" while running it, 3 times" in f for f in failures)
    with Store(store, read_only=True) as opened:
        lost = opened.failures()
    assert [record.failure.cause for record in lost] == [FailureCause.WORKER_LOST] * 2
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


def rows_by_run(store) -> dict[int, int]:
    """How many results each run stored (none while the store is not made yet)."""
    if not stored_results(store):
        return {}
    with sqlite3.connect(store, timeout=30) as db:
        return dict(db.execute("SELECT run_id, COUNT(*) FROM results GROUP BY run_id"))


def no_duplicates_or_claims_left(store) -> None:
    with sqlite3.connect(store) as db:
        for table in ("results", "tours"):
            assert db.execute(f"SELECT COUNT(*) = COUNT(DISTINCT task_key) FROM {table}").fetchone()[0] == 1
        assert db.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 0  # released when each run ended


def test_two_runs_on_one_store_at_once_share_the_work(tmp_path, job, reference):
    """Each runs part of the job (claimed through the store), the parts add up to the job, and
    each run's summary and exit status are the whole job's."""
    store = tmp_path / "store.sqlite"
    # -v: the account of the other run's work is a log line, and a piped run logs only with -v
    first = start_knight(["run", str(job), "--workers", "1", "--json", "-v"], store, faults="delay:0.01")
    second = start_knight(["run", str(job), "--workers", "1", "--json", "-v"], store, faults="delay:0.01")
    try:
        outputs = [first.communicate(timeout=120), second.communicate(timeout=120)]
    finally:
        end_session(first)
        end_session(second)
    assert first.returncode == 0 and second.returncode == 0, outputs
    assert integrity(store) == "ok"
    ran = [run_count(out) for out, _ in outputs]
    assert sum(ran) == TOTAL and min(ran) > 0, ran  # every task run once, by one of them
    assert sorted(rows_by_run(store).values()) == sorted(ran)
    for (out, err), n in zip(outputs, ran):  # what the other run did is in this run's account
        already, others = json.loads(out)["reused"], json.loads(out)["by_others"]
        assert f"done: {n} tasks run here, {TOTAL - already - n} by another run" in err
        assert others == TOTAL - already - n  # the summary's count of the other run's work
    assert stored_results(store) == TOTAL
    assert summary(store) == reference
    no_duplicates_or_claims_left(store)
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT COUNT(*) FROM runs WHERE status = 'done'").fetchone()[0] == 2


def test_a_run_takes_over_the_claims_of_a_concurrent_run_that_is_killed(tmp_path, job, reference):
    store = tmp_path / "store.sqlite"
    doomed = start_knight(["run", str(job), "--workers", "1", "--json"], store, faults="delay:0.01")
    survivor = start_knight(["run", str(job), "--workers", "1", "--json", "-v"], store, faults="delay:0.01")
    try:
        deadline, ids, by_run = time.monotonic() + 60, {}, {}
        while not (len(ids) == 2 and min(by_run.get(i, 0) for i in ids.values()) >= 10):
            assert time.monotonic() < deadline and doomed.poll() is None and survivor.poll() is None
            time.sleep(0.05)
            by_run = rows_by_run(store)
            if by_run:
                with sqlite3.connect(store, timeout=30) as db:
                    ids = dict(db.execute("SELECT pid, id FROM runs"))
        os.killpg(doomed.pid, signal.SIGKILL)  # the runner and its worker, holding their claims
        doomed.wait(timeout=10)
        with sqlite3.connect(store, timeout=30) as db:
            held = db.execute("SELECT COUNT(*) FROM claims WHERE run_id = ?", (ids[doomed.pid],)).fetchone()[0]
        out, err = survivor.communicate(timeout=120)
    finally:
        end_session(doomed)
        end_session(survivor)
    dead, alive = ids[doomed.pid], ids[survivor.pid]
    assert held > 0  # it died with tasks claimed, and not finished
    assert survivor.returncode == 0, err
    assert f"run {alive}: took over" in err and f"claimed by run {dead}, which is gone" in err
    by_run = rows_by_run(store)
    assert by_run[dead] >= 10 and by_run[dead] + by_run[alive] == TOTAL and run_count(out) == by_run[alive]
    assert summary(store) == reference
    no_duplicates_or_claims_left(store)
    with sqlite3.connect(store) as db:
        assert dict(db.execute("SELECT id, status FROM runs")) == {dead: "killed", alive: "done"}


def test_a_failure_in_the_other_run_is_in_both_runs_summaries(tmp_path, job):
    """The task that keeps killing its worker is run (three times) by one run only; both say it
    failed and exit 1."""
    store = tmp_path / "store.sqlite"
    faults = "delay:0.01;kill:5x5:1,1:always"
    runs = [start_knight(["run", str(job), "--workers", "1", "--json"], store, faults=faults) for _ in range(2)]
    try:
        outputs = [run.communicate(timeout=120) for run in runs]
    finally:
        for run in runs:
            end_session(run)
    assert [run.returncode for run in runs] == [1, 1], outputs
    for out, _ in outputs:
        failures = json.loads(out)["failures"]
        # each its worker lost three times (which of pebble's paths saw the death first, the signal or the end, varies)
        assert len(failures) == 2 and all(" while running it, 3 times" in f for f in failures)
    with Store(store, read_only=True) as opened:
        lost = opened.failures()
    assert [record.failure.cause for record in lost] == [FailureCause.WORKER_LOST] * 2
    assert sum(run_count(out) for out, _ in outputs) == TOTAL
    no_duplicates_or_claims_left(store)


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interruption_at_any_stage_of_a_command_is_one_line_and_status_130(tmp_path, how):
    """While the command line loads, while the kernels load, and while a big tour is built or printed (the times
    from the moment knight's entry point runs: before it, the interpreter is still starting)."""
    for after in (0.05, 1.0, 2.5):
        command = start_knight(["tour", "1500", "--tie", "roth", "--json"], tmp_path / "unused.sqlite")
        try:
            wait_until_knight_catches_signals(command)
            time.sleep(after)
            command.send_signal(how)
            _, err = command.communicate(timeout=60)
        finally:
            end_session(command)
        assert (command.returncode, err) == (130, "knight: interrupted\n"), after
