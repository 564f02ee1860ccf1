"""The size of the plain backtracking tree: the exact count against a plain enumeration, Knuth's estimator
against the exact numbers (it is unbiased), and estimate tasks through the runner, the store and the report's loader."""

from __future__ import annotations

import io
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from runner_helpers import write_job

from knight.cli import main
from knight.engine import Board, InvalidInput
from knight.engine.census import census
from knight.engine.treesize import CHECKPOINTS, MAX_ESTIMATE_SQUARES, knuth_estimate, plain_tree
from knight.report.data import load_estimates, load_results
from knight.runner import JobError, load_job, run_jobs
from knight.runner.progress import LineReporter
from knight.store import Store

MOVES = [(-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2)]


def enumerate_tree(n: int, m: int, start: tuple[int, int]) -> tuple[int, int]:
    """(nodes, full tours) of the plain backtracking tree, by a plain recursive enumeration."""
    visited = {start}

    def below(square):
        nodes, tours = 1, int(len(visited) == n * m)
        for dr, dc in MOVES:
            t = (square[0] + dr, square[1] + dc)
            if 0 <= t[0] < n and 0 <= t[1] < m and t not in visited:
                visited.add(t)
                more = below(t)
                visited.remove(t)
                nodes, tours = nodes + more[0], tours + more[1]
        return nodes, tours

    return below(start)


@pytest.mark.parametrize("n, m", [(1, 1), (2, 3), (3, 3), (3, 4), (4, 3), (4, 4), (3, 5)])
def test_the_exact_tree_is_a_plain_enumeration(n, m):
    for row in range(n):
        for col in range(m):
            found = plain_tree(Board(n, m), (row, col), compiled=False)
            assert (found.nodes, found.tours) == enumerate_tree(n, m, (row, col)), (row, col)


def test_the_exact_tree_of_5x5_from_the_corner():
    found = plain_tree(Board(5, 5), (0, 0), compiled=True)
    assert (found.tours, found.nodes) == (304, 1_735_079)  # 304: the census's tours from a corner


def test_the_estimator_is_unbiased_on_5x5():
    """Over 200,000 probes the means are within four standard errors of the exact tree and its 304 tours."""
    exact = plain_tree(Board(5, 5), (0, 0), compiled=True)
    estimate = knuth_estimate(Board(5, 5), (0, 0), probes=200_000, seed=11, compiled=True)
    assert abs(estimate.node_mean - exact.nodes) < 4 * estimate.node_se
    assert abs(estimate.tour_mean - exact.tours) < 4 * estimate.tour_se
    assert estimate.full_probes > 100 and 1 < estimate.mean_depth <= 25
    assert estimate.node_se < 0.01 * exact.nodes  # and precise: within one percent


#: The plain tree of 6 x 6 from the corner, counted once by plain_tree (19,431,824,959 nodes, 524,486 tours:
#: 21 minutes on one core, too long for the tests).
NODES_6X6_FROM_CORNER = 19_431_824_959


def test_the_estimates_on_6x6_agree_with_the_census_and_the_tree_counted_once():
    exact = census(Board(6, 6), start=(0, 0), compiled=True).counts[0, 0]
    estimate = knuth_estimate(Board(6, 6), (0, 0), probes=1_500_000, seed=3, compiled=True)
    assert estimate.full_probes >= 30
    assert abs(estimate.tour_mean - exact) < 4 * estimate.tour_se, (estimate.tour_mean, estimate.tour_se, exact)
    assert abs(estimate.node_mean - NODES_6X6_FROM_CORNER) < 4 * estimate.node_se


@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 2**32), st.data())
def test_every_probe_count_on_a_tiny_board_is_unbiased_in_expectation(n, m, seed, data):
    """The estimator's exact expectation (each root-to-leaf walk weighted by its probability) is the tree's
    size; and the kernels, interpreted and compiled, give the same estimates from the same seed."""
    start = data.draw(st.tuples(st.integers(0, n - 1), st.integers(0, m - 1)))
    nodes, tours = enumerate_tree(n, m, start)
    expected_nodes, expected_tours = expectation(n, m, start)
    assert math.isclose(expected_nodes, nodes) and math.isclose(expected_tours, tours, abs_tol=1e-9)
    a = knuth_estimate(Board(n, m), start, 300, seed, compiled=False)
    b = knuth_estimate(Board(n, m), start, 300, seed, compiled=True)
    assert a == b


def expectation(n, m, start):
    """E[node estimate], E[tour estimate] of one probe, computed exactly over every walk."""
    visited = {start}

    def walk(square, probability, weight, nodes_so_far):
        children = [
            (square[0] + dr, square[1] + dc)
            for dr, dc in MOVES
            if 0 <= square[0] + dr < n and 0 <= square[1] + dc < m and (square[0] + dr, square[1] + dc) not in visited
        ]
        if not children:
            return probability * nodes_so_far, probability * (weight if len(visited) == n * m else 0)
        weight *= len(children)
        total = [0.0, 0.0]
        for child in children:
            visited.add(child)
            node_part, tour_part = walk(child, probability / len(children), weight, nodes_so_far + weight)
            visited.remove(child)
            total[0] += node_part
            total[1] += tour_part
        return total

    return walk(start, 1.0, 1, 1)


def test_the_running_means_are_those_of_the_first_probes():
    """The checkpoint after 10^k probes is the estimate a run of 10^k probes from the same seed gives."""
    board = Board(6, 6)
    long = knuth_estimate(board, (2, 3), 20_000, seed=5, compiled=True)
    assert [c.probes for c in long.checkpoints] == [p for p in CHECKPOINTS if p <= 20_000] == [100, 1000, 10_000]
    for checkpoint in long.checkpoints:
        short = knuth_estimate(board, (2, 3), checkpoint.probes, seed=5, compiled=True)
        assert math.isclose(checkpoint.node_mean, short.node_mean, rel_tol=1e-12)
        assert math.isclose(checkpoint.node_se, short.node_se, rel_tol=1e-9)
        assert math.isclose(checkpoint.tour_mean, short.tour_mean, rel_tol=1e-12, abs_tol=1e-9)
    assert knuth_estimate(board, (2, 3), 10_000, seed=6, compiled=True).node_mean != long.checkpoints[2].node_mean


@pytest.mark.parametrize(
    "args, message",
    [
        ((Board(5, 5), (0, 0), 0), "probes must be a positive number"),
        ((Board(5, 5), (0, 0), 10, -1), "seed must be a non-negative integer"),
        ((Board(5, 5), (5, 0), 10), "off the 5x5 board"),
        ((Board(13, 13), (0, 0), 10), f"at most {MAX_ESTIMATE_SQUARES} squares"),
    ],
)
def test_bad_estimator_input_is_refused(args, message):
    with pytest.raises(InvalidInput, match=re.escape(message)):
        knuth_estimate(*args)


JOB = """
name = "sizes"
[[sweep]]
boards = [4, 5, "5x6"]
starts = [[0, 0]]
method = "estimate"
params = { probes = 20_000, seed = [0, 1] }

[[sweep]]
boards = [5]
starts = [[0, 0]]
method = "estimate"
params = { probes = 1_000, rate_nodes = 20_000 }

[[sweep]]
boards = ["5x6"]
starts = [[0, 0]]
method = "census"

[[sweep]]
boards = [8]
starts = [[0, 0], [3, 3]]
method = "random-walk"
repeats = 3

[[sweep]]
boards = [8]
starts = [[0, 0]]
method = "warnsdorff"
params = { tie = "blog" }
"""


def test_estimate_tasks_run_into_the_store_and_load_for_the_report(tmp_path, capsys):
    job = load_job(write_job(tmp_path, "sizes", JOB))
    store_path = tmp_path / "s.sqlite"
    with Store(store_path) as store:
        summary = run_jobs([job], store, workers=2, reporter=LineReporter(io.StringIO()))
        assert summary.failed == 0 and summary.ran == 7 + 2 + 6 + 1
        again = run_jobs([job], store, workers=2, reporter=LineReporter(io.StringIO()))
        assert again.ran == 0  # everything is in the store: nothing runs twice
        assert {row["method"] for row in store.summary()} == {"random-walk", "warnsdorff"}
    records = load_estimates(store_path)
    assert [(r.n, r.m, r.seed, r.probes) for r in records] == [
        (4, 4, 0, 20_000),
        (4, 4, 1, 20_000),
        (5, 5, 0, 1_000),
        (5, 5, 0, 20_000),
        (5, 5, 1, 20_000),
        (5, 6, 0, 20_000),
        (5, 6, 1, 20_000),
    ]
    for record in records:
        direct = knuth_estimate(Board(record.n, record.m), record.start, record.probes, record.seed)
        assert (record.node_mean, record.tour_sd, record.full_probes, record.checkpoints) == (
            direct.node_mean,
            direct.tour_sd,
            direct.full_probes,
            direct.checkpoints,
        )
        assert record.jobs == ("sizes",) and record.node_se == direct.node_se
    small = [r for r in records if r.n * r.m <= 25]
    assert all(
        r.exact_nodes == plain_tree(Board(r.n, r.m), (0, 0)).nodes and r.exact_tours_source == "tree" for r in small
    )
    assert {r.exact_tours for r in records if r.n == 5 and r.m == 5} == {304}
    wide = [r for r in records if (r.n, r.m) == (5, 6)]  # over 25 squares: the tours come from the census
    assert all(r.exact_nodes is None and r.exact_tours_source == "census" for r in wide)
    assert {r.exact_tours for r in wide} == {int(census(Board(5, 6), start=(0, 0)).counts[0, 0])}
    (timed,) = [r for r in records if r.rate_nodes]
    assert timed.rate_nodes <= 20_000 and timed.rate_seconds > 0 and timed.nodes_per_second > 0
    assert all(r.rate_nodes is None and r.nodes_per_second is None for r in records if r is not timed)
    results = load_results(store_path)
    walks = results.select("random-walk", 8, 8)
    assert len(walks) == 6 and sorted(r.params["seed"] for r in walks) == [0, 0, 1, 1, 2, 2]
    (blog,) = results.select("warnsdorff", 8, 8, tie="blog")
    assert blog.full and blog.tour().squares[:2] == [(0, 0), (2, 1)]
    with pytest.raises(SystemExit) as stop:  # and `knight results` lists them
        main(["results", "--store", str(store_path)])
    shown = capsys.readouterr().out
    assert stop.value.code == 0 and "Tree-size estimates" in shown and "1,735,079" in shown


HEAD = '[[sweep]]\nboards = [8]\nstarts = [[0, 0]]\nmethod = "estimate"\n'


@pytest.mark.parametrize(
    "text, message",
    [
        (
            HEAD + "params = { probes = -5 }\n",
            "sweep[0].params.probes: must be a number of Knuth's random probes, 1..10,000,000, got -5",
        ),
        (HEAD + "params = { probes = 1_000_000_000 }\n", "sweep[0].params.probes: must be"),
        (HEAD + "params = { probes = 0 }\n", "sweep[0].params.probes: must be"),
        (HEAD + 'params = { probes = "many" }\n', "sweep[0].params.probes: must be"),
        (HEAD + "params = { seed = -1 }\n", "sweep[0].params.seed: must be a non-negative integer"),
        (HEAD + "params = { rate_nodes = 1e9 }\n", "sweep[0].params.rate_nodes: must be"),
        (HEAD + "params = { depth = 3 }\n", "sweep[0].params.depth: not a parameter of method 'estimate'"),
        (HEAD + "repeats = 3\n", "sweep[0].repeats: does not apply to method 'estimate'"),
        (HEAD.replace("[8]", "[13]"), "sweep[0].boards: the tree is estimated on boards of at most 144 squares"),
        (HEAD.replace("[[0, 0]]", "[[0, 9]]"), "sweep[0].starts: square [0, 9] is off the 8x8 board"),
    ],
)
def test_malformed_estimate_sweeps_are_refused_in_one_line(tmp_path, text, message):
    with pytest.raises(JobError) as refused:
        load_job(write_job(tmp_path, "bad", text))
    assert message in str(refused.value) and "\n" not in str(refused.value)
