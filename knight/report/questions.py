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
        parts = tuple(Part(**part) for part in entry["parts"])
        for part in parts:
            if part.space not in SPACES:
                raise ValueError(f"question {entry['id']}: unknown answer space {part.space!r}; use one of {SPACES}")
        if entry["document"] not in documents():
            raise ValueError(f"question {entry['id']}: unknown document {entry['document']!r}")
        found.append(Question(
            id=entry["id"], document=entry["document"], short=entry["short"], jobs=tuple(entry["jobs"]),
            quote=entry["quote"], parts=parts,
            boards=tuple(tuple(board) for board in entry.get("boards", ())),
            board_captions=tuple(entry.get("board_captions", ())),
            starts=tuple(tuple(start) for start in entry.get("starts", ())),
            handout_quote=entry.get("handout_quote", ""),
        ))
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
