"""Boards without some squares (the Eiffel text's opposite corners): tours that avoid them, checked, stored, searched."""

from __future__ import annotations

import re

import pytest
from runner_helpers import knight, write_job
from tour_checker import is_knight_path

from knight.engine import Board, InvalidInput, InvalidTour, Tour, find_tour
from knight.engine.census import census
from knight.runner import JobError, load_job
from knight.store import Store
from knight.tasks import TaskResult, validate

CORNERS_5 = ((0, 0), (4, 4))


def test_a_tour_may_not_visit_a_removed_square_and_is_full_without_them():
    board = Board(3, 4)
    path = [(0, 0), (2, 1), (0, 2), (1, 0), (2, 2), (0, 1), (1, 3), (2, 1)][:7]
    with pytest.raises(InvalidTour, match=r"\(2, 2\) is removed"):
        Tour.from_squares(board, path, method="hand", removed=[(2, 2)])
    tour = Tour.from_squares(
        board, path[:4], method="hand", removed=[(r, c) for r in range(3) for c in range(4) if (r, c) not in path[:4]]
    )
    assert tour.full and Tour.from_dict(tour.to_dict()).full
    with pytest.raises(InvalidInput, match="off the"):
        Tour.from_squares(board, path[:2], method="hand", removed=[(5, 5)])


def test_backtracking_without_opposite_corners_agrees_with_the_census_from_every_start():
    """5 x 5 less (0, 0) and (4, 4): 11 squares of one colour, 12 of the other. The search finds a tour
    from exactly the starts the census counts tours from (the majority colour), and proves none elsewhere."""
    board = Board(5, 5)
    counts = census(board, removed=CORNERS_5, compiled=True).counts
    for r in range(5):
        for c in range(5):
            if (r, c) in CORNERS_5:
                with pytest.raises(InvalidInput, match="removed square"):
                    find_tour(board, (r, c), "backtrack", removed=CORNERS_5)
                continue
            tour = find_tour(board, (r, c), "backtrack", removed=CORNERS_5, compiled=True)
            assert not tour.budget_exhausted and tour.full == (counts[r, c] > 0) == ((r + c) % 2 == 1), (r, c)
            assert is_knight_path(5, 5, tour.squares) and not set(tour.squares) & set(CORNERS_5)
            assert tour.removed == CORNERS_5 and tour.params["removed"] == [[0, 0], [4, 4]]
            assert len(tour.squares) == (23 if tour.full else len(tour.squares))


@pytest.mark.parametrize("n", [7, 9])
def test_odd_boards_without_opposite_corners_have_open_tours(n):
    corners = ((0, 0), (n - 1, n - 1))
    tour = find_tour(Board(n, n), (0, 1), "backtrack", order="warnsdorff", removed=corners, budget=100_000)
    assert tour.full and tour.length == n * n - 2 and not set(tour.squares) & set(corners)
    assert is_knight_path(n, n, tour.squares)


def test_interpreted_and_compiled_searches_agree_with_removed_squares():
    for start in [(0, 1), (1, 1), (2, 1)]:
        a, b = (
            find_tour(Board(5, 5), start, "backtrack", removed=CORNERS_5, budget=3000, compiled=flag)
            for flag in (False, True)
        )
        assert (a.squares, a.work, a.budget_exhausted) == (b.squares, b.work, b.budget_exhausted)


def test_a_tour_without_squares_is_stored_validated_and_rebuilt(tmp_path):
    tour = find_tour(Board(7, 7), (0, 1), "backtrack", order="warnsdorff", removed=[(0, 0), (6, 6)])
    result = TaskResult.from_tour("k", tour)
    assert result.outcome.full and validate(result) == "" and validate(result, tour) == ""
    with Store(tmp_path / "s.sqlite") as store:
        with store.transaction() as db:
            db.execute(
                "INSERT INTO tasks VALUES ('k', 'backtrack', ?, '{}', 7, 7, 0, 1)", ('{"removed": [[0, 0], [6, 6]]}',)
            )
        store.record(store.start_run([], "process", 1), [result], revalidate=True)
        again = store.tour("k")
    assert again.full and again.squares == tour.squares and again.removed == ((0, 0), (6, 6))


def test_a_sweep_without_squares_runs_and_is_refused_when_malformed(tmp_path):
    head = '[[sweep]]\nboards = [7]\nstarts = [[0, 1], [2, 1]]\nmethod = "backtrack"\n'
    good = write_job(tmp_path, "cut", head + 'params = { order = "warnsdorff", removed = [[0, 0], [6, 6]] }\n')
    tasks = load_job(good).tasks()
    assert len(tasks) == 2 and all(dict(t.params)["removed"] == ((0, 0), (6, 6)) for t in tasks)
    done = knight(["run", str(good), "--workers", "1"], tmp_path / "s.sqlite")
    assert done.returncode == 0, done.stderr
    bad = {
        "params = { removed = [[0, 1]] }\n": "square [0, 1] is removed",
        "params = { removed = [[0, 9]] }\n": "square [0, 9] is off the 7x7 board",
        "params = { removed = [0, 0] }\n": "params.removed: must be a list of [row, col] squares",
    }
    for params, message in bad.items():
        with pytest.raises(JobError, match=re.escape(message)):
            load_job(write_job(tmp_path, "bad", head + params))
    with pytest.raises(JobError, match=re.escape("params.removed: not a parameter of method 'warnsdorff'; it takes")):
        load_job(write_job(tmp_path, "bad", head.replace("backtrack", "warnsdorff") + "params = { removed = [] }\n"))


def test_knight_tour_takes_removed_squares(capsys):
    from knight.cli import main

    args = ["tour", "7", "--method", "backtrack", "--order", "warnsdorff", "--remove", "0,0", "--remove", "6,6"]
    with pytest.raises(SystemExit) as stop:
        main([*args, "--start", "0", "1"])
    assert (
        stop.value.code == 0
        and "Full tour, open: 47 squares (the board less (0, 0), (6, 6))" in capsys.readouterr().out
    )
    with pytest.raises(SystemExit) as stop:  # from the minority colour: theory says no tour, the search agrees
        main([*args, "--start", "1", "1", "--budget", "1000"])
    assert stop.value.code == 1 and "colouring: 24 squares of one colour and 23" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        main(["tour", "7", "--remove", "0"])
    assert stop.value.code == 2 and "--remove takes a square as ROW,COL" in capsys.readouterr().err
