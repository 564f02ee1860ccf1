"""Where the results store is: the default file and the environment variable that names another.

The default depends on where knight runs. In a clone of knight (the current directory or one above it holds
knight's ``pyproject.toml``) the store is the clone's ``var/knight.sqlite``, git-ignored, beside the jobs it
answers (``make clean`` keeps it; ``make distclean`` removes it). Anywhere else (an installed knight run in
any folder) it is ``knight.sqlite`` in the user's data folder (``platformdirs.user_data_path("knight")``:
``~/.local/share/knight`` on Linux, honouring ``XDG_DATA_HOME``), never a ``var/`` left in whatever folder
the command ran in.

Light on purpose (no engine, no SQLite): the command line reads it to describe its options.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = [
    "DEFAULT_STORE",
    "STORE_VARIABLE",
    "STORE_FILE",
    "STORE_PLACES",
    "clone_root",
    "default_store",
    "user_data_folder",
    "store_path",
]

#: The store of a clone, relative to the clone's top folder.
DEFAULT_STORE = Path("var/knight.sqlite")
#: The store's file name in the user's data folder (outside a clone).
STORE_FILE = "knight.sqlite"
STORE_VARIABLE = "KNIGHT_STORE"
#: Where the store is, in words (the command line's help says it).
STORE_PLACES = (
    f"${STORE_VARIABLE} or --store when given; else {DEFAULT_STORE} in a clone of knight; else {STORE_FILE} in the "
    "user's data folder (~/.local/share/knight on Linux)"
)

#: How a clone's ``pyproject.toml`` names the project (its ``[project]`` table's ``name``).
_OUR_NAME = re.compile(r'^name\s*=\s*"knights-tour-lab"\s*$', re.MULTILINE)


def clone_root(start: Path | None = None) -> Path | None:
    """The top folder of the clone of knight that ``start`` (the current directory) is in, or None: the nearest
    folder at or above it whose ``pyproject.toml`` names knight's distribution."""
    here = (start or Path.cwd()).absolute()
    for folder in (here, *here.parents):
        try:
            text = (folder / "pyproject.toml").read_text(encoding="utf-8", errors="replace")
        except OSError:  # none here (or unreadable): look further up
            continue
        if _OUR_NAME.search(text):
            return folder
    return None


def default_store(start: Path | None = None) -> Path:
    """The store when none is named: ``var/knight.sqlite`` of the clone ``start`` (the current directory) is in
    (relative when it is the clone's top folder), else ``knight.sqlite`` in the user's data folder."""
    here = (start or Path.cwd()).absolute()
    root = clone_root(here)
    if root is not None:
        return DEFAULT_STORE if root == here and start is None else root / DEFAULT_STORE
    return user_data_folder() / STORE_FILE


def user_data_folder() -> Path:
    """knight's folder in the user's data folder (``~/.local/share/knight`` on Linux, ``XDG_DATA_HOME`` honoured)."""
    from platformdirs import user_data_path  # lazily: a named store needs none of it

    return user_data_path("knight", appauthor=False)


def store_path(given: str | Path | None = None) -> Path:
    """The store to use: ``given``, else ``$KNIGHT_STORE``, else :func:`default_store`."""
    named = given or os.environ.get(STORE_VARIABLE)
    return Path(named) if named else default_store()
