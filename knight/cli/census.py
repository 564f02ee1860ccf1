"""`knight census`: count every directed open tour (or every closed tour), per start square."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Annotated, Any, Optional

import typer

from knight.cli import app
from knight.engine import Board, InvalidInput
from knight.engine.census import (
    Census, CensusUnit, UnitCount, UnitCounter, assemble, census_units, cycles_up_to_symmetry,
)
from knight.engine.theory import Verdict, closed_tour_verdict, open_tour_verdict

#: Closed tours are listed (to tell them apart up to symmetry) only when there are at most this many.
SYMMETRY_LIMIT = 1_000_000
#: Boards with fewer squares run in one process unless --workers says otherwise.
SMALL_BOARD = 30


@app.command()
def census(
    n: Annotated[int, typer.Argument(help="Rows of the board.")],
    m: Annotated[Optional[int], typer.Argument(help="Columns of the board (default: N, a square board).")] = None,
    start: Annotated[Optional[tuple[int, int]], typer.Option(help="Count only the tours from ROW COL.")] = None,
    closed: Annotated[bool, typer.Option("--closed", help="Count closed tours instead of open ones.")] = False,
    remove: Annotated[Optional[list[str]], typer.Option(
        help="Take square ROW,COL off the board (repeatable), e.g. --remove 0,0 --remove 7,7.")] = None,
    workers: Annotated[Optional[int], typer.Option(help="Processes to run the units on (default: all cores).")] = None,
    depth: Annotated[int, typer.Option(help="Moves fixed by each unit of work: more, smaller units.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the census as JSON.")] = False,
) -> int:
    """Count every directed open tour (or every closed tour) of a board of at most 64 squares, per start square.

    Prints what theory says first; when theory rules every tour out, no search is run.
    """
    board = Board(n, n if m is None else m)
    removed = [_square(text) for text in remove or []]
    if workers is not None and workers < 1:
        raise InvalidInput(f"--workers must be at least 1, got {workers}")
    units = census_units(board, closed=closed, removed=removed, start=start, depth=depth)
    verdict = closed_tour_verdict(board, removed) if closed else open_tour_verdict(board, start, removed)
    if verdict.exists is not False:
        UnitCounter()(units[0])  # load (or compile) the kernel once, untimed, before any worker forks
    began = time.perf_counter()
    small = board.size - len(removed) < SMALL_BOARD  # a pool costs more than the whole search
    processes = min(workers or (1 if small else os.cpu_count() or 1), len(units))
    if verdict.exists is False:
        result = None
    else:
        result = assemble(board, units, _run(units, processes))
    seconds = time.perf_counter() - began
    symmetric = None
    if result is not None and closed and result.cycles and result.cycles <= SYMMETRY_LIMIT:
        symmetric = cycles_up_to_symmetry(board, removed=removed, limit=SYMMETRY_LIMIT)
    if as_json:
        typer.echo(json.dumps(_as_dict(board, closed, removed, start, verdict, result, symmetric, seconds, processes)))
    else:
        typer.echo(_describe(board, closed, removed, verdict, result, symmetric, seconds, processes))
    return 0


def _square(text: str) -> tuple[int, int]:
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise InvalidInput(f"--remove takes a square as ROW,COL (e.g. 0,0), got {text!r}") from None
    return row, col


def _run(units: list[CensusUnit], processes: int) -> list[UnitCount]:
    counter = UnitCounter()
    if processes <= 1:
        return [counter(unit) for unit in units]
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(counter, units))


def _describe(board: Board, closed: bool, removed: list, verdict: Verdict, result: Census | None,
              symmetric: int | None, seconds: float, processes: int) -> str:
    kind = "closed" if closed else "open"
    less = f" less {', '.join(map(str, removed))}" if removed else ""
    lines = [f"census of {kind} tours on {board}{less}", f"theory: {verdict}"]
    if result is None:
        lines.append(f"no search needed: 0 {kind} tours.")
        return "\n".join(lines)
    grid = result.counts
    width = max(len(f"{int(grid.max()):,}"), 1)
    lines.append(f"directed {kind} tours from each square (. removed or not counted):")
    lines += [" ".join(f"{int(v):>{width},}" if v >= 0 else f"{'.':>{width}}" for v in row) for row in grid]
    starts = ", ".join(map(str, result.searched_starts))
    if closed:
        lines.append(f"closed tours: {result.cycles:,} as cycles (up to start square and direction)"
                     + (f"; {symmetric:,} up to the board's symmetries too" if symmetric is not None else ""))
        lines.append(f"directed closed tours: {result.total:,} (every square starts 2 x {result.cycles:,}); "
                     f"searched from {starts}")
    else:
        total = f"total: {_count(result.total, 'directed open tour')}"
        if result.undirected is not None:
            total += f" ({result.undirected:,} up to reversal)"
        lines.append(f"{total}; searched starts {starts}, the others by symmetry")
    lines.append(f"nodes: {result.nodes:,} in {_count(result.units, 'unit')} on {_count(processes, 'process')}; "
                 f"time {seconds:.2f} s (after loading the compiled kernel)")
    return "\n".join(lines)


def _count(number: int, noun: str) -> str:
    """``1 unit``, ``2 units``, ``2 processes``."""
    if number == 1:
        return f"1 {noun}"
    return f"{number:,} {noun}{'es' if noun.endswith('s') else 's'}"


def _as_dict(board: Board, closed: bool, removed: list, start: tuple[int, int] | None, verdict: Verdict,
             result: Census | None, symmetric: int | None, seconds: float, processes: int) -> dict[str, Any]:
    data: dict[str, Any] = {
        "board": [board.n, board.m], "closed": closed, "removed": [list(s) for s in removed],
        "theory": {"exists": verdict.exists, "argument": verdict.argument, "reason": verdict.reason},
        "seconds": round(seconds, 4), "processes": processes,
    }
    if result is None:
        counts: list[list[int | None]] = [[None if (r, c) in removed or (start and (r, c) != tuple(start)) else 0
                                           for c in range(board.m)] for r in range(board.n)]
        data.update(counts=counts, total=0, nodes=0, searched=False)
        return data
    data.update(
        counts=[[int(v) if v >= 0 else None for v in row] for row in result.counts],
        total=result.total, undirected=result.undirected, nodes=result.nodes, units=result.units,
        searched=True, searched_starts=[list(s) for s in result.searched_starts],
    )
    if closed:
        data.update(cycles=result.cycles, cycles_up_to_symmetry=symmetric)
    return data
