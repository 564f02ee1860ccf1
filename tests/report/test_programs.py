"""The reference programs the answer key prints (knight/programs/): each run as a process of its own, as a student
runs it, and its output checked against the engine's figures, the ones the key states beside it. They are plain
Python 3 with the standard library only, short enough to read in class, and shipped as package data; the blog's
script as printed is kept as text. Each says which Python it needs, and a bad argument gets a usage line and exit
status 2 (the programs of the blog's questions D1, D3-D5 are checked in test_programs_new.py)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from knight.engine import Board
from knight.engine.backtrack import backtrack_tour
from knight.engine.census import census
from knight.engine.greedy import naive_tour, static_tour, warnsdorff_tour
from knight.engine.treesize import knuth_estimate, plain_tree
from knight.report.listings import PROGRAMS, PROGRAMS_FOLDER, program_text, run_source

FOLDER = Path(str(PROGRAMS_FOLDER))
#: A program that seeds `random` and runs the blog's script with its start (row, col) given: the script draws
#: its start with random.randint(0, width - 1) (the column), then random.randint(0, height - 1) (the row).
WITH_STARTS = """
import random, runpy, sys
script, side, starts = sys.argv[1], int(sys.argv[2]), eval(sys.argv[3])
sys.argv = [script]  # no --seed: the start below replaces the random one
text = open(script).read().replace("height = 8", f"height = {side}").replace("width = 8", f"width = {side}")
compiled = compile(text, script, "exec")
for row, col in starts:
    drawn = iter([col, row])
    random.randint = lambda low, high: next(drawn)
    exec(compiled, {"__name__": "__main__"})
    print("---")
"""


#: Programs run into a cache of the test session's own, not the user's (conftest.py).
pytestmark = pytest.mark.usefixtures("own_cache")


def run(file: str, *args: object) -> list[str]:
    """The program's output lines, run as a process of its own as a student runs it (isolated from this
    environment), through the key's own runner."""
    done = run_source(program_text(file), tuple(map(str, args)), name=file)
    assert done.status == 0, done.stderr
    return done.stdout.splitlines()


def numbers(lines: list[str]) -> np.ndarray:
    """A printed board as an array ("." for a square not visited: 0)."""
    return np.array([[0 if word == "." else int(word) for word in line.split()] for line in lines])


def test_every_program_is_short_plain_python_with_the_standard_library_only():
    files = sorted(FOLDER.glob("*.py"))
    assert {p.file for p in PROGRAMS} == {f.name for f in files}  # each one shown in the key, once
    for file in files:
        text = file.read_text()
        assert len(text.splitlines()) <= 60, file.name
        imported = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported.add((node.module or "").split(".")[0])
        assert imported <= set(sys.stdlib_module_names), (file.name, imported - set(sys.stdlib_module_names))
        assert len(re.findall(r"Python 3\.\d+ or newer", text)) == 1, file.name  # said once, in its docstring
        assert re.search(r"Python 3\.\d+ or newer", ast.get_docstring(ast.parse(text)) or ""), file.name
    assert (FOLDER / "blog_script_as_printed.txt").exists()  # as printed it is not Python 3: text, not a .py


#: A bad command line for each program: missing, unreadable or out-of-range arguments.
BAD_ARGUMENTS = [
    ("deitel_first_knight.py", ("8", "0")),
    ("deitel_first_knight.py", ("a", "b")),
    ("deitel_accessibility.py", ("0",)),
    ("deitel_accessibility.py", ("6", "7")),
    ("homework8.py", ()),
    ("homework8.py", ("5", "5", "0")),
    ("homework8.py", ("5", "5", "5", "0")),
    ("homework8.py", ("5", "x")),
    ("try_next_move.py", ()),
    ("try_next_move.py", ("5", "0")),
    ("try_all.py", ()),
    ("try_all.py", ("5", "-1", "0")),
    ("warnsdorff_blog.py", ("--seed", "x")),
    ("warnsdorff_blog.py", ("3",)),
    ("tree_size.py", ("2",)),
    ("tree_size.py", ("5", "1")),
    ("board_sizes.py", ("4",)),
    ("tie_breaks.py", ("0",)),
    ("tie_breaks.py", ("--seed",)),
]


@pytest.mark.parametrize(("file", "args"), BAD_ARGUMENTS)
def test_a_bad_command_line_gets_a_usage_line_and_exit_status_2(file, args):
    done = run_source(program_text(file), args, name=file)
    lines = done.stderr.splitlines()
    assert done.status == 2 and done.stdout == ""
    assert lines[0].startswith(f"usage: {file} ") and lines[1].startswith(f"{file}: error: ")
    assert "Traceback" not in done.stderr and len(lines) == 2


def test_try_all_says_how_long_a_board_takes_and_refuses_one_of_over_a_minute():
    done = run_source(program_text("try_all.py"), ("6",), name="try_all.py")
    assert done.status == 2 and "Traceback" not in done.stderr
    assert done.stdout == "About 1.9e+10 squares to place: 5.3 hours.\n"  # Knuth's estimate, at 10^6 a second
    assert "over a minute" in done.stderr and "--force" in done.stderr
    assert run("try_all.py", 4)[0] == "About 2.2e+03 squares to place: 0.0022 seconds."


def test_try_all_knows_the_size_of_each_tree_it_would_search():
    """Its table of the squares it places from a corner: the tree counted (up to 5 x 5), or Knuth's estimate
    within 5 % (the engine's, 200,000 probes), as the key's D1 states them."""
    table = ast.literal_eval(re.search(r"^NODES = (\[.*\])$", program_text("try_all.py"), re.M).group(1))
    for side, nodes in enumerate(table):
        if side <= 5:
            assert nodes == plain_tree(Board(side, side), (0, 0)).nodes if side else nodes == 1
        else:
            estimate = knuth_estimate(Board(side, side), (0, 0), 200_000, seed=1).node_mean
            assert nodes == pytest.approx(estimate, rel=0.05), side


def test_deitel_first_script_makes_the_engines_moves():
    lines = run("deitel_first_knight.py")
    corner = naive_tour(Board(8, 8), (0, 0))
    assert (numbers(lines[:8]) == corner.array()).all()
    assert lines[8] == f"From (0, 0): {corner.length - 1} moves."
    moves = [naive_tour(Board(8, 8), (r, c)).length - 1 for r in range(8) for c in range(8)]
    assert lines[9:] == [f"From the 64 starts: {min(moves)} to {max(moves)} moves,", f"{moves.count(63)} full tours."]
    assert run("deitel_first_knight.py", 3, 4)[8] == f"From (3, 4): {naive_tour(Board(8, 8), (3, 4)).length - 1} moves."


@pytest.mark.parametrize(
    ("args", "walk"),
    [
        ((), lambda board, start: warnsdorff_tour(board, start, "first")),
        (("--static",), static_tour),
        (("6", "--static"), static_tour),
    ],
)
def test_deitel_accessibility_heuristic_makes_the_engines_tours(args, walk):
    lines = run("deitel_accessibility.py", *args)
    side = int(args[0]) if args and args[0].isdigit() else 8
    board = Board(side, side)
    assert lines[0] == f"The tour from (0, 0), {side} x {side}:"
    assert (numbers(lines[1 : side + 1]) == walk(board, (0, 0)).array()).all()
    reached = np.array([[walk(board, (r, c)).length for c in range(side)] for r in range(side)])
    assert (numbers(lines[side + 2 : 2 * side + 2]) == reached).all()
    assert lines[-1] == f"Full tours: {(reached == board.size).sum()} of {board.size}."


def test_homework_program_prints_the_engines_array_or_its_partial_tour_and_a_message():
    board = Board(5, 5)
    tours = {(r, c): warnsdorff_tour(board, (r, c), "homework") for r in range(5) for c in range(5)}
    full = run("homework8.py", 5, 5, 0, 0)
    assert (numbers(full[:5]) == tours[0, 0].array()).all()
    assert full[5] == f"A full tour, {'closed' if tours[0, 0].closed else 'open'}."
    failing = next(start for start, tour in tours.items() if not tour.full)
    partial = run("homework8.py", 5, 5, *failing)
    assert (numbers(partial[:5]) == tours[failing].array()).all()
    assert partial[5:] == [f"{tours[failing].length} of 25 squares.", "Failed to find a full tour."]


@pytest.mark.parametrize("side", [5, 6, 8])
def test_homework_program_from_every_start_counts_what_the_engine_finds(side):
    lines = run("homework8.py", side, side)
    board = Board(side, side)
    tours = [warnsdorff_tour(board, (r, c), "homework") for r in range(side) for c in range(side)]
    assert (numbers(lines[1 : side + 1]).ravel() == [t.length for t in tours]).all()
    full = [t for t in tours if t.full]
    assert lines[side + 1 :] == [
        f"Full tours from {len(full)} of {board.size} starts:",
        f"{sum(t.closed for t in full)} closed, {len({t.key_directed for t in full})} different.",
    ]


@pytest.mark.parametrize("side", [5, 6])
def test_try_next_move_places_as_many_squares_as_the_engines_search(side):
    lines = run("try_next_move.py", side)
    found = backtrack_tour(Board(side, side), (0, 0))
    assert (numbers(lines[:side]) == found.array()).all()
    assert lines[side] == f"First tour after {found.work} nodes."


def test_try_next_move_gives_up_on_8_by_8_within_its_budget_as_the_engine_does():
    budget = 50_000  # the key runs it with the stored search's 2,000,000; this keeps the test fast
    search = backtrack_tour(Board(8, 8), (0, 0), budget=budget)
    assert search.budget_exhausted and not search.full
    assert run("try_next_move.py", 8, budget) == [f"No solution within {search.work} nodes."]


def test_try_all_counts_the_tours_of_the_census():
    lines = run("try_all.py", 5)
    counted = census(Board(5, 5), start=(0, 0))
    assert lines[0] == "About 1.7e+06 squares to place: 1.7 seconds."
    assert lines[-1] == f"{int(counted.counts[0, 0])} tours from (0, 0) on 5 x 5."
    assert (numbers(lines[1:6]) == backtrack_tour(Board(5, 5), (0, 0)).array()).all()  # the first one found


@pytest.mark.parametrize("args", [(), ("--seed", "2014")])  # a random start, and the one the key shows
def test_the_blog_script_made_to_run_follows_the_blog_tie_break_from_its_random_start(args):
    printed = numbers(run("warnsdorff_blog.py", *args))
    start = tuple(int(x) for x in np.argwhere(printed == 1)[0])
    assert (printed == warnsdorff_tour(Board(8, 8), start, "blog").array()).all()


def run_blog_script(side: int, starts: list[tuple[int, int]]) -> list[np.ndarray]:
    """The blog's script made to run, on a side x side board from each start, in one process of its own."""
    done = subprocess.run(
        [sys.executable, "-I", "-c", WITH_STARTS, str(FOLDER / "warnsdorff_blog.py"), str(side), repr(starts)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [numbers(block.strip().splitlines()) for block in done.stdout.split("---")[:-1]]


def test_the_blog_script_completes_from_the_starts_the_key_counts():
    board = Board(8, 8)
    starts = [(r, c) for r in range(8) for c in range(8)]
    boards = run_blog_script(8, starts)
    complete = [start for start, cb in zip(starts, boards) if sorted(cb.ravel()) == list(range(1, 65))]
    assert complete == [s for s in starts if warnsdorff_tour(board, s, "blog").full]
    for start, cb in zip(starts[::9], boards[::9]):
        assert (cb == warnsdorff_tour(board, start, "blog").array()).all()


def test_the_blog_script_first_fails_from_the_corner_where_the_engine_says():
    first = next(m for m in range(5, 80) if not warnsdorff_tour(Board(m, m), (0, 0), "blog").full)
    before, at = run_blog_script(first - 1, [(0, 0)])[0], run_blog_script(first, [(0, 0)])[0]
    assert sorted(before.ravel()) == list(range(1, (first - 1) ** 2 + 1))
    assert 0 in at and (at == warnsdorff_tour(Board(first, first), (0, 0), "blog").array()).all()


def test_the_programs_say_what_they_are_for():
    """Each opens with what it computes and how to run it, in the documents' own names."""
    names = {
        "deitel_first_knight.py": ("horizontal", "vertical", "current_row", "current_column", "move_number", "board"),
        "deitel_accessibility.py": ("accessibility", "horizontal", "vertical", "move_number"),
        "homework8.py": ("degree", "possible", "tour"),
        "try_next_move.py": ("Try_Next_Move", "Acceptable", "Knights", "row", "col", "new_x", "new_y"),
        "try_all.py": ("Try_All", "Acceptable", "row", "col", "new_x", "new_y"),
    }
    for file, words in names.items():
        text = (FOLDER / file).read_text()
        assert all(re.search(rf"\b{word}\b", text) for word in words), file
    for file in FOLDER.glob("*.py"):
        assert re.search(r"^Run: python3 " + re.escape(file.name), file.read_text(), re.M), file.name
