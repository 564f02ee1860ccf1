"""Where a grading run writes: the folder OUT, held by one grader at a time, each file replaced whole.

* one grader at a time: :class:`Output` holds an exclusive lock on ``OUT/.knight-grade.lock`` for the whole
  run (``fcntl.flock`` on POSIX, ``LockFileEx`` on Windows, both through filelock's ``lock_descriptor``), so a
  second grader into the same OUT stops with one line instead of interleaving its gradebook with the first one's
  pages; where the system has neither, the process id written in the lock file holds it while that process
  lives (psutil says), which is advisory only;
* each file is written to a temporary file in OUT (created ``O_EXCL``, which never follows a link) and
  renamed over its name, which replaces a link planted there rather than the file it points to; readers
  see the old file or the new one, never half of one;
* a killed run leaves only hidden ``.NAME.PID.XXXXXXXX.partial`` files, which the next run removes
  (:func:`remove_leftovers`: regular files of exactly that name only; every one is a dead grader's, as the
  next run holds the lock);
* the lock file is opened without blocking or following a link (:func:`~knight.grading.files.open_no_link`),
  and refused unless it is a regular file;
* a full disk or a read-only folder stops the run with one line naming the path and the cause
  (:class:`~knight.errors.RenderError`, or :class:`~knight.errors.InvalidInput` when OUT itself cannot be
  used), and no temporary file is left behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from pathlib import Path
from types import TracebackType

from knight.errors import InvalidInput, RenderError
from knight.grading.files import display_name, kind_of, open_no_link

__all__ = ["LOCK_NAME", "Output"]

#: The lock file in OUT (hidden: never taken for a student's page).
LOCK_NAME = ".knight-grade.lock"
#: Where the holder's process id is written in the lock file: after the byte Windows' lock covers (a locked
#: byte cannot be read there), so that a second grader can name the first.
_PID_AT = 1


class Output:
    """The folder ``folder``, created if need be and locked against other graders while the ``with`` block runs."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._lock: int | None = None

    def __enter__(self) -> Output:
        lock_path = self.folder / LOCK_NAME
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            # never blocks (a FIFO planted there opens at once) and never follows a link planted there
            flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
            lock = open_no_link(lock_path, flags, 0o644)
            mode = os.fstat(lock).st_mode
        except OSError as error:
            # a directory (Windows says "permission denied" of one); a socket
            if error.errno in (errno.EISDIR, errno.ENXIO) or (error.errno == errno.EACCES and lock_path.is_dir()):
                with contextlib.suppress(OSError):
                    raise InvalidInput(_not_a_lock(lock_path, kind_of(os.lstat(lock_path).st_mode))) from None
            raise InvalidInput(_cannot(self.folder, error, "use")) from None
        if not stat.S_ISREG(mode):  # a FIFO: the pid is never written and a second grader's read waits forever
            os.close(lock)
            raise InvalidInput(_not_a_lock(lock_path, kind_of(mode)))
        if not _lock(lock):
            holder = _holder(lock) or "unknown"
            os.close(lock)
            raise InvalidInput(
                f"{display_name(str(self.folder))} is being written by another knight grade (process "
                f"{display_name(holder)}); wait for it to "
                "finish, or give another --out"
            ) from None
        self._lock = lock
        try:  # who holds it, for the message of a second grader (and the lock itself where there is no other)
            os.ftruncate(lock, 0)
            os.lseek(lock, 0, os.SEEK_SET)
            os.write(lock, f"\n{os.getpid()}\n".encode())  # the pid from byte _PID_AT on
        except OSError:
            pass
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


def _lock(descriptor: int) -> bool:
    """Take the exclusive lock on the open lock file without waiting; False when it cannot be taken (another
    process holds it)."""
    import filelock

    try:
        return filelock.lock_descriptor(descriptor, blocking=False)
    except OSError as error:
        if error.errno != errno.ENOSYS:  # the system's lock failed (a file system without locks): not held
            return False
    # No file lock on this system (neither fcntl nor Windows'): the process id written there, while it lives.
    holder = _holder(descriptor)
    return not (holder.isdigit() and int(holder) != os.getpid() and _alive(int(holder)))


def _holder(descriptor: int) -> str:
    """The process id the lock file names (empty: none, or it cannot be read)."""
    try:
        os.lseek(descriptor, _PID_AT, os.SEEK_SET)
        return os.read(descriptor, 32).decode("ascii", "replace").strip()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (psutil: ``os.kill(pid, 0)`` would send Ctrl-C on Windows)."""
    import psutil

    try:
        return bool(psutil.pid_exists(pid))
    except (OverflowError, ValueError):
        return False


#: A temporary file of a write into OUT: ``.NAME.PID.XXXXXXXX.partial``, as :func:`knight.report.render.write_text`
#: names it (``tempfile.mkstemp``'s eight characters), NAME one of the files a grader writes.
_LEFTOVER = re.compile(r"\..+\.(?:html|pdf|csv|source)\.[0-9]+\.[a-z0-9_]{8}\.partial")


def remove_leftovers(folder: Path) -> list[str]:
    """Remove from ``folder`` the temporary files a killed grader left (their names are :data:`_LEFTOVER`'s);
    return their names. Only regular files of exactly that name go: a folder or a user's file that merely
    looks alike stays. Whatever process id a name carries, its writer is gone: the caller holds OUT's lock."""
    removed = []
    with os.scandir(folder) as scan:
        for item in scan:
            if not _LEFTOVER.fullmatch(item.name) or not item.is_file(follow_symlinks=False):
                continue
            with contextlib.suppress(FileNotFoundError):
                os.unlink(item.path)
                removed.append(item.name)
    return removed


def _not_a_lock(path: Path, what: str) -> str:
    return f"{display_name(str(path))} is {what}, not a lock file; remove it and grade again"


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
    return f"cannot {doing} {display_name(str(path))}: {cause}; {advice} (the files already written there are kept)"
