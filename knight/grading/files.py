"""A class's files on disk, read as untrusted: a hand-in or a rubric, and the entries of the class's folder.

A file is read by :func:`knight.files.read_regular` (never blocking, never more than asked, a link refused where
asked: see :mod:`knight.files`); a folder's entries are looked at with ``lstat`` before anything is opened, a
link is followed only to a regular file inside the folder, and a file of the folder is opened from the folder one
name at a time, none of them a link (so that what was listed inside cannot be swapped for a way out). Every
refusal is an :class:`~knight.errors.Unreadable` whose message says why and what to do, or, for an entry of a
folder, the reason it is skipped (its gradebook row says it).
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from knight.errors import Unreadable
from knight.files import display_name, kind_of, open_no_link, read_regular

__all__ = ["Entry", "read_regular", "entries", "display_name", "kind_of", "open_no_link", "text_by_bom"]

# The byte-order marks, longest first: UTF-32's little-endian mark begins with UTF-16's.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def text_by_bom(data: bytes) -> str | None:
    """``data`` decoded as its byte-order mark says (Notepad's "Unicode" is UTF-16 with one), the mark left
    out; None when it has none. Text the mark's encoding cannot decode is refused."""
    for mark, encoding in _BOMS:
        if data.startswith(mark):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                name = encoding.removesuffix("-sig").upper()
                raise Unreadable(
                    f"the file starts as {name} text (its byte-order mark) but is not {name}; save it as plain text"
                ) from None
    return None


@dataclass(frozen=True)
class Entry:
    """One entry of a class's folder: its shown name, the path to read, why it is skipped (empty: grade it), and
    the folder's real path, to read ``path`` from without following a link (``read_regular(within=...)``)."""

    name: str
    path: Path
    skipped: str = ""
    folder: Path | None = None


def entries(directory: Path, *, exclude: Path | None = None) -> list[Entry]:
    """Every entry directly in ``directory`` by name, hidden ones (a leading dot) and ``exclude`` left out.

    A regular file is to be graded, and so is a link to a regular file inside the folder (read through the
    path it resolves to); anything else is skipped with the reason: a sub-directory, a FIFO, a socket, a
    device, a link to nothing, a link loop, a link out of the folder or to the folder itself."""
    root = os.path.realpath(directory)
    excluded = _identity(exclude) if exclude is not None else None
    with os.scandir(directory) as scan:
        found = sorted(scan, key=lambda item: item.name)
    listed: list[Entry] = []
    for item in found:
        if item.name.startswith("."):
            continue
        path = Path(root, item.name)
        shown = display_name(item.name)
        try:
            info = os.lstat(path)
        except OSError as error:  # removed while the folder was read
            listed.append(Entry(shown, path, f"cannot be looked at: {error.strerror or error}"))
            continue
        if excluded is not None and (info.st_dev, info.st_ino) == excluded:
            continue
        if stat.S_ISLNK(info.st_mode):
            listed.append(_link(shown, path, root))
        elif stat.S_ISREG(info.st_mode):
            listed.append(Entry(shown, path, folder=Path(root)))
        elif stat.S_ISDIR(info.st_mode):
            listed.append(Entry(shown, path, "a sub-directory (only files directly in the folder are graded)"))
        else:
            listed.append(Entry(shown, path, f"{kind_of(info.st_mode)}, not a regular file"))
    return listed


def _link(shown: str, path: Path, root: str) -> Entry:
    """A link in the folder: graded when it leads to a regular file inside the folder, else skipped."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        if error.errno == errno.ELOOP:
            return Entry(shown, path, "a link loop (links that lead to each other, never to a file), not graded")
        return Entry(shown, path, "a link to nothing (dangling)")
    target = os.path.realpath(path)
    common = os.path.commonpath([root, target])
    if target == root:
        return Entry(shown, path, "a link to the class's folder itself (such as .), not graded")
    if common == target:
        return Entry(shown, path, "a link to a folder that holds the class's folder (such as ..), not graded")
    if common != root:
        what = "a file" if stat.S_ISREG(mode) else "a directory" if stat.S_ISDIR(mode) else kind_of(mode)
        return Entry(shown, path, f"a link to {what} outside the folder, not graded")
    if not stat.S_ISREG(mode):
        return Entry(shown, path, f"a link to {kind_of(mode)}, not a regular file")
    return Entry(shown, Path(target), folder=Path(root))


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino
