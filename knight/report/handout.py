"""The student handout's template context: the questions as a worksheet, with no results at all.

Everything comes from ``questions.toml`` (through :func:`questions` and :func:`documents`) and the
engine's move tables, so the handout renders without a store. Nothing here may depend on a run:
the handout is printed and handed out unchanged, and it must not give an answer away.
"""

from __future__ import annotations

from string import ascii_lowercase
from typing import Any

from knight.engine import HORIZONTAL, VERTICAL, Board
from knight.report.diagrams import empty_board_svg
from knight.report.questions import Question, document_letters, documents, labels, questions


def handout_context() -> dict[str, Any]:
    """What ``handout.html.j2`` shows: the move tables and, per document, its questions,
    each labelled (A1, A2, …) and with its parts (a, b, …) and empty boards."""
    sections = []
    for key, title in documents().items():
        mine = [q for q in questions() if q.document == key]
        sections.append({"key": key, "letter": document_letters()[key], "title": title,
                         "questions": [_question(q, labels()[q.id]) for q in mine]})
    return {
        "moves": {"numbers": list(range(len(HORIZONTAL))), "horizontal": list(HORIZONTAL),
                  "vertical": list(VERTICAL)},
        "documents": sections,
    }


def _question(question: Question, label: str) -> dict[str, Any]:
    boards = []
    for k, (n, m) in enumerate(question.boards):
        start = question.starts[k] if k < len(question.starts) else None
        if start is not None:
            caption = f"from ({start[0]}, {start[1]})"
        else:
            caption = question.board_captions[k] if k < len(question.board_captions) else ""
        boards.append({"svg": empty_board_svg(Board(n, m), start=start), "caption": caption,
                       "size": f"{max(n, m)}"})
    # Where the boards go: one board sits beside the parts; several (one per start) form a grid below them.
    layout = "plain" if not boards else "beside" if len(boards) == 1 else "grid"
    return {
        "id": question.id,
        "anchor": question.anchor,
        "label": label,
        "quote": question.worksheet_quote,
        "parts": [{"letter": ascii_lowercase[k], "ask": part.ask, "space": part.space, "label": part.label}
                  for k, part in enumerate(question.parts)],
        "boards": boards,
        "layout": layout,
    }
