import pytest
from hypothesis import given
from hypothesis import strategies as st
from tour_checker import is_knight_path

from knight.engine import METHODS, TIE_BREAKS, Board, InvalidInput, find_tour

GREEDY = [("naive", {}), ("static", {}), ("random-walk", {"seed": 7})] + [
    ("warnsdorff", {"tie": tie, **({"seed": 7} if tie == "random" else {})})
    for tie in TIE_BREAKS
    if not tie.startswith("squirrel")
]
boards = st.tuples(st.integers(1, 14), st.integers(1, 14))


@st.composite
def board_and_start(draw, sizes=boards):
    n, m = draw(sizes)
    return Board(n, m), (draw(st.integers(0, n - 1)), draw(st.integers(0, m - 1)))


@pytest.mark.parametrize("method, params", GREEDY, ids=lambda x: str(x))
@given(case=board_and_start())
def test_every_greedy_method_returns_a_valid_walk_from_its_start(method, params, case):
    board, start = case
    tour = find_tour(board, start, method, **params)
    assert tour.start == start
    assert is_knight_path(board.n, board.m, tour.squares)
    assert tour.work == tour.length - 1 and tour.work_unit == "steps"
    # a greedy walk stops only when stuck: no unvisited square is a knight move away
    if not tour.full:
        visited = set(tour.squares)
        r, c = tour.end
        assert all(
            (r + dr, c + dc) in visited or not board.contains((r + dr, c + dc))
            for dr, dc in [(-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1)]
        )


@given(case=board_and_start(), order=st.sampled_from(["plain", "warnsdorff"]), closed=st.booleans())
def test_backtrack_returns_a_valid_tour_or_partial(case, order, closed):
    board, start = case
    tour = find_tour(board, start, "backtrack", order=order, closed=closed, budget=20_000)
    assert tour.start == start and is_knight_path(board.n, board.m, tour.squares)
    assert tour.work_unit == "nodes" and 1 <= tour.work <= 20_000
    assert tour.success == (tour.full and (tour.closed or not closed))
    if closed and tour.full and not tour.closed:
        assert board.size == 1  # a failed closed search reports no full open path, but on 1 x 1 there is no other
    assert tour.budget_exhausted == (not tour.full and tour.work >= 20_000)


@pytest.mark.parametrize(
    "method, params", GREEDY + [("backtrack", {"order": "warnsdorff", "budget": 10_000})], ids=lambda x: str(x)
)
def test_every_method_on_a_100_by_100_board(method, params):
    board = Board(100, 100)
    tour = find_tour(board, (37, 58), method, **params)
    assert is_knight_path(100, 100, tour.squares) and tour.start == (37, 58)


def test_squirrel_from_corner_on_square_boards():
    for m in (5, 8, 12, 50, 100):
        tour = find_tour(Board(m, m), (0, 0), "warnsdorff", tie="squirrel")
        assert tour.full, m


@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 2**40))
def test_random_tie_break_is_reproducible(n, m, seed):
    board = Board(n, m)
    first = find_tour(board, (0, 0), "warnsdorff", tie="random", seed=seed)
    again = find_tour(board, (0, 0), "warnsdorff", tie="random", seed=seed)
    assert first.squares == again.squares and first.params["seed"] == seed


def test_random_tie_break_depends_on_the_seed():
    board = Board(8, 8)
    tours = {tuple(find_tour(board, (0, 0), "warnsdorff", tie="random", seed=s).squares) for s in range(20)}
    assert len(tours) > 10


@given(
    case=board_and_start(st.tuples(st.integers(1, 10), st.integers(1, 10))),
    tie=st.sampled_from(list(TIE_BREAKS)),
    seed=st.integers(0, 1000),
)
def test_interpreted_and_compiled_walks_agree(case, tie, seed):
    board, start = case
    if tie.startswith("squirrel"):
        board, start = Board(board.n, board.n), (0, 0)
    from knight.engine.greedy import warnsdorff_tour

    interpreted = warnsdorff_tour(board, start, tie, seed, compiled=False)
    compiled = warnsdorff_tour(board, start, tie, seed, compiled=True)
    assert interpreted.squares == compiled.squares


@given(
    case=board_and_start(st.tuples(st.integers(1, 5), st.integers(1, 5))),
    closed=st.booleans(),
    order=st.sampled_from(["plain", "warnsdorff"]),
)
def test_interpreted_and_compiled_searches_agree(case, closed, order):
    board, start = case
    from knight.engine.backtrack import backtrack_tour

    a = backtrack_tour(board, start, closed=closed, order=order, budget=5000, compiled=False)
    b = backtrack_tour(board, start, closed=closed, order=order, budget=5000, compiled=True)
    assert (a.squares, a.work, a.budget_exhausted) == (b.squares, b.work, b.budget_exhausted)


def test_backtrack_finds_a_tour_from_every_5x5_start_that_has_one():
    board = Board(5, 5)
    for r in range(5):
        for c in range(5):
            tour = find_tour(board, (r, c), "backtrack")
            assert not tour.budget_exhausted, (r, c)
            # 5 x 5 has 13 squares of the corners' colour and 12 of the other; tours start only on the 13
            assert tour.full == ((r + c) % 2 == 0), (r, c)


@pytest.mark.parametrize("n, m", [(3, 3), (3, 5), (5, 5), (3, 7), (5, 3)])
def test_no_tour_starts_on_the_minority_colour_of_an_odd_board(n, m):
    """A knight alternates colours, so a path over all n*m (odd) squares starts and ends on the majority colour."""
    board = Board(n, m)
    for r in range(n):
        for c in range(m):
            if (r + c) % 2 == 1:  # the minority colour (corners are colour 0)
                tour = find_tour(board, (r, c), "backtrack")
                assert not tour.full and not tour.budget_exhausted, (r, c)


@given(st.sampled_from([(5, 5), (5, 7), (7, 7), (7, 9), (9, 9), (9, 11)]), st.data())
def test_heuristics_never_complete_from_the_minority_colour(size, data):
    n, m = size
    board = Board(n, m)
    start = data.draw(st.tuples(st.integers(0, n - 1), st.integers(0, m - 1)).filter(lambda s: sum(s) % 2 == 1))
    tie = data.draw(st.sampled_from([t for t in TIE_BREAKS if not t.startswith("squirrel")]))
    params = {"tie": tie, **({"seed": data.draw(st.integers(0, 99))} if tie == "random" else {})}
    assert not find_tour(board, start, "warnsdorff", **params).full


def test_closed_backtrack_on_boards_with_and_without_closed_tours():
    assert find_tour(Board(6, 6), (2, 3), "backtrack", closed=True, order="warnsdorff").closed
    # 5 x 5 has an odd number of squares: no closed tour, and the search proves it
    tour = find_tour(Board(5, 5), (0, 0), "backtrack", closed=True)
    assert not tour.full and not tour.budget_exhausted


def test_budget_runs_out_and_says_so():
    tour = find_tour(Board(8, 8), (0, 0), "backtrack", closed=True, budget=1000)
    assert not tour.full and tour.budget_exhausted and tour.work == 1000


def test_deitel_results_from_the_corner():
    board = Board(8, 8)
    naive = find_tour(board, (0, 0), "naive")
    assert not naive.full
    # The naive knight takes the first legal move each time; replay it by hand.
    squares, seen = [(0, 0)], {(0, 0)}
    while True:
        r, c = squares[-1]
        for dr, dc in zip((-1, -2, -2, -1, 1, 2, 2, 1), (2, 1, -1, -2, -2, -1, 1, 2)):
            if 0 <= r + dr < 8 and 0 <= c + dc < 8 and (r + dr, c + dc) not in seen:
                squares.append((r + dr, c + dc))
                seen.add(squares[-1])
                break
        else:
            break
    assert naive.squares == squares


@pytest.mark.parametrize(
    "method, params, message",
    [
        ("nope", {}, "unknown method"),
        ("warnsdorff", {"tie": "nope"}, "unknown tie-break"),
        ("naive", {"tie": "first"}, "does not apply"),
        ("static", {"closed": True}, "does not apply"),
        ("warnsdorff", {"seed": 3}, "only to the tie-break 'random'"),
        ("warnsdorff", {"budget": 3}, "does not apply"),
        ("backtrack", {"order": "nope"}, "unknown move ordering"),
        ("backtrack", {"budget": 0}, "positive"),
    ],
)
def test_bad_method_parameters(method, params, message):
    with pytest.raises(InvalidInput, match=message):
        find_tour(Board(5, 5), (0, 0), method, **params)


def test_squirrel_refuses_what_it_does_not_cover():
    with pytest.raises(InvalidInput, match="square boards"):
        find_tour(Board(6, 8), (0, 0), "warnsdorff", tie="squirrel")
    with pytest.raises(InvalidInput, match="top-left"):
        find_tour(Board(8, 8), (3, 3), "warnsdorff", tie="squirrel")


def test_every_method_is_documented():
    for method in METHODS.values():
        assert method.summary and method.reference and method.build.__doc__
        assert "Example" in method.build.__doc__ and "Reference" in method.build.__doc__
