"""The class's static site (``knight site``): an index, the handout, the self-check page, the docs, and the
answer key only from the course's ``key_public_from`` on.

Before that day nothing of the key is written: no file, no link, no figure. The key's HTML is computed only
when it is due (the caller passes a function that makes it), and a key left in the folder by an earlier
build is removed, so a folder built before the day holds nothing of it whatever it held before.
"""

from __future__ import annotations

import datetime
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from knight.report.course import Course
from knight.report.render import TEMPLATES, render_page, write_pdf, write_text

__all__ = ["HANDOUT", "KEY", "KEY_FILES", "Site", "build_site"]

#: The files' names: the same as `knight report`'s, so a link to either works on both.
HANDOUT, KEY = "knights-tour-handout", "knights-tour"
#: Everything of the key a build may write: removed from the folder before the key's day.
KEY_FILES = (f"{KEY}.html", f"{KEY}.pdf", f".{KEY}.pdf.source")


@dataclass
class Site:
    """What :func:`build_site` wrote: the folder, whether the key is in it, and each file (relative)."""

    out: Path
    key: bool
    files: list[str] = field(default_factory=list)


def build_site(
    out: Path,
    course: Course,
    today: datetime.date,
    *,
    handout: str,
    key: Callable[[], str],
    pdf: bool = True,
    docs: Path | None = None,
) -> Site:
    """Write the site to ``out``: ``handout`` is the handout's HTML; ``key()`` makes the key's HTML and is
    called only when ``today`` is on or after the course's ``key_public_from``; ``docs`` (a folder) is
    copied to ``out/docs`` when given."""
    site = Site(out, course.key_public(today))
    key_html = key() if site.key else None  # first: a key that cannot be made stops the build before any write
    out.mkdir(parents=True, exist_ok=True)

    def page(name: str, html: str) -> None:
        write_text(html, out / f"{name}.html")
        site.files.append(f"{name}.html")
        if pdf and name in (HANDOUT, KEY):
            write_pdf(html, out / f"{name}.pdf")
            site.files.append(f"{name}.pdf")

    page(HANDOUT, handout)
    if key_html is not None:
        page(KEY, key_html)
    else:
        for name in KEY_FILES:
            (out / name).unlink(missing_ok=True)
    docs_index = _copy_docs(docs, out / "docs", site) if docs is not None and docs.is_dir() else None
    files = {
        "handout_html": f"{HANDOUT}.html",
        "handout_pdf": f"{HANDOUT}.pdf" if pdf else None,
        "key_html": f"{KEY}.html" if site.key else None,
        "key_pdf": f"{KEY}.pdf" if site.key and pdf else None,
        "docs": docs_index,
    }
    css = (TEMPLATES / "site.css").read_text(encoding="utf-8")
    context = {"course": course.to_context(), "files": files, "css": css}
    page("index", render_page("site-index.html.j2", context))
    check_js = (TEMPLATES / "check.js").read_text(encoding="utf-8")
    page("check", render_page("check.html.j2", {**context, "check_js": check_js}))
    return site


def _copy_docs(docs: Path, target: Path, site: Site) -> str | None:
    """Copy the docs folder; return the link to its front page (index.html, else README.md), if any."""
    # Sphinx's build keeps its pickled doctrees and build stamp beside the pages: the site needs neither.
    shutil.copytree(docs, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".doctrees", ".buildinfo"))
    copied = sorted(str(path.relative_to(target.parent)) for path in target.rglob("*") if path.is_file())
    site.files += copied
    for front in ("docs/index.html", "docs/README.md", "docs/index.md"):
        if front in copied:
            return front
    return copied[0] if copied else None
