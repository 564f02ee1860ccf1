"""Where the results store is: the default file and the environment variable that names another.

Light on purpose (no engine, no SQLite): the command line reads it to describe its options.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DEFAULT_STORE", "STORE_VARIABLE", "store_path"]

DEFAULT_STORE = Path("var/knight.sqlite")
STORE_VARIABLE = "KNIGHT_STORE"


def store_path(given: str | Path | None = None) -> Path:
    """The store to use: ``given``, else ``$KNIGHT_STORE``, else :data:`DEFAULT_STORE`."""
    return Path(given or os.environ.get(STORE_VARIABLE) or DEFAULT_STORE)
