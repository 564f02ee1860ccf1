"""Claims: two runs of one job share its tasks through the ``claims`` table.

A live run claims each chunk of tasks before it runs it (:meth:`knight.store.Store.claim`); a claim goes when the
task's result is stored or its run ends, and one whose run's process is gone is taken over; so is one of a run on
another host (whose process cannot be asked) not renewed for :data:`CLAIM_TIMEOUT` seconds. A live process on this
host keeps its claims however long a task takes (a frontier count may take hours: its runner stores nothing
meanwhile). Each function writes inside the caller's transaction.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from knight.store import integrity, runs
from knight.tasks import Failure, failure_cause

__all__ = [
    "CLAIM_TIMEOUT",
    "RENEW_SECONDS",
    "Claimed",
    "Outcome",
    "Renewals",
    "claim",
    "outcomes",
    "release",
    "release_ended",
    "release_run",
]

#: Seconds after which a claim that its run has not renewed is taken over, even when its process
#: cannot be seen to have died (another host sharing the store, a hung process). A run renews its
#: claims when it stores a chunk, at most every :data:`RENEW_SECONDS`, so this only has to outlast the
#: slowest chunk and that; when it does not, a task is run twice, which costs time, not correctness
#: (the first result is kept).
CLAIM_TIMEOUT = 3600.0
#: The least time between two renewals of a run's claims (each rewrites every claim it holds).
RENEW_SECONDS = 60.0


@dataclass
class Claimed:
    """What :meth:`Store.claim` gave a run: the tasks it may run now (``granted``, its own earlier
    claims included), and, by other run, the tasks it took over from a run whose process is gone or
    whose claim expired (``taken_over``) and those a live run holds (``held``)."""

    granted: set[str] = field(default_factory=set)
    taken_over: dict[int, int] = field(default_factory=dict)
    held: dict[int, int] = field(default_factory=dict)


class Outcome(NamedTuple):
    """A finished task's outcome as :meth:`Store.outcomes` reads it: ``done`` or ``failed``, the
    failure (None when done), and the run that recorded it."""

    status: str
    failure: Failure | None
    run_id: int | None


def _finished(db: sqlite3.Connection) -> str:
    """The tasks of the JSON list ``:keys`` that are finished as far as run ``:run`` is concerned: done (with
    their result), or given an outcome since the run started."""
    return f"""
SELECT r.task_key, r.status, r.cause, r.error, r.run_id FROM results r
WHERE r.task_key IN (SELECT value FROM json_each(:keys))
  AND (r.finished >= (SELECT started FROM runs WHERE id = :run) OR (r.status = 'done' AND NOT ({integrity.no_outcome(db)})))
"""


def claim(db: sqlite3.Connection, run_id: int, keys: Iterable[str]) -> Claimed:
    """Claim for run ``run_id`` the tasks of ``keys`` that it may run now (the rules: :meth:`Store.claim`)."""
    asked = list(keys)
    wanted = json.dumps(asked)
    claimed = Claimed()
    now = time.time()
    finished = {key for key, *_ in db.execute(_finished(db), {"keys": wanted, "run": run_id})}
    owners = {
        key: (owner, pid, host, claimed_at, status)
        for key, owner, pid, host, claimed_at, status in db.execute(
            "SELECT c.task_key, c.run_id, c.pid, c.host, c.claimed_at, r.status FROM claims c "
            "LEFT JOIN runs r ON r.id = c.run_id WHERE c.task_key IN (SELECT value FROM json_each(?))",
            (wanted,),
        )
    }
    gone: dict[int, bool] = {}  # each owner's verdict, once
    for key in asked:
        if key in finished:
            continue
        if key in owners and owners[key][0] != run_id:
            owner, pid, host, claimed_at, status = owners[key]
            if owner not in gone:
                gone[owner] = status != "running" or (host == runs.HOST and not runs.alive(pid))
            if not gone[owner] and (host == runs.HOST or now - claimed_at <= CLAIM_TIMEOUT):
                claimed.held[owner] = claimed.held.get(owner, 0) + 1
                continue
            claimed.taken_over[owner] = claimed.taken_over.get(owner, 0) + 1
        claimed.granted.add(key)
    for owner, dead in gone.items():
        if dead:  # all its claims go, not only those asked for here
            runs.mark_killed(db, owner)
            release_run(db, owner)
    db.execute(  # one statement for the chunk's claims
        "INSERT OR REPLACE INTO claims SELECT value, ?, ?, ?, ? FROM json_each(?)",
        (run_id, os.getpid(), runs.HOST, now, json.dumps(sorted(claimed.granted))),
    )
    return claimed


def outcomes(db: sqlite3.Connection, run_id: int, keys: Iterable[str]) -> dict[str, Outcome]:
    """The outcome of each task of ``keys`` that is done, or that failed since run ``run_id`` started."""
    rows = db.execute(_finished(db), {"keys": json.dumps(list(keys)), "run": run_id})
    return {
        key: Outcome(status, None if status == "done" else Failure(failure_cause(cause), error), owner)
        for key, status, cause, error, owner in rows
    }


def release(db: sqlite3.Connection, run_id: int, keys: list[str]) -> None:
    """Drop run ``run_id``'s claims on ``keys`` (finished: one statement for them all)."""
    db.execute(
        "DELETE FROM claims WHERE run_id = ? AND task_key IN (SELECT value FROM json_each(?))",
        (run_id, json.dumps(keys)),
    )


def release_run(db: sqlite3.Connection, run_id: int) -> None:
    """Drop every claim of run ``run_id`` (it has ended, or is gone): what it had not finished is free at once."""
    db.execute("DELETE FROM claims WHERE run_id = ?", (run_id,))


def release_ended(db: sqlite3.Connection) -> None:
    """Drop the claims of every run that is no longer ``running``."""
    db.execute("DELETE FROM claims WHERE run_id IN (SELECT id FROM runs WHERE status != 'running')")


class Renewals:
    """When each run's claims were last renewed (by this store object), so that storing results renews them at
    most every :data:`RENEW_SECONDS`."""

    def __init__(self) -> None:
        self.last: dict[int, float] = {}

    def renew(self, db: sqlite3.Connection, run_id: int, now: float) -> None:
        """Renew run ``run_id``'s claims, when they were not renewed in the last :data:`RENEW_SECONDS`."""
        if now - self.last.get(run_id, 0.0) >= RENEW_SECONDS:
            db.execute("UPDATE claims SET claimed_at = ? WHERE run_id = ?", (now, run_id))
            self.last[run_id] = now
