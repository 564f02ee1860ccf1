"""The class's static site (``knight site``): an index, the handout, the self-check page, the docs, and the
answer key only from the course's ``key_public_from`` on.

Before that day nothing of the key is written: no file, no link, no figure. The key's HTML is computed only
when it is due (the caller passes a function that makes it), and a key left in the folder by an earlier
build is removed, so a folder built before the day holds nothing of it whatever it held before. The docs'
pages that state figures the worksheet asks for (:data:`ANSWER_PAGES`: the census's counts, Knuth's tree,
the job files' examples) are replaced by a page saying when they come, their sources left out and their words
taken out of the docs' search index, until the same day.

A key with gaps (a question whose results the store lacks) is not published unless the caller says so: see
:func:`key_gaps`; the gaps are then said on the index.
"""

from __future__ import annotations

import contextlib
import datetime
import html
import json
import os
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from knight.errors import RenderError
from knight.report.course import Course
from knight.report.render import TEMPLATES, render_page, write_pdf, write_text
from knight.store.disk import cannot_write

__all__ = ["ANSWER_PAGES", "HANDOUT", "KEY", "KEY_FILES", "Gap", "Key", "Site", "build_site", "key_gaps"]

#: The files' names: the same as `knight report`'s, so a link to either works on both.
HANDOUT, KEY = "knights-tour-handout", "knights-tour"
#: Everything of the key a build may write: removed from the folder before the key's day.
KEY_FILES = (f"{KEY}.html", f"{KEY}.pdf", f".{KEY}.pdf.source")
#: The docs' pages (Sphinx's names) that state figures the worksheet asks for: the census's counts (census,
#: notebooks), Knuth's estimate checked against the census (treesize), the odd board's tours in the job files'
#: examples (running). Before the key's day the site holds a placeholder for each, not its source, and the
#: search index does not find it by its words. `tests/report/test_site.py` looks for every figure of the key
#: in every file of the site, so a page that starts stating one fails it until it is named here.
ANSWER_PAGES = ("census", "notebooks", "running", "treesize")
#: What Sphinx keeps beside the pages that the site needs not: its pickled doctrees and its build stamp.
_SPHINX_OWN = (".doctrees", ".buildinfo")
#: The folders the docs are copied into first, then swapped for the old copy (removed after).
_NEW_DOCS, _OLD_DOCS = ".docs.new", ".docs.old"


@dataclass
class Site:
    """What :func:`build_site` wrote: the folder, whether the key is in it, and each file (relative)."""

    out: Path
    key: bool
    files: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Gap:
    """A question the key does not answer: its label (C2), its short form and the jobs whose results it needs."""

    label: str
    short: str
    jobs: tuple[str, ...]


@dataclass(frozen=True)
class Key:
    """The key's HTML, and the questions it leaves unanswered (published only when the caller allowed it)."""

    html: str
    gaps: tuple[Gap, ...] = ()


def key_gaps(context: Mapping[str, Any]) -> tuple[Gap, ...]:  # the key's template context (build_context)
    """The questions of the key's context that it does not answer ("this report does not hold"), in order."""
    missing = context["missing"]
    labels = context["numbers"]
    return tuple(
        Gap(labels[question.id], question.short, tuple(question.jobs))
        for question in context["questions"]
        if question.id in missing
    )


def build_site(
    out: Path,
    course: Course,
    today: datetime.date,
    *,
    handout: str,
    key: Callable[[], Key],
    pdf: bool = True,
    docs: Path | None = None,
) -> Site:
    """Write the site to ``out``: ``handout`` is the handout's HTML; ``key()`` makes the key and is called only
    when ``today`` is on or after the course's ``key_public_from``; ``docs`` (a folder) is copied to
    ``out/docs`` when given, the :data:`ANSWER_PAGES` held back before the key's day. A disk that cannot be
    written is a :class:`~knight.errors.RenderError` naming the file."""
    site = Site(out, course.key_public(today))
    made = key() if site.key else None  # first: a key that cannot be made stops the build before any write
    out.mkdir(parents=True, exist_ok=True)

    def page(name: str, text: str) -> None:
        write_text(text, out / f"{name}.html")
        site.files.append(f"{name}.html")
        if pdf and name in (HANDOUT, KEY):
            write_pdf(text, out / f"{name}.pdf")
            site.files.append(f"{name}.pdf")

    page(HANDOUT, handout)
    if made is not None:
        page(KEY, made.html)
    else:
        for name in KEY_FILES:
            (out / name).unlink(missing_ok=True)
    docs_index = None
    if docs is not None and docs.is_dir():
        withheld = () if site.key else ANSWER_PAGES
        docs_index = _copy_docs(docs, out, site, withheld=withheld, public_from=course.key_public_from)
    files = {
        "handout_html": f"{HANDOUT}.html",
        "handout_pdf": f"{HANDOUT}.pdf" if pdf else None,
        "key_html": f"{KEY}.html" if site.key else None,
        "key_pdf": f"{KEY}.pdf" if site.key and pdf else None,
        "docs": docs_index,
    }
    css = (TEMPLATES / "site.css").read_text(encoding="utf-8")
    gaps = [gap.__dict__ for gap in made.gaps] if made is not None else []
    context = {"course": course.to_context(), "files": files, "css": css, "gaps": gaps}
    page("index", render_page("site-index.html.j2", context))
    check_js = (TEMPLATES / "check.js").read_text(encoding="utf-8")
    page("check", render_page("check.html.j2", {**context, "check_js": check_js}))
    return site


def _copy_docs(
    docs: Path, out: Path, site: Site, *, withheld: tuple[str, ...], public_from: datetime.date
) -> str | None:
    """Copy the docs folder to ``out/docs`` (into a new folder first, then swapped for the old copy, so a page
    an earlier build copied and this one holds back is gone); return the link to its front page (index.html,
    else README.md), if any."""
    target, fresh, old = out / "docs", out / _NEW_DOCS, out / _OLD_DOCS
    try:
        _remove(fresh)
        _remove(old)
        copied = _copy_tree(docs, fresh)
        for name in withheld:
            copied = _hold_back(fresh, name, copied, public_from)
        if withheld:
            _filter_search_index(fresh, withheld)
        if target.exists() or target.is_symlink():
            target.rename(old)
        fresh.rename(target)
        _remove(old)
    except OSError as error:
        with contextlib.suppress(OSError):  # the disk that failed the copy may fail this too: the next build will
            _remove(fresh)
        if isinstance(error.filename, str) and docs.resolve() in Path(error.filename).resolve().parents:
            raise RenderError(cannot_write(error.filename, error, doing="read")) from None
        raise RenderError(cannot_write(_shown(error.filename, fresh, target), error)) from None
    site.files += [f"docs/{name}" for name in copied]
    for front in ("index.html", "README.md", "index.md"):
        if front in copied:
            return f"docs/{front}"
    return f"docs/{copied[0]}" if copied else None


def _shown(filename: str | bytes | None, fresh: Path, target: Path) -> Path:
    """The file a copy failed on, named where it was going (``out/docs/...``, not the scratch folder)."""
    if not isinstance(filename, str):
        return target
    try:
        return target / Path(filename).relative_to(fresh)
    except ValueError:
        return Path(filename)


def _remove(path: Path) -> None:
    """Remove ``path``, a folder with what it holds or a file or link (never what a link points to)."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _copy_tree(source: Path, target: Path) -> list[str]:
    """Copy the files of ``source`` to ``target`` (Sphinx's own files left out); return them, relative, sorted.
    An error of the disk is raised as the OSError of the file it was met on (``filename`` set)."""
    copied = []
    target.mkdir()
    for folder, subfolders, names in os.walk(source):
        subfolders[:] = sorted(name for name in subfolders if name not in _SPHINX_OWN)
        relative = Path(folder).relative_to(source)
        for name in subfolders:
            (target / relative / name).mkdir()
        for name in sorted(names):
            if name in _SPHINX_OWN:
                continue
            destination = target / relative / name
            try:
                shutil.copyfile(Path(folder) / name, destination)
            except OSError as error:
                # sendfile's error names both files (the copy's in filename2), a write's midway neither: name the
                # copy, unless the docs' own file could not be opened
                if error.filename2 is not None or error.filename is None:
                    error.filename = str(destination)
                raise
            copied.append(str(relative / name) if str(relative) != "." else name)
    return sorted(copied)


def _hold_back(docs: Path, name: str, copied: list[str], public_from: datetime.date) -> list[str]:
    """Replace the page ``name`` of the copied ``docs`` by one saying when it comes, and remove its sources."""
    page = docs / f"{name}.html"
    if page.is_file():
        found = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8", errors="replace"), flags=re.S)
        title = html.unescape(found.group(1)).strip() if found else name
        write_text(_placeholder(title.rsplit(" - ", 1)[0], public_from), page)  # Sphinx's title: "Page - project"

    sources = [each for each in copied if each.startswith(f"_sources/{name}.")]
    for each in sources:
        (docs / each).unlink()
    return [each for each in copied if each not in sources]


def _placeholder(title: str, public_from: datetime.date) -> str:
    """The page that stands for a docs page held back until the key's day."""
    day = public_from.isoformat()
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n</head>\n<body>\n<h1>{html.escape(title)}</h1>\n"
        "<p>This page of knight's documentation states figures the worksheet asks for: it is published here on "
        f'<span class="date">{day}</span>, with the answer key.</p>\n'
        '<p><a href="index.html">The documentation</a> · <a href="../index.html">The course</a></p>\n'
        "</body>\n</html>\n"
    )


_SEARCH_INDEX = "searchindex.js"
_SET_INDEX = re.compile(r"\A\s*Search\.setIndex\((.*)\)\s*;?\s*\Z", flags=re.S)


def _filter_search_index(docs: Path, withheld: tuple[str, ...]) -> None:
    """Take the pages ``withheld`` out of Sphinx's search index: their words, section titles and index entries
    no longer lead to them (their page titles still do, to the placeholder). An index of a shape this does not
    know is left out altogether: a search then finds nothing, and the pages give nothing away."""
    path = docs / _SEARCH_INDEX
    if not path.is_file():
        return
    try:
        found = _SET_INDEX.match(path.read_text(encoding="utf-8"))
        index = json.loads(found.group(1)) if found else None
        gone = {number for number, name in enumerate(index["docnames"]) if name in withheld} if index else set()
        if index is not None:
            for table in ("terms", "titleterms"):
                index[table] = _without(index[table], gone)
            for table in ("alltitles", "indexentries"):
                index[table] = {
                    text: kept
                    for text, entries in index.get(table, {}).items()
                    if (kept := [entry for entry in entries if entry[0] not in gone or entry[1] is None])
                }
            index["objects"] = {
                prefix: [entry for entry in entries if entry[0] not in gone]
                for prefix, entries in index.get("objects", {}).items()
            }
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        index = None
    if index is None:
        path.unlink()
        return
    write_text(f"Search.setIndex({json.dumps(index, ensure_ascii=False, separators=(',', ':'))})", path)


def _without(table: dict[str, int | list[int]], gone: set[int]) -> dict[str, int | list[int]]:
    """A term table (term: a page's number or a list of them) without the pages ``gone``; a term only they
    held is dropped."""
    kept: dict[str, int | list[int]] = {}
    for term, pages in table.items():
        if isinstance(pages, int):
            if pages not in gone:
                kept[term] = pages
        else:
            left = [page for page in pages if page not in gone]
            if left:
                kept[term] = left if len(left) > 1 else left[0]
    return kept
