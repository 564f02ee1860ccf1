import json
import subprocess
import sys

import pytest
from cli_helpers import knight_cli

from knight.engine import Board
from knight.engine.census import census_units


@pytest.fixture(autouse=True)
def own_store(tmp_path, monkeypatch):
    """Commands that keep results (`knight census`) write to a store of the test's own."""
    monkeypatch.setenv("KNIGHT_STORE", str(tmp_path / "knight.sqlite"))


def test_full_tour_prints_the_array_and_exits_0(capsys):
    status, out, err = knight_cli(capsys, "tour", "5", "--start", "0", "0")
    assert status == 0 and err == ""
    lines = out.splitlines()
    rows = [[int(x) for x in line.split()] for line in lines[1:6]]
    assert sorted(sum(rows, [])) == list(range(1, 26))
    assert len({len(line) for line in lines[1:6]}) == 1  # aligned columns
    assert "Full tour, open" in lines[-1] and "24 steps" in lines[-1]


def test_no_full_tour_prints_the_partial_tour_and_exits_1(capsys):
    status, out, _ = knight_cli(capsys, "tour", "5", "--start", "0", "1")
    assert status == 1
    assert "Failed to find a full tour" in out
    numbers = [int(x) for line in out.splitlines()[1:6] for x in line.split()]
    visited = sorted(x for x in numbers if x)
    assert visited == list(range(1, len(visited) + 1)) and numbers.count(0) == 25 - len(visited)


def test_backtrack_says_when_no_tour_exists(capsys):
    status, out, _ = knight_cli(capsys, "tour", "5", "--method", "backtrack", "--start", "1", "0")
    assert status == 1 and "tried every path" in out and "nodes" in out
    assert "Theory: no tour exists (colouring" in out


def test_a_heuristic_that_misses_a_tour_is_told_one_exists(capsys):
    status, out, _ = knight_cli(capsys, "tour", "8", "--method", "naive")
    assert status == 1 and "Theory: a tour exists" in out


def test_closed_tour_is_reported_closed(capsys):
    status, out, _ = knight_cli(capsys, "tour", "6", "--method", "backtrack", "--closed", "--order", "warnsdorff")
    assert status == 0 and "Full tour, closed" in out


def test_json_output(capsys):
    status, out, _ = knight_cli(
        capsys, "tour", "6", "8", "--start", "2", "3", "--tie", "random", "--seed", "5", "--json"
    )
    data = json.loads(out)
    assert data["board"] == [6, 8] and data["start"] == [2, 3]
    assert data["params"] == {"tie": "random", "seed": 5}
    assert status == (0 if data["full"] else 1)
    assert set(data["keys"]) == {"directed", "undirected", "symmetric"}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["tour", "0"], "positive integer"),
        (["tour", "5", "0"], "positive integer"),
        (["tour", "abc"], "valid integer"),
        (["tour", "-3"], "-3"),
        (["tour", "5000", "5000"], "limit"),
        (["tour", "5", "--start", "5", "0"], "off the 5x5 board"),
        (["tour", "5", "--start", "1"], "the row and column are one value: --start 1,COL"),
        (["tour", "5", "--method", "magic"], "unknown method"),
        (["tour", "5", "--tie", "coin"], "unknown tie-break"),
        (["tour", "5", "--method", "naive", "--tie", "first"], "does not apply"),
        (["tour", "5", "--closed"], "does not apply"),
        (["tour", "5", "--seed", "1"], "only to the tie-break 'random'"),
        (["tour", "5", "--method", "backtrack", "--budget", "-1"], "positive"),
        (["tour", "6", "8", "--tie", "squirrel"], "square boards"),
        (["tour", "5", "--frobnicate"], "No such option"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(capsys, argv, message):
    status, out, err = knight_cli(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err


def test_console_script_and_module_entry_point():
    done = subprocess.run(
        [sys.executable, "-m", "knight", "tour", "8", "--start", "0", "0"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and "Full tour" in done.stdout
    done = subprocess.run([sys.executable, "-m", "knight", "tour", "x"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_closed_search_that_fails_exits_1(capsys):
    status, out, _ = knight_cli(capsys, "tour", "5", "--method", "backtrack", "--closed")
    assert status == 1 and "Failed to find a closed tour" in out and "tried every path" in out


# --- knight census ---------------------------------------------------------------------------


def test_census_5x5_prints_the_grid_and_totals(capsys):
    status, out, err = knight_cli(capsys, "census", "5")
    assert status == 0 and "error" not in err
    lines = out.splitlines()
    grid = [[int(x.replace(",", "")) for x in line.split()] for line in lines[3:8]]
    assert sum(map(sum, grid)) == 1728 and grid[0][0] == grid[4][4] == 304
    assert "1,728 directed open tours (864 up to reversal)" in out and "nodes:" in out


def test_census_of_a_corner_says_whose_total_it_gives(capsys):
    """The corner's symmetric images are counted with it: the total is theirs, and the corner's own is said."""
    status, out, _ = knight_cli(capsys, "census", "5", "--start", "0,0")
    grid = [[int(x.replace(",", "")) for x in line.split() if x != "."] for line in out.splitlines()[3:8]]
    assert status == 0 and sum(map(sum, grid)) == 4 * 304
    assert "1,216 directed open tours" in out and "from the 4 squares counted" in out and "304 from (0, 0)" in out


def test_census_closed_json(capsys):
    status, out, _ = knight_cli(capsys, "census", "3", "10", "--closed", "--json")
    data = json.loads(out)
    assert status == 0 and data["cycles"] == 16 and data["cycles_up_to_symmetry"] == 6
    assert data["total"] == 30 * 2 * 16 and data["theory"]["argument"] == "Schwenk 1991"


def test_census_answers_from_theory_without_searching(capsys):
    status, out, _ = knight_cli(capsys, "census", "8", "--remove", "0,0", "--remove", "7,7", "--json")
    data = json.loads(out)
    assert status == 0 and data["searched"] is False and data["total"] == 0
    assert data["theory"]["argument"] == "colouring" and data["counts"][0][0] is None
    status, out, _ = knight_cli(capsys, "census", "5", "--closed")
    assert "no search needed" in out and "colouring" in out


def test_census_of_one_start_with_workers(capsys):
    status, out, _ = knight_cli(capsys, "census", "5", "--start", "2", "2", "--workers", "2", "--depth", "3", "--json")
    data = json.loads(out)
    first_moves = len(census_units(Board(5, 5), start=(2, 2)))  # depth 3 splits finer than the first move
    assert data["units"] > first_moves and data["counts"][2][2] == 64 and data["counts"][0][0] is None
    assert data["processes"] == 2


@pytest.mark.parametrize(
    "argv, message",
    [
        (["census", "9", "8"], "at most 64 squares"),
        (["census", "5", "--remove", "x"], "ROW,COL"),
        (["census", "5", "--start", "5", "5"], "off the 5x5 board"),
        (["census", "5", "--workers", "0"], "--workers must be a positive number"),
        (["census", "5", "--depth", "0"], "depth must be a positive"),
    ],
)
def test_census_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    status, out, err = knight_cli(capsys, *argv)
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [["census", "3"], ["run", "homework-8"]])
def test_workers_past_four_per_core_are_refused_with_the_limit(capsys, tmp_path, command):
    import os

    from knight.cli.run import WORKERS_PER_CORE

    limit = WORKERS_PER_CORE * len(os.sched_getaffinity(0))  # the cores this process may use
    status, _, err = knight_cli(capsys, *command, "--workers", str(limit + 1), "--store", str(tmp_path / "s.sqlite"))
    assert status == 2 and f"ask for at most {limit}" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "s.sqlite").exists()  # refused before anything ran
    if command[0] == "census":  # the limit itself is accepted (3 x 3 has no tour: theory answers, no process starts)
        status, out, err = knight_cli(capsys, *command, "--workers", str(limit), "--store", str(tmp_path / "s.sqlite"))
        assert status == 0 and "no search needed" in out


def test_parberry_method_prints_a_closed_tour(capsys):
    status, out, _ = knight_cli(capsys, "tour", "8", "--method", "parberry", "--start", "3", "3")
    assert status == 0 and "Full tour, closed" in out


@pytest.mark.parametrize("columns", ["0", "-5", "abc", "1", "99999999999", ""])
def test_results_take_any_columns_value(capsys, tmp_path, monkeypatch, columns):
    from knight.cli.results import WIDTHS

    job = tmp_path / "tiny.toml"
    job.write_text('name = "tiny"\n[[sweep]]\nboards = [5]\nstarts = "corners"\nmethod = "warnsdorff"\n')
    store = str(tmp_path / "s.sqlite")
    assert knight_cli(capsys, "run", str(job), "--store", store, "-q")[0] == 0
    monkeypatch.setenv("COLUMNS", columns)
    status, out, err = knight_cli(capsys, "results", "--store", store)
    rule = next(line for line in out.splitlines() if set(line) == {"─"})
    assert status == 0 and err == "" and any(line.startswith("tiny") for line in out.splitlines())
    assert WIDTHS[0] <= len(rule) <= WIDTHS[1]
