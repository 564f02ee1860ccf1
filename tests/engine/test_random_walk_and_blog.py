"""The random walk (uniform among the legal moves) and the blog's script as a tie-break (replayed literally)."""

from __future__ import annotations

from collections import Counter
from heapq import heappop, heappush

import pytest
from hypothesis import given
from hypothesis import strategies as st
from runner_helpers import write_job

from knight.engine import TIE_BREAKS, Board, find_tour
from knight.runner import load_job

MOVES = [(-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2)]  # Deitel's, as (drow, dcol)


def legal(n, m, visited, square):
    r, c = square
    return [
        (r + dr, c + dc) for dr, dc in MOVES if 0 <= r + dr < n and 0 <= c + dc < m and (r + dr, c + dc) not in visited
    ]


@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_a_random_walk_is_reproducible_per_seed_and_stops_only_when_stuck(n, m, data):
    board = Board(n, m)
    start = data.draw(st.tuples(st.integers(0, n - 1), st.integers(0, m - 1)))
    seed = data.draw(st.integers(0, 2**40))
    walk = find_tour(board, start, "random-walk", seed=seed)
    assert walk.squares == find_tour(board, start, "random-walk", seed=seed, compiled=True).squares
    assert walk.method == "random-walk" and dict(walk.params) == {"seed": seed}
    visited = set()
    for current, chosen in zip(walk.squares, walk.squares[1:]):
        visited.add(current)
        assert chosen in legal(n, m, visited, current)
    assert legal(n, m, set(walk.squares), walk.end) == []


def test_random_walks_differ_between_seeds():
    walks = {tuple(find_tour(Board(8, 8), (0, 0), "random-walk", seed=s, compiled=True).squares) for s in range(50)}
    assert len(walks) == 50


def test_a_random_walk_chooses_uniformly_among_the_legal_moves():
    """From the centre of 8 x 8 all eight moves are legal; over 8,000 seeds each is the first move about
    1,000 times (chi-square with 7 degrees of freedom, below its 0.1% point 24.3); the second move, from
    squares with different numbers of legal moves, is uniform among those too."""
    board, start = Board(8, 8), (3, 3)
    walks = [find_tour(board, start, "random-walk", seed=s, compiled=True).squares for s in range(8000)]
    first = Counter(walk[1] for walk in walks)
    assert set(first) == set(legal(8, 8, {start}, start))
    assert sum((count - 1000) ** 2 / 1000 for count in first.values()) < 24.3
    for square in first:  # the second move, given the first
        options = legal(8, 8, {start, square}, square)
        second = Counter(walk[2] for walk in walks if walk[1] == square)
        assert set(second) == set(options)
        expected = first[square] / len(options)
        chi2 = sum((count - expected) ** 2 / expected for count in second.values())
        assert chi2 < {1: 10.8, 2: 13.8, 3: 16.3, 4: 18.5, 5: 20.5, 6: 22.5, 7: 24.3}[len(options) - 1], square


def test_the_job_parser_gives_a_random_walk_its_seeds(tmp_path):
    text = '[[sweep]]\nboards = [8]\nstarts = [[0, 0], [3, 4]]\nmethod = "random-walk"\nrepeats = 100\n'
    tasks = load_job(write_job(tmp_path, "walks", text)).tasks()
    assert len(tasks) == 200 and {t.method for t in tasks} == {"random-walk"}
    assert sorted({dict(t.params)["seed"] for t in tasks}) == list(range(100))
    given_seeds = load_job(write_job(tmp_path, "seeds", text.replace("repeats = 100", "params = { seed = [3, 9] }")))
    assert sorted(dict(t.params)["seed"] for t in given_seeds.tasks()) == [3, 3, 9, 9]
    one = load_job(write_job(tmp_path, "one", text.replace("repeats = 100\n", ""))).tasks()
    assert [dict(t.params) for t in one] == [{"seed": 0}, {"seed": 0}]


# --- the blog's script ---------------------------------------------------------------------------


def blog_script(height, width, kx, ky):
    """The Warnsdorff blog's script as printed, in Python 3 (xrange is range; heapq as the script
    uses it); the random start is given as (kx, ky) = (column, row). Returns the board ``cb``."""
    cb = [[0 for x in range(height)] for y in range(width)]  # chessboard

    # possible direction combinations for knight
    dx = [-2, -1, 1, 2, -2, -1, 1, 2]
    dy = [1, 2, 2, 1, -1, -2, -2, -1]

    for k in range(width * height):
        cb[ky][kx] = k + 1
        p_queue = []  # available neighbors queue
        for i in range(8):
            nx = kx + dx[i]
            ny = ky + dy[i]
            if nx >= 0 and nx < width and ny >= 0 and ny < height:
                if cb[ny][nx] == 0:
                    # count the available neighbors of the potential next stops
                    ctr = 0
                    for j in range(8):
                        ex = nx + dx[j]
                        ey = ny + dy[j]
                        if ex >= 0 and ex < width and ey >= 0 and ey < height:
                            if cb[ey][ex] == 0:
                                ctr += 1
                    heappush(p_queue, (ctr, i))
        # move to the neighbor that has min number of available neighbors
        if len(p_queue) > 0:
            (p, m) = heappop(p_queue)
            kx += dx[m]
            ky += dy[m]
        else:
            break
    return cb


@pytest.mark.parametrize("m", [5, 6, 7, 8, 9, 10, 12, 15, 20, 31, 52, 62])
def test_the_blog_tie_break_is_the_blog_script(m):
    """From every start of the small boards, and from corners and a few inner squares of the larger
    ones (52 and 62: where the script, from the corner, fails), the same array, square for square."""
    board = Board(m, m)
    starts = (
        [(r, c) for r in range(m) for c in range(m)]
        if m <= 8
        else [(0, 0), (0, m - 1), (m - 1, 0), (m - 1, m - 1), (1, 2), (m // 2, m // 3), (m - 3, 4)]
    )
    for row, col in starts:
        tour = find_tour(board, (row, col), "warnsdorff", tie="blog")
        assert tour.array().tolist() == blog_script(m, m, col, row), (m, row, col)


def test_the_blog_tie_break_differs_from_move_order_and_says_where_it_comes_from():
    assert "heappush" in TIE_BREAKS["blog"] and "blog" in TIE_BREAKS["blog"]
    differ = [
        (r, c)
        for r in range(8)
        for c in range(8)
        if find_tour(Board(8, 8), (r, c), "warnsdorff", tie="blog").squares
        != find_tour(Board(8, 8), (r, c), "warnsdorff", tie="first").squares
    ]
    assert differ
