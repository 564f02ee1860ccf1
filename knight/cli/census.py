"""`knight census`: count every directed open tour (or every closed tour), per start square.

The census runs through the sweep runner: one task per unit (start square and first move), on
the same process pool or Dask cluster as `knight run`, into the same store. Interrupted and
run again, it counts only the units the store lacks; run twice, it counts nothing the second time.
`--method frontier` counts the board's tours at once (:mod:`knight.engine.frontier`), as one task
through the same runner into the same store: run twice, it says the stored count the second time.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from knight.cli import app
from knight.cli.census_document import CensusRun, census_document
from knight.cli.options import JsonOption, KnightCommand, QuietOption, examples, print_json
from knight.cli.run import (
    EXIT_SOME_FAILED,
    WORKERS_PER_CORE,
    ExecutorOption,
    SchedulerOption,
    StoreOption,
    VerboseOption,
    check_run_options,
    check_shards,
    run_in_store,
)
from knight.cli.squares import parse_square, parse_squares, square_option
from knight.errors import InvalidInput
from knight.store.location import store_path

if TYPE_CHECKING:  # imported where used: `knight --help` loads no engine
    from knight.engine import Board
    from knight.engine.census import Census
    from knight.engine.theory import Verdict
    from knight.store import CensusRecord, FailureRecord, FrontierRecord
    from knight.tasks import Task

__all__ = ["census"]


_Workers = Annotated[
    int | None,
    typer.Option(
        help=(
            "Worker processes (default: all cores; none under 30 squares, counted in this process); "
            f"at most {WORKERS_PER_CORE} per core."
        )
    ),
]
_Method = Annotated[
    str,
    typer.Option(
        help=(
            "census: enumerate every tour (counts per start square, classes up to symmetry); frontier: "
            "count them all at once by dynamic programming over the board's frontier (shorter side at most 13), "
            "stored like a census (run again, the stored count is said)."
        )
    ),
]
_MaxStates = Annotated[
    int | None,
    typer.Option(
        help="--method frontier: stop when the frontier holds more states (default 200,000,000: ~10 GB at most)."
    ),
]
_Shards = Annotated[
    int | None,
    typer.Option(
        help=(
            "--method frontier: split the frontier's states into this many shards, swept by the workers in turn "
            "(default: several a worker on a board that takes minutes, else 1: one process)."
        )
    ),
]
_Remove = Annotated[
    list[str] | None, square_option("Take a square off the board (repeatable: --remove 0,0 --remove h1)")
]


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight census 6 --closed --json",
        "knight census 8 --remove a8 --remove h1",
        "knight census 6 7 --closed --method frontier",
    ),
)
def census(
    n: Annotated[int, typer.Argument(help="Rows of the board.")],
    m: Annotated[int | None, typer.Argument(help="Columns of the board (default: N, a square board).")] = None,
    start: Annotated[str | None, square_option("Count only the tours from this square")] = None,
    closed: Annotated[bool, typer.Option("--closed", help="Count closed tours instead of open ones.")] = False,
    remove: _Remove = None,
    workers: _Workers = None,
    depth: Annotated[int, typer.Option(help="Moves fixed by each unit of work: more, smaller units.")] = 1,
    method: _Method = "census",
    max_states: _MaxStates = None,
    shards: _Shards = None,
    store: StoreOption = None,
    executor: ExecutorOption = "process",
    scheduler: SchedulerOption = None,
    verbose: VerboseOption = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> int:
    """Count every directed open tour (or every closed tour) of a board of at most 64 squares, per start square.

    Prints what theory says first; when theory rules every tour out, no search is run. Otherwise
    the units run through the sweep runner into the store; units already there are not run again.
    With --method frontier, the board's tours are counted at once into the store (a count already
    there is said, not made again), with the frontier's peak states and the seconds the count took.
    Exit status 0, 1 when some unit failed (the census is then incomplete), 2 for bad input (with
    --method frontier, a count past --max-states too), 130 when interrupted.
    """
    from knight.engine import Board

    board = Board(n, n if m is None else m)
    removed = parse_squares(remove, "--remove", board.n, board.m)
    square = None if start is None else parse_square(start, "--start", board.n, board.m)
    if method == "frontier" and depth != 1:
        raise InvalidInput("--depth needs --method census: the frontier method counts every tour at once, in no units")
    if method == "census" and (max_states is not None or shards is not None):
        flag = "--max-states" if max_states is not None else "--shards"
        raise InvalidInput(f"{flag} needs --method frontier: the census holds no frontier states")
    options = _RunOptions(store, workers, executor, scheduler, verbose, as_json, quiet)
    if method != "census":
        return _frontier(board, closed, removed, method, start, (max_states, shards), options)
    return _census(board, closed, removed, square, depth, options)


def _census(
    board: Board, closed: bool, removed: list, square: tuple[int, int] | None, depth: int, options: _RunOptions
) -> int:
    """`--method census`: what theory says, then the units run through the sweep runner into the store (those
    already there not run again), then the census printed, or what is missing when a unit failed."""
    from knight.engine.census import CensusSpec
    from knight.engine.theory import closed_tour_verdict, open_tour_verdict
    from knight.runner.jobs import census_job
    from knight.store import Store

    check_run_options(options.workers, options.executor, options.scheduler)
    spec = CensusSpec(
        board.n, board.m, closed, tuple(sorted(set(removed))), None if square is None else (square,), depth
    )
    job = census_job(spec)  # lists the units, so checks the request
    verdict = closed_tour_verdict(board, removed) if closed else open_tour_verdict(board, square, removed)
    if verdict.exists is False:
        return _print(board, closed, removed, square, verdict, None, None, None, options.as_json)
    path = store_path(options.store)
    workers = options.workers
    summary = run_in_store(  # a small census (under 30 squares) is counted in this process, without a pool
        [job],
        path,
        workers=None if workers is None else min(workers, len(job.tasks())),
        executor=options.executor,
        scheduler=options.scheduler,
        verbose=options.verbose,
        again="knight census (same arguments)",
        quiet=options.quiet,
    )
    with Store(path) as results:
        (stored,) = results.censuses(job.name)
        failures = results.failures(job.name)
    if stored.census is None:
        return _incomplete(board, closed, removed, square, verdict, stored, failures, options.as_json)
    run: CensusRun = {
        "store": str(path),
        "units_run": summary.ran,
        "units_stored": summary.already_done,
        "processes": summary.workers,
        "executor": options.executor,
        "seconds": round(summary.seconds, 4),
    }
    # stored.symmetric: listed by the run when the closed census completed
    return _print(board, closed, removed, square, verdict, stored, stored.symmetric, run, options.as_json)


def _incomplete(
    board: Board,
    closed: bool,
    removed: list,
    square: tuple[int, int] | None,
    verdict: Verdict,
    stored: CensusRecord,
    failures: list[FailureRecord],
    as_json: bool,
) -> int:
    """A census some of whose units failed: what was counted and what failed, on stderr (and as the JSON document
    with the counts unknown); exit status 1."""
    if as_json:  # one document whatever the outcome: the same keys, the counts unknown (null)
        document = census_document(board, closed, removed, square, verdict, None, None, None)
        document.update(
            {
                "counts": None,
                "total": None,
                "undirected": None,
                "cycles": None,
                "cycles_up_to_symmetry": None,
                "nodes": None,
                "searched": True,
                "units": stored.units_total,
                "units_done": stored.units_done,
                "units_failed": stored.units_failed,
                "failures": [failed.line for failed in failures],
            }
        )
        print_json(document)
    typer.echo(
        f"knight: the census is incomplete: {stored.units_done} of {stored.units_total} units counted, "
        f"{stored.units_failed} failed; run it again to retry them",
        err=True,
    )
    for failed in failures:
        typer.echo(f"  failed: {failed.line}", err=True)
    return EXIT_SOME_FAILED


def _frontier(
    board: Board,
    closed: bool,
    removed: list,
    method: str,
    start: str | None,
    limits: tuple[int | None, int | None],
    options: _RunOptions,
) -> int:
    """`--method frontier`: the count by dynamic programming over the frontier, one task run through the sweep
    runner into the store like a census's units (a count already there is not made again), then printed; its
    ``limits`` the state cap and the shards asked for (None: the defaults)."""
    from knight.engine.frontier import DEFAULT_MAX_STATES, TooManyStates, check_frontier_board
    from knight.runner.jobs import MAX_STATE_CAP, frontier_job
    from knight.store import Store
    from knight.tasks import FailureCause, FrontierParams

    max_states, shards = limits

    if method != "frontier":
        raise InvalidInput(f"--method must be census or frontier, got {method!r}")
    if start is not None:
        raise InvalidInput("--start needs --method census: the frontier method counts every tour at once")
    if max_states is not None and max_states > MAX_STATE_CAP:  # as a job file's cap: a table's slots, memory
        raise InvalidInput(f"--max-states may be at most {MAX_STATE_CAP:,} (some 150 GB), got {max_states:,}")
    check_frontier_board(board, DEFAULT_MAX_STATES if max_states is None else max_states)
    for square in removed:
        if not board.contains(square):
            raise InvalidInput(f"--remove {square[0]},{square[1]} is not on the {board} board")
    check_run_options(options.workers, options.executor, options.scheduler)
    check_shards(shards)
    job = frontier_job(board, FrontierParams(closed, tuple(removed)), max_states)
    path = store_path(options.store)
    summary = run_in_store(
        [job],
        path,
        workers=_frontier_workers(job.tasks()[0], options, shards),
        executor=options.executor,
        scheduler=options.scheduler,
        verbose=options.verbose,
        again="knight census (same arguments)",
        quiet=options.quiet or not sys.stderr.isatty(),  # piped: the count or the error, nothing more
        shards=shards,
    )
    with Store(path) as results:
        found = results.frontier_counts(job.name)
        failures = results.failures(job.name)
    if not found:
        for failed in failures:
            if failed.failure.cause is FailureCause.STATE_CAP:  # the cap, --max-states: bad input, in one line
                raise TooManyStates(failed.failure.message)
            typer.echo(f"knight: failed: {failed.line}", err=True)
        return EXIT_SOME_FAILED
    (count,) = found
    return _print_frontier(board, closed, count, summary.ran > 0, path, options.as_json)


def _print_frontier(
    board: Board, closed: bool, count: FrontierRecord, counted_now: bool, path: Path, as_json: bool
) -> int:
    """A frontier count, as the JSON document or in two lines."""
    if as_json:
        print_json(
            {
                "board": [board.n, board.m],
                "closed": closed,
                "removed": [list(s) for s in count.removed],
                "method": "frontier",
                "total": None if closed else count.tours,
                "undirected": None if closed else count.tours // 2 if count.tours > 1 else count.tours,
                "cycles": count.tours if closed else None,
                "peak_states": count.peak_states,
                "states": count.states,
                "seconds": round(count.seconds, 4),
                "shards": count.shards,
                "counted_now": counted_now,
                "store": str(path),
            }
        )
        return 0
    less = f" less {', '.join(map(str, count.removed))}" if count.removed else ""
    what = "closed tours (as cycles)" if closed else "directed open tours"
    typer.echo(f"{board}{less}: {count.tours:,} {what}, by the frontier method")
    where = f"now, stored in {path}" if counted_now else f"stored in {path}: not counted again"
    typer.echo(
        f"peak {count.peak_states:,} frontier states, {count.states:,} in all; counted in {count.seconds:.2f} s"
        f"{_over_shards(count.shards)}, {where}"
    )
    return 0


def _frontier_workers(task: Task, options: _RunOptions, shards: int | None) -> int | None:
    """The workers a frontier count runs on: as asked, or all cores for a count worth sharding; else none on a small
    board (counted in this process), one on another."""
    from knight.runner.sharding import shards_for
    from knight.runner.sweep import SMALL_SQUARES, default_workers

    workers = options.workers
    if workers is not None or shards_for(task, shards, default_workers(), options.scheduler) > 1:
        return workers
    return None if task.n * task.m < SMALL_SQUARES else 1


def _over_shards(shards: int) -> str:
    """`` over 8 shards`` for a sharded count; nothing for one counted in one process."""
    return f" over {shards} shards" if shards > 1 else ""


@dataclass(frozen=True)
class _RunOptions:
    """How `knight census` runs its tasks, and what it prints: the options every method shares."""

    store: Path | None
    workers: int | None
    executor: str
    scheduler: str | None
    verbose: bool
    as_json: bool
    quiet: bool


def _print(
    board: Board,
    closed: bool,
    removed: list,
    start: tuple[int, int] | None,
    verdict: Verdict,
    stored: CensusRecord | None,
    symmetric: int | None,
    run: CensusRun | None,
    as_json: bool,
) -> int:
    result = None if stored is None else stored.census
    if as_json:
        print_json(census_document(board, closed, removed, start, verdict, result, symmetric, run))
    else:
        typer.echo(_describe(board, closed, removed, start, verdict, result, symmetric, run))
    return 0


def _describe(
    board: Board,
    closed: bool,
    removed: list,
    start: tuple[int, int] | None,
    verdict: Verdict,
    result: Census | None,
    symmetric: int | None,
    run: CensusRun | None,
) -> str:
    kind = "closed" if closed else "open"
    less = f" less {', '.join(map(str, removed))}" if removed else ""
    lines = [f"census of {kind} tours on {board}{less}", f"theory: {verdict}"]
    if result is None or run is None:
        lines.append(f"no search needed: 0 {kind} tours.")
        return "\n".join(lines)
    grid = result.counts
    width = max(len(f"{int(grid.max()):,}"), 1)
    lines.append(f"directed {kind} tours from each square (. removed or not counted):")
    lines += [" ".join(f"{int(v):>{width},}" if v >= 0 else f"{'.':>{width}}" for v in row) for row in grid]
    starts = ", ".join(map(str, result.searched_starts))
    if closed:
        lines.append(
            f"closed tours: {result.cycles:,} as cycles (up to start square and direction)"
            + (f"; {symmetric:,} up to the board's symmetries too" if symmetric is not None else "")
        )
        lines.append(
            f"directed closed tours: {result.total:,} (every square starts 2 x {result.cycles:,}); "
            f"searched from {starts}"
        )
    else:
        total = f"total: {_count(result.total, 'directed open tour')}"
        if result.undirected is not None:
            total += f" ({result.undirected:,} up to reversal)"
        counted = int((grid >= 0).sum())
        if start is not None and counted > 1:  # the start's symmetric images are counted with it: say whose total
            own = int(grid[tuple(start)])
            total += f" from the {counted} squares counted, {tuple(start)} and its images; {own:,} from {tuple(start)}"
        lines.append(f"{total}; searched starts {starts}, the others by symmetry")
    where = "a local dask cluster" if run["executor"] == "dask" else _count(run["processes"], "process")
    lines.append(
        f"nodes: {result.nodes:,} in {_count(result.units, 'unit')}: {run['units_run']:,} counted now "
        f"on {where} in {run['seconds']:.2f} s, {run['units_stored']:,} from the store {run['store']}"
    )
    return "\n".join(lines)


def _count(number: int, noun: str) -> str:
    """``1 unit``, ``2 units``, ``2 processes``."""
    if number == 1:
        return f"1 {noun}"
    return f"{number:,} {noun}{'es' if noun.endswith('s') else 's'}"
