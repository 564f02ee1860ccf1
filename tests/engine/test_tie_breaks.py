"""Each tie-break chooses what its definition says, checked at every step against a slow reference."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from knight.engine import Board, find_tour
from knight.engine.squirrel import squirrel_schedule

MOVES = [(-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2)]  # Deitel's, as (drow, dcol)


def onward(n, m, visited, square):
    r, c = square
    return [
        (r + dr, c + dc) for dr, dc in MOVES if 0 <= r + dr < n and 0 <= c + dc < m and (r + dr, c + dc) not in visited
    ]


def expected_next(n, m, visited, current, tie, rank):
    """The definition of each rule, written plainly: lowest degree, then the tie-break, then move order."""
    options = []  # (move number, square)
    for k, (dr, dc) in enumerate(MOVES):
        square = (current[0] + dr, current[1] + dc)
        if 0 <= square[0] < n and 0 <= square[1] < m and square not in visited:
            options.append((k, square))
    if not options:
        return None
    degree = {s: len(onward(n, m, visited, s)) for _, s in options}
    lowest = min(degree.values())
    tied = [(k, s) for k, s in options if degree[s] == lowest]

    def second(s):
        nxt = onward(n, m, visited | {s}, s)
        if tie == "lookahead-min":  # the next move reaches the square of lowest degree
            return min((len(onward(n, m, visited | {s}, t)) for t in nxt), default=99)
        if tie == "lookahead-sum":  # least sum of the degrees of its unvisited neighbours
            return sum(len(onward(n, m, visited | {s}, t)) for t in nxt)
        if tie == "roth":  # farthest from the centre
            return -((s[0] - (n - 1) / 2) ** 2 + (s[1] - (m - 1) / 2) ** 2)
        return 0

    return min(tied, key=lambda ks: (second(ks[1]), rank[ks[0]]))[1]


def replay_matches(tour, tie, ranks=None, switches=None):
    n, m = tour.board.n, tour.board.m
    squares = tour.squares
    visited, phase = set(), 0
    for i, current in enumerate(squares):
        visited.add(current)
        if switches is not None and phase < len(switches) and current[0] * m + current[1] == switches[phase]:
            phase += 1
        rank = ranks[phase] if ranks is not None else list(range(8))
        want = expected_next(n, m, visited, current, tie, rank)
        got = squares[i + 1] if i + 1 < len(squares) else None
        if want != got:
            return False
    return True


DETERMINISTIC = ["first", "lookahead-min", "lookahead-sum", "roth"]


@pytest.mark.parametrize("tie", DETERMINISTIC)
@given(size=st.tuples(st.integers(1, 12), st.integers(1, 12)), data=st.data())
def test_each_deterministic_tie_break_follows_its_definition(tie, size, data):
    n, m = size
    start = data.draw(st.tuples(st.integers(0, n - 1), st.integers(0, m - 1)))
    assert replay_matches(find_tour(Board(n, m), start, "warnsdorff", tie=tie), tie)


@pytest.mark.parametrize("m", [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20])
def test_squirrel_follows_its_switching_orderings(m):
    board = Board(m, m)
    ranks, switches = squirrel_schedule(board, (0, 0))
    tour = find_tour(board, (0, 0), "warnsdorff", tie="squirrel")
    assert tour.full
    assert replay_matches(tour, "squirrel", ranks.tolist(), switches.tolist())


def test_random_ties_choose_only_among_lowest_degree_squares():
    board = Board(8, 8)
    for seed in range(10):
        tour = find_tour(board, (3, 4), "warnsdorff", tie="random", seed=seed)
        visited = set()
        for current, chosen in zip(tour.squares, tour.squares[1:]):
            visited.add(current)
            options = onward(8, 8, visited, current)
            degrees = {s: len(onward(8, 8, visited | {s}, s)) for s in options}
            assert degrees[chosen] == min(degrees.values())


def test_the_rules_disagree_where_the_degrees_tie():
    """On 7 x 7 from (2, 3) the lowest degree ties early, and three rules choose three different squares."""
    board = Board(7, 7)
    opening = {tie: find_tour(board, (2, 3), "warnsdorff", tie=tie).squares[:7] for tie in DETERMINISTIC}
    assert len({tuple(squares) for squares in opening.values()}) >= 3
    for tie, squares in opening.items():  # and each choice is the one its definition makes
        visited = set()
        for i, current in enumerate(squares[:-1]):
            visited.add(current)
            assert expected_next(7, 7, visited, current, tie, list(range(8))) == squares[i + 1]


def test_squirrel_table_fails_at_74_and_ganzfried_ordering_repairs_it():
    from knight.engine.squirrel import squirrel_table

    table = squirrel_table(74)
    assert len([e for e in table if isinstance(e, str)]) > 1  # the m = 2 (mod 8) row of Table 1
    assert not find_tour(Board(74, 74), (0, 0), "warnsdorff", tie="squirrel-table").full
    assert find_tour(Board(74, 74), (0, 0), "warnsdorff", tie="squirrel").full


@pytest.mark.parametrize("m", [5, 17, 31, 47, 63, 64, 75, 101, 112, 150])
def test_squirrel_gives_a_full_tour_across_board_sizes(m):
    assert find_tour(Board(m, m), (0, 0), "warnsdorff", tie="squirrel").full
