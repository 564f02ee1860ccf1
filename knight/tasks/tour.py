"""The tour kind: a task that builds one tour with an engine method (every method of
:data:`knight.engine.METHODS`), and its outcome, the tour as the store keeps it (table ``tours``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from knight.engine import Board, Tour
from knight.engine.board import Square, size_text
from knight.engine.codec import decode_path, encode_path, encoded_size
from knight.errors import InvalidInput
from knight.tasks.kind import TaskShape
from knight.tasks.task import InvalidResult

if TYPE_CHECKING:
    from knight.tasks.task import Task

__all__ = ["KIND", "PATH_KEPT_UP_TO_SQUARES", "TourKind", "TourOutcome", "validate_tour", "warm_method"]

#: Tours on boards of more squares than this are stored without their path (``moves`` NULL).
PATH_KEPT_UP_TO_SQUARES = 100_000

log = logging.getLogger("knight.runner.work")


@dataclass(frozen=True)
class TourOutcome:
    """A built tour as the store keeps it: its path encoded (:mod:`knight.engine.codec`; None on boards over
    :data:`PATH_KEPT_UP_TO_SQUARES` squares), its flags, the search's work and the three deduplication keys."""

    moves: bytes | None
    length: int
    full: bool
    closed: bool
    success: bool
    work: int
    work_unit: str
    budget_exhausted: bool
    key_directed: str
    key_undirected: str
    key_symmetric: str
    removed: tuple[Square, ...] = ()  # squares taken off the board (a full tour covers the others)

    @classmethod
    def of(cls, tour: Tour) -> TourOutcome:
        """The outcome that keeps ``tour``: its path encoded unless its board is over the limit."""
        kept = tour.board.size <= PATH_KEPT_UP_TO_SQUARES
        return cls(
            encode_path(tour.path, tour.board.m) if kept else None,
            tour.length,
            tour.full,
            tour.closed,
            tour.success,
            tour.work,
            tour.work_unit,
            tour.budget_exhausted,
            tour.key_directed,
            tour.key_undirected,
            tour.key_symmetric,
            tour.removed,
        )


class TourKind:
    """Build one tour (see the module's docstring)."""

    name = "tour"
    table = "tours"
    columns = (
        "length INTEGER NOT NULL",
        "full INTEGER NOT NULL",
        "closed INTEGER NOT NULL",
        "success INTEGER NOT NULL",
        "work INTEGER NOT NULL",
        "work_unit TEXT NOT NULL",
        "budget_exhausted INTEGER NOT NULL",
        "key_directed TEXT NOT NULL",
        "key_undirected TEXT NOT NULL",
        "key_symmetric TEXT NOT NULL",
        "moves BLOB",
    )
    checkpoints = False
    sealed_when_stored = False

    def run(self, task: Task) -> TourOutcome:
        from knight.engine.methods import find_tour  # lazily: a store that only reads needs no method

        tour = find_tour(task.board, task.start, task.method, compiled=True, **task.params_dict)
        log.debug("task %s (%s): %d squares%s", task.key, task.describe(), tour.length, ", full" if tour.full else "")
        outcome = TourOutcome.of(tour)
        problem = validate_tour(outcome, task.n, task.m, task.method, tour)  # as the store will keep it
        if problem:
            raise InvalidResult(problem)
        return outcome

    def problem(self, outcome: TourOutcome, task: TaskShape) -> str:
        if not 0 < outcome.length <= task.n * task.m:
            return "invalid tour: its length does not fit its board"
        if outcome.moves is None:
            if task.n * task.m <= PATH_KEPT_UP_TO_SQUARES:
                return "invalid tour: its path is missing"
        elif len(outcome.moves) != encoded_size(outcome.length):
            return "invalid tour: its path does not match its length"
        if not all((outcome.key_directed, outcome.key_undirected, outcome.key_symmetric)):
            return "invalid tour: a deduplication key is missing"
        return ""

    def row(self, outcome: TourOutcome) -> tuple[Any, ...]:
        return (
            int(outcome.length),
            int(outcome.full),
            int(outcome.closed),
            int(outcome.success),
            int(outcome.work),
            str(outcome.work_unit),
            int(outcome.budget_exhausted),
            str(outcome.key_directed),
            str(outcome.key_undirected),
            str(outcome.key_symmetric),
            None if outcome.moves is None else bytes(outcome.moves),
        )

    def derived(self, key: str, outcome: TourOutcome) -> list[tuple[str, tuple[Any, ...]]]:
        return []

    def warm(self) -> None:
        """Every tour method's kernels: see :func:`warm_method` (the runner warms the methods a run has)."""

    def describe(self, task: Task) -> str:
        params = ", ".join(f"{name}={value}" for name, value in task.params)
        return f"{task.method}({params}) {size_text(task.n, task.m)} from {task.start}"


def warm_method(method: str) -> None:
    """Run the tour method ``method`` once on a small board, so that its kernels are loaded (or compiled)."""
    from knight.engine.methods import find_tour

    # 6 x 6 is small and every method takes it (Parberry's smallest board); a search needs only a taste.
    find_tour(Board(6, 6), (0, 0), method, compiled=True, **({"budget": 1000} if method == "backtrack" else {}))


def validate_tour(outcome: TourOutcome, n: int, m: int, method: str, built: Tour | None = None) -> str:
    """Check a tour outcome as it will be stored; '' when sound, else what is wrong.

    Without ``built``, the tour is decoded from ``moves`` and rebuilt as a :class:`Tour` (so validated: on the
    board, no square twice, knight moves), and must be as long, full and closed as the outcome says, and the path
    its directed key names. With ``built``, the tour the outcome was made from (already validated when it was
    built, as in a worker), ``moves`` must decode to exactly its squares. An outcome without ``moves`` (a board too
    large to keep the path) is checked for completeness only: its tour was validated when built.
    """
    if outcome.moves is None:
        return ""
    try:
        path = decode_path(outcome.moves, n, m)
        tour = (
            built if built is not None else Tour(board=Board(n, m), path=path, method=method, removed=outcome.removed)
        )
    except (InvalidInput, ValueError) as error:
        return f"invalid tour: {error}"
    if built is not None and not np.array_equal(path, built.path):
        return "invalid tour: its stored form does not decode to its squares"
    if (tour.length, tour.full, tour.closed) != (outcome.length, outcome.full, outcome.closed):
        return "invalid tour: its length, fullness or closedness does not match its squares"
    if tour.key_directed != outcome.key_directed:
        return "invalid tour: its squares are not the tour its key names"
    return ""


KIND = TourKind()
