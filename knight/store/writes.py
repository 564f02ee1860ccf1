"""What a run writes: its jobs' tasks and censuses, and each finished task's outcome row with its checksum.

Rows are made before the write transaction (so that it stays short) and written inside the caller's
(:meth:`knight.store.Store.transaction`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from knight.engine.board import Square
from knight.store import integrity
from knight.tasks import Failure, FailureCause, TaskResult, incomplete, kind_of, validate

__all__ = [
    "ResultRows",
    "outcome_row",
    "record_classes",
    "register_job",
    "result_rows",
    "sealed",
    "task_rows",
    "write_results",
]


def task_rows(tasks: Iterable[Any]) -> list[tuple[Any, ...]]:
    """The rows of ``tasks`` (runner Tasks) for the ``tasks`` table."""
    texts: dict[Any, tuple[str, str]] = {}  # a sweep has few parameter sets: encode each once
    rows = []
    for t in tasks:
        if t.params not in texts:
            texts[t.params] = (json.dumps(t.params_dict, sort_keys=True), json.dumps(t.group_params, sort_keys=True))
        rows.append((t.key, t.method, *texts[t.params], t.n, t.m, t.start[0], t.start[1]))
    return rows


def register_job(db: sqlite3.Connection, job: str, rows: list[tuple[Any, ...]], censuses: Iterable[Any]) -> None:
    """Make the tasks of ``rows`` (:func:`task_rows`) exactly those of ``job``, and ``censuses`` (runner
    CensusPlans) exactly the censuses it asks for (:meth:`Store.register_job`)."""
    registered = {key for (key,) in db.execute("SELECT task_key FROM job_tasks WHERE job = ?", (job,))}
    if registered != {row[0] for row in rows}:  # an unchanged job (the usual re-run) writes nothing
        db.executemany("INSERT OR IGNORE INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        db.execute("DELETE FROM job_tasks WHERE job = ?", (job,))
        db.executemany("INSERT INTO job_tasks VALUES (?, ?)", [(job, row[0]) for row in rows])
    wanted = []
    for plan in censuses:
        spec = plan.spec
        definition = (
            spec.n,
            spec.m,
            int(spec.closed),
            _squares_text(spec.removed),
            "all" if spec.starts is None else _squares_text(spec.starts),
            spec.depth,
        )
        db.execute(
            "INSERT OR IGNORE INTO censuses (n, m, closed, removed, starts, depth, units) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (*definition, len(plan.keys)),
        )
        (census_id,) = db.execute(
            "SELECT id FROM censuses WHERE n = ? AND m = ? AND closed = ? AND removed = ? AND starts = ? AND depth = ?",
            definition,
        ).fetchone()
        stored = {k for (k,) in db.execute("SELECT task_key FROM census_tasks WHERE census_id = ?", (census_id,))}
        if stored != set(plan.keys):  # new, or split into other units by another version of the engine
            db.execute("DELETE FROM census_tasks WHERE census_id = ?", (census_id,))
            db.executemany("INSERT INTO census_tasks VALUES (?, ?)", [(census_id, key) for key in plan.keys])
            db.execute("UPDATE censuses SET units = ? WHERE id = ?", (len(plan.keys), census_id))
        db.execute("INSERT OR IGNORE INTO job_censuses VALUES (?, ?)", (job, census_id))
        wanted.append(census_id)
    db.execute(  # those it no longer asks for (an unchanged job, the usual re-run, writes nothing)
        "DELETE FROM job_censuses WHERE job = ? AND census_id NOT IN (SELECT value FROM json_each(?))",
        (job, json.dumps(wanted)),
    )


@dataclass
class ResultRows:
    """The rows that store a batch of finished tasks: ``done`` and ``failed`` go to ``results``, each outcome to its
    kind's table (``outcomes``: table -> rows), rows derived from them (``derived``) over any older ones; ``sealed``
    names the outcome tables whose checksums are made from the stored rows (table -> task keys)."""

    done: list[tuple[str, int, int, float, str | None]] = field(default_factory=list)
    failed: list[tuple[str, int, str, str, int, float]] = field(default_factory=list)
    outcomes: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    derived: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    sealed: dict[str, list[str]] = field(default_factory=dict)

    @property
    def finished(self) -> list[str]:
        """The keys of every task in the batch, done or failed."""
        return [row[0] for rows in (self.done, self.failed) for row in rows]


def result_rows(run_id: int, results: Iterable[TaskResult], now: float, *, revalidate: bool) -> ResultRows:
    """The rows that store ``results`` for run ``run_id`` at ``now``: each checked complete (with ``revalidate``,
    validated in full), one that is not stored as a failure with the reason."""
    rows = ResultRows()
    for result in results:
        problem = "" if not result.ok else (validate(result) if revalidate else incomplete(result))
        if not result.ok or problem:
            failure = result.failure or Failure(FailureCause.INVALID, problem)
            rows.failed.append((result.key, result.attempts, failure.cause.value, failure.message, run_id, now))
            continue
        kind = kind_of(result.method)
        row = outcome_row(result)
        rows.outcomes.setdefault(kind.table, []).append(row)
        for table, derived in kind.derived(result.key, result.outcome):
            rows.derived.setdefault(table, []).append(derived)
        if kind.sealed_when_stored:
            rows.sealed.setdefault(kind.table, []).append(result.key)
            rows.done.append((result.key, result.attempts, run_id, now, None))  # sealed from the stored row
            continue
        sealed_here = integrity.checksum(*row) if revalidate or not result.checksum else result.checksum
        rows.done.append((result.key, result.attempts, run_id, now, sealed_here))
    return rows


def write_results(db: sqlite3.Connection, rows: ResultRows) -> int:
    """Write ``rows``; how many rows changed. A done task already stored keeps its first result; a failed one
    is replaced by a later success."""
    before = db.total_changes
    for table, outcomes in rows.outcomes.items():
        db.executemany(f"INSERT OR IGNORE INTO {table} VALUES ({', '.join('?' * len(outcomes[0]))})", outcomes)
    for table, derived in rows.derived.items():
        db.executemany(f"INSERT OR REPLACE INTO {table} VALUES ({', '.join('?' * len(derived[0]))})", derived)
    db.executemany(
        "INSERT INTO results (task_key, status, attempts, run_id, finished, checksum) "
        "VALUES (?, 'done', ?, ?, ?, ?) "
        "ON CONFLICT (task_key) DO UPDATE SET status = 'done', attempts = excluded.attempts, cause = '', error = '', "
        "run_id = excluded.run_id, finished = excluded.finished, checksum = excluded.checksum "
        "WHERE status = 'failed'",
        rows.done,
    )
    db.executemany(
        "INSERT INTO results (task_key, status, attempts, cause, error, run_id, finished) "
        "VALUES (?, 'failed', ?, ?, ?, ?, ?) ON CONFLICT (task_key) DO UPDATE SET attempts = excluded.attempts, "
        "cause = excluded.cause, error = excluded.error, run_id = excluded.run_id, finished = excluded.finished "
        "WHERE status = 'failed'",
        rows.failed,
    )
    changed = db.total_changes - before
    integrity.seal(db, rows.sealed)  # their REAL columns: read back
    return changed


def record_classes(db: sqlite3.Connection, census_id: int, classes: int) -> None:
    """Store the number of closed tours up to symmetry of a complete census."""
    db.execute("INSERT OR REPLACE INTO census_classes VALUES (?, ?)", (census_id, classes))


def outcome_row(result: TaskResult) -> tuple[Any, ...]:
    """The row of its kind's table that stores a done result: its key, then the kind's values as SQLite gives them
    back (a bool is an integer there, a time a float), so that its checksum is the one readers compute from the
    stored row."""
    return (result.key, *kind_of(result.method).row(result.outcome))


def sealed(result: TaskResult) -> TaskResult:
    """``result`` with the checksum of the row that will store it, computed where it was made (a worker), so
    that the runner, which stores every result, does not spend its time on it; and a change on the way to the
    store is caught by :mod:`knight.store.integrity` like one on disk. Failures, and the outcomes of a kind sealed
    from its stored row, are left as they are."""
    if not result.ok or kind_of(result.method).sealed_when_stored:
        return result
    return replace(result, checksum=integrity.checksum(*outcome_row(result)))


def _squares_text(squares: Iterable[Square]) -> str:
    """Squares as canonical JSON, ``[[row, col], ...]`` in order, for the ``censuses`` table."""
    return json.dumps(sorted([int(row), int(col)] for row, col in squares), separators=(",", ":"))
