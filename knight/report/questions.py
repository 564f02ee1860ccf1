"""The questions of the four course documents, read from ``questions.toml`` (package data).

One list feeds the answer key's "answers at a glance", its sections, the student handout and
the tests, so a question is written down once.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["Part", "Question", "document_letters", "documents", "labels", "questions"]

#: The kinds of answer space a handout part can have.
SPACES = ("number", "yes-no", "open-closed", "line", "lines")


@dataclass(frozen=True)
class Part:
    """One sub-question: what a student is asked, and the room the handout leaves for the answer."""

    ask: str
    space: str
    label: str = ""
    #: Several number boxes, one per number asked, each with this caption (a "number" part only);
    #: without it, a "number" part has one box.
    boxes: tuple[str, ...] = ()
    #: Ruled lines for the answer: for "line" and "lines" their number (default 1 and 3), for the
    #: other spaces lines for an explanation below the boxes (default none).
    lines: int = 0
    #: An extension: needs a computer search that runs long, or more than the course gives.
    extension: bool = False
    #: Outcome grids, [n, m] each: a small board for a part that runs from every start square, where
    #: the student marks each start's outcome; each with an optional caption in ``grid_captions``.
    grids: tuple[tuple[int, int], ...] = ()
    grid_captions: tuple[str, ...] = ()
    #: What to mark in each square of the grids ("" for the handout's default: full or squares reached).
    grid_legend: str = ""


@dataclass(frozen=True)
class Question:
    """A question of a source document: its id (the HTML anchor is ``q-<id>``), a few words for the
    key's table of answers, the jobs whose results answer it, the document's words, its
    sub-questions, and the boards the handout leaves for drawn answers."""

    id: str
    document: str
    short: str
    jobs: tuple[str, ...]
    quote: str
    parts: tuple[Part, ...]
    boards: tuple[tuple[int, int], ...] = ()
    board_captions: tuple[str, ...] = ()
    starts: tuple[tuple[int, int], ...] = ()
    handout_quote: str = ""
    #: What a student needs to answer that the documents do not give (a definition, a method), in a
    #: few sentences printed under the quote in the handout; ``*words*`` are emphasised.
    handout_note: str = ""
    #: The whole question is an extension (the handout tags it beside its label).
    extension: bool = False
    #: What else the handout shows with the question, by name (knight.report.handout knows each).
    handout_shows: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        return f"q-{self.id}"

    @property
    def worksheet_quote(self) -> str:
        """The document's words as the handout prints them: ``handout_quote`` where the full quote
        would give the answer away, the quote otherwise."""
        return self.handout_quote or self.quote


@cache
def _data() -> dict:
    return tomllib.loads(resources.files("knight.report").joinpath("questions.toml").read_text("utf-8"))


@cache
def documents() -> dict[str, str]:
    """The source documents by key, with their titles, in the order the report takes them."""
    return dict(_data()["documents"])


@cache
def questions() -> tuple[Question, ...]:
    """Every question, in the documents' order; raises ValueError if the file is malformed."""
    found = []
    for entry in _data()["question"]:
        parts = tuple(
            Part(
                **{
                    **part,
                    "boxes": tuple(part.get("boxes", ())),
                    "grids": tuple(tuple(grid) for grid in part.get("grids", ())),
                    "grid_captions": tuple(part.get("grid_captions", ())),
                }
            )
            for part in entry["parts"]
        )
        for part in parts:
            if part.space not in SPACES:
                raise ValueError(f"question {entry['id']}: unknown answer space {part.space!r}; use one of {SPACES}")
            if part.boxes and part.space != "number":
                raise ValueError(f'question {entry["id"]}: boxes are for a "number" part, not {part.space!r}')
            if part.lines < 0:
                raise ValueError(f"question {entry['id']}: a negative number of lines")
        if entry["document"] not in documents():
            raise ValueError(f"question {entry['id']}: unknown document {entry['document']!r}")
        found.append(
            Question(
                id=entry["id"],
                document=entry["document"],
                short=entry["short"],
                jobs=tuple(entry["jobs"]),
                quote=entry["quote"],
                parts=parts,
                boards=tuple(tuple(board) for board in entry.get("boards", ())),
                board_captions=tuple(entry.get("board_captions", ())),
                starts=tuple(tuple(start) for start in entry.get("starts", ())),
                handout_quote=entry.get("handout_quote", ""),
                handout_note=entry.get("handout_note", ""),
                extension=bool(entry.get("extension", False)),
                handout_shows=tuple(entry.get("handout_shows", ())),
            )
        )
    ids = [question.id for question in found]
    if len(set(ids)) != len(ids):
        raise ValueError("questions.toml repeats an id")
    return tuple(found)


@cache
def document_letters() -> dict[str, str]:
    """Each document's letter, A, B, … in the report's order."""
    return {key: chr(ord("A") + rank) for rank, key in enumerate(documents())}


@cache
def labels() -> dict[str, str]:
    """Each question's label, the same in the key and the handout: its document's letter and its rank,
    A1, A2, …, B1, … (short, and never a number a student could take for an answer)."""
    ranks: dict[str, int] = {}
    found = {}
    for question in questions():
        ranks[question.document] = ranks.get(question.document, 0) + 1
        found[question.id] = f"{document_letters()[question.document]}{ranks[question.document]}"
    return found
