"""One verdict (issue 36): `knight check`'s exit status is the verdict on the assignment, and the rubric's score is
monotonic in the work done (a property test), a wrong exercise never scores full marks, a copy is marked for review."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knight.cli import main
from knight.engine import Board, find_tour
from knight.engine.board import HORIZONTAL, VERTICAL, is_knight_move
from knight.grading.check import FULL, NOT_A_TOUR, check
from knight.grading.formats import Submission
from knight.grading.gradebook import DEFAULT_RUBRIC, grade_directory, score

MOVES = list(zip(VERTICAL, HORIZONTAL))


def run(capsys, *argv):
    with pytest.raises(SystemExit) as stop:
        main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return stop.value.code, out, err


def tour_file(tmp_path: Path, name: str, n: int, start: tuple[int, int], closed: bool = False) -> Path:
    """A full tour of n x n from ``start`` as `knight tour --json` writes it."""
    tour = find_tour(
        Board(n, n), start, "backtrack" if closed else "warnsdorff", **({"closed": True} if closed else {})
    )
    path = tmp_path / name
    path.write_text(json.dumps({"board": [n, n], "squares": [list(sq) for sq in tour.squares]}))
    return path


# --- the exit status is the verdict on the assignment --------------------------------------------


def test_only_a_full_tour_of_the_assigned_exercise_exits_0(tmp_path, capsys):
    five = tour_file(tmp_path, "erin.json", 5, (0, 0))
    eight = tour_file(tmp_path, "alice.json", 8, (0, 0))
    other_start = tour_file(tmp_path, "heidi.json", 8, (3, 3))
    cases = [
        (eight, ["--board", "8", "--start", "0,0"], 0),
        (five, ["--board", "8", "--start", "0,0"], 1),  # a 5x5 tour for the 8x8 exercise
        (other_start, ["--board", "8", "--start", "0,0"], 1),  # a full tour from another square
        (other_start, ["--board", "8"], 0),  # any start when none is assigned
        (five, [], 0),  # no assignment: a full tour is a full tour
    ]
    for path, options, status in cases:
        code, out, err = run(capsys, "check", path, *options)
        assert code == status, (path.name, options, out, err)
        if status == 1:
            exercise = [line for line in out.splitlines() if line.startswith("Exercise:")]
            assert len(exercise) == 1 and "not passed" in exercise[0] and "assigned" in exercise[0], out
        code, out, _ = run(capsys, "check", path, *options, "--json")
        report = json.loads(out)
        assert code == status and report["passed"] is (status == 0) and report["verdict"] == FULL


def test_a_closed_tour_assigned_refuses_an_open_one(tmp_path, capsys):
    open_tour = tour_file(tmp_path, "open.json", 6, (0, 0))
    closed_tour = tour_file(tmp_path, "closed.json", 6, (0, 0), closed=True)
    code, out, _ = run(capsys, "check", open_tour, "--closed", "--json")
    assert code == 1 and json.loads(out)["closed"] is False and json.loads(out)["passed"] is False
    code, out, _ = run(capsys, "check", closed_tour, "--closed", "--json")
    assert code == 0 and json.loads(out)["closed"] is True and json.loads(out)["passed"] is True


def test_the_course_file_assigns_as_the_options_do(tmp_path, capsys):
    course = tmp_path / "course.toml"
    course.write_text(
        'title = "T"\nclass = "C"\ndue = 2026-01-01\nkey_public_from = 2026-01-02\n'
        '[assignment]\nboard = 8\nstart = "0,0"\n'
    )
    for path in (tour_file(tmp_path, "a.json", 8, (0, 0)), tour_file(tmp_path, "b.json", 8, (2, 2))):
        by_course = run(capsys, "check", path, "--course", course, "--json")
        by_options = run(capsys, "check", path, "--board", "8", "--start", "0,0", "--json")
        assert by_course[0] == by_options[0] and json.loads(by_course[1]) == json.loads(by_options[1])
    bare = tmp_path / "bare.toml"
    bare.write_text('title = "T"\nclass = "C"\ndue = 2026-01-01\nkey_public_from = 2026-01-02\n')
    code, out, err = run(capsys, "check", path, "--course", bare)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "[assignment]" in err


def test_an_unreadable_file_prints_the_same_fields_in_json(tmp_path, capsys):
    readable = tour_file(tmp_path, "a.json", 5, (0, 0))
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\x00\x01\x02")
    code, out, err = run(capsys, "check", binary, "--json")
    report = json.loads(out)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert report["verdict"] == "unreadable" and report["passed"] is False and report["errors"]
    _, good, _ = run(capsys, "check", readable, "--json")
    assert set(report) == set(json.loads(good))


# --- the rubric: monotonic, a wrong exercise below full marks, a copy to review ----------------------


def walk(board: Board, start: tuple[int, int], length: int, rng: random.Random) -> list[tuple[int, int]]:
    """A legal path of at most ``length`` squares from ``start``, each move a random one to a new square."""
    path, seen = [start], {start}
    while len(path) < length:
        r, c = path[-1]
        options = [
            (r + dr, c + dc) for dr, dc in MOVES if board.contains((r + dr, c + dc)) and (r + dr, c + dc) not in seen
        ]
        if not options:
            break
        path.append(rng.choice(options))
        seen.add(path[-1])
    return path


def graded(on: Board, squares: list, **assignment) -> float:
    submission = Submission("pairs", on, list(squares), list(range(1, len(squares) + 1)))
    return score(check(submission, reproduce=False, **assignment), DEFAULT_RUBRIC)


boards = st.sampled_from([Board(3, 4), Board(5, 5), Board(5, 6), Board(6, 6), Board(8, 8)])
assignments = st.sampled_from([{}, {"closed": True}, {"start": (0, 0)}, {"board": Board(8, 8), "start": (0, 0)}])


@settings(max_examples=150, deadline=None)
@given(board=boards, seed=st.integers(0, 10**6), assignment=assignments, broken=st.booleans())
def test_adding_a_correct_square_never_lowers_the_score(board, seed, assignment, broken):
    rng = random.Random(seed)
    start = (rng.randrange(board.n), rng.randrange(board.m))
    path = walk(board, start, rng.randrange(1, board.size + 1), rng)
    if broken and len(path) > 2:  # a tour with an error in it: the square added after it earns nothing, loses nothing
        path[rng.randrange(1, len(path))] = path[0]
    r, c = path[-1]
    nexts = [(r + dr, c + dc) for dr, dc in MOVES if board.contains((r + dr, c + dc)) and (r + dr, c + dc) not in path]
    for square in nexts:
        assert graded(board, path + [square], **assignment) >= graded(board, path, **assignment)


@settings(max_examples=150, deadline=None)
@given(board=boards, seed=st.integers(0, 10**6), assignment=assignments)
def test_breaking_a_legal_step_never_raises_the_score(board, seed, assignment):
    rng = random.Random(seed)
    path = walk(board, (rng.randrange(board.n), rng.randrange(board.m)), board.size, rng)
    if len(path) < 2:
        return
    at = rng.randrange(1, len(path))
    wrong = [
        sq for sq in ((r, c) for r in range(board.n) for c in range(board.m)) if not is_knight_move(path[at - 1], sq)
    ]
    broken = path[:at] + [rng.choice(wrong)] + path[at + 1 :]
    assert graded(board, broken, **assignment) <= graded(board, path, **assignment)


def test_a_broken_tour_earns_its_legal_prefix():
    """Legal for 18 steps, then two numbers swapped: the 19 squares before the error earn their share."""
    board = Board(8, 8)
    path = list(find_tour(board, (0, 0), "warnsdorff").squares)
    swapped = path[:19] + [path[20], path[19]] + path[21:]
    result = check(Submission("pairs", board, swapped, list(range(1, 65))), reproduce=False)
    assert result.verdict == NOT_A_TOUR and result.legal_prefix == 19
    partial = graded(board, path[:19])
    assert 0 < score(result, DEFAULT_RUBRIC) < partial  # the prefix's credit, less the legal points


def test_a_wrong_exercise_never_scores_full_marks(tmp_path):
    board = Board(8, 8)
    elsewhere = list(find_tour(board, (3, 3), "warnsdorff").squares)
    assert graded(board, elsewhere) == 100
    assert graded(board, elsewhere, board=board, start=(0, 0)) < 100
    five = list(find_tour(Board(5, 5), (0, 0), "warnsdorff").squares)
    assert graded(Board(5, 5), five, board=board, start=(0, 0)) < 100
    open_tour = list(find_tour(board, (0, 0), "warnsdorff").squares)
    assert graded(board, open_tour, closed=True) < 100


def test_a_copy_is_marked_for_review_in_its_own_column(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    path = walk(Board(6, 6), (0, 0), 20, random.Random(1))  # a path no method of ours makes
    for name in ("ann", "ben"):
        (folder / f"{name}.txt").write_text("\n".join(f"({r}, {c})" for r, c in path) + "\n")
    (folder / "cy.txt").write_text("\n".join(f"({r}, {c})" for r, c in path[:12]) + "\n")
    grade_directory(folder, tmp_path / "out", board=Board(6, 6), start=(0, 0))
    rows = {row["student"]: row for row in csv.DictReader(open(tmp_path / "out" / "gradebook.csv"))}
    assert "ben" in rows["ann"]["review"] and "ann" in rows["ben"]["review"] and rows["cy"]["review"] == ""


# --- the Classroom example and the docs follow ---------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def test_the_classroom_workflow_gives_points_only_for_the_assigned_exercise(tmp_path):
    """Each test step's command of examples/classroom, run by a shell as Classroom runs it, on a student's tour.txt."""
    import os
    import subprocess
    import sys

    import yaml

    workflow = yaml.safe_load((ROOT / "examples/classroom/.github/workflows/classroom.yml").read_text())
    steps = {
        step["with"]["test-name"]: step["with"]["command"]
        for step in workflow["jobs"]["run-autograding-tests"]["steps"]
        if "autograding-command-grader" in step.get("uses", "")
    }
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}

    def points(tour: Path) -> dict[str, bool]:
        (tmp_path / "tour.txt").write_bytes(tour.read_bytes())
        return {
            name: subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True).returncode == 0
            for name, command in steps.items()
        }

    assigned = tour_file(tmp_path, "a.json", 8, (0, 0))
    assert points(assigned) == {"A readable tour": True, "A full tour": True}
    for wrong in (tour_file(tmp_path, "five.json", 5, (0, 0)), tour_file(tmp_path, "other.json", 8, (3, 3))):
        assert points(wrong) == {"A readable tour": True, "A full tour": False}


def test_the_docs_gradebook_is_the_gradebook(tmp_path):
    """docs/grading.md's table of examples/submissions: each student's score and review as `knight grade` gives them."""
    from knight.report.course import load_course

    assignment = load_course(ROOT / "course.toml").assignment
    assert assignment is not None
    batch = grade_directory(
        ROOT / "examples/submissions", tmp_path / "out", board=Board(*assignment.board), start=assignment.start
    )
    text = (ROOT / "docs/grading.md").read_text()
    table = text[text.index("| student | format | verdict |") :].split("\n\n")[0].splitlines()[2:]
    documented = {cells[1].strip(): cells for cells in (line.split("|") for line in table)}
    assert set(documented) == {row.student for row in batch.rows}
    for row in batch.rows:
        cells = documented[row.student]
        assert cells[7].strip() == f"{row.score:g}", row.student
        assert bool(cells[8].strip()) == bool(row.review()), row.student
