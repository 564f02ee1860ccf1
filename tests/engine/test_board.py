import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from knight.engine import HORIZONTAL, MAX_SQUARES, VERTICAL, Board, InvalidInput

# Deitel 7.24's accessibility table of the empty 8 x 8 board, as printed in the exercise.
DEITEL_ACCESSIBILITY = """
2 3 4 4 4 4 3 2
3 4 6 6 6 6 4 3
4 6 8 8 8 8 6 4
4 6 8 8 8 8 6 4
4 6 8 8 8 8 6 4
4 6 8 8 8 8 6 4
3 4 6 6 6 6 4 3
2 3 4 4 4 4 3 2
"""


def test_accessibility_matches_deitel_table():
    expected = np.array([[int(x) for x in line.split()] for line in DEITEL_ACCESSIBILITY.strip().splitlines()])
    assert (Board(8, 8).accessibility() == expected).all()


def test_moves_follow_deitel_numbering():
    assert HORIZONTAL == (2, 1, -1, -2, -2, -1, 1, 2)
    assert VERTICAL == (-1, -2, -2, -1, 1, 2, 2, 1)
    # move 0 from (2, 2): two right, one up
    assert Board(8, 8).neighbours[2 * 8 + 2, 0] == 1 * 8 + 4


@given(st.integers(1, 12), st.integers(1, 12))
def test_neighbour_table_agrees_with_brute_force(n, m):
    board = Board(n, m)
    for square in range(board.size):
        r, c = board.coords(square)
        for k in range(8):
            r2, c2 = r + VERTICAL[k], c + HORIZONTAL[k]
            expected = r2 * m + c2 if 0 <= r2 < n and 0 <= c2 < m else -1
            assert board.neighbours[square, k] == expected
    assert board.accessibility().sum() == (board.neighbours >= 0).sum()


@pytest.mark.parametrize("n, m", [(0, 5), (5, 0), (-1, 3), (2.5, 3), ("8", 8), (True, 3)])
def test_bad_sizes_are_refused(n, m):
    with pytest.raises(InvalidInput, match="positive integer"):
        Board(n, m)


def test_board_size_limit():
    with pytest.raises(InvalidInput, match="limit"):
        Board(MAX_SQUARES + 1, 1)
    assert Board(MAX_SQUARES, 1).size == MAX_SQUARES


def test_square_off_board_is_refused():
    with pytest.raises(InvalidInput, match="off the 5x6 board"):
        Board(5, 6).index((5, 0))


@given(st.integers(1, 9), st.integers(1, 9))
def test_symmetries_are_bijections_of_the_board(n, m):
    board = Board(n, m)
    rows, cols = np.divmod(np.arange(board.size), m)
    maps = board.symmetries()
    assert len(maps) == (8 if n == m else 4)
    images = set()
    for symmetry in maps:
        r, c = symmetry(rows, cols)
        assert ((r >= 0) & (r < n) & (c >= 0) & (c < m)).all()
        image = tuple((r * m + c).tolist())
        assert sorted(image) == list(range(board.size))
        # a symmetry keeps knight moves knight moves
        for k in range(8):
            target = board.neighbours[:, k]
            ok = target >= 0
            dr = r[ok] - r[target[ok]]
            dc = c[ok] - c[target[ok]]
            assert (np.abs(dr * dc) == 2).all()
        images.add(image)
    if n > 1 and m > 1:
        assert len(images) == len(maps)  # all distinct on boards with room to tell them apart
