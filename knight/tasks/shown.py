"""How ``knight results`` shows a kind's results, and how a kind reads them back: what every kind shares.

A kind that a job file names shows its results as one :class:`Shown` table: its title, its columns (a short name
and a heading each), its rows as the terminal shows them, and the same rows for ``--json`` and ``--csv``. A built-in
kind reads its own records from the store (its SQL in its own module) through a :class:`Reader` and makes its
table itself (:meth:`Shower.results`); a kind that reads back only its outcomes (``read`` and ``shown``) gets the
generic :func:`shower`, which reads its done tasks with :func:`kind_outcomes`. The cells' text helpers below are
the ones the built-in kinds' tables share.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from knight.engine.board import Square
from knight.engine.parameters import ParamValue

__all__ = [
    "Cell",
    "Facts",
    "Reader",
    "Shower",
    "Shown",
    "format_params",
    "job_names",
    "kind_outcomes",
    "shower",
    "squares_text",
    "text",
    "words",
]

#: A cell of a kind's table in ``knight results``: text or a number (None: nothing to show).
Cell = str | int | float | None


@dataclass(frozen=True)
class Shown:
    """How ``knight results`` shows a kind's outcomes: a table's title, headings and rows, and the same rows for
    ``--json`` (under :attr:`key`, each row by its headings unless :attr:`json` gives them).

    A built-in kind says more: its columns' short names (:attr:`names`; the headings by default), its text columns
    (:attr:`text`; by default those with a text cell), the columns a narrow terminal leaves out first
    (:attr:`dropped`), its rows for ``--csv`` (:attr:`csv`), and whether it counts tours (:attr:`counts`: shown by
    ``knight results --census``)."""

    title: str
    headings: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    key: str = ""
    names: tuple[str, ...] = ()
    text: tuple[str, ...] | None = None
    dropped: tuple[str, ...] = ()
    json: tuple[Mapping[str, object], ...] | None = None  # each row as its kind writes it (a TypedDict)
    csv: tuple[tuple[Cell, ...], ...] | None = None
    counts: bool = False

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns' short names."""
        return self.names or self.headings

    @property
    def json_key(self) -> str:
        return self.key or self.title

    def to_json(self) -> list[Mapping[str, object]]:
        if self.json is not None:
            return list(self.json)
        return [dict(zip(self.headings, row)) for row in self.rows]

    def csv_rows(self) -> list[dict[str, Cell]]:
        """The rows for ``--csv``, each by its columns' short names."""
        return [dict(zip(self.columns, row)) for row in (self.rows if self.csv is None else self.csv)]


class Facts(Protocol):
    """What is known of a store while its files are unchanged (:class:`knight.store.known.KnownFacts`)."""

    def get(self, fact: str) -> Any: ...

    def note(self, **facts: Any) -> None: ...


class Reader(Protocol):
    """The store as a kind reads its results back (:class:`knight.store.Store`, opened read-only will do)."""

    db: sqlite3.Connection

    def facts(self) -> Facts: ...

    def stored_kinds(self) -> list[str]: ...


class Shower(Protocol):
    """How a kind's results are shown: its table of ``job``'s results (every job's for None), read from ``reader``;
    with ``counts_only`` (``knight results --census``), a kind that counts no tours shows no rows; None: no table."""

    def results(self, reader: Reader, job: str | None, counts_only: bool) -> Shown | None: ...


class _OwnOutcomes:
    """The table of a kind that reads back only its outcomes (``read``) and shows them itself (``shown``): its done
    tasks, when it has some, and never with ``counts_only``."""

    def __init__(self, kind: Any) -> None:  # a SweepKind with read and shown
        self.kind = kind

    def results(self, reader: Reader, job: str | None, counts_only: bool) -> Shown | None:
        done = [] if counts_only else kind_outcomes(reader.db, self.kind, job)
        return self.kind.shown(done) if done else None  # type: ignore[no-any-return]


def shower(kind: Any) -> Shower:  # a SweepKind
    """How ``kind``'s results are shown: its own :class:`Shower` (``results``), or the generic one."""
    return kind if hasattr(kind, "results") else _OwnOutcomes(kind)


def kind_outcomes(db: sqlite3.Connection, kind: Any, job: str | None = None) -> list[tuple[Any, Any]]:
    """The done tasks of a kind (of ``job``, or of every job), each with its outcome as the kind reads it back
    (``read``), in board and start order; none when the store has no table of that kind yet."""
    from knight.tasks.task import Task

    present = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if kind.table not in present:
        return []
    columns = ", ".join(f"o.{column.split()[0]}" for column in kind.columns)
    rows = db.execute(
        f"SELECT t.method, t.params, t.n, t.m, t.start_row, t.start_col, {columns} FROM {kind.table} o "
        "JOIN tasks t ON t.key = o.task_key JOIN results r ON r.task_key = o.task_key AND r.status = 'done' "
        "WHERE t.method = ? AND (? IS NULL OR EXISTS (SELECT 1 FROM job_tasks j WHERE j.task_key = t.key AND j.job = ?)) "
        "ORDER BY t.n, t.m, t.start_row, t.start_col, t.key",
        (kind.name, job, job),
    )
    done = []
    for method, params, n, m, row, col, *values in rows:
        task = Task(method, tuple(sorted(json.loads(params).items())), n, m, (row, col))
        done.append((task, kind.read(tuple(values))))
    return done


def job_names(names: str | None) -> tuple[str, ...]:
    """The jobs that ask for a task, from SQLite's ``group_concat``."""
    return tuple(sorted((names or "").split(",")))


def text(value: Cell) -> str:
    """A cell as table text: numbers with thousands separators, None as ``-``."""
    if value is None:
        return "-"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def words(names: Sequence[str]) -> str:
    return " ".join(names) or "-"


def squares_text(squares: Sequence[Square]) -> str:
    """Squares as ``row,col`` separated by spaces (``-`` for none)."""
    return " ".join(f"{row},{col}" for row, col in squares) or "-"


def format_params(params: Mapping[str, ParamValue], *, grouped: bool = True) -> str:
    """Parameters as ``name=value`` pairs, e.g. ``tie=random, seeds=5``; numbers with thousands separators
    unless not ``grouped`` (CSV)."""
    return (
        ", ".join(
            f"{name}={value:,}"
            if grouped and isinstance(value, int) and not isinstance(value, bool)
            else f"{name}={json.dumps(value) if isinstance(value, bool) else value}"
            for name, value in params.items()
        )
        or "-"
    )
