"""Issue 17's table: what a user times, the whole `knight` process, median of several runs and peak memory.

    python benchmarks/whole_process.py [--runs 5] [--skip-slow]     (make bench runs it)

Each command runs as a fresh process (wall time by ``time.perf_counter`` around it, peak RSS from
``/usr/bin/time -v`` where that exists); stores that must be fresh are deleted before every run. The
census peer's column is fixed: Luschny's Hamiltonian_Paths_On_Knight_Graphs (C++, OpenMP, -O3
-march=native) as issue 17 measured it on this kind of machine. ``make report`` is timed warm: the
store and the PDFs already made (run ``make report`` once first; the script does so when the store is
missing). The machine's load average is printed before and after, since a shared machine skews them.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KNIGHT = str(Path(sys.executable).parent / "knight")
JOBS = ROOT / "benchmarks" / "jobs"
TIME = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)

BARE_TYPER_APP = '''
import typer
app = typer.Typer()

@app.command()
def one(n: int) -> None:
    """The first command."""

@app.command()
def two(name: str = "x") -> None:
    """The second command."""

app()
'''


@dataclass
class Row:
    what: str
    command: list[str]
    target: str
    check: str  # how the target is met: "<= x s", "< x s beyond <row>", "<= x s and < y MB"
    peer: str = ""
    fresh: Path | None = None  # a store deleted before each run
    cwd: Path = ROOT


def measure(row: Row, runs: int) -> tuple[float, float | None]:
    """(median seconds, peak MB) of ``runs`` runs of the row's command."""
    seconds, peaks = [], []
    for _ in range(runs):
        if row.fresh is not None:
            for path in row.fresh.parent.glob(row.fresh.name + "*"):
                path.unlink()
        command = [TIME, "-v", *row.command] if TIME else row.command
        began = time.perf_counter()
        done = subprocess.run(command, cwd=row.cwd, capture_output=True, text=True)
        seconds.append(time.perf_counter() - began)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(row.command)} failed ({done.returncode}): {done.stderr[-500:]}")
        peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
        if peak:
            peaks.append(int(peak.group(1)) / 1024)
    return statistics.median(seconds), (max(peaks) if peaks else None)


def _kernels() -> str:
    """How the commands measured run their kernels: compiled ahead of time (``make install``) or by numba's JIT."""
    code = "from knight.engine.kernel import ahead_of_time_module as a; m = a(); print(m.__file__ if m else '')"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip()
    return f"compiled ahead of time ({Path(found).name})" if found else "numba's JIT (run `python -m knight.aot`)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip-slow", action="store_true", help="leave out the open-tour census job (~20 s a run)")
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="knight-bench-"))
    bare = work / "bare.py"
    bare.write_text(BARE_TYPER_APP)
    # An installed wheel has its bytecode compiled by pip; an editable checkout (and PYTHONDONTWRITEBYTECODE)
    # would compile every module from source on every run, which is not what a user times.
    compileall.compile_dir(ROOT / "knight", quiet=1)
    if not (ROOT / "var" / "knight.sqlite").exists():
        subprocess.run(["make", "report"], cwd=ROOT, check=True, capture_output=True)
    rows = [
        Row("bare two-command Typer app, --help", [sys.executable, str(bare), "--help"], "", ""),
        Row("bare Typer app, running a command", [sys.executable, str(bare), "one", "5"], "", ""),
        Row("knight --help", [KNIGHT, "--help"], "≤ 1.25× the bare app", "ratio 1.25 bare"),
        Row("knight tour 8", [KNIGHT, "tour", "8"], "< 0.2 s", "< 0.2"),
        Row("knight tour 8 --json", [KNIGHT, "tour", "8", "--json"], "", ""),
        Row(
            "knight tour 1000 --tie roth --json",
            [KNIGHT, "tour", "1000", "--tie", "roth", "--json"],
            "< 1.0 s beyond tour 8 --json, < 150 MB",
            "beyond 1.0 json8 150",
        ),
        Row(
            "knight tour 2000 --tie roth --json",
            [KNIGHT, "tour", "2000", "--tie", "roth", "--json"],
            "< 3 s, < 500 MB",
            "< 3 500",
        ),
        Row(
            "knight census 6, fresh store",
            [KNIGHT, "census", "6", "--store", str(work / "c6.sqlite")],
            "≤ 1.25 s",
            "<= 1.25",
            "1.26 s",
            fresh=work / "c6.sqlite",
        ),
        Row(
            "closed tours, every k×n, 3 ≤ k ≤ n ≤ 12, kn ≤ 40",
            [KNIGHT, "run", str(JOBS / "rectangles-closed.toml"), "--store", str(work / "rc.sqlite")],
            "≤ 0.73 s",
            "<= 0.73",
            "0.73 s",
            fresh=work / "rc.sqlite",
        ),
    ]
    if not options.skip_slow:
        rows.append(
            Row(
                "open tours, the same boards",
                [KNIGHT, "run", str(JOBS / "rectangles-open.toml"), "--store", str(work / "ro.sqlite")],
                "≤ 20 s",
                "<= 20",
                "40.6 s",
                fresh=work / "ro.sqlite",
            )
        )
    rows += [
        Row("knight results, the default store", [KNIGHT, "results"], "< 0.5 s", "< 0.5"),
        Row("make report, warm store", ["make", "report"], "< 4 s", "< 4"),
    ]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; runs per command: {options.runs}")
    print(f"kernels: {_kernels()}")
    measured: dict[str, tuple[float, float | None]] = {}
    print("| command | median (s) | peak (MB) | target | census peer | met |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        median, peak = measure(row, options.runs)
        measured[row.what] = (median, peak)
        met = _met(row, median, peak, measured)
        peak_text = f"{peak:.0f}" if peak is not None else "–"
        print(f"| `{row.what}` | {median:.3f} | {peak_text} | {row.target} | {row.peer} | {met} |", flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    shutil.rmtree(work, ignore_errors=True)


def _met(row: Row, median: float, peak: float | None, measured: dict[str, tuple[float, float | None]]) -> str:
    words = row.check.split()
    if not words:
        return ""
    if words[0] == "ratio":
        base = measured["bare two-command Typer app, --help"][0]
        return f"{median / base:.2f}× {'yes' if median <= float(words[1]) * base else 'no'}"
    if words[0] == "beyond":
        beyond = median - measured["knight tour 8 --json"][0]
        ok = beyond < float(words[1]) and (peak is None or peak < float(words[3]))
        return f"{beyond:.2f} s beyond; {'yes' if ok else 'no'}"
    limit = float(words[1])
    ok = median <= limit if words[0] == "<=" else median < limit
    if len(words) > 2 and peak is not None:
        ok = ok and peak < float(words[2])
    return "yes" if ok else "no"


if __name__ == "__main__":
    main()
