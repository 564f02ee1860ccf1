"""Is the store sound? Checksums on every stored result, the checks that use them, and the repair.

The threat is damage (a crash, a disk error, a hand edit, a half-copied file), not an attacker:
each done task's row in ``results`` carries a checksum of its outcome row (the tour with its
path, a census unit's count, a frontier count, or an estimate), written with it. Two levels of checking:

* :func:`cheap_problems` — no table is missing, every done task has its outcome and every outcome its
  checksum and its done result, no row refers to a task or a census the store lacks
  (:mod:`knight.store.references`), and every task's key matches its definition
  (:mod:`knight.store.definitions`); a few hundred milliseconds on the default store. Readers (the report,
  ``knight results``) and runs run it and refuse a damaged store (a store whose files have not changed since
  it passed is not checked again: :mod:`knight.store.known`).
* :func:`all_problems` (``knight verify``) — the cheap checks, and every stored tour rebuilt from its path and
  validated (knight moves, no square twice, on the board; length, fullness, closedness and key as stored).

:func:`repair` drops what is damaged, so that the next ``knight run`` computes it again.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from itertools import islice
from typing import Any

from knight.engine.board import size_text
from knight.store import definitions, references
from knight.store.schema import BASE_TABLES as SCHEMA_TABLES
from knight.tasks import CENSUS, ESTIMATE, FRONTIER, kinds
from knight.tasks.kind import BUILT_IN
from knight.tasks.tour import TourOutcome, validate_tour

__all__ = [
    "CHECKSUM_FUNCTION",
    "MADE_AGAIN",
    "MISSING",
    "Problem",
    "all_problems",
    "cheap_problems",
    "checksum",
    "recomputed",
    "repair",
]

#: The SQL function that computes a row's checksum (registered on every connection to the store).
CHECKSUM_FUNCTION = "knight_checksum"
#: The tables a store must have besides the kinds' outcome tables (a dropped one is damage that ``repair`` recreates).
BASE_TABLES = ("runs", "tasks", "job_tasks", "results", "censuses", "census_tasks", "job_censuses")


def outcome_columns(db: sqlite3.Connection | None = None) -> dict[str, tuple[str, ...]]:
    """Each kind's outcome table with the columns its checksum covers (after ``task_key``), the built-in kinds'
    first (:func:`knight.tasks.kinds`); with ``db``, another kind's only where the store has its table (a store
    made before that kind was registered lacks it, and is not damaged)."""
    present = _tables(db) if db is not None else None
    found = {
        kind.table: tuple(column.split()[0] for column in kind.columns)
        for kind in kinds()
        if present is None or kind.name in BUILT_IN or kind.table in present
    }
    for table, columns in stored_kinds(db).values() if db is not None else ():
        if present is not None and table in present:  # a kind whose module is not loaded here: its table as stored
            found.setdefault(table, columns)
    return found


def stored_kinds(db: sqlite3.Connection) -> dict[str, tuple[str, tuple[str, ...]]]:
    """The kinds other than the built-in four whose outcomes the store holds (table ``stored_kinds``), each
    with its table and its columns' names: known from the store itself, whether or not their module is loaded."""
    if "stored_kinds" not in _tables(db):  # a store made before there was one: none
        return {}
    found = {}
    for name, table, columns in db.execute("SELECT name, outcome_table, columns FROM stored_kinds"):
        try:
            names = tuple(str(column).split()[0] for column in json.loads(columns))
        except (ValueError, TypeError, IndexError):  # a row made by hand: no kind's
            continue
        if str(table).isidentifier() and table not in SCHEMA_TABLES and all(n.isidentifier() for n in names):
            found[str(name)] = (str(table), names)
    return found


def no_outcome(db: sqlite3.Connection, alias: str = "r") -> str:
    """The SQL condition that the done task of ``results`` row ``alias`` has no outcome row in any kind's table."""
    return " AND ".join(
        f"NOT EXISTS (SELECT 1 FROM {table} o WHERE o.task_key = {alias}.task_key)" for table in outcome_columns(db)
    )


def _tables(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def checksum(*values: Any) -> str:
    """A short digest of a row's values as SQLite gives them back (ints, floats, text, bytes, NULL)."""
    # each value and a separator, hashed in one update: the same digest as one value at a time, in a third the time
    parts = [value if type(value) is bytes else repr(value).encode() for value in values]
    return hashlib.blake2b(b"\x1f".join(parts) + b"\x1f", digest_size=8).hexdigest()


def register(db: sqlite3.Connection) -> None:
    """Make :func:`checksum` callable from SQL on ``db``."""
    db.create_function(CHECKSUM_FUNCTION, -1, checksum, deterministic=True)


def outcome_checksum_sql(db: sqlite3.Connection, table: str, alias: str = "o") -> str:
    """The SQL expression of the checksum of an outcome row of ``table`` of the store on ``db`` (aliased ``alias``)."""
    columns = ", ".join(f"{alias}.{column}" for column in ("task_key", *outcome_columns(db)[table]))
    return f"{CHECKSUM_FUNCTION}({columns})"


def seal(db: sqlite3.Connection, keys: dict[str, list[str]]) -> None:
    """Write the checksum of each done task just recorded (``keys``: outcome table -> task keys)
    that has none yet."""
    for table, recorded in keys.items():
        db.executemany(
            f"UPDATE results SET checksum = (SELECT {outcome_checksum_sql(db, table)} FROM {table} o "
            f"WHERE o.task_key = results.task_key) WHERE task_key = ? AND status = 'done' "
            f"AND checksum IS NULL",
            [(key,) for key in recorded],
        )


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the store: the task (its key and what it is; empty for the whole store, or for
    ``census``, a census whose records are wrong), the jobs that ask for it, and what is wrong."""

    key: str
    task: str
    jobs: tuple[str, ...]
    what: str
    census: int | None = None

    @property
    def missing_table(self) -> bool:
        """Whether this is a table that is not there (it hides the other checks, which read it)."""
        return not self.key and self.census is None

    def __str__(self) -> str:
        if self.census is not None:
            return f"census {self.census}: {self.what}"
        if not self.key:
            return self.what
        jobs = f" (job {', '.join(self.jobs)})" if self.jobs else ""
        return f"task {self.key} {self.task}{jobs}: {self.what}"


_JOBS = "(SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = {key})"
_TASK = f"t.key, t.method, t.n, t.m, t.start_row, t.start_col, {_JOBS.format(key='t.key')}"
#: What a task whose key does not match its definition is.
WRONG_KEY = "its definition does not match its key"
#: What a done task without its outcome row is (a run computes it again without being asked).
MISSING = "marked done, but its result is missing"
#: What an outcome row without its task's done result is (unchecked: its checksum is in the result it lacks).
STRAY = "its stored result has no record of being done (its row in results is gone)"
#: What a table a writer made again as it opened the store is (:attr:`knight.store.Store.made_again`).
MADE_AGAIN = "was missing (made again, empty)"


def recomputed(problem: Problem) -> bool:
    """Whether a run undoes ``problem`` by itself: a done task whose result has gone (it is computed again), a
    table made again as the store was opened (what it held is found by the other checks)."""
    return problem.what == MISSING or problem.what.endswith(MADE_AGAIN)


def missing_tables(db: sqlite3.Connection) -> list[str]:
    """The store's tables that are not there (dropped by hand, or a file cut short)."""
    present = _tables(db)
    built_in = [kind.table for kind in kinds() if kind.name in BUILT_IN]
    return [table for table in (*BASE_TABLES, *built_in) if table not in present]


def cheap_problems(db: sqlite3.Connection, limit: int | None = None) -> list[Problem]:
    """Outcomes that do not match their checksum or have no done result, rows that refer to a task or a census
    the store lacks, tasks whose key does not match their definition, and (last: within ``limit``, any other
    problem comes first, as a run recomputes these by itself and lets them by) done tasks without their outcome.
    A missing table hides the rest (they read it): only that is said then."""
    gone = missing_tables(db)
    if gone:
        return [Problem("", "", (), f"table {table} is missing") for table in gone]
    found: list[Problem] = []

    def room() -> int | None:
        return None if limit is None else max(limit - len(found), 0)

    changed = [
        f"SELECT {_TASK}, 'its stored result was changed (checksum)' FROM results r "
        f"JOIN tasks t ON t.key = r.task_key JOIN {table} o ON o.task_key = r.task_key "
        f"WHERE r.status = 'done' AND r.checksum IS NOT {outcome_checksum_sql(db, table)}"
        for table in outcome_columns(db)
    ]
    stray = [
        f"SELECT {_TASK}, '{STRAY}' FROM {table} o JOIN tasks t ON t.key = o.task_key "
        "WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.task_key = o.task_key AND r.status = 'done')"
        for table in outcome_columns(db)
    ]
    found += _selected(db, [*changed, *stray], room())
    if room() != 0:
        found += [
            Problem(key, "(not in table tasks)", _jobs(jobs), f"rows of {tables} refer to it, but its task is gone")
            for key, tables, jobs in references.orphan_tasks(db, room())
        ]
    if room() != 0:
        found += [
            Problem("", "", (), f"rows of {tables} refer to it, but it is not in table censuses", census=census)
            for census, tables in references.orphan_censuses(db, room())
        ]
    if room() != 0:
        for key, method, n, m, row, col in islice(definitions.wrong_definitions(db), room()):
            (jobs,) = db.execute(f"SELECT {_JOBS.format(key='?')}", (key,)).fetchone()
            found.append(_problem(key, method, n, m, row, col, jobs, WRONG_KEY))
    if room() != 0:
        missing = f"SELECT {_TASK}, '{MISSING}' FROM results r JOIN tasks t ON t.key = r.task_key "
        found += _selected(db, [f"{missing} WHERE r.status = 'done' AND {no_outcome(db)}"], room())
    return found


def all_problems(db: sqlite3.Connection) -> list[Problem]:
    """Everything :func:`cheap_problems` finds, and every stored tour rebuilt from its path and validated."""
    problems = cheap_problems(db)
    if any(problem.missing_table for problem in problems):
        return problems  # the rest cannot be read
    seen = {problem.key for problem in problems}
    for values in db.execute(
        f"SELECT {_TASK}, t.params, o.length, o.full, o.closed, o.key_directed, o.key_undirected, "
        "o.key_symmetric, o.moves FROM tours o "
        "JOIN tasks t ON t.key = o.task_key JOIN results r ON r.task_key = o.task_key AND r.status = 'done' "
        "WHERE o.moves IS NOT NULL"
    ):
        key, method, n, m, row, col, jobs, params, length, full, closed, directed, undirected, symmetric, moves = values
        if key in seen:  # a task whose definition is wrong among them: its parameters are not read
            continue
        try:
            removed = tuple((int(r), int(c)) for r, c in json.loads(params).get("removed", ()))
            stored = TourOutcome(
                moves, length, bool(full), bool(closed), False, 0, "", False, directed, undirected, symmetric, removed
            )
            found = validate_tour(stored, n, m, method)
        except (ValueError, TypeError, AttributeError) as error:
            found = f"invalid tour: {error}"
        if found:
            problems.append(_problem(key, method, n, m, row, col, jobs, found))
    return problems


def repair(db: sqlite3.Connection, problems: list[Problem], schema: list[str]) -> int:
    """Drop what ``problems`` name, so that the next run computes it again: the done results of
    damaged tasks with their outcome rows, tasks whose key is wrong, the rows that refer to a task or a census
    the store lacks (the job's next run registers them again), and missing tables (recreated empty, ``schema``
    being the store's CREATE statements: :func:`knight.store.schema.statements`). Returns how many tasks' results (or outcomes) were dropped. Call inside
    a write transaction."""
    for statement in schema:
        db.execute(statement)
    before = _with_results(db)
    keys = {problem.key for problem in problems if problem.key}
    keys |= {
        key for (key,) in db.execute(f"SELECT r.task_key FROM results r WHERE r.status = 'done' AND {no_outcome(db)}")
    }
    dropped = [(key,) for key in sorted(keys)]
    for table in (*outcome_columns(db), "results"):
        db.executemany(f"DELETE FROM {table} WHERE task_key = ?", dropped)
    wrong = [(problem.key,) for problem in problems if problem.what == WRONG_KEY]
    for table in ("census_tasks", "job_tasks", "tasks"):  # the job re-registers them with their right keys
        db.executemany(f"DELETE FROM {table} WHERE {'key' if table == 'tasks' else 'task_key'} = ?", wrong)
    references.drop_orphans(db)
    return before - _with_results(db)


def _with_results(db: sqlite3.Connection) -> int:
    """How many tasks have a result or an outcome row (what a repair drops of them is computed again)."""
    union = " UNION ".join(f"SELECT task_key FROM {table}" for table in ("results", *outcome_columns(db)))
    return int(db.execute(f"SELECT count(*) FROM ({union})").fetchone()[0])


def _selected(db: sqlite3.Connection, queries: list[str], limit: int | None) -> list[Problem]:
    """The problems the ``queries`` (each selecting a task as ``_TASK`` does, then what is wrong) find."""
    sql = " UNION ALL ".join(queries) + ("" if limit is None else f" LIMIT {int(limit)}")
    return [_problem(*row) for row in db.execute(sql)]


def _jobs(jobs: str | None) -> tuple[str, ...]:
    """The jobs of SQLite's ``group_concat``, sorted."""
    return tuple(sorted(jobs.split(","))) if jobs else ()


def _problem(key: str, method: str, n: int, m: int, row: int, col: int, jobs: str | None, what: str) -> Problem:
    unit = " unit" if method in (CENSUS, ESTIMATE) else ""
    if method == FRONTIER:  # a count of the whole board, from no start square
        task = f"({method} count of {size_text(n, m)})"
    else:
        task = f"({method}{unit} on {size_text(n, m)} from ({row}, {col}))"
    return Problem(key, task, _jobs(jobs), what)
