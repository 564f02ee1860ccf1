"""`knight verify`: check the whole results store, and with --repair drop what is damaged."""

from __future__ import annotations

from typing import Annotated

import typer

from knight.cli import app
from knight.cli.options import JsonOption, KnightCommand, QuietOption, examples, print_json
from knight.cli.run import StoreOption
from knight.errors import MissingData
from knight.store.location import store_path

__all__ = ["EXIT_DAMAGED", "EXIT_SOUND", "verify"]

EXIT_SOUND = 0
EXIT_DAMAGED = 1


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight verify",
        "knight verify --store /tmp/hw.sqlite --json",
        "knight verify --repair && knight run homework-8",
    ),
)
def verify(
    store: StoreOption = None,
    repair: Annotated[
        bool,
        typer.Option(
            "--repair",
            help=(
                "Drop what is damaged (results, tasks whose key is wrong, records left without their task) and "
                "make lost tables again, so that the next `knight run` computes what they held."
            ),
        ),
    ] = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> int:
    """Check the whole store, and with --repair drop what is damaged.

    Every stored tour is rebuilt from its path and validated (knight moves, no square twice, on the
    board, and its length, fullness, closedness and key as stored), every task marked done has its
    result, every result matches its checksum and its record, every task its key, every row refers to a
    task and a census the store has, and no table is missing. One line per problem names the task and
    its job. Exit status: 0 sound; 1 problems found (with --repair: found and dropped, and lost tables
    made again; run `knight run` again to recompute them); 2 bad input.
    """
    from knight.store import Store

    path = store_path(store)
    if repair and not path.exists():  # opened for writing it would be made, empty, and said sound
        raise MissingData(f"{path} does not exist: nothing to repair; give the store's path with --store")
    with Store(path, read_only=not repair) as opened:
        problems = opened.problems(full=True)
        made = list(opened.made_again)  # opening the store for writing made its lost tables again
        dropped = opened.repair(problems) if repair and problems else 0
    if as_json:
        print_json(
            {
                "store": str(path),
                "problems": [
                    {"task": p.key or None, "census": p.census, "what": p.what, "jobs": list(p.jobs)} for p in problems
                ],
                "repaired": dropped if repair else None,
                "tables_made_again": made if repair else None,
            }
        )
    else:
        for problem in problems:
            typer.echo(str(problem))
        if not problems:
            typer.echo(f"{path}: sound (every stored result checked)")
        elif repair:
            tables = f"made table(s) {', '.join(made)} again (empty), " if made else ""
            typer.echo(
                f"{path}: {len(problems)} problem(s); {tables}dropped {dropped} damaged result(s) and the records "
                "left without their task or census: run `knight run` (or `knight census`) again to compute them"
            )
        else:
            typer.echo(f"{path}: {len(problems)} problem(s); `knight verify --repair` drops what is damaged")
    return EXIT_DAMAGED if problems else EXIT_SOUND
