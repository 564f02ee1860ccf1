"""A store of an earlier version is migrated in place when opened (issue 39, items 4 and 8; issue 40, item 5).
Version 8 kept a failure's cause only in its message (``TooManyStates: …``); version 9 keeps it in
``results.cause``, and no reader parses it. Version 9 had no ``frontier_counts.shards``: its counts were made in
one process. The older stores here are this version's, taken back by hand: the ``shards`` column dropped and the
counts' checksums made as version 9 made them; for version 8, the ``cause`` column dropped too and the messages
written as version 8 wrote them; ``user_version`` set to the version."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from cli_helpers import knight_here

from knight.store import SCHEMA_VERSION, Store
from knight.store.integrity import checksum
from knight.tasks import Failure, FailureCause, Task, TaskResult

#: What version 8 wrote for each cause (the state cap: the error's class before the engine's line).
VERSION_8_MESSAGES = {
    FailureCause.ENGINE: "ValueError: boom",
    FailureCause.WORKER_LOST: "worker was killed by signal 9 while running it, 3 times",
    FailureCause.INVALID: "invalid tour: its squares are not the tour its key names",
}


#: A version-9 count's checksum: its row without the shards.
VERSION_9_CHECKSUM = (
    "UPDATE results SET checksum = (SELECT version_9_checksum(o.task_key, o.tours, o.peak_states, o.states, "
    "o.seconds) FROM frontier_counts o WHERE o.task_key = results.task_key) "
    "WHERE task_key IN (SELECT task_key FROM frontier_counts)"
)


def taken_back_to_version_9(path: Path) -> None:
    """Make the store at ``path`` as version 9 wrote it."""
    with sqlite3.connect(path) as db:
        db.create_function("version_9_checksum", -1, checksum, deterministic=True)
        db.execute(VERSION_9_CHECKSUM)
        db.execute("ALTER TABLE frontier_counts DROP COLUMN shards")
        db.execute("PRAGMA user_version = 9")
    db.close()


def taken_back_to_version_8(path: Path) -> None:
    """Make the store at ``path`` as version 8 wrote it."""
    taken_back_to_version_9(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE results SET error = 'TooManyStates: ' || error WHERE cause = 'state-cap'")
        db.execute("ALTER TABLE results DROP COLUMN cause")
        db.execute("PRAGMA user_version = 8")
    db.close()


def table_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every result table but ``results`` (which gains the column), sorted; the frontier counts
    without their shards."""
    with sqlite3.connect(path) as db:
        tables = ("tasks", "tours", "job_tasks", "runs")
        found = {table: sorted(db.execute(f"SELECT * FROM {table}"), key=repr) for table in tables}
        found["frontier_counts"] = sorted(
            db.execute("SELECT task_key, tours, peak_states, states, seconds FROM frontier_counts")
        )
    db.close()
    return found


@pytest.fixture
def old_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A store of this version with a done frontier count, a count past its state cap and a failure of each other cause."""
    path = tmp_path / "old.sqlite"
    assert knight_here(capsys, ["census", "3", "4", "--method", "frontier", "--store", str(path)]).returncode == 0
    capped = knight_here(capsys, ["census", "6", "--method", "frontier", "--max-states", "10", "--store", str(path)])
    assert capped.returncode == 2
    tasks = [Task("warnsdorff", (("seed", seed),), 5, 5, (0, 0)) for seed in range(3)]
    with Store(path) as store:
        store.register_job("failures", tasks)
        run = store.start_run(["failures"], "process", 1)
        store.record(
            run,
            [
                TaskResult.failed(task, Failure(cause, VERSION_8_MESSAGES[cause]))
                for task, cause in zip(tasks, VERSION_8_MESSAGES)
            ],
        )
        store.finish_run(run, "done", 3, 3)
        (path.parent / "written.txt").write_text(repr(store.failures()))  # as version 9 wrote them
    return path


@pytest.fixture
def version_8_store(old_store: Path) -> Path:
    taken_back_to_version_8(old_store)
    return old_store


def test_a_version_8_store_is_migrated_in_place_and_its_results_kept(version_8_store: Path) -> None:
    old_store = version_8_store
    before = table_rows(old_store)
    with Store(old_store) as store:
        failures = store.failures()
        (count,) = store.frontier_counts()
    assert repr(failures) == (old_store.parent / "written.txt").read_text()  # each cause and message as written
    assert {record.failure.cause for record in failures} == set(FailureCause)
    assert count.tours > 0 and count.shards == 1
    assert table_rows(old_store) == before  # nothing but the new columns changed
    with sqlite3.connect(old_store) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_a_version_8_store_opened_to_read_is_migrated_then_read(version_8_store: Path) -> None:
    with Store(version_8_store, read_only=True) as store:
        assert len(store.failures()) == 4 and len(store.frontier_counts()) == 1


def test_after_the_migration_the_command_line_says_the_cap_in_one_line_and_verify_finds_it_sound(
    version_8_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_store = version_8_store
    capped = knight_here(
        capsys, ["census", "6", "--method", "frontier", "--max-states", "10", "--store", str(old_store)]
    )
    assert capped.returncode == 2 and capped.stderr.count("\n") == 1 and "TooManyStates" not in capped.stderr
    assert knight_here(capsys, ["verify", "--store", str(old_store)]).returncode == 0


def test_a_version_9_count_is_one_shard_and_still_sealed(old_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = table_rows(old_store)
    taken_back_to_version_9(old_store)
    with Store(old_store) as store:
        (count,) = store.frontier_counts()
        assert count.shards == 1 and store.problems() == []
    assert table_rows(old_store) == before
    assert knight_here(capsys, ["verify", "--store", str(old_store)]).returncode == 0


def test_a_version_9_count_changed_by_hand_is_still_found(old_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    taken_back_to_version_9(old_store)
    with sqlite3.connect(old_store) as db:
        db.execute("UPDATE frontier_counts SET tours = tours + 1")
    db.close()
    with Store(old_store) as store:
        assert len(store.problems()) == 1  # its checksum was not made again over the change
