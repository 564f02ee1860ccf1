"""A sharded `knight census --method frontier` stopped (issue 40, review items 1-2): SIGKILLed after a row, the
same command goes on from its last square and leaves no folder; Ctrl-C is one line and exit 130; a killed runner
leaves no worker behind."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path

import psutil
from runner_helpers import knight, start_knight, wait_until_knight_catches_signals

from knight.runner.frontier_shards import MARKER_NAME

ARGS = ["census", "6", "--closed", "--method", "frontier", "--shards", "3", "--workers", "2"]


def _wait_for_marker(folder: Path, process, square: int, timeout: float = 60) -> None:
    """Wait until a sharded count's marker in ``folder`` says ``square`` or later is done."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        for marker in folder.glob(f"*-shards/{MARKER_NAME}"):
            try:
                if json.loads(marker.read_text())["square"] >= square:
                    return
            except (OSError, ValueError, KeyError):
                pass
        time.sleep(0.01)
    raise AssertionError(f"no marker of square {square} while the count ran")


def test_a_sharded_census_killed_after_a_row_goes_on_from_it(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    folder = Path(f"{store}-checkpoints")
    first = start_knight([*ARGS, "--store", str(store)], store, faults="delay:0.05")  # slow enough to stop
    _wait_for_marker(folder, first, 5)  # the first row's end
    os.killpg(first.pid, signal.SIGKILL)  # the runner and its workers
    first.communicate()
    (marker,) = folder.glob(f"*-shards/{MARKER_NAME}")
    before = sum(json.loads(marker.read_text())["row_seconds"])  # the rows the first run swept
    swept = tmp_path / "square-2-swept"  # made by a fault on square 2 (shard 0), should the rerun sweep it again
    again = knight([*ARGS, "--store", str(store), "--json"], store, faults=f"kill:6x6:2,0:{swept}")
    assert again.returncode == 0, again.stderr
    counted = json.loads(again.stdout)
    assert counted["cycles"] == 9862 and not swept.exists()  # went on from the first run's rows, not from square 0
    assert counted["seconds"] >= round(before, 4) > 0  # the count's time is theirs and the rest
    assert knight(["verify", "--store", str(store)], store).returncode == 0
    assert not folder.exists()


def _started(store: Path, faults: str = "delay:0.05"):
    """A sharded census under way: its runner catches signals and has done the first row."""
    process = start_knight([*ARGS, "--store", str(store)], store, faults=faults)
    wait_until_knight_catches_signals(process)
    _wait_for_marker(Path(f"{store}-checkpoints"), process, 5)
    return process


def test_a_killed_sharded_census_counted_again_in_one_process_leaves_no_folder(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    folder = Path(f"{store}-checkpoints")
    first = start_knight([*ARGS, "--store", str(store)], store, faults="delay:0.05")
    _wait_for_marker(folder, first, 5)
    os.killpg(first.pid, signal.SIGKILL)
    first.communicate()
    one = [*ARGS[: ARGS.index("--shards")], "--shards", "1"]
    again = knight([*one, "--store", str(store), "--json"], store)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["cycles"] == 9862 and json.loads(again.stdout)["shards"] == 1
    assert not folder.exists()  # the killed count's parts went once the count was stored


def test_ctrl_c_of_a_sharded_census_is_one_line_and_exit_130(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    process = _started(store)
    workers = _workers(process)
    assert all(_ignores_ctrl_c(worker.pid) for worker in workers)  # the parent stops them: no traceback of theirs
    os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C in a terminal: the runner and its workers
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and err.count("\n") == 1, err
    assert len(workers) == 2 and psutil.wait_procs(workers, timeout=10)[1] == []


def test_a_killed_runner_of_a_sharded_census_leaves_no_worker(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    process = _started(store, faults="delay:0.2")
    workers = _workers(process)
    try:
        process.send_signal(signal.SIGKILL)  # the runner alone: its workers must end by themselves
        process.communicate(timeout=30)
        _, left = psutil.wait_procs(workers, timeout=10)
    finally:
        for worker in workers:  # none should be left; a failed test leaves none either
            with contextlib.suppress(psutil.Error):
                worker.kill()
    assert len(workers) == 2 and left == []


def _workers(process) -> list[psutil.Process]:
    """The runner's pool workers (not multiprocessing's resource tracker)."""
    children = psutil.Process(process.pid).children()
    return [child for child in children if "resource_tracker" not in " ".join(child.cmdline())]


def _ignores_ctrl_c(pid: int) -> bool:
    """Whether process ``pid`` ignores SIGINT (Linux, where /proc says; elsewhere taken as yes)."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        return True
    ignored = next((line.split()[1] for line in status.read_text().splitlines() if line.startswith("SigIgn:")), "0")
    return bool(int(ignored, 16) & (1 << (signal.SIGINT - 1)))
