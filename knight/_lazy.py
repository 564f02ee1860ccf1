"""Names a package loads on first use (PEP 562), so that importing it costs nothing until one is asked for.

>>> import knight.store
>>> "Store" in vars(knight.store)  # not yet loaded
False
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_names"]


# namespace: a module's globals(), which hold anything
def lazy_names(namespace: dict[str, Any], homes: dict[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of the package whose globals are ``namespace``: each name of ``homes`` is
    imported from the module given there on first use, then kept in ``namespace``."""

    def __getattr__(name: str) -> Any:
        if name not in homes:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(homes[name]), name)
        namespace[name] = value
        return value

    return __getattr__
