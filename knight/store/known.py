"""What is known of a store whose files have not changed since: kept beside it, in ``<store>-known``.

Facts worked out from a store (that its cheap checks passed, its whole summary) hold while neither its file
nor its write-ahead log has changed (their size, modification time and inode), as git trusts an unchanged
file's stat: every write, by knight or by hand, changes them. The schema version is part of the state, so a
store read by another version works everything out again.

The facts are written by whoever may write the store (as its owner, when that is root): a reader of another
user's store leaves no file of its own beside it, which its owner could not replace. They are read only from a
regular file of a bounded size (a FIFO or a device planted there is not waited on).
"""

from __future__ import annotations

import json
import os
import stat
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from knight.store import disk
from knight.store.schema import SCHEMA_VERSION

__all__ = ["KnownFacts"]

#: Files written less than this long ago are checked again next time: a file system whose clock ticks
#: coarsely could give a write just after the check the same modification time.
RACY_SECONDS = 2.0
#: The largest ``<store>-known`` read (a summary of a few hundred thousand groups); a larger one is ignored.
MAX_BYTES = 64 << 20
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
#: Where the system has no O_NOFOLLOW (Windows), O_EXCL: the partial file is removed first, and whatever is
#: there again (a link planted meanwhile) is refused, never written through.
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", os.O_EXCL)


class KnownFacts:
    """The facts noted about the store at ``path`` while its files are as they are now (the state is taken
    when this is made: a fact worked out after it is noted for that state, never a later one)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.marker = Path(f"{path}-known")
        self.state = _file_state(path)

    def get(self, fact: str) -> Any:
        """The noted value of ``fact``, None when the files have changed since or nothing was noted."""
        return self._noted().get(fact)

    def note(self, **facts: Any) -> None:
        """Add ``facts`` to what is known of the store in this state."""
        if self.state is None or disk.others_file(self.path):
            return
        known = {**self._noted(), **facts, "state": self.state}
        partial = self.marker.with_name(f"{self.marker.name}.{os.getpid()}")
        try:  # written whole or not at all; a read-only folder just means working it out again next time
            if not hasattr(os, "O_NOFOLLOW"):
                partial.unlink(missing_ok=True)
            descriptor = os.open(partial, _WRITE, 0o644)
            with open(descriptor, "w", encoding="utf-8") as written:
                _as_owner(descriptor, self.path)
                written.write(json.dumps(known))
            os.replace(partial, self.marker)
        except OSError:
            with suppress(OSError):  # a full disk: the half-written file goes
                partial.unlink(missing_ok=True)

    def _noted(self) -> dict[str, Any]:  # a JSON document read back
        """What ``<store>-known`` holds for this state (empty when the files have changed since)."""
        if self.state is None:
            return {}
        try:
            noted = json.loads(_read_bounded(self.marker))
        except (OSError, ValueError, RecursionError):
            return {}
        return noted if isinstance(noted, dict) and noted.get("state") == self.state else {}


def _read_bounded(path: Path) -> str:
    """The text of the regular file ``path`` (not followed if a link), at most :data:`MAX_BYTES`; OSError else."""
    if not hasattr(os, "O_NOFOLLOW") and path.is_symlink():  # Windows: looked for, as the flag is missing
        raise OSError(f"{path} is a link")
    descriptor = os.open(path, _READ)
    with open(descriptor, "rb") as opened:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_BYTES:
            raise OSError(f"{path} is not a regular file of at most {MAX_BYTES} bytes")
        return opened.read(MAX_BYTES + 1).decode("utf-8")


def _as_owner(descriptor: int, store: Path) -> None:
    """Give the file open as ``descriptor`` to the store's owner when this process is root and the store is
    another user's, so that its owner can replace it later."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        found = os.stat(store)
        if found.st_uid != 0:
            os.fchown(descriptor, found.st_uid, found.st_gid)


def _file_state(path: Path) -> list[Any] | None:
    """The schema version, and the store file's and its write-ahead log's (size, modification time in ns,
    inode), None for a log that is not there or empty; None when the store is too freshly written to trust its
    state (see RACY_SECONDS)."""
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
    if time.time_ns() - newest < RACY_SECONDS * 1e9:
        return None
    return state
