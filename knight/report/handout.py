"""The student handout's template context: the questions as a worksheet, with no results at all.

Everything comes from ``questions.toml`` (through :func:`questions` and :func:`documents`), the
engine (its move tables, Deitel's accessibility table, the join property's corner moves) and the blog's
script as printed (package data), so the handout renders without a store. Nothing here may depend on a run:
the handout is printed and handed out unchanged, and it must not give an answer away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from string import ascii_lowercase
from typing import Any, TypedDict

from markupsafe import Markup, escape

from knight.engine import HORIZONTAL, VERTICAL, Board
from knight.engine.diagrams import empty_board_svg
from knight.engine.parberry import structured_moves
from knight.report.questions import Part, Question, document_letters, documents, labels, questions

__all__ = [
    "NBSP",
    "DEFAULT_LINES",
    "GRID_LEGEND",
    "SHOWS",
    "SCRIPT_AS_PRINTED",
    "WorksheetBox",
    "box_labels",
    "handout_context",
    "unbreakable",
    "note_markup",
    "script_as_printed",
    "worksheet_boxes",
]

#: No-break space: board sizes ("5 × 5") and squares ("(0, 0)") never break across lines.
NBSP = "\u00a0"
#: The ruled lines a "line" and a "lines" part get unless questions.toml says how many.
DEFAULT_LINES = {"line": 1, "lines": 3}
#: What a student marks in each start square of an outcome grid, unless questions.toml says otherwise.
GRID_LEGEND = "In each start square: ✓ if the tour from it is full, else how many squares it reached."
#: What a question's ``handout_shows`` may name: Deitel's accessibility table of its board, the blog's
#: script as printed, the join property's two moves at the top-left corner of its board.
SHOWS = ("accessibility", "script", "join-moves")
#: The printed width of an empty board of each side (style.css: figure.empty-board.size-N), in millimetres: squares
#: of at least 9 mm, room for a number in each; a side not listed prints as the 8 x 8.
BOARD_MM = {5: 54, 6: 63, 8: 81}
BOARD_GAP_MM = 5
#: Boards at most this wide sit beside the parts (two thirds of the page's 178 mm measure), wider ones below them.
BESIDE_MM = 118
#: A part asking in at most this many characters has its boxes on its line, beside it, not below it.
SHORT_ASK = 50
#: The blog's script as printed (package data, verbatim from the blog; text, not a module to import).
SCRIPT_AS_PRINTED = "programs/blog_script_as_printed.txt"


@dataclass(frozen=True)
class WorksheetBox:
    """One answer space of the worksheet, as the handout labels it beside the space and the marking scheme lists it:
    a number box, a pair of tick boxes (yes/no, open/closed) or the ruled lines of a written answer.

    ``label`` is the question's label, the part's letter (none for a question's only part) and, where a part has
    several number boxes, the box's rank from 1: A2a, B1, C1a2."""

    label: str
    question: str  # the question's id
    part: int  # the part's index in the question
    box: int  # the box's index in the part (0 for a part with one space)
    space: str  # the part's answer space: "number", "yes-no", "open-closed", "line" or "lines"
    caption: str  # the box's caption ("5 × 5", "as sequences"), else the part's unit ("squares"), else ""


def box_labels(question: Question, label: str) -> list[list[str]]:
    """The labels of each part's answer spaces: one per number box (a part's ``boxes``, else one), one for the tick
    boxes or the lines of any other part."""
    lettered = len(question.parts) > 1
    found = []
    for k, part in enumerate(question.parts):
        stem = f"{label}{ascii_lowercase[k] if lettered else ''}"
        several = part.space == "number" and len(part.boxes) > 1
        found.append([f"{stem}{rank}" for rank in range(1, len(part.boxes) + 1)] if several else [stem])
    return found


def worksheet_boxes() -> list[WorksheetBox]:
    """Every answer space of the worksheet, in the order it prints them (the marking scheme's rows)."""
    found = []
    for question in questions():
        for k, (part, names) in enumerate(
            zip(question.parts, box_labels(question, labels()[question.id]), strict=True)
        ):
            for rank, name in enumerate(names):
                caption = part.boxes[rank] if rank < len(part.boxes) else part.label
                found.append(WorksheetBox(name, question.id, k, rank, part.space, caption))
    return found


def handout_context() -> dict[str, Any]:  # jinja's namespace for the handout, merged with its footer
    """What ``handout.html.j2`` shows: the move tables and, per document, its questions,
    each labelled (A1, A2, …) and with its parts (a, b, …) and empty boards."""
    sections = []
    for key, title in documents().items():
        mine = [q for q in questions() if q.document == key]
        sections.append(
            {
                "key": key,
                "letter": document_letters()[key],
                "title": unbreakable(title),
                "questions": [_question(q, labels()[q.id]) for q in mine],
            }
        )
    return {
        "moves": {"numbers": list(range(len(HORIZONTAL))), "horizontal": list(HORIZONTAL), "vertical": list(VERTICAL)},
        "documents": sections,
    }


def unbreakable(text: str) -> str:
    """``text`` with no-break spaces where a line break would split a square or a value: "(0, 0)"
    after its comma, "m = 50" around the =. (Board sizes, "5 × 5", are kept whole for every edition by
    :func:`knight.report.render.render_html`.)"""
    text = re.sub(r"\((\d+), (\d+)\)", rf"(\1,{NBSP}\2)", text)
    return re.sub(r"\b(\w) = (\d)", rf"\1{NBSP}={NBSP}\2", text)


def note_markup(text: str) -> Markup:
    """A handout note as HTML: escaped, ``*words*`` emphasised, sizes and squares unbreakable."""
    return Markup(re.sub(r"\*([^*]+)\*", r"<em>\1</em>", str(escape(unbreakable(text)))))


def script_as_printed() -> list[str]:
    """The lines of the blog's script exactly as the blog prints them (its indentation lost)."""
    return resources.files("knight").joinpath(SCRIPT_AS_PRINTED).read_text(encoding="utf-8").splitlines()


class EmptyBoard(TypedDict):
    """A board to number or mark in, drawn: its SVG, its caption, and its longer side (its drawn size)."""

    svg: str
    caption: str
    size: str


class HandoutPart(TypedDict):
    """A part of a question as ``handout.html.j2`` shows it (see :func:`_part`)."""

    letter: str
    ask: str
    space: str
    label: str
    boxes: list[str]
    short: bool
    names: list[str]  # the label printed beside each answer space (see :func:`box_labels`)
    extension: bool
    rules: int
    grids: list[EmptyBoard]
    legend: str


class HandoutQuestion(TypedDict):
    """A question as ``handout.html.j2`` shows it (see :func:`_question`)."""

    id: str
    anchor: str
    label: str
    extension: bool
    quote: str
    note: str
    parts: list[HandoutPart]
    boards: list[EmptyBoard]
    layout: str
    grid_at: int
    accessibility: list[list[int]]
    script: list[str]


def _question(question: Question, label: str) -> HandoutQuestion:
    unknown = set(question.handout_shows) - set(SHOWS)
    if unknown:
        raise ValueError(f"question {question.id}: handout_shows {sorted(unknown)}; use some of {SHOWS}")
    with_grids = [k for k, part in enumerate(question.parts) if part.grids]
    if len(with_grids) > 1:
        raise ValueError(f"question {question.id}: outcome grids in more than one part; give them to one")
    boards = _boards(question)
    n, m = question.boards[0] if question.boards else (8, 8)  # Deitel's table is of the chessboard
    # Where the boards go: beside the parts when they take at most two thirds of the measure (one board, or two
    # small ones), else a grid below them (one board per start).
    width = sum(BOARD_MM.get(max(n, m), BOARD_MM[8]) for n, m in question.boards) + BOARD_GAP_MM * (len(boards) - 1)
    layout = "plain" if not boards else "beside" if width <= BESIDE_MM else "grid"
    lettered = len(question.parts) > 1  # a single part has no letter: no lone "a)"
    return {
        "id": question.id,
        "anchor": question.anchor,
        "label": label,
        "extension": question.extension,
        "quote": unbreakable(question.worksheet_quote),
        "note": note_markup(question.handout_note) if question.handout_note else "",
        "parts": [
            _part(part, ascii_lowercase[k] if lettered else "", names)
            for k, (part, names) in enumerate(zip(question.parts, box_labels(question, label), strict=True))
        ],
        "boards": boards,
        "layout": layout,
        # the part whose grids the parts from it on sit beside (past the last part: no grids)
        "grid_at": with_grids[0] if with_grids else len(question.parts),
        "accessibility": Board(n, m).accessibility().tolist() if "accessibility" in question.handout_shows else [],
        "script": script_as_printed() if "script" in question.handout_shows else [],
    }


def _boards(question: Question) -> list[EmptyBoard]:
    """The empty boards a question asks to number: each with its start ringed or its caption."""
    boards: list[EmptyBoard] = []
    for k, (n, m) in enumerate(question.boards):
        start = question.starts[k] if k < len(question.starts) else None
        if start is not None:
            caption = f"from ({start[0]}, {start[1]})"
        else:
            caption = question.board_captions[k] if k < len(question.board_captions) else ""
        # the join property's two moves at the top-left corner, as the engine's structured tours use them
        moves = structured_moves(n, m)[:2] if "join-moves" in question.handout_shows else []
        boards.append(
            {
                "svg": empty_board_svg(Board(n, m), start=start, moves=moves),
                "caption": unbreakable(caption),
                "size": f"{max(n, m)}",
            }
        )
    return boards


def _part(part: Part, letter: str, names: list[str]) -> HandoutPart:
    """A part as the template shows it: its letter ("" for a question's only part), the question, and
    its answer room: a number box per caption in ``boxes`` (one box without them), tick boxes, ruled lines,
    and the outcome grids where the part runs from every start square, with what to mark in them; ``names``
    labels each answer space, as the marking scheme does."""
    return {
        "letter": letter,
        "ask": unbreakable(part.ask),
        "space": part.space,
        "label": unbreakable(part.label),
        "boxes": [unbreakable(caption) for caption in part.boxes],
        # a short question keeps its boxes on its line
        "short": len(part.ask) <= SHORT_ASK,
        "names": names,
        "extension": part.extension,
        "rules": part.lines or DEFAULT_LINES.get(part.space, 0),
        "grids": [
            {
                "svg": empty_board_svg(Board(n, m), title=f"outcome grid, {Board(n, m)}"),
                "caption": unbreakable(part.grid_captions[k]) if k < len(part.grid_captions) else "",
                "size": f"{max(n, m)}",
            }
            for k, (n, m) in enumerate(part.grids)
        ],
        "legend": unbreakable(part.grid_legend or GRID_LEGEND),
    }
