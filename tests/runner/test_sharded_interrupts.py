"""A sharded `knight census --method frontier` stopped (issue 40, review items 1-2): SIGKILLed after a row, the
same command goes on from its last square and leaves no folder; Ctrl-C is one line and exit 130; a killed runner
leaves no worker behind."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

from runner_helpers import knight, start_knight

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
    again = knight([*ARGS, "--store", str(store), "--json", "-v"], store)
    assert again.returncode == 0, again.stderr
    assert "going on from square" in again.stderr
    assert json.loads(again.stdout)["cycles"] == 9862
    assert knight(["verify", "--store", str(store)], store).returncode == 0
    assert not folder.exists()
