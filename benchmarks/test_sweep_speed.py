"""Sweep speed (issue 4): `make bench`. Tasks per second of a 10,240-task Warnsdorff sweep on 1 and
2 worker processes, and their ratio; target: 2 workers at least 1.7 times as fast as 1.

The tasks (boards 20x20..59x59, 64 sampled starts, four tie-breaks) are big enough that the
workers' computing, not the parent's SQLite writes, decides the speed.

What is timed, in each run: what `knight run` does after Python has started and imported knight —
reading the job file, opening a fresh store, expanding the job into tasks and registering them,
running every task on the pool (workers started and stopped), storing and checking every result,
and closing the store. Not timed: starting Python and importing, and loading the compiled kernels
(the ahead-of-time module, a few ms; or numba and its disk cache, ~0.3 s), done once before the
first run. The 1- and 2-worker runs alternate, ROUNDS times; the figures are the
medians, and every run is printed with the CPU time other processes took meanwhile, since the
machine's 2 cores are shared (a busy neighbour slows the 2-worker run most).
"""

from __future__ import annotations

import io
import os
import statistics
import time
from pathlib import Path

from knight.runner import load_job, run_jobs
from knight.runner.progress import LineReporter
from knight.runner.work import warm_up
from knight.store import Store

JOB = """
name = "bench"
[[sweep]]
boards = ["20..59"]
starts = { sample = 64, seed = 1 }
method = "warnsdorff"
params = { tie = ["first", "roth", "lookahead-min", "lookahead-sum"] }
"""
TARGET_RATIO = 1.7
ROUNDS = 5


def busy_seconds() -> float:
    """CPU time used on the whole machine so far (all processes), from /proc/stat; 0 where it is missing."""
    try:
        fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait


def own_seconds() -> float:
    """CPU time of this process and its finished children."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def timed_run(job_path: Path, workers: int, store_path: Path) -> tuple[float, float]:
    """One `knight run`-equivalent of the job into a fresh store: (tasks per second, CPU seconds
    that other processes used meanwhile)."""
    busy, own = busy_seconds(), own_seconds()
    started = time.perf_counter()
    job = load_job(job_path)
    with Store(store_path) as store:
        run = run_jobs([job], store, workers=workers, reporter=LineReporter(io.StringIO()))
    elapsed = time.perf_counter() - started
    assert run.status == "done" and run.failed == 0 and run.ran == len(job.tasks())
    return run.ran / elapsed, max(0.0, (busy_seconds() - busy) - (own_seconds() - own))


def test_sweep_tasks_per_second_on_1_and_2_workers(benchmark, tmp_path, capsys):
    job_path = tmp_path / "bench.toml"
    job_path.write_text(JOB)
    tasks = len(load_job(job_path).tasks())
    assert tasks >= 10_000
    warm_up({"warnsdorff"})
    runs: dict[int, list[tuple[float, float]]] = {1: [], 2: []}

    def measure() -> None:
        for round_ in range(ROUNDS):
            for workers in (1, 2):
                runs[workers].append(timed_run(job_path, workers, tmp_path / f"w{workers}-{round_}.sqlite"))

    benchmark.pedantic(measure, rounds=1, iterations=1)
    rates = {workers: statistics.median(rate for rate, _ in runs[workers]) for workers in runs}
    ratios = [two / one for (one, _), (two, _) in zip(runs[1], runs[2])]
    ratio = statistics.median(ratios)
    benchmark.extra_info.update(
        {
            "tasks": tasks,
            "tasks/s 1 worker": round(rates[1]),
            "tasks/s 2 workers": round(rates[2]),
            "ratio": round(ratio, 2),
        }
    )
    with capsys.disabled():
        print(f"\nsweep of {tasks:,} warnsdorff tasks, {ROUNDS} rounds (load average {os.getloadavg()[0]:.2f}):")
        for round_, ((one, other1), (two, other2)) in enumerate(zip(runs[1], runs[2])):
            print(
                f"  round {round_ + 1}: 1 worker {one:,.0f} tasks/s, 2 workers {two:,.0f} tasks/s, "
                f"ratio {two / one:.2f} (other processes' CPU meanwhile: {other1:.1f} s, {other2:.1f} s)"
            )
        print(
            f"median: 1 worker {rates[1]:,.0f} tasks/s, 2 workers {rates[2]:,.0f} tasks/s, ratio {ratio:.2f} "
            f"(range {min(ratios):.2f}-{max(ratios):.2f}; target >= {TARGET_RATIO}: "
            f"{'met' if ratio >= TARGET_RATIO else 'NOT met'})"
        )
