"""What a kind of work is, and the registry that names every kind: the one place the runner, the store and the
command line look a task's method up.

A :class:`Kind` owns its result type (a frozen dataclass of its own fields), how a worker makes one from a task
(:meth:`~Kind.run`), what makes one complete (:meth:`~Kind.problem`), and its table in the store (:attr:`~Kind.table`,
its columns, :meth:`~Kind.row` and :meth:`~Kind.read`). A kind that a job file may name by itself is a
:class:`SweepKind`: it also expands a sweep into tasks and says how ``knight results`` shows its outcomes.

The built-in kinds are the tour (every method of :data:`knight.engine.METHODS`), the census unit, the frontier count
and the tree-size estimate, each with a model of its own params and its expansion into tasks
(:class:`~knight.tasks.sweep.Expander`); a kind of one's own may list its tasks from its params as written
(:meth:`SweepKind.tasks`) instead. Another kind is one module that calls :func:`register` with its
:class:`SweepKind`; ``KNIGHT_KINDS`` (module names, comma-separated) imports such modules when the registry is first
read, so that ``knight run`` finds them.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from knight.errors import InvalidInput
from knight.tasks.shown import Shown

if TYPE_CHECKING:
    from knight.engine import Board
    from knight.engine.board import Square
    from knight.tasks.task import Task

__all__ = [
    "BUILT_IN",
    "PLUGINS_VARIABLE",
    "Kind",
    "Shown",
    "SweepKind",
    "kind_of",
    "kinds",
    "register",
    "sweep_kinds",
    "sweep_methods",
]

#: The names of the built-in kinds, which the job file's and ``knight results``' own code serves.
BUILT_IN = ("tour", "census", "frontier", "estimate")

#: Modules to import for the kinds they register (comma-separated module names).
PLUGINS_VARIABLE = "KNIGHT_KINDS"


class Kind(Protocol):
    """One kind of work: what a worker computes for a task, and how the store keeps it."""

    #: The method name tasks of this kind carry (a tour task's is its engine method's: see :func:`kind_of`).
    name: str
    #: The store's table of its outcomes, one row per done task, keyed by ``task_key``.
    table: str
    #: That table's columns after ``task_key``, in order, each with its SQL type and constraints
    #: (``"tours INTEGER NOT NULL"``); their values are checksummed (:mod:`knight.store.integrity`).
    columns: tuple[str, ...]
    #: True when a done outcome is sealed from its stored row (its floats read back), not where it was made.
    sealed_when_stored: bool
    #: True when a long task of this kind keeps where it stands in :attr:`Task.checkpoints
    #: <knight.tasks.Task.checkpoints>` and a task run again goes on from there.
    checkpoints: bool

    def run(self, task: Task) -> Any:
        """The task's outcome, computed with the engine; an error it raises fails the task."""
        ...

    def problem(self, outcome: Any, task: TaskShape) -> str:
        """What the outcome lacks to be stored ('' when complete): cheap, checked by the store itself."""
        ...

    def row(self, outcome: Any) -> tuple[Any, ...]:
        """The values of :attr:`columns`, as SQLite gives them back (a bool an int, a time a float)."""
        ...

    def derived(self, key: str, outcome: Any) -> list[tuple[str, tuple[Any, ...]]]:
        """Rows of other tables derived from the outcome (``(table, row)``, written over any older one); most
        kinds have none."""
        ...

    def warm(self) -> None:
        """Load (or compile) the kernels its tasks use, on a small case: before a timed task, or a fork."""
        ...

    def describe(self, task: Task) -> str:
        """A short label for a task of this kind (``frontier 6x6 open``)."""
        ...


class TaskShape(Protocol):
    """The board of a result (its task's): what a completeness check may need of it."""

    @property
    def n(self) -> int: ...

    @property
    def m(self) -> int: ...


class SweepKind(Kind, Protocol):
    """A kind a job file may name (``method = "NAME"``) with its own parameters, and that ``knight results`` shows.

    Its sweep is either listed by :meth:`tasks` from its params table as written, or, for a kind with a params model
    of its own (the built-in four), checked and expanded by its ``sweep_model`` and ``sweep``
    (:class:`~knight.tasks.sweep.Expander`): :func:`knight.tasks.sweep.expander` gives the one the job file uses.
    """

    def tasks(self, starts: Mapping[Board, list[Square]], params: Mapping[str, Any]) -> Iterable[Task]:
        """The sweep's tasks: ``starts`` each board of the sweep with its start squares, ``params`` its params
        table as written; raise :class:`~knight.errors.InvalidInput` (one line) for parameters it refuses.
        (Not needed by a kind with ``sweep_model`` and ``sweep``.)"""
        ...

    def read(self, row: tuple[Any, ...]) -> Any:
        """The outcome stored as ``row`` (the values of :attr:`columns`). (Not needed by a kind with ``results``.)"""
        ...

    def shown(self, done: list[tuple[Task, Any]]) -> Shown:
        """Its done tasks and their outcomes, as ``knight results`` shows them. A kind that reads its records
        back itself (the built-in four) has ``results`` instead (:class:`~knight.tasks.shown.Shower`):
        :func:`knight.tasks.shown.shower` gives the one ``knight results`` uses."""
        ...


_KINDS: dict[str, Kind] = {}
_plugins_loaded = False


#: What every kind has (:class:`Kind`), and what a kind a job file names has too (:class:`SweepKind`).
_MEMBERS: tuple[str, ...] = ("name", "table", "columns", "sealed_when_stored", "checkpoints", "run", "problem")
_MEMBERS += ("row", "derived", "warm", "describe")
_SWEEP_MEMBERS = ("tasks", "read", "shown", "results")
#: A sweep kind's own expansion (knight.tasks.sweep.Expander), in place of ``tasks``.
_EXPANDER = ("sweep_model", "sweep")


def register(kind: Kind) -> Kind:
    """Add ``kind`` to the registry under its name (once; a second kind of that name is refused); returns it.
    A kind that lacks a member of :class:`Kind` (or, with any of ``tasks``, ``read`` and ``shown``, of
    :class:`SweepKind`), or whose table is no plain name, is refused in one line."""
    wanted = _MEMBERS + (_sweep_members(kind) if any(hasattr(kind, name) for name in _SWEEP_MEMBERS) else ())
    missing = [name for name in wanted if not hasattr(kind, name)]
    label = getattr(kind, "name", type(kind).__name__)
    if missing:
        raise InvalidInput(f"kind {label!r} lacks {', '.join(missing)}: give it every member of knight.tasks.Kind")
    if kind.name != "tour":
        from knight.engine import METHODS

        if kind.name in METHODS:
            raise InvalidInput(f"kind {label!r}: the name of a tour method; give the kind a name of its own")
    _check_table(label, kind.table, kind.columns)
    known = _KINDS.get(kind.name)
    if known is not None and known is not kind:
        raise InvalidInput(f"two kinds of work are named {kind.name!r}: rename one")
    if any(other.table == kind.table for other in _KINDS.values() if other is not kind):
        raise InvalidInput(f"kind {kind.name!r}: table {kind.table!r} is another kind's; give it a table of its own")
    _KINDS[kind.name] = kind
    return kind


def _check_table(label: str, table: str, columns: tuple[str, ...]) -> None:
    """Refuse a kind whose table and columns SQLite would not take as written (a keyword for a name, a reserved
    or odd name, a bad declaration), by making the table in an empty database: one line, not a store's error."""
    names = [str(column).split()[0] if str(column).split() else "" for column in columns]
    if not str(table).isidentifier() or not all(name.isidentifier() for name in names) or "task_key" in names:
        raise InvalidInput(
            f"kind {label!r}: its table {table!r} and columns {names} must be plain names (letters, digits, _), "
            "task_key not among them"
        )
    try:
        sqlite3.connect(":memory:").execute(f"CREATE TABLE {table} (task_key TEXT PRIMARY KEY, {', '.join(columns)})")
    except sqlite3.Error as error:
        raise InvalidInput(
            f"kind {label!r}: SQLite refuses its table {table} ({error}); rename it or its columns"
        ) from None


def kinds() -> list[Kind]:
    """Every registered kind, the built-in ones first, in the order they were registered."""
    _load()
    return list(_KINDS.values())


def kind_of(method: str) -> Kind:
    """The kind of the tasks of ``method``: a registered kind's name, or any tour method of the engine."""
    _load()
    found = _KINDS.get(method)
    if found is not None:
        return found
    from knight.engine import METHODS

    if method in METHODS:
        return _KINDS["tour"]
    raise InvalidInput(f"no kind of work is named {method!r}; known: {', '.join(sorted([*_KINDS, *METHODS]))}")


def _sweep_members(kind: object) -> tuple[str, ...]:
    """The members a sweep kind needs: ``tasks`` or its own expander's, and ``read`` and ``shown`` or its own
    ``results``."""
    listed = _EXPANDER if any(hasattr(kind, name) for name in _EXPANDER) else ("tasks",)
    return (*listed, *(("results",) if hasattr(kind, "results") else ("read", "shown")))


def sweep_kinds() -> Iterable[SweepKind]:
    """The registered kinds a job file may name, each with its parameters, and that ``knight results`` shows."""
    return [kind for kind in kinds() if all(hasattr(kind, name) for name in _sweep_members(kind))]  # type: ignore[misc]


def _listed(kind: object) -> bool:
    """True for a kind a job file may name: it lists its tasks, or expands its sweep itself."""
    return hasattr(kind, "tasks") or all(hasattr(kind, name) for name in _EXPANDER)


def sweep_methods() -> tuple[str, ...]:
    """Every method a sweep may name: the engine's tour methods, then every other sweep kind's name (sorted)."""
    from knight.engine import METHODS

    others = sorted(kind.name for kind in kinds() if kind.name != "tour" and _listed(kind))
    return (*METHODS, *others)


def _load() -> None:
    """Register the built-in kinds, then import the modules ``KNIGHT_KINDS`` names (once)."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    from knight.tasks import census, estimate, frontier, tour

    for module in (tour, census, frontier, estimate):
        register(module.KIND)
    for name in filter(None, (part.strip() for part in os.environ.get(PLUGINS_VARIABLE, "").split(","))):
        try:
            importlib.import_module(name)
        except InvalidInput:
            raise
        except Exception as error:  # noqa: BLE001 - a kind's module is the user's code: any error, in one line
            raise InvalidInput(f"{PLUGINS_VARIABLE}: cannot import {name!r}: {type(error).__name__}: {error}") from None
