"""The documents' errata and the damage to our copies, at the questions they bear on: each erratum's evidence
computed from the results or by running the script as printed (never typed in), an erratum the results do not
bear out left out, the authors' errors told apart from our copy's damage; the key shows them and the programs at
their questions, and the handout shows none of it."""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

import pytest

from knight.engine import Board, Tour
from knight.engine.backtrack import backtrack_tour
from knight.engine.greedy import warnsdorff_tour
from knight.report.answers.errata import COUNT, DAMAGED, ERRATUM, errata, reindented
from knight.report.context import StoreData, build_context
from knight.report.handout import handout_context
from knight.report.listings import PROGRAMS, program_text, run_source
from knight.report.records import Results
from knight.report.render import render_html
from knight.store.records import TourRecord
from knight.tasks import TaskResult

META = {"version": "0", "commit": "test", "date": "2023-11-14", "jobs": []}
#: The budget of the 8 x 8 search in the test's results: small, so that the key's run of try_next_move.py is quick.
BUDGET = 50_000  # as test_programs.py's


#: Programs run into a cache of the test session's own, not the user's (conftest.py).
pytestmark = pytest.mark.usefixtures("own_cache")


def record(tour: Tour) -> TourRecord:
    """A stored record of an engine's tour, as the store would give it back (its fields those of the task's
    result, as the store writes them)."""
    result = TaskResult.from_tour("test", tour)
    fields = {**vars(result.outcome), "n": result.n, "m": result.m, "method": result.method}
    stored = {f.name: fields[f.name] for f in dataclasses.fields(TourRecord) if f.name in fields}
    return TourRecord(**{**stored, "params": dict(tour.params), "start": tour.start, "jobs": ("test",)})


def heuristic_runs(*sides: int) -> list[TourRecord]:
    """Homework #8's program (Warnsdorff) from every start of each board: in the homework's own order of the moves
    and in Deitel's (ties by move order)."""
    return [
        record(warnsdorff_tour(Board(side, side), (r, c), tie))
        for side in sides
        for r in range(side)
        for c in range(side)
        for tie in ("homework", "first")
    ]


@pytest.fixture(scope="module")
def data() -> StoreData:
    runs = heuristic_runs(5, 6, 8) + [record(backtrack_tour(Board(8, 8), (0, 0), budget=BUDGET))]
    return StoreData(Results(runs), [])


def notes(data: StoreData, question: str, kind: str) -> list[str]:
    return [e.finding + " " + e.fix for e in errata(data).get(question, []) if e.kind == kind]


def test_deitels_64_moves_are_its_count_and_63_in_steps(data):
    """True in the exercise's count (its counter's 1 is the start square): a note on its count, not an erratum."""
    tour = warnsdorff_tour(Board(8, 8), (0, 0), "first")
    assert notes(data, "deitel-by-hand", ERRATUM) == []
    (found,) = notes(data, "deitel-by-hand", COUNT)
    assert "in that count the claim holds" in found
    assert f"{tour.length} squares, so it makes {len(tour.squares) - 1} moves" in found
    closed = sum(warnsdorff_tour(Board(8, 8), (r, c), "first").closed for r in range(8) for c in range(8))
    assert f"({closed} of the " in found


def test_the_heuristic_fails_more_than_occasionally_on_5_by_5(data):
    board = Board(5, 5)
    failed = [t for t in (warnsdorff_tour(board, (r, c), "homework") for r in range(5) for c in range(5)) if not t.full]
    deitel = [t for t in (warnsdorff_tour(board, (r, c), "first") for r in range(5) for c in range(5)) if not t.full]
    (found,) = notes(data, "homework-5x5", ERRATUM)
    assert f"in the homework's own move order the heuristic fails from {len(failed)} of the 25 starts" in found
    assert f"(in Deitel's move order from {len(deitel)})" in found
    assert f"{sum(board.colour(t.start) == board.minority_colour() for t in failed)} of those" in found


def test_an_erratum_the_results_do_not_bear_out_is_left_out():
    """Were the heuristic to succeed from most starts of 5 x 5, "usually" would stand: no erratum."""
    runs = [r for r in heuristic_runs(5, 6, 8) if r.full or r.n != 5]
    assert notes(StoreData(Results(runs), []), "homework-5x5", ERRATUM) == []
    assert "deitel-by-hand" not in errata(StoreData(Results([]), []))  # no results, no evidence: left out


def test_a_tie_between_two_squares_is_ordinary_wording_not_an_erratum(data):
    assert "blog-ties" not in errata(data)


def test_the_eiffel_texts_61st_move_is_read_as_deitels_64_moves(data):
    """Both count the start square as the first move: both notes on the document's count, alike."""
    assert notes(data, "eiffel-colours", ERRATUM) == []
    (found,) = notes(data, "eiffel-colours", COUNT)
    assert "in that count the claim holds" in found
    assert (
        "32 squares of one colour and 30 of the other" in found and "31 + 30 = 61 squares, which is 60 moves" in found
    )
    assert "After the 60th move (the 61st square numbered)" in found


def test_the_blog_script_as_printed_fails_as_the_interpreter_says_and_the_fix_runs(data):
    found = errata(data)["blog-script"]
    damaged, python2, swapped = found
    assert (damaged.kind, python2.kind, swapped.kind) == (DAMAGED, ERRATUM, ERRATUM)  # our copy's, then the authors'
    printed = program_text("blog_script_as_printed.txt")
    as_printed = run_source(printed, name="blog_script.py")
    assert damaged.steps[0].error == as_printed.error and as_printed.error.startswith("IndentationError")
    assert damaged.steps[0].line == as_printed.error_line
    assert damaged.steps[0].text == printed.splitlines()[as_printed.error_line - 1].strip()  # the line it names
    errors = [s.error.split(":")[0] for s in python2.steps]
    assert errors == ["SyntaxError", "NameError", ""]  # Python 2's print; no import; then it runs
    assert [s.error.split(":")[0] for s in swapped.steps] == ["IndexError", ""]
    assert 'class="gi"' in python2.diff and 'class="gd"' in python2.diff  # lines added and changed, highlighted


def test_the_indentation_restored_changes_nothing_else():
    printed, fixed = program_text("blog_script_as_printed.txt"), program_text("warnsdorff_blog.py")
    indented = reindented(printed, fixed)
    assert [line.strip() for line in indented.splitlines()] == [line.strip() for line in printed.splitlines()]
    assert indented != printed and all(
        line in fixed.splitlines() for line in indented.splitlines() if "print" not in line
    )


def test_damage_to_our_copies_is_told_apart_from_the_authors_errors(data):
    kinds = {q: {e.kind for e in found} for q, found in errata(data).items()}
    assert kinds["eiffel-first"] == kinds["eiffel-all"] == {DAMAGED}  # the OCR lost Try_Next_Move's and Try_All's lines
    assert kinds["homework-5x5"] == {ERRATUM}
    assert kinds["deitel-by-hand"] == kinds["eiffel-colours"] == {COUNT}  # true in their own count: no error
    assert kinds["blog-script"] == {DAMAGED, ERRATUM}


def sections(page: str) -> dict[str, str]:
    return dict(re.findall(r'<section class="question" id="q-([\w-]+)">(.*?)</section>', page, re.S))


def test_the_key_shows_each_note_and_program_at_its_question(data):
    page = render_html({**build_context(data), "meta": META}, edition="key")
    by_question = sections(page)
    for question, found in errata(data).items():
        section = html.unescape(by_question[question])
        tags = re.findall(
            r'<aside class="erratum( damaged| count)?">\s*<p><span class="tag">([\w \']+)</span>', section
        )
        said = {DAMAGED: "Damaged copy", COUNT: "The document's count", ERRATUM: "Erratum"}
        assert [tag for _, tag in tags] == [said[e.kind] for e in found]
    shown = {q: re.findall(r'<div class="program" id="program-([\w-]+)"', s) for q, s in by_question.items()}
    for program in PROGRAMS:
        assert shown[program.question] == [program.file.replace(".", "-").replace("_", "-")], program.file
    # the output beside it is what the program printed: the 8 x 8 search given the stored budget
    eight = html.unescape(by_question["eiffel-first"])
    assert f"$ python3 try_next_move.py 8 {BUDGET}" in eight and f"No solution within {BUDGET} nodes." in eight


def test_the_handout_shows_no_program_and_no_erratum():
    page = html.unescape(
        re.sub(r"<style>.*?</style>", "", render_html(handout_context(), edition="handout"), flags=re.S)
    )
    assert 'class="program"' not in page and "erratum" not in page.lower()
    printed = {line.strip() for line in program_text("blog_script_as_printed.txt").splitlines()}
    for program in PROGRAMS:
        own = [line.strip() for line in program_text(program.file).splitlines()]
        telling = [line for line in own if len(line) > 12 and line not in printed]  # not the blog's words as printed
        assert telling and not [line for line in telling if line in page], program.file


def test_a_run_is_kept_by_the_programs_hash_and_made_again_when_the_program_changes(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = run_source("print(6 * 7)")
    assert first.stdout == "42\n" and first.status == 0
    monkeypatch.setattr("subprocess.run", lambda *a, **k: pytest.fail("ran again"))
    assert run_source("print(6 * 7)") == first  # kept
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert run_source("print(6 * 7, end='!')").stdout == "42!"  # another program: run
    for kept in Path(tmp_path, "knight", "listings").glob("*.json"):
        kept.write_text("{not json")
    again = run_source("print(6 * 7)")  # an unreadable cache: run again
    assert (again.stdout, again.status) == (first.stdout, first.status)
