"""Every size-like input is bounded and refused before any work: at once (seconds, not minutes), in one line."""

from __future__ import annotations

import random
import time

import pytest
from runner_helpers import knight, write_job

from knight.engine import Board
from knight.engine.census import MAX_CENSUS_UNITS, census_unit_count, census_units
from knight.runner import load_job
from knight.runner.jobs import MAX_TASKS, start_squares

#: Generous for a shared CI machine: each refusal takes well under a second of its own.
SECONDS = 5

BAD_JOBS = {
    "huge-range": ('boards = ["5..1000000000"]\nstarts = "all"\nmethod = "warnsdorff"', "ends at most at 4096"),
    "huge-side": ('boards = [1000000000]\nstarts = "all"\nmethod = "warnsdorff"', "past the limit"),
    "huge-repeats": (
        'boards = [5]\nstarts = "all"\nmethod = "random-walk"\nrepeats = 1000000000',
        "repeats: must be a number of seeds 1..100,000",
    ),
    "census-depth": ('boards = [6]\nmethod = "census"\nparams = {depth = 1000}', "at most 35"),
    "census-units": ('boards = [8]\nmethod = "census"\nparams = {depth = 12}', "more than 2,000,000 units"),
    "many-tasks": ('boards = ["5..4096"]\nstarts = "all"\nmethod = "warnsdorff"', "--force"),
    "many-boards": ('boards = ["1..4000x1..4000"]\nstarts = [[0, 0]]\nmethod = "naive"', "at most 100,000"),
    "big-grid": (
        'boards = ["5..100"]\nstarts = "all"\nmethod = "random-walk"\nparams = {seed = ['
        + ", ".join(map(str, range(200)))
        + "]}",
        "--force",
    ),
    "many-estimates": (
        'boards = [8]\nstarts = "all"\nmethod = "estimate"\nparams = {seed = ['
        + ", ".join(map(str, range(1000)))
        + "], probes = ["
        + ", ".join(map(str, range(1, 1001)))
        + "]}",
        "--force",
    ),
}


def _refused(args: list[str], store, message: str) -> None:
    began = time.monotonic()
    result = knight(args, store, timeout=60)
    seconds = time.monotonic() - began
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert seconds < SECONDS, f"refused in {seconds:.1f} s"


@pytest.mark.parametrize("name", sorted(BAD_JOBS))
def test_an_oversized_job_is_refused_at_once(tmp_path, name):
    body, message = BAD_JOBS[name]
    path = write_job(tmp_path, name, f"[[sweep]]\n{body}\n")
    _refused(["run", str(path)], tmp_path / "store.sqlite", message)
    assert not (tmp_path / "store.sqlite").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["census", "6", "--depth", "100"], "at most 35"),
        (["census", "8", "--depth", "12"], "more than 2,000,000 units"),
        (["census", "5", "--depth", "1000000000000"], "at most 24"),
        (["starts", "5000"], "squares; the limit is"),
    ],
)
def test_an_oversized_command_is_refused_at_once(tmp_path, args, message):
    _refused(args, tmp_path / "store.sqlite", message)


def test_a_tour_on_a_board_of_one_row_answers_at_once(tmp_path):
    began = time.monotonic()
    result = knight(["tour", "16777216", "1"], tmp_path / "store.sqlite", timeout=60)
    assert time.monotonic() - began < SECONDS
    assert result.returncode == 1 and "visits 1 of 16777216 squares" in result.stdout
    assert result.stdout.count("\n0") == 16777215


def test_force_lifts_the_task_bound_and_the_job_is_counted_not_expanded(tmp_path):
    path = write_job(tmp_path, "big", '[[sweep]]\nboards = ["5..4096"]\nstarts = "all"\nmethod = "warnsdorff"\n')
    (sweep,) = load_job(path, force=True).sweeps
    assert sweep.count() == sum(n * n for n in range(5, 4097)) > MAX_TASKS


def test_a_sweep_counts_the_tasks_it_expands_into(tmp_path):
    path = write_job(
        tmp_path,
        "mixed",
        """
[[sweep]]
boards = [5, "4x6", "6..7", "5..6x8"]
starts = {sample = 7, seed = 3}
method = "warnsdorff"
params = { tie = ["first", "random"] }
repeats = 3
[[sweep]]
boards = [5, 6]
method = "census"
params = { closed = [false, true], depth = [1, 3] }
[[sweep]]
boards = [8]
starts = "corners"
method = "estimate"
params = { seed = [0, 1], probes = [10, 20] }
""",
    )
    for sweep in load_job(path).sweeps:
        assert sweep.count() == len(list(sweep.tasks()))


def test_sampled_starts_are_the_squares_a_list_of_them_gives():
    for board in (Board(5, 5), Board(6, 8), Board(1, 30)):
        squares = [(row, col) for row in range(board.n) for col in range(board.m)]
        old = sorted(random.Random(f"4:{board}").sample(squares, min(9, len(squares))))
        assert start_squares(board, ("sample", 9, 4)) == old


@pytest.mark.parametrize(
    "n, m, kwargs",
    [
        (5, 5, {}),
        (6, 6, {"depth": 3}),
        (6, 6, {"closed": True, "depth": 4}),
        (5, 5, {"removed": [(0, 0)], "depth": 5}),
        (3, 4, {"depth": 11}),
        (1, 1, {}),
        (4, 4, {"depth": 15}),
        (5, 5, {"start": (2, 2), "depth": 6}),
    ],
)
def test_census_units_are_counted_without_listing_them(n, m, kwargs):
    assert census_unit_count(Board(n, m), **kwargs) == len(census_units(Board(n, m), **kwargs))


def test_the_census_unit_count_stops_past_its_limit():
    assert census_unit_count(Board(8, 8), depth=63) is None
    assert census_unit_count(Board(5, 5), depth=6, limit=100) is None
    assert MAX_CENSUS_UNITS >= 1_239_666  # 7 x 7 at depth 8, the cluster census, still fits
