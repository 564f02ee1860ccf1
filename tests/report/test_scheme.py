"""The marking scheme (issue 37, item 2): every answer space of the worksheet by the label the handout prints beside
it, with the value the key gives, in the key's section and on the scheme's own page.

A small store is run (SMALL_JOB, seconds); the key, its scheme and the handout are rendered from it by `knight report`
as `make report` renders them; each box's value is checked against the key's own section of its question.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from pdf_layout import smallest_font
from report_helpers import SMALL_JOB, html_text, numbers, pdf_pages
from runner_helpers import knight, write_job

from knight.report.context import StoreData, build_context
from knight.report.data import load_store
from knight.report.handout import worksheet_boxes
from knight.report.questions import labels, questions
from knight.report.render import EDITIONS, render_html
from knight.report.scheme import MARKERS, Accepted, marking_scheme

META = {"version": "0", "commit": "test", "date": "2023-11-14", "jobs": []}


@pytest.fixture(scope="module")
def small_store(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("scheme-store")
    job = write_job(folder, "report-test", SMALL_JOB)
    store = folder / "knight.sqlite"
    done = knight(["run", str(job), "--workers", "2"], store, timeout=300)
    assert done.returncode == 0, done.stderr
    return store


@pytest.fixture(scope="module")
def rendered(small_store, tmp_path_factory) -> Path:
    """`knight report --edition key --edition handout`: the scheme is written beside the key (HTML and PDF)."""
    out = tmp_path_factory.mktemp("scheme-out")
    done = knight(
        ["report", "--edition", "key", "--edition", "handout", "--store", str(small_store), "--out", str(out)],
        small_store,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "knights-tour-scheme.html" in done.stdout
    return out


@pytest.fixture(scope="module")
def context(small_store) -> dict[str, Any]:
    return build_context(StoreData(*load_store(small_store)))


def handout_labels(markup: str) -> list[str]:
    """The labels the handout prints beside its answer spaces, in the page's order."""
    return re.findall(r'<span class="box-label">([A-D]\d[a-z]?\d?)</span>', markup)


def scheme_labels(markup: str) -> list[str]:
    """The labels of the scheme's table rows, in order."""
    table = re.search(r'<table class="scheme">.*?</table>', markup, flags=re.S)
    assert table, "no scheme table"
    return re.findall(r'<td class="box"><span class="box-label">(.*?)</span>', table.group(0))


def test_every_box_of_the_handout_is_in_the_scheme(rendered):
    """Each answer space of the worksheet (a number box, a pair of tick boxes, the lines of a written answer) has its
    label printed beside it, and the scheme, in the key and on its own page, has a row for each, in the same order."""
    handout = (rendered / "knights-tour-handout.html").read_text(encoding="utf-8")
    printed = handout_labels(handout)
    spaces = (
        handout.count('class="number-box"')
        + handout.count('<span class="ticks">')
        + sum(1 for q in questions() for p in q.parts if p.space in ("line", "lines"))
    )
    assert len(printed) == spaces == len(set(printed)) == len(worksheet_boxes())
    assert printed == [box.label for box in worksheet_boxes()]
    for name in ("knights-tour-scheme.html", "knights-tour.html"):
        assert scheme_labels((rendered / name).read_text(encoding="utf-8")) == printed, name
    # on paper too: every label on the worksheet's PDF and on the scheme's
    for pdf in ("knights-tour-handout.pdf", "knights-tour-scheme.pdf"):
        words = set(" ".join(pdf_pages(rendered / pdf)).split())
        assert not [label for label in printed if label not in words], pdf


def test_labels_name_the_question_part_and_box():
    boxes = {box.label: box for box in worksheet_boxes()}
    by_id = {q.id: q for q in questions()}
    assert boxes["A2a"].question == "deitel-naive" and boxes["A2a"].space == "number"
    assert [boxes[f"B2d{k}"].caption for k in (1, 2, 3)] == list(by_id["homework-5x5"].parts[3].boxes)
    assert "B1" in boxes and "B1a" not in boxes  # a question's only part has no letter
    assert boxes["C1a2"].caption == "6\u00a0×\u00a06" or boxes["C1a2"].caption == "6 × 6"
    for box in boxes.values():
        assert box.label.startswith(labels()[box.question])


def section_text(key: str, question_id: str) -> str:
    """What the key says at one question: its section's text (answer, tables, notes), spaces collapsed."""
    found = re.search(rf'<section class="question" id="q-{question_id}">(.*?)</section>', key, flags=re.S)
    assert found, question_id
    return html_text(found.group(1)).replace("\u00a0", " ")


def test_each_value_is_the_one_the_key_gives(rendered, context):
    """Every box of an answered question has a value (but for the few whose runs the small store lacks), and each
    number of it is one the key states at that question; a question the key cannot answer says so, in the scheme
    too, with what to run."""
    key = (rendered / "knights-tour.html").read_text(encoding="utf-8")
    checked, partial = 0, []
    for document in marking_scheme(context):
        for question in document.questions:
            qid = question.question.id
            for row in question.rows:
                if qid in context["missing"]:
                    assert row.mark is None and "knight run" in row.missing, row.label
                    continue
                if row.mark is None:  # the question answered from other runs than this box needs (6 x 6 here)
                    assert not row.missing, row.label
                    partial.append(row.label)
                    continue
                if row.box.space == "lines" or not row.mark.expected:
                    continue
                stated = numbers(section_text(key, qid))
                wanted = numbers(row.mark.expected)
                assert wanted <= stated, (row.label, row.mark.expected, sorted(wanted - stated))
                checked += 1
    assert checked >= 30, "few values checked: the small store answers too little for the test to mean much"
    assert len(partial) <= 4, partial


def test_the_scheme_page_shows_every_value(rendered, context):
    """The scheme's own page: each row's value, other conventions and wrong answers, as the scheme computed them; 7 pt
    or more."""
    page = html.unescape((rendered / "knights-tour-scheme.html").read_text(encoding="utf-8")).replace("\u00a0", " ")
    for document in marking_scheme(context):
        for question in document.questions:
            for row in question.rows:
                if row.mark is None:
                    continue
                for text in [
                    row.mark.expected,
                    *(a.value for a in row.mark.accepted),
                    *(w.cause for w in row.mark.wrong),
                ]:
                    assert text.replace("\u00a0", " ") in page, (row.label, text)
    assert smallest_font(rendered / "knights-tour-scheme.pdf") >= 7
    assert "scheme" in EDITIONS


def test_an_answer_can_give_its_own_alternatives(context, monkeypatch):
    """The hook for the documents' conventions: an answer's ``alternatives(part, box)`` adds (value, convention)
    pairs to that box's accepted values; a wrong answer some convention accepts is listed as wrong no longer."""
    qid = "deitel-naive"
    real = context["answers"][qid]

    class WithAlternatives:
        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

        def alternatives(self, part: int, box: int) -> list[tuple[str, str]]:
            return [("63", "a convention that takes 63 to be right")] if (part, box) == (0, 0) else []

    before = next(r for d in marking_scheme(context) for q in d.questions for r in q.rows if r.label == "A2a")
    assert before.mark is not None and "63" in [w.value for w in before.mark.wrong]
    answers = {**context["answers"], qid: WithAlternatives()}
    after = next(
        r
        for d in marking_scheme({**context, "answers": answers})
        for q in d.questions
        for r in q.rows
        if r.label == "A2a"
    )
    assert after.mark is not None
    assert Accepted("63", "a convention that takes 63 to be right") in after.mark.accepted
    assert "63" not in [w.value for w in after.mark.wrong]
    assert after.mark.expected == before.mark.expected


def test_a_marker_for_every_question():
    assert set(MARKERS) == {q.id for q in questions()}


def test_the_key_without_results_still_lists_every_box():
    """An empty store: every question missing, every box still in the key's scheme, saying what to run."""
    from knight.report.records import Results

    page = render_html({**build_context(StoreData(Results([]), [])), "meta": META}, edition="key")
    assert scheme_labels(page) == [box.label for box in worksheet_boxes()]
    assert 'class="expected missing"' in page
