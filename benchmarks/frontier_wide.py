"""Issue 40, item 3: a frontier count with two-word states (knight.engine.frontier_wide_kernel), followed row by row
under a time limit: how far 8 x 8 closed gets, and what its growth per row projects (docs/census.md, "8 x 8
closed: the projection and the runbook").

    nice -n 10 .venv/bin/python benchmarks/frontier_wide.py [BOARD] [--closed] [--limit SECONDS]
                                                            [--words 1|2] [--max-states N] [--squares]

BOARD is ``8x8`` by default; the limit 600 s. The count runs in a child process, killed when the limit passes (a
step of 10^8 states takes minutes: the count cannot stop itself between squares in time). Prints, per row of the
sweep (a row is the board's shorter side, in squares): the squares swept, the states then held, the seconds since
the count began and the row's own, the CPU seconds since it began, and the bytes a state: the process's largest
resident memory so far, less its memory before the count, over the most states held so far (``--squares``: a line
per square as well). Then the count, or where the limit (or the state cap) stopped it, and the child's peak
resident memory. ``--words 1`` uses one-word states (a shorter side of at most 7; two by default, even where one
would do): the two compared on one board.

Measured here (2 cores, 24 GiB, shared with another engineer's test runs; :data:`MEASURED`), 8 x 8 closed, two
words, ``--max-states 150000000`` (the memory this machine could spare): rows 1-4 in 11 s (3,969,876 states after
row 4); row 5's first five squares took 162 s more, to 115,436,893 states; its sixth passed the cap of 1.5·10^8
states 284 s in, the process at 7.9 GB (the states 24 bytes each, the next square's table 24-byte slots filled to
three quarters at most: 57-92 bytes a state of the process's memory as the states grew). 0.6-0.7 µs of CPU a state
stored on the squares of 10^7 to 10^8 states. 6 x 7 open on the same machine: 46.3 s (40.8 s CPU), 0.63 GB with one
word; 46.7 s (44.8 s CPU), 0.92 GB with two; 10,893,163 states at the peak either way.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

#: 8 x 8 closed, two-word states, as measured here (see the module's docstring): squares swept, states held, seconds
#: since the count began (wall; the CPU's were within 5 %): the end of each row, then each square of row 5 up to the
#: cap (square 38 held more than 1.5·10^8). The projection in docs/census.md is made from these.
MEASURED: list[tuple[int, int, float]] = [
    (8, 1, 0.0),
    (16, 528, 0.0),
    (24, 124_411, 0.2),
    (32, 3_969_876, 11.3),
    (33, 9_820_739, 15.5),
    (34, 15_400_569, 23.0),
    (35, 36_992_692, 46.3),
    (36, 70_046_709, 93.3),
    (37, 115_436_893, 172.9),
]


def child(board: str, closed: bool, words: int, max_states: int, squares: bool) -> None:
    """Count ``board``, printing a line per row (and per square, ``squares``) as it goes."""
    from knight.engine.board import Board
    from knight.engine.frontier import TooManyStates, frontier_count

    n, m = map(int, board.split("x"))
    width = min(n, m)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    began, cpu = time.perf_counter(), time.process_time()
    last = [began]
    most = [1]

    def swept(square: int, states: int) -> None:
        now = time.perf_counter()
        most[0] = max(most[0], states)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        end_of_row = square % width == width - 1
        if squares or end_of_row:
            label = f"row {square // width + 1:2}" if end_of_row else "      "
            print(
                f"{label} {square + 1:3} squares {states:>14,} states {now - began:9.1f} s "
                f"{now - last[0]:8.1f} s {time.process_time() - cpu:9.1f} s CPU "
                f"{max(rss - base, 0) / most[0]:6.0f} B/state "
                f"{rss / 2**30:6.2f} GB",
                flush=True,
            )
        if end_of_row:
            last[0] = now

    try:
        result = frontier_count(
            Board(n, m), closed=closed, compiled=True, wide=words == 2, max_states=max_states, progress=swept
        )
    except TooManyStates:
        print(f"stopped at the state cap ({max_states:,}) {time.perf_counter() - began:.1f} s in", flush=True)
        return
    print(
        f"{board} {'closed' if closed else 'open'}: {result.tours:,} tours, peak {result.peak_states:,} states, "
        f"{result.states:,} in all, {time.perf_counter() - began:.1f} s",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="8x8")
    parser.add_argument("--closed", action="store_true")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds before the count is killed")
    parser.add_argument("--words", type=int, choices=(1, 2), default=2, help="words a state (1: shorter side <= 7)")
    parser.add_argument("--max-states", type=int, default=200_000_000)
    parser.add_argument("--squares", action="store_true", help="a line per square, not only per row")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.board, args.closed, args.words, args.max_states, args.squares)
        return 0
    command = [sys.executable, __file__, args.board, "--child", "--max-states", str(args.max_states)]
    command += ["--closed"] * args.closed + ["--words", str(args.words)] + ["--squares"] * args.squares
    print(
        f"{args.board} {'closed' if args.closed else 'open'}, {'one' if args.words == 1 else 'two'}-word states "
        f"({8 * args.words + 8} bytes a state in the states array), at most {args.limit:.0f} s",
        flush=True,
    )
    began = time.monotonic()
    run = subprocess.Popen(command)
    pid, status, usage = os.wait4(run.pid, os.WNOHANG)  # not Popen.poll: wait4 gives the child's peak memory
    while pid == 0 and time.monotonic() - began < args.limit:
        time.sleep(0.2)
        pid, status, usage = os.wait4(run.pid, os.WNOHANG)
    stopped = pid == 0
    if stopped:
        run.kill()
        _, status, usage = os.wait4(run.pid, 0)
    run.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
    print(
        f"{'killed at the limit' if stopped else 'done'} after {time.monotonic() - began:.1f} s; "
        f"peak resident memory {usage.ru_maxrss / 2**20:.2f} GB",
        flush=True,
    )
    return 0 if stopped or run.returncode == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
