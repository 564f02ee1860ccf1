"""`knight grade DIR --out DIR2`: check every submission of a class, write a gradebook and feedback (issue 13)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from knight.cli import app, fail
from knight.cli.options import JsonOption, KnightCommand, QuietOption, examples, info, print_json

__all__ = ["EXIT_ALL_READ", "EXIT_SOME_UNREADABLE", "grade"]

EXIT_ALL_READ = 0
EXIT_SOME_UNREADABLE = 1


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight grade submissions --out grades",
        "knight grade examples/submissions --out /tmp/grades --board 8 --start 0 0",
        "knight grade submissions --out grades --rubric rubric.toml --pdf --json",
    ),
)
def grade(
    directory: Annotated[str, typer.Argument(help="The directory of submissions, one file per student.")],
    out: Annotated[str, typer.Option(help="Where to write gradebook.csv and the feedback pages.")],
    board: Annotated[str | None, typer.Option(help="The assigned board, N or NxM.")] = None,
    start: Annotated[tuple[int, int] | None, typer.Option(help="The assigned start square ROW COL, 0-based.")] = None,
    rubric: Annotated[str | None, typer.Option(help="A TOML rubric replacing the default scores.")] = None,
    pdf: Annotated[bool, typer.Option("--pdf", help="Also write each feedback page as PDF.")] = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> int:
    """Grade a class: check every submission, write a gradebook and a feedback page per student.

    Every file directly in DIRECTORY is checked (sub-directories are skipped); OUT/gradebook.csv gets a
    row per file and OUT/STUDENT.html (and .pdf with --pdf) the feedback. Exit status: 0 every file was read; 1 some could not be (their rows say why); 2 bad arguments.
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
        info(quiet, f"skipped sub-directory {name}/ (only files directly in {directory} are graded)")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"cannot create {out}: {error.strerror or error}")
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)  # progress on stderr, on a terminal only (a log file gets no bar)
    with Progress(console=console, disable=quiet or not console.is_terminal) as bar:
        grading = bar.add_task("grading", total=len(files))
        batch = grade_directory(
            source,
            target,
            board=assigned,
            start=(start[0], start[1]) if start else None,
            rubric=scores,
            pdf=pdf,
            files=files,
            on_done=lambda row: bar.advance(grading),
        )
    full = sum(row.result is not None and row.result.verdict == "full" for row in batch.rows)
    copied = sum(bool(row.copied_from) for row in batch.rows)
    if as_json:
        print_json(
            {
                "directory": str(source),
                "out": str(target),
                "gradebook": str(target / "gradebook.csv"),
                "submissions": len(batch.rows),
                "full_tours": full,
                "unreadable": batch.unreadable,
                "copied": copied,
                "skipped": list(skipped),
            }
        )
        return EXIT_SOME_UNREADABLE if batch.unreadable else EXIT_ALL_READ
    typer.echo(
        f"{len(batch.rows)} submissions: {full} full tour{'' if full == 1 else 's'}, {batch.unreadable} unreadable, "
        f"{copied} flagged as copied; wrote {target / 'gradebook.csv'} and {len(batch.rows)} feedback pages"
    )
    return EXIT_SOME_UNREADABLE if batch.unreadable else EXIT_ALL_READ
