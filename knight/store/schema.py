"""The store's tables and their version: what each table holds, and the one format a store may have.

Tables:

* ``runs`` — one row per ``knight run``: when, which jobs, how it ended (``running``,
  ``done``, ``interrupted``; a run killed outright is marked ``killed`` by the next run).
* ``tasks`` — every task any job asked for, by its stable key: method, parameters, board, start.
* ``job_tasks`` — which tasks belong to which job (a job's latest file decides).
* ``results`` — a task's outcome: ``done`` (its tour is in ``tours``) or ``failed`` with its cause
  (``cause``: :class:`~knight.tasks.FailureCause`), the message a person reads (``error``) and the number of
  attempts. A task without a row here has not finished yet.
* ``tours`` — the tour each done task built: length, full, closed, work, its three
  deduplication keys (directed, up to reversal, up to reversal and symmetry) and its path,
  ``moves``: the start square and one byte per move (:mod:`knight.engine.codec`, a quarter of
  the int32 squares). On boards over :data:`~knight.tasks.PATH_KEPT_UP_TO_SQUARES` squares ``moves`` is NULL:
  such tours are validated in full and stored with their flags, counts and keys, but not their
  path, so that a study of boards up to 1000 × 1000 does not fill the disk.
* ``counts`` — what each done census-unit task (method ``census``, :data:`~knight.tasks.CENSUS`) counted:
  its directed ``tours``, search ``nodes`` and the ``seconds`` the count took. A task has a row in one of
  ``tours``, ``counts``, ``frontier_counts`` and ``estimates``, never two.
* ``frontier_counts`` — what each done frontier count (method ``frontier``, :data:`~knight.tasks.FRONTIER`: every
  tour of one board, by dynamic programming over its frontier) found: its ``tours`` (directed open tours, or
  closed tours as cycles), the most frontier states held at once (``peak_states``) and in all (``states``), and
  the ``seconds`` the count took (:class:`~knight.tasks.FrontierResult`).
* ``estimates`` — what each done estimate task (method ``estimate``, :data:`~knight.tasks.ESTIMATE`) found:
  Knuth's estimate of the plain backtracking tree from its start (probes, seed, means and
  standard deviations of the node and tour estimates, the running means at 10^2, 10^3, ...
  probes as JSON), the exact nodes and tours where the task counted the tree, and the node
  rate of the plain search where it timed one (:class:`~knight.tasks.EstimateResult`).
* ``censuses`` — every census a job asked for, by what defines it (board, open or closed,
  removed squares, start set, depth) and its number of units; ``census_tasks`` names its unit
  tasks and ``job_censuses`` the jobs that ask for it. :meth:`~knight.store.Store.censuses` puts a census
  together from its units' counts (:class:`~knight.store.records.CensusRecord`).
  ``census_classes`` holds a closed census's tours up to symmetry, and ``census_shares`` each closed
  unit's share of Burnside's sum that they are counted from (:meth:`~knight.store.Store.unit_shares`; derived
  data, added to an older store of this version when it is next opened for writing).
* ``stored_kinds`` — each kind of work other than the built-in four whose outcomes the store holds
  (:func:`knight.tasks.register`, ``KNIGHT_KINDS``): its name, its outcome table and that table's columns, so that
  a reader without the kind's module still checks and repairs its rows and leaves them out of the tours.
* ``claims`` — the tasks a live run has taken to run now: task key, run, the run's process id
  and host, when claimed (renewed when the run stores results). Two runs of one job share it
  through these (:mod:`knight.store.claims`).

A store of the version before this one is migrated in place when it is opened (:data:`MIGRATIONS`, in one
transaction; a read-only one is first opened for writing for that); one of any other version is refused with one
line that says to delete it or give another path (``--store``): the store is a cache of results that a run can
always rebuild.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from knight.errors import InvalidInput, StoreError, StoreVersionError
from knight.tasks import kinds
from knight.tasks.kind import BUILT_IN

__all__ = ["MIGRATIONS", "PAGE_SIZE", "SCHEMA", "SCHEMA_VERSION", "create", "schema_version", "statements"]

#: Version 2: paths as start square and moves (``tours.moves``), NULL over PATH_KEPT_UP_TO_SQUARES.
#: Version 3: census units as tasks (``counts``, ``censuses``, ``census_tasks``, ``job_censuses``).
#: Version 4: tree-size estimates (``estimates``); tours on boards with removed squares.
#: Version 5: a checksum of each done task's outcome (``results.checksum``, :mod:`knight.store.integrity`).
#: Version 6: claims (``claims``), so that two runs of one job share its tasks.
#: Version 7: each run's host (``runs.host``): a run is judged dead by its pid only on its own host.
#: Version 8: frontier counts (``frontier_counts``); the time of each census unit's count (``counts.seconds``).
#: Version 9: each failure's cause (``results.cause``), so that no reader parses it from the message.
#: Version 10: the shards a frontier count's states were spread over (``frontier_counts.shards``).
SCHEMA_VERSION = 10
#: The statements that bring a store of an older version to this one, in place, by version. The causes of the
#: failures a version-8 store holds are read once, here, from the messages it wrote (``TooManyStates: …`` a state
#: cap, ``worker …`` or ``dask: …`` a worker lost, ``invalid …`` a result that failed validation), the state cap's
#: message left as the engine's line, as version 9 writes it.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    8: (
        "ALTER TABLE results ADD COLUMN cause TEXT NOT NULL DEFAULT ''",
        "UPDATE results SET cause = CASE "
        "WHEN error LIKE 'TooManyStates: %' THEN 'state-cap' "
        "WHEN error LIKE 'worker %' OR error LIKE 'dask: %' THEN 'worker-lost' "
        "WHEN error LIKE 'invalid %' THEN 'invalid' ELSE 'engine' END WHERE status = 'failed'",
        "UPDATE results SET error = substr(error, length('TooManyStates: ') + 1) WHERE cause = 'state-cap'",
    ),
    # Counts stored before were made in one process: one shard. Each sound count's checksum is made again with the
    # new column; a count that did not match its checksum still does not.
    9: (
        "ALTER TABLE frontier_counts ADD COLUMN shards INTEGER NOT NULL DEFAULT 1 CHECK (shards >= 1)",
        "UPDATE results SET checksum = (SELECT knight_checksum(o.task_key, o.tours, o.peak_states, o.states, "
        "o.seconds, o.shards) FROM frontier_counts o WHERE o.task_key = results.task_key) "
        "WHERE status = 'done' AND checksum = (SELECT knight_checksum(o.task_key, o.tours, o.peak_states, o.states, "
        "o.seconds) FROM frontier_counts o WHERE o.task_key = results.task_key)",
    ),
}
#: The page size of a new store (SQLite's default is 4096). A tour's row (its path, a byte a move) takes up to
#: a few kB: on 8 kB pages a sweep's commits write fewer, fuller pages, and the runner, which stores every
#: result, spends about a tenth less of its time on it (the sweep benchmark's two-worker ratio gains ~0.04).
#: A store made with another page size keeps its own.
PAGE_SIZE = 8192

#: Every table and index but the kinds' outcome tables (:func:`statements` adds those), each made if missing.
SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, started REAL NOT NULL, finished REAL, status TEXT NOT NULL,
    jobs TEXT NOT NULL, executor TEXT NOT NULL, workers INTEGER NOT NULL, pid INTEGER NOT NULL,
    tasks_total INTEGER NOT NULL DEFAULT 0, tasks_run INTEGER NOT NULL DEFAULT 0, host TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS tasks (
    key TEXT PRIMARY KEY, method TEXT NOT NULL, params TEXT NOT NULL, group_params TEXT NOT NULL,
    n INTEGER NOT NULL, m INTEGER NOT NULL, start_row INTEGER NOT NULL, start_col INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS job_tasks (
    job TEXT NOT NULL, task_key TEXT NOT NULL REFERENCES tasks(key), PRIMARY KEY (job, task_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (
    task_key TEXT PRIMARY KEY REFERENCES tasks(key), status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
    attempts INTEGER NOT NULL, error TEXT NOT NULL DEFAULT '', run_id INTEGER REFERENCES runs(id),
    finished REAL NOT NULL, checksum TEXT, cause TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS censuses (
    id INTEGER PRIMARY KEY, n INTEGER NOT NULL, m INTEGER NOT NULL, closed INTEGER NOT NULL,
    removed TEXT NOT NULL, starts TEXT NOT NULL, depth INTEGER NOT NULL, units INTEGER NOT NULL,
    UNIQUE (n, m, closed, removed, starts, depth)
);
CREATE TABLE IF NOT EXISTS census_tasks (
    census_id INTEGER NOT NULL REFERENCES censuses(id), task_key TEXT NOT NULL REFERENCES tasks(key),
    PRIMARY KEY (census_id, task_key)
) WITHOUT ROWID;
-- closed tours up to the board's symmetries, listed once by the runner when a closed census completes
CREATE TABLE IF NOT EXISTS census_classes (
    census_id INTEGER PRIMARY KEY REFERENCES censuses(id), classes INTEGER NOT NULL CHECK (classes >= 0)
);
-- for a done closed census unit whose tours were listed as they were counted: its share of Burnside's sum
-- (UnitCount.share), from which the runner counts the classes above without a second search. Derived, like them;
-- not a foreign key to tasks, so that repairing the store may drop a task
CREATE TABLE IF NOT EXISTS census_shares (
    task_key TEXT PRIMARY KEY, share INTEGER NOT NULL CHECK (share >= 0)
);
CREATE TABLE IF NOT EXISTS job_censuses (
    job TEXT NOT NULL, census_id INTEGER NOT NULL REFERENCES censuses(id), PRIMARY KEY (job, census_id)
) WITHOUT ROWID;
-- the kinds of work other than the built-in four whose outcomes the store holds, each with its table and that
-- table's columns as JSON: a reader without the kind's module still checks, repairs and leaves out its rows
CREATE TABLE IF NOT EXISTS stored_kinds (
    name TEXT PRIMARY KEY, outcome_table TEXT NOT NULL, columns TEXT NOT NULL
);
-- not a foreign key to tasks: a claim is transient, and repairing the store may drop its task
CREATE TABLE IF NOT EXISTS claims (
    task_key TEXT PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), pid INTEGER NOT NULL,
    host TEXT NOT NULL, claimed_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS job_tasks_by_task ON job_tasks (task_key);
CREATE INDEX IF NOT EXISTS claims_by_run ON claims (run_id);
"""


#: The names of :data:`SCHEMA`'s tables: no kind's table may take one.
BASE_TABLES = frozenset(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", SCHEMA))


def statements() -> list[str]:
    """Every CREATE statement of a store: :data:`SCHEMA`'s, and each registered kind's outcome table (its
    ``task_key`` then :attr:`~knight.tasks.Kind.columns`), each made if missing (a repair makes a dropped one
    again)."""
    outcome_tables = [
        f"CREATE TABLE IF NOT EXISTS {kind.table} (\n    task_key TEXT PRIMARY KEY REFERENCES tasks(key), "
        f"{', '.join(kind.columns)}\n)"
        for kind in kinds()
    ]
    return [*filter(str.strip, SCHEMA.split(";")), *outcome_tables]


def _check_kind_table(db: sqlite3.Connection, name: str, table: str, columns: list[str]) -> None:
    """Refuse, in one line, a kind whose table is one of the store's own, or whose table in this store has other
    columns than the kind declares (a kind changed since it stored its outcomes)."""
    if table in BASE_TABLES:
        raise InvalidInput(f"kind {name!r}: its table {table!r} is one of the store's own; give it another name")
    stored = [row[1] for row in db.execute(f"PRAGMA table_info({table})")][1:]
    declared = [column.split()[0] for column in columns]
    if stored and stored != declared:
        raise InvalidInput(
            f"kind {name!r}: the store's table {table} has the columns {stored}, the kind declares {declared}; "
            "give the changed kind a table of its own"
        )


def foreign(db: sqlite3.Connection) -> bool:
    """Whether the database open on ``db`` holds tables but none of a knight store's: another program's file,
    which knight must neither change nor advise deleting."""
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return bool(tables) and not tables & (BASE_TABLES | {kind.table for kind in kinds()})


def foreign_file(path: Path) -> StoreError:
    """The error for another program's database given as a store (:func:`foreign`)."""
    return StoreError(
        f"{path} is an SQLite database but not a knight store (none of its tables): it is left as it is; give a "
        "knight store's path, or a new one, with --store"
    )


def schema_version(db: sqlite3.Connection) -> int | None:
    """The format version of the store open on ``db``: None for an empty file, 0 for a store from
    before versions were recorded (it has tables but no ``user_version``)."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version == 0 and db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
        return None
    return version


def create(db: sqlite3.Connection, path: Path) -> None:
    """Make the tables of a new store on ``db`` (in a write transaction), or the ones an older store of this
    version lacks, migrating a store of a version :data:`MIGRATIONS` knows; raise :class:`StoreVersionError` for
    a store of any other version."""
    version = schema_version(db)
    if version is not None and version not in (SCHEMA_VERSION, *MIGRATIONS):
        raise StoreVersionError(path, version, SCHEMA_VERSION)
    while version in MIGRATIONS:
        for statement in MIGRATIONS[version]:
            db.execute(statement)
        version += 1
    for statement in statements():
        db.execute(statement)
    added = [(kind.name, kind.table, json.dumps(kind.columns)) for kind in kinds() if kind.name not in BUILT_IN]
    for name, table, columns in added:
        _check_kind_table(db, name, table, json.loads(columns))
    db.executemany("INSERT OR IGNORE INTO stored_kinds VALUES (?, ?, ?)", added)  # unchanged: nothing written
    if schema_version(db) != SCHEMA_VERSION:  # set once: setting it again, even unchanged, rewrites the header
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
