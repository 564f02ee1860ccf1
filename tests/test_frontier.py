"""The frontier method (knight.engine.frontier) counts what the enumerating census counts, without listing."""

from __future__ import annotations

import json
import os

import pytest
from cli_helpers import knight_here

from knight.engine.board import Board
from knight.engine.census import census
from knight.engine.frontier import (
    MAX_SHORT_SIDE,
    TooManyStates,
    frontier_count,
    frontier_count_reference,
)
from knight.errors import InvalidInput

#: Every board of 4 to 20 squares whose shorter side is at least 3 (narrower ones have no tour of 3+ squares).
SMALL = [(n, m) for n in range(3, 8) for m in range(n, 8) if 9 <= n * m <= 20]


@pytest.mark.parametrize(("n", "m"), SMALL)
@pytest.mark.parametrize("closed", [False, True])
def test_reference_equals_the_census(n: int, m: int, closed: bool) -> None:
    expected = census(Board(n, m), closed=closed)
    got = frontier_count_reference(Board(n, m), closed=closed)
    assert got.tours == (expected.cycles if closed else expected.total)
    # the count does not depend on the board's orientation
    assert frontier_count_reference(Board(m, n), closed=closed).tours == got.tours


@pytest.mark.parametrize(("n", "m", "removed"), [(4, 4, [(0, 0)]), (3, 5, [(1, 2)]), (4, 5, [(0, 0), (3, 4)])])
def test_removed_squares_as_the_census(n: int, m: int, removed: list[tuple[int, int]]) -> None:
    expected = census(Board(n, m), removed=removed)
    assert frontier_count_reference(Board(n, m), removed=removed).tours == expected.total


def test_narrow_and_lone_boards() -> None:
    assert frontier_count_reference(Board(1, 1)).tours == census(Board(1, 1)).total
    assert frontier_count_reference(Board(2, 5)).tours == 0
    assert frontier_count_reference(Board(1, 1), closed=True).tours == 0


def test_a_board_wider_than_the_encoding_is_one_clear_error() -> None:
    side = MAX_SHORT_SIDE + 1
    with pytest.raises(InvalidInput, match=f"shorter side is at most {MAX_SHORT_SIDE}"):
        frontier_count(Board(side, side))


def test_the_state_cap_stops_the_count() -> None:
    with pytest.raises(TooManyStates, match="more than 10 frontier states"):
        frontier_count_reference(Board(5, 5), max_states=10)
    with pytest.raises(InvalidInput, match="positive whole number"):
        frontier_count_reference(Board(5, 5), max_states=0)


@pytest.mark.parametrize(("n", "m", "closed"), [(3, 4, False), (4, 5, False), (3, 10, True), (4, 4, False)])
def test_interpreted_kernel_equals_the_reference(n: int, m: int, closed: bool) -> None:
    reference = frontier_count_reference(Board(n, m), closed=closed)
    kernel = frontier_count(Board(n, m), closed=closed, compiled=False)
    assert (kernel.tours, kernel.peak_states, kernel.states) == (
        reference.tours,
        reference.peak_states,
        reference.states,
    )


@pytest.mark.parametrize(("n", "m", "closed"), [(5, 5, False), (5, 6, True), (4, 7, False), (5, 5, True)])
def test_compiled_kernel_equals_the_census(n: int, m: int, closed: bool) -> None:
    expected = census(Board(n, m), closed=closed)
    assert frontier_count(Board(n, m), closed=closed, compiled=True).tours == (
        expected.cycles if closed else expected.total
    )


def test_compiled_kernel_with_removed_squares() -> None:
    removed = [(0, 0), (4, 4)]
    got = frontier_count(Board(5, 5), removed=removed, compiled=True)
    assert got.tours == census(Board(5, 5), removed=removed).total


def test_the_compiled_state_cap_stops_the_count() -> None:
    with pytest.raises(TooManyStates, match="more than 5,000 frontier states"):
        frontier_count(Board(5, 6), max_states=5_000, compiled=True)


def test_six_by_seven_closed_as_graphillion_counts() -> None:
    if not os.environ.get("KNIGHT_SLOW_TESTS"):
        pytest.skip("about 20 s; set KNIGHT_SLOW_TESTS=1")
    assert frontier_count(Board(6, 7), closed=True, compiled=True).tours == 1_067_638


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["8", "--method", "frontier"], "shorter side is at most 7"),
        (["5", "--method", "frontier", "--max-states", "10"], "more than 10 frontier states"),
        (["5", "--method", "frontier", "--max-states", "0"], "positive whole number"),
        (["5", "--method", "bogus"], "--method must be census or frontier"),
        (["5", "--method", "frontier", "--start", "0,0"], "--start needs --method census"),
    ],
)
def test_bad_frontier_requests_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    ran = knight_here(capsys, ["census", *args])
    assert ran.returncode == 2
    assert message in ran.stderr
    assert ran.stderr.strip().count("\n") == 0 and "Traceback" not in ran.stderr


def test_the_command_prints_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    ran = knight_here(capsys, ["census", "3", "4", "--method", "frontier", "--json"])
    assert ran.returncode == 0
    assert json.loads(ran.stdout)["total"] == census(Board(3, 4)).total
