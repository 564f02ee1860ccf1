"""Every error knight raises on purpose, in one tree a caller can catch: :class:`KnightError`.

Each message is one line that says what was wrong and what to do about it; the command line
prints it after ``knight: error:`` and exits with the error's :attr:`~KnightError.exit_status`
(2 for all of them: bad input, a store it cannot use, a report it cannot write).

::

    KnightError
    ├── InvalidInput            a bad board, square, method, parameter or option (also a ValueError)
    │   ├── InvalidTour         squares that are not a knight's path
    │   ├── JobError            a job file that cannot be run
    │   └── Unreadable          a submitted tour that cannot be read
    ├── StoreError              the results store cannot be used
    │   ├── StoreVersionError   written by another version of knight
    │   ├── MissingData         lacks the results asked for (also a LookupError)
    │   └── PathNotKept         a tour stored without its path (also a LookupError)
    ├── RenderError             a report edition could not be written
    └── MissingExtra            needs a package of an extra that is not installed (also an ImportError)

This module imports nothing, so that every layer, the engine included, may raise these.

>>> from knight import Board, KnightError
>>> try:
...     Board(0, 8)
... except KnightError as error:
...     print(type(error).__name__)
InvalidInput
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "KnightError",
    "InvalidInput",
    "InvalidTour",
    "JobError",
    "Unreadable",
    "StoreError",
    "StoreVersionError",
    "MissingData",
    "PathNotKept",
    "RenderError",
    "MissingExtra",
]


class KnightError(Exception):
    """The root of every error knight raises on purpose; its message says what to do."""

    #: The command line's exit status for this error (see :mod:`knight.cli`).
    exit_status = 2


class InvalidInput(KnightError, ValueError):
    """A request that cannot be carried out: a bad board, square, method, parameter or option.

    The message is one line that says what was wrong and what would be valid.
    """


class InvalidTour(InvalidInput):
    """A sequence of squares that is not a knight's path: off the board, repeated, or not a knight move."""


class JobError(InvalidInput):
    """A job file that cannot be run: the message names the file, the key and what would be valid."""


class Unreadable(InvalidInput):
    """A submitted tour that cannot be read: the message says why and what would fix it."""


class StoreError(KnightError):
    """The results store cannot be used as asked."""


class StoreVersionError(StoreError):
    """A store written by another version of knight that this one cannot migrate (a newer one, one too old, or an
    older one on read-only media): it is a cache, so it is refused."""

    def __init__(self, path: str | Path, version: int, expected: int) -> None:
        super().__init__(
            f"the store {path} has format version {version}, this knight writes version "
            f"{expected}; delete it (its results are rebuilt by the next run) or give another "
            "path with --store"
        )


class MissingData(StoreError, LookupError):
    """The store lacks the results asked for; the message says which job to run."""


class PathNotKept(StoreError, LookupError):
    """The tour is stored, but not its path (its board has too many squares for paths to be kept)."""


class RenderError(KnightError):
    """A report edition could not be written."""


class MissingExtra(KnightError, ImportError):
    """A command needs a package that only an extra of the distribution installs (``report``, ``dask``), and it
    is not installed: the message names the package and the pip command that installs it. Raised where the
    package is imported, from the ImportError."""

    def __init__(self, package: str, extra: str, needed_for: str) -> None:
        super().__init__(
            f"{package} is not installed (needed for {needed_for}): pip install 'knights-tour-lab[{extra}]'"
        )
        self.package, self.extra = package, extra
