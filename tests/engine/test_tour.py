import json

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from tour_checker import is_knight_path

from knight.engine import Board, InvalidTour, Tour, find_tour, warnsdorff_tour


def tour_of(board, squares, method="hand"):
    return Tour.from_squares(board, squares, method=method)


def test_validation_rejects_each_kind_of_bad_path():
    board = Board(5, 5)
    with pytest.raises(InvalidTour, match="not a knight move"):
        tour_of(board, [(0, 0), (0, 1)])
    with pytest.raises(InvalidTour, match="visited twice"):
        tour_of(board, [(0, 0), (1, 2), (0, 0)])
    with pytest.raises(InvalidTour, match="off the"):
        tour_of(board, [(0, 0), (-1, 2)])
    with pytest.raises(InvalidTour, match="off the"):
        Tour(board=board, path=np.array([0, 25]), method="hand")
    with pytest.raises(InvalidTour, match="at least"):
        Tour(board=board, path=np.array([], dtype=np.int64), method="hand")


@given(st.integers(3, 9), st.integers(3, 9), st.data())
def test_a_corrupted_tour_is_always_refused(n, m, data):
    board = Board(n, m)
    start = data.draw(st.tuples(st.integers(0, n - 1), st.integers(0, m - 1)))
    squares = warnsdorff_tour(board, start).squares
    assume(len(squares) >= 3)
    i = data.draw(st.integers(0, len(squares) - 1))
    replacement = data.draw(st.tuples(st.integers(-1, n), st.integers(-1, m)))
    assume(replacement != squares[i])
    corrupted = squares[:i] + [replacement] + squares[i + 1 :]
    if is_knight_path(n, m, corrupted):  # rarely, the change is itself a valid path
        assert tour_of(board, corrupted).squares == corrupted
    else:
        with pytest.raises(InvalidTour):
            tour_of(board, corrupted)


def test_tour_is_immutable():
    tour = warnsdorff_tour(Board(5, 5), (0, 0))
    with pytest.raises(ValueError):
        tour.path[0] = 3
    with pytest.raises(AttributeError):
        tour.method = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        tour.params["tie"] = "roth"  # type: ignore[index]


def test_homework_array_numbers_the_visits():
    tour = warnsdorff_tour(Board(5, 5), (0, 0))
    array = tour.array()
    assert sorted(array.ravel().tolist()) == list(range(1, 26))
    for k, (r, c) in enumerate(tour.squares, start=1):
        assert array[r, c] == k
    partial = warnsdorff_tour(Board(5, 5), (0, 1))
    assert not partial.full
    assert (partial.array() == 0).sum() == 25 - partial.length


def test_closed_detection():
    closed = find_tour(Board(6, 6), (0, 0), "backtrack", closed=True)
    assert closed.full and closed.closed
    (r0, c0), (r1, c1) = closed.start, closed.end
    assert {abs(r0 - r1), abs(c0 - c1)} == {1, 2}
    # Any rotation of a closed tour is closed too; dropping its last square makes it partial, not closed.
    squares = closed.squares
    rotated = tour_of(Board(6, 6), squares[7:] + squares[:7])
    assert rotated.closed
    assert not tour_of(Board(6, 6), squares[:-1]).closed
    open_tour = warnsdorff_tour(Board(5, 5), (0, 0))
    (r0, c0), (r1, c1) = open_tour.start, open_tour.end
    assert open_tour.full and not open_tour.closed and {abs(r0 - r1), abs(c0 - c1)} != {1, 2}


def _mirror(squares, n, m):
    return [(r, m - 1 - c) for r, c in squares]


def _transpose(squares):
    return [(c, r) for r, c in squares]


@given(st.sampled_from([(5, 5), (6, 6), (5, 6), (6, 7), (8, 8)]), st.data())
def test_dedup_keys_collapse_exactly_as_they_should(size, data):
    n, m = size
    board = Board(n, m)
    start = data.draw(st.tuples(st.integers(0, n - 1), st.integers(0, m - 1)))
    tour = warnsdorff_tour(board, start, tie="random", seed=data.draw(st.integers(0, 10**6)))
    squares = tour.squares
    reversed_tour = tour_of(board, squares[::-1])
    mirrored = tour_of(board, _mirror(squares, n, m))
    mirrored_reversed = tour_of(board, _mirror(squares, n, m)[::-1])

    # directed: only the tour itself
    assert tour.key_directed == tour_of(board, squares).key_directed
    assert tour.key_directed != reversed_tour.key_directed or len(squares) == 1
    # undirected: a tour and its reversal, not its mirror image
    assert tour.key_undirected == reversed_tour.key_undirected
    if tour.key_undirected == mirrored.key_undirected:  # only when the mirror image is the tour, either way
        assert mirrored.squares in (squares, squares[::-1])
    # symmetric: all the images collapse
    assert tour.key_symmetric == mirrored.key_symmetric == mirrored_reversed.key_symmetric
    assert tour.key_symmetric == reversed_tour.key_symmetric
    if n == m:
        assert tour.key_symmetric == tour_of(board, _transpose(squares)).key_symmetric


def test_distinct_tours_keep_distinct_symmetric_keys():
    board = Board(5, 5)
    tours = [
        find_tour(board, (r, c), "warnsdorff", tie="random", seed=s)
        for r in range(5)
        for c in range(5)
        for s in range(4)
    ]
    full = [t for t in tours if t.full]

    # Independent count: canonical form = least of the 16 images of each sequence.
    def images(squares):
        for sq in (squares, squares[::-1]):
            for f in (
                lambda r, c: (r, c),
                lambda r, c: (4 - r, c),
                lambda r, c: (r, 4 - c),
                lambda r, c: (4 - r, 4 - c),
                lambda r, c: (c, r),
                lambda r, c: (4 - c, 4 - r),
                lambda r, c: (c, 4 - r),
                lambda r, c: (4 - c, r),
            ):
                yield tuple(f(r, c) for r, c in sq)

    canonical = {min(images(t.squares)) for t in full}
    undirected = {min(tuple(t.squares), tuple(t.squares[::-1])) for t in full}
    assert len({t.key_symmetric for t in full}) == len(canonical)
    assert len({t.key_undirected for t in full}) == len(undirected)
    assert len({t.key_directed for t in full}) == len({tuple(t.squares) for t in full})


def test_json_round_trip():
    tour = find_tour(Board(6, 6), (2, 3), "warnsdorff", tie="roth")
    data = json.loads(json.dumps(tour.to_dict()))
    again = Tour.from_dict(data)
    assert again.squares == tour.squares
    assert again.key_symmetric == tour.key_symmetric
    assert data["board"] == [6, 6] and data["start"] == [2, 3]
    assert data["params"] == {"tie": "roth"} and data["work"] == {"unit": "steps", "count": 35}


def test_cycle_key_ignores_start_and_direction_of_a_closed_tour():
    closed = find_tour(Board(6, 6), (0, 0), "backtrack", closed=True)
    squares = closed.squares
    board = Board(6, 6)
    for shift in (1, 7, 35):
        rotated = tour_of(board, squares[shift:] + squares[:shift])
        assert rotated.key_cycle == closed.key_cycle
        assert tour_of(board, rotated.squares[::-1]).key_cycle == closed.key_cycle
        assert rotated.key_undirected != closed.key_undirected  # as sequences they differ

    def edges(tour):  # a cycle is its set of moves, the closing one included
        return {frozenset(pair) for pair in zip(tour.squares, tour.squares[1:] + tour.squares[:1])}

    for start in [(0, 0), (2, 3), (5, 1)]:
        other = find_tour(board, start, "backtrack", closed=True, order="warnsdorff")
        assert (other.key_cycle == closed.key_cycle) == (edges(other) == edges(closed))
    assert warnsdorff_tour(Board(5, 5), (0, 0)).key_cycle is None


@given(
    st.integers(1, 40),
    st.integers(1, 40),
    st.data(),
    st.integers(1, 2000),
    st.sampled_from(["warnsdorff", "random-walk", "naive"]),
)
def test_the_streamed_json_is_the_documents_json(n, m, data, per_chunk, method):
    board = Board(n, m)
    start = data.draw(st.tuples(st.integers(0, n - 1), st.integers(0, m - 1)))
    found = find_tour(board, start, method)
    text = "".join(found.json_chunks(per_chunk))
    assert text == json.dumps(found.to_dict())  # the same text, squares never turned into Python lists
    assert Tour.from_dict(json.loads(text)).key_directed == found.key_directed


def test_a_big_tour_streams_in_pieces_of_bounded_size():
    found = find_tour(Board(300, 300), (0, 0), "warnsdorff", tie="roth")
    pieces = list(found.json_chunks(1 << 12))
    assert len(pieces) == 2 + -(-found.length // (1 << 12))
    assert max(len(piece) for piece in pieces[1:-1]) <= (1 << 12) * len("[299, 299], ")
    assert json.loads("".join(pieces))["squares"][-1] == list(found.end)


@given(
    st.sampled_from([(1, 1), (3, 4), (5, 5), (4, 7), (8, 8)]),
    st.data(),
    st.sampled_from([1, 2, 5, 1 << 12]),
)
def test_the_symmetric_key_compared_a_piece_at_a_time_is_the_least_image_whole(size, data, piece):
    """symmetric_key compares the images a few squares at a time (and hashes the least in pieces): the
    key is the digest of the least image of the path, both ways round, as if every image were made whole."""
    from knight.engine import tour as tours

    board = Board(*size)
    path = np.array(data.draw(st.lists(st.integers(0, board.size - 1), max_size=3 * board.size)), dtype=np.int64)
    images = [image for whole in board.symmetric_images(path) for image in (whole, whole[::-1])]
    least = min(np.asarray(image, dtype=">u4").tobytes() for image in images) if path.size else b""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tours, "_COMPARED", piece)
        patch.setattr(tours, "_CHUNK", piece + 1)
        assert tours.symmetric_key(board, path) == tours._digest(board, least)
