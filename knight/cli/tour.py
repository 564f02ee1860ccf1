"""`knight tour`: one method from one start square, printed the way Homework #8 asks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from knight.cli import app
from knight.cli.options import (
    Choice,
    JsonOption,
    KnightCommand,
    QuietOption,
    choice_option,
    described_option,
    examples,
    print_json_chunks,
)
from knight.cli.squares import parse_square, parse_squares, square_option

if TYPE_CHECKING:  # the engine is imported where it is used: `knight --help` loads none of it
    from collections.abc import Mapping

    import numpy as np

    from knight.engine import Board, Method, Tour
    from knight.engine.parameters import Params
    from knight.engine.theory import Verdict

__all__ = [
    "EXIT_FULL_TOUR",
    "EXIT_NO_FULL_TOUR",
    "option_help",
    "parameter_choice",
    "tour",
    "format_array",
    "describe",
    "theory",
]

EXIT_FULL_TOUR = 0
EXIT_NO_FULL_TOUR = 1


def _methods() -> Mapping[str, Method]:
    """The registry of methods, imported when first asked for."""
    from knight.engine.methods import METHODS

    return METHODS


def option_help(name: str) -> str:
    """The help of the option for parameter ``name``: its description by each method that takes it,
    with the choices as registered now (e.g. ``warnsdorff: tie-break: first, random, ... (default first).``)."""
    methods = _methods()
    return (
        "; ".join(f"{m.name}: {m.parameters[name].describe()}" for m in methods.values() if name in m.parameters) + "."
    )


def parameter_choice(name: str) -> Choice:
    """The values of parameter ``name`` (``tie``, ``order``) over every method that takes it, read from the
    methods' registries each time (a tie-break registered after import is one)."""

    def names() -> list[str]:
        found = (m.parameters[name] for m in _methods().values() if name in m.parameters)
        return list(dict.fromkeys(value for parameter in found for value in parameter.choice_names()))

    def noun() -> str:
        return str(next(m.parameters[name].noun for m in _methods().values() if name in m.parameters))

    return Choice(f"--{name}", noun, names)


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight tour 8 --start 0,0",
        "knight tour 8 --start d5 --tie random --seed 7 --json",
        "knight tour 6 --method backtrack --closed",
    ),
)
def tour(
    n: Annotated[int, typer.Argument(help="Rows of the board.")],
    m: Annotated[int | None, typer.Argument(help="Columns of the board (default: N, a square board).")] = None,
    start: Annotated[str, square_option("The start square")] = "0,0",
    method: Annotated[
        str, choice_option(Choice("--method", "method", _methods), "The method that builds the tour.")
    ] = "warnsdorff",
    # The parameters' help is the methods' own, written when the help is shown (a tie-break registered later too).
    tie: Annotated[str | None, choice_option(parameter_choice("tie"), lambda: option_help("tie"))] = None,
    seed: Annotated[int | None, described_option(lambda: option_help("seed"))] = None,
    closed: Annotated[bool, described_option(lambda: option_help("closed"), "--closed")] = False,
    order: Annotated[str | None, choice_option(parameter_choice("order"), lambda: option_help("order"))] = None,
    budget: Annotated[int | None, described_option(lambda: option_help("budget"))] = None,
    remove: Annotated[
        list[str] | None, square_option("backtrack: take a square off the board (repeatable: --remove 0,0 --remove g1)")
    ] = None,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> int:
    """Find a tour with one method from one start square and print its array.

    Exit status: 0 a full tour was found (closed, with --closed); 1 none was found (the
    partial tour is printed); 2 bad input.
    """
    from knight.engine import Board, find_tour

    board = Board(n, n if m is None else m)
    square = parse_square(start, "--start", board.n, board.m)
    removed = parse_squares(remove, "--remove", board.n, board.m) or None
    given: Params = {
        "tie": tie,
        "seed": seed,
        "closed": closed or None,
        "order": order,
        "budget": budget,
        "removed": removed,
    }
    params: Params = {name: value for name, value in given.items() if value is not None}
    # compiled named (as by default) so that the parameters are read as parameters only
    found = _stuck_tour(board, square, method, params) or find_tour(board, square, method, compiled=None, **params)
    if as_json:
        print_json_chunks(found.json_chunks(), theory=str(theory(found)))  # from the path array, never a list a square
    else:
        typer.echo(describe(found))
    return EXIT_FULL_TOUR if found.success else EXIT_NO_FULL_TOUR


def _stuck_tour(board: Board, start: tuple[int, int], method: str, params: Params) -> Tour | None:
    """On a board of one row or one column the knight has no move at all: the tour is the start square
    alone, whatever the method. Answered at once from a 1 x 2 board (where the method's parameters are
    checked and its work counted the same), not by building the move tables of up to 16,777,216
    squares; None when the shortcut does not apply (another board, removed squares, or a method
    that refuses the small board, which then runs as usual and says why)."""
    import numpy as np

    from knight.engine import Board, InvalidInput, Tour, find_tour

    if min(board.n, board.m) != 1 or board.size <= 2 or "removed" in params or not board.contains(start):
        return None
    try:
        small = find_tour(Board(1, 2), (0, 0), method, compiled=None, **params)
    except InvalidInput:
        return None
    return Tour(
        board,
        np.array([board.index(start)]),
        small.method,
        small.params,
        small.work,
        small.work_unit,
        small.budget_exhausted,
    )


def format_array(numbers: np.ndarray) -> str:
    """The homework array with aligned columns."""
    import numpy as np

    width = len(str(int(numbers.max())))
    # Written digit by digit into one byte array: a 1000 x 1000 array takes ~50 ms, not a second.
    # int32 (a board has at most 16,777,216 squares) and one byte per digit: 16M squares take ~150 MB, not 500.
    values = np.asarray(numbers, dtype=np.int32)
    cells = np.full(values.shape + (width + 1,), ord(" "), dtype=np.uint8)
    cells[:, -1, -1] = ord("\n")
    rest = values.copy()
    for place in range(width - 1, -1, -1):
        digits = (rest % 10).astype(np.uint8)
        digits += ord("0")
        if place != width - 1:
            digits[values < 10 ** (width - 1 - place)] = ord(" ")
        cells[:, :, place] = digits
        rest //= 10
    return cells.tobytes().decode("ascii")[:-1]


def describe(found: Tour) -> str:
    """The array, then what the tour is: full or partial, open or closed, and the work done."""
    params = ", ".join(f"{name} {value}" for name, value in found.params.items() if name != "verdict")
    title = f"{found.method}{f' ({params})' if params else ''} on {found.board} from {found.start}"
    work = f"{found.work:,} {found.work_unit}"
    wanted = "closed tour" if found.params.get("closed") else "full tour"
    squares = found.board.size - len(found.removed)
    less = f" (the board less {', '.join(map(str, found.removed))})" if found.removed else ""
    if found.success:
        verdict = f"Full tour, {'closed' if found.closed else 'open'}: {found.length} squares{less}; work {work}."
    else:
        verdict = (
            f"Failed to find a {wanted}: the partial tour above visits {found.length} of "
            f"{squares} squares{less}; work {work}."
        )
        if found.method == "backtrack":
            verdict += (
                " The node budget ran out before the search ended."
                if found.budget_exhausted
                else " The search tried every path: no such tour starts here."
            )
        if "verdict" in found.params:  # method find: the proof that none exists, or what ran out
            kind, _, why = str(found.params["verdict"]).partition(": ")
            verdict += f"\n{'No tour starts here' if kind == 'none' else 'Unknown'}: {why}."
        else:
            verdict += f"\nTheory: {theory(found)}."
    return f"{title}\n{format_array(found.array())}\n{verdict}"


def theory(found: Tour) -> Verdict:
    """What theory says of the tour that was asked for: a closed tour of the board, or an open one from the start."""
    from knight.engine.theory import closed_tour_verdict, open_tour_verdict

    if found.params.get("closed"):
        return closed_tour_verdict(found.board, found.removed)
    return open_tour_verdict(found.board, found.start, found.removed)
