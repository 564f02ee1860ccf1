"""A sweep of a job file as its kind lists it: what every kind's expansion shares (no pydantic here).

A kind that a job file names turns its checked ``[[sweep]]`` table into a :class:`Sweep` (its
:meth:`~knight.tasks.sweep.Expander.sweep`): the boards and starts the runner read, its parameter grid, and a
:class:`Listing` that counts its tasks without building them and lists them in a fixed order. The checks a kind
makes as it expands go through :class:`Where`, which names the key at fault and keeps the job's tasks counted
against its bound. The helpers below (start squares, removed squares, board sizes) are the ones several kinds use.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from knight.engine import Board
from knight.engine.board import Square
from knight.engine.parameters import Params
from knight.errors import InvalidInput

if TYPE_CHECKING:
    from knight.tasks.census import CensusPlan
    from knight.tasks.task import Task

__all__ = [
    "Asked",
    "Expander",
    "expander",
    "MAX_REPEATS",
    "MAX_SIDE",
    "START_SETS",
    "Grid",
    "Listed",
    "Listing",
    "Starts",
    "Sweep",
    "Where",
    "at_most",
    "on_board",
    "removed_off_starts",
    "start_count",
    "start_squares",
    "starts_total",
]

#: The start sets a sweep may name.
START_SETS = ("all", "corners")
#: The largest side a board range may reach ("A..B" with B at most this): 4096 x 4096 is the board limit.
MAX_SIDE = 4096
#: The most seeds ``repeats`` may ask for.
MAX_REPEATS = 100_000

#: A sweep's ``starts`` once read: "all", "corners", a tuple of squares, or ("sample", K, seed).
Starts = str | tuple[Square, ...] | tuple[str, int, int]


class Where(Protocol):
    """Where a sweep is in its job file, for messages, and the job's tasks counted against its bound."""

    def fail(self, key: str, message: str) -> NoReturn:
        """Refuse the job in one line naming ``key`` (``params.removed``) of this sweep."""
        ...

    def grid(self, sets: int, starts: int) -> None:
        """Refuse a grid of ``sets`` parameter sets over ``starts`` start squares past the job's bound, before it is
        built."""
        ...

    def count(self, key: str, tasks: int, *, add: bool = True) -> None:
        """Refuse the job (naming ``key``) when ``tasks`` more pass its bound; else count them (if ``add``)."""
        ...


class Listing(Protocol):
    """A sweep's tasks: counted without listing them, and listed in a fixed order."""

    def count(self) -> int: ...

    def tasks(self) -> Iterator[Task]: ...


@dataclass(frozen=True)
class Listed:
    """Tasks listed as the sweep was read (a census's units, a kind's own)."""

    listed: tuple[Task, ...]

    def count(self) -> int:
        return len(self.listed)

    def tasks(self) -> Iterator[Task]:
        yield from self.listed


@dataclass(frozen=True)
class Grid:
    """Every board, then start, then parameter set of ``grid``: one task each, of ``method``."""

    method: str
    boards: tuple[Board, ...]
    starts: Starts
    grid: tuple[Params, ...]

    def count(self) -> int:
        return starts_total(self.boards, self.starts) * len(self.grid)

    def tasks(self) -> Iterator[Task]:
        from knight.tasks.task import Task

        grid = [tuple(sorted(params.items())) for params in self.grid]
        for board in self.boards:
            for start in start_squares(board, self.starts):
                for params in grid:
                    yield Task(self.method, params, board.n, board.m, start)


@dataclass(frozen=True)
class Sweep:
    """One method over boards and starts, with a grid of parameters, as its kind listed it."""

    label: str
    method: str
    boards: tuple[Board, ...]
    starts: Starts
    param_grid: tuple[Params, ...]
    listing: Listing
    plans: tuple[CensusPlan, ...] = ()  # the censuses a census sweep asks for (the store keeps them as such)

    def censuses(self) -> list[CensusPlan]:
        """The censuses of a census sweep, one per board and parameter set (none for other methods)."""
        return list(self.plans)

    def count(self) -> int:
        """How many tasks the sweep has, counted without listing them (an upper bound: another sweep may share some)."""
        return self.listing.count()

    def tasks(self) -> Iterator[Task]:
        """Every task of the sweep, in its kind's fixed order (a tour's: board, then start, then parameters)."""
        return self.listing.tasks()


def start_squares(board: Board, starts: Starts) -> list[Square]:
    """The start squares a sweep's ``starts`` names on ``board``."""
    if starts == "all":
        return [(row, col) for row in range(board.n) for col in range(board.m)]
    if starts == "corners":
        return sorted({(0, 0), (0, board.m - 1), (board.n - 1, 0), (board.n - 1, board.m - 1)})
    if isinstance(starts, tuple) and starts and starts[0] == "sample":
        _, count, seed = starts
        # random.sample picks by index alone: sampling the indices picks the squares a list of them would
        picked = random.Random(f"{seed}:{board}").sample(range(board.size), min(int(count), board.size))
        return sorted(divmod(index, board.m) for index in picked)
    return list(starts)  # type: ignore[arg-type]  # a tuple of squares


def start_count(board: Board, starts: Starts) -> int:
    """How many start squares :func:`start_squares` gives on ``board``, without listing them."""
    if starts == "all":
        return board.size
    if starts == "corners":
        return len(start_squares(board, starts))
    if isinstance(starts, tuple) and starts and starts[0] == "sample":
        return min(int(starts[1]), board.size)
    return len(starts)


def starts_total(boards: tuple[Board, ...], starts: Starts) -> int:
    """The start squares of every board, counted."""
    return sum(start_count(board, starts) for board in boards)


def on_board(squares: tuple[Square, ...], boards: tuple[Board, ...], key: str, where: Where) -> None:
    """Refuse the first of ``squares`` (at ``key``) that is off one of ``boards``."""
    for board in boards:
        for square in squares:
            if not board.contains(square):
                where.fail(
                    key,
                    f"square {list(square)} is off the {board} board: row must be "
                    f"0..{board.n - 1} and column 0..{board.m - 1}",
                )


def removed_off_starts(
    squares: list[Square], boards: tuple[Board, ...], starts: Starts, where: Where
) -> tuple[Square, ...]:
    """``params.removed``: one set of squares, on every board, none of them a start."""
    removed = tuple(sorted(set(squares)))
    on_board(removed, boards, "params.removed", where)
    for board in boards if removed else ():  # starts are listed only to be checked against removed squares
        for square in start_squares(board, starts):
            if square in removed:
                where.fail("starts", f"square {list(square)} is removed (params.removed); start elsewhere")
    return removed


def at_most(boards: tuple[Board, ...], squares: int, what: str, where: Where) -> None:
    """Refuse the first board of more than ``squares`` squares (``what`` is done on boards of at most that)."""
    for board in boards:
        if board.size > squares:
            where.fail("boards", f"{what} on boards of at most {squares} squares; {board} has {board.size}")


@dataclass(frozen=True)
class Asked:
    """A ``[[sweep]]`` table as the job file's reader hands it to its kind: the table checked by the kind's model
    (:meth:`Expander.sweep_model`), the names of its params in the file's order, its boards (each once) and starts
    (read, on every board), and its label."""

    table: Any  # an instance of the kind's own pydantic model (knight.tasks.params.SweepTable)
    written: tuple[str, ...]
    boards: tuple[Board, ...]
    starts: Starts
    label: str


class Expander(Protocol):
    """How a kind turns a job file's ``[[sweep]]`` table into its tasks: the model that checks the table (pydantic,
    built on first use from :mod:`knight.tasks.params`), and the sweep it makes of it, its tasks counted against
    the job's bound (``where``)."""

    def sweep_model(self, method: str) -> type[Any]: ...

    def sweep(self, asked: Asked, where: Where) -> Sweep: ...


class _OwnTasks:
    """The expander of a kind that lists its own tasks (:meth:`~knight.tasks.kind.SweepKind.tasks`): its params a
    table as written, which it checks itself; the tasks it lists, counted."""

    def __init__(self, kind: Any) -> None:  # a kind with tasks(starts, params) (a SweepKind)
        self.kind = kind

    def sweep_model(self, method: str) -> type[Any]:
        from knight.tasks.params import KindSweep

        return KindSweep

    def sweep(self, asked: Asked, where: Where) -> Sweep:
        name, boards, starts = self.kind.name, asked.boards, asked.starts
        where.grid(1, starts_total(boards, starts))  # the starts to hand it, bounded before they are listed
        try:
            listed = tuple(
                self.kind.tasks({board: start_squares(board, starts) for board in boards}, asked.table.params)
            )
        except InvalidInput as error:
            where.fail("params", str(error))
        except Exception as error:  # noqa: BLE001 - the kind's module is the user's code: its fault, in one line
            where.fail("params", f"kind {name!r} failed to list its tasks: {type(error).__name__}: {error}")
        strays = sorted({task.method for task in listed} - {name})
        if strays:
            where.fail(
                "method", f"kind {name!r} listed tasks of another method ({', '.join(strays)}): a fault of its module"
            )
        where.count("params", len(listed))
        return Sweep(asked.label, name, boards, starts, (dict(asked.table.params),), Listed(listed))


def expander(kind: Any) -> Expander:  # a SweepKind
    """How a job file's sweep of ``kind`` is checked and listed: its own :class:`Expander` (``sweep_model`` and
    ``sweep``), or, for a kind that lists its own tasks, the generic one."""
    return kind if hasattr(kind, "sweep") else _OwnTasks(kind)
