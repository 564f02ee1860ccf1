"""How true is the time left a run shows (issue 29, item 7: within a factor of 2 after a tenth of the work).

    .venv/bin/python benchmarks/time_left.py [--repeats 5] [--reporter line|bar] [COMMAND ...]

Each command (by default ``knight census 6`` and ``knight run homework-8``) runs as a user runs it, in a fresh
process, into a fresh store, its progress piped (the plain lines) or, with ``--reporter bar``, on rich's bar.
The reporter it gets is wrapped to write down, at every result, the time since the reporter started and the
time left it says then, and the store to add up the true cost of what has finished: a census unit's nodes
(its search's own count), else 1 a task. Once the run has ended the truth is known: the time from each result
to the last one. The figure is their ratio at the first result after a tenth of the work had finished (and
after a fifth, a half): 1 is right, 2 twice too long; each figure says how much had finished then and at what
fraction of the run's time (a census's first result, the 20 % unit, comes at some 40 % of it).

``--version NAME=DIR`` (repeated) times other versions of knight, each from its copy in DIR (``git archive REV
knight jobs | tar -x -C DIR``, its kernels built by ``PYTHONPATH=DIR python -m knight.aot``), alternating run by
run, as the 2 cores are shared (others' work, at times, takes one or both): the spread and the median are printed
with the figures, and the load average before and after.

Figures, November 2026, line reporter, other users' work on both cores all along (load average 2.5-3.6); ratio
at 10 % of the work (median), then at 50 %; the process's time, median. 12 runs, alternating, of the same tree
but for knight/engine/census_plan.py (``--version base=... --version after=... census 6``):

=========================  ==========================================  ==========================================
command                    before (unit costs: nodes to depth 7)       after (level shares carried on)
=========================  ==========================================  ==========================================
knight census 6            3.18-5.13 (3.99); 2.21-3.60; 1.88 s         1.19-1.60 (1.33); 0.78-1.11; 1.81 s
=========================  ==========================================  ==========================================

10 runs each, alternating, before (the commit before) and after (the commit after, with others' work between):

=========================  ==========================================  ==========================================
knight census 6            3.11-4.93 (3.97); 1.81-3.20; 1.90 s         1.03-1.77 (1.42); 0.78-1.38; 1.99 s
knight run homework-8      0.62-1.40 (0.90); 0.62-1.30; 1.44 s         0.44-1.11 (0.91); 0.60-1.27; 1.33 s
=========================  ==========================================  ==========================================

homework-8's estimate is the same code before and after (tasks counted, the rate from the first result on); its
spread is the load's: the run takes 0.5-1.0 s, and the judged result comes when 13 % of its tasks are done, the
fourth result (one of 20 runs under load was at 0.44). On rich's bar (``--reporter bar``) a census's time left is
the same figure (0.87-1.37, median 1.04, 4 runs); a sweep's is rich's own, rounded up to a whole second, so
meaningless for a run under a few seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

#: The commands timed by default: knight's arguments, the store added.
COMMANDS = (("census", "6"), ("run", "homework-8"))
#: Where the time left is judged: the first result after these fractions of the work had finished.
FRACTIONS = (0.1, 0.2, 0.5)

# Run in the child process: the reporter the command gets, wrapped to write down what it says at each result, and
# the store, to add up the true cost of what has finished (a census unit's nodes, else 1 a task).
_CHILD = r"""
import json, sys, time
import knight.runner.progress as progress
from knight.store.database import Store

events, began, done = [], [], [0]
store_record = Store.record


def record_results(self, run_id, results, *args, **kwargs):
    results = list(results)
    done[0] += sum(result.nodes if result.method == "census" else 1 for result in results)
    return store_record(self, run_id, results, *args, **kwargs)


def note(left):
    events.append({"t": time.monotonic() - began[0], "done": done[0], "left": left})


class Line(progress.LineReporter):
    def start(self, total, work=None):
        super().start(total, work)
        began[:] = [time.monotonic()]

    def advance(self, count, work=None):
        super().advance(count, work)
        note(self.time_left(time.monotonic()))


def bar():
    from rich.console import Console
    from knight.runner.bar import BarReporter

    class Bar(BarReporter):
        def start(self, total, work=None):
            super().start(total, work)
            began[:] = [time.monotonic()]

        def advance(self, count, work=None):
            super().advance(count, work)
            left = self.time_left()
            note(float("nan") if left is None else left)

    return Bar(Console(file=open("/dev/null", "w"), force_terminal=True))


kind, out = sys.argv[1], sys.argv[2]
Store.record = record_results
progress.reporter_for = lambda *args, **kwargs: Line(open("/dev/null", "w")) if kind == "line" else bar()
sys.argv = ["knight", *sys.argv[3:]]
try:
    from knight.__main__ import main

    main()
finally:
    with open(out, "w") as file:
        json.dump(events, file)
"""


@dataclass(frozen=True)
class Judged:
    """The time left said at the first result after ``fraction`` of the work: its ``ratio`` to the truth (NaN when
    none was said), said ``at`` that fraction of the run's time, with ``done`` of the work finished."""

    fraction: float
    ratio: float
    at: float
    done: float


def judge(events: list[dict[str, float]], fraction: float) -> Judged:
    """The time left said at the first result after ``fraction`` of the work had finished, against the truth."""
    end, total = events[-1]["t"], events[-1]["done"]
    for event in events[:-1]:
        if event["done"] >= fraction * total:
            truth = end - event["t"]
            return Judged(fraction, event["left"] / truth, event["t"] / end, event["done"] / total)
    return Judged(fraction, math.nan, 1.0, 1.0)


def run_once(
    command: tuple[str, ...], reporter: str, python: str, path: str | None
) -> tuple[list[dict[str, float]], float]:
    """Run ``knight COMMAND`` into a fresh store in a fresh process (knight from ``path`` when given); its
    reporter's records and the process's wall time."""
    environment = dict(os.environ, **({"PYTHONPATH": path} if path else {}))
    with tempfile.TemporaryDirectory(prefix="knight-time-left-") as scratch:
        out = Path(scratch) / "events.json"
        store = Path(scratch) / "store.sqlite"
        began = time.perf_counter()
        subprocess.run(
            [python, "-c", _CHILD, reporter, str(out), *command, "--store", str(store)],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=environment,
        )
        wall = time.perf_counter() - began
        return json.loads(out.read_text()), wall


@dataclass(frozen=True)
class Run:
    """One run of a command: its judged figures, the reporter's time to its last result, the process's time."""

    judged: list[Judged]
    seconds: float
    wall: float


def summary(runs: list[Run]) -> str:
    """The spread (and median) of the runs' figures, and of their times."""
    spread = []
    for index, fraction in enumerate(FRACTIONS):
        ratios = [run.judged[index].ratio for run in runs if not math.isnan(run.judged[index].ratio)]
        spread.append(
            f"{fraction:.0%} {min(ratios):.2f}-{max(ratios):.2f} ({statistics.median(ratios):.2f})"
            if ratios
            else f"{fraction:.0%} -"
        )
    seconds, walls = [run.seconds for run in runs], [run.wall for run in runs]
    return (
        f"time left / truth {', '.join(spread)}; run {min(seconds):.2f}-{max(seconds):.2f} s, process"
        f" {min(walls):.2f}-{max(walls):.2f} s (median {statistics.median(walls):.2f}; {len(runs)} runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--reporter", choices=("line", "bar"), default="line")
    parser.add_argument("--python", default=sys.executable, help="the Python that runs knight")
    parser.add_argument(
        "--version",
        action="append",
        metavar="NAME=DIR",
        help="a version of knight to time, from DIR (PYTHONPATH); repeat to alternate several (default: this one)",
    )
    parser.add_argument("command", nargs="*", help="one knight command to time instead of the default two")
    options = parser.parse_args()
    commands = [tuple(options.command)] if options.command else list(COMMANDS)
    if any("=" not in text for text in options.version or []):
        parser.error("--version takes NAME=DIR: a name for the version, and the folder of its copy of knight")
    versions = [tuple(text.split("=", 1)) for text in options.version or []] or [("this", "")]
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    results: dict[tuple[str, tuple[str, ...]], list[Run]] = {}
    for repeat in range(options.repeats):
        for command in commands:
            for name, path in versions:
                events, wall = run_once(command, options.reporter, options.python, path or None)
                if not events:  # nothing ran (theory ruled every tour out, or the store had it): nothing to judge
                    print(f"{name}: knight {' '.join(command)} #{repeat + 1}: no result, no time left to judge")
                    continue
                run = Run([judge(events, fraction) for fraction in FRACTIONS], events[-1]["t"], wall)
                results.setdefault((name, command), []).append(run)
                figures = ", ".join(
                    f"{j.fraction:.0%}: {j.ratio:.2f} ({j.done:.0%} done at {j.at:.0%} of the time)" for j in run.judged
                )
                said = f"run {run.seconds:.2f} s (process {wall:.2f} s); {figures}"
                print(f"{name}: knight {' '.join(command)} #{repeat + 1}: {said}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    for (name, command), runs in results.items():
        print(f"{name}: knight {' '.join(command)}: {summary(runs)}")


if __name__ == "__main__":
    main()
