"""`knight report`: the homework write-up, in HTML and PDF, from the results store."""

from __future__ import annotations

import datetime
import hashlib
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypedDict

import typer

from knight.cli import app, fail
from knight.cli.options import Choice, JsonOption, KnightCommand, QuietOption, choice_option, examples, print_json

if TYPE_CHECKING:  # imported where used: `knight --help` loads no report
    from knight.report.course import CourseContext

__all__ = ["DEFAULT_OUT", "FILE_NAMES", "JobHash", "Meta", "report", "check_out", "report_meta", "papers"]

DEFAULT_OUT = Path("reports/out")
FILE_NAMES = {"key": "knights-tour", "handout": "knights-tour-handout", "scheme": "knights-tour-scheme"}


class JobHash(TypedDict):
    """A job file the report shows, named in its footer with its hash."""

    name: str
    hash: str


class Meta(TypedDict):
    """The editions' footer (the templates' ``meta``): what made them and when."""

    version: str
    commit: str
    date: str
    jobs: list[JobHash]


def _editions() -> tuple[str, ...]:
    from knight.report.render import EDITIONS

    return EDITIONS


def papers() -> list[str]:
    """The page sizes the editions print on (--paper)."""
    from knight.report.render import PAPERS

    return list(PAPERS)


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight report",
        "knight report --edition handout --paper letter --no-pdf",
        "knight report --job homework-8 --out /tmp/report --json",
    ),
)
def report(
    edition: Annotated[
        list[str],
        choice_option(
            Choice("--edition", "edition", _editions),
            "key (answers, with the marking scheme beside it), handout (questions only) or scheme (the marking "
            "scheme alone); repeatable.",
        ),
    ] = ["key"],
    store: Annotated[
        Path | None,
        typer.Option(
            help="Results store (default $KNIGHT_STORE; else var/knight.sqlite in a clone of knight, else knight.sqlite in the user's data folder)."
        ),
    ] = None,
    out: Annotated[Path, typer.Option(help="Directory for the HTML and PDF files.")] = DEFAULT_OUT,
    paper: Annotated[str, choice_option(Choice("--paper", "paper", papers), "Page size.")] = "a4",
    jobs: Annotated[
        list[Path], typer.Option("--job", help="Show only these jobs' results (default: every job in the store).")
    ] = [],
    pdf: Annotated[bool, typer.Option("--pdf/--no-pdf", help="Also write the PDF.")] = True,
    course: Annotated[
        Path | None,
        typer.Option(help="The course file (course.toml): its title, class and due date head both editions."),
    ] = None,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Write the report, in HTML and PDF: the answer key, its marking scheme and the student handout.

    The key goes to reports/out/knights-tour.html and .pdf with the marking scheme beside it
    (knights-tour-scheme.html and .pdf: every box of the worksheet, its value, the other conventions'
    values and the common wrong answers), the handout to knights-tour-handout.html and .pdf. With
    SOURCE_DATE_EPOCH set, the same store gives byte-identical HTML.
    """
    from knight.report.context import StoreData, build_context
    from knight.report.data import load_store
    from knight.report.handout import handout_context
    from knight.report.render import alongside, render_html, write_pdf, write_text
    from knight.runner.jobs import load_job
    from knight.store import store_path

    shown = [load_job(job, force=True).name for job in jobs] if jobs else None
    check_out(out)
    meta = report_meta(jobs)
    heading = _course(course)

    sheet = _on_the_sheet(heading, meta["date"], quiet)
    # the key brings its marking scheme: a teacher prints it apart to mark the worksheets
    made: list[str] = [name for name in ("key", "scheme") if name in edition or (name == "scheme" and "key" in edition)]

    def write(name: str, context: dict[str, Any]) -> None:  # jinja's namespace: each template reads its own keys
        head = sheet if name == "handout" else heading
        html = render_html({**context, "meta": meta, "course": head}, edition=name, paper=paper)
        target = out / FILE_NAMES[name]
        write_text(html, target.with_suffix(".html"))
        if pdf:
            write_pdf(html, target.with_suffix(".pdf"))

    # The handout needs no store: it is written while the key is computed.
    handout = [lambda: write("handout", handout_context())] if "handout" in edition else []
    with alongside(handout):
        if made:
            path = store_path(store)
            data = StoreData(*load_store(path))
            context = build_context(data.only(shown))
            for name in made:
                write(name, context)
    written = {
        name: [
            str((out / FILE_NAMES[name]).with_suffix(suffix))
            for suffix in (".html", ".pdf")
            if pdf or suffix == ".html"
        ]
        for name in dict.fromkeys([*edition, *made])
    }
    if as_json:
        print_json({"out": str(out), "paper": paper, "editions": written})
        return
    for name in written:
        typer.echo(f"wrote {(out / FILE_NAMES[name]).with_suffix('.html')}{' and .pdf' if pdf else ''}")


def check_out(out: Path) -> None:
    """Make the output folder, or stop with one line on why it cannot be written to."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        fail(f"--out {out} is a file; give a folder for the report's files")
    except OSError as error:
        fail(f"cannot make the folder {out}: {error.strerror or error}; give another folder with --out")
    if not os.access(out, os.W_OK | os.X_OK):
        from knight.store.disk import unwritable_reason

        cause = "read-only file system" if "file system" in unwritable_reason(out) else "permission denied"
        fail(f"cannot write in {out} ({cause}); give another folder with --out")
    from knight.report.render import remove_leftovers

    remove_leftovers(out)  # what a render killed midway left behind


def _course(path: Path | None) -> CourseContext | None:
    """The course file's title, class and dates, for the editions' headings (None: no course file given)."""
    if path is None:
        return None
    from knight.report.course import load_course

    return load_course(path).to_context()


def _on_the_sheet(heading: CourseContext | None, today: str, quiet: bool) -> CourseContext | None:
    """The course as the handout heads it: without its due date when that day is before ``today`` (the report's
    date): a worksheet handed out with a date already past would say the work is late before it is set. Said once on
    stderr, unless ``quiet``."""
    if heading is None or not heading["due"] or heading["due"] >= today:
        return heading
    if not quiet:
        typer.echo(
            f"knight: note: the course's due date {heading['due']} is before today ({today}): the handout leaves it "
            "out; give the new date in the course file (due)",
            err=True,
        )
    return {**heading, "due": ""}


def report_meta(jobs: list[Path]) -> Meta:
    """The footer: version, commit, job files with their hashes, and the date (SOURCE_DATE_EPOCH if set)."""
    from knight import __version__

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = datetime.datetime.fromtimestamp(int(epoch), datetime.UTC) if epoch else datetime.datetime.now(datetime.UTC)
    commit = _commit()
    from knight.runner.shipped import job_file

    listed: list[JobHash] = []
    for job in sorted(job_file(job) for job in jobs):  # a shipped job may be named: hash its file
        if not job.exists():
            fail(f"job file {job} does not exist")
        listed.append({"name": job.stem, "hash": hashlib.sha256(job.read_bytes()).hexdigest()[:12]})
    return {"version": __version__, "commit": commit, "date": moment.strftime("%Y-%m-%d"), "jobs": listed}


def _commit() -> str:
    """The commit this copy of knight was built from, never the current directory's: an installed wheel's
    ``knight/_build.json`` (written at build time by setup.py; its commit is null when the build had no
    git); without that file (an editable install, a source tree) the checkout the package itself sits in,
    or ``unknown``."""
    import importlib.resources
    import json

    package = importlib.resources.files("knight")
    try:
        return json.loads(package.joinpath("_build.json").read_text(encoding="utf-8"))["commit"] or "unknown"
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError):
        return "unknown"
    checkout = Path(str(package)).parent
    if not (checkout / ".git").exists():
        return "unknown"
    try:
        found = subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return found.stdout.strip() or "unknown"
