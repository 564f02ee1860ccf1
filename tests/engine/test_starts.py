"""Issue 14: a tour from every start where one exists, a proof where none does (`knight starts`, method find)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from cli_helpers import knight_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from tour_checker import is_knight_path

from knight.engine import Board, InvalidInput, find_tour
from knight.engine.census import census
from knight.engine.hamilton import joined_closed_tour, odd_board_block, pruned_tour, rotation_tour, strip_tour
from knight.engine.starts import (
    EXHAUSTIVE,
    FOUND,
    FOUR_ROWS,
    NONE,
    UNKNOWN,
    board_closed_tour,
    existence_map,
    four_rows_verdict,
    tour_from,
)
from knight.engine.theory import closed_tour_verdict

#: Boards of at most 40 squares, 3 <= n <= m, whose census takes more than a few seconds: run with KNIGHT_SLOW_TESTS=1.
SLOW_CENSUS = {(4, 10), (5, 8)}
SMALL = [(n, m) for n in range(3, 8) for m in range(n, 14) if n * m <= 40]
MAPPED = [(n, m) for n in range(3, 31) for m in range(n, 31)]


@pytest.fixture(scope="session")
def census_existence():
    """Per-start existence from the census, counted once per session and board."""
    cache: dict[tuple[int, int], list[bool]] = {}

    def existence(n: int, m: int) -> list[bool]:
        if (n, m) not in cache:
            cache[n, m] = (census(Board(n, m)).counts > 0).reshape(-1).tolist()
        return cache[n, m]

    return existence


@pytest.fixture(scope="session")
def maps():
    """The existence maps of every board 3 <= n <= m <= 30, made once per session."""
    return {(n, m): existence_map(Board(n, m)) for n, m in MAPPED}


def _check(record, board: Board) -> None:
    """A found record holds a full tour from its square (checked without the engine); the others hold none."""
    if record.kind == FOUND:
        assert record.tour.full and record.tour.start == record.square
        assert is_knight_path(board.n, board.m, record.tour.squares)
    else:
        assert record.tour is None and record.proof


@pytest.mark.parametrize("n, m", SMALL, ids=lambda value: str(value))
def test_the_map_equals_the_census_on_boards_of_at_most_40_squares(n, m, census_existence, maps):
    if (n, m) in SLOW_CENSUS and not os.environ.get("KNIGHT_SLOW_TESTS"):
        pytest.skip("census of more than 5 s; set KNIGHT_SLOW_TESTS=1")
    records = maps[n, m]
    assert [record.kind == FOUND for record in records] == census_existence(n, m)
    assert all(record.kind != UNKNOWN for record in records)


def test_every_board_up_to_30_is_decided_and_every_tour_is_valid(maps):
    for (n, m), records in maps.items():
        board = Board(n, m)
        assert [record.square for record in records] == [board.coords(s) for s in range(board.size)]
        assert all(record.kind in (FOUND, NONE) for record in records), (n, m)
        for record in records[:: max(1, board.size // 40)]:  # the engine's Tour validated all; spot-check here
            _check(record, board)


def test_every_square_of_a_board_with_a_closed_tour_gets_a_tour(maps):
    for n, m in MAPPED:
        if n >= 5 and closed_tour_verdict(Board(n, m)).exists:
            assert all(record.kind == FOUND for record in maps[n, m]), (n, m)


def test_on_odd_boards_exactly_the_majority_colour_gets_a_tour(maps):
    for n, m in MAPPED:
        if n >= 5 and n % 2 and m % 2:
            found = [record.kind == FOUND for record in maps[n, m]]
            assert found == [(s // m + s % m) % 2 == 0 for s in range(n * m)], (n, m)
            assert all(record.method == "colouring" for record in maps[n, m] if record.kind == NONE)


def test_four_row_boards_start_on_the_outer_rows_only(maps):
    for m in range(5, 31):
        records = maps[4, m]
        assert [record.kind == FOUND for record in records] == [row in (0, 3) for row in range(4) for _ in range(m)]
        assert {record.method for record in records if record.kind == NONE} == {FOUR_ROWS}
    assert four_rows_verdict(Board(9, 4), (3, 2)).exists is False and four_rows_verdict(Board(9, 4), (3, 0)) is None


def test_the_course_counts(maps):
    """The public course suite's question: how many starts have a tour on 6x6, 5x6, 4x6, 7x3 and 8x6."""
    counts = {
        board: sum(record.kind == FOUND for record in maps[board]) for board in [(6, 6), (5, 6), (4, 6), (3, 7), (6, 8)]
    }
    assert counts == {(6, 6): 36, (5, 6): 30, (4, 6): 12, (3, 7): 10, (6, 8): 48}


def test_an_exhaustive_search_proves_what_the_census_counts_as_zero(census_existence):
    for n, m, square in [(3, 7, (1, 3)), (3, 8, (1, 2)), (3, 8, (1, 5))]:
        record = tour_from(Board(n, m), square)
        assert record.kind == NONE and record.method == EXHAUSTIVE and record.nodes > 0
        assert not census_existence(n, m)[square[0] * m + square[1]]
        searched = pruned_tour(Board(n, m), square)
        assert not searched.full and not searched.budget_exhausted


def test_a_budget_too_small_says_unknown_not_none():
    record = tour_from(Board(3, 8), (1, 2), budget=3)
    assert record.kind == UNKNOWN and "ran out" in record.proof


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 14), m=st.integers(1, 14), data=st.data())
def test_pruned_search_agrees_with_theory_and_never_returns_a_bad_tour(n, m, data):
    board = Board(n, m)
    start = (data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, m - 1)))
    record = tour_from(board, start)
    _check(record, board)
    found = find_tour(board, start, "find")
    assert found.full == (record.kind == FOUND) and found.start == start
    if not found.full:
        assert found.params["verdict"].startswith(record.kind)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(5, 40), m=st.integers(5, 40), data=st.data())
def test_rotations_and_joined_blocks_give_valid_tours(n, m, data):
    board = Board(n, m)
    start = (data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, m - 1)))
    if n % 2 and m % 2:
        if sum(start) % 2:  # move to the majority colour
            start = (start[0], start[1] - 1 if start[1] > 0 else 1)
        joined = joined_closed_tour(board, start, open_block=odd_board_block(board, start))
        assert joined.full and joined.start == start
    else:
        joined = joined_closed_tour(board, start)
        assert joined.closed and joined.start == start
        assert board_closed_tour(board).closed
    assert is_knight_path(n, m, joined.squares)
    walk = rotation_tour(board, start)
    assert walk.start == start and is_knight_path(n, m, walk.squares)


@pytest.mark.parametrize(
    "n, m, start",
    [
        (1000, 1000, (3, 7)),
        (999, 1000, (500, 1)),
        (999, 999, (998, 996)),
        (5, 999, (2, 4)),
        (3, 1000, (1, 500)),
        (999, 3, (500, 0)),
        (3, 999, (2, 998)),
    ],
)
def test_find_on_boards_up_to_1000(n, m, start):
    tour = find_tour(Board(n, m), start, "find")
    assert tour.full and tour.start == start and tour.method == "find"


def test_three_row_boards_extend_a_small_tour_by_blocks():
    for m in range(9, 32, 2):
        for start in [(0, 0), (1, 1), (2, m - 1), (1, m // 2 - (m // 2 + 1) % 2)]:
            tour = strip_tour(Board(3, m), start)
            assert tour.full and tour.start == start and is_knight_path(3, m, tour.squares), (m, start)
    for m in range(10, 32, 2):
        assert strip_tour(Board(3, m), (2, 3)).closed and strip_tour(Board(m, 3), (3, 2)).start == (3, 2)
    assert strip_tour(Board(3, 7), (1, 1)) is None and strip_tour(Board(5, 9), (0, 0)) is None


def test_find_refuses_bad_input():
    with pytest.raises(InvalidInput, match="budget"):
        find_tour(Board(5, 5), (0, 0), "find", budget=0)
    with pytest.raises(InvalidInput, match="off the"):
        find_tour(Board(5, 5), (5, 0), "find")


def test_knight_starts_prints_the_map_and_the_count(capsys):
    code, out, _ = knight_cli(capsys, "starts", "3", "7")
    assert code == 0
    assert out.splitlines()[1:4] == ["# . # . # . #", ". # . . . # .", "# . # . # . #"]
    assert "10 of 21 starting squares have a tour." in out
    assert "exhaustive search: 1 square: (1, 3)" in out and "colouring" in out


def test_knight_starts_json(capsys):
    code, out, _ = knight_cli(capsys, "starts", "4", "5", "--json")
    data = json.loads(out)
    assert code == 0 and data["version"] and data["board"] == [4, 5] and data["starts_with_tour"] == 10
    assert data["counts"] == {"found": 10, "none": 10, "unknown": 0}
    inner = data["squares"][5]
    assert inner["square"] == [1, 0] and inner["kind"] == "none" and inner["method"] == FOUR_ROWS


@pytest.mark.parametrize(
    "args, expected",
    [
        (["starts", "0"], "positive integer"),
        (["starts", "200", "100"], "at most 10,000 squares"),
        (["starts", "5", "--budget", "0"], "positive number"),
        (["tour", "5", "--method", "find", "--budget", "-1"], "positive integer"),
        (["tour", "5", "--method", "find", "--tie", "roth"], "does not apply"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, args, expected):
    code, _, err = knight_cli(capsys, *args)
    assert code == 2 and expected in err and err.count("\n") == 1


def test_knight_tour_find_says_why_there_is_none(capsys):
    code, out, _ = knight_cli(capsys, "tour", "3", "7", "--start", "1", "3", "--method", "find")
    assert code == 1 and "No tour starts here: exhaustive search" in out
    code, out, _ = knight_cli(capsys, "tour", "4", "6", "--start", "1", "0", "--method", "find")
    assert code == 1 and FOUR_ROWS in out
    code, out, _ = knight_cli(capsys, "tour", "8", "6", "--start", "3", "1", "--method", "find", "--json")
    data = json.loads(out)
    assert code == 0 and data["full"] and data["start"] == [3, 1] and data["method"] == "find"
    assert np.array(data["squares"]).shape == (48, 2)


def test_the_map_symbols_name_every_kind_of_answer():
    from knight.cli.starts import SYMBOLS
    from knight.engine.starts import FOUND, NONE, UNKNOWN

    assert set(SYMBOLS) == {FOUND, NONE, UNKNOWN}


def test_the_map_tells_its_progress_square_by_square():
    board = Board(4, 7)
    counts: list[int] = []
    records = existence_map(board, progress=counts.append)
    assert sum(counts) == board.size == len(records) and min(counts) >= 1
    assert len(counts) < board.size  # a square's images are decided with it


@pytest.mark.parametrize("board", [("4", "626"), ("626", "4"), ("51", "51"), ("3", "835")])
def test_a_map_searched_square_by_square_is_bounded(capsys, board):
    code, _, err = knight_cli(capsys, "starts", *board)
    assert code == 2 and err.count("\n") == 1
    assert "at most 2,500 squares for such a board; --force maps it anyway" in err


@pytest.mark.parametrize("board", [("2", "2000"), ("60", "60")])
def test_a_large_map_that_needs_no_search_per_square_is_not_refused(capsys, board):
    code, out, err = knight_cli(capsys, "starts", *board, "-q")
    assert code == 0 and err == "" and "starting squares have a tour." in out


def test_force_maps_a_board_past_the_bound(capsys, monkeypatch):
    monkeypatch.setattr("knight.cli.starts.MAX_SEARCHED_SQUARES", 20)
    assert knight_cli(capsys, "starts", "3", "7")[0] == 2
    code, out, _ = knight_cli(capsys, "starts", "3", "7", "--force")
    assert code == 0 and "10 of 21 starting squares have a tour." in out


def test_a_slow_map_shows_its_progress_unless_quiet(capsys, monkeypatch):
    code, _, err = knight_cli(capsys, "starts", "4", "5")
    assert code == 0 and err == ""  # a quick map: its answer alone
    monkeypatch.setattr("knight.cli.starts.PROGRESS_AFTER", 0.0)
    code, _, err = knight_cli(capsys, "starts", "4", "5")
    assert code == 0 and "knight: 20/20 squares (100%)" in err  # stderr is not a terminal here: plain lines
    code, out, err = knight_cli(capsys, "starts", "4", "5", "-q")
    assert code == 0 and err == "" and "10 of 20 starting squares have a tour." in out
