"""Issue 13: `knight check` and `knight grade` — every hand-in format read back, mutations found, bad input refused."""

import csv
import json
import os
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from knight.cli import main
from knight.engine import Board, InvalidInput, find_tour
from knight.engine.board import is_knight_move
from knight.grading.check import FULL, NOT_A_TOUR, PARTIAL, check
from knight.grading.formats import FORMATS, Unreadable, parse_bytes, parse_text, read_file, square_name
from knight.grading.gradebook import grade_directory, load_rubric

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "submissions"

BOARDS = [Board(5, 5), Board(6, 6), Board(8, 8), Board(5, 6), Board(6, 8), Board(3, 4), Board(10, 10)]
METHODS = [
    ("naive", {}),
    ("static", {}),
    ("warnsdorff", {"tie": "first"}),
    ("warnsdorff", {"tie": "lookahead-min"}),
    ("warnsdorff", {"tie": "random", "seed": 3}),
    ("warnsdorff", {"tie": "blog"}),
    ("random-walk", {"seed": 1}),
    ("backtrack", {"order": "warnsdorff", "budget": 20_000}),
    ("parberry", {}),
]
STYLES = {
    "array": ["spaces", "commas", "bordered", "prose", "zero-based", "dots"],
    "pairs": ["zero-parens", "one-parens", "zero-lines", "one-lines"],
    "chess": ["spaces", "arrows"],
    "csv": ["step", "no-step", "shuffled"],
    "json": ["json"],
}


# --- writing a submission (the tests' own writer: any path, legal or not) -----------------------


def write(board: Board, squares: list, fmt: str, style: str, numbers: np.ndarray | None = None) -> str:
    """``squares`` (visiting order; may be off the board or repeated) written as a student would."""
    if fmt == "array":
        if numbers is None:
            numbers = np.zeros((board.n, board.m), dtype=np.int64)
            for k, (r, c) in enumerate(squares, start=1):
                numbers[r, c] = k
        if style == "zero-based":
            numbers = numbers - 1  # only for full tours
        width = len(str(int(numbers.max()))) + 1
        cell = (lambda v: "." if v == 0 else str(v)) if style == "dots" else str
        rows = [[cell(int(v)).rjust(width) for v in row] for row in numbers.tolist()]
        if style == "commas":
            return "\n".join(",".join(row) for row in rows) + "\n"
        if style == "bordered":
            line = "+" + "+".join("-" * (width + 1) for _ in range(board.m)) + "+"
            return "\n".join([line] + [x for row in rows for x in ("| " + "| ".join(row) + "|", line)]) + "\n"
        body = "\n".join(" ".join(row) for row in rows)
        return (
            f"Knight's tour on {board.n} x {board.m}:\n{body}\nDone, the tour has been printed.\n"
            if style == "prose"
            else body + "\n"
        )
    if fmt == "pairs":
        shift = 1 if style.startswith("one") else 0
        if style.endswith("parens"):
            return "Path: " + " ".join(f"({r + shift}, {c + shift})" for r, c in squares) + "\n"
        return "".join(f"{r + shift} {c + shift}\n" for r, c in squares)
    if fmt == "chess":
        names = [f"{chr(97 + c)}{board.n - r}" for r, c in squares]
        return (" -> ".join(names) if style == "arrows" else " ".join(names)) + "\n"
    if fmt == "csv":
        records = [(k, r, c) for k, (r, c) in enumerate(squares, start=1)]
        if style == "no-step":
            return "row,col\n" + "".join(f"{r},{c}\n" for _, r, c in records)
        if style == "shuffled":
            records = records[1::2] + records[::2]
        return "step,row,col\n" + "".join(f"{k},{r},{c}\n" for k, r, c in records)
    return json.dumps({"board": [board.n, board.m], "squares": [list(sq) for sq in squares], "method": "student"})


@st.composite
def tours(draw, full_only: bool = False):
    board = draw(st.sampled_from(BOARDS))
    method, params = draw(st.sampled_from(METHODS))
    start = (draw(st.integers(0, board.n - 1)), draw(st.integers(0, board.m - 1)))
    try:
        tour = find_tour(board, start, method, **params)
    except InvalidInput:  # parberry on a board it does not cover
        tour = find_tour(board, start, "warnsdorff")
    assume(tour.full or not full_only)
    return tour


@st.composite
def formats(draw, tour):
    fmt = draw(st.sampled_from(FORMATS))
    style = draw(st.sampled_from(STYLES[fmt]))
    return fmt, style


SETTINGS = settings(
    max_examples=int(os.environ.get("GRADING_EXAMPLES", 80)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def usable(tour, fmt, style) -> bool:
    """Writings that hold the tour unambiguously (the array needs 1-based counters for a partial tour; a
    lone pair list cannot tell its board when the path stays off the last row or column)."""
    if fmt == "array" and style == "zero-based" and not tour.full:
        return False
    if fmt == "array" and not tour.full and tour.length == tour.board.size - 1 and style != "dots":
        return False  # 0 … nm−1 in the grid: read as a 0-based full tour when that is legal (by design)
    return tour.length >= 2 and unambiguous(tour.board, tour.squares, fmt, style)


def unambiguous(board, squares, fmt, style) -> bool:
    """Pairs without a 0 are 1-based only when some square reaches the last row or column (then the
    1-based numbers reach n or m); a path that touches neither row 0 nor the last could be either."""
    if fmt != "pairs":
        return True
    on = [(r, c) for r, c in squares if board.contains((r, c))]
    if style.startswith("one"):
        return any(r == board.n - 1 or c == board.m - 1 for r, c in on)
    return any(r == 0 or c == 0 for r, c in squares)


@SETTINGS
@given(data=st.data())
def test_every_method_in_every_format_reads_back(data):
    tour = data.draw(tours())
    fmt, style = data.draw(formats(tour))
    assume(usable(tour, fmt, style))
    text = write(tour.board, tour.squares, fmt, style)
    given_board = None if tour.full else tour.board  # a partial path cannot tell its board
    submission = parse_text(text, board=given_board if fmt != "array" else None)
    assert submission.format == fmt
    assert submission.board == tour.board
    assert submission.squares == tour.squares
    result = check(submission, reproduce=False)
    assert result.verdict == (FULL if tour.full else PARTIAL), result.errors
    assert result.closed == tour.closed
    assert result.first_error_step is None
    if tour.method == "warnsdorff":
        assert result.rule_followed is not False  # the engine's Warnsdorff always takes a lowest degree


def first_error(tour, fmt, style, squares, numbers=None, board=True):
    assume(unambiguous(tour.board, squares, fmt, style))
    text = write(tour.board, squares, fmt, style, numbers)
    return check(parse_text(text, board=tour.board if board else None), reproduce=False)


MUTABLE = [(fmt, style) for fmt in FORMATS for style in STYLES[fmt] if style not in ("zero-based",)]


@SETTINGS
@given(data=st.data())
def test_two_steps_swapped_is_an_illegal_step(data):
    tour = data.draw(tours())
    assume(tour.length >= 4)
    fmt, style = data.draw(st.sampled_from(MUTABLE))
    i = data.draw(st.integers(1, tour.length - 2))
    squares = tour.squares
    squares[i], squares[i + 1] = squares[i + 1], squares[i]
    result = first_error(tour, fmt, style, squares)
    assert result.verdict == NOT_A_TOUR
    assert result.first_error_step == i  # from square i to the swapped-in square i + 2: same colour, no knight move
    assert result.illegal and result.illegal.startswith(f"step {i}: ")


@SETTINGS
@given(data=st.data())
def test_a_step_dropped(data):
    tour = data.draw(tours())
    assume(tour.length >= 3)
    fmt, style = data.draw(st.sampled_from(MUTABLE))
    i = data.draw(st.integers(1, tour.length - 1))
    squares = tour.squares
    dropped = squares[i]
    del squares[i]
    result = first_error(tour, fmt, style, squares)
    if i == tour.length - 1 and fmt == "array" and is_knight_move(dropped, squares[0]):
        # 0 on the one unvisited square, a knight move before square 1: the array reads as a 0-based full tour too
        assert result.verdict in (PARTIAL, FULL)
    elif i == tour.length - 1:  # the last step dropped: a partial tour
        assert result.verdict == PARTIAL and result.length == tour.length - 1
    else:
        assert result.verdict == NOT_A_TOUR and result.first_error_step == i


@SETTINGS
@given(data=st.data())
def test_a_number_left_out_of_the_array(data):
    tour = data.draw(tours())
    assume(tour.length >= 3)
    k = data.draw(st.integers(2, tour.length - 1))  # the number erased (its square shows 0)
    numbers = tour.array()
    numbers[numbers == k] = 0
    result = first_error(tour, "array", "spaces", tour.squares, numbers)
    assert result.verdict == NOT_A_TOUR and result.first_error_step == k - 1
    assert any(f"number {k} is missing" in error for error in result.errors)


@SETTINGS
@given(data=st.data())
def test_a_square_repeated(data):
    tour = data.draw(tours())
    assume(tour.length >= 3)
    fmt, style = data.draw(st.sampled_from([pair for pair in MUTABLE if pair[0] != "array"]))
    i = data.draw(st.integers(1, tour.length - 1))
    j = data.draw(st.integers(0, i - 1))
    squares = tour.squares
    squares.insert(i + 1, squares[j])  # after square i + 1 (1-based), square j + 1 again
    result = first_error(tour, fmt, style, squares)
    assert result.verdict == NOT_A_TOUR and result.first_error_step == i + 1
    assert result.repeated == {tour.squares[j]: [j + 1, i + 2]}


@SETTINGS
@given(data=st.data())
def test_a_step_off_the_board(data):
    tour = data.draw(tours())
    assume(tour.length >= 2 and tour.board.m <= 26)
    fmt, style = data.draw(st.sampled_from([pair for pair in MUTABLE if pair[0] != "array"]))
    i = data.draw(st.integers(1, tour.length - 1))
    squares = tour.squares
    squares[i] = (tour.board.n, squares[i][1])  # one row below the board
    result = first_error(tour, fmt, style, squares)
    assert result.verdict == NOT_A_TOUR and result.first_error_step == i
    assert result.off_board == [(i + 1, (tour.board.n, tour.squares[i][1]))]


@SETTINGS
@given(data=st.data())
def test_a_number_written_twice(data):
    tour = data.draw(tours())
    assume(tour.length >= 4)
    k = data.draw(st.integers(3, tour.length))  # square k gets the number k - 1 again
    numbers = tour.array()
    numbers[numbers == k] = k - 1
    style = data.draw(st.sampled_from(["spaces", "commas", "bordered", "prose", "dots"]))
    result = first_error(tour, "array", style, tour.squares, numbers)
    assert result.verdict == NOT_A_TOUR and result.first_error_step == k - 2
    assert any(f"number {k - 1} is written twice" in error for error in result.errors)


# --- the two readings of 0 … nm−1 ----------------------------------------------------------------


def test_zero_based_grid_is_read_as_a_full_tour_when_legal_else_as_a_partial_one():
    tour = find_tour(Board(5, 5), (0, 0), "warnsdorff")
    zero = parse_text(write(tour.board, tour.squares, "array", "zero-based"))
    assert check(zero, reproduce=False).verdict == FULL and "0-based" in zero.notes[0]
    numbers = tour.array() - 1
    numbers = np.where(numbers == 0, 1, np.where(numbers == 1, 0, numbers))  # 0 … 24, not a legal 0-based tour
    other = parse_text(write(tour.board, [], "array", "spaces", numbers))
    assert "1-based partial" in other.notes[0]
    assert check(other, reproduce=False).verdict != FULL


# --- the rule, reproduction and the assigned exercise --------------------------------------------


def test_rule_broken_names_the_step_and_the_allowed_squares():
    tour = find_tour(Board(8, 8), (0, 0), "naive")
    result = check(parse_text(write(tour.board, tour.squares, "array", "spaces")))
    assert result.rule_followed is False and result.rule_broken_at == 2
    assert result.rule_chosen not in result.rule_allowed
    assert result.reproduced_by.startswith("first legal move")


def test_reproduced_by_warnsdorff_random_ties_and_assigned_exercise():
    tour = find_tour(Board(6, 6), (2, 1), "warnsdorff", tie="random", seed=42)
    result = check(parse_text(write(tour.board, tour.squares, "pairs", "zero-lines")), board=Board(6, 6), start=(0, 0))
    assert result.reproduced_by == "Warnsdorff (tie random, seed 42) from (2, 1)"
    assert result.assigned is False and "starts at (2, 1)" in result.assigned_note


def test_square_names_follow_the_handout():
    """Squares are named as the handout and the board diagrams write them: (row, col), 0-based from the top-left."""
    assert square_name(Board(8, 8), (7, 0)) == "(7, 0)" and square_name(Board(8, 8), (0, 7)) == "(0, 7)"
    assert square_name(Board(3, 40), (2, 39)) == "(2, 39)"


# --- bad input: a verdict or one clear line, exit 2 ------------------------------------------------


def run(capsys, *argv):
    with pytest.raises(SystemExit) as stop:
        main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return stop.value.code, out, err


def refused(capsys, path, *options):
    status, out, err = run(capsys, "check", path, *options)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


def test_empty_file(tmp_path, capsys):
    (tmp_path / "e.txt").write_text("")
    assert "empty" in refused(capsys, tmp_path / "e.txt")


def test_binary_file(tmp_path, capsys):
    (tmp_path / "b.bin").write_bytes(bytes(range(256)) * 40)
    assert "binary" in refused(capsys, tmp_path / "b.bin")
    (tmp_path / "c.bin").write_bytes(np.random.default_rng(0).integers(128, 256, 5000, dtype=np.uint8).tobytes())
    assert "binary" in refused(capsys, tmp_path / "c.bin")


def test_ragged_array(tmp_path, capsys):
    (tmp_path / "r.txt").write_text("1 16 11\n10 5\n17 12 15\n")
    assert "ragged" in refused(capsys, tmp_path / "r.txt")


def test_number_out_of_range(tmp_path, capsys):
    tour = find_tour(Board(5, 5), (0, 0), "warnsdorff")
    numbers = tour.array()
    numbers[2, 2] = 26
    (tmp_path / "o.txt").write_text(write(tour.board, [], "array", "spaces", numbers))
    assert "out of range" in refused(capsys, tmp_path / "o.txt")


def test_missing_numbers_are_a_verdict(tmp_path, capsys):
    tour = find_tour(Board(5, 5), (0, 0), "warnsdorff")
    numbers = tour.array()
    numbers[numbers == 7] = 0
    (tmp_path / "m.txt").write_text(write(tour.board, [], "array", "spaces", numbers))
    status, out, err = run(capsys, "check", tmp_path / "m.txt")
    assert status == 1 and "number 7 is missing" in out and err == ""


def test_ten_megabyte_file_is_refused_at_once(tmp_path, capsys):
    path = tmp_path / "big.txt"
    path.write_bytes(b"1 2 3 4 5 6 7 8\n" * (10_000_000 // 16))
    began = time.perf_counter()
    assert "larger than" in refused(capsys, path)
    assert time.perf_counter() - began < 1.0


def test_mixed_formats(tmp_path, capsys):
    tour = find_tour(Board(5, 5), (0, 0), "warnsdorff")
    text = write(tour.board, tour.squares, "array", "spaces") + write(tour.board, tour.squares, "chess", "spaces")
    (tmp_path / "x.txt").write_text(text)
    assert "mixed formats" in refused(capsys, tmp_path / "x.txt")
    status, out, _ = run(capsys, "check", tmp_path / "x.txt", "--format", "chess")  # forced: read as chess
    assert status == 0 and "Format: chess" in out


def test_unreadable_files(tmp_path, capsys):
    assert "cannot open" in refused(capsys, tmp_path / "missing.txt")
    assert "directory" in refused(capsys, tmp_path)
    (tmp_path / "p.txt").write_text("just prose, no tour\n")
    assert "no tour found" in refused(capsys, tmp_path / "p.txt")
    (tmp_path / "w.txt").write_text(write(Board(5, 5), find_tour(Board(5, 5), (0, 0)).squares, "array", "spaces"))
    status, out, _ = run(capsys, "check", tmp_path / "w.txt", "--board", "6")  # an array carries its board
    assert status == 1 and "not the assigned exercise: board 5x5, assigned 6x6" in out  # a full tour, wrong board
    assert "unknown format" in refused(capsys, tmp_path / "w.txt", "--format", "xml")
    if os.geteuid() != 0:  # root reads anything
        (tmp_path / "w.txt").chmod(0)
        assert "cannot open" in refused(capsys, tmp_path / "w.txt")


def test_unreadable_never_a_traceback_on_arbitrary_bytes():
    rng = np.random.default_rng(1)
    for size in (1, 10, 100, 1000):
        for _ in range(20):
            data = rng.integers(0, 256, size, dtype=np.uint8).tobytes()
            try:
                check(parse_bytes(data), reproduce=False)
            except Unreadable:
                pass


# --- knight check and knight grade ---------------------------------------------------------------


def test_check_prints_the_findings_and_json(capsys):
    status, out, err = run(capsys, "check", EXAMPLES / "ivan.txt", "--board", "8", "--start", "0", "0")
    assert status == 1 and err == ""
    assert "Verdict: not a tour" in out and "First error: step 16: " in out and "is not a knight move" in out
    status, out, _ = run(capsys, "check", EXAMPLES / "alice.txt", "--json")
    data = json.loads(out)
    assert status == 0 and data["verdict"] == "full" and data["reproduced_by"].startswith("Warnsdorff")


def test_grade_the_example_class(tmp_path, capsys):
    (tmp_path / "class").mkdir()
    for path in EXAMPLES.iterdir():
        (tmp_path / "class" / path.name).write_bytes(path.read_bytes())
    (tmp_path / "class" / "late").mkdir()
    status, out, err = run(
        capsys, "grade", tmp_path / "class", "--out", tmp_path / "out", "--board", "8", "--start", "0", "0"
    )
    assert status == 1  # peggy's file holds no tour
    assert "skipped late: a sub-directory" in err
    rows = {row["student"]: row for row in csv.DictReader(open(tmp_path / "out" / "gradebook.csv"))}
    assert len(rows) == len(list(EXAMPLES.iterdir())) + 1  # a row for the sub-directory, saying it was skipped
    late = rows.pop("late")
    assert late["verdict"] == "skipped" and "sub-directory" in late["note"]
    assert not (tmp_path / "out" / "late.html").exists()
    assert rows["bob"]["copied-from"] == "carol" and rows["carol"]["copied-from"] == "bob"
    assert rows["peggy"]["verdict"] == "unreadable" and rows["peggy"]["note"]
    assert rows["alice"]["score"] == "100" and rows["ivan"]["first error step"] == "16"
    assert {row["format"] for row in rows.values()} >= {"array", "pairs", "chess", "csv", "json"}
    for student in rows:
        page = (tmp_path / "out" / f"{student}.html").read_text()
        assert "<svg" in page or student == "peggy"
    assert 'class="first-error"' in (tmp_path / "out" / "ivan.html").read_text()


def test_rubric_and_bad_arguments(tmp_path, capsys):
    (tmp_path / "r.toml").write_text("[rubric]\nfull_tour = 70\nlegal = 20\nrule_followed = 10\n")
    assert load_rubric(tmp_path / "r.toml")["full_tour"] == 70
    (tmp_path / "bad.toml").write_text("fulltour = 1\n")
    status, _, err = run(capsys, "grade", EXAMPLES, "--out", tmp_path / "o", "--rubric", tmp_path / "bad.toml")
    assert status == 2 and "unknown key" in err
    status, _, err = run(capsys, "grade", tmp_path / "nowhere", "--out", tmp_path / "o")
    assert status == 2 and "not a directory" in err
    one = tmp_path / "one"
    one.mkdir()
    (one / "x.txt").write_bytes((EXAMPLES / "oscar.txt").read_bytes())
    status, _, _ = run(capsys, "grade", one, "--out", tmp_path / "o", "--rubric", tmp_path / "r.toml")
    rows = list(csv.DictReader(open(tmp_path / "o" / "gradebook.csv")))
    # full 70 + legal 20 + the rule's 10 for the share of the steps taken before it was first broken
    result = check(read_file(one / "x.txt"))
    rule = 10 * (result.rule_broken_at - 1) / 63
    assert status == 0 and result.rule_followed is False and float(rows[0]["score"]) == round(90 + rule, 1)


def test_an_interrupted_batch_keeps_what_it_wrote(tmp_path):
    done = []

    def stop_after_three(row):
        done.append(row)
        if len(done) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        grade_directory(EXAMPLES, tmp_path, on_done=stop_after_three)
    rows = list(csv.DictReader(open(tmp_path / "gradebook.csv")))
    assert [row["student"] for row in rows[:-1]] == [row.student for row in done]
    last = rows[-1]  # says the gradebook is not whole, and how far it got
    assert last["verdict"] == "interrupted" and f"after 3 of {len(list(EXAMPLES.iterdir()))} entries" in last["note"]
    assert all((tmp_path / f"{row.student}.html").exists() for row in done)


def test_feedback_as_pdf(tmp_path):
    one = tmp_path / "one"
    one.mkdir()
    (one / "ivan.txt").write_bytes((EXAMPLES / "ivan.txt").read_bytes())
    grade_directory(one, tmp_path / "out", pdf=True)
    assert (tmp_path / "out" / "ivan.pdf").read_bytes().startswith(b"%PDF")


def test_one_methods_output_handed_in_twice_is_not_flagged(tmp_path):
    for name in ("ann", "ben"):
        (tmp_path / f"{name}.txt").write_bytes((EXAMPLES / "alice.txt").read_bytes())
    batch = grade_directory(tmp_path, tmp_path / "out")
    assert [row.copied_from for row in batch.rows] == [[], []]


def test_box_drawn_grid_and_wrong_exercise_penalty(tmp_path):
    tour = find_tour(Board(5, 5), (0, 0), "warnsdorff")
    rows = ["┌" + "┬".join(["──"] * 5) + "┐"]
    rows += ["│" + "│".join(f"{v:2}" for v in row) + "│" for row in tour.array().tolist()]
    rows += ["└" + "┴".join(["──"] * 5) + "┘"]
    (tmp_path / "s.txt").write_text("Here is my tour\n" + "\n".join(rows) + "\nThe end\n")
    submission = parse_text((tmp_path / "s.txt").read_text())
    assert submission.squares == tour.squares
    rubric = tmp_path.parent / f"{tmp_path.name}-rubric.toml"
    rubric.write_text("wrong_exercise_penalty = 25\n")
    batch = grade_directory(tmp_path, tmp_path / "out", start=(1, 1), rubric=load_rubric(rubric))
    assert [row.score for row in batch.rows] == [75.0]
