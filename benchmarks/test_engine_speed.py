"""Engine speed (issue 3): `make bench`. Compilation happens once, before timing starts.

Targets on this project's 2-core machine: all 64 starts of 8 x 8 (warnsdorff, tie first)
in under 10 ms; one 1000 x 1000 tour (warnsdorff, tie roth) in under 2 s.
"""

import pytest

from knight.engine import Board, warnsdorff_tour

BOARD_8 = Board(8, 8)
STARTS_8 = [(r, c) for r in range(8) for c in range(8)]


def sweep_8x8() -> int:
    return sum(warnsdorff_tour(BOARD_8, start, "first", compiled=True).full for start in STARTS_8)


def test_warnsdorff_first_all_64_starts_8x8(benchmark):
    sweep_8x8()  # compile
    full = benchmark(sweep_8x8)
    benchmark.extra_info["tours per second"] = round(64 / benchmark.stats.stats.median)
    benchmark.extra_info["full tours of 64"] = full


def test_warnsdorff_first_one_tour_8x8(benchmark):
    warnsdorff_tour(BOARD_8, (0, 0), compiled=True)
    benchmark(warnsdorff_tour, BOARD_8, (0, 0), "first", compiled=True)


@pytest.mark.parametrize("side", [100, 1000])
def test_warnsdorff_roth_one_tour(benchmark, side):
    board = Board(side, side)
    warnsdorff_tour(Board(8, 8), (0, 0), "roth", compiled=True)  # compile
    tour = benchmark.pedantic(warnsdorff_tour, args=(board, (0, 0), "roth"), kwargs={"compiled": True},
                              rounds=5 if side == 1000 else 20, iterations=1)
    benchmark.extra_info["full"] = tour.full
    assert tour.full
