"""How one Warnsdorff tour scales with the board (issue 7): `make bench`.

All sizes share one benchmark group, so the ratio column pytest-benchmark prints beside each
time is the ratio to the 8 x 8 time. `ns per square` (extra info) shows the cost is linear.
Targets: 1000 x 1000 in under 1 s; a 2000 x 2000 tour under 500 MB peak memory.
"""

import json
import subprocess
import sys
import textwrap

import pytest

from knight.engine import Board, warnsdorff_tour

SIDES = [8, 100, 200, 500, 1000, 2000]


@pytest.mark.benchmark(group="one warnsdorff tour (tie roth) by board size")
@pytest.mark.parametrize("side", SIDES)
def test_roth_tour_by_size(benchmark, side):
    board = Board(side, side)
    warnsdorff_tour(Board(8, 8), (0, 0), "roth", compiled=True)  # compile once, outside the timing
    rounds = 200 if side <= 200 else 3
    tour = benchmark.pedantic(
        warnsdorff_tour,
        args=(board, (0, 0), "roth"),
        kwargs={"compiled": True},
        rounds=rounds,
        iterations=1,
        warmup_rounds=1,
    )
    benchmark.extra_info["full"] = tour.full
    if benchmark.stats:  # None under --benchmark-disable
        benchmark.extra_info["ns per square"] = round(benchmark.stats.stats.median / board.size * 1e9, 1)
    assert tour.full


def test_peak_memory_of_a_2000_by_2000_tour(benchmark):
    """Peak resident memory of a fresh process that builds a 2000 x 2000 tour and its three keys."""
    script = textwrap.dedent("""
        import json, resource
        from knight.engine import Board, warnsdorff_tour
        tour = warnsdorff_tour(Board(2000, 2000), (0, 0), "roth", compiled=True)
        keys = (tour.key_directed, tour.key_undirected, tour.key_symmetric)
        print(json.dumps({"full": tour.full, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
    """)
    result = benchmark.pedantic(
        lambda: json.loads(
            subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
        ),
        rounds=1,
        iterations=1,
    )
    benchmark.extra_info.update(result)
    print(f"\n2000 x 2000 tour: peak memory {result['peak_mb']:.0f} MB (target 500 MB), full={result['full']}")
    assert result["full"] and result["peak_mb"] < 500
