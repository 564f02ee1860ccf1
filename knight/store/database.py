"""The results store's database: one SQLite file in WAL mode that a sweep can crash, resume and be read from.

Tables:

* ``runs`` — one row per ``knight run``: when, which jobs, how it ended (``running``,
  ``done``, ``interrupted``; a run killed outright is marked ``killed`` by the next run).
* ``tasks`` — every task any job asked for, by its stable key: method, parameters, board, start.
* ``job_tasks`` — which tasks belong to which job (a job's latest file decides).
* ``results`` — a task's outcome: ``done`` (its tour is in ``tours``) or ``failed`` with the
  reason and the number of attempts. A task without a row here has not finished yet.
* ``tours`` — the tour each done task built: length, full, closed, work, its three
  deduplication keys (directed, up to reversal, up to reversal and symmetry) and its path,
  ``moves``: the start square and one byte per move (:mod:`knight.engine.codec`, a quarter of
  the int32 squares). On boards over :data:`PATH_KEPT_UP_TO_SQUARES` squares ``moves`` is NULL:
  such tours are validated in full and stored with their flags, counts and keys, but not their
  path, so that a study of boards up to 1000 × 1000 does not fill the disk.
* ``counts`` — what each done census-unit task (method ``census``, :data:`CENSUS`) counted:
  its directed ``tours`` and search ``nodes``. A task has a row in one of ``tours``, ``counts``
  and ``estimates``, never two.
* ``estimates`` — what each done estimate task (method ``estimate``, :data:`ESTIMATE`) found:
  Knuth's estimate of the plain backtracking tree from its start (probes, seed, means and
  standard deviations of the node and tour estimates, the running means at 10^2, 10^3, ...
  probes as JSON), the exact nodes and tours where the task counted the tree, and the node
  rate of the plain search where it timed one (:class:`EstimateResult`).
* ``censuses`` — every census a job asked for, by what defines it (board, open or closed,
  removed squares, start set, depth) and its number of units; ``census_tasks`` names its unit
  tasks and ``job_censuses`` the jobs that ask for it. :meth:`Store.censuses` puts a census
  together from its units' counts (:class:`~knight.store.records.CensusRecord`).
  ``census_classes`` holds a closed census's tours up to symmetry, and ``census_shares`` each closed
  unit's share of Burnside's sum that they are counted from (:meth:`Store.unit_shares`; derived
  data, added to an older store of this version when it is next opened for writing).
* ``claims`` — the tasks a live run has taken to run now: task key, run, the run's process id
  and host, when claimed (renewed when the run stores results, at most every :data:`RENEW_SECONDS`). Two runs of one job share
  it through these (:meth:`Store.claim`); a claim goes when the task's result is stored or its
  run ends, and one whose run's process is gone, or not renewed for :data:`CLAIM_TIMEOUT`
  seconds, is taken over.

The store is a cache of results that a run can always rebuild, so nothing is migrated: a store
written with another :data:`SCHEMA_VERSION` is refused with one line that says to delete it or
give another path (``--store``).

Every write is one short ``BEGIN IMMEDIATE`` transaction, so a run killed at any moment leaves
every task either finished or not started, and two runs on one store take turns
(``busy_timeout``); a task finished twice keeps its first result, which is the same.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, NamedTuple

from knight.engine import Board, Tour
from knight.engine.board import Square, size_text
from knight.engine.census import CensusSpec, CensusUnit, UnitCount, assemble
from knight.engine.codec import decode_path
from knight.engine.treesize import Checkpoint, TreeEstimate
from knight.errors import MissingData, PathNotKept, StoreError, StoreVersionError
from knight.store import disk, integrity
from knight.store.location import DEFAULT_STORE, STORE_VARIABLE, store_path
from knight.store.records import DRAWN_UP_TO_SQUARES, CensusRecord, EstimateRecord, TourRecord
from knight.tasks import (
    PATH_KEPT_UP_TO_SQUARES,
    EstimateResult,
    TaskResult,
    incomplete,
    removed_squares,
    validate,
)

__all__ = [
    "CLAIM_TIMEOUT",
    "DEFAULT_STORE",
    "STORE_VARIABLE",
    "SCHEMA_VERSION",
    "Claimed",
    "Outcome",
    "store_path",
    "schema_version",
    "Store",
]

#: Version 2: paths as start square and moves (``tours.moves``), NULL over PATH_KEPT_UP_TO_SQUARES.
#: Version 3: census units as tasks (``counts``, ``censuses``, ``census_tasks``, ``job_censuses``).
#: Version 4: tree-size estimates (``estimates``); tours on boards with removed squares.
#: Version 5: a checksum of each done task's outcome (``results.checksum``, :mod:`knight.store.integrity`).
#: Version 6: claims (``claims``), so that two runs of one job share its tasks.
#: Version 7: each run's host (``runs.host``): a run is judged dead by its pid only on its own host.
SCHEMA_VERSION = 7
#: Seconds after which a claim that its run has not renewed is taken over, even when its process
#: cannot be seen to have died (another host sharing the store, a hung process). A run renews its
#: claims when it stores a chunk, at most every :data:`RENEW_SECONDS`, so this only has to outlast the
#: slowest chunk and that; when it does not, a task is run twice, which costs time, not correctness
#: (the first result is kept).
CLAIM_TIMEOUT = 3600.0
#: The least time between two renewals of a run's claims (each rewrites every claim it holds).
RENEW_SECONDS = 60.0
#: The page size of a new store (SQLite's default is 4096). A tour's row (its path, a byte a move) takes up to
#: a few kB: on 8 kB pages a sweep's commits write fewer, fuller pages, and the runner, which stores every
#: result, spends about a tenth less of its time on it (the sweep benchmark's two-worker ratio gains ~0.04).
#: A store made with another page size keeps its own.
PAGE_SIZE = 8192
#: This machine, as a claim names it: a process id means something only on its own host.
HOST = socket.gethostname()

_SCHEMA = """
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
    finished REAL NOT NULL, checksum TEXT
);
CREATE TABLE IF NOT EXISTS tours (
    task_key TEXT PRIMARY KEY REFERENCES tasks(key), length INTEGER NOT NULL, full INTEGER NOT NULL,
    closed INTEGER NOT NULL, success INTEGER NOT NULL, work INTEGER NOT NULL, work_unit TEXT NOT NULL,
    budget_exhausted INTEGER NOT NULL, key_directed TEXT NOT NULL, key_undirected TEXT NOT NULL,
    key_symmetric TEXT NOT NULL, moves BLOB
);
CREATE TABLE IF NOT EXISTS counts (
    task_key TEXT PRIMARY KEY REFERENCES tasks(key), tours INTEGER NOT NULL CHECK (tours >= 0),
    nodes INTEGER NOT NULL CHECK (nodes >= 0)
);
CREATE TABLE IF NOT EXISTS estimates (
    task_key TEXT PRIMARY KEY REFERENCES tasks(key), probes INTEGER NOT NULL CHECK (probes >= 1),
    seed INTEGER NOT NULL, node_mean REAL NOT NULL, node_sd REAL NOT NULL, tour_mean REAL NOT NULL,
    tour_sd REAL NOT NULL, full_probes INTEGER NOT NULL, mean_depth REAL NOT NULL, checkpoints TEXT NOT NULL,
    exact_nodes INTEGER, exact_tours INTEGER, rate_nodes INTEGER, rate_seconds REAL
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
-- not a foreign key to tasks: a claim is transient, and repairing the store may drop its task
CREATE TABLE IF NOT EXISTS claims (
    task_key TEXT PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), pid INTEGER NOT NULL,
    host TEXT NOT NULL, claimed_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS job_tasks_by_task ON job_tasks (task_key);
CREATE INDEX IF NOT EXISTS claims_by_run ON claims (run_id);
"""


def schema_version(db: sqlite3.Connection) -> int | None:
    """The format version of the store open on ``db``: None for an empty file, 0 for a store from
    before versions were recorded (it has tables but no ``user_version``)."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version == 0 and db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
        return None
    return version


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
    reason of a failure, and the run that recorded it."""

    status: str
    error: str
    run_id: int | None


#: Files written less than this long ago are checked again next time: a file system whose clock ticks
#: coarsely could give a write just after the check the same modification time.
_RACY_SECONDS = 2.0


def _file_state(path: Path) -> list[Any] | None:
    """The schema version, and the store file's and its write-ahead log's (size, modification time in ns,
    inode), None for a log that is not there or empty; None when the store is too freshly written to trust its
    state (see _RACY_SECONDS)."""
    state: list[Any] = [SCHEMA_VERSION]
    newest = 0
    for name in (path, Path(f"{path}-wal")):
        try:
            stat = name.stat()
        except OSError:
            stat = None
        if stat is None or (stat.st_size == 0 and name != path):  # an empty log (a reader made it) holds nothing
            state.append(None)
            continue
        state.append([stat.st_size, stat.st_mtime_ns, stat.st_ino])
        newest = max(newest, stat.st_mtime_ns)
    if time.time_ns() - newest < _RACY_SECONDS * 1e9:
        return None
    return state


def _known(path: Path, state: list[Any] | None) -> dict[str, Any]:
    """What ``<store>-known`` noted about the store while its files were in ``state`` (empty when they
    have changed since, or nothing was noted)."""
    if state is None:
        return {}
    try:
        noted = json.loads(Path(f"{path}-known").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return noted if isinstance(noted, dict) and noted.get("state") == state else {}


def _note(path: Path, state: list[Any] | None, **facts: Any) -> None:
    """Add ``facts`` to what is known of the store in ``state`` (kept beside it, in ``<store>-known``)."""
    if state is None:
        return
    known = {**_known(path, state), **facts, "state": state}
    marker = Path(f"{path}-known")
    partial = marker.with_name(f"{marker.name}.{os.getpid()}")
    try:  # written whole or not at all; a read-only folder just means working it out again next time
        partial.write_text(json.dumps(known), encoding="utf-8")
        os.replace(partial, marker)
    except OSError:
        with suppress(OSError):  # a full disk: the half-written file goes
            partial.unlink(missing_ok=True)


def _cannot_open(error: sqlite3.Error) -> bool:
    """Whether SQLite could not open a file it needs (the store, or the -shm and -wal files beside it)."""
    return (getattr(error, "sqlite_errorname", "") or "").startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY"))


def _has_log(path: Path) -> bool:
    """Whether the store's write-ahead log is there with something in it (results not yet in the file)."""
    try:
        return Path(f"{path}-wal").stat().st_size > 0
    except OSError:
        return False


class Store:
    """The SQLite results store at ``path`` (created, with its folder, on first use).

    ``read_only=True`` opens an existing store for reading only (the report, ``knight results``):
    nothing is created or changed, and a missing or empty store raises :class:`MissingData`; a store
    where SQLite cannot make its -shm file (read-only media, another user's folder) is read as immutable
    when no log is beside it. Either way a store written by another version raises
    :class:`StoreVersionError`, a file that is not a store :class:`StoreError`, and so does a disk that
    is full or read-only (:mod:`knight.store.disk`: one line naming the path, never "delete it").
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._renewed: dict[int, float] = {}  # when each run's claims were last renewed (record)
        self._opened: disk.FileIdentity | None = None  # the file opened for writing (to see it moved away)
        self._moved = False  # said once (see _check_in_place)
        if read_only:
            self._open_read_only()
            return
        if not self.path.parent.exists():
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreError(disk.cannot_write(self.path.parent, error, doing="make the folder")) from None
        try:
            self.db = sqlite3.connect(self.path, timeout=60.0, isolation_level=None)
            integrity.register(self.db)
            self.db.execute("PRAGMA busy_timeout = 60000")
            self.db.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # takes effect only in a new, empty file
            self._switch_to_wal()
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.execute("PRAGMA foreign_keys = ON")
            with self.transaction():
                version = schema_version(self.db)
                if version not in (None, SCHEMA_VERSION):
                    raise StoreVersionError(self.path, version, SCHEMA_VERSION)
                for statement in filter(str.strip, _SCHEMA.split(";")):
                    self.db.execute(statement)
                if version is None:  # set once: setting it again, even unchanged, would rewrite the file's header
                    self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                # A write that changes nothing (and leaves the files as they were): a read-only store is refused
                # here, before a run computes anything, not at its first result.
                self.db.execute("DELETE FROM claims WHERE 0")
        except sqlite3.DatabaseError as error:
            self._close_quietly()
            raise disk.sqlite_disk_error(self.path, error, writing=True) or StoreError(
                f"cannot open the store {self.path}: {error}; if it is damaged, delete it (the next run "
                "rebuilds it), or give another path with --store"
            ) from None
        except (StoreVersionError, StoreError):
            self._close_quietly()
            raise
        self._absolute = Path(os.path.abspath(self.path))  # the path as opened, whatever the working folder later
        self._opened = disk.identity(self._absolute)

    def _close_quietly(self) -> None:
        """Close the connection of a store that could not be opened (there may be none yet)."""
        if hasattr(self, "db"):
            self.db.close()

    def _open_read_only(self) -> None:
        if not self.path.is_file():
            what = "is a directory, not a store" if self.path.is_dir() else "does not exist"
            raise MissingData(f"{self.path} {what}; run `knight run jobs/*.toml` first, or give --store")
        try:
            try:
                version = self._connect_read_only(immutable=False)
            except sqlite3.OperationalError as error:
                # A store alone on read-only media (a CD, a read-only mount, a folder of another user): SQLite
                # cannot make the -shm file its WAL mode reads through. With no log beside it, the file holds
                # every result, and is read as immutable (no locks, no log).
                if not _cannot_open(error):
                    raise
                if _has_log(self.path):
                    raise StoreError(
                        f"cannot read the store {self.path} where it is: its log {self.path}-wal holds results "
                        "that SQLite reads only beside a file it can write; copy the store with its -wal file to a "
                        "writable folder and give that with --store"
                    ) from None
                version = self._connect_read_only(immutable=True)
        except sqlite3.DatabaseError as error:
            raise disk.sqlite_disk_error(self.path, error, writing=False) or StoreError(
                f"cannot read the store {self.path}: {error}; if it is damaged, delete it (the next run "
                "rebuilds it), or give another path with --store"
            ) from None
        if version == SCHEMA_VERSION:
            return
        self.db.close()
        if version is None:
            raise MissingData(f"the results store {self.path} is empty; run `knight run jobs/*.toml` first")
        raise StoreVersionError(self.path, version, SCHEMA_VERSION)

    def _connect_read_only(self, *, immutable: bool) -> int | None:
        """Open the store for reading (``immutable``: without locks or log, for read-only media); its version."""
        uri = f"{Path(os.path.abspath(self.path)).as_uri()}?mode=ro{'&immutable=1' if immutable else ''}"
        self.db = sqlite3.connect(uri, uri=True, timeout=60.0)
        try:
            integrity.register(self.db)
            return schema_version(self.db)
        except sqlite3.DatabaseError:
            self.db.close()
            raise

    def _switch_to_wal(self) -> None:
        """Put the store in WAL mode. SQLite answers "database is locked" at once, without waiting for
        the busy timeout, when another process is switching a new store's journal mode at the same
        moment (two runs starting together): wait a little and try again."""
        for attempt in range(100):
            try:
                self.db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or attempt == 99:
                    raise
                time.sleep(0.05)

    def close(self) -> None:
        if self._moved:  # SQLite does not empty the log into a file moved away: done here, so that all is in it
            with suppress(sqlite3.Error):
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()
        if self._moved and not self._absolute.exists():  # its emptied log and index, left at the old name, go too
            for leftover in (Path(f"{self._absolute}-wal"), Path(f"{self._absolute}-shm")):
                with suppress(OSError):
                    if leftover.name.endswith("-shm") or leftover.stat().st_size == 0:
                        leftover.unlink()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``): all of it is kept, or none.

        A disk that is full or read-only raises :class:`StoreError` in one line naming the store (what
        earlier transactions kept stays); so does a store moved away or deleted while this one wrote to it
        (once, after the transaction that found it: see :meth:`_check_in_place`)."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                if self.db.in_transaction:  # SQLite may have rolled back already (a full disk, an I/O error)
                    self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            if self.db.in_transaction:
                with suppress(sqlite3.Error):  # the error said is the first one
                    self.db.execute("ROLLBACK")
            raise disk.sqlite_disk_error(self.path, error, writing=True) or error from None
        self._check_in_place()

    def _check_in_place(self) -> None:
        """Raise :class:`StoreError` (once) when the store's path no longer names the file this store opened:
        it was moved or deleted while a run wrote to it, and what the run stores goes with that file (SQLite
        keeps writing to it), not to the path. The message says where the results are."""
        if self._opened is None or self._moved or disk.identity(self._absolute) == self._opened:
            return
        self._moved = True
        raise StoreError(disk.moved_message(self.path, disk.opened_name(self._opened)))

    # --- runs and jobs ----------------------------------------------------------------------

    def start_run(self, jobs: list[str], executor: str, workers: int) -> int:
        """Record a new run; return its id. Runs left ``running`` by a process that is gone (killed
        outright) are marked ``killed`` first."""
        with self.transaction() as db:
            for run_id, pid, host in db.execute("SELECT id, pid, host FROM runs WHERE status = 'running'").fetchall():
                if host == HOST and not _alive(pid):  # another host's run is left to the claims' timeout
                    db.execute("UPDATE runs SET status = 'killed' WHERE id = ?", (run_id,))
            db.execute("DELETE FROM claims WHERE run_id IN (SELECT id FROM runs WHERE status != 'running')")
            cursor = db.execute(
                "INSERT INTO runs (started, status, jobs, executor, workers, pid, host) "
                "VALUES (?, 'running', ?, ?, ?, ?, ?)",
                (time.time(), json.dumps(jobs), executor, workers, os.getpid(), HOST),
            )
        return int(cursor.lastrowid or 0)

    def finish_run(self, run_id: int, status: str, tasks_total: int, tasks_run: int) -> None:
        """Record how run ``run_id`` ended, and release its claims (what it had not finished is
        free for another run at once)."""
        with self.transaction() as db:
            db.execute(
                "UPDATE runs SET finished = ?, status = ?, tasks_total = ?, tasks_run = ? WHERE id = ?",
                (time.time(), status, tasks_total, tasks_run, run_id),
            )
            db.execute("DELETE FROM claims WHERE run_id = ?", (run_id,))

    # --- claims: two runs of one job share its tasks ---------------------------------------

    def claim(self, run_id: int, keys: Iterable[str]) -> Claimed:
        """Claim for run ``run_id`` the tasks of ``keys`` that it may run now, in one short write
        transaction, and say which (:class:`Claimed`).

        Granted: a task with no outcome recorded since the run started and no claim, or claimed by
        this run already (renewed), or claimed by a run that is over: not ``running``, its process
        gone (on this host; that run is then marked ``killed``), or its claim not renewed for
        :data:`CLAIM_TIMEOUT` seconds. Not granted: a task another live run holds, and one that is
        done or that another run recorded as failed since this run started (its outcome stands for
        this run too: :meth:`outcomes`).
        """
        asked = list(keys)
        wanted = json.dumps(asked)
        claimed = Claimed()
        now = time.time()
        with self.transaction() as db:
            finished = {key for key, *_ in db.execute(_FINISHED, {"keys": wanted, "run": run_id})}
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
                        gone[owner] = status != "running" or (host == HOST and not _alive(pid))
                    if not gone[owner] and now - claimed_at <= CLAIM_TIMEOUT:
                        claimed.held[owner] = claimed.held.get(owner, 0) + 1
                        continue
                    claimed.taken_over[owner] = claimed.taken_over.get(owner, 0) + 1
                claimed.granted.add(key)
            for owner, dead in gone.items():
                if dead:  # all its claims go, not only those asked for here
                    db.execute("UPDATE runs SET status = 'killed' WHERE id = ? AND status = 'running'", (owner,))
                    db.execute("DELETE FROM claims WHERE run_id = ?", (owner,))
            db.execute(  # one statement for the chunk's claims
                "INSERT OR REPLACE INTO claims SELECT value, ?, ?, ?, ? FROM json_each(?)",
                (run_id, os.getpid(), HOST, now, json.dumps(sorted(claimed.granted))),
            )
        return claimed

    def outcomes(self, run_id: int, keys: Iterable[str]) -> dict[str, Outcome]:
        """The outcome of each task of ``keys`` that is done, or that failed since run ``run_id``
        started (a failure from before is one the run tries again)."""
        rows = self.db.execute(_FINISHED, {"keys": json.dumps(list(keys)), "run": run_id})
        return {key: Outcome(status, error, owner) for key, status, error, owner in rows}

    def register_job(self, job: str, tasks: Iterable[Any], censuses: Iterable[Any] = ()) -> None:
        """Make ``tasks`` (runner Tasks) exactly the tasks of ``job``, adding those the store lacks; and
        ``censuses`` (runner CensusPlans: a :class:`~knight.engine.census.CensusSpec` and its units'
        task keys) exactly the censuses it asks for."""
        texts: dict[Any, tuple[str, str]] = {}  # a sweep has few parameter sets: encode each once
        rows = []
        for t in tasks:
            if t.params not in texts:
                texts[t.params] = (
                    json.dumps(t.params_dict, sort_keys=True),
                    json.dumps(t.group_params, sort_keys=True),
                )
            rows.append((t.key, t.method, *texts[t.params], t.n, t.m, t.start[0], t.start[1]))
        with self.transaction() as db:
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
                    "INSERT OR IGNORE INTO censuses (n, m, closed, removed, starts, depth, units) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (*definition, len(plan.keys)),
                )
                (census_id,) = db.execute(
                    "SELECT id FROM censuses WHERE n = ? AND m = ? AND closed = ? AND "
                    "removed = ? AND starts = ? AND depth = ?",
                    definition,
                ).fetchone()
                stored = {
                    k for (k,) in db.execute("SELECT task_key FROM census_tasks WHERE census_id = ?", (census_id,))
                }
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

    def done_keys(self) -> set[str]:
        """The keys of every task marked done whose result is in the store (these are never run
        again; one marked done whose result has gone is run again)."""
        return {
            key
            for (key,) in self.db.execute(
                f"SELECT r.task_key FROM results r WHERE r.status = 'done' AND NOT ({integrity.NO_OUTCOME})"
            )
        }

    # --- integrity --------------------------------------------------------------------------

    def problems(self, *, full: bool = False, limit: int | None = None) -> list[integrity.Problem]:
        """What is wrong with the store: the cheap checks (every done task has its result, every
        result its checksum), and with ``full`` every tour validated from its path too
        (:mod:`knight.store.integrity`)."""
        try:
            return integrity.all_problems(self.db) if full else integrity.cheap_problems(self.db, limit)
        except sqlite3.DatabaseError as error:
            return [
                integrity.Problem(
                    "", "", (), f"the file is damaged beyond repair ({error}); delete it, the next run rebuilds it"
                )
            ]

    def refuse_if_damaged(self, *, runs_again: bool = False) -> None:
        """Raise :class:`StoreError` when the cheap checks find anything (readers call this, so
        that no wrong number is ever shown). With ``runs_again`` (a run, before it starts), done tasks
        whose result has gone are let by: the run computes them again, and the store is sound after it.

        The checks are skipped when neither the file nor its write-ahead log has changed since they
        last passed (their size, modification time and inode, noted in ``<store>-known``), as git
        trusts an unchanged file's stat: every write, by knight or by hand, changes them. Damage that
        changes neither (a disk flipping a bit in place) waits for the next write, or for
        ``knight verify``, which always checks everything.
        """
        seen = _file_state(self.path)
        if _known(self.path, seen).get("sound"):
            return
        found = self.problems(limit=1000)  # those a run recomputes come last (integrity.cheap_problems)
        refused = [problem for problem in found if not (runs_again and problem.what == integrity.MISSING)]
        if refused:
            raise StoreError(
                f"the store {self.path} is damaged ({len(found)}{'+' if len(found) == 1000 else ''} "
                f"problem(s), first: {refused[0]}); run `knight verify --repair`, then `knight run`"
            )
        if not found:
            _note(self.path, seen, sound=True)

    def repair(self, problems: list[integrity.Problem]) -> int:
        """Drop what ``problems`` name so that the next run computes it again; return how many tasks.

        A missing table hides the other checks (they read it): once it is made again, they run, and what
        they find is added to ``problems`` and dropped too, so that one repair leaves a sound store."""
        with self.transaction() as db:
            dropped = integrity.repair(db, problems, _SCHEMA)
            if any(not problem.key for problem in problems):
                found = integrity.all_problems(db)
                problems.extend(found)
                dropped += integrity.repair(db, found, _SCHEMA)
            return dropped

    # --- results ----------------------------------------------------------------------------

    def record(self, run_id: int, results: Iterable[TaskResult], revalidate: bool = False) -> int:
        """Store finished tasks in one transaction; return how many rows changed.

        A done task already stored keeps its first result (the same, as tasks are
        deterministic); a failed one is replaced by a later success. Workers have run
        :func:`validate` on every tour; here each record is checked to be complete, and one
        that is not is stored as a failure with the reason (``revalidate`` runs the full
        :func:`validate` again, for results from elsewhere).
        """
        now = time.time()
        done: list[tuple[str, int, int, float, str | None]] = []
        failed, tours, counts, estimates, shares = [], [], [], [], []
        for result in results:
            problem = "" if not result.ok else (validate(result) if revalidate else incomplete(result))
            if not result.ok or problem:
                failed.append((result.key, result.attempts, problem or result.error, run_id, now))
                continue
            if result.is_estimate:
                assert result.estimate is not None  # incomplete() checked it
                estimates.append(_estimate_row(result.key, result.estimate))
                done.append((result.key, result.attempts, run_id, now, None))  # sealed below, from the stored row
                continue
            row = outcome_row(result)
            if result.is_count:
                counts.append(row)
                if result.share is not None:
                    shares.append((result.key, int(result.share)))
            else:
                tours.append(row)
            sealed_here = integrity.checksum(*row) if revalidate or not result.checksum else result.checksum
            done.append((result.key, result.attempts, run_id, now, sealed_here))
        with self.transaction() as db:
            before = db.total_changes
            db.executemany("INSERT OR IGNORE INTO tours VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", tours)
            db.executemany("INSERT OR IGNORE INTO counts VALUES (?, ?, ?)", counts)
            db.executemany("INSERT OR REPLACE INTO census_shares VALUES (?, ?)", shares)
            db.executemany(f"INSERT OR IGNORE INTO estimates VALUES ({', '.join('?' * 14)})", estimates)
            db.executemany(
                "INSERT INTO results (task_key, status, attempts, run_id, finished, checksum) "
                "VALUES (?, 'done', ?, ?, ?, ?) "
                "ON CONFLICT (task_key) DO UPDATE SET status = 'done', attempts = excluded.attempts, error = '', "
                "run_id = excluded.run_id, finished = excluded.finished, checksum = excluded.checksum "
                "WHERE status = 'failed'",
                done,
            )
            db.executemany(
                "INSERT INTO results (task_key, status, attempts, error, run_id, finished) "
                "VALUES (?, 'failed', ?, ?, ?, ?) ON CONFLICT (task_key) DO UPDATE SET attempts = excluded.attempts, "
                "error = excluded.error, run_id = excluded.run_id, finished = excluded.finished "
                "WHERE status = 'failed'",
                failed,
            )
            changed = db.total_changes - before
            db.execute(  # finished: the run's claims on them go (one statement), and the rest are renewed (below)
                "DELETE FROM claims WHERE run_id = ? AND task_key IN (SELECT value FROM json_each(?))",
                (run_id, json.dumps([row[0] for rows in (done, failed) for row in rows])),
            )
            if now - self._renewed.get(run_id, 0.0) >= RENEW_SECONDS:
                db.execute("UPDATE claims SET claimed_at = ? WHERE run_id = ?", (now, run_id))
                self._renewed[run_id] = now
            integrity.seal(db, {"estimates": [row[0] for row in estimates]})  # their REAL columns: read back
            return changed

    def tour(self, task_key: str) -> Tour:
        """The stored tour of a done task, decoded and rebuilt (and so validated again).

        Raises :class:`KeyError` when the task has no stored tour, :class:`PathNotKept` when its
        board was too large for the path to be kept."""
        row = self.db.execute(
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

    def failures(self, job: str | None = None) -> list[tuple[str, str, int, str]]:
        """Failed tasks: (key, description, attempts, reason)."""
        rows = self.db.execute(
            "SELECT DISTINCT t.key, t.method, t.params, t.n, t.m, t.start_row, t.start_col, r.attempts, r.error "
            "FROM results r JOIN tasks t ON t.key = r.task_key JOIN job_tasks j ON j.task_key = t.key "
            "WHERE r.status = 'failed' AND (? IS NULL OR j.job = ?) ORDER BY t.key",
            (job, job),
        )
        return [
            (key, f"{method} {params} {size_text(n, m)} from ({row}, {col})", attempts, error)
            for key, method, params, n, m, row, col, attempts, error in rows
        ]

    def jobs(self) -> list[str]:
        """The names of the jobs the store knows."""
        return [job for (job,) in self.db.execute("SELECT DISTINCT job FROM job_tasks ORDER BY job")]

    def summary(self, job: str | None = None) -> list[dict[str, Any]]:
        """Per job, board, method and parameters (random seeds together): tasks, outcomes and distinct tours.

        Tour tasks only: census units are summed up by :meth:`censuses`, estimates listed by :meth:`estimates`.

        ``starts_full`` counts the start squares from which at least one full tour was found;
        the ``distinct_*`` columns count different full tours: as directed sequences, up to
        reversal, and up to reversal and the board's symmetries.
        """
        query = """
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
            WHERE (? IS NULL OR j.job = ?) AND t.method NOT IN ('census', 'estimate')
            GROUP BY j.job, t.n, t.m, t.method, t.group_params
            ORDER BY j.job, t.n * t.m, t.n, t.method, t.group_params
        """
        # The whole store's summary is kept beside it while its files are unchanged (see refuse_if_damaged):
        # its six distinct counts over every tour take a good part of `knight results`' time.
        state = _file_state(self.path)
        known: list[dict[str, Any]] | None = _known(self.path, state).get("summary")
        if known is not None:
            return [row for row in known if job is None or row["job"] == job]
        cursor = self.db.execute(query, (job, job))
        names = [column[0] for column in cursor.description]
        rows = []
        for values in cursor:
            row = dict(zip(names, values))
            row["params"] = json.loads(row.pop("group_params"))
            rows.append(row)
        if job is None:
            _note(self.path, state, summary=rows)
        return rows

    def tours(self, job: str | None = None, *, drawn_up_to: int = DRAWN_UP_TO_SQUARES) -> list[TourRecord]:
        """Every stored tour of ``job`` (of every job by default) as a :class:`TourRecord`, with its
        path (encoded) on boards of at most ``drawn_up_to`` squares; larger ones carry their keys and
        flags only."""
        rows = self.db.execute(_TOURS, {"drawn": drawn_up_to, "job": job}).fetchall()
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

    def censuses(self, job: str | None = None) -> list[CensusRecord]:
        """Every census of ``job`` (of every job by default), put together from its units' counts."""
        return _read_censuses(self.db, job)

    def unit_shares(self, census_id: int) -> list[tuple[CensusUnit, int | None]]:
        """Each done unit of census ``census_id`` with its share of Burnside's sum (None where none was stored)."""
        return [
            (_unit(params, n, m, row, col), share)
            for params, n, m, row, col, share in self.db.execute(
                "SELECT t.params, t.n, t.m, t.start_row, t.start_col, k.share FROM census_tasks ct "
                "JOIN tasks t ON t.key = ct.task_key JOIN results r ON r.task_key = t.key AND r.status = 'done' "
                "LEFT JOIN census_shares k ON k.task_key = t.key WHERE ct.census_id = ?",
                (census_id,),
            )
        ]

    def record_classes(self, census_id: int, classes: int) -> None:
        """Store the number of closed tours up to symmetry of a complete census."""
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO census_classes VALUES (?, ?)", (census_id, classes))

    def estimates(self, job: str | None = None) -> list[EstimateRecord]:
        """Every done tree-size estimate of ``job`` (of every job by default), smallest board first."""
        return _read_estimates(self.db, job)

    def integrity(self) -> str:
        """SQLite's own integrity check: ``ok`` when the file is sound."""
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]


def outcome_row(result: TaskResult) -> tuple[Any, ...]:
    """The row of ``tours`` or ``counts`` that stores a done tour or count result, each value as SQLite gives it
    back (a bool is an integer there), so that its checksum is the one readers compute from the stored row."""
    if result.is_count:
        assert result.tours is not None  # incomplete() checked it
        return (result.key, int(result.tours), int(result.nodes))
    return (
        result.key,
        int(result.length),
        int(result.full),
        int(result.closed),
        int(result.success),
        int(result.work),
        str(result.work_unit),
        int(result.budget_exhausted),
        str(result.key_directed),
        str(result.key_undirected),
        str(result.key_symmetric),
        None if result.moves is None else bytes(result.moves),
    )


def sealed(result: TaskResult) -> TaskResult:
    """``result`` with the checksum of the row that will store it, computed where it was made (a worker), so
    that the runner, which stores every result, does not spend its time on it; and a change on the way to the
    store is caught by :mod:`knight.store.integrity` like one on disk. Estimates and failures are left as they
    are (an estimate is sealed from its stored row)."""
    if not result.ok or result.is_estimate:
        return result
    return replace(result, checksum=integrity.checksum(*outcome_row(result)))


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (on this machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


#: The tasks of the JSON list ``:keys`` that are finished as far as run ``:run`` is concerned: done
#: (with their result), or given an outcome since the run started.
_FINISHED = f"""
SELECT r.task_key, r.status, r.error, r.run_id FROM results r
WHERE r.task_key IN (SELECT value FROM json_each(:keys))
  AND (r.finished >= (SELECT started FROM runs WHERE id = :run) OR (r.status = 'done' AND NOT ({integrity.NO_OUTCOME})))
"""


def _jobs(names: str | None) -> tuple[str, ...]:
    """The jobs that ask for a task, from SQLite's ``group_concat``."""
    return tuple(sorted((names or "").split(",")))


_TOURS = """
SELECT t.method, t.params, t.n, t.m, t.start_row, t.start_col,
       o.length, o.full, o.closed, o.success, o.work, o.work_unit, o.budget_exhausted,
       o.key_directed, o.key_undirected, o.key_symmetric,
       CASE WHEN t.n * t.m <= :drawn THEN o.moves END,
       (SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = t.key)
FROM tasks t JOIN tours o ON o.task_key = t.key
WHERE :job IS NULL OR EXISTS (SELECT 1 FROM job_tasks j WHERE j.task_key = t.key AND j.job = :job)
"""


def _squares_text(squares: Iterable[Square]) -> str:
    """Squares as canonical JSON, ``[[row, col], ...]`` in order, for the ``censuses`` table."""
    return json.dumps(sorted([int(row), int(col)] for row, col in squares), separators=(",", ":"))


_CENSUSES = """
SELECT c.id, c.n, c.m, c.closed, c.removed, c.starts, c.depth, c.units,
       (SELECT group_concat(jc.job) FROM job_censuses jc WHERE jc.census_id = c.id), {classes}
FROM censuses c
WHERE ? IS NULL OR EXISTS (SELECT 1 FROM job_censuses jc WHERE jc.census_id = c.id AND jc.job = ?)
ORDER BY c.n * c.m, c.n, c.closed, c.removed, c.starts, c.depth
"""
_CENSUS_UNITS = """
SELECT t.params, t.start_row, t.start_col, r.status, k.tours, k.nodes
FROM census_tasks ct JOIN tasks t ON t.key = ct.task_key
LEFT JOIN results r ON r.task_key = t.key LEFT JOIN counts k ON k.task_key = t.key AND r.status = 'done'
WHERE ct.census_id = ?
"""


def _read_censuses(db: sqlite3.Connection, job: str | None = None) -> list[CensusRecord]:
    """The censuses of ``job`` (every job by default) in the store open on ``db`` (read-only will do),
    each put together with :func:`~knight.engine.census.assemble` once every unit has its count."""
    found = []
    # a store written before the table existed, opened read-only, has no classes yet
    has_classes = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'census_classes'").fetchone()
    query = _CENSUSES.format(
        classes="(SELECT classes FROM census_classes cc WHERE cc.census_id = c.id)" if has_classes else "NULL"
    )
    for census_id, n, m, closed, removed, starts, depth, units, jobs, classes in db.execute(
        query, (job, job)
    ).fetchall():
        plan, counts, failed = [], [], 0
        for params, row, col, status, tours, nodes in db.execute(_CENSUS_UNITS, (census_id,)):
            failed += status == "failed"
            if tours is not None:
                plan.append(_unit(params, n, m, row, col))
                counts.append(UnitCount(tours, nodes))
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
            )
        )
    return found


def _unit(params: str, n: int, m: int, row: int, col: int) -> CensusUnit:
    """A census unit from its task's row."""
    return CensusUnit.from_dict({**json.loads(params), "n": n, "m": m, "start": (row, col)})


def _estimate_row(key: str, found: EstimateResult) -> tuple[Any, ...]:
    """A row of the ``estimates`` table."""
    e = found.estimate
    checkpoints = json.dumps([[c.probes, c.node_mean, c.node_se, c.tour_mean, c.tour_se] for c in e.checkpoints])
    return (
        key,
        e.probes,
        e.seed,
        e.node_mean,
        e.node_sd,
        e.tour_mean,
        e.tour_sd,
        e.full_probes,
        e.mean_depth,
        checkpoints,
        found.exact_nodes,
        found.exact_tours,
        found.rate_nodes,
        found.rate_seconds,
    )


_ESTIMATES = """
SELECT t.n, t.m, t.start_row, t.start_col, e.probes, e.seed, e.node_mean, e.node_sd, e.tour_mean, e.tour_sd,
       e.full_probes, e.mean_depth, e.checkpoints, e.exact_nodes, e.exact_tours, e.rate_nodes, e.rate_seconds,
       (SELECT group_concat(j.job) FROM job_tasks j WHERE j.task_key = t.key)
FROM estimates e JOIN tasks t ON t.key = e.task_key JOIN results r ON r.task_key = t.key AND r.status = 'done'
WHERE ? IS NULL OR EXISTS (SELECT 1 FROM job_tasks j WHERE j.task_key = t.key AND j.job = ?)
ORDER BY t.n * t.m, t.n, t.start_row, t.start_col, e.probes, e.seed, e.rate_nodes
"""


def _read_estimates(db: sqlite3.Connection, job: str | None = None) -> list[EstimateRecord]:
    """The done tree-size estimates of ``job`` (every job by default) in the store open on ``db``
    (read-only will do), smallest board first."""
    found = []
    for (
        n,
        m,
        row,
        col,
        probes,
        seed,
        node_mean,
        node_sd,
        tour_mean,
        tour_sd,
        full,
        depth,
        checkpoints,
        exact_nodes,
        exact_tours,
        rate_nodes,
        rate_seconds,
        jobs,
    ) in db.execute(_ESTIMATES, (job, job)):
        estimate = TreeEstimate(
            n,
            m,
            (row, col),
            probes,
            seed,
            node_mean,
            node_sd,
            tour_mean,
            tour_sd,
            full,
            depth,
            tuple(Checkpoint(*values) for values in json.loads(checkpoints)),
        )
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
