"""`knight site`: the class's static site, with the answer key only from the course's key_public_from on."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from knight.cli import app
from knight.cli.options import (
    Choice,
    JsonOption,
    KnightCommand,
    QuietOption,
    choice_option,
    examples,
    info,
    print_json,
)
from knight.cli.report import check_out, papers, report_meta

__all__ = ["site"]


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight site --out _site",
        "knight site --out _site --course course.toml --today 2026-11-16",
        "knight site --out /tmp/site --no-pdf --json",
    ),
)
def site(
    out: Annotated[Path, typer.Option(help="Directory for the site (what GitHub Pages publishes).")],
    course: Annotated[
        Path, typer.Option(help="The course file: title, class, due date, time zone, key_public_from.")
    ] = Path("course.toml"),
    today: Annotated[
        str | None, typer.Option(help="Build as on this day, YYYY-MM-DD (default: today in the course's time zone).")
    ] = None,
    store: Annotated[
        Path | None, typer.Option(help="Results store for the key (default $KNIGHT_STORE or var/knight.sqlite).")
    ] = None,
    docs: Annotated[
        Path, typer.Option(help="The built docs (make docs), copied to docs/ when the folder exists.")
    ] = Path("docs/_build/html"),
    paper: Annotated[str, choice_option(Choice("--paper", "paper", papers), "Page size of the PDFs.")] = "a4",
    pdf: Annotated[bool, typer.Option("--pdf/--no-pdf", help="Also write the PDFs.")] = True,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Build the class's static site: an index, the handout, the self-check page and, from the course's
    key_public_from on (that day included), the answer key.

    Before that day nothing of the key is in OUT: no file, no link, no figure (a key an earlier build left
    there is removed), and the store is not opened. A bad course file or date: one line, exit status 2.
    """
    from knight.report.course import load_course, parse_day
    from knight.report.handout import handout_context
    from knight.report.render import render_html
    from knight.report.site import build_site

    checked = load_course(course)
    day = parse_day(today) if today is not None else checked.today()
    check_out(out)
    meta = report_meta([])
    shown = checked.to_context()

    def key() -> str:
        from knight.report.context import StoreData, build_context
        from knight.report.data import load_store
        from knight.store import store_path

        data = StoreData(*load_store(store_path(store)))
        return render_html({**build_context(data), "meta": meta, "course": shown}, edition="key", paper=paper)

    handout = render_html({**handout_context(), "meta": meta, "course": shown}, edition="handout", paper=paper)
    if not docs.is_dir():
        info(quiet, f"knight: no built docs in {docs} (`make docs` builds them): the site goes without")
    built = build_site(out, checked, day, handout=handout, key=key, pdf=pdf, docs=docs)
    if as_json:
        print_json({"out": str(out), "today": day.isoformat(), "key": built.key, "files": built.files})
        return
    when = "included" if built.key else f"not included until {checked.key_public_from}"
    typer.echo(f"wrote the site to {out} ({len(built.files)} files; the answer key {when})")
