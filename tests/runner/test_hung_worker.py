"""A hung worker (stopped, never dying) is ended by the runner and its task retried like a killed worker's.

The worker stops itself with SIGSTOP on one task (``stop:`` of ``KNIGHT_FAULT_INJECTION``); the runner, its
hung threshold lowered to a second (``KNIGHT_HUNG_AFTER``), kills it, and the run ends with every result.
"""

from __future__ import annotations

import signal
import sqlite3

import pytest
from runner_helpers import knight, stored_results, summary, write_job
from test_faults import SWEEP, TOTAL


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="no SIGSTOP on this system")
def test_a_stopped_worker_is_ended_and_its_task_retried(tmp_path, monkeypatch):
    job = write_job(tmp_path, "faulty", SWEEP)
    clean = tmp_path / "clean.sqlite"
    assert knight(["run", str(job), "--workers", "2"], clean).returncode == 0
    monkeypatch.setenv("KNIGHT_HUNG_AFTER", "1")  # seconds: the default is a minute
    store, marker = tmp_path / "store.sqlite", tmp_path / "stopped-once"
    done = knight(["run", str(job), "--workers", "2"], store, faults=f"stop:6x6:2,3:{marker}", timeout=60)
    assert done.returncode == 0, done.stderr
    assert marker.exists()  # the worker really stopped
    assert stored_results(store) == TOTAL
    assert summary(store) == summary(clean)
    with sqlite3.connect(store) as db:
        attempts = sorted(
            row[0]
            for row in db.execute(
                "SELECT r.attempts FROM results r JOIN tasks t ON t.key = r.task_key "
                "WHERE t.n = 6 AND t.start_row = 2 AND t.start_col = 3"
            )
        )
        assert db.execute("SELECT MAX(attempts) FROM results").fetchone()[0] == 2
    assert attempts[-1] == 2 and attempts.count(2) == 1  # the stopped task alone was run again


def test_the_threshold_is_a_floor_or_twenty_times_the_expected_time(monkeypatch):
    from knight.errors import InvalidInput
    from knight.runner.pool import hung_after, hung_floor

    assert (hung_after(None), hung_after(0.01), hung_after(10.0), hung_after(0.01, floor=1.0)) == (60, 60, 200, 1)
    monkeypatch.delenv("KNIGHT_HUNG_AFTER", raising=False)
    assert hung_floor() == 60
    monkeypatch.setenv("KNIGHT_HUNG_AFTER", "2.5")
    assert hung_floor() == 2.5
    for bad in ("0", "-1", "soon", "nan", "inf"):
        monkeypatch.setenv("KNIGHT_HUNG_AFTER", bad)
        with pytest.raises(InvalidInput):
            hung_floor()
