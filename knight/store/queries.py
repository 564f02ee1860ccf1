"""The reads every kind shares: the done tasks, the failed ones and the jobs (a connection opened read-only will do
for each; :class:`knight.store.Store` names them to its readers). Each kind reads its own results back in its own
module (:mod:`knight.tasks.tour`, :mod:`~knight.tasks.census`, :mod:`~knight.tasks.frontier`,
:mod:`~knight.tasks.estimate`: ``records``), which the store names too."""

from __future__ import annotations

import json
import sqlite3

from knight.engine.board import size_text
from knight.store import integrity
from knight.store.records import FailureRecord
from knight.tasks import FRONTIER, Failure, FrontierParams, failure_cause

__all__ = ["done_keys", "failures", "jobs"]


def done_keys(db: sqlite3.Connection) -> set[str]:
    """The keys of every task marked done whose result is in the store."""
    return {
        key
        for (key,) in db.execute(
            f"SELECT r.task_key FROM results r WHERE r.status = 'done' AND NOT ({integrity.no_outcome(db)})"
        )
    }


def failures(db: sqlite3.Connection, job: str | None = None) -> list[FailureRecord]:
    """Failed tasks, by key."""
    rows = db.execute(
        "SELECT DISTINCT t.key, t.method, t.params, t.n, t.m, t.start_row, t.start_col, r.attempts, r.cause, r.error "
        "FROM results r JOIN tasks t ON t.key = r.task_key JOIN job_tasks j ON j.task_key = t.key "
        "WHERE r.status = 'failed' AND (? IS NULL OR j.job = ?) ORDER BY t.key",
        (job, job),
    )
    return [
        FailureRecord(key, _failed_task(method, params, n, m, row, col), attempts, Failure(failure_cause(cause), error))
        for key, method, params, n, m, row, col, attempts, cause, error in rows
    ]


def _failed_task(method: str, params: str, n: int, m: int, row: int, col: int) -> str:
    """What a failed task is, for its line: a frontier count as the runner says it (``frontier 6x6 open``: it has
    no start square), any other task with its parameters and start."""
    if method == FRONTIER:
        try:
            return f"{FRONTIER} {FrontierParams.of(json.loads(params)).describe(n, m)}"
        except (ValueError, TypeError, AttributeError):  # a damaged row (`knight verify` says so): as it is
            return f"{FRONTIER} {params} {size_text(n, m)}"
    return f"{method} {params} {size_text(n, m)} from ({row}, {col})"


def jobs(db: sqlite3.Connection) -> list[str]:
    """The names of the jobs the store knows."""
    return [job for (job,) in db.execute("SELECT DISTINCT job FROM job_tasks ORDER BY job")]
