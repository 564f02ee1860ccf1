"""C2, Try_All's answer: every board counted here, open and closed, by enumeration and by the frontier method, with
the time each took (and the frontier's shards), all read from the store; the two methods checked against each other (a disagreement said
loudly); the literature cited only for boards beyond the largest counted."""

from __future__ import annotations

import dataclasses
import html
import io
import re
from pathlib import Path

import pytest
from runner_helpers import write_job

from knight.report.answers import ANSWERS
from knight.report.answers.common import StoreData
from knight.report.answers.eiffel_counts import LITERATURE, AllTours, ExactCount, beyond, eiffel_all
from knight.report.context import build_context
from knight.report.data import load_store
from knight.report.records import Results
from knight.report.render import render_html
from knight.report.text import duration
from knight.runner import load_job, run_jobs
from knight.runner.progress import LineReporter
from knight.store import Store

JOB = """
name = "counts"
[[sweep]]
boards = [5, "4x5"]
method = "census"

[[sweep]]
boards = [6]
method = "census"
params = { closed = true }

[[sweep]]
boards = [5, "4x5"]
method = "frontier"

[[sweep]]
boards = [6, "5x6"]
method = "frontier"
params = { closed = true }
"""
META = {"version": "0", "commit": "test", "date": "2023-11-14", "jobs": []}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("try-all")
    path = folder / "s.sqlite"
    with Store(path) as store:
        summary = run_jobs([load_job(write_job(folder, "counts", JOB))], store, reporter=LineReporter(io.StringIO()))
    assert summary.failed == 0, summary.failures
    return path


def section_and_glance(monkeypatch: pytest.MonkeyPatch, answer: AllTours) -> tuple[str, str]:
    """The key rendered with ``answer`` as C2's: its section's text and its glance cell's."""
    monkeypatch.setitem(ANSWERS, "eiffel-all", lambda data: answer)
    page = render_html({**build_context(StoreData(Results([]), [])), "meta": META}, edition="key")
    page = page.replace("\u00a0", " ")
    section = re.search(r'<section class="question" id="q-eiffel-all">(.*?)</section>', page, re.S)
    glance = re.search(r'<a href="#q-eiffel-all">.*?<td class="glance-answer[^"]*">(.*?)</td>', page, re.S)
    assert section and glance
    return section.group(1), text(glance.group(1))


def text(fragment: str) -> str:
    """What a reader sees of an HTML fragment (no-break spaces as spaces)."""
    return re.sub(r"\s+", " ", plain(html.unescape(re.sub(r"<[^>]+>", " ", fragment)))).strip()


def plain(words: str) -> str:
    return words.replace("\u00a0", " ")


def test_every_board_counted_here_with_its_methods_and_times(stored: Path) -> None:
    answer = eiffel_all(StoreData(*load_store(stored)))
    with Store(stored, read_only=True) as store:
        censuses = {(c.n, c.m, c.closed): c for c in store.censuses()}
        frontier = {(f.n, f.m, f.closed): f for f in store.frontier_counts()}
    rows = {(c.n, c.m, c.closed): c for c in answer.counts}
    assert set(rows) == set(censuses) | set(frontier)
    for key, row in rows.items():
        census, count = censuses.get(key), frontier.get(key)
        expected = None if census is None else (census.undirected if census.closed else census.total)
        assert row.enumeration == expected and row.frontier == (None if count is None else count.tours)
        assert row.enumeration_seconds == (None if census is None else census.seconds)
        assert row.frontier_seconds == (None if count is None else count.seconds)
        assert row.peak_states == (None if count is None else count.peak_states)
        assert row.shards == (None if count is None else count.shards)
        assert row.verdict == ("agree" if census and count else "")
    assert rows[5, 6, True].enumeration is None and rows[5, 6, True].tours == frontier[5, 6, True].tours
    assert len(answer.both_ways) == 3 and not answer.disagreements
    # the literature only beyond: open tours counted up to 5 x 5, closed up to 6 x 6
    assert [(c.n, c.closed) for c in answer.literature] == [(6, False), (7, False), (8, False), (8, True)]
    assert (6, 6, True) not in {(c.n, c.m, c.closed) for c in answer.literature}
    assert {c.tours for c in answer.literature} < {c.tours for c in LITERATURE}


def test_the_section_shows_each_count_with_its_method_and_time(stored: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answer = eiffel_all(StoreData(*load_store(stored)))
    section, glance = section_and_glance(monkeypatch, answer)
    table = re.search(r'<table class="data compact exact-counts">(.*?)</table>', section, re.S)
    assert table
    cells = [text(row) for row in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)[1:]]
    assert len(cells) == len(answer.counts)
    for row, count in zip(cells, answer.counts):
        assert row.startswith(plain(f"{count.board} {count.kind} {count.tours:,} "))
        if count.enumeration is not None:
            assert duration(count.enumeration_seconds or 0) in row
        if count.frontier is not None:  # its time, peak and shards
            assert f"{duration(count.frontier_seconds or 0)} ({count.peak_states:,}, {count.shards})" in row
        assert row.endswith(count.verdict or ")")  # both methods: their verdict; the frontier alone: its shards
    words = text(section)
    assert "agree on all 3 boards both counted" in words and "agree on all 3 boards both counted" in glance
    for cited in answer.literature:
        assert plain(f"{cited.board} has {cited.tours:,}") in words and cited.source in words
    assert "9,862 closed tours as cycles" not in words  # 6 x 6 closed is counted here: not cited
    assert plain(f"Counted up to {answer.largest.board} ({answer.largest.tours:,} closed)") in glance


def test_a_disagreement_is_said_loudly(stored: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answer = eiffel_all(StoreData(*load_store(stored)))
    wrong = next(c for c in answer.counts if c.verdict)
    counts = [dataclasses.replace(c, frontier=c.tours + 2) if c is wrong else c for c in answer.counts]
    broken = dataclasses.replace(answer, counts=counts)
    section, glance = section_and_glance(monkeypatch, broken)
    said = plain(f"DISAGREE on {wrong.board} {'closed' if wrong.closed else 'open'}")
    assert said in glance and said in text(section) and "one of them is wrong" in text(section)
    verdicts = re.findall(r'<td class="verdict \w+">(\w+)</td>', section)
    assert sorted(verdicts) == ["agree"] * (len(answer.both_ways) - 1) + ["disagree"]  # the others still agree
    assert f"enumeration counts {wrong.tours:,}, the frontier method {wrong.tours + 2:,}" in text(section)


def test_the_literature_is_cited_for_every_board_no_count_here_covers() -> None:
    """Beyond means not within a board counted here, either way round: a long thin board of more squares than
    7 x 7 does not make 7 x 7's count the project's own (it hid it when judged by squares alone)."""
    counted = [ExactCount(13, 4, False, frontier=1), ExactCount(6, 7, True, frontier=1)]
    cited = {(c.n, c.m, c.closed) for c in beyond(counted)}
    assert {(6, 6, False), (7, 7, False), (8, 8, False), (8, 8, True)} == cited  # 6 x 7 closed covers 6 x 6's
    assert not beyond([ExactCount(8, 8, False, frontier=1), ExactCount(8, 9, True, frontier=1)])


@pytest.mark.parametrize(
    ("seconds", "said"), [(59.4, "59 s"), (59.7, "1 min"), (3599.0, "1 h 0 min"), (5400, "1 h 30 min")]
)
def test_a_time_is_said_after_it_is_rounded(seconds: float, said: str) -> None:
    assert duration(seconds) == said  # not "60 s", not "60 min"
