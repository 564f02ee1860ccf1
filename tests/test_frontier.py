"""The frontier method (knight.engine.frontier) counts what the enumerating census counts, without listing."""

from __future__ import annotations

import pytest

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
