"""`knight starts`: the existence map of a board — from which squares an open tour starts, and why not elsewhere."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated, TypedDict

import typer

from knight.cli import app
from knight.cli.options import JsonOption, KnightCommand, QuietOption, described_option, examples, print_json

if TYPE_CHECKING:  # the engine is imported where it is used: `knight --help` loads none of it
    from knight.engine import Board
    from knight.engine.starts import StartRecord
    from knight.runner.progress import Reporter

__all__ = [
    "MAX_MAP_SQUARES",
    "MAX_SEARCHED_SQUARES",
    "PROGRESS_AFTER",
    "SYMBOLS",
    "starts",
    "StartsMap",
    "as_dict",
    "describe",
]

#: Boards larger than this many squares are refused: the map decides every square, one by one.
MAX_MAP_SQUARES = 10_000
#: Boards without a closed tour to walk from every start (and not ruled out by theory) search square by square,
#: each search growing with the board: larger ones are refused unless --force. The slowest shape under it,
#: 4 x 625, maps in 20 s on one core; past it, 4 x 800 takes 37 s, 51 x 51 16 s, 11 x 909 over 2 minutes.
MAX_SEARCHED_SQUARES = 2_500
#: A map that has taken this many seconds shows its progress from then on; a quick one shows none.
PROGRESS_AFTER = 1.0
#: One letter per kind of answer in the printed map.
SYMBOLS = {"found": "#", "none": ".", "unknown": "?"}  # knight.engine.starts' FOUND, NONE, UNKNOWN (a test checks)


def _budget_help() -> str:
    from knight.engine.starts import DEFAULT_BUDGET

    return f"Most nodes of the exhaustive search, per square searched (default {DEFAULT_BUDGET:,})."


@app.command(
    cls=KnightCommand, epilog=examples("knight starts 6", "knight starts 3 7 --json", "knight starts 5 --budget 100000")
)
def starts(
    n: Annotated[int, typer.Argument(help="Rows of the board.")],
    m: Annotated[int | None, typer.Argument(help="Columns of the board (default: N, a square board).")] = None,
    budget: Annotated[int | None, described_option(_budget_help)] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help=f"Map a board without a closed tour of more than {MAX_SEARCHED_SQUARES:,} squares (minutes; refused otherwise).",
        ),
    ] = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> int:
    """Print the existence map: from which squares an open tour starts, and why not elsewhere.

    For every square: # a tour was found there, . none exists (with the proof), ? unknown (every method ran out of
    its budget). A map that takes more than a second shows its progress on stderr (a bar on a terminal, plain lines
    otherwise; none with --quiet). Exit status 0, 2 for bad input.
    """
    from knight.engine import Board, InvalidInput
    from knight.engine.starts import DEFAULT_BUDGET, existence_map, searched_one_by_one

    budget = DEFAULT_BUDGET if budget is None else budget
    board = Board(n, n if m is None else m)
    if board.size > MAX_MAP_SQUARES:
        raise InvalidInput(
            f"the existence map decides every square one by one; boards of at most "
            f"{MAX_MAP_SQUARES:,} squares, {board} has {board.size:,} (use `knight tour --method find` "
            "for one start)"
        )
    if board.size > MAX_SEARCHED_SQUARES and not force and searched_one_by_one(board):
        raise InvalidInput(
            f"the map of {board} searches from each of its {board.size:,} squares (no closed tour to walk from every "
            f"start): at most {MAX_SEARCHED_SQUARES:,} squares for such a board; --force maps it anyway (minutes)"
        )
    if isinstance(budget, bool) or budget < 1:
        raise InvalidInput(f"--budget must be a positive number of nodes, got {budget}")
    progress = _Progress(board.size, quiet)
    try:
        records = existence_map(board, budget=budget, progress=progress)
    finally:
        progress.finish()
    if as_json:
        print_json(as_dict(board, records, budget))
    else:
        typer.echo(describe(board, records))
    return 0


class StartsMap(TypedDict):
    """``knight starts --json``'s document (after its version): the board, the budget, the counts, each square."""

    board: list[int]
    budget: int
    starts_with_tour: int
    counts: dict[str, int]
    squares: list[dict[str, object]]


def as_dict(board: Board, records: list[StartRecord], budget: int) -> StartsMap:
    """The map as JSON-ready data: the board, the counts and one record per square, row by row."""
    from knight.engine.starts import FOUND

    return {
        "board": [board.n, board.m],
        "budget": budget,
        "starts_with_tour": sum(record.kind == FOUND for record in records),
        "counts": {kind: sum(record.kind == kind for record in records) for kind in SYMBOLS},
        "squares": [record.to_dict() for record in records],
    }


def describe(board: Board, records: list[StartRecord]) -> str:
    """The map as # . ?, the number of starts with a tour, and how each answer was reached."""
    from knight.engine.starts import EXHAUSTIVE, FOUND, NONE

    lines = [f"starting squares of open tours on {board} (# a tour found, . none exists, ? unknown):"]
    for row in range(board.n):
        lines.append(" ".join(SYMBOLS[record.kind] for record in records[row * board.m : (row + 1) * board.m]))
    found = sum(record.kind == FOUND for record in records)
    lines.append(f"{found} of {board.size} starting squares have a tour.")
    groups: dict[tuple[str, str], list[StartRecord]] = {}
    for record in records:  # one line per answer and argument
        groups.setdefault((record.kind, record.method), []).append(record)
    for (kind, method), group in sorted(groups.items()):
        where = _squares(group)
        if kind == FOUND:
            lines.append(f"found, {method}: {where}")
            continue
        nodes = sum(record.nodes for record in group)
        work = f" ({nodes:,} nodes in all)" if nodes else ""
        proof = group[0].proof.replace(str(group[0].square), "each square listed" if len(group) > 1 else "it")
        if method == EXHAUSTIVE:
            proof = "a depth-first search with exact pruning from each tried every path and found no tour"
        lines.append(f"{'no tour' if kind == NONE else 'unknown'}, {method}: {where}{work} — {proof}")
    return "\n".join(lines)


def _squares(group: list[StartRecord]) -> str:
    """``3 squares: (0, 1), (1, 0), (2, 1)``, at most eight listed."""
    listed = ", ".join(str(record.square) for record in group[:8])
    more = ", …" if len(group) > 8 else ""
    return f"{len(group)} square{'s' if len(group) != 1 else ''}: {listed}{more}"


class _Progress:
    """Shows how many of ``total`` squares are decided, once the map has taken :data:`PROGRESS_AFTER` seconds (and
    never when ``quiet``): a quick map prints its answer alone, and loads no progress display."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.total, self.quiet = total, quiet
        self.done, self.began = 0, time.monotonic()
        self.reporter: Reporter | None = None

    def __call__(self, count: int) -> None:
        self.done += count
        if self.reporter is not None:
            self.reporter.advance(count)
        elif not self.quiet and time.monotonic() - self.began >= PROGRESS_AFTER:
            from knight.runner.progress import reporter_for

            self.reporter = reporter_for(noun="squares")
            self.reporter.start(self.total)
            self.reporter.advance(self.done)

    def finish(self) -> None:
        if self.reporter is not None:
            self.reporter.finish()
