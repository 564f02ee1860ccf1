"""The marking scheme: every answer space of the worksheet by the label the handout prints beside it (A2a, B2d3, …),
the value the answer key gives, the values accepted under the documents' other conventions, and the common wrong
answers with their cause.

Every value is read from the key's answers (:mod:`knight.report.answers`, through the key's template context), never
typed into a template: a marker per question (:data:`~knight.report.scheme_marks.MARKERS`) says which field of its answer fills which box. An
answer may also give alternatives itself, as the documents' own conventions are added to it: a method
``alternatives(part, box)`` on the answer returning ``(value, convention)`` pairs (``part`` and ``box`` counted from
0 as :class:`~knight.report.handout.WorksheetBox` counts them) adds them to that box's accepted values.

The scheme is a section of the answer key and a page of its own (``knight report --edition scheme``, written with the
key as ``knights-tour-scheme.html`` and ``.pdf``): ``templates/scheme.html.j2`` and its table,
``templates/scheme-table.html.j2``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from knight.report.handout import WorksheetBox, worksheet_boxes
from knight.report.questions import Question, document_letters, documents, labels, questions
from knight.report.scheme_marks import MARKERS, Accepted, Mark, Wrong

__all__ = [
    "MARKERS",
    "Accepted",
    "Mark",
    "SchemeDocument",
    "SchemeQuestion",
    "SchemeRow",
    "Wrong",
    "marking_scheme",
]


@dataclass(frozen=True)
class SchemeRow:
    """One answer space of the worksheet in the scheme: its box, and its mark (None when the key could not answer
    the question: ``missing`` says what to run)."""

    box: WorksheetBox
    mark: Mark | None
    missing: str = ""

    @property
    def label(self) -> str:
        return self.box.label

    @property
    def space(self) -> str:
        """The answer space in a word or two, as the scheme's table names it."""
        caption = f" ({self.box.caption})" if self.box.caption else ""
        return {
            "number": f"number{caption}",
            "yes-no": "yes / no",
            "open-closed": "open / closed",
            "line": "a line",
            "lines": "lines",
        }[self.box.space]


@dataclass(frozen=True)
class SchemeQuestion:
    """A question's rows: its label, its few words, where the key answers it."""

    label: str
    question: Question
    rows: list[SchemeRow]


@dataclass(frozen=True)
class SchemeDocument:
    """A document's questions in the scheme."""

    key: str
    letter: str
    title: str
    questions: list[SchemeQuestion] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return sum(len(q.rows) for q in self.questions)


def marking_scheme(context: Mapping[str, Any]) -> list[SchemeDocument]:
    """The scheme of every answer space of the worksheet, by document and question, from the key's template context
    (:func:`knight.report.context.build_context`: its ``answers``, ``missing`` and ``errata``)."""
    answers, missing = context["answers"], context["missing"]
    boxes: dict[str, list[WorksheetBox]] = {}
    for box in worksheet_boxes():
        boxes.setdefault(box.question, []).append(box)
    found = {key: SchemeDocument(key, document_letters()[key], title) for key, title in documents().items()}
    for question in questions():
        marks: dict[tuple[int, int], Mark] = {}
        answer = answers.get(question.id)
        if answer is not None:
            marks = MARKERS[question.id](answer, context)
        rows = []
        for box in boxes[question.id]:
            mark = marks.get((box.part, box.box)) if answer is not None else None
            if mark is not None:
                mark = _with_alternatives(mark, answer, box)
            why = missing[question.id].line if question.id in missing else ""
            rows.append(SchemeRow(box, mark, why if mark is None else ""))
        found[question.document].questions.append(SchemeQuestion(labels()[question.id], question, rows))
    return list(found.values())


def _with_alternatives(mark: Mark, answer: object, box: WorksheetBox) -> Mark:
    """``mark`` with the alternatives the answer itself gives for the box (its ``alternatives(part, box)``), each
    once; a wrong answer that some convention accepts is no longer listed as wrong."""
    extra = getattr(answer, "alternatives", None)
    accepted = list(mark.accepted)
    if callable(extra):
        accepted += [Accepted(str(value), str(convention)) for value, convention in extra(box.part, box.box)]
    kept: list[Accepted] = []
    for item in accepted:
        if item.value != mark.expected and all(item.value != k.value or item.convention != k.convention for k in kept):
            kept.append(item)
    right = {mark.expected, *(k.value for k in kept)}
    wrong = tuple(w for w in dict.fromkeys(mark.wrong) if w.value not in right)
    return Mark(mark.expected, mark.note, tuple(kept), wrong, mark.own)
