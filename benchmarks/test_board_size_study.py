"""The board-size study's cost (issue 7): `make bench`.

* one tour on 1000 x 1000 with each deterministic tie-break (target: under 1 s each);
* the whole m = 5..1000 corner study for the deterministic rules, run as `knight run` does it
  (job file, process pool of 2 workers, store), into a fresh store (target: under 5 minutes).
  This one takes minutes: run it alone with `pytest benchmarks -k corner_study --benchmark-only`.
"""

import subprocess
import sys
import time

import pytest

from knight.engine import Board, warnsdorff_tour

DETERMINISTIC = ["first", "lookahead-min", "lookahead-sum", "roth", "squirrel"]
STUDY = """
name = "corner-study-bench"
[[sweep]]
boards = ["5..1000"]
starts = [[0, 0]]
method = "warnsdorff"
params = { tie = %s }
"""


@pytest.mark.benchmark(group="one 1000 x 1000 tour by tie-break")
@pytest.mark.parametrize("tie", DETERMINISTIC)
def test_one_1000_tour_per_tie_break(benchmark, tie):
    warnsdorff_tour(Board(8, 8), (0, 0), tie, compiled=True)  # compile once, outside the timing
    tour = benchmark.pedantic(
        warnsdorff_tour, args=(Board(1000, 1000), (0, 0), tie), kwargs={"compiled": True}, rounds=3, iterations=1
    )
    benchmark.extra_info["full"] = tour.full


def test_corner_study_5_to_1000_on_2_workers(benchmark, tmp_path):
    job = tmp_path / "corner-study-bench.toml"
    job.write_text(STUDY % str(DETERMINISTIC).replace("'", '"'))

    def run_study() -> float:
        store = tmp_path / f"store-{time.monotonic_ns()}.sqlite"
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "knight", "run", str(job), "--workers", "2", "--store", str(store)],
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return time.perf_counter() - began

    seconds = benchmark.pedantic(run_study, rounds=1, iterations=1)
    benchmark.extra_info["tasks"] = 996 * len(DETERMINISTIC)
    print(
        f"\nm = 5..1000 corner study, {len(DETERMINISTIC)} deterministic rules, 2 workers: {seconds:.0f} s "
        f"(target 300 s)"
    )
