"""Time the frontier method (knight.engine.frontier) on every board of 9 to LIMIT squares, open and closed.

    nice -n 10 .venv/bin/python benchmarks/frontier_counts.py [LIMIT]      (default 40)

Prints board, kind, count, peak states and seconds, one line each (compiled; the first line pays the JIT).
"""

from __future__ import annotations

import sys
import time

from knight.engine.board import Board
from knight.engine.frontier import frontier_count


def main(limit: int = 40) -> None:
    for n in range(3, 8):
        for m in range(n, limit // n + 1):
            for closed in (False, True):
                began = time.perf_counter()
                result = frontier_count(Board(n, m), closed=closed, compiled=True)
                seconds = time.perf_counter() - began
                kind = "closed" if closed else "open"
                print(
                    f"{n}x{m} {kind:6} {result.tours:>16,} peak {result.peak_states:>12,} {seconds:8.2f} s", flush=True
                )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
