import doctest

import numpy as np
import pytest
from tour_checker import is_knight_path

import knight.engine.parberry as parberry_module
from knight.engine import Board, InvalidInput, find_tour
from knight.engine.parberry import BASE_SIZES, covered, parberry_tour, structured_moves

SAMPLE = [
    (6, 6),
    (8, 6),
    (10, 12),
    (12, 10),
    (12, 12),
    (12, 14),
    (14, 16),
    (16, 16),
    (12, 16),
    (22, 24),
    (6, 10),
    (12, 8),
    (12, 20),
    (24, 40),
    (60, 48),
    (30, 30),
    (50, 52),
    (98, 100),
    (202, 200),
    (1000, 1000),
]


def test_docstring_examples():
    assert doctest.testmod(parberry_module).failed == 0


def cycle_moves(tour):
    squares = tour.squares
    return {frozenset(pair) for pair in zip(squares, squares[1:] + squares[:1])}


@pytest.mark.parametrize("n, m", SAMPLE)
def test_closed_structured_tour_from_the_requested_start(n, m):
    start = (n // 2 - 1, 3)
    tour = find_tour(Board(n, m), start, "parberry")
    assert tour.closed and tour.start == start and tour.success
    position = np.empty(n * m, dtype=np.int64)
    position[tour.path] = np.arange(n * m)
    for a, b in structured_moves(n, m):  # the join property: the corner moves are steps of the cycle
        gap = abs(position[a[0] * m + a[1]] - position[b[0] * m + b[1]])
        assert gap in (1, n * m - 1)


@pytest.mark.parametrize("n, m", [(6, 6), (8, 10), (14, 12)])
def test_tour_is_a_knight_path_by_an_independent_check(n, m):
    tour = parberry_tour(Board(n, m), (0, 0))
    assert is_knight_path(n, m, tour.squares) and len(tour.squares) == n * m
    (r0, c0), (r1, c1) = tour.squares[0], tour.squares[-1]
    assert {abs(r0 - r1), abs(c0 - c1)} == {1, 2}


def test_every_start_gives_the_same_cycle():
    board = Board(12, 12)
    reference = cycle_moves(parberry_tour(board, (0, 0)))
    assert all(cycle_moves(parberry_tour(board, (r, c))) == reference for r in range(0, 12, 5) for c in range(12))


def test_covers_the_papers_boards():
    for n in range(6, 402, 2):
        assert covered(n, n) and covered(n, n + 2) and covered(n + 2, n)
    for n, m in BASE_SIZES:
        assert covered(n, m) and covered(m, n)


@pytest.mark.parametrize("n, m", [(5, 5), (7, 7), (4, 4), (6, 14), (8, 30), (3, 10), (12, 40), (1002, 200)])
def test_boards_not_covered_are_refused_with_the_covered_boards_named(n, m):
    assert not covered(n, m)
    with pytest.raises(InvalidInput, match=r"n×n and n×\(n\+2\) boards with even n ≥ 6"):
        find_tour(Board(n, m), (0, 0), "parberry")


def test_compiled_and_interpreted_walks_agree():
    board = Board(16, 18)
    assert (parberry_tour(board, (3, 3), compiled=True).path == parberry_tour(board, (3, 3), compiled=False).path).all()


def test_base_tours_are_structured_closed_tours():
    from knight.engine import Tour
    from knight.engine.parberry_base import BASE_TOURS

    assert set(BASE_TOURS) == set(BASE_SIZES)
    for (n, m), path in BASE_TOURS.items():
        tour = Tour(board=Board(n, m), path=path, method="base")
        assert tour.closed
        assert all(frozenset(move) in cycle_moves(tour) for move in structured_moves(n, m))
