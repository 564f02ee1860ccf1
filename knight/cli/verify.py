"""`knight verify`: check the whole results store, and with --repair drop what is damaged."""

from __future__ import annotations

from typing import Annotated

import typer

from knight.cli import app
from knight.cli.options import JsonOption, KnightCommand, QuietOption, examples, print_json
from knight.cli.run import StoreOption
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
                "Drop what is damaged (results, and tasks whose key is wrong) so that the next `knight run` "
                "computes it again."
            ),
        ),
    ] = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> int:
    """Check the whole store, and with --repair drop what is damaged.

    Every stored tour is rebuilt from its path and validated (knight moves, no square twice, on the
    board, and its length, fullness, closedness and key as stored), every task marked done has its
    result, every result matches its checksum, every task its key. One line per problem names the
    task and its job. Exit status: 0 sound; 1 problems found (with --repair: found and dropped, run
    `knight run` again to recompute them); 2 bad input.
    """
    from knight.store import Store

    path = store_path(store)
    with Store(path, read_only=not repair) as opened:
        problems = opened.problems(full=True)
        dropped = opened.repair(problems) if repair and problems else 0
    if as_json:
        print_json(
            {
                "store": str(path),
                "problems": [{"task": p.key or None, "what": p.what, "jobs": list(p.jobs)} for p in problems],
                "repaired": dropped if repair else None,
            }
        )
    else:
        for problem in problems:
            typer.echo(str(problem))
        if not problems:
            typer.echo(f"{path}: sound (every stored result checked)")
        elif repair:
            typer.echo(
                f"{path}: {len(problems)} problem(s); dropped {dropped} damaged result(s): "
                "run `knight run` (or `knight census`) again to compute them"
            )
        else:
            typer.echo(f"{path}: {len(problems)} problem(s); `knight verify --repair` drops what is damaged")
    return EXIT_DAMAGED if problems else EXIT_SOUND
