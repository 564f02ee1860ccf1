"""Sweep speed (issue 4): `make bench`. Tasks per second of a 10,240-task Warnsdorff sweep on 1 and
2 worker processes, and their ratio; target: 2 workers at least 1.7 times as fast as 1.

The tasks (boards 20x20..59x59, 64 sampled starts, four tie-breaks) are big enough that the
workers' computing, not the parent's SQLite writes, decides the speed. Each figure is the best of
three runs into a fresh store; run it on an otherwise quiet machine (see `uptime`).
"""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

from knight.runner import load_job, run_jobs
from knight.runner.progress import LineReporter
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


def tasks_per_second(job_path: Path, workers: int, folder: Path, rounds: int = 3) -> float:
    """The best rate over ``rounds`` runs of the job into a fresh store."""
    job = load_job(job_path)
    best = 0.0
    for round_ in range(rounds):
        with Store(folder / f"w{workers}-{round_}.sqlite") as store:
            started = time.perf_counter()
            run = run_jobs([job], store, workers=workers, reporter=LineReporter(io.StringIO()))
            elapsed = time.perf_counter() - started
        assert run.status == "done" and run.failed == 0
        best = max(best, run.ran / elapsed)
    return best


def test_sweep_tasks_per_second_on_1_and_2_workers(benchmark, tmp_path, capsys):
    job_path = tmp_path / "bench.toml"
    job_path.write_text(JOB)
    tasks = len(load_job(job_path).tasks())
    assert tasks >= 10_000
    rates: dict[int, float] = {}

    def measure() -> None:
        for workers in (1, 2):
            rates[workers] = tasks_per_second(job_path, workers, tmp_path)

    benchmark.pedantic(measure, rounds=1, iterations=1)
    ratio = rates[2] / rates[1]
    benchmark.extra_info.update({"tasks": tasks, "tasks/s 1 worker": round(rates[1]),
                                 "tasks/s 2 workers": round(rates[2]), "ratio": round(ratio, 2)})
    with capsys.disabled():
        print(f"\nsweep of {tasks:,} warnsdorff tasks (load average {os.getloadavg()[0]:.2f}): "
              f"1 worker {rates[1]:,.0f} tasks/s, 2 workers {rates[2]:,.0f} tasks/s, ratio {ratio:.2f} "
              f"(target >= {TARGET_RATIO}: {'met' if ratio >= TARGET_RATIO else 'NOT met'})")
