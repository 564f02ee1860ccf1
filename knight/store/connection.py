"""Opening the store's file: for writing (made if missing, in WAL mode), for reading only (read-only media too),
one write transaction, and noticing the file moved away while a run writes to it.

Every failure is one line naming the path: a store of another version (:class:`StoreVersionError`), a file that
is not a store or a disk that is full or read-only (:class:`StoreError`, :mod:`knight.store.disk`), a store that
is not there for a reader (:class:`MissingData`).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from knight.errors import MissingData, StoreError, StoreVersionError
from knight.store import disk, integrity, schema

__all__ = ["OpenedFile", "open_readable", "open_writable", "transaction"]


def open_writable(path: Path) -> tuple[sqlite3.Connection, list[str]]:
    """A connection to the store at ``path`` that may write, its folder, file and tables made if missing; and the
    tables an existing store had lost (dropped by hand) that were made again, empty."""
    disk.refuse_special_files(path)
    if not path.parent.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(disk.cannot_write(path.parent, error, doing="make the folder")) from None
    db: sqlite3.Connection | None = None
    try:
        db = sqlite3.connect(path, timeout=60.0, isolation_level=None)
        integrity.register(db)
        db.execute("PRAGMA busy_timeout = 60000")
        db.execute(f"PRAGMA page_size = {schema.PAGE_SIZE}")  # takes effect only in a new, empty file
        version = schema.schema_version(db)  # refused before the switch to WAL writes the file's header
        if schema.foreign(db):
            raise schema.foreign_file(path)
        if version is not None and version not in (schema.SCHEMA_VERSION, *schema.MIGRATIONS):
            raise StoreVersionError(path, version, schema.SCHEMA_VERSION)
        _switch_to_wal(db)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        with transaction(db, path):
            existing = schema.schema_version(db) == schema.SCHEMA_VERSION
            made_again = integrity.missing_tables(db) if existing else []
            schema.create(db, path)
            # A write that changes nothing (and leaves the files as they were): a read-only store is refused
            # here, before a run computes anything, not at its first result.
            db.execute("DELETE FROM claims WHERE 0")
    except sqlite3.DatabaseError as error:
        if db is not None:
            db.close()
        raise disk.sqlite_disk_error(path, error, writing=True) or StoreError(
            f"cannot open the store {path}: {error}; if it is damaged, delete it (the next run "
            "rebuilds it), or give another path with --store"
        ) from None
    except (StoreVersionError, StoreError):
        if db is not None:
            db.close()
        raise
    return db, made_again


def open_readable(path: Path) -> sqlite3.Connection:
    """A connection that reads the existing store at ``path`` and changes nothing. A store where SQLite cannot
    make its -shm file (read-only media, another user's folder) is read as immutable when no log is beside it; so is
    another user's store without its log and index (see :func:`_shared`)."""
    disk.refuse_special_files(path)
    if not path.is_file():
        raise MissingData(f"{path} does not exist; run `knight run homework-8` (or another job) first, or give --store")
    try:
        try:
            db, version = _connect_read_only(path, immutable=_shared(path))
        except sqlite3.OperationalError as error:
            # A store alone on read-only media (a CD, a read-only mount, a folder of another user): SQLite
            # cannot make the -shm file its WAL mode reads through. With no log beside it, the file holds
            # every result, and is read as immutable (no locks, no log).
            if not _cannot_open(error):
                raise
            if _has_log(path):
                raise StoreError(
                    f"cannot read the store {path} where it is: its log {path}-wal holds results "
                    "that SQLite reads only beside a file it can write; copy the store with its -wal file to a "
                    "writable folder and give that with --store"
                ) from None
            db, version = _connect_read_only(path, immutable=True)
    except sqlite3.DatabaseError as error:
        raise disk.sqlite_disk_error(path, error, writing=False) or StoreError(
            f"cannot read the store {path}: {error}; if it is damaged, delete it (the next run "
            "rebuilds it), or give another path with --store"
        ) from None
    if version == schema.SCHEMA_VERSION:
        return db
    is_foreign = schema.foreign(db)
    db.close()
    if is_foreign:
        raise schema.foreign_file(path)
    if version in schema.MIGRATIONS:  # an older store: migrated in place (writing), then read
        if disk.others_file(path) or not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
            raise StoreError(
                f"the store {path} has format version {version}: this knight migrates it to version "
                f"{schema.SCHEMA_VERSION} in place the first time it may write it, and it may not here (another "
                "user's, or read-only); let its owner run `knight verify` on it, or copy it to a folder of yours "
                "and give that with --store"
            )
        migrated, _ = open_writable(path)
        migrated.close()
        return open_readable(path)
    if version is None:
        raise MissingData(f"the results store {path} is empty; run `knight run homework-8` (or another job) first")
    raise StoreVersionError(path, version, schema.SCHEMA_VERSION)


@contextmanager
def transaction(db: sqlite3.Connection, path: Path) -> Iterator[sqlite3.Connection]:
    """One write transaction on the store at ``path``, taken at once (``BEGIN IMMEDIATE``): all of it is kept,
    or none. A disk that is full or read-only raises :class:`StoreError` in one line naming the store."""
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            if db.in_transaction:  # SQLite may have rolled back already (a full disk, an I/O error)
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    except sqlite3.OperationalError as error:
        if db.in_transaction:
            with suppress(sqlite3.Error):  # the error said is the first one
                db.execute("ROLLBACK")
        raise disk.sqlite_disk_error(path, error, writing=True) or error from None


class OpenedFile:
    """The file a store opened for writing, to see it moved or deleted while a run writes to it: what the run
    stores then goes with that file (SQLite keeps writing to it), not to the path."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.absolute = Path(os.path.abspath(path))  # the path as opened, whatever the working folder later
        self.opened = disk.identity(self.absolute)
        self.moved = False  # said once (see check_in_place)

    def check_in_place(self) -> None:
        """Raise :class:`StoreError` (once) when the store's path no longer names the opened file; the
        message says where the results are."""
        if self.opened is None or self.moved or disk.identity(self.absolute) == self.opened:
            return
        self.moved = True
        raise StoreError(disk.moved_message(self.path, disk.opened_name(self.opened)))

    def close(self, db: sqlite3.Connection) -> None:
        """Close ``db``, its connection. SQLite does not empty the log into a file moved away: done here, so that
        all is in it; its emptied log and index, left at the old name, go too."""
        if self.moved:
            with suppress(sqlite3.Error):
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        if self.moved and not self.absolute.exists():
            for leftover in (Path(f"{self.absolute}-wal"), Path(f"{self.absolute}-shm")):
                with suppress(OSError):
                    if leftover.name.endswith("-shm") or leftover.stat().st_size == 0:
                        leftover.unlink()


def _connect_read_only(path: Path, *, immutable: bool) -> tuple[sqlite3.Connection, int | None]:
    """Open the store for reading (``immutable``: without locks or log, for read-only media); its version."""
    uri = f"{Path(os.path.abspath(path)).as_uri()}?mode=ro{'&immutable=1' if immutable else ''}"
    db = sqlite3.connect(uri, uri=True, timeout=60.0)
    try:
        integrity.register(db)
        return db, schema.schema_version(db)
    except sqlite3.DatabaseError:
        db.close()
        raise


def _switch_to_wal(db: sqlite3.Connection) -> None:
    """Put the store in WAL mode. SQLite answers "database is locked" at once, without waiting for
    the busy timeout, when another process is switching a new store's journal mode at the same
    moment (two runs starting together): wait a little and try again."""
    for attempt in range(100):
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == 99:
                raise
            time.sleep(0.05)


def _shared(path: Path) -> bool:
    """Whether to read another user's store as immutable: SQLite would make its -wal and -shm files beside it (a
    folder all may write, like /tmp), owned by this reader, and its owner could not write the store any more. With
    both there (its owner has it open) they are read as they are; with results in a log but no index beside it,
    this reader cannot read it without making one, and says so. Read so, the store is taken as it is in its file,
    as on read-only media: a run its owner starts meanwhile is not seen, and should not be started meanwhile."""
    if not disk.others_file(path) or all(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-shm")):
        return False
    if _has_log(path):
        raise StoreError(
            f"cannot read the store {path} as another user: its log {path}-wal holds results that SQLite reads "
            f"through an index file it would leave beside it, owned by you, and the store's owner could not write "
            "the store any more; let its owner run `knight verify --repair` on it first (which folds the log into it), or copy the store with its -wal "
            "file to a folder of yours and give that with --store"
        )
    return True


def _cannot_open(error: sqlite3.Error) -> bool:
    """Whether SQLite could not open a file it needs (the store, or the -shm and -wal files beside it)."""
    return (getattr(error, "sqlite_errorname", "") or "").startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY"))


def _has_log(path: Path) -> bool:
    """Whether the store's write-ahead log is there with something in it (results not yet in the file)."""
    try:
        return Path(f"{path}-wal").stat().st_size > 0
    except OSError:
        return False
