"""Does each stored task still say what its key says? A task's key is a digest of its definition (method,
parameters, board, start: :class:`knight.tasks.Task`), so a row edited by hand, or cut by a disk error, no longer
matches it; its ``group_params`` are derived from its parameters, and must match them too.

The parameters are JSON read back from the file: their nesting is bounded before they are parsed (a hand edit
of ``[[[[…`` a hundred thousand deep would otherwise blow Python's stack), and each distinct text is parsed once
(a sweep has few parameter sets), so that checking every task costs a few microseconds each.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from knight.tasks import Task

__all__ = ["MAX_DEPTH", "too_deep", "wrong_definitions"]

#: The deepest nesting of a task's parameters that is read (a census unit's removed squares nest 3 deep).
MAX_DEPTH = 32

_Parameters = tuple[tuple[str, Any], ...]


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON ``text`` nests arrays and objects more than ``limit`` deep: one pass over it, stopped at
    the first bracket past the limit (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= limit:  # the usual case, decided without a loop in Python
        return False
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def wrong_definitions(db: sqlite3.Connection) -> Iterator[tuple[str, str, int, int, int, int]]:
    """The tasks whose definition does not give their key, or whose ``group_params`` are not their parameters':
    (key, method, n, m, start row, start column) of each."""
    parsed: dict[tuple[str, str], _Parameters | None] = {}  # (params, group_params) -> the parameters, if sound
    rows = db.execute("SELECT key, method, params, group_params, n, m, start_row, start_col FROM tasks")
    for key, method, params, group, n, m, row, col in rows:
        texts = (params, group)
        if texts not in parsed:
            parsed[texts] = _parameters(params, group)
        parameters = parsed[texts]
        try:
            wrong = parameters is None or Task(method, parameters, n, m, (row, col)).key != key
        except (ValueError, TypeError, AttributeError, OverflowError):
            wrong = True
        if wrong:
            yield key, method, n, m, row, col


def _parameters(params: Any, group: Any) -> _Parameters | None:
    """A task's parameters as :class:`Task` holds them, from its row's JSON; None when they cannot be read, nest
    too deep, or do not give its ``group_params``."""
    if not isinstance(params, str) or not isinstance(group, str) or too_deep(params) or too_deep(group):
        return None
    try:
        loaded = json.loads(params)
        if not isinstance(loaded, dict):
            return None
        parameters = tuple(sorted((name, _frozen(value)) for name, value in loaded.items()))
        derived = Task("", parameters, 1, 1, (0, 0)).group_params  # the parameters alone decide them
        return parameters if json.loads(group) == json.loads(json.dumps(derived)) else None
    except (ValueError, TypeError, AttributeError, OverflowError):
        return None


def _frozen(value: Any) -> Any:
    """JSON lists as tuples, as a task holds its parameters."""
    return tuple(_frozen(item) for item in value) if isinstance(value, list) else value
