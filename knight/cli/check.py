"""`knight check FILE`: read one student's submission and say what it is (issue 13)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from knight.cli import EXIT_BAD_INPUT, app, fail
from knight.cli.assignment import BoardOption, ClosedOption, CourseOption, StartOption, exercise
from knight.cli.options import Choice, JsonOption, KnightCommand, QuietOption, choice_option, examples, print_json

if TYPE_CHECKING:  # imported where used: `knight --help` loads no grading
    from knight.engine import Board
    from knight.grading.formats import Submission

__all__ = ["EXIT_FULL_TOUR", "EXIT_NOT_FULL", "check", "describe"]

EXIT_FULL_TOUR = 0
EXIT_NOT_FULL = 1


def _formats() -> tuple[str, ...]:
    from knight.grading.formats import FORMATS

    return FORMATS


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight check alice.txt",
        "knight check alice.txt --course course.toml --json",
        "knight check - --board 8 --start 0,0 --format pairs < tour.txt",
    ),
)
def check(
    file: Annotated[str, typer.Argument(help="The submission: a text file, or - for standard input.")],
    board: BoardOption = None,
    start: StartOption = None,
    closed: ClosedOption = False,
    course: CourseOption = None,
    format: Annotated[  # noqa: A002 - the option's name
        str | None,
        choice_option(Choice("--format", "format", _formats), "Force the format (default: detected).", "--format"),
    ] = None,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> int:
    """Check one student's submission and say what it is.

    The verdict, the first illegal step, repeated and unvisited squares, the lowest-degree rule, which
    of our methods reproduces it, and whether it is the assigned exercise. FILE must be a regular file (a
    FIFO or a device is refused at once, never waited on) of at most 2 MB; nothing it declares (a board's
    size, a number's digits, JSON's nesting) is taken before it is checked against the bounds. FILE - reads
    standard input, bounded the same: what is past 2 MB is not read.

    The exit status is the verdict on the assignment: 0 a full tour (of the assigned board, from the assigned
    start, closed with --closed, when they are given); 1 a readable tour that is anything else (a partial tour,
    not a tour, another board or start: one line says which); 2 unreadable, or a bad --board, --start or
    --course: one line says why (--json prints the same fields, verdict "unreadable", on standard output).
    """
    from knight.grading.check import check as check_submission
    from knight.grading.check import unreadable_report
    from knight.grading.files import display_name
    from knight.grading.formats import Unreadable

    assigned = exercise(board, start, closed, course)
    try:
        submission = _read(file, assigned.board, format)
    except Unreadable as error:
        if as_json:
            print_json(unreadable_report(str(error), format))
        fail(f"{'standard input' if file == '-' else display_name(file)}: {error}", EXIT_BAD_INPUT)
    result = check_submission(submission, board=assigned.board, start=assigned.start, closed=assigned.closed)
    if as_json:
        print_json(result.to_dict())
    else:
        typer.echo(describe(result))
    return EXIT_FULL_TOUR if result.passed else EXIT_NOT_FULL


def _read(file: str, board: Board | None, fmt: str | None) -> Submission:
    """The submission in ``file``, or on standard input for ``-``: read to the same bound as a file and one byte
    more, so a pipe that never ends is not read past it."""
    from knight.grading.formats import MAX_BYTES, Unreadable, parse_bytes, read_file

    if file != "-":
        return read_file(file, board=board, fmt=fmt)
    data = sys.stdin.buffer.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise Unreadable(f"more than {MAX_BYTES // 1_000_000} MB came; pipe in the tour alone (knight check -)")
    return parse_bytes(data, board=board, fmt=fmt)


def describe(result) -> str:  # type: ignore[no-untyped-def]
    """The findings on one screen."""
    s = result.submission
    lines = [
        f"Format: {s.format}{' (' + '; '.join(s.notes) + ')' if s.notes else ''}; board {result.board}; "
        f"start {result.start}.",
        f"Verdict: {result.summary()}.",
    ]
    if result.errors:
        lines.append(f"First error: {result.errors[0]}.")
        lines += [f"  also: {error}" for error in result.errors[1:6]]
        if len(result.errors) > 6:
            lines.append(f"  … and {len(result.errors) - 6} more errors")
    for square, numbers in result.repeated.items():
        lines.append(f"Repeated: {result.name(square)} holds numbers {' and '.join(map(str, numbers))}.")
    if result.unvisited:
        names = " ".join(map(result.name, result.unvisited[:32]))
        more = f" … ({len(result.unvisited)} in all)" if len(result.unvisited) > 32 else ""
        lines.append(f"Never visited: {names}{more}.")
    if result.rule_followed is not None:
        lines.append(f"Rule (lowest degree at every step): {result.rule_sentence()}.")
    if result.reproduced_by:
        lines.append(f"Reproduced by: {result.reproduced_by}.")
    elif result.reproduce_note:
        lines.append(f"Reproduced by: {result.reproduce_note}.")
    if result.assigned is not None or result.closed_assigned:
        lines.append(f"Exercise: {result.exercise_note()}.")
    lines.append(result.advice())
    return "\n".join(lines)
