"""`knight site`: the class's static site, with the answer key only from the course's key_public_from on."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from pathlib import Path
from typing import Annotated

import typer

from knight.cli import app, fail
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

__all__ = ["refuse_published_by_accident", "site"]

#: The file every build of a site writes first: a folder that holds files but not this one is no site of knight's.
SITE_MARK = "knights-tour-handout.html"


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight site --out site",
        "knight site --out site --course course.toml --today 2026-11-16",
        "knight site --out /tmp/site --no-pdf --json",
    ),
)
def site(
    out: Annotated[
        str,
        typer.Option(
            help="Directory for the site (what GitHub Pages publishes): git-ignored if inside a clone, never the "
            "current directory or one holding the sources or the built docs."
        ),
    ],
    course: Annotated[
        Path, typer.Option(help="The course file: title, class, due date, time zone, key_public_from.")
    ] = Path("course.toml"),
    today: Annotated[
        str | None, typer.Option(help="Build as on this day, YYYY-MM-DD (default: today in the course's time zone).")
    ] = None,
    store: Annotated[
        Path | None,
        typer.Option(
            help="Results store for the key (default $KNIGHT_STORE; else var/knight.sqlite in a clone of knight, else knight.sqlite in the user's data folder)."
        ),
    ] = None,
    docs: Annotated[
        Path, typer.Option(help="The built docs (make docs), copied to docs/ when the folder exists.")
    ] = Path("docs/_build/html"),
    paper: Annotated[str, choice_option(Choice("--paper", "paper", papers), "Page size of the PDFs.")] = "a4",
    pdf: Annotated[bool, typer.Option("--pdf/--no-pdf", help="Also write the PDFs.")] = True,
    allow_incomplete: Annotated[
        bool,
        typer.Option(
            "--allow-incomplete",
            help="Publish a key that leaves questions unanswered (the store lacks their jobs); the index says which.",
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Write OUT even inside a git work tree where it is not ignored, or into a folder that holds other "
            "files than a site.",
        ),
    ] = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Build the class's static site: an index, the handout, the self-check page, the docs and, from the
    course's key_public_from on (that day included), the answer key.

    Before that day nothing of the key is in OUT: no file, no link, no figure (a key an earlier build left
    there is removed; the docs' pages that state figures the worksheet asks for are held back until then),
    and the store is not opened. From that day on a key with unanswered questions (the store lacks their jobs'
    results) is refused, naming the jobs to run, unless --allow-incomplete. OUT is refused when it is empty,
    the current directory or holds it, holds or is inside the sources or the built docs, and, without --force,
    when it is inside a git work tree and not git-ignored (a `git add -A` would commit the key) or is a folder
    of other files. Bad input, a store that cannot be read or a disk that cannot be written: one line, exit
    status 2.
    """
    from knight.report.course import load_course, parse_day
    from knight.report.handout import handout_context
    from knight.report.render import render_html
    from knight.report.site import Key, build_site, key_gaps

    for option, path in (("--course", course), ("--docs", docs), ("--store", store)):
        if "\x00" in str(path or ""):
            fail(f"{option} {str(path)!r} holds a character no path may hold; give the path")
    target = _checked_out(out, docs, force=force)
    if docs.is_dir() and not (docs / "index.html").is_file():  # not Sphinx's build: a folder published whole
        fail(f"--docs {docs} holds no index.html, so it is not the built docs; give docs/_build/html (`make docs`)")
    checked = load_course(course)
    day = parse_day(today) if today is not None else checked.today()
    check_out(target)
    meta = report_meta([])
    shown = checked.to_context()

    def key() -> Key:
        from knight.errors import MissingData
        from knight.report.context import StoreData, build_context
        from knight.report.data import load_store
        from knight.store import store_path

        path = store_path(store)
        context = build_context(StoreData(*load_store(path)))
        gaps = key_gaps(context)
        if gaps and not allow_incomplete:
            jobs = list(dict.fromkeys(job for gap in gaps for job in gap.jobs))
            files = " ".join(f"jobs/{job}.toml" for job in jobs)
            raise MissingData(
                f"the store {path} lacks results for {len(gaps)} of the key's questions "
                f"({', '.join(gap.label for gap in gaps)}), of the job{'s' if len(jobs) > 1 else ''} "
                f"{', '.join(jobs)}: run `knight run {files}`, or publish the key with its gaps marked "
                "with --allow-incomplete"
            )
        html = render_html({**context, "meta": meta, "course": shown}, edition="key", paper=paper)
        return Key(html, gaps)

    handout = render_html({**handout_context(), "meta": meta, "course": shown}, edition="handout", paper=paper)
    if not docs.is_dir():
        info(quiet, f"knight: no built docs in {docs} (`make docs` builds them): the site goes without")
    built = build_site(target, checked, day, handout=handout, key=key, pdf=pdf, docs=docs)
    if as_json:
        print_json({"out": str(target), "today": day.isoformat(), "key": built.key, "files": built.files})
        return
    when = "included" if built.key else f"not included until {checked.key_public_from}"
    typer.echo(f"wrote the site to {target} ({len(built.files)} files; the answer key {when})")


def _checked_out(out: str, docs: Path, *, force: bool) -> Path:
    """``--out`` as a path, or one line on why the site may not be written there."""
    if not out.strip():
        fail("--out is empty; give the folder to write the site to (e.g. --out site)")
    target = Path(out)
    try:
        where = target.resolve()
        where.stat()
    except ValueError:  # a NUL character
        fail(f"--out {out!r} holds a character no path may hold; give the folder to write the site to")
    except OSError as error:
        if error.errno not in (errno.ENOENT, errno.ENOTDIR):  # a name too long, a loop of links, ...
            fail(f"--out {out}: {(error.strerror or str(error)).lower()}; give another folder")
    here = Path.cwd().resolve()
    if where == here or where in here.parents:
        fail(
            f"--out {out} is the current directory{'' if where == here else ' or holds it'}: the site would be "
            "written among your files; give a folder of its own (e.g. --out site)"
        )
    for name, folder, inside in _sources(docs):
        if where == folder or where in folder.parents or (inside and folder in where.parents):
            fail(f"--out {out} is, holds or is inside {name} {folder}; give a folder of its own (e.g. --out site)")
    if not force:
        refuse_published_by_accident(target, "the site, the answer key with it")
        if where.is_dir() and not (where / SITE_MARK).is_file():
            try:
                with os.scandir(where) as listed:
                    holds = next(listed, None)
            except OSError:
                holds = None  # check_out says what is wrong with it
            if holds is not None:
                fail(
                    f"--out {out} holds other files than a site knight wrote ({holds.name}, ...), which the site "
                    "would overwrite or remove; give an empty or new folder, or --force"
                )
    return target


def _sources(docs: Path) -> list[tuple[str, Path, bool]]:
    """The folders the site must never be written into, hold or (third: True) sit in: the built docs it copies
    and their sources, the knight package and the clone it was installed from (its docs and .git; the clone's
    own root only never be nor be held: a git-ignored folder in it is fine)."""
    import knight

    built = docs.resolve()
    found = [("the built docs", built, True)]
    if "_build" in built.parts:  # Sphinx's build folder sits in the docs' sources
        found.append(("the docs' sources", Path(*built.parts[: built.parts.index("_build")]), True))
    package = Path(knight.__file__).resolve().parent
    found.append(("the knight package", package, True))
    checkout = package.parent
    if (checkout / "pyproject.toml").is_file():
        found += [("the docs' sources", checkout / "docs", True), ("the clone's .git", checkout / ".git", True)]
        found.append(("the clone", checkout, False))
    return found


def refuse_published_by_accident(out: Path, what: str) -> None:
    """Stop with one line when ``out`` is inside a git work tree and not git-ignored (a ``git add -A`` would
    commit ``what``), or when that cannot be told (git is not installed, or cannot read the work tree).

    The work tree is found by its ``.git`` (a folder, or a file for a worktree or submodule) in ``out`` or a
    folder above it; outside one there is nothing to check, with or without git."""
    where = out.resolve()
    top = next((folder for folder in (where, *where.parents) if _exists(folder / ".git")), None)
    if top is None:
        return
    advice = f"add it to {top / '.gitignore'}, write outside the clone, or give --force"
    git = shutil.which("git")
    if git is None:
        fail(
            f"--out {out} is inside the git work tree {top} and git is not installed to tell whether it is ignored; {advice}"
        )
    relative = where.relative_to(top).as_posix()
    try:
        done = subprocess.run(
            [git, "-C", str(top), "check-ignore", "-q", "--", f"{relative}/"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError) as error:
        fail(
            f"--out {out} is inside the git work tree {top} and git could not tell whether it is ignored ({error}); {advice}"
        )
    if done.returncode == 1:
        fail(
            f"--out {out} is inside the git work tree {top} and not git-ignored: a `git add -A` would commit {what}; {advice}"
        )
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["no reason given"])[0]
        fail(
            f"--out {out} is inside the git work tree {top} and git could not tell whether it is ignored ({said}); {advice}"
        )


def _exists(path: Path) -> bool:
    """Whether ``path`` is there; False too where the system cannot say (a name too long, say)."""
    try:
        return path.exists()
    except OSError:
        return False
