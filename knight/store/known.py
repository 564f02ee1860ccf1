"""What is known of a store whose files have not changed since: kept beside it, in ``<store>-known``.

Facts worked out from a store (that its cheap checks passed, its whole summary) hold while neither its file
nor its write-ahead log has changed (their size, modification time and inode), as git trusts an unchanged
file's stat: every write, by knight or by hand, changes them. The schema version is part of the state, so a
store read by another version works everything out again.
"""

from __future__ import annotations

import json
import os
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from knight.store.schema import SCHEMA_VERSION

__all__ = ["KnownFacts"]

#: Files written less than this long ago are checked again next time: a file system whose clock ticks
#: coarsely could give a write just after the check the same modification time.
RACY_SECONDS = 2.0


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
        if self.state is None:
            return
        known = {**self._noted(), **facts, "state": self.state}
        partial = self.marker.with_name(f"{self.marker.name}.{os.getpid()}")
        try:  # written whole or not at all; a read-only folder just means working it out again next time
            partial.write_text(json.dumps(known), encoding="utf-8")
            os.replace(partial, self.marker)
        except OSError:
            with suppress(OSError):  # a full disk: the half-written file goes
                partial.unlink(missing_ok=True)

    def _noted(self) -> dict[str, Any]:
        """What ``<store>-known`` holds for this state (empty when the files have changed since)."""
        if self.state is None:
            return {}
        try:
            noted = json.loads(self.marker.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return noted if isinstance(noted, dict) and noted.get("state") == self.state else {}


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
