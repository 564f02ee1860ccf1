"""Time the frontier method (knight.engine.frontier) on every board of 9 to LIMIT squares, open and closed;
or follow one board's states row by row (what the growth per row projects for larger boards).

    nice -n 10 .venv/bin/python benchmarks/frontier_counts.py [LIMIT]             (default 40)
    nice -n 10 .venv/bin/python benchmarks/frontier_counts.py N M open|closed     (one board, by row)

Prints board, kind, count, peak states, wall and CPU seconds and the process's largest resident memory so far,
one line each (compiled; the first line
pays the JIT); for one board, first the states after each row of the sweep and their growth over the row.
"""

from __future__ import annotations

import resource
import sys
import time

from knight.engine.board import Board
from knight.engine.frontier import frontier_count


def count(n: int, m: int, closed: bool, by_row: bool = False) -> None:
    """Count one board and print its line (and, ``by_row``, the states after each row of the sweep)."""
    width = min(n, m)
    began, cpu = time.perf_counter(), time.process_time()
    last = [1]

    def row(square: int, states: int) -> None:
        if by_row and square % width == width - 1:
            growth = states / last[0] if last[0] else 0.0
            print(
                f"  row {square // width + 1:2}: {states:>13,} states  x{growth:6.2f}  {time.process_time() - cpu:8.1f} s CPU"
            )
            last[0] = states

    result = frontier_count(Board(n, m), closed=closed, compiled=True, progress=row)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    kind = "closed" if closed else "open"
    memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # the process's most, so far
    print(
        f"{n}x{m} {kind:6} {result.tours:>16,} peak {result.peak_states:>12,} {seconds:8.2f} s {cpu:8.2f} s CPU"
        f" {memory:6.2f} GB",
        flush=True,
    )


def main(limit: int = 40) -> None:
    for n in range(3, 8):
        for m in range(n, limit // n + 1):
            for closed in (False, True):
                count(n, m, closed)


if __name__ == "__main__":
    if len(sys.argv) == 4:
        count(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "closed", by_row=True)
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
