"""Engine speed (issue 3): `make bench`. Compilation happens once, before timing starts.

Targets on this project's 2-core machine: all 64 starts of 8 x 8 (warnsdorff, tie first)
in under 10 ms; one 1000 x 1000 tour (warnsdorff, tie roth) in under 2 s — that one is
timed with the other board sizes in test_board_size_scaling.py.
"""

from knight.engine import Board, warnsdorff_tour

BOARD_8 = Board(8, 8)
STARTS_8 = [(r, c) for r in range(8) for c in range(8)]


def sweep_8x8() -> int:
    return sum(warnsdorff_tour(BOARD_8, start, "first", compiled=True).full for start in STARTS_8)


def test_warnsdorff_first_all_64_starts_8x8(benchmark):
    sweep_8x8()  # compile
    full = benchmark(sweep_8x8)
    if benchmark.stats:  # None under --benchmark-disable
        benchmark.extra_info["tours per second"] = round(64 / benchmark.stats.stats.median)
    benchmark.extra_info["full tours of 64"] = full


def test_warnsdorff_first_one_tour_8x8(benchmark):
    warnsdorff_tour(BOARD_8, (0, 0), compiled=True)
    benchmark(warnsdorff_tour, BOARD_8, (0, 0), "first", compiled=True)
