"""Two-word frontier states (knight.engine.frontier_wide_kernel, issue 40 item 3): the same counts, peaks and states
as the one-word kernel and the reference, on boards both can count (``wide=True``) and on boards only two words hold
(a shorter side of 8 to 13, most of it removed so that it stays small)."""

from __future__ import annotations

import numpy as np
import pytest

from knight.engine.board import Board
from knight.engine.frontier import (
    MAX_SHORT_SIDE,
    FrontierProgress,
    frontier_count,
    sweep_layout,
)
from knight.engine.frontier_reference import frontier_count_reference
from knight.errors import InvalidInput


def copied(at: FrontierProgress) -> FrontierProgress:
    """``at`` with states of its own (``on_row`` gives the count's)."""
    return FrontierProgress(at.square, at.states.copy(), at.ways, at.peak, at.total, at.growth)


def rows_only(side: int, rows: int, columns: int | None = None) -> list[tuple[int, int]]:
    """The squares of a ``side`` x ``side`` board outside its first ``rows`` rows and ``columns`` columns: what is
    left is a ``rows`` x ``columns`` board, swept in rows of ``side`` squares (a frontier of ``2 side + 1``)."""
    columns = side if columns is None else columns
    return [(r, c) for r in range(side) for c in range(side) if r >= rows or c >= columns]


@pytest.mark.parametrize(
    ("n", "m", "closed", "removed", "tours"),
    [
        (6, 6, False, (), 6_637_920),  # ~15 s of the file's time, both ways
        (6, 6, True, (), 9_862),
        (6, 7, True, (), 1_067_638),
        (5, 6, False, ((0, 0),), None),
        (5, 6, True, ((2, 0), (2, 5)), None),  # symmetric: states merged with their mirror images
        (5, 4, False, ((0, 0), (0, 3)), None),  # even rows: the first end's colour swaps in the image
    ],
)
def test_two_words_count_what_one_word_counts(
    n: int, m: int, closed: bool, removed: tuple[tuple[int, int], ...], tours: int | None
) -> None:
    narrow = frontier_count(Board(n, m), closed=closed, removed=removed, compiled=True)
    wide = frontier_count(Board(n, m), closed=closed, removed=removed, compiled=True, wide=True)
    assert wide == narrow  # tours, peak and states in all
    if tours is not None:
        assert wide.tours == tours


@pytest.mark.parametrize(
    ("n", "m", "closed", "removed"), [(5, 5, False, ()), (5, 5, False, ((0, 0),)), (4, 5, True, ())]
)
def test_two_words_count_what_the_reference_counts(
    n: int, m: int, closed: bool, removed: tuple[tuple[int, int], ...]
) -> None:
    reference = frontier_count_reference(Board(n, m), closed=closed, removed=removed)
    wide = frontier_count(Board(n, m), closed=closed, removed=removed, compiled=True, wide=True)
    assert (wide.tours, wide.peak_states, wide.states) == (reference.tours, reference.peak_states, reference.states)


def test_the_interpreted_two_word_kernel_counts_as_the_compiled() -> None:
    compiled = frontier_count(Board(4, 5), compiled=True, wide=True)
    assert frontier_count(Board(4, 5), compiled=False, wide=True) == compiled


@pytest.mark.parametrize(
    ("side", "rows", "columns", "closed"),
    [
        (8, 3, 8, False),  # 8 x 8's 17-square frontier: squares 15 and 16 in the high word
        (10, 3, 10, True),
        (10, 3, 10, False),
        (12, 3, 12, True),
        (MAX_SHORT_SIDE, 3, 12, True),  # the widest frontier, 27 squares; not its own mirror image
    ],
)
def test_a_frontier_past_one_word_counts_the_board_left(side: int, rows: int, columns: int, closed: bool) -> None:
    """A wide board with all but a few rows removed has the tours of the narrow board left, swept in long rows."""
    removed = rows_only(side, rows, columns)
    assert sweep_layout(Board(side, side), removed).window > 15
    wide = frontier_count(Board(side, side), closed=closed, removed=removed, compiled=True)
    assert wide.tours == frontier_count(Board(rows, columns), closed=closed, compiled=True).tours
    if side <= 10:
        reference = frontier_count_reference(Board(side, side), closed=closed, removed=removed)
        assert (wide.tours, wide.peak_states, wide.states) == (reference.tours, reference.peak_states, reference.states)


def test_one_word_states_are_refused_for_a_frontier_they_cannot_hold() -> None:
    with pytest.raises(InvalidInput, match="does not fit a one-word state"):
        frontier_count(Board(8, 8), closed=True, wide=False)
    with pytest.raises(InvalidInput, match=f"shorter side is at most {MAX_SHORT_SIDE}"):
        frontier_count(Board(MAX_SHORT_SIDE + 1, MAX_SHORT_SIDE + 1))


@pytest.mark.parametrize(
    ("n", "m", "closed", "removed"),
    [(6, 6, True, ()), (5, 6, False, ((0, 0),)), (8, 8, False, tuple(rows_only(8, 3)))],
)
def test_a_wide_count_resumed_from_any_row_gives_the_same_count(
    n: int, m: int, closed: bool, removed: tuple[tuple[int, int], ...]
) -> None:
    board = Board(n, m)
    kept: list[FrontierProgress] = []
    whole = frontier_count(
        board, closed=closed, removed=removed, compiled=True, wide=True, on_row=lambda at: kept.append(copied(at))
    )
    # after every row but the last, while states are left (the strip's die once its three rows are swept)
    assert len(kept) == (3 if removed and n == 8 else max(n, m) - 1)
    assert all(at.wide and at.states.shape[1] == 3 for at in kept)
    assert [at.held for at in kept] == [len(at.states) for at in kept]
    for at in kept:
        saved = at.states.copy()
        assert frontier_count(board, closed=closed, removed=removed, compiled=True, wide=True, resume=at) == whole
        assert np.array_equal(at.states, saved)  # only read


def test_a_checkpoint_of_either_kind_resumes_either_kind_of_count() -> None:
    """A frontier of at most 15 squares converts: one-word states resume a two-word count and back."""
    board = Board(6, 6)
    narrow: list[FrontierProgress] = []
    wide: list[FrontierProgress] = []
    whole = frontier_count(board, closed=True, compiled=True, on_row=lambda at: narrow.append(copied(at)))
    assert (
        frontier_count(board, closed=True, compiled=True, wide=True, on_row=lambda at: wide.append(copied(at))) == whole
    )
    for one, two in zip(narrow, wide, strict=True):
        assert not one.wide and one.held == two.held
        assert frontier_count(board, closed=True, compiled=True, wide=True, resume=one) == whole
        assert frontier_count(board, closed=True, compiled=True, resume=two) == whole
    with pytest.raises(InvalidInput, match="needs two-word states"):
        frontier_count(Board(8, 8), closed=True, resume=narrow[0])
