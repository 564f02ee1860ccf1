"""The reads: what the store holds, as the records of :mod:`knight.store.records` (a connection opened read-only
will do for each; :class:`knight.store.Store` names them to its readers)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import fields
from pathlib import Path
from typing import Any

from knight.engine import Board, Tour
from knight.engine.board import size_text
from knight.engine.census import CensusSpec, CensusUnit, UnitCount, assemble
from knight.engine.codec import decode_path
from knight.engine.treesize import Checkpoint, TreeEstimate
from knight.errors import PathNotKept
from knight.store import integrity
from knight.store.known import KnownFacts
from knight.store.records import CensusRecord, EstimateRecord, FailureRecord, FrontierRecord, TourRecord
from knight.tasks import (
    FRONTIER,
    PATH_KEPT_UP_TO_SQUARES,
    Failure,
    FrontierParams,
    SweepKind,
    Task,
    failure_cause,
    kinds,
    removed_squares,
)

__all__ = [
    "censuses",
    "done_keys",
    "estimates",
    "failures",
    "frontier_counts",
    "jobs",
    "summary",
    "tour",
    "tours",
    "unit_shares",
]


def done_keys(db: sqlite3.Connection) -> set[str]:
    """The keys of every task marked done whose result is in the store."""
    return {
        key
        for (key,) in db.execute(
            f"SELECT r.task_key FROM results r WHERE r.status = 'done' AND NOT ({integrity.no_outcome(db)})"
        )
    }


def tour(db: sqlite3.Connection, task_key: str) -> Tour:
    """The stored tour of a done task, decoded and rebuilt (:meth:`Store.tour`)."""
    row = db.execute(
        "SELECT t.n, t.m, t.method, t.params, r.moves, r.work, r.work_unit, r.budget_exhausted "
        "FROM tours r JOIN tasks t ON t.key = r.task_key WHERE r.task_key = ?",
        (task_key,),
    ).fetchone()
    if row is None:
        raise KeyError(task_key)
    n, m, method, params, moves, work, unit, exhausted = row
    if moves is None:
        raise PathNotKept(
            f"the path of task {task_key} on {size_text(n, m)} was not kept: boards over "
            f"{PATH_KEPT_UP_TO_SQUARES:,} squares keep only a tour's flags, counts and keys"
        )
    stored = json.loads(params)
    return Tour(
        board=Board(n, m),
        path=decode_path(moves, n, m),
        method=method,
        params=stored,
        work=work,
        work_unit=unit,
        budget_exhausted=bool(exhausted),
        removed=removed_squares(stored),
    )


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


_SUMMARY = """
SELECT j.job, t.n, t.m, t.method, t.group_params,
       COUNT(*) AS tasks,
       COUNT(DISTINCT t.start_row * t.m + t.start_col) AS starts,
       COUNT(DISTINCT t.params) AS variants,
       COALESCE(SUM(r.status = 'done'), 0) AS done,
       COALESCE(SUM(r.status = 'failed'), 0) AS failed,
       COUNT(*) - COUNT(r.task_key) AS pending,
       COALESCE(SUM(o.full), 0) AS full,
       COALESCE(SUM(o.closed), 0) AS closed,
       COUNT(DISTINCT CASE WHEN o.full THEN t.start_row * t.m + t.start_col END) AS starts_full,
       COUNT(DISTINCT CASE WHEN o.full THEN o.key_directed END) AS distinct_directed,
       COUNT(DISTINCT CASE WHEN o.full THEN o.key_undirected END) AS distinct_undirected,
       COUNT(DISTINCT CASE WHEN o.full THEN o.key_symmetric END) AS distinct_symmetric
FROM job_tasks j
JOIN tasks t ON t.key = j.task_key
LEFT JOIN results r ON r.task_key = t.key
LEFT JOIN tours o ON o.task_key = t.key AND r.status = 'done'
WHERE (? IS NULL OR j.job = ?) AND t.method NOT IN (SELECT value FROM json_each(?))
GROUP BY j.job, t.n, t.m, t.method, t.group_params
ORDER BY j.job, t.n * t.m, t.n, t.method, t.group_params
"""


# rows by column name, as SQLite gives them or as <store>-known keeps them (JSON read back)
def summary(db: sqlite3.Connection, path: Path, job: str | None = None) -> list[dict[str, Any]]:
    """Per job, board, method and parameters: tasks, outcomes and distinct tours (:meth:`Store.summary`)."""
    # The whole store's summary is kept beside it while its files are unchanged (knight.store.known):
    # its six distinct counts over every tour take a good part of `knight results`' time.
    facts = KnownFacts(path)
    known = facts.get("summary")  # as noted: the rows below, for the whole store
    if known is not None:
        return [row for row in known if job is None or row["job"] == job]
    # tours only: not every other kind's tasks, those of a kind not loaded here among them
    others = json.dumps([*(kind.name for kind in kinds() if kind.name != "tour"), *integrity.stored_kinds(db)])
    cursor = db.execute(_SUMMARY, (job, job, others))
    names = [column[0] for column in cursor.description]
    rows = []
    for values in cursor:
        row = dict(zip(names, values))
        row["params"] = json.loads(row.pop("group_params"))
        rows.append(row)
    if job is None:
        facts.note(summary=rows)
    return rows


_TOURS = """
SELECT t.method, t.params, t.n, t.m, t.start_row, t.start_col,
       o.length, o.full, o.closed, o.success, o.work, o.work_unit, o.budget_exhausted,
       o.key_directed, o.key_undirected, o.key_symmetric,
       CASE WHEN t.n * t.m <= :drawn THEN o.moves END,
       (SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = t.key)
FROM tasks t JOIN tours o ON o.task_key = t.key
WHERE :job IS NULL OR EXISTS (SELECT 1 FROM job_tasks j WHERE j.task_key = t.key AND j.job = :job)
"""


def tours(db: sqlite3.Connection, job: str | None, drawn_up_to: int) -> list[TourRecord]:
    """Every stored tour of ``job`` (every job for None), its path only on boards of at most ``drawn_up_to``
    squares."""
    rows = db.execute(_TOURS, {"drawn": drawn_up_to, "job": job}).fetchall()
    return [
        TourRecord(
            method=method,
            params=json.loads(params),
            n=n,
            m=m,
            start=(row, col),
            length=length,
            full=bool(full),
            closed=bool(closed),
            success=bool(success),
            work=work,
            work_unit=unit,
            budget_exhausted=bool(exhausted),
            key_directed=directed,
            key_undirected=undirected,
            key_symmetric=symmetric,
            moves=moves,
            jobs=_jobs(jobs),
        )
        for (
            method,
            params,
            n,
            m,
            row,
            col,
            length,
            full,
            closed,
            success,
            work,
            unit,
            exhausted,
            directed,
            undirected,
            symmetric,
            moves,
            jobs,
        ) in rows
    ]


_CENSUSES = """
SELECT c.id, c.n, c.m, c.closed, c.removed, c.starts, c.depth, c.units,
       (SELECT group_concat(jc.job) FROM job_censuses jc WHERE jc.census_id = c.id), {classes}
FROM censuses c
WHERE ? IS NULL OR EXISTS (SELECT 1 FROM job_censuses jc WHERE jc.census_id = c.id AND jc.job = ?)
ORDER BY c.n * c.m, c.n, c.closed, c.removed, c.starts, c.depth
"""
_CENSUS_UNITS = """
SELECT t.params, t.start_row, t.start_col, r.status, k.tours, k.nodes, k.seconds
FROM census_tasks ct JOIN tasks t ON t.key = ct.task_key
LEFT JOIN results r ON r.task_key = t.key LEFT JOIN counts k ON k.task_key = t.key AND r.status = 'done'
WHERE ct.census_id = ?
"""


def censuses(db: sqlite3.Connection, job: str | None = None) -> list[CensusRecord]:
    """The censuses of ``job`` (every job by default), each put together with
    :func:`~knight.engine.census.assemble` once every unit has its count."""
    found = []
    # a store written before the table existed, opened read-only, has no classes yet
    has_classes = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'census_classes'").fetchone()
    query = _CENSUSES.format(
        classes="(SELECT classes FROM census_classes cc WHERE cc.census_id = c.id)" if has_classes else "NULL"
    )
    for census_id, n, m, closed, removed, starts, depth, units, jobs, classes in db.execute(
        query, (job, job)
    ).fetchall():
        plan, counts, failed, seconds = [], [], 0, 0.0
        for params, row, col, status, tours, nodes, took in db.execute(_CENSUS_UNITS, (census_id,)):
            failed += status == "failed"
            if tours is not None:
                plan.append(_unit(params, n, m, row, col))
                counts.append(UnitCount(tours, nodes))
                seconds += took
        spec = CensusSpec(
            n,
            m,
            bool(closed),
            tuple((r, c) for r, c in json.loads(removed)),
            None if starts == "all" else tuple((r, c) for r, c in json.loads(starts)),
            depth,
        )
        found.append(
            CensusRecord(
                spec,
                units_total=units,
                units_done=len(counts),
                units_failed=failed,
                nodes=sum(count.nodes for count in counts),
                jobs=_jobs(jobs),
                census=assemble(spec.board, plan, counts) if counts and len(counts) == units else None,
                symmetric=classes,
                census_id=census_id,
                seconds=seconds,
            )
        )
    return found


_FRONTIER_COUNTS = f"""
SELECT t.n, t.m, t.params, f.tours, f.peak_states, f.states, f.seconds,
       (SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = t.key)
FROM frontier_counts f JOIN tasks t ON t.key = f.task_key JOIN results r ON r.task_key = t.key AND r.status = 'done'
WHERE t.method = '{FRONTIER}' AND (? IS NULL OR EXISTS (SELECT 1 FROM job_tasks j WHERE j.task_key = t.key AND j.job = ?))
ORDER BY t.n * t.m, t.n, t.params
"""


def frontier_counts(db: sqlite3.Connection, job: str | None = None) -> list[FrontierRecord]:
    """The done frontier counts of ``job`` (every job by default), smallest board first."""
    found = []
    for n, m, params, tours, peak, states, seconds, jobs in db.execute(_FRONTIER_COUNTS, (job, job)):
        asked = FrontierParams.of(json.loads(params))
        found.append(FrontierRecord(n, m, asked.closed, asked.removed, tours, peak, states, seconds, _jobs(jobs)))
    return found


def unit_shares(db: sqlite3.Connection, census_id: int) -> list[tuple[CensusUnit, int | None]]:
    """Each done unit of census ``census_id`` with its share of Burnside's sum (None where none was stored)."""
    return [
        (_unit(params, n, m, row, col), share)
        for params, n, m, row, col, share in db.execute(
            "SELECT t.params, t.n, t.m, t.start_row, t.start_col, k.share FROM census_tasks ct "
            "JOIN tasks t ON t.key = ct.task_key JOIN results r ON r.task_key = t.key AND r.status = 'done' "
            "LEFT JOIN census_shares k ON k.task_key = t.key WHERE ct.census_id = ?",
            (census_id,),
        )
    ]


_ESTIMATES = """
SELECT t.n, t.m, t.start_row, t.start_col, e.probes, e.seed, e.node_mean, e.node_sd, e.tour_mean, e.tour_sd,
       e.full_probes, e.mean_depth, e.checkpoints, e.exact_nodes, e.exact_tours, e.rate_nodes, e.rate_seconds,
       (SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = t.key)
FROM estimates e JOIN tasks t ON t.key = e.task_key JOIN results r ON r.task_key = t.key AND r.status = 'done'
WHERE ? IS NULL OR EXISTS (SELECT 1 FROM job_tasks j WHERE j.task_key = t.key AND j.job = ?)
ORDER BY t.n * t.m, t.n, t.start_row, t.start_col, e.probes, e.seed, e.rate_nodes
"""


def estimates(db: sqlite3.Connection, job: str | None = None) -> list[EstimateRecord]:
    """The done tree-size estimates of ``job`` (every job by default), smallest board first."""
    found = []
    rows = db.execute(_ESTIMATES, (job, job))
    # _ESTIMATES gives the board, the start and the estimate's measures in TreeEstimate's own field order
    for n, m, row, col, *measures, checkpoints, exact_nodes, exact_tours, rate_nodes, rate_seconds, jobs in rows:
        checked = tuple(Checkpoint(*values) for values in json.loads(checkpoints))
        estimate = TreeEstimate(*(n, m, (row, col), *measures, checked))
        found.append(
            EstimateRecord(
                **{field.name: getattr(estimate, field.name) for field in fields(estimate)},
                exact_nodes=exact_nodes,
                exact_tours=exact_tours,
                exact_tours_source=None if exact_tours is None else "tree",
                rate_nodes=rate_nodes,
                rate_seconds=rate_seconds,
                jobs=_jobs(jobs),
            )
        )
    return found


def _jobs(names: str | None) -> tuple[str, ...]:
    """The jobs that ask for a task, from SQLite's ``group_concat``."""
    return tuple(sorted((names or "").split(",")))


def _unit(params: str, n: int, m: int, row: int, col: int) -> CensusUnit:
    """A census unit from its task's row."""
    return CensusUnit.from_dict({**json.loads(params), "n": n, "m": m, "start": (row, col)})


def kind_outcomes(db: sqlite3.Connection, kind: SweepKind, job: str | None = None) -> list[tuple[Task, Any]]:
    """The done tasks of a registered kind of its own (of ``job``, or of every job), each with its outcome as the
    kind reads it back, in board and start order; none when the store has no table of that kind yet."""
    present = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if kind.table not in present:
        return []
    columns = ", ".join(f"o.{column.split()[0]}" for column in kind.columns)
    rows = db.execute(
        f"SELECT t.method, t.params, t.n, t.m, t.start_row, t.start_col, {columns} FROM {kind.table} o "
        "JOIN tasks t ON t.key = o.task_key JOIN results r ON r.task_key = o.task_key AND r.status = 'done' "
        "WHERE t.method = ? AND (? IS NULL OR EXISTS (SELECT 1 FROM job_tasks j WHERE j.task_key = t.key AND j.job = ?)) "
        "ORDER BY t.n, t.m, t.start_row, t.start_col, t.key",
        (kind.name, job, job),
    )
    done = []
    for method, params, n, m, row, col, *values in rows:
        task = Task(method, tuple(sorted(json.loads(params).items())), n, m, (row, col))
        done.append((task, kind.read(tuple(values))))
    return done
