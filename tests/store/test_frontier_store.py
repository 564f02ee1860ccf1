"""Frontier counts in the store: table ``frontier_counts``, sealed like every outcome, read back as records;
damage to one is found and repaired like damage to any result; a store of the version before them is refused."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import knight_here
from runner_helpers import write_job

from knight.errors import StoreVersionError
from knight.runner import load_job, run_jobs
from knight.runner.progress import LineReporter
from knight.store import SCHEMA_VERSION, FrontierRecord, Store
from knight.store.database import sealed
from knight.store.integrity import checksum
from knight.tasks import FailureCause, FrontierParams, FrontierResult, TaskResult, incomplete

JOB = """
name = "counts"
[[sweep]]
boards = ["3x4", "4x5"]
method = "frontier"
params = { closed = [false, true] }
"""


def run(job: Path, path: Path) -> None:
    with Store(path) as store:
        assert run_jobs([load_job(job)], store, reporter=LineReporter(io.StringIO())).failed == 0


def test_a_count_is_sealed_as_its_stored_row(tmp_path: Path) -> None:
    task = FrontierParams(False).task(4, 5)
    result = sealed(TaskResult.from_frontier(task.key, 4, 5, FrontierResult(164, 1539, 6647, 0.25)))
    assert result.checksum == checksum(task.key, 164, 1539, 6647, 0.25, 1)
    with Store(tmp_path / "s.sqlite") as store:
        store.register_job("one", [task])
        run_id = store.start_run(["one"], "process", 1)
        assert store.record(run_id, [result]) == 2  # its count, and its done result
        store.finish_run(run_id, "done", 1, 1)
        assert store.problems() == []
        assert store.frontier_counts() == [FrontierRecord(4, 5, False, (), 164, 1539, 6647, 0.25, 1, ("one",))]
        assert store.done_keys() == {task.key}
        assert store.summary() == []  # a count, not a tour: no row of the tours' summary


@pytest.mark.parametrize(
    "found",
    [
        FrontierResult(-1, 1, 1, 0.1),
        FrontierResult(5, 3, 2, 0.1),  # a peak above the states held in all
        FrontierResult(5, 1, 2, float("nan")),
        FrontierResult(5, 1, 2, -1.0),
        FrontierResult(5, 1, 2, 0.1, shards=0),
    ],
)
def test_an_impossible_count_is_stored_as_a_failure(tmp_path: Path, found: FrontierResult) -> None:
    task = FrontierParams(True).task(3, 4)
    result = TaskResult.from_frontier(task.key, 3, 4, found)
    assert incomplete(result).startswith("invalid count")
    with Store(tmp_path / "s.sqlite") as store:
        store.register_job("one", [task])
        run_id = store.start_run(["one"], "process", 1)
        store.record(run_id, [result])
        (failure,) = store.failures()
        assert failure.key == task.key and failure.failure.cause is FailureCause.INVALID
        assert failure.failure.message.startswith("invalid count")
        assert store.frontier_counts() == []


def test_a_changed_count_is_found_and_counted_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job, path = write_job(tmp_path, "counts", JOB), tmp_path / "s.sqlite"
    run(job, path)
    with Store(path, read_only=True) as store:
        clean = store.frontier_counts()
    assert len(clean) == 4 and any(record.tours for record in clean)
    with sqlite3.connect(path) as db:
        (key,) = db.execute("SELECT task_key FROM frontier_counts WHERE tours > 0 LIMIT 1").fetchone()
        db.execute("UPDATE frontier_counts SET tours = tours + 2 WHERE task_key = ?", (key,))
    refused = knight_here(capsys, ["results", "--store", str(path)])
    assert refused.returncode == 2 and "knight verify --repair" in refused.stderr
    verified = knight_here(capsys, ["verify", "--store", str(path)])
    assert verified.returncode != 0 and key in verified.stdout + verified.stderr
    assert "(frontier count of " in verified.stdout and "from (0, 0)" not in verified.stdout  # a count has no start
    repaired = knight_here(capsys, ["verify", "--repair", "--store", str(path)])
    assert repaired.returncode == 1 and "dropped" in repaired.stdout  # 1: it found damage
    assert knight_here(capsys, ["verify", "--store", str(path)]).returncode == 0
    run(job, path)  # the dropped count is made again
    with Store(path, read_only=True) as store:
        store.refuse_if_damaged()
        assert [(r.n, r.m, r.closed, r.tours) for r in store.frontier_counts()] == [
            (r.n, r.m, r.closed, r.tours) for r in clean
        ]


def test_a_store_from_before_frontier_counts_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.sqlite"
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 7")  # frontier counts came with version 8
    with pytest.raises(StoreVersionError):
        Store(path, read_only=True)
    ran = knight_here(capsys, ["census", "4", "5", "--method", "frontier", "--store", str(path)])
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1
    assert f"format version 7, this knight writes version {SCHEMA_VERSION}" in ran.stderr
