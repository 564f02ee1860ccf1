"""The store's file on disk: what can go wrong there, said in one line that names the path and what to do.

A full disk, a quota, a read-only file, folder or file system, and a store moved away while a run writes
to it are conditions of the disk, not damage to the data: the messages here never say to delete the
store. The report's writer uses :func:`cannot_write` too, for the same causes met writing its files.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from pathlib import Path

from knight.errors import StoreError

__all__ = [
    "DISK_ERRNOS",
    "FileIdentity",
    "cannot_write",
    "identity",
    "moved_message",
    "not_a_file",
    "opened_name",
    "others_file",
    "refuse_special_files",
    "sqlite_disk_error",
    "unwritable_reason",
]

#: What each error of the disk (rather than of the data) means, and what to do about it.
_CAUSES = {
    errno.ENOSPC: ("no space left on device", "free some space and run again"),
    errno.EDQUOT: ("disk quota exceeded", "free some space (or raise the quota) and run again"),
    errno.EFBIG: ("file too large for this file system or its limits", "give a path on another disk"),
    errno.EROFS: ("read-only file system", "give a path on a writable disk"),
    errno.EACCES: ("permission denied", "fix the permissions, or give a path you can write"),
    errno.EPERM: ("operation not permitted", "fix the permissions (or the immutable flag), or give another path"),
    errno.EIO: ("input/output error", "check the disk, then run again"),
}
#: The errno values that :func:`cannot_write` describes (the command line turns them into one line).
DISK_ERRNOS = frozenset(_CAUSES)

FileIdentity = tuple[int, int]  # (st_dev, st_ino): the file a path named when it was opened


def cannot_write(path: str | Path, error: OSError, kept: str = "", *, doing: str = "write") -> str:
    """One line for ``error`` met writing (or ``doing`` something else to) ``path``: the path, the cause, what
    to do, and what is kept."""
    cause, todo = _CAUSES.get(error.errno or 0, ((error.strerror or str(error)).lower(), "fix that and run again"))
    return f"cannot {doing} {path}: {cause}; {todo}{f' ({kept})' if kept else ''}"


#: What each kind of file other than a regular one is, as a message names it.
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)
#: The files SQLite keeps beside a store, each named by a suffix to the store's path.
COMPANIONS = ("-wal", "-shm", "-journal")


def not_a_file(path: Path) -> str:
    """What ``path`` is when it is there (links followed) and is not a regular file, e.g. "a character device";
    empty for a regular file, for nothing there, and where the system cannot say."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return ""
    return next((kind for is_kind, kind in _KINDS if is_kind(mode)), "" if stat.S_ISREG(mode) else "not a file")


def refuse_special_files(path: Path) -> None:
    """Raise :class:`StoreError` when the store at ``path``, or a file SQLite keeps beside it, is there and is not a
    regular file (a device, a FIFO, a socket, a directory): SQLite would write beside a device (``/dev/null-journal``),
    block on a FIFO, or say something misleading; this says what it is, before SQLite opens anything."""
    kind = not_a_file(path)
    if kind:
        raise StoreError(
            f"the store {path} is {kind}, not a file; give the path of a store file (or of one to be made) with "
            "--store or $KNIGHT_STORE"
        )
    for suffix in COMPANIONS:
        kind = not_a_file(Path(f"{path}{suffix}"))
        if kind:
            raise StoreError(
                f"{path}{suffix}, where SQLite keeps the store's {'log' if suffix != '-shm' else 'log index'}, "
                f"is {kind}, not a file; move it away, or give another store with --store"
            )


def others_file(path: Path) -> bool:
    """Whether the existing file ``path`` belongs to another user than this process's (never for root, whose
    files SQLite gives to the store's owner itself)."""
    uid = os.geteuid() if hasattr(os, "geteuid") else 0
    try:
        return uid != 0 and os.stat(path).st_uid != uid
    except OSError:
        return False


def unwritable_reason(path: Path) -> str:
    """Why ``path`` (a file, or one to be made) cannot be written, in a few words; empty when no reason is seen
    (SQLite itself was opened read-only, say)."""
    folder = path.parent if str(path.parent) else Path(".")
    probe = path if path.exists() else folder
    if _read_only_file_system(probe):
        return "it is on a read-only file system"
    if path.exists() and not os.access(path, os.W_OK):  # for root too: an immutable file is refused here
        return "the file is read-only"
    if folder.exists() and not os.access(folder, os.W_OK | os.X_OK):
        return f"its folder {folder} is read-only, and SQLite writes its journal beside the store"
    return ""


def _read_only_file_system(path: Path) -> bool:
    """Whether ``path`` is on a file system mounted read-only (False where the system cannot say)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs on Windows
        return False


def sqlite_disk_error(path: Path, error: sqlite3.Error, *, writing: bool) -> StoreError | None:
    """The one-line error for a SQLite error that comes from the disk (full, read-only, cannot be opened,
    an I/O error), naming ``path``; None for any other error (damaged data, a bug), which the caller reports
    as it did."""
    name = getattr(error, "sqlite_errorname", "") or ""
    if name == "SQLITE_FULL":
        return StoreError(cannot_write(path, OSError(errno.ENOSPC, "full"), "finished tasks are kept"))
    if name.startswith("SQLITE_READONLY") or name == "SQLITE_PERM" or (writing and name.startswith("SQLITE_CANTOPEN")):
        reason = unwritable_reason(path)
        readable = " (`knight results`, `knight report` and `knight verify` can read it as it is)"
        todo = "copy it to a writable disk" if "file system" in reason else "fix its permissions"
        return StoreError(
            f"the store {path} cannot be written ({reason or error}); {todo}, or give a writable "
            f"store with --store or $KNIGHT_STORE{readable if path.is_file() else ''}"
        )
    if name.startswith("SQLITE_CANTOPEN"):
        why = "permission denied" if path.exists() and not os.access(path, os.R_OK) else str(error)
        return StoreError(
            f"cannot read the store {path}: {why}; fix its permissions, or give another path with --store"
        )
    if name.startswith("SQLITE_IOERR"):
        return StoreError(
            f"cannot {'write' if writing else 'read'} {path}: disk I/O error ({name}: a full disk, a quota or a "
            "failing disk); free some space or check the disk, and run again (finished tasks are kept)"
        )
    return None


def identity(path: Path) -> FileIdentity | None:
    """The device and inode ``path`` names now; None when nothing is there."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def opened_name(opened: FileIdentity) -> str | None:
    """Where the file this process has open as ``opened`` is now (its current name, read from /proc on Linux);
    None when it was deleted or this system cannot say."""
    try:
        descriptors = os.listdir("/proc/self/fd")
    except OSError:
        return None
    for descriptor in descriptors:
        link = f"/proc/self/fd/{descriptor}"
        try:
            stat = os.stat(link)
            if (stat.st_dev, stat.st_ino) == opened and stat.st_nlink > 0:
                return os.readlink(link)
        except OSError:
            continue
    return None


def moved_message(path: Path, now: str | None) -> str:
    """What to say when the store at ``path`` was moved (to ``now``) or deleted while a run wrote to it."""
    if now is None:
        return (
            f"the store {path} was deleted (or moved where this system cannot follow) while this run wrote to it; "
            "what it stored went with it: run again to compute it"
        )
    return (
        f"the store {path} was moved to {now} while this run wrote to it; every result of the run is in {now}: "
        f"give --store {now} (or move it back) and run again to finish"
    )
