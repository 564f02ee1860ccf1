"""The answer key's template context: per question its answer or what is missing, the answers at a glance,
the appendix and which runs the numbers come from.

The answers themselves are computed in :mod:`knight.report.answers`, one module per source document. A
question whose job has not run (or was not named with ``--job``) gets ``missing`` instead, and the rest still
renders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from knight.errors import MissingData
from knight.report.answers import ANSWERS, Answer, StoreData
from knight.report.answers.errata import errata
from knight.report.appendix import appendix_section
from knight.report.listings import listings
from knight.report.questions import Question, document_letters, documents, labels, questions
from knight.report.records import CensusRecord, EstimateRecord, FrontierRecord

__all__ = ["GlanceRow", "Missing", "Provenance", "StoreData", "build_context", "provenance"]


@dataclass(frozen=True)
class Missing:
    """A question the report cannot answer: what to run (shown in its place), and what the store lacked."""

    line: str
    why: str


@dataclass(frozen=True)
class GlanceRow:
    """One row of the table of answers at a glance: the question, its label, and its answer or what is missing."""

    question: Question
    number: str
    answer: str
    missing: str | None


@dataclass(frozen=True)
class Provenance:
    """One job the numbers come from: how many tours and counts (censuses, estimates, frontier counts) of it the
    report holds."""

    job: str
    tours: int
    counts: int


def build_context(data: StoreData) -> dict[str, Any]:  # jinja's namespace for the key, merged with its footer
    """Everything the answer key shows: per question its answer (or what is missing), the table of
    answers at a glance, and the appendix."""
    answers: dict[str, Answer] = {}
    missing: dict[str, Missing] = {}
    for question in questions():
        try:
            answers[question.id] = ANSWERS[question.id](data)
        except MissingData as lacking:
            missing[question.id] = Missing(_missing_line(question), str(lacking))
    numbered = labels()
    glance = [
        GlanceRow(
            question=q,
            number=numbered[q.id],
            answer=answers[q.id].glance if q.id in answers else "",
            missing=missing[q.id].line if q.id in missing else None,
        )
        for q in questions()
    ]
    return {
        "documents": documents(),
        "questions": questions(),
        "numbers": numbered,
        "letters": document_letters(),
        "answers": answers,
        "missing": missing,
        "glance": glance,
        "appendix": appendix_section(),
        "provenance": provenance(data),
        "errata": errata(data),
        "listings": listings(data),
    }


def _missing_line(question: Question) -> str:
    files = " ".join(f"jobs/{job}.toml" for job in question.jobs)
    return (
        f"Not answered: this needs results of the job{'s' if len(question.jobs) > 1 else ''} "
        f"{', '.join(question.jobs)}, which this report does not hold; run `knight run {files}` "
        f"(and name the file{'s' if len(question.jobs) > 1 else ''} with `--job`)."
    )


def provenance(data: StoreData) -> list[Provenance]:
    """Which runs the numbers come from: every job with results in the report, and how many."""
    tours: dict[str, int] = {}
    counts: dict[str, int] = {}
    for record in data.results.records:
        for job in record.jobs:
            tours[job] = tours.get(job, 0) + 1
    stored: list[CensusRecord | EstimateRecord | FrontierRecord] = [*data.censuses, *data.estimates, *data.frontier]
    for census in stored:
        for job in census.jobs:
            counts[job] = counts.get(job, 0) + 1
    return [Provenance(job, tours.get(job, 0), counts.get(job, 0)) for job in sorted(tours.keys() | counts.keys())]
