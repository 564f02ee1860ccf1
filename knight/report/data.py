"""Read the report's records out of the results store (read-only)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from knight.report.records import MissingData, Record, Results
from knight.store import SCHEMA_VERSION, StoreVersionError, schema_version

#: Paths of tours on boards up to this many squares are loaded (to be drawn); larger ones are
#: counted from their stored keys and flags only.
DRAWN_UP_TO_SQUARES = 64 * 64

_QUERY = """
SELECT t.method, t.params, t.n, t.m, t.start_row, t.start_col,
       o.length, o.full, o.closed, o.success, o.work, o.work_unit, o.budget_exhausted,
       o.key_directed, o.key_undirected, o.key_symmetric,
       CASE WHEN t.n * t.m <= :drawn THEN o.moves END,
       (SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = t.key)
FROM tasks t JOIN tours o ON o.task_key = t.key
"""


def load_results(store: Path, *, drawn_up_to: int = DRAWN_UP_TO_SQUARES) -> Results:
    """Every stored tour as a :class:`Record` (paths, encoded, on boards up to ``drawn_up_to``
    squares); raises :class:`MissingData` when the store does not exist and
    :class:`~knight.store.StoreVersionError` when another version of knight wrote it."""
    if not Path(store).exists():
        raise MissingData(f"no results store at {store}; run `knight run jobs/*.toml` first")
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        version = schema_version(connection)
        if version != SCHEMA_VERSION:
            if version is None:
                raise MissingData(f"the results store {store} is empty; run `knight run jobs/*.toml` first")
            raise StoreVersionError(store, version)
        rows = connection.execute(_QUERY, {"drawn": drawn_up_to}).fetchall()
    finally:
        connection.close()
    return Results(
        Record(method=method, params=json.loads(params), n=n, m=m, start=(row, col), length=length,
               full=bool(full), closed=bool(closed), success=bool(success), work=work, work_unit=unit,
               budget_exhausted=bool(exhausted), key_directed=directed, key_undirected=undirected,
               key_symmetric=symmetric, moves=moves, jobs=tuple(sorted((jobs or "").split(","))))
        for (method, params, n, m, row, col, length, full, closed, success, work, unit, exhausted,
             directed, undirected, symmetric, moves, jobs) in rows
    )
