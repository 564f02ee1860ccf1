"""Read the report's records out of the results store (read-only)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from dataclasses import fields
from pathlib import Path
from typing import Iterator

from knight.report.records import CensusRecord, EstimateRecord, MissingData, Record, Results
from knight.store import SCHEMA_VERSION, StoreVersionError, read_censuses, read_estimates, schema_version

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
    with _read_only(store) as connection:
        rows = connection.execute(_QUERY, {"drawn": drawn_up_to}).fetchall()
    return Results(
        Record(method=method, params=json.loads(params), n=n, m=m, start=(row, col), length=length,
               full=bool(full), closed=bool(closed), success=bool(success), work=work, work_unit=unit,
               budget_exhausted=bool(exhausted), key_directed=directed, key_undirected=undirected,
               key_symmetric=symmetric, moves=moves, jobs=tuple(sorted((jobs or "").split(","))))
        for (method, params, n, m, row, col, length, full, closed, success, work, unit, exhausted,
             directed, undirected, symmetric, moves, jobs) in rows
    )


def load_census(store: Path) -> list[CensusRecord]:
    """Every census in the store (`knight census`, and census sweeps of `knight run`), one
    :class:`CensusRecord` each, ordered by board size, open before closed.

    A complete census carries its per-start counts and totals; an incomplete one only how many
    of its units are done. Closed tours up to the board's symmetries are those the runner
    counted when the census completed (None before). Raises :class:`MissingData`
    when the store does not exist and :class:`~knight.store.StoreVersionError` when another
    version of knight wrote it.

    >>> load_census(Path("no-such-store.sqlite"))
    Traceback (most recent call last):
    ...
    knight.report.records.MissingData: no results store at no-such-store.sqlite; run `knight run jobs/*.toml` first
    """
    with _read_only(store) as connection:
        stored = read_censuses(connection)
    records = []
    for found in stored:
        spec, result = found.spec, found.census
        counts = {}
        if result is not None:
            counts = {(row, col): int(result.counts[row, col]) for row in range(spec.n) for col in range(spec.m)
                      if result.counts[row, col] >= 0}
        records.append(CensusRecord(
            n=spec.n, m=spec.m, closed=spec.closed, removed=spec.removed, starts=spec.starts, depth=spec.depth,
            counts=counts, total=None if result is None else result.total,
            undirected=None if result is None else result.undirected, symmetric=found.symmetric, nodes=found.nodes,
            units_done=found.done, units_total=found.units, jobs=found.jobs,
        ))
    return records


def load_estimates(store: Path) -> list[EstimateRecord]:
    """Every stored tree-size estimate (method ``estimate``, the job ``tree-size``), one
    :class:`EstimateRecord` each, smallest board first.

    The exact number of tours from the start comes from the estimate task itself where it counted
    the whole tree (boards of at most 25 squares), else from a complete open census in the store
    that counted that start (``exact_tours_source`` says which; the job ``tree-size`` asks for the
    6 × 6 census from the corner); nothing is computed here. Raises :class:`MissingData` when the
    store does not exist and :class:`~knight.store.StoreVersionError` when another version of
    knight wrote it.
    """
    with _read_only(store) as connection:
        stored = read_estimates(connection)
        censuses = read_censuses(connection) if any(s.result.exact_tours is None for s in stored) else []
    counted: dict[tuple[int, int, int, int], int] = {}  # (n, m, row, col): directed open tours from there
    for found in censuses:
        spec, result = found.spec, found.census
        if result is None or spec.closed or spec.removed:
            continue
        for row in range(spec.n):
            for col in range(spec.m):
                if result.counts[row, col] >= 0:
                    counted.setdefault((spec.n, spec.m, row, col), int(result.counts[row, col]))
    records = []
    for found in stored:
        result, estimate = found.result, found.result.estimate
        tours, source = result.exact_tours, None if result.exact_tours is None else "tree"
        if tours is None and (estimate.n, estimate.m, *estimate.start) in counted:
            tours, source = counted[(estimate.n, estimate.m, *estimate.start)], "census"
        records.append(EstimateRecord(
            **{field.name: getattr(estimate, field.name) for field in fields(estimate)},
            exact_nodes=result.exact_nodes, exact_tours=tours, exact_tours_source=source,
            rate_nodes=result.rate_nodes, rate_seconds=result.rate_seconds, jobs=found.jobs,
        ))
    return records


@contextmanager
def _read_only(store: Path) -> Iterator[sqlite3.Connection]:
    """The store opened read-only, its format version checked."""
    if not Path(store).exists():
        raise MissingData(f"no results store at {store}; run `knight run jobs/*.toml` first")
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        version = schema_version(connection)
        if version != SCHEMA_VERSION:
            if version is None:
                raise MissingData(f"the results store {store} is empty; run `knight run jobs/*.toml` first")
            raise StoreVersionError(store, version, SCHEMA_VERSION)
        yield connection
    finally:
        connection.close()
