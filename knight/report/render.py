"""Render the report: jinja2 templates to HTML, WeasyPrint to PDF, each file written atomically."""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib.resources
import multiprocessing
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

from knight.errors import MissingExtra, RenderError
from knight.report.text import power_of_ten, scientific

__all__ = [
    "TEMPLATES",
    "EDITIONS",
    "TEMPLATE_FILES",
    "PAPERS",
    "render_html",
    "render_page",
    "write_pdf",
    "alongside",
    "write_text",
    "remove_leftovers",
]

#: The templates, stylesheet and script, shipped inside the package (``reports/templates`` in the
#: source tree links to them), found through importlib.resources wherever knight is installed.
TEMPLATES = importlib.resources.files("knight.report") / "templates"
EDITIONS = ("key", "handout", "scheme")
#: The template of each edition: the key answers the questions, the handout is a worksheet of them, the scheme marks
#: the worksheet's boxes (a section of the key too).
TEMPLATE_FILES = {"key": "knights-tour.html.j2", "handout": "handout.html.j2", "scheme": "scheme.html.j2"}
#: The editions made from the answers (the key's template context); the scheme's table is added to theirs.
FROM_ANSWERS = ("key", "scheme")
PAPERS = {"a4": "A4", "letter": "Letter"}


def render_html(context: Mapping[str, Any], *, edition: str, paper: str = "a4") -> str:
    """The report as one self-contained HTML page (SVG, CSS and the tour player's script inline).

    ``edition`` is ``key`` (questions and answers, ``knights-tour.html.j2``), ``handout`` (the
    worksheet: questions, conventions, answer spaces and empty boards, no answers; ``handout.html.j2``) or ``scheme``
    (the marking scheme of the worksheet's boxes, ``scheme.html.j2``; from the key's context, like the key).
    """
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}; choose one of: {', '.join(EDITIONS)}")
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose one of: {', '.join(PAPERS)}")
    page = _environment().get_template(TEMPLATE_FILES[edition])
    if edition in FROM_ANSWERS and "scheme" not in context:
        from knight.report.scheme import marking_scheme

        context = {**context, "scheme": marking_scheme(context)}
    return _no_break_in_boards(
        page.render(
            **context,
            edition=edition,
            paper=PAPERS[paper],
            css=(TEMPLATES / "style.css").read_text(encoding="utf-8"),
            player_js=(TEMPLATES / "player.js").read_text(encoding="utf-8"),
        )
    )


def render_page(template: str, context: Mapping[str, Any]) -> str:
    """Any other page of the package's templates (the site's index and self-check page), rendered the same way."""
    return _no_break_in_boards(_environment().get_template(template).render(**context))


@functools.cache  # one per process: each page (a class's feedback pages) reuses its compiled templates
def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("knight.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"], default_for_string=True),
        undefined=jinja2.StrictUndefined,  # a missing number is an error, never a blank
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["thousands"] = lambda value: f"{value:,}"
    environment.filters["power_of_ten"] = power_of_ten
    environment.filters["scientific"] = scientific
    environment.filters["sentence"] = lambda text: text[:1].upper() + text[1:]  # capitalised, the rest kept
    environment.filters["percent"] = lambda value, digits=0: f"{100 * value:.{digits}f}%"
    return environment


def _no_break_in_boards(html: str) -> str:
    """Board sizes such as "5 × 5" with no-break spaces, so that a line never ends inside one."""
    return html.replace(" × ", "\u00a0×\u00a0")


def write_pdf(html: str, path: Path) -> bool:
    """Render ``html`` to a PDF at ``path`` (atomically), with fonts embedded and an outline from the headings.

    A PDF already made from the same HTML is kept (the HTML's SHA-256 is kept beside it, in
    ``.<name>.source``, written after the PDF), so a report whose results have not changed is not
    laid out again. Returns True when the PDF was written, False when it was kept.
    """
    source = hashlib.sha256(html.encode("utf-8")).hexdigest()
    stamp = path.with_name(f".{path.name}.source")
    if path.exists() and _stamp(stamp) == source:
        return False
    try:
        import weasyprint  # lazily: it takes a moment to import
    except ModuleNotFoundError as error:  # the report extra
        raise MissingExtra("WeasyPrint", "report", "a PDF") from error

    document = weasyprint.HTML(string=_svg_as_images(html), base_url=str(TEMPLATES)).render()
    with _atomic(path) as temporary:
        document.write_pdf(temporary)
    write_text(source, stamp)
    return True


def _stamp(path: Path) -> str:
    """The digest kept in the stamp ``path``, read as the PDF's folder may be shared: a link, a FIFO or a device
    planted there is not followed, waited on or read without end (empty: no stamp). Where the system has no
    ``O_NOFOLLOW`` (Windows: no FIFOs there either) a link is looked for first."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        if not hasattr(os, "O_NOFOLLOW") and path.is_symlink():
            return ""
        descriptor = os.open(path, flags)
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return ""
        return os.read(descriptor, 128).decode("ascii", "replace").strip()  # a digest is 64 characters
    finally:
        os.close(descriptor)


def _svg_as_images(html: str) -> str:
    """The page with each inline SVG turned into an ``<img>`` of it, for WeasyPrint only: drawn the same,
    but its HTML parser, slow on SVG markup, has much less to read (a fifth off the key's PDF time)."""

    def image(found: re.Match[str]) -> str:
        return (
            f'<img class="svg" alt="" src="data:image/svg+xml;base64,{base64.b64encode(found[0].encode()).decode()}">'
        )

    return re.sub(r"<svg\b.*?</svg>", image, html, flags=re.S)


class alongside:
    """Run ``tasks`` (functions of no arguments) in forked child processes while the ``with`` block runs,
    and wait for them at its end; where the platform cannot fork or has one core, run them first.

    Used to render the handout, which needs no store, while the answer key is computed. A task that
    fails makes the block's end raise :class:`RenderError`; a block that fails still waits for the tasks
    (the handout is written even when the key cannot be); Ctrl-C reaches the children too.
    """

    def __init__(self, tasks: Sequence[Callable[[], None]]) -> None:
        self.tasks = list(tasks)
        self.children: list[multiprocessing.process.BaseProcess] = []

    def __enter__(self) -> alongside:
        if (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
            for task in self.tasks:
                task()
            return self
        context = multiprocessing.get_context("fork")
        self.children = [context.Process(target=_run_quietly, args=(task,)) for task in self.tasks]
        for child in self.children:
            child.start()
        return self

    def __exit__(self, kind: type | None, *_: object) -> None:
        for child in self.children:  # let them finish even when the block failed: what they write is good
            child.join()
        if kind is None and any(child.exitcode != 0 for child in self.children):
            raise RenderError("rendering the handout failed (see the message above)")


def _run_quietly(task: Callable[[], None]) -> None:
    """A child's task: one line on stderr and exit status 1 instead of a traceback when it fails."""
    try:
        task()
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except Exception as error:  # noqa: BLE001 - reported in one line; the parent turns the status into an error
        print(f"knight: error: {error}", file=sys.stderr)
        raise SystemExit(1) from None


def write_text(text: str, path: Path) -> None:
    """Write ``text`` to ``path`` atomically: readers see the old file or the new one, never half of one."""
    with _atomic(path) as temporary:
        Path(temporary).write_text(text, encoding="utf-8")


#: The end of the name of a file being written (see :class:`_atomic`); one left by a killed
#: render is removed by the next (:func:`remove_leftovers`).
_PARTIAL = ".partial"


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the half-written files that a render killed midway left in ``folder`` (those whose
    writer, named by the process id in the file's name, is gone); return them.

    Only regular files named exactly as :class:`_atomic` names its temporary files are touched: a user's
    file or folder that merely ends in ``.partial`` is left alone."""
    removed = []
    for leftover in Path(folder).glob(f".*{_PARTIAL}"):
        named = _LEFTOVER.fullmatch(leftover.name)
        if named is None or not _is_regular(leftover):
            continue
        try:  # psutil, not os.kill(pid, 0): that is Ctrl-C on Windows
            if _running(int(named.group(1))):
                continue  # its writer is still at work
        except (OverflowError, ValueError):
            continue
        leftover.unlink(missing_ok=True)
        removed.append(leftover)
    return removed


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine (another user's process too)."""
    import psutil

    return bool(psutil.pid_exists(pid))


#: A temporary file of :class:`_atomic`: ``.NAME.PID.XXXXXXXX.partial`` (mkstemp's eight random characters).
_LEFTOVER = re.compile(r"\..+\.(\d{1,10})\.[a-z0-9_]{8}" + re.escape(_PARTIAL))


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


class _atomic:
    """A temporary file beside ``path`` that replaces it on success and vanishes on failure."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def __enter__(self) -> str:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, self.temporary = tempfile.mkstemp(
                prefix=f".{self.path.name}.{os.getpid()}.", suffix=_PARTIAL, dir=self.path.parent
            )
        except OSError as error:  # named by the file to write, not the temporary one's random name
            raise _cannot_write(self.path, error) from None
        os.close(handle)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(self.temporary, 0o666 & ~umask)  # mkstemp makes 0600; the report is meant to be shared
        return self.temporary

    def __exit__(self, kind: type | None, error: BaseException | None, *_: object) -> None:
        if kind is None:
            try:
                os.replace(self.temporary, self.path)
                return
            except OSError as failed:
                error = failed
        Path(self.temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):  # a full or read-only disk: one line naming the file; the old one is kept
            raise _cannot_write(self.path, error) from None


def _cannot_write(path: Path, error: OSError) -> Exception:
    """The one-line error for ``error`` met writing ``path`` when it comes from the disk (full, read-only,
    forbidden); any other error (a bug) as it is."""
    from knight.store.disk import DISK_ERRNOS, cannot_write

    if error.errno not in DISK_ERRNOS:
        return error
    return RenderError(cannot_write(path, error, "the file already there, if any, is kept"))
