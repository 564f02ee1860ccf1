"""The programs of the blog's questions D1 (tree_size.py), D3 and D4 (board_sizes.py) and D5 (tie_breaks.py), run on
small boards as a student runs them and checked figure for figure against the engine, whose figures the key states;
and each program run with the oldest Python its docstring names, where that interpreter is installed."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from knight.engine import Board
from knight.engine.greedy import warnsdorff_tour
from knight.engine.treesize import knuth_estimate
from knight.report.listings import PROGRAMS_FOLDER, program_text, python_needed, run_source

FOLDER = Path(str(PROGRAMS_FOLDER))
pytestmark = pytest.mark.usefixtures("own_cache")


def run(file: str, *args: object) -> list[str]:
    done = run_source(program_text(file), tuple(map(str, args)), name=file)
    assert done.status == 0, done.stderr
    return done.stdout.splitlines()


def test_tree_size_prints_the_engines_estimate_from_the_same_random_numbers():
    """Same seed, same paths: the program's estimate is the engine's to the digits printed, and so is the mean
    length of a path; the choices along the paths average between their geometric and arithmetic means."""
    lines = run("tree_size.py", 5, 2000, "--seed", 3)
    engine = knuth_estimate(Board(5, 5), (0, 0), 2000, seed=3)
    assert lines[0] == "5 x 5 from (0, 0), 2000 random paths, seed 3:"
    assert lines[1] == f"Knuth's estimate: {engine.node_mean:.4g} nodes, standard error {engine.node_se:.2g}"
    assert lines[2] == f"Paths end after {engine.mean_depth:.1f} squares; choices d:"
    mean, geometric = (re.fullmatch(r"(?:geometric )?mean (\S+), d\*\*24 = 10\*\*(\S+)", x) for x in lines[3:])
    assert mean and geometric and float(geometric[1]) < float(mean[1])
    for found in (mean, geometric):
        assert float(found[2]) == pytest.approx(24 * math.log10(float(found[1])), abs=0.06)


def test_board_sizes_fail_where_the_engine_fails():
    lines = run("board_sizes.py", 20)
    assert lines[0] == "From the corner of m x m, m = 5 to 20:"
    for line, tie in zip(lines[1:], ("first", "lookahead-sum")):
        failing = [m for m in range(5, 21) if not warnsdorff_tour(Board(m, m), (0, 0), tie).full]
        name = "plain" if tie == "first" else "W2"
        assert line.split() == [name, "fails", "on", str(len(failing)), "sides:", *map(str, failing)]
    assert len(lines) == 3  # no side past 50: no count of them


def test_board_sizes_count_the_sides_past_50():
    lines = run("board_sizes.py", 53)
    full = sum(warnsdorff_tour(Board(m, m), (0, 0), "first").full for m in (51, 52, 53))
    assert lines[2] == f"  a tour on {full} of the 3 sides past 50"


def test_tie_breaks_count_the_engines_full_tours_from_every_start():
    lines = run("tie_breaks.py", 6, "--seed", 4)
    board = Board(6, 6)
    starts = [(r, c) for r in range(6) for c in range(6)]
    assert lines[0] == "Full tours from the 36 starts of 6 x 6 (random: mean)"
    for line, tie in zip(lines[1:], ("first", "random", "lookahead-min", "lookahead-sum", "roth", "blog")):
        seeds = range(4, 14) if tie == "random" else [0]
        short = [s for seed in seeds for s in starts if not warnsdorff_tour(board, s, tie, seed).full]
        shown = [] if tie == "random" else [f"({r}, {c})" for r, c in short]
        assert line.split(maxsplit=2)[:2] == [tie, f"{36 - len(short) / len(seeds):g}"]
        assert re.findall(r"\(\d+, \d+\)", line) == shown
    assert len(lines) == 7


def oldest_python(version: str) -> str | None:
    """The pyenv or system interpreter of this minor version, if one is installed."""
    found = sorted(Path.home().glob(f".pyenv/versions/{version}.*/bin/python"))
    return str(found[-1]) if found else shutil.which(f"python{version}")


#: Each program with small arguments, to run on the oldest Python it names.
SMALL = {
    "deitel_first_knight.py": (),
    "deitel_accessibility.py": ("5",),
    "homework8.py": ("5", "5", "0", "0"),
    "try_next_move.py": ("5",),
    "try_all.py": ("4",),
    "warnsdorff_blog.py": ("--seed", "1"),
    "tree_size.py": ("5", "100"),
    "board_sizes.py": ("8",),
    "tie_breaks.py": ("5",),
}


def test_every_program_has_small_arguments_here():
    assert set(SMALL) == {f.name for f in FOLDER.glob("*.py")}


@pytest.mark.parametrize("file", sorted(SMALL))
def test_a_program_runs_on_the_python_it_names_and_not_before(file):
    """It runs on the version its docstring names; a 3.9 one fails on 3.8 (its list[int] annotations), which is
    why it says so."""
    needed = python_needed(program_text(file))
    python = oldest_python(needed)
    if python is None:
        pytest.skip(f"no Python {needed} here")
    done = subprocess.run([python, "-I", FOLDER / file, *SMALL[file]], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    before = oldest_python(f"3.{int(needed.split('.')[1]) - 1}")
    if before is not None and needed != "3.6":
        done = subprocess.run([before, "-I", FOLDER / file, *SMALL[file]], capture_output=True, text=True, timeout=60)
        assert done.returncode != 0


def test_the_keys_d1_range_and_estimate_come_from_tree_size_and_agree_with_the_engine():
    """D1 shows tree_size.py's run (8 x 8, 10,000 paths, the stored seed): its estimate is the engine's running
    estimate after as many probes, and its choices give the back of the envelope's 10^32 to 10^36."""
    from types import SimpleNamespace

    from knight.report.answers.blog import _choices
    from knight.report.answers.common import StoreData
    from knight.report.listings import TREE_SIZE_PATHS
    from knight.report.records import Results

    engine = knuth_estimate(Board(8, 8), (0, 0), TREE_SIZE_PATHS, seed=0)
    eight = SimpleNamespace(checkpoints=engine.checkpoints)
    choices = _choices(StoreData(Results([]), []), eight)  # no stored estimate: seed 0
    assert choices.command == f"python3 tree_size.py 8 {TREE_SIZE_PATHS} --seed 0"
    assert choices.agrees and choices.estimate == pytest.approx(engine.node_mean, rel=1e-3)
    assert choices.powers == (32, 36) and choices.geometric < choices.mean
