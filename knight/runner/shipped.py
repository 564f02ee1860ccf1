"""The job files shipped with knight: package data (``knight/jobs/`` in a built package, copied there from the
checkout's ``jobs/`` by setup.py), or in a checkout (an editable install) its ``jobs/`` folder itself.

An installed knight has no checkout around it, so ``knight run homework-8`` (or ``jobs/homework-8.toml``
where no such file exists) finds the job in the installed package, through :mod:`importlib.resources`.
A file that exists is always used as it is.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

__all__ = ["job_file", "shipped_jobs"]


def _folder() -> Path:
    """Where the shipped job files are: a folder of the installed package, else the checkout's ``jobs/``."""
    packaged = Path(str(importlib.resources.files("knight") / "jobs"))
    return packaged if packaged.is_dir() else Path(__file__).resolve().parents[2] / "jobs"


def shipped_jobs() -> list[str]:
    """The names of the job files shipped with knight, heavy studies as ``full/<name>``.

    >>> "homework-8" in shipped_jobs() and "full/board-sizes-1000" in shipped_jobs()
    True
    """
    folder = _folder()
    return sorted(path.relative_to(folder).with_suffix("").as_posix() for path in folder.rglob("*.toml"))


def job_file(path: str | Path) -> Path:
    """``path`` when it exists; otherwise, when it names a shipped job (``homework-8``,
    ``homework-8.toml``, ``jobs/homework-8.toml``, ``full/board-sizes-1000``), that job's file; otherwise
    ``path`` unchanged (reading it then says there is no such file)."""
    given = Path(path)
    if given.exists() or given.is_absolute():
        return given
    name = given.as_posix().removeprefix("jobs/").removesuffix(".toml")
    return _folder() / f"{name}.toml" if name in shipped_jobs() else given
