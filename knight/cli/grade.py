"""`knight grade DIR --out DIR2`: check every submission of a class, write a gradebook and feedback (issue 13)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from knight.cli import app, fail

__all__ = ["EXIT_ALL_READ", "EXIT_SOME_UNREADABLE", "grade"]

EXIT_ALL_READ = 0
EXIT_SOME_UNREADABLE = 1


@app.command()
def grade(
    directory: Annotated[str, typer.Argument(help="The directory of submissions, one file per student.")],
    out: Annotated[str, typer.Option(help="Where to write gradebook.csv and the feedback pages.")],
    board: Annotated[str | None, typer.Option(help="The assigned board, N or NxM.")] = None,
    start: Annotated[tuple[int, int] | None, typer.Option(help="The assigned start square ROW COL, 0-based.")] = None,
    rubric: Annotated[str | None, typer.Option(help="A TOML rubric replacing the default scores.")] = None,
    pdf: Annotated[bool, typer.Option("--pdf", help="Also write each feedback page as PDF.")] = False,
) -> int:
    """Check every file directly in DIRECTORY (sub-directories are skipped) and write OUT/gradebook.csv and
    one feedback page per student (OUT/<student>.html, and .pdf with --pdf).

    Exit status: 0 every file was read; 1 some could not be (their rows say why); 2 bad arguments.
    """
    from knight.grading.formats import parse_board
    from knight.grading.gradebook import grade_directory, load_rubric, submission_files

    source = Path(directory)
    if not source.is_dir():
        fail(f"{directory} is not a directory; give the directory of submissions")
    target = Path(out)
    if target.resolve() == source.resolve():
        fail("--out must not be the submissions' directory; give another directory")
    assigned = parse_board(board) if board else None
    scores = load_rubric(rubric)
    files, skipped = submission_files(source)
    for name in skipped:
        typer.echo(f"skipped sub-directory {name}/ (only files directly in {directory} are graded)", err=True)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"cannot create {out}: {error.strerror or error}")
    with typer.progressbar(length=len(files), label="grading", file=sys.stderr) as bar:
        batch = grade_directory(
            source,
            target,
            board=assigned,
            start=(start[0], start[1]) if start else None,
            rubric=scores,
            pdf=pdf,
            files=files,
            on_done=lambda row: bar.update(1),
        )
    full = sum(row.result is not None and row.result.verdict == "full" for row in batch.rows)
    copied = sum(bool(row.copied_from) for row in batch.rows)
    typer.echo(
        f"{len(batch.rows)} submissions: {full} full tour{'' if full == 1 else 's'}, {batch.unreadable} unreadable, "
        f"{copied} flagged as copied; wrote {target / 'gradebook.csv'} and {len(batch.rows)} feedback pages"
    )
    return EXIT_SOME_UNREADABLE if batch.unreadable else EXIT_ALL_READ
