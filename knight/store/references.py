"""Do the store's rows refer to rows that are there? A task's results, outcome and job records name it by key, a
census's units, jobs and classes name it by id; a row deleted by hand, or a table dropped and made again empty,
leaves those rows pointing at nothing. Such rows are damage: readers would not see them (they join on the task)
while runs took them for done work, so a task could be gone for good with the store called sound.

The references are the schema's foreign keys (:mod:`knight.store.schema`), less those to ``runs`` (a result's run
is a note, not part of it) and the claims (transient). SQLite does not enforce them on a connection that did not
ask (the ``sqlite3`` shell), so they are checked here, and :func:`drop_orphans` deletes the rows left pointing at
nothing, so that the next run registers and computes those tasks again.
"""

from __future__ import annotations

import sqlite3

from knight.tasks import kinds

__all__ = ["CENSUS_REFERENCES", "drop_orphans", "orphan_censuses", "orphan_tasks", "task_references"]
#: The tables whose rows name a census (column ``census_id``); ``census_classes`` may be missing (a store written
#: before it existed, read without writing: :mod:`knight.store.schema`), and is then passed over.
CENSUS_REFERENCES = ("census_tasks", "job_censuses", "census_classes")

_NO_TASK = "NOT EXISTS (SELECT 1 FROM tasks t WHERE t.key = {table}.task_key)"
_NO_CENSUS = "NOT EXISTS (SELECT 1 FROM censuses c WHERE c.id = {table}.census_id)"


def task_references(db: sqlite3.Connection) -> list[str]:
    """The tables whose rows name a task (column ``task_key``), each row meaningless without it: the results, every
    kind's outcome table the store has (:func:`knight.tasks.kinds`), the jobs' and the censuses' lists of tasks."""
    outcomes = [kind.table for kind in kinds()]
    if _present(db, ("stored_kinds",)):  # a kind's table the store knows, its module loaded here or not
        outcomes += [str(t) for (t,) in db.execute("SELECT outcome_table FROM stored_kinds") if str(t).isidentifier()]
    return _present(db, ("results", *dict.fromkeys(outcomes), "job_tasks", "census_tasks"))


def orphan_tasks(db: sqlite3.Connection, limit: int | None = None) -> list[tuple[str, str, str | None]]:
    """The task keys that rows refer to but table ``tasks`` lacks: each with the tables that refer to it
    (comma-separated) and the jobs that ask for it (None for none), at most ``limit`` of them."""
    union = " UNION ALL ".join(
        f"SELECT task_key, '{table}' AS name FROM {table} WHERE {_NO_TASK.format(table=table)}"
        for table in task_references(db)
    )
    return db.execute(
        f"SELECT o.task_key, group_concat(DISTINCT o.name), "
        f"(SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = o.task_key) "
        f"FROM ({union}) o GROUP BY o.task_key ORDER BY o.task_key{_limit(limit)}"
    ).fetchall()


def orphan_censuses(db: sqlite3.Connection, limit: int | None = None) -> list[tuple[int, str]]:
    """The census ids that rows refer to but table ``censuses`` lacks, each with the tables that refer to it."""
    union = " UNION ALL ".join(
        f"SELECT census_id, '{table}' AS name FROM {table} WHERE {_NO_CENSUS.format(table=table)}"
        for table in _present(db, CENSUS_REFERENCES)
    )
    return db.execute(
        f"SELECT o.census_id, group_concat(DISTINCT o.name) FROM ({union}) o "
        f"GROUP BY o.census_id ORDER BY o.census_id{_limit(limit)}"
    ).fetchall()


def drop_orphans(db: sqlite3.Connection) -> None:
    """Delete every row that refers to a task or a census the store lacks (inside the caller's transaction)."""
    for table in task_references(db):
        db.execute(f"DELETE FROM {table} WHERE {_NO_TASK.format(table=table)}")
    for table in _present(db, CENSUS_REFERENCES):
        db.execute(f"DELETE FROM {table} WHERE {_NO_CENSUS.format(table=table)}")


def _present(db: sqlite3.Connection, tables: tuple[str, ...]) -> list[str]:
    """Those of ``tables`` that the store has."""
    present = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return [table for table in tables if table in present]


def _limit(limit: int | None) -> str:
    return "" if limit is None else f" LIMIT {int(limit)}"
