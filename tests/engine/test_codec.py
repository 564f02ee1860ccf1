"""The compact path encoding: start square and one byte per move, lossless both ways."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from knight.engine import HORIZONTAL, VERTICAL, Board, InvalidInput, Tour, codec, find_tour
from knight.engine.codec import decode_path, encode_path, encoded_size


@st.composite
def knight_walks(draw: st.DrawFn) -> tuple[int, int, list[int]]:
    """A board and a random self-avoiding knight's walk on it, built without the engine."""
    n, m = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    row, col = draw(st.integers(0, n - 1)), draw(st.integers(0, m - 1))
    squares, seen = [row * m + col], {(row, col)}
    for _ in range(draw(st.integers(0, n * m))):
        options = [
            (row + dr, col + dc)
            for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
            if 0 <= row + dr < n and 0 <= col + dc < m and (row + dr, col + dc) not in seen
        ]
        if not options:
            break
        row, col = options[draw(st.integers(0, len(options) - 1))]
        seen.add((row, col))
        squares.append(row * m + col)
    return n, m, squares


@given(knight_walks())
def test_decode_inverts_encode_for_random_tours(walk):
    n, m, squares = walk
    blob = encode_path(np.array(squares, dtype=np.int32), m)
    assert len(blob) == encoded_size(len(squares)) == 3 + len(squares)
    decoded = decode_path(blob, n, m)
    assert decoded.dtype == np.int32 and decoded.tolist() == squares
    assert Tour(board=Board(n, m), path=decoded, method="hand").length == len(squares)


def test_the_moves_are_deitels_numbers():
    blob = encode_path([0 * 8 + 0] + [(0 + VERTICAL[7]) * 8 + HORIZONTAL[7]], m=8)
    assert blob == bytes([0, 0, 0, 0, 7])
    square = 3 * 8 + 3
    for k in range(8):
        step = (3 + VERTICAL[k]) * 8 + 3 + HORIZONTAL[k]
        assert encode_path([square, step], m=8)[4:] == bytes([k])


def test_a_large_tour_is_a_quarter_of_its_int32_squares():
    tour = find_tour(Board(300, 300), (0, 0), "warnsdorff", compiled=True)
    blob = encode_path(tour.path, 300)
    assert len(blob) == tour.length + 3 and len(blob) * 4 - 12 == tour.path.astype("<i4").nbytes
    assert np.array_equal(decode_path(blob, 300, 300), tour.path)


@pytest.mark.parametrize(
    "path, message",
    [
        ([], "empty path"),
        ([0, 1], "not a knight move"),
        ([0, 0], "not a knight move"),
        ([5, 5 + 2 * 8 + 2], "not a knight move"),
        ([-1, 9], "cannot encode square -1"),
        (np.array([9, -6], dtype=np.int32), "cannot encode square -6"),
        ([0, 2**40], "more than a board holds"),
    ],
)
def test_encode_refuses_what_is_not_a_knights_path(path, message):
    with pytest.raises(InvalidInput, match=message):
        encode_path(path, m=8)


@pytest.mark.parametrize(
    "blob, message",
    [
        (b"\x00\x00\x00", "at least 4 bytes"),
        ((64).to_bytes(4, "little"), "off the 8x8 board"),
        (bytes([0, 0, 0, 0, 8]), "move number 8"),
        (bytes([0, 0, 0, 0, 0]), "leaves the 8x8 board"),
        (bytes([0, 0, 0, 0, 7, 7, 7, 7]), "leaves the 8x8 board"),
    ],
)
def test_decode_refuses_a_malformed_blob(blob, message):
    with pytest.raises(InvalidInput, match=message):
        decode_path(blob, 8, 8)


def test_the_modules_example_holds():
    outcome = doctest.testmod(codec)
    assert outcome.attempted > 0 and outcome.failed == 0
