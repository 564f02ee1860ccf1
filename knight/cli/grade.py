"""`knight grade DIR --out DIR2`: check every submission of a class, write a gradebook and feedback (issues 13, 26)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from knight.cli import app, fail
from knight.cli.assignment import BoardOption, ClosedOption, CourseOption, Exercise, StartOption, exercise
from knight.cli.options import JsonOption, KnightCommand, QuietOption, examples, info, print_json

if TYPE_CHECKING:  # imported where used: `knight --help` loads no grading
    from knight.grading.files import Entry
    from knight.grading.gradebook import Batch, Row

    Rubric = dict[str, float | bool]

__all__ = ["EXIT_ALL_READ", "EXIT_SOME_UNREADABLE", "grade"]

EXIT_ALL_READ = 0
EXIT_SOME_UNREADABLE = 1


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight grade submissions --out grades",
        "knight grade examples/submissions --out /tmp/grades --course course.toml",
        "knight grade submissions --out grades --rubric rubric.toml --pdf --json",
    ),
)
def grade(
    directory: Annotated[str, typer.Argument(help="The directory of submissions, one file per student.")],
    out: Annotated[str, typer.Option(help="Where to write gradebook.csv and the feedback pages.")],
    board: BoardOption = None,
    start: StartOption = None,
    closed: ClosedOption = False,
    course: CourseOption = None,
    rubric: Annotated[str | None, typer.Option(help="A TOML rubric replacing the default scores.")] = None,
    pdf: Annotated[bool, typer.Option("--pdf", help="Also write each feedback page as PDF.")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Write OUT even inside a git work tree where it is not git-ignored.")
    ] = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> int:
    """Grade a class: check every submission, write a gradebook and a feedback page per student.

    Every entry directly in DIRECTORY gets a row of OUT/gradebook.csv (hidden ones are left out): a regular
    file, or a link to one inside DIRECTORY, is read and checked, and OUT/STUDENT.html (and .pdf with
    --pdf) gets its feedback; anything else is never opened and its row says why it was skipped (a
    sub-directory, a FIFO, a socket, a device, a link to nothing or out of DIRECTORY). A cell a spreadsheet
    would run as a formula starts with a quote. OUT is locked while grade writes it: a second grader into
    the same OUT stops. Exit status: 0 every entry was graded; 1 some file could not be read or some entry
    was skipped (their rows say why); 2 bad arguments (no such directory, an empty or unusable --out, OUT
    in use by another grader, OUT inside a git work tree and not git-ignored, where a `git add -A` would commit
    the students' grades, unless --force; a bad --board, --start or rubric) or a disk that cannot be written (full,
    read-only), said in one line; 130 interrupted (the gradebook keeps the rows done).
    """
    from knight.grading.gradebook import load_rubric

    source, target = _folders(directory, out, force)
    assigned = exercise(board, start, closed, course)
    scores = load_rubric(rubric)
    listing = _listing(source, target, quiet)
    batch = _grade_with_progress(source, target, listing, assigned, scores, pdf, quiet)
    read = [row for row in batch.rows if not row.skipped]
    status = EXIT_SOME_UNREADABLE if batch.unreadable or batch.skipped else EXIT_ALL_READ
    _say(source, target, batch, read, as_json)
    return status


def _folders(directory: str, out: str, force: bool) -> tuple[Path, Path]:
    """The submissions' folder and OUT, each refused in one line when unusable."""
    from knight.grading.files import display_name

    if not out.strip():
        fail("--out is empty; give the folder to write the gradebook and the feedback pages to")
    source = Path(directory)
    if not source.is_dir():
        fail(f"{display_name(directory)} is not a directory; give the directory of submissions")
    target = Path(out)
    if target.resolve() == source.resolve():
        fail("--out must not be the submissions' directory; give another directory")
    if not force:
        from knight.cli.site import refuse_published_by_accident

        refuse_published_by_accident(target, "the students' grades")
    return source, target


def _listing(source: Path, target: Path, quiet: bool) -> list[Entry]:
    """The folder's entries (OUT left out), each one skipped said on stderr."""
    from knight.grading.files import display_name, entries

    try:
        listing = entries(source, exclude=target)
    except OSError as error:
        fail(
            f"cannot read the directory {display_name(str(source))}: {(error.strerror or str(error)).lower()}; "
            "check its permissions"
        )
    for entry in listing:
        if entry.skipped:
            info(quiet, f"skipped {entry.name}: {entry.skipped}")
    return listing


def _grade_with_progress(
    source: Path, target: Path, listing: list[Entry], assigned: Exercise, scores: Rubric, pdf: bool, quiet: bool
) -> Batch:
    """The class graded with a progress bar on a terminal; Ctrl-C says how far the gradebook got."""
    from rich.console import Console
    from rich.progress import Progress

    from knight.grading.files import display_name
    from knight.grading.gradebook import grade_directory, interrupted_note

    console = Console(stderr=True)  # progress on stderr, on a terminal only (a log file gets no bar)
    done: list[object] = []

    def graded(row: object) -> None:
        done.append(row)
        bar.advance(grading)

    with Progress(console=console, disable=quiet or not console.is_terminal) as bar:
        grading = bar.add_task("grading", total=len(listing))
        try:
            return grade_directory(
                source,
                target,
                board=assigned.board,
                start=assigned.start,
                closed=assigned.closed,
                rubric=scores,
                pdf=pdf,
                listing=listing,
                on_done=graded,
            )
        except KeyboardInterrupt:  # the gradebook was written with the rows done; say it is not whole
            typer.echo(
                f"knight: {display_name(str(target / 'gradebook.csv'))}: {interrupted_note(len(done), len(listing))}",
                err=True,
            )
            raise


def _say(source: Path, target: Path, batch: Batch, read: list[Row], as_json: bool) -> None:
    """What was graded: one JSON document, or one line."""
    from knight.grading.files import display_name

    full = sum(row.result is not None and row.result.verdict == "full" for row in read)
    copied = sum(row.copied_count > 0 for row in read)
    review = sum(bool(row.review()) for row in read)
    if as_json:
        print_json(
            {
                "directory": str(source),
                "out": str(target),
                "gradebook": str(target / "gradebook.csv"),
                "submissions": len(read),
                "full_tours": full,
                "unreadable": batch.unreadable,
                "copied": copied,
                "to_review": review,
                "skipped": list(batch.skipped),
            }
        )
        return
    typer.echo(
        f"{len(read)} submissions: {full} full tour{'' if full == 1 else 's'}, {batch.unreadable} unreadable, "
        f"{copied} flagged as copied, {review} to review, {len(batch.skipped)} other entries skipped; wrote "
        f"{display_name(str(target / 'gradebook.csv'))} "
        f"and {len(read)} feedback pages"
    )
