"""Issue 40, items 1 and 2: the frontier count with its states sharded, on the local pool and on a Dask cluster.

    .venv/bin/python benchmarks/frontier_shards.py local [--board 7x7] [--closed] [--runs 1:1,2:8] [--folder DIR]
    .venv/bin/python benchmarks/frontier_shards.py dask [--boards 6x7,7x8c] [--workers 3] [--shards 12]
                                                        [--kill-after SECONDS] [--folder DIR]

``local``: each run ``PROCESSES:SHARDS`` counts the board in a child process
(:func:`knight.runner.frontier_shards.sharded_frontier_count`; ``1:1`` is the one-process count of today,
:func:`knight.engine.frontier.frontier_count`), while this process samples the resident memory of the child and
every process it started, summed, four times a second. Prints each run's wall time, CPU time, peak total RSS, the
time per row, and the speed-up over the first run.

``dask``: starts a scheduler (``dask scheduler``) and ``--workers`` workers (``dask worker ADDRESS --nworkers 1
--nthreads 1``) as a user would, each a subprocess; for each board counts it once in one process (its peak RSS,
sampled) and once sharded on the cluster, sampling each worker process's RSS; in the last board's count, SIGKILLs one
worker process ``--kill-after`` seconds in (its nanny starts another). Checks each count against the one-process
count and each worker's peak against 45 % of the one-process peak. Exits 1 when a count differs or a worker passed
its share. Every process started is stopped at the end, on failure too.

Measured here: see docs/census.md, "Sharded counts".
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

#: Counts known (directed open tours; closed tours as cycles), to check every count against.
KNOWN = {
    ("7x7", False): 165_575_218_320,
    ("6x7", False): 779_938_932,
    ("7x8", True): 34_524_432_316,
    ("6x6", False): 6_637_920,
    ("5x5", False): 1728,
}
#: A worker's peak may be at most this share of the one-process count's peak (issue 40, item 2).
WORKER_SHARE = 0.45

CHILD = """
import json, sys, time, os
from knight.engine.board import Board
from knight.runner.frontier_shards import sharded_frontier_count
n, m, closed, processes, shards, folder, scheduler = json.loads(sys.argv[1])
began, cpu = time.perf_counter(), time.process_time()
count = sharded_frontier_count(
    Board(n, m), closed=closed, shards=shards, processes=processes, scheduler=scheduler, folder=folder,
    max_states=400_000_000,
)
children = os.times()
print(json.dumps({
    "tours": count.tours, "peak_states": count.peak_states, "states": count.states, "shards": count.shards,
    "row_seconds": count.row_seconds, "seconds": time.perf_counter() - began,
    "cpu": children.user + children.system + children.children_user + children.children_system,
    "peak_shard_states": count.peak_shard_states,
}))
"""


@dataclass
class Sampler:
    """Samples, four times a second on a thread, the RSS of some processes: ``total`` the peak of their sum,
    ``each`` each one's peak (by pid)."""

    pids: callable  # type: ignore[valid-type]  # () -> list of pids
    total: int = 0
    each: dict[int, int] = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self) -> None:
        while not self.stop.wait(0.25):
            summed = 0
            for pid in self.pids():
                try:
                    rss = psutil.Process(pid).memory_info().rss
                except psutil.Error:
                    continue
                summed += rss
                self.each[pid] = max(self.each.get(pid, 0), rss)
            self.total = max(self.total, summed)

    def finish(self) -> None:
        self.stop.set()
        self.thread.join()


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    try:
        process = psutil.Process(pid)
        return [pid, *(child.pid for child in process.children(recursive=True))]
    except psutil.Error:
        return []


def count_in_child(
    board: str, closed: bool, processes: int | None, shards: int, folder: str, scheduler: str | None = None
) -> tuple[dict[str, object], Sampler]:
    """The count in a child process, its result and the sampler of its processes' memory."""
    n, m = map(int, board.split("x"))
    arguments = json.dumps([n, m, closed, processes, shards, folder, scheduler])
    child = subprocess.Popen([sys.executable, "-c", CHILD, arguments], stdout=subprocess.PIPE, text=True)
    sampler = Sampler(lambda: tree(child.pid))
    try:
        out, _ = child.communicate()
    finally:
        sampler.finish()
        if child.poll() is None:
            child.kill()
    if child.returncode:
        raise SystemExit(f"the count of {board} failed (exit {child.returncode})")
    return json.loads(out.strip().splitlines()[-1]), sampler


def local(args: argparse.Namespace) -> int:
    closed = args.closed
    known = KNOWN.get((args.board, closed))
    first = None
    failed = False
    for run in args.runs.split(","):
        processes, shards = map(int, run.split(":"))
        result, sampler = count_in_child(args.board, closed, processes, shards, args.folder)
        seconds = float(result["seconds"])  # type: ignore[arg-type]
        first = first or seconds
        right = known is None or result["tours"] == known
        failed |= not right
        rows = ", ".join(f"{s:.1f}" for s in result["row_seconds"])  # type: ignore[attr-defined]
        print(
            f"{args.board} {'closed' if closed else 'open'} {processes} process(es), {shards} shard(s): "
            f"{result['tours']:,} tours ({'right' if right else 'WRONG'}), {seconds:.1f} s wall, "
            f"{result['cpu']:.1f} s CPU, peak RSS of all processes {sampler.total / 1e9:.2f} GB, "
            f"peak states {result['peak_states']:,} (one shard {result['peak_shard_states']:,}), "
            f"speed-up {first / seconds:.2f}; rows (s): {rows}",
            flush=True,
        )
    return int(failed)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def dask(args: argparse.Namespace) -> int:
    bin_folder = Path(sys.executable).parent
    address = f"tcp://127.0.0.1:{free_port()}"
    started: list[subprocess.Popen[bytes]] = []
    failed = False
    logs = tempfile.TemporaryDirectory()
    try:
        port = address.rsplit(":", 1)[1]
        started.append(
            subprocess.Popen(
                [str(bin_folder / "dask"), "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"],
                stdout=subprocess.DEVNULL,
                stderr=open(Path(logs.name) / "scheduler.log", "wb"),  # noqa: SIM115 - closed with the process
            )
        )
        for number in range(args.workers):
            started.append(
                subprocess.Popen(
                    [
                        str(bin_folder / "dask"),
                        "worker",
                        address,
                        "--nworkers",
                        "1",
                        "--nthreads",
                        "1",
                        "--no-dashboard",
                        "--memory-limit",
                        "0",
                        "--name",
                        f"w{number}",
                    ],  # fmt: skip
                    stdout=subprocess.DEVNULL,
                    stderr=open(Path(logs.name) / f"worker{number}.log", "wb"),  # noqa: SIM115
                )
            )
        wait_for_workers(address, args.workers)
        boards = args.boards.split(",")
        for index, spec in enumerate(boards):
            closed = spec.endswith("c")
            board = spec.rstrip("c")
            alone, alone_memory = count_in_child(board, closed, 1, 1, args.folder)
            one_peak = alone_memory.total
            workers = worker_pids(started[1:])
            sampler = Sampler(lambda: worker_pids(started[1:]))
            killer = None
            if index == len(boards) - 1 and args.kill_after > 0:
                killer = threading.Timer(args.kill_after, kill_one_worker, (started[1:], sampler))
                killer.start()
            try:
                result, _ = count_in_child(board, closed, None, args.shards, args.folder, address)
            finally:
                sampler.finish()
                if killer is not None:
                    killer.cancel()
            right = result["tours"] == alone["tours"] == KNOWN.get((board, closed), alone["tours"])
            peaks = [sampler.each.get(pid, 0) for pid in sorted(sampler.each)]
            within = all(peak <= WORKER_SHARE * one_peak for peak in peaks)
            failed |= not (right and within)
            print(
                f"{board} {'closed' if closed else 'open'}: one process {alone['tours']:,} in {alone['seconds']:.1f} s, "
                f"peak RSS {one_peak / 1e6:.0f} MB; on {args.workers} Dask workers, {result['shards']} shards: "
                f"{result['tours']:,} ({'right' if right else 'WRONG'}) in {result['seconds']:.1f} s; worker peaks "
                f"{', '.join(f'{peak / 1e6:.0f}' for peak in peaks)} MB ({'all' if within else 'NOT all'} within "
                f"{WORKER_SHARE:.0%} = {WORKER_SHARE * one_peak / 1e6:.0f} MB); workers at the start {workers}"
                + (f"; killed {killer.args[1].killed}" if killer is not None else ""),  # type: ignore[attr-defined]
                flush=True,
            )
    finally:
        for process in reversed(started):
            for pid in reversed(tree(process.pid)):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                for pid in reversed(tree(process.pid)):
                    os.kill(pid, signal.SIGKILL)
        logs.cleanup()
    return int(failed)


def worker_pids(workers: list[subprocess.Popen[bytes]]) -> list[int]:
    """The worker processes (the nannies' children) of the ``dask worker`` commands started."""
    pids = []
    for process in workers:
        pids.extend(tree(process.pid)[2:])  # the command is the nanny's process; its child the worker
    return pids


def kill_one_worker(workers: list[subprocess.Popen[bytes]], sampler: Sampler) -> None:
    pids = worker_pids(workers)
    if pids:
        os.kill(pids[0], signal.SIGKILL)
        sampler.killed = f"worker process {pids[0]} (SIGKILL) at {time.strftime('%H:%M:%S')}"  # type: ignore[attr-defined]
        print(f"  killed worker process {pids[0]}", flush=True)


def wait_for_workers(address: str, workers: int) -> None:
    from distributed import Client

    with Client(address, timeout="30s") as client:
        client.wait_for_workers(workers, timeout=60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("local")
    one.add_argument("--board", default="7x7")
    one.add_argument("--closed", action="store_true")
    one.add_argument("--runs", default="1:1,2:8", help="PROCESSES:SHARDS, comma-separated")
    one.add_argument("--folder", default=tempfile.gettempdir())
    two = sub.add_parser("dask")
    two.add_argument("--boards", default="6x7,7x8c", help="BOARD or BOARDc (closed), comma-separated")
    two.add_argument("--workers", type=int, default=3)
    two.add_argument("--shards", type=int, default=12)
    two.add_argument("--kill-after", type=float, default=30.0)
    two.add_argument("--folder", default=tempfile.gettempdir())
    args = parser.parse_args()
    return local(args) if args.what == "local" else dask(args)


if __name__ == "__main__":
    sys.exit(main())
