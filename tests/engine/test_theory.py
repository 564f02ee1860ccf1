import doctest
import itertools
import random

import pytest

import knight.engine.theory as theory_module
from knight.engine import Board, InvalidInput
from knight.engine.census import census
from knight.engine.theory import (
    COLOURING,
    CONRAD,
    SCHWENK,
    closed_tour_verdict,
    colour_counts,
    open_tour_verdict,
)

SMALL = [(n, m) for n in range(1, 31) for m in range(n, 31) if n * m <= 30]


def test_docstring_examples():
    assert doctest.testmod(theory_module).failed == 0


@pytest.mark.parametrize("n, m", SMALL + [(m, n) for n, m in SMALL if n != m])
def test_open_tour_theory_agrees_with_exhaustive_search_from_every_start(n, m):
    board = Board(n, m)
    counts = census(board).counts
    for row, col in itertools.product(range(n), range(m)):
        verdict = open_tour_verdict(board, (row, col))
        if verdict.exists is not None:
            assert verdict.exists == (counts[row, col] > 0), (verdict, int(counts[row, col]))
    assert open_tour_verdict(board).exists == (counts.sum() > 0)


def test_theory_decides_most_starts_of_small_boards():
    undecided = sum(
        open_tour_verdict(Board(n, m), (r, c)).exists is None for n, m in SMALL for r in range(n) for c in range(m)
    )
    total = sum(n * m for n, m in SMALL)
    assert undecided < total // 4


@pytest.mark.parametrize("n, m", [(n, m) for n in range(1, 37) for m in range(n, 37) if n * m <= 36])
def test_closed_tour_theory_agrees_with_exhaustive_search(n, m):
    board = Board(n, m)
    verdict = closed_tour_verdict(board)
    assert verdict.exists is not None  # Schwenk decides every whole board
    assert verdict.exists == (census(board, closed=True).cycles > 0), verdict


def test_each_answer_names_its_argument():
    assert open_tour_verdict(Board(5, 5), (0, 1)).argument == COLOURING
    assert open_tour_verdict(Board(3, 5)).argument == CONRAD
    assert closed_tour_verdict(Board(5, 5)).argument == COLOURING
    assert closed_tour_verdict(Board(3, 6)).argument == SCHWENK
    assert "minority colour" in str(open_tour_verdict(Board(7, 7), (0, 1)))


@pytest.mark.parametrize("side", [4, 6, 8])
def test_mutilated_board_has_no_tour_by_colouring(side):
    # The Eiffel text: opposite corners removed from an even board leave two more squares of one colour.
    removed = [(0, 0), (side - 1, side - 1)]
    a, b = colour_counts(Board(side, side), removed)
    assert abs(a - b) == 2
    verdict = open_tour_verdict(Board(side, side), removed=removed)
    assert verdict.exists is False and verdict.argument == COLOURING
    assert closed_tour_verdict(Board(side, side), removed=removed).exists is False


@pytest.mark.parametrize("n, m", [(4, 6), (6, 4), (4, 4)])
def test_mutilated_board_search_finds_no_tour_without_the_colour_rule(n, m):
    removed = [(0, 0), (n - 1, m - 1)]
    assert open_tour_verdict(Board(n, m), removed=removed).exists is False
    assert census(Board(n, m), removed=removed, prune=False).total == 0


def test_mutilated_8x8_census_stops_at_the_colour_count():
    result = census(Board(8, 8), removed=[(0, 0), (7, 7)])
    assert result.total == 0 and result.nodes <= 2 * result.units  # no unit gets past its first move


def test_colouring_agrees_with_search_on_boards_with_removed_squares():
    rng = random.Random(6)
    checked = 0
    for _ in range(60):
        n, m = rng.choice([(3, 4), (4, 4), (3, 5), (4, 5), (2, 6)])
        board = Board(n, m)
        removed = rng.sample([(r, c) for r in range(n) for c in range(m)], rng.randint(1, 3))
        plain = census(board, removed=removed, prune=False)
        verdict = open_tour_verdict(board, removed=removed)
        if verdict.exists is False:
            checked += 1
            assert plain.total == 0
        for row, col in itertools.product(range(n), range(m)):
            if (row, col) not in removed and open_tour_verdict(board, (row, col), removed).exists is False:
                assert plain.counts[row, col] == 0
        if closed_tour_verdict(board, removed).exists is False:
            assert census(board, closed=True, removed=removed, prune=False).cycles == 0
    assert checked > 10


def test_bad_squares_are_refused():
    with pytest.raises(InvalidInput, match="off the 5x5 board"):
        open_tour_verdict(Board(5, 5), removed=[(5, 5)])
    with pytest.raises(InvalidInput, match="removed square"):
        open_tour_verdict(Board(5, 5), (0, 0), removed=[(0, 0)])
