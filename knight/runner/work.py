"""The worker side: run tasks with the engine and return plain, picklable results."""

from __future__ import annotations

import logging
import os
import signal
import time
from functools import cache, lru_cache

from knight.engine import Board, backtrack_tour, find_tour
from knight.engine.board import Square
from knight.engine.census import CensusUnit, count_unit
from knight.engine.frontier import DEFAULT_MAX_STATES, TooManyStates, frontier_count
from knight.engine.treesize import knuth_estimate, plain_tree
from knight.runner.faults import ENVIRONMENT_VARIABLE, Faults
from knight.store.database import sealed
from knight.tasks import (
    CENSUS,
    ESTIMATE,
    FRONTIER,
    EstimateResult,
    Failure,
    FailureCause,
    FrontierResult,
    Task,
    TaskResult,
    validate,
)

__all__ = [
    "run_task",
    "EXACT_TREE_UP_TO",
    "RATE_RUNS",
    "time_plain_search",
    "run_chunk",
    "init_worker",
    "warm_up",
]

log = logging.getLogger("knight.runner.work")


def run_task(task: Task) -> TaskResult:
    """Build the task's tour (or, for a census unit or a frontier count, count its tours) with the compiled engine; an
    engine error becomes a failed result. A done result comes sealed with the checksum of the row that
    will store it (:func:`~knight.store.database.sealed`): computed here, in the worker, not by the runner."""
    return sealed(_result(task))


def _result(task: Task) -> TaskResult:
    _faults().before_task(task.n, task.m, task.start)
    if task.method == CENSUS:
        return _count(task)
    if task.method == ESTIMATE:
        return _estimate(task)
    if task.method == FRONTIER:
        return _frontier(task)
    try:
        tour = find_tour(task.board, task.start, task.method, compiled=True, **task.params_dict)
    except Exception as error:  # noqa: BLE001 - any error is recorded with the task, not lost
        return _failed(task, error)
    log.debug("task %s (%s): %d squares%s", task.key, task.describe(), tour.length, ", full" if tour.full else "")
    result = TaskResult.from_tour(task.key, tour)
    problem = validate(result, tour)  # the tour as the store will keep it, checked before it leaves the worker
    if problem:
        log.error("task %s (%s): %s", task.key, task.describe(), problem)
        return TaskResult.failed(task, Failure(FailureCause.INVALID, problem))
    return result


def _count(task: Task) -> TaskResult:
    """Count the tours of a census-unit task, timed here (the engine keeps no clock)."""
    try:
        _warmed(CENSUS)  # a kernel compiled just in time is compiled before the clock starts
        began = time.perf_counter()
        counted = count_unit(task.unit, compiled=True, share=True)  # a closed unit's share of Burnside's sum too
        seconds = time.perf_counter() - began
    except Exception as error:  # noqa: BLE001 - any error is recorded with the task, not lost
        return _failed(task, error)
    log.debug("task %s (%s): %d tours, %d nodes", task.key, task.describe(), counted.tours, counted.nodes)
    return TaskResult.from_count(task.key, task.n, task.m, counted.tours, counted.nodes, counted.share, seconds)


def _frontier(task: Task) -> TaskResult:
    """Count every tour of a frontier task's board by the frontier method, timed here; a count that would pass
    the task's state cap fails (``TooManyStates``), with the engine's one line as the reason."""
    try:
        params = task.frontier
        _warmed(FRONTIER)  # a kernel compiled just in time is compiled before the clock starts
        began = time.perf_counter()
        width, rows = min(task.n, task.m), max(task.n, task.m)

        def swept(square: int, states: int) -> None:  # a count may take minutes: each row said (knight -v)
            if square % width == width - 1:
                row = square // width + 1
                elapsed = time.perf_counter() - began
                log.info(
                    "%s: row %d of %d swept, %s states, %.1f s", task.describe(), row, rows, f"{states:,}", elapsed
                )

        counted = frontier_count(
            task.board,
            closed=params.closed,
            removed=params.removed,
            max_states=DEFAULT_MAX_STATES if task.max_states is None else task.max_states,
            compiled=True,
            progress=swept,
        )
        seconds = time.perf_counter() - began
    except TooManyStates as error:  # a limit reached, not a fault: the run's summary says it (no warning here)
        log.info("task %s (%s): %s", task.key, task.describe(), error)
        return TaskResult.failed(task, Failure.of(error))
    except Exception as error:  # noqa: BLE001 - any error is recorded with the task, not lost
        return _failed(task, error)
    log.debug("task %s (%s): %d tours, peak %d states", task.key, task.describe(), counted.tours, counted.peak_states)
    found = FrontierResult(counted.tours, counted.peak_states, counted.states, seconds)
    return TaskResult.from_frontier(task.key, task.n, task.m, found)


#: An estimate task also counts the plain tree exactly on boards of at most this many squares
#: (5 x 5 from a corner: 1,735,079 nodes, about 0.1 s; 6 x 6 has about 2·10^10).
EXACT_TREE_UP_TO = 25
#: The plain search is timed this many times; the fastest run gives the node rate (the others
#: lost time to the machine, not to the search).
RATE_RUNS = 3


def _estimate(task: Task) -> TaskResult:
    """Knuth's estimate of the plain backtracking tree from the task's start; the exact tree on small
    boards; and, when ``rate_nodes`` asks, the node rate of plain backtracking, timed here (not in the
    engine, which stays free of clocks)."""
    board = task.board
    try:
        params = task.estimate
        estimate = knuth_estimate(board, task.start, params.probes, params.seed, compiled=True)
        exact = plain_tree(board, task.start, compiled=True) if board.size <= EXACT_TREE_UP_TO else None
        timed = time_plain_search(board, task.start, params.rate_nodes) if params.rate_nodes else None
    except Exception as error:  # noqa: BLE001 - any error is recorded with the task, not lost
        return _failed(task, error)
    log.debug("task %s (%s): %.4g nodes estimated", task.key, task.describe(), estimate.node_mean)
    return TaskResult.from_estimate(
        task.key,
        task.n,
        task.m,
        EstimateResult(
            estimate,
            None if exact is None else exact.nodes,
            None if exact is None else exact.tours,
            *(timed or (None, None)),
        ),
    )


def time_plain_search(board: Board, start: Square, nodes: int, runs: int = RATE_RUNS) -> tuple[int, float]:
    """Time plain backtracking (move order, first tour; :func:`~knight.engine.backtrack_tour`) from
    ``start`` for ``nodes`` nodes, ``runs`` times; return the fastest run's ``(nodes, seconds)`` (fewer
    nodes when it found a tour sooner)."""
    best: tuple[int, float] | None = None
    for _ in range(runs):
        began = time.perf_counter()
        found = backtrack_tour(board, start, order="plain", budget=nodes, compiled=True)
        seconds = time.perf_counter() - began
        if best is None or found.work / seconds > best[0] / best[1]:
            best = (found.work, seconds)
    assert best is not None
    return best


def _failed(task: Task, error: Exception) -> TaskResult:
    """The result of a task the engine raised ``error`` on: failed, with the reason (and logged)."""
    log.warning("task %s (%s) failed: %s: %s", task.key, task.describe(), type(error).__name__, error)
    return TaskResult.failed(task, Failure.of(error))


def run_chunk(tasks: list[Task]) -> list[TaskResult]:
    """Run a chunk of tasks in order (one call per chunk keeps the pool's overhead small)."""
    return [run_task(task) for task in tasks]


def init_worker() -> None:
    """Pool initializer: leave Ctrl-C to the parent, which shuts the pool down in order."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the runner's handler, inherited through fork
    log.debug("worker %d ready", os.getpid())


@lru_cache(maxsize=1)
def _faults() -> Faults:
    return Faults.from_environment() if os.environ.get(ENVIRONMENT_VARIABLE) else Faults()


def warm_up(methods: set[str]) -> None:
    """Load the compiled kernels of ``methods`` (the ahead-of-time module, or numba's JIT and its disk cache), so
    forked workers inherit them."""
    for method in sorted(methods):
        _warmed(method)


@cache
def _warmed(method: str) -> None:
    """Run ``method`` once on a small board, so that its kernels are loaded (or compiled) in this process: once,
    before the first of its tasks that is timed (a census unit, a frontier count) or before the pool forks."""
    if method == CENSUS:  # one small unit: from a corner of 5 x 5, first move to (2, 1)
        count_unit(CensusUnit(5, 5, (0, 0), (2, 1)), compiled=True)
        return
    if method == FRONTIER:  # the frontier's step, on a board of a few states
        frontier_count(Board(3, 4), compiled=True)
        return
    if method == ESTIMATE:  # the probes, the exact tree (the census kernel) and the timed search
        knuth_estimate(Board(5, 5), (0, 0), 10, compiled=True)
        plain_tree(Board(3, 4), (0, 0), compiled=True)
        backtrack_tour(Board(6, 6), (0, 0), budget=1000, compiled=True)
        return
    # 6 x 6 is small and every method takes it (Parberry's smallest board); a search needs only a taste.
    find_tour(Board(6, 6), (0, 0), method, compiled=True, **({"budget": 1000} if method == "backtrack" else {}))
