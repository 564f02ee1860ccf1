"""The answer key's answers as typed values: each question's answer a dataclass whose glance line and section
are rendered from the same fields, what both say computed once.

No store is run: the answers are made by hand (a store with no results leaves every other question missing),
put in place of the computed ones, and the key rendered from them.
"""

from __future__ import annotations

import dataclasses
import html
import re
import typing

import pytest

from knight.engine import Board
from knight.engine.theory import open_tour_verdict
from knight.report.answers import ANSWERS, Answer
from knight.report.answers.blog import Example
from knight.report.answers.blog_sizes import PastFifty
from knight.report.answers.deitel import Corner, Heuristic
from knight.report.answers.eiffel import Corners, Mutilated, Search
from knight.report.context import StoreData, build_context
from knight.report.questions import questions
from knight.report.records import Results
from knight.report.render import render_html

META = {"version": "0", "commit": "test", "date": "2023-11-14", "jobs": []}


def _returned(answer: typing.Callable[[StoreData], Answer]) -> type:
    return typing.get_type_hints(answer)["return"]


def test_every_question_has_a_typed_answer_with_a_glance():
    assert set(ANSWERS) == {q.id for q in questions()}
    for question_id, answer in ANSWERS.items():
        returned = _returned(answer)
        assert dataclasses.is_dataclass(returned), question_id
        assert isinstance(getattr(returned, "glance", None), property), question_id


def key_with(monkeypatch, answers: dict[str, Answer]) -> tuple[dict[str, str], dict[str, str]]:
    """The key rendered with these answers (the rest missing): per question its glance cell and its section."""
    for question_id, answer in answers.items():
        monkeypatch.setitem(ANSWERS, question_id, lambda data, answer=answer: answer)
    context = build_context(StoreData(Results([]), []))
    page = render_html({**context, "meta": META}, edition="key").replace("\u00a0", " ")
    cells = dict(re.findall(r'<a href="#q-([\w-]+)">.*?<td class="glance-answer[^"]*">(.*?)</td>', page, re.S))
    sections = dict(
        re.findall(r'<section class="question" id="q-([\w-]+)">.*?</blockquote>(.*?)</section>', page, re.S)
    )
    return {q: _text(c) for q, c in cells.items()}, {q: _text(s) for q, s in sections.items()}


def _text(fragment: str) -> str:
    """What a reader sees of an HTML fragment: its text, spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


def past_fifty(first: int | None) -> PastFifty:
    return PastFifty(
        first=first,
        failing=0 if first is None else 3,
        tested=66,
        largest=70,
        verdict="untested",
        below=None,
        above=None,
        chart="",
        rules=[],
        ranges=[],
        claims=[],
        rectangles="",
        every_start=[],
    )


def corners(total_on_even: int) -> Corners:
    return Corners(
        boards=[Mutilated("6 × 6", False, [(0, 0), (5, 5)], (16, 18), total_on_even, 1234)],
        odd_found=[Search("7 × 7", [(0, 0), (6, 6)], (22, 25), 4, 3, 99)],
        eight=open_tour_verdict(Board(8, 8), removed=[(0, 0), (7, 7)]),
    )


@pytest.mark.parametrize("total_on_even, verdict", [(0, "agree"), (2, "disagree")])
def test_a_verdict_is_decided_once_for_the_glance_and_the_section(monkeypatch, total_on_even, verdict):
    cells, sections = key_with(monkeypatch, {"eiffel-corners": corners(total_on_even)})
    assert cells["eiffel-corners"].startswith(f"Even n: impossible, our runs {verdict} ")
    assert f"The text's claim for even n: our runs {verdict}." in sections["eiffel-corners"]
    # the odd board's searches, in the same words in both: 3 of the 4 starts
    assert "7 × 7: a tour from 3 of the 4 starts tried" in cells["eiffel-corners"]
    assert "a tour from 3 of the 4 starts tried" in sections["eiffel-corners"]


def test_the_sentence_the_glance_and_the_section_share_is_written_once(monkeypatch):
    cells, sections = key_with(monkeypatch, {"blog-past-50": past_fifty(None)})
    sentence = "The plain rule never fails from the corner up to m = 70"
    assert cells["blog-past-50"] == f"{sentence}: untested."
    assert f"{sentence}." in sections["blog-past-50"]
    cells, sections = key_with(monkeypatch, {"blog-past-50": past_fifty(57)})
    assert cells["blog-past-50"] == "From the corner the plain rule first fails at m = 57: untested."
    assert "first fails at m = 57, and fails on 3 of the 66 sides up to 70." in sections["blog-past-50"]


def test_yes_or_no_and_the_tours_kind_open_both_the_glance_and_the_section(monkeypatch):
    example = Example(start=(3, 4), seed=7, full=False, length=50, svg="<svg></svg>")
    heuristic = Heuristic(corner=Corner((0, 0), False, 60), corners=[Corner((0, 0), False, 60)], corner_svg="")
    cells, sections = key_with(monkeypatch, {"blog-example": example, "deitel-heuristic": heuristic})
    assert cells["blog-example"] == "No: from (3, 4) (random ties, seed 7) a partial tour of 50 squares."
    assert sections["blog-example"].startswith("No: from (3, 4), a square drawn at random")
    assert "the rule gives a partial tour of 50 squares" in sections["blog-example"]
    assert (
        cells["deitel-heuristic"] == "No: from (0, 0) the tour visits 60 of 64 squares; full from 0 of the 4 corners."
    )
    assert sections["deitel-heuristic"].startswith("No: the tour from (0, 0) stops short.")
    full = dataclasses.replace(example, full=True, length=64)
    cells, sections = key_with(monkeypatch, {"blog-example": full})
    assert cells["blog-example"].startswith("Yes:") and "a full tour of 64" in cells["blog-example"]
    assert sections["blog-example"].startswith("Yes:") and "a full tour of 64" in sections["blog-example"]
