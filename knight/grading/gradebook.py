"""Grading a class: every entry of a directory checked, a gradebook CSV and a feedback page each.

A thin layer over :mod:`knight.grading.formats` (reading), :mod:`knight.grading.check` (checking),
:mod:`knight.grading.files` (the class's folder, read as untrusted) and :mod:`knight.grading.output`
(OUT: locked for the run, each file replaced atomically without following a link).

Every entry of the folder gets a row (hidden ones, whose names start with a dot, are left out): a
regular file, or a link to one inside the folder, is read and checked — one that cannot be read (empty,
binary, over 2 MB, no tour in it, a declared board too large) gets the row ``unreadable`` and the reason;
anything else is ``skipped`` with the reason (a sub-directory, a FIFO, a socket, a device, a link to
nothing, a link out of the folder), and is never opened. One file costs its own row only.

Each page is written as its submission is done; ``gradebook.csv`` when the batch ends, with the
*copied-from* column filled in (tours equal up to reversal and the board's symmetries), or when it is
interrupted (Ctrl-C), with the rows done so far and a last row, verdict ``interrupted``, saying so. A killed batch leaves the previous gradebook as it was
and no half-written file that a later run could take for output. Every cell a spreadsheet would evaluate
(starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return: OWASP's CSV-injection rule) is
written with a leading ``'``, so that it is read as text.

Scores come from a rubric (:mod:`knight.grading.rubric`); a row the teacher should look at (flagged as copied, not
the assigned exercise) says why in the ``review`` column.

Copied: submissions whose paths are legal (a full or partial tour, of :data:`COPIED_MIN_SQUARES` squares at
least: two equal non-tours such as "1 2 / 3 4" prove nothing) and equal up to reversal and the board's
symmetries are flagged with each other's names (the first :data:`COPIED_SHOWN`, and how many in all) — unless every one of them is
exactly what one of our methods makes from its start (students who all ran Warnsdorff's rule with ties
by move order from the assigned square hand in the same tour honestly).
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from knight.engine import Board
from knight.engine.board import Square
from knight.engine.diagrams import DRAWN_UP_TO
from knight.engine.tour import symmetric_key as tour_symmetric_key
from knight.grading.check import FULL, NOT_A_TOUR, Check, check
from knight.grading.files import Entry, entries
from knight.grading.formats import Unreadable, read_file
from knight.grading.output import Output
from knight.grading.rubric import DEFAULT_RUBRIC, RUBRIC_BYTES, RUBRIC_MAX, load_rubric, score

__all__ = [
    "DEFAULT_RUBRIC",
    "COLUMNS",
    "COPIED_SHOWN",
    "COPIED_MIN_SQUARES",
    "FACTS_SHOWN",
    "PDF_PAGE_CHARS",
    "INTERRUPTED",
    "interrupted_note",
    "RUBRIC_BYTES",
    "RUBRIC_MAX",
    "load_rubric",
    "score",
    "symmetric_key",
    "spreadsheet_safe",
    "Row",
    "Batch",
    "grade_directory",
    "grade_file",
    "page_name",
    "feedback_html",
    "board_svg",
    "write_feedback",
]

#: How many of the students who handed in the same tour a row names (the count says how many in all).
COPIED_SHOWN = 5
#: How many squares a feedback page lists (never visited, repeated, a repeated square's numbers) before it counts.
FACTS_SHOWN = 40
#: The largest feedback page made into a PDF with its board drawn, in characters (a larger one's PDF leaves the
#: drawing out: WeasyPrint took a minute and 1.4 GB on a 20 MB page).
PDF_PAGE_CHARS = 2_000_000
#: The shortest path compared for copying, in squares (three knight moves): two equal shorter ones prove nothing.
COPIED_MIN_SQUARES = 4
#: The verdict of the gradebook's last row when grading was interrupted (the row says how far it got).
INTERRUPTED = "interrupted"
#: The longest feedback page name kept whole, in bytes: its temporary file's name adds about 30 more, and a
#: file name has 255 at most (a student's long name stopped the class with "file name too long").
PAGE_NAME_BYTES = 160

COLUMNS = [
    "student",
    "file",
    "format",
    "board",
    "verdict",
    "length",
    "open/closed",
    "first error step",
    "rule followed",
    "reproduced by",
    "copied-from",
    "score",
    "review",
    "note",
]


def symmetric_key(result: Check) -> str | None:
    """Equal for two submissions whose squares are the same path up to reversal and the board's symmetries."""
    board = result.board
    squares = result.submission.squares
    if not all(board.contains(square) for square in squares):
        return None
    return tour_symmetric_key(board, np.array([board.index(square) for square in squares], dtype=np.int64))


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: str) -> str:
    """``cell`` as a spreadsheet reads it as text: with a leading ``'`` when it starts like a formula (OWASP)."""
    return "'" + cell if cell.startswith(_FORMULA) else cell


@dataclass
class Row:
    """One gradebook row, with the check behind it (None for an unreadable file or a skipped entry).

    ``skipped`` says why an entry was not read at all (empty for a file that was); ``copied_from`` names
    the first :data:`COPIED_SHOWN` students with the same tour, ``copied_count`` how many there are."""

    student: str
    file: str
    result: Check | None
    note: str = ""
    copied_from: list[str] = field(default_factory=list)
    score: float = 0.0
    skipped: str = ""
    copied_count: int = 0

    def cells(self) -> list[str]:
        """The row's cells as the gradebook shows them (before :func:`spreadsheet_safe`)."""
        r = self.result
        if self.skipped:
            return [self.student, self.file, "", "", "skipped", "", "", "", "", "", "", "", "", self.skipped]
        if r is None:
            return [self.student, self.file, "", "", "unreadable", "", "", "", "", "", "", "0", "", self.note]
        return [
            self.student,
            self.file,
            r.submission.format,
            str(r.board),
            r.summary(),
            str(r.length),
            ("closed" if r.closed else "open") if r.verdict == FULL else "",
            "" if r.first_error_step is None else str(r.first_error_step),
            _rule_cell(r),
            r.reproduced_by or "",
            self.copied_text(),
            f"{self.score:g}",
            self.review(),
            self.note,
        ]

    def review(self) -> str:
        """Why the teacher should look at this row ('' when nothing asks for it): a copy, a wrong exercise."""
        reasons = []
        if self.copied_count:
            reasons.append("copied: " + self.copied_text())
        if self.result is not None and self.result.wrong_exercise:
            reasons.append(self.result.assigned_note)
        return "; ".join(reasons)

    def copied_text(self, lead: str = "same tour as ") -> str:
        """The students with the same tour: all of them, or (after ``lead``) how many and the first few."""
        names = ", ".join(self.copied_from)
        if self.copied_count > len(self.copied_from):
            return f"{lead}{self.copied_count:,} others: {names} …"
        return names


def _rule_cell(result: Check) -> str:
    answer = {True: "yes", False: "no", None: ""}[result.rule_followed]
    if result.rule_followed and result.verdict == NOT_A_TOUR:
        answer += f" (up to step {result.first_error_step})"
    elif result.rule_followed is False:
        answer += f" (step {result.rule_broken_at})"
    return answer


@dataclass
class Batch:
    """What :func:`grade_directory` did."""

    rows: list[Row]
    skipped: list[str]

    @property
    def unreadable(self) -> int:
        """Files that were read but could not be understood (skipped entries not counted)."""
        return sum(row.result is None and not row.skipped for row in self.rows)


def grade_directory(
    directory: Path,
    out: Path,
    *,
    board: Board | None = None,
    start: Square | None = None,
    closed: bool = False,
    rubric: dict[str, float | bool] | None = None,
    pdf: bool = False,
    listing: list[Entry] | None = None,
    on_done: Callable[[Row], None] | None = None,
) -> Batch:
    """Check every entry directly in ``directory`` (or ``listing``, from :func:`~knight.grading.files.entries`);
    write ``out/gradebook.csv`` and ``out/<student>.html``, holding ``out`` against other graders."""
    rubric = rubric or dict(DEFAULT_RUBRIC)
    with Output(out) as target:
        if listing is None:
            listing = entries(directory, exclude=out)
        rows: list[Row] = []
        students: set[str] = set()
        try:
            for entry in listing:
                row = (
                    Row(Path(entry.name).stem, entry.name, None, skipped=entry.skipped)
                    if entry.skipped
                    else grade_file(
                        entry.path,
                        board=board,
                        start=start,
                        closed=closed,
                        rubric=rubric,
                        name=entry.name,
                        within=entry.folder,
                    )
                )
                row.student = _unique(row.student, entry.name, students)
                if not row.skipped:
                    write_feedback(row, target, pdf=pdf)
                rows.append(row)  # after its page: an interrupted gradebook's rows all have theirs
                if on_done is not None:
                    on_done(row)
            for row in _flag_copies(rows, rubric):
                write_feedback(row, target, pdf=pdf)
            target.write("gradebook.csv", _csv_text(rows))
        except KeyboardInterrupt:  # an interrupted batch keeps the rows it did, and says it is not whole
            target.write("gradebook.csv", _csv_text(rows, interrupted=len(listing)))
            raise
    return Batch(rows, [row.file for row in rows if row.skipped])


def _unique(student: str, file: str, taken: set[str]) -> str:
    """A student name no other row has (alice.txt and alice.csv: the second is named by its file)."""
    name = student if student not in taken else file
    number = 2
    while name in taken:
        name, number = f"{file}~{number}", number + 1
    taken.add(name)
    return name


def _flag_copies(rows: list[Row], rubric: dict[str, float | bool]) -> list[Row]:
    """Mark the rows whose tours are the same up to symmetry (see the module's docstring); return them.

    Each row keeps the first few names only: listing every other student in every row made a class of
    10,000 copies of one tour write a 681 MB gradebook."""
    groups: dict[str, list[Row]] = {}
    for row in rows:
        result = row.result
        if result is None or result.verdict == NOT_A_TOUR or result.length < COPIED_MIN_SQUARES:
            continue  # legal paths only, and long enough: two equal mistakes ("1 2 / 3 4") are no sign of copying
        key = symmetric_key(result)
        if key is not None:
            groups.setdefault(key, []).append(row)
    flagged: list[Row] = []
    for group in groups.values():
        made_by = {row.result.reproduced_by for row in group if row.result is not None}
        if len(group) > 1 and not (len(made_by) == 1 and None not in made_by):  # one method's output: expected
            for row in group:
                row.copied_from = [other.student for other in group[: COPIED_SHOWN + 1] if other is not row]
                row.copied_from = row.copied_from[:COPIED_SHOWN]
                row.copied_count = len(group) - 1
                assert row.result is not None
                row.score = score(row.result, rubric, copied=True)
                flagged.append(row)
    return flagged


def grade_file(
    path: Path,
    *,
    board: Board | None = None,
    start: Square | None = None,
    closed: bool = False,
    rubric: dict[str, float | bool] | None = None,
    name: str | None = None,
    follow: bool = True,
    within: Path | None = None,
) -> Row:
    """One row of the gradebook: the file read and checked, or the reason it could not be.

    ``name`` is the file's name as shown (a link's own name, not its target's; see
    :func:`~knight.grading.files.display_name`); the student is that name without its extension. With
    ``follow=False`` a link is refused (a folder's listing resolved it already); with ``within`` (the folder's
    real path) a link anywhere on the way from that folder to the file is too."""
    shown = name if name is not None else path.name
    student = Path(shown).stem
    try:
        submission = read_file(path, board=board, follow=follow, within=within)
    except Unreadable as error:
        return Row(student, shown, None, note=str(error))
    result = check(submission, board=board, start=start, closed=closed)
    row = Row(
        student,
        shown,
        result,
        note="; ".join(submission.notes),  # a wrong exercise is said in the review column
    )
    row.score = score(result, rubric or DEFAULT_RUBRIC)
    return row


def _csv_text(rows: list[Row], *, interrupted: int | None = None) -> str:
    """The gradebook; with ``interrupted`` (the entries in all), a last row saying it holds only those done."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([spreadsheet_safe(cell) for cell in row.cells()])
    if interrupted is not None:
        writer.writerow(
            [""] * 4 + [INTERRUPTED] + [""] * (len(COLUMNS) - 6) + [interrupted_note(len(rows), interrupted)]
        )
    return buffer.getvalue()


def interrupted_note(done: int, total: int) -> str:
    """What an interrupted gradebook holds, in words (its last row's note; ``knight grade`` says it too)."""
    return (
        f"grading was interrupted after {done:,} of {total:,} entries: the others have no row and copies were "
        "not looked for; grade again for the whole class"
    )


# --- feedback pages -----------------------------------------------------------------------------


def feedback_html(row: Row, *, draw: bool = True) -> str:
    """The student's feedback page: their board drawn, the verdict and errors, and a sentence on what to fix
    (``feedback.html.j2``, rendered by the report's environment, which escapes all that comes from the hand-in).

    The board is drawn when ``draw`` and it has at most :data:`~knight.engine.diagrams.DRAWN_UP_TO` squares a
    side; otherwise the page says it is not."""
    from knight.report.render import render_page  # jinja2 loads when a page is written, not with the command line

    r = row.result
    if r is None:
        return render_page(
            "feedback.html.j2", {"student": row.student, "file": row.file, "note": row.note, "facts": None}
        )
    return render_page(
        "feedback.html.j2",
        {
            "student": row.student,
            "facts": _facts(row, r),
            "board_svg": board_svg(r) if draw and max(r.board.n, r.board.m) <= DRAWN_UP_TO else _not_drawn(r.board),
            "advice": r.advice(),
        },
    )


def _not_drawn(board: Board) -> str:
    """What the page says instead of the drawing of a board too large to draw (its picture grows with its
    squares: a 547 x 547 board made a page of 20 MB, and its PDF took a minute and 1.4 GB)."""
    return f"<em>The {board} board is not drawn here: boards of up to {DRAWN_UP_TO} squares a side are.</em>"


def _facts(row: Row, r: Check) -> list[tuple[str, str]]:
    """The feedback page's table: what was handed in and what the check found, a (heading, text) pair a line."""
    facts = [
        ("File", row.file),
        ("Format", r.submission.format + (f" ({'; '.join(r.submission.notes)})" if r.submission.notes else "")),
        ("Board", str(r.board)),
        ("Verdict", r.summary()),
        ("Score", f"{row.score:g}"),
    ]
    if r.first_error_step is not None:
        facts.append(("First error", r.errors[0]))
    if r.repeated:  # the first few: 90,000 repeated squares made a page of megabytes
        shown = [
            f"{r.name(sq)} (numbers {', '.join(map(str, nums[:FACTS_SHOWN]))}{' …' if len(nums) > FACTS_SHOWN else ''})"
            for sq, nums in itertools.islice(r.repeated.items(), FACTS_SHOWN)
        ]
        more = f"; … {len(r.repeated):,} squares in all" if len(r.repeated) > FACTS_SHOWN else ""
        facts.append(("Repeated squares", "; ".join(shown) + more))
    if r.unvisited and len(r.unvisited) <= FACTS_SHOWN:
        facts.append(("Never visited", " ".join(map(r.name, r.unvisited))))
    elif r.unvisited:
        facts.append(("Never visited", f"{len(r.unvisited)} squares"))
    facts.append(("Lowest-degree rule", r.rule_sentence()))
    if r.reproduced_by:
        facts.append(("Same tour as", r.reproduced_by))
    if r.assigned is not None or r.closed_assigned:
        facts.append(("Exercise", r.exercise_note()))
    if row.copied_from:
        facts.append(("Same tour (up to symmetry) as", row.copied_text(lead="")))
    return facts


_SVG_CACHE: dict[tuple, str] = {}


def board_svg(result: Check) -> str:
    """The submission drawn on its board: :func:`knight.engine.diagrams.tour_svg` for a legal tour; for a
    broken one the same drawing with the first illegal step and the repeated squares marked in red.

    Drawings are kept by submission (students of one assignment often hand in the same tour)."""
    s = result.submission
    key = (s.board.n, s.board.m, tuple(s.squares), tuple(s.labels), result.first_error_step)
    if key not in _SVG_CACHE:
        if len(_SVG_CACHE) > 4096:
            _SVG_CACHE.clear()
        _SVG_CACHE[key] = _draw(result)
    return _SVG_CACHE[key]


def _draw(result: Check) -> str:
    from knight.engine import Tour, svg
    from knight.engine import diagrams as d

    board = result.board
    squares = result.submission.squares
    if result.verdict != NOT_A_TOUR:
        return d.tour_svg(Tour.from_squares(board, squares, method="student"), title=f"the tour on {board}")
    picture = d.board_element(board, f"the submission on {board}, errors in red")
    on = [sq for sq in squares if board.contains(sq)]
    width = svg.SQUARE / 16
    if len(on) > 1:
        ET.SubElement(
            picture,
            "polyline",
            {
                "points": " ".join("{},{}".format(*map(svg.length, svg.centre(*sq))) for sq in on),
                "fill": "none",
                "stroke": d.PATH,
                "stroke-width": svg.length(width),
                "stroke-opacity": "0.75",
                "class": "path",
            },
        )
    if result.first_error_step is not None:
        labels = result.submission.labels
        i = next((j for j, k in enumerate(labels) if k >= result.first_error_step), None)
        if i is not None and i + 1 < len(squares) and board.contains(squares[i]) and board.contains(squares[i + 1]):
            start, end = svg.centre(*squares[i]), svg.centre(*squares[i + 1])
            svg.line(picture, start, end, stroke=d.END, width=width * 4, **{"class": "first-error"})
    for k, sq in zip(result.submission.labels, squares):
        if not board.contains(sq):
            continue
        x, y = svg.centre(*sq)
        repeated = sq in result.repeated
        ET.SubElement(
            picture,
            "circle",
            {
                "cx": svg.length(x),
                "cy": svg.length(y),
                "r": svg.length(svg.SQUARE * 0.3),
                "fill": "#ffd6d6" if repeated else "#fffdf6",
                "stroke": d.END if repeated else d.PATH,
                "stroke-width": "1.5" if repeated else "0.6",
                "class": "repeated" if repeated else "square",
            },
        )
        if max(board.n, board.m) <= d.NUMBERED_UP_TO:
            svg.label(picture, (x, y), str(k), d.TEXT, svg.SQUARE * (0.3 if k > 99 else 0.36))
    return svg.to_string(picture)


def page_name(student: str) -> str:
    """The name of a student's feedback page without its extension: the student's name, cut to
    :data:`PAGE_NAME_BYTES` with a digest of the whole name when it is longer."""
    whole = student.encode()
    if len(whole) <= PAGE_NAME_BYTES:
        return student
    cut = whole[: PAGE_NAME_BYTES - 11].decode("utf-8", "ignore")
    return f"{cut}~{hashlib.sha256(whole).hexdigest()[:10]}"


def write_feedback(row: Row, out: Output, *, pdf: bool = False) -> None:
    """Write ``OUT/<student>.html`` (and ``.pdf``) atomically (see :class:`~knight.grading.output.Output`)."""
    page = feedback_html(row)
    name = page_name(row.student)
    out.write(f"{name}.html", page)
    if pdf:
        out.write_pdf(f"{name}.pdf", page if len(page) <= PDF_PAGE_CHARS else feedback_html(row, draw=False))
