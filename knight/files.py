"""Regular files read as untrusted input: never blocking, never streaming for ever, never more than asked.

A file is opened without blocking (``O_NONBLOCK``: a FIFO with no writer opens at once) and refused unless
``fstat`` says it is a regular file; at most ``limit + 1`` bytes are read, so the caller can tell a file that is
too large (:func:`read_regular`). A link can be refused (:func:`open_no_link`), and a file inside a folder
opened from the folder one name at a time, none of them a link. Every refusal is an
:class:`~knight.errors.Unreadable` whose message says why and what to do; the caller adds the file's role (a
hand-in, a job file). Used by the grader (a class's hand-ins and rubric), the runner (job files) and the report
(the course file).

Portable: where the system has no ``O_NOFOLLOW``, ``O_DIRECTORY`` or ``openat`` (Windows), a link is refused
by looking before the open (``lstat``) and after it (the file opened is the one the name holds, and the name is
not a link): :func:`open_no_link`; a folder on the way to a file is looked at the same way, one name at a time.
Windows has no FIFOs or sockets among files, so no ``O_NONBLOCK`` is needed there.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from knight.errors import Unreadable

__all__ = ["display_name", "kind_of", "open_no_link", "read_regular"]

_KINDS = (
    (stat.S_ISDIR, "a sub-directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words: 'a regular file', 'a FIFO (named pipe)', ..."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def read_regular(path: Path | str, limit: int, *, follow: bool = True, within: Path | str | None = None) -> bytes:
    """At most ``limit + 1`` bytes of the regular file ``path`` (more than ``limit``: the file is too large).

    A directory, a FIFO, a socket or a device is refused without reading (and without waiting for a
    writer); with ``follow=False`` so is a link (the caller resolved it already). With ``within`` (a folder's
    real path, ``path`` inside it) no link is followed on the way from the folder to the file either: a
    sub-directory swapped for a link after the folder was listed cannot lead the read out of it."""
    flags = os.O_RDONLY | _NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        if within is not None:
            descriptor = _open_within(Path(path), Path(within), flags)
        else:
            descriptor = os.open(path, flags) if follow else open_no_link(path, flags)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR) and (not follow or within is not None):
            raise Unreadable(
                "the file, or a folder on the way to it, was replaced by a link while it was read; grade it again"
            ) from None
        if error.errno == errno.ENXIO:  # a socket, or a FIFO some systems refuse to open without blocking
            raise Unreadable("not a regular file; give a text file") from None
        raise Unreadable(
            f"cannot open {display_name(os.fspath(path))}: {error.strerror or error}; check the path and its permissions"
        ) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise Unreadable("a directory, not a file; give a file")
        if not stat.S_ISREG(mode):
            raise Unreadable(f"{kind_of(mode)}, not a regular file; give a text file")
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError as error:
        raise Unreadable(
            f"cannot read {display_name(os.fspath(path))}: {error.strerror or error}; check the file and the disk"
        ) from None
    finally:
        os.close(descriptor)


#: Opening without waiting for a FIFO's writer (POSIX); Windows has no FIFOs among files, and no such flag.
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
#: Opening a name that is a link fails (ELOOP), where the system has the flag (not Windows: see open_no_link).
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
#: Opening a name that is not a folder fails (ENOTDIR), where the system has the flag.
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
#: Whether a folder can be opened and a name opened relative to it, never through a link (``openat``).
_OPENAT = bool(_NOFOLLOW and _DIRECTORY) and os.open in os.supports_dir_fd


def open_no_link(path: Path | str, flags: int, mode: int = 0o777) -> int:
    """``os.open(path, flags, mode)``, refusing a link at ``path`` itself with ``OSError(ELOOP)``: by
    ``O_NOFOLLOW`` where the system has it; elsewhere (Windows) by ``lstat`` before the open and after it, the
    name neither a link nor another file than the one opened (a link swapped in meanwhile is refused too)."""
    if _NOFOLLOW:
        return os.open(path, flags | _NOFOLLOW, mode)
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            raise OSError(errno.ELOOP, "a symbolic link, not followed", os.fspath(path))
    except FileNotFoundError:
        pass
    descriptor = os.open(path, flags, mode)
    try:
        opened, named = os.fstat(descriptor), os.lstat(path)
        if stat.S_ISLNK(named.st_mode) or (opened.st_dev, opened.st_ino) != (named.st_dev, named.st_ino):
            raise OSError(errno.ELOOP, "replaced by a symbolic link while it was opened", os.fspath(path))
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


#: How a folder on the way to a file is opened: as a folder only (a link there fails, ENOTDIR), not for reading.
_FOLDER = _DIRECTORY | _NOFOLLOW | getattr(os, "O_PATH", os.O_RDONLY) | getattr(os, "O_CLOEXEC", 0)


def _open_within(path: Path, root: Path, flags: int) -> int:
    """``path`` opened from the folder ``root`` one component at a time, each relative to the last (``openat``);
    without ``openat`` (Windows), each folder on the way looked at first, and a link among them refused."""
    parts = Path(os.path.relpath(path, root)).parts
    if not parts or parts[0] in (os.curdir, os.pardir):
        raise Unreadable(f"{display_name(os.fspath(path))} is not in the class's folder; it is not graded")
    if not _OPENAT:
        folder_path = root
        for part in parts[:-1]:
            folder_path = folder_path / part
            if not stat.S_ISDIR(os.lstat(folder_path).st_mode):  # a link (or a file) where a folder was listed
                raise OSError(errno.ENOTDIR, "not a folder", os.fspath(folder_path))
        return open_no_link(folder_path / parts[-1], flags)
    folder = os.open(root, _FOLDER & ~_NOFOLLOW)  # the folder itself was named by the grader
    try:
        for part in parts[:-1]:
            inner = os.open(part, _FOLDER, dir_fd=folder)
            os.close(folder)
            folder = inner
        return os.open(parts[-1], flags, dir_fd=folder)
    finally:
        os.close(folder)


def display_name(name: str) -> str:
    """A file name as it can be shown and written anywhere: bytes that are not UTF-8 as ``\\xNN``, control
    characters escaped (a newline in a name would break a line of the gradebook)."""
    text = os.fsencode(name).decode("utf-8", "backslashreplace")
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
