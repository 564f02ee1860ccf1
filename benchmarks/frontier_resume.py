"""Issue 40, item 4: a frontier count killed at three moments goes on from its last checkpointed row each time and
gives the count a clean run gives, and `knight verify` finds the store sound.

    python benchmarks/frontier_resume.py [--board 6x7] [--closed]

A clean count first (its time), then the same count into another store, checkpointing after every row
(``KNIGHT_CHECKPOINT_SECONDS=0``), SIGKILLed (the runner and its worker) once the checkpoint after each of the
last three rows but one is on disk; then run to its end. Prints a line per kill (the row the checkpoint is after,
the seconds the run had taken) and the counts and times, then exits 1 if the counts differ or the store is not
sound.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from knight.tasks.checkpoint import CHECKPOINTS_SUFFIX, SECONDS_VARIABLE


def census(board: str, closed: bool, store: Path) -> list[str]:
    n, m = board.split("x")
    return [sys.executable, "-m", "knight", "census", n, m, "--method", "frontier", "--store", str(store), "--json"] + (
        ["--closed"] if closed else []
    )


def checkpoint_square(folder: Path) -> int:
    """The last square the checkpoint on disk is after (-1: none yet)."""
    for path in folder.glob("*.npz"):
        try:
            with np.load(path, allow_pickle=False) as saved:
                return int(json.loads(str(saved["about"]))["square"])
        except (OSError, ValueError, KeyError):
            continue
    return -1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="6x7")
    parser.add_argument("--closed", action="store_true")
    args = parser.parse_args()
    n, m = map(int, args.board.split("x"))
    width, length = min(n, m), max(n, m)
    moments = [width * row - 1 for row in range(length - 3, length)]  # after each of the last rows but one
    with tempfile.TemporaryDirectory() as tmp:
        began = time.perf_counter()
        clean = json.loads(
            subprocess.run(
                census(args.board, args.closed, Path(tmp) / "clean.sqlite"), check=True, capture_output=True, text=True
            ).stdout
        )
        clean_seconds = time.perf_counter() - began
        store = Path(tmp) / "killed.sqlite"
        folder = Path(f"{store}{CHECKPOINTS_SUFFIX}")
        env = {**os.environ, SECONDS_VARIABLE: "0"}
        spent = 0.0
        for moment in moments:
            began = time.perf_counter()
            run = subprocess.Popen(
                census(args.board, args.closed, store),
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            while checkpoint_square(folder) < moment and run.poll() is None:
                time.sleep(0.01)
            if run.poll() is not None:
                print(f"the count ended before the checkpoint after square {moment}")
                return 1
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
            spent += time.perf_counter() - began
            print(
                f"killed after the checkpoint after square {checkpoint_square(folder)} "
                f"(row {checkpoint_square(folder) // width + 1} of {length}), {time.perf_counter() - began:.1f} s in"
            )
        began = time.perf_counter()
        last = subprocess.run(census(args.board, args.closed, store), env=env, capture_output=True, text=True)
        spent += time.perf_counter() - began
        resumed = json.loads(last.stdout)
        verify = subprocess.run([sys.executable, "-m", "knight", "verify", "--store", str(store)], capture_output=True)
        key = "cycles" if args.closed else "total"
        print(f"clean count:   {clean[key]:,} in {clean_seconds:.1f} s")
        print(
            f"killed thrice: {resumed[key]:,}; the four runs {spent:.1f} s in all; the last "
            f"{time.perf_counter() - began:.1f} s; checkpoints left: {len(list(folder.glob('*.npz')))}"
        )
        print(f"knight verify: exit status {verify.returncode}")
        return 0 if resumed[key] == clean[key] and verify.returncode == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
