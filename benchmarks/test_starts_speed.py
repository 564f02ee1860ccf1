"""Issue 14: the existence maps and the `find` method, timed: `make bench`.

Targets on this project's 2-core machine: the maps of all boards 3 <= n <= m <= 30 together in under
60 s; `knight tour 1000 --start R C --method find > /dev/null` in under 1.5 s as a whole process,
from any start.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from knight.engine import Board
from knight.engine.starts import FOUND, existence_map

BOARDS = [(n, m) for n in range(3, 31) for m in range(n, 31)]
KNIGHT = str(Path(sys.executable).with_name("knight"))
STARTS_1000 = [(0, 0), (3, 7), (500, 500), (999, 1), (998, 997), (123, 456)]


def all_maps() -> int:
    return sum(record.kind == FOUND for n, m in BOARDS for record in existence_map(Board(n, m)))


def test_maps_of_all_boards_up_to_30(benchmark):
    existence_map(Board(5, 5))  # compile (or load the compiled kernels) outside the timing
    found = benchmark.pedantic(all_maps, rounds=1, iterations=1)
    benchmark.extra_info["boards"] = len(BOARDS)
    benchmark.extra_info["starts with a tour"] = found
    if benchmark.stats:  # None under --benchmark-disable
        assert benchmark.stats.stats.median < 60


@pytest.mark.parametrize("start", STARTS_1000, ids=lambda s: f"{s[0]},{s[1]}")
def test_knight_tour_1000_find_as_a_whole_process(benchmark, start):
    def run() -> float:
        began = time.perf_counter()
        subprocess.run(
            [KNIGHT, "tour", "1000", "--start", str(start[0]), str(start[1]), "--method", "find"],
            stdout=subprocess.DEVNULL,
            check=True,
            env={**os.environ, "KNIGHT_JIT": "auto"},
        )
        return time.perf_counter() - began

    run()  # numba's disk cache filled once
    seconds = benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["seconds (last round)"] = round(seconds, 3)
    if benchmark.stats:
        assert benchmark.stats.stats.median < 1.5
