"""The assigned exercise of `knight check` and `knight grade`: --board, --start, --closed, or a course file's
``[assignment]`` under them (what the command line gives wins)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from knight.cli import fail
from knight.cli.squares import parse_square, square_option

if TYPE_CHECKING:  # imported where used: `knight --help` loads no engine
    from knight.engine import Board

__all__ = ["BoardOption", "ClosedOption", "CourseOption", "StartOption", "Exercise", "exercise"]

BoardOption = Annotated[
    str | None, typer.Option(help="The assigned board, N or NxM (also used to read pairs and chess squares).")
]
StartOption = Annotated[str | None, square_option("The assigned start square")]
ClosedOption = Annotated[bool, typer.Option("--closed", help="A closed tour is assigned.")]
CourseOption = Annotated[
    str | None,
    typer.Option(
        help="Take the assignment (board, start, closed) from this course file's [assignment]; "
        "--board, --start and --closed override it."
    ),
]


@dataclass(frozen=True)
class Exercise:
    """The assigned exercise: each part None (or False) when not assigned."""

    board: Board | None
    start: tuple[int, int] | None
    closed: bool


def exercise(board: str | None, start: str | None, closed: bool, course: str | None) -> Exercise:
    """The exercise the options give; a bad value, or a course file without an assignment, is one line (exit 2)."""
    from knight.engine import Board
    from knight.grading.check import assigned_start
    from knight.grading.formats import parse_board

    assigned = parse_board(board) if board else None
    if course is not None:
        from knight.report.course import load_course

        given = load_course(Path(course)).assignment
        if given is None:
            fail(f"{course}: the course file has no [assignment]; add one (board, start) or give --board and --start")
        assigned = assigned or Board(*given.board)
        if start is None and given.start is not None:
            start = "{},{}".format(*given.start)
        closed = closed or given.closed
    square = None if start is None else parse_square(start, "--start", None if assigned is None else assigned.n)
    return Exercise(assigned, assigned_start(square, assigned), closed)
