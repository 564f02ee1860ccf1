"""Claims: how two runs of one job share its tasks through the store, and how the pool asks for them.

The runs themselves, two `knight run` processes at once and one SIGKILLed, are in test_faults.py.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time

import pytest

from knight.engine import Board, find_tour
from knight.errors import StoreVersionError
from knight.runner.pool import ProcessPool, split
from knight.store import CLAIM_TIMEOUT, Store
from knight.store.database import HOST
from knight.tasks import Failure, FailureCause, Task, TaskResult

BOOM = Failure(FailureCause.ENGINE, "ValueError: boom")

KEYS = [f"k{i}" for i in range(6)]


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "s.sqlite") as opened:
        with opened.transaction() as db:  # tasks rows for the results stored below (foreign keys)
            db.executemany(
                "INSERT INTO tasks VALUES (?, 'warnsdorff', '{}', '{}', 5, 5, 0, 0)", [(key,) for key in KEYS]
            )
        yield opened


def dead_pid() -> int:
    """The id of a process that has ended."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    return ended.pid


def claims(store: Store) -> dict[str, int]:
    return dict(store.db.execute("SELECT task_key, run_id FROM claims"))


def done(key: str) -> TaskResult:
    return TaskResult.from_tour(key, find_tour(Board(5, 5), (0, 0), "warnsdorff", compiled=True))


def test_a_live_runs_claims_are_left_to_it_and_released_with_its_results_and_its_end(store):
    first, second = store.start_run(["j"], "process", 1), store.start_run(["j"], "process", 1)
    assert store.claim(first, KEYS[:4]).granted == set(KEYS[:4])
    taken = store.claim(second, KEYS)  # this process is alive: the first run's claims stand
    assert taken.granted == set(KEYS[4:]) and taken.held == {first: 4} and taken.taken_over == {}
    assert store.claim(first, KEYS[:2]).granted == set(KEYS[:2])  # its own: renewed
    store.record(first, [done(KEYS[0]), TaskResult(KEYS[1], 5, 5, "warnsdorff", ok=False, failure=BOOM)])
    assert claims(store) == {KEYS[2]: first, KEYS[3]: first, KEYS[4]: second, KEYS[5]: second}
    # finished since the second run began, done or failed: not to be run again, and its outcome counts
    assert store.claim(second, KEYS[:2]).granted == set()
    outcomes = store.outcomes(second, KEYS)
    assert {key: (o.status, o.run_id) for key, o in outcomes.items()} == {
        KEYS[0]: ("done", first),
        KEYS[1]: ("failed", first),
    }
    assert outcomes[KEYS[1]].failure == BOOM  # cause and message, as recorded
    store.finish_run(first, "interrupted", 6, 2)
    assert claims(store) == {KEYS[4]: second, KEYS[5]: second}
    assert store.claim(second, KEYS).granted == set(KEYS[2:])  # free now; the failure stays this run's outcome


def test_a_failure_from_before_the_run_is_tried_again(store):
    earlier = store.start_run(["j"], "process", 1)
    store.record(earlier, [TaskResult(KEYS[0], 5, 5, "warnsdorff", ok=False, failure=BOOM)])
    store.finish_run(earlier, "done", 1, 1)
    later = store.start_run(["j"], "process", 1)
    assert store.outcomes(later, KEYS) == {}
    assert store.claim(later, KEYS[:1]).granted == {KEYS[0]}


def test_the_claims_of_a_run_whose_process_is_gone_are_taken_over(store):
    gone, alive = store.start_run(["j"], "process", 1), store.start_run(["j"], "process", 1)
    assert store.claim(gone, KEYS[:3]).granted == set(KEYS[:3])
    with store.transaction() as db:  # as if its process had been SIGKILLed
        pid = dead_pid()
        db.execute("UPDATE runs SET pid = ? WHERE id = ?", (pid, gone))
        db.execute("UPDATE claims SET pid = ? WHERE run_id = ?", (pid, gone))
    taken = store.claim(alive, KEYS[1:])
    assert taken.granted == set(KEYS[1:]) and taken.taken_over == {gone: 2} and taken.held == {}
    assert claims(store) == {key: alive for key in KEYS[1:]}  # all the dead run's claims went
    status = dict(store.db.execute("SELECT id, status FROM runs"))
    assert status == {gone: "killed", alive: "running"}
    killed = store.start_run(["j"], "process", 1)
    store.claim(killed, KEYS[:1])
    with store.transaction() as db:
        db.execute("UPDATE runs SET pid = ? WHERE id = ?", (pid, killed))
    later = store.start_run(["j"], "process", 1)  # a run that starts later finds it dead and clears its claims
    assert claims(store) == {key: alive for key in KEYS[1:]}
    assert store.claim(later, KEYS).granted == {KEYS[0]}


def test_a_claim_not_renewed_for_the_timeout_is_taken_over_from_another_host_only(store):
    hung, other = store.start_run(["j"], "process", 1), store.start_run(["j"], "process", 1)
    store.claim(hung, KEYS[:3])
    with store.transaction() as db:  # renewed just in time on one task, not on the others
        db.execute("UPDATE claims SET claimed_at = claimed_at - ? WHERE task_key = ?", (CLAIM_TIMEOUT - 60, KEYS[0]))
        db.execute(
            "UPDATE claims SET claimed_at = claimed_at - ? WHERE task_key IN (?, ?)", (CLAIM_TIMEOUT + 1, *KEYS[1:3])
        )
    # a live process of this host keeps them however long its task takes (a frontier count of hours)
    assert store.claim(other, KEYS[:3]).granted == set()
    with store.transaction() as db:  # the same run, as if on another host: its process cannot be asked
        db.execute("UPDATE claims SET host = 'elsewhere' WHERE run_id = ?", (hung,))
    taken = store.claim(other, KEYS[:2])
    assert taken.granted == {KEYS[1]} and taken.taken_over == {hung: 1} and taken.held == {hung: 1}
    store.record(hung, [done(KEYS[2])])  # storing results renews the rest of a run's claims
    assert (
        store.db.execute("SELECT MIN(claimed_at) FROM claims WHERE run_id = ?", (hung,)).fetchone()[0]
        > (store.db.execute("SELECT started FROM runs WHERE id = ?", (other,)).fetchone()[0])
    )


def test_claims_need_the_new_store_version(tmp_path):
    """Claims changed the schema: a store of the version before is refused, not half used."""
    old = tmp_path / "v5.sqlite"
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY)")
        db.execute("PRAGMA user_version = 5")
    with pytest.raises(StoreVersionError, match="version 5"):
        Store(old)


def tasks(count: int) -> list[Task]:
    return [Task("warnsdorff", (("tie", "first"),), 6, 6, (i // 6, i % 6)) for i in range(count)]


def test_the_pool_runs_only_the_chunks_it_is_granted_each_claimed_just_before_it_is_sent(monkeypatch):
    asked: list[list[Task]] = []
    results: list[TaskResult] = []

    def every_other_chunk(chunk: list[Task]) -> list[Task]:
        asked.append(chunk)
        return chunk if len(asked) % 2 else chunk[:1]  # the second chunk: only its first task

    work = tasks(36)
    ProcessPool(2).run(work, results.extend, every_other_chunk)
    assert asked == split(work, 2)  # every chunk asked for once, in order
    granted = [task.key for i, chunk in enumerate(asked) for task in (chunk if i % 2 == 0 else chunk[:1])]
    assert sorted(result.key for result in results) == sorted(granted) and len(granted) < len(work)
    assert all(result.ok for result in results)

    started = []
    monkeypatch.setattr(
        ProcessPool, "_start_workers", lambda pool, slots: started.append(pool) or pytest.fail("started")
    )
    ProcessPool(2).run(work, results.extend, lambda chunk: [])  # another run holds everything
    assert started == []


def test_a_run_on_another_host_is_not_judged_by_a_pid_of_this_host(store):
    """A run left running on another host sharing the store is left to the claims' timeout; one on this host
    whose process is gone is marked killed."""
    with store.transaction() as db:
        for host in ("elsewhere", HOST):
            db.execute(
                "INSERT INTO runs (started, status, jobs, executor, workers, pid, host) "
                "VALUES (?, 'running', '[]', 'process', 1, ?, ?)",
                (time.time(), 2**22 + 12345, host),  # a pid no process has here
            )
    store.start_run(["j"], "process", 1)
    status = dict(store.db.execute("SELECT host, status FROM runs WHERE host != '' AND pid = ?", (2**22 + 12345,)))
    assert status == {"elsewhere": "running", HOST: "killed"}
