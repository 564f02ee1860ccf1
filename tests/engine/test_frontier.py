"""The frontier method (knight.engine.frontier) counts what the enumerating census counts, without listing."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from knight.engine.board import Board
from knight.engine.census import census
from knight.engine.frontier import (
    MAX_SHORT_SIDE,
    MAX_STATES,
    TooManyStates,
    frontier_count,
    sweep_layout,
)
from knight.engine.frontier_kernel import frontier_regrow
from knight.engine.frontier_reference import frontier_count_reference
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


@pytest.mark.parametrize(
    ("n", "m", "removed", "closed"),
    [
        (4, 5, [(0, 0), (0, 4)], False),  # a symmetric pair: states merged with their mirror images
        (5, 4, [(0, 0), (0, 3)], False),  # even rows: the first end's colour swaps in the image
        (4, 4, [(1, 1), (1, 2)], False),
        (5, 6, [(2, 0), (2, 5)], True),
        (5, 5, [(0, 0), (4, 4)], False),  # not its own mirror image: nothing merged
    ],
)
def test_mirror_merging_keeps_the_census_count(n: int, m: int, removed: list[tuple[int, int]], closed: bool) -> None:
    expected = census(Board(n, m), removed=removed, closed=closed)
    kernel = frontier_count(Board(n, m), removed=removed, closed=closed, compiled=True)
    reference = frontier_count_reference(Board(n, m), removed=removed, closed=closed)
    assert kernel.tours == reference.tours == (expected.cycles if closed else expected.total)
    assert (kernel.peak_states, kernel.states) == (reference.peak_states, reference.states)


def test_states_merge_with_their_mirror_images_at_a_rows_end() -> None:
    layout = sweep_layout(Board(5, 5))
    assert [square for square in range(layout.squares) if layout.mirrors_at(square)] == [4, 9, 14, 19, 24]
    assert not any(map(sweep_layout(Board(5, 5), removed=[(0, 0)]).mirrors_at, range(25)))
    assert layout.mirrored() == [0, 5, 4, 3, 2, 1, 10, 9, 8, 7, 6]
    # merged, a symmetric board keeps about half the states: 6x6 closed held 147,050 at its peak before
    assert frontier_count(Board(6, 6), closed=True, compiled=True).peak_states < 0.7 * 147_050


@pytest.mark.parametrize(("n", "m", "removed", "closed"), [(5, 5, [], True), (4, 4, [(0, 0), (1, 1)], False)])
def test_the_colouring_argument_answers_without_a_sweep(
    n: int, m: int, removed: list[tuple[int, int]], closed: bool
) -> None:
    expected = census(Board(n, m), removed=removed, closed=closed)
    got = frontier_count(Board(n, m), removed=removed, closed=closed, compiled=True)
    assert got.tours == (expected.cycles if closed else expected.total) == 0
    assert got.peak_states == 0  # no state was swept
    assert frontier_count(Board(7, 7), closed=True).peak_states == 0  # 108 s of sweeping, before


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
    with pytest.raises(InvalidInput, match="at most 3,000,000,000"):  # a table's slots must stay under 2^32
        frontier_count(Board(5, 5), max_states=MAX_STATES + 1)
    assert 4 * MAX_STATES // 3 + 16 < 2**32


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


def test_progress_reports_every_square_and_the_peak() -> None:
    seen: list[tuple[int, int]] = []
    got = frontier_count(Board(4, 5), progress=lambda square, states: seen.append((square, states)), compiled=True)
    assert [square for square, _ in seen] == list(range(20))
    assert max(states for _, states in seen) == got.peak_states
    assert sum(states for _, states in seen) == got.states


def test_a_table_regrown_mid_step_keeps_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    grown: list[int] = []
    choose = frontier_regrow.choose

    def counting(squares: int, compiled: bool | None = None) -> Callable[[np.ndarray, np.ndarray], None]:
        regrow = choose(squares, compiled)

        def call(table: np.ndarray, bigger: np.ndarray) -> None:
            grown.append(len(table))
            regrow(table, bigger)

        return call

    monkeypatch.setattr(frontier_regrow, "choose", counting)
    # 4 x 7 open: its states grow faster than the last step's growth foretells, twice
    got = frontier_count(Board(4, 7), compiled=True)
    assert grown
    assert got.tours == census(Board(4, 7)).total


def test_a_square_out_of_moves_kills_its_states_at_once() -> None:
    # 3 x 4 closed has no tour: a corner's two moves are decided early, so the states die long before the end
    seen: list[int] = []
    frontier_count(Board(3, 4), closed=True, progress=lambda _, states: seen.append(states), compiled=False)
    assert seen[-1] == 0 and len(seen) < 12


def test_a_cap_at_the_peak_is_enough() -> None:
    # the table stops growing at twice the cap: a count whose peak is the cap still completes
    peak = frontier_count(Board(5, 5), compiled=True).peak_states
    assert frontier_count(Board(5, 5), max_states=peak, compiled=True).tours == census(Board(5, 5)).total
    with pytest.raises(TooManyStates):
        frontier_count(Board(5, 5), max_states=peak - 1, compiled=True)


def test_the_compiled_state_cap_stops_the_count() -> None:
    with pytest.raises(TooManyStates, match="more than 5,000 frontier states"):
        frontier_count(Board(5, 6), max_states=5_000, compiled=True)


def test_six_by_seven_closed_as_graphillion_counts() -> None:
    # about 3 s since dead states are dropped at once (20 s before)
    assert frontier_count(Board(6, 7), closed=True, compiled=True).tours == 1_067_638


@pytest.mark.parametrize(
    "n, m, closed, removed",
    [(5, 5, False, ()), (6, 6, True, ()), (5, 6, False, ((0, 0),)), (4, 7, False, ())],
)
def test_a_count_resumed_from_any_row_gives_the_same_count(
    n: int, m: int, closed: bool, removed: tuple[tuple[int, int], ...]
) -> None:
    """Issue 40: a count goes on from where an earlier one stood after a row (a checkpoint) and gives the same
    tours, peak and states in all; the progress it is given is only read (the caller may keep it)."""
    from knight.engine.frontier import FrontierProgress

    board = Board(n, m)
    kept: list[FrontierProgress] = []

    def keep(at: FrontierProgress) -> None:
        kept.append(FrontierProgress(at.square, at.states.copy(), at.ways, at.peak, at.total, at.growth))

    whole = frontier_count(board, closed=closed, removed=removed, compiled=True, on_row=keep)
    assert len(kept) == max(n, m) - 1  # after every row but the last
    for at in kept:
        saved = at.states.copy()
        resumed = frontier_count(board, closed=closed, removed=removed, compiled=True, resume=at)
        assert resumed == whole
        assert np.array_equal(at.states, saved)
