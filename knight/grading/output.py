"""Where a grading run writes: the folder OUT, held by one grader at a time, each file replaced whole.

* one grader at a time: :class:`Output` holds an exclusive ``fcntl.flock`` on ``OUT/.knight-grade.lock``
  for the whole run, so a second grader into the same OUT stops with one line instead of interleaving its
  gradebook with the first one's pages;
* each file is written to a temporary file in OUT (created ``O_EXCL``, which never follows a link) and
  renamed over its name, which replaces a link planted there rather than the file it points to; readers
  see the old file or the new one, never half of one;
* a killed run leaves only hidden ``.NAME.PID.XXXX.partial`` files, which the next run removes
  (:func:`knight.report.render.remove_leftovers`, the report's own convention);
* a full disk or a read-only folder stops the run with one line naming the path and the cause
  (:class:`~knight.errors.RenderError`, or :class:`~knight.errors.InvalidInput` when OUT itself cannot be
  used), and no temporary file is left behind.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path
from types import TracebackType

from knight.errors import InvalidInput, RenderError

__all__ = ["LOCK_NAME", "Output"]

#: The lock file in OUT (hidden: never taken for a student's page).
LOCK_NAME = ".knight-grade.lock"


class Output:
    """The folder ``folder``, created if need be and locked against other graders while the ``with`` block runs."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._lock: int | None = None

    def __enter__(self) -> Output:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            lock = os.open(
                self.folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o644
            )
        except OSError as error:
            raise InvalidInput(_cannot(self.folder, error, "use")) from None
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(lock, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(lock)
            raise InvalidInput(
                f"{self.folder} is being written by another knight grade (process {holder}); wait for it to "
                "finish, or give another --out"
            ) from None
        self._lock = lock
        try:  # who holds it, for the message of a second grader; only informative
            os.ftruncate(lock, 0)
            os.write(lock, f"{os.getpid()}\n".encode())
        except OSError:
            pass
        from knight.report.render import remove_leftovers

        remove_leftovers(self.folder)  # a killed run's half-written files: never taken for output
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._lock is not None:
            with contextlib.suppress(OSError):  # no process id left behind to name a grader that is gone
                os.ftruncate(self._lock, 0)
            os.close(self._lock)  # closing releases the lock; the empty file stays
            self._lock = None

    def write(self, name: str, text: str) -> Path:
        """Replace ``OUT/name`` with ``text`` atomically, without following a link there; return its path."""
        from knight.report.render import write_text

        path = self.folder / name
        try:
            write_text(text, path)
        except OSError as error:  # the disk's (full, read-only); the temporary file is gone already
            raise RenderError(_cannot(path, error, "write")) from None
        return path

    def write_pdf(self, name: str, page: str) -> Path:
        """``OUT/name`` as the PDF of the HTML ``page``, written as :meth:`write` writes."""
        from knight.report.render import write_pdf

        path = self.folder / name
        try:
            write_pdf(page, path)
        except OSError as error:
            raise RenderError(_cannot(path, error, "write")) from None
        return path


_ADVICE = {
    errno.ENOSPC: "free some space and grade again",
    errno.EDQUOT: "free some space (or raise the quota) and grade again",
    errno.EROFS: "give a writable --out",
    errno.EACCES: "give a --out you can write",
    errno.EPERM: "give a --out you can write",
    errno.EEXIST: "--out names a file: give a folder",
    errno.ENOTDIR: "--out names a file: give a folder",
    errno.ELOOP: f"remove the link planted at {LOCK_NAME} in --out",
}


def _cannot(path: Path, error: OSError, doing: str) -> str:
    """One line: the path, the cause, what to do, and that what was written is kept."""
    cause = (error.strerror or str(error)).lower()
    advice = _ADVICE.get(error.errno or 0, "fix that and grade again")
    return f"cannot {doing} {path}: {cause}; {advice} (the files already written there are kept)"
