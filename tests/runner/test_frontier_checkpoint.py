"""A long frontier count survives its process (issue 40, item 4): after a row it keeps where it stands beside the
store, a count run again goes on from there and gives the same count, and the checkpoint goes once the count is
stored. The kill at three moments of a 6 x 7 count, as a user would see it, is benchmarks/frontier_resume.py."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import knight.engine.frontier as frontier_module
from knight.engine import Board
from knight.engine.frontier import frontier_count
from knight.tasks import FrontierParams, kind_of
from knight.tasks.checkpoint import CHECKPOINTS_SUFFIX, SECONDS_VARIABLE, Checkpoints


class Killed(Exception):
    """Stands for the process's death after a checkpoint was written."""


@pytest.fixture
def every_row(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SECONDS_VARIABLE, "0")


def test_a_count_stopped_after_a_row_goes_on_from_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, every_row: None
) -> None:
    task = FrontierParams(False).task(5, 6)
    task = type(task)(task.method, task.params, task.n, task.m, task.start, checkpoints=str(tmp_path))
    kind = kind_of(task.method)
    keep = Checkpoints.keep
    rows: list[int] = []

    def keep_then_die(self: Checkpoints, at: frontier_module.FrontierProgress) -> None:
        keep(self, at)
        rows.append(at.square)
        if len(rows) == 3:  # the third row's checkpoint written: the process dies
            raise Killed

    monkeypatch.setattr(Checkpoints, "keep", keep_then_die)
    with pytest.raises(Killed):
        kind.run(task)
    monkeypatch.setattr(Checkpoints, "keep", keep)
    saved = tmp_path / f"{task.key}.npz"
    assert saved.is_file()

    resumed_from: list[int | None] = []
    count = frontier_module.frontier_count

    def spy(*args: object, **kwargs: object) -> frontier_module.FrontierCount:
        resume = kwargs.get("resume")
        resumed_from.append(None if resume is None else resume.square)  # type: ignore[attr-defined]
        return count(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(frontier_module, "frontier_count", spy)
    again = kind.run(task)
    assert resumed_from == [rows[-1]]  # from the last row kept, not from the start
    assert again.tours == frontier_count(Board(5, 6)).tours
    Checkpoints(task).done()
    assert not saved.exists()


def test_a_checkpoint_of_another_count_or_damaged_is_not_read(tmp_path: Path, every_row: None) -> None:
    mine, other = (FrontierParams(closed).task(5, 6) for closed in (False, True))
    mine = type(mine)(mine.method, mine.params, mine.n, mine.m, mine.start, checkpoints=str(tmp_path))
    other = type(other)(other.method, other.params, other.n, other.m, other.start, checkpoints=str(tmp_path))
    Checkpoints(other).keep(frontier_module.FrontierProgress(5, np.zeros(2, dtype=np.int64), 0, 1, 1, 1.0))
    (tmp_path / f"{other.key}.npz").rename(tmp_path / f"{mine.key}.npz")  # another count's, under this one's name
    assert Checkpoints(mine).last() is None
    (tmp_path / f"{mine.key}.npz").write_bytes(b"not a checkpoint")
    assert Checkpoints(mine).last() is None
    for square, states in ((999, np.zeros(2, dtype=np.int64)), (6, np.zeros(2, dtype=np.int64)), (5, np.zeros(3))):
        Checkpoints(mine).keep(frontier_module.FrontierProgress(square, states, 0, 1, 1, 1.0))
        assert Checkpoints(mine).last() is None  # past the board, not a row's end, not 64-bit words
    assert kind_of(mine.method).run(mine).tours == frontier_count(Board(5, 6)).tours


def test_a_run_killed_mid_count_is_resumed_and_its_checkpoint_goes(tmp_path: Path) -> None:
    """`knight census 6 6 --method frontier`, SIGKILLed once a checkpoint is written, then run again: the right
    count, stored, the store sound, no checkpoint left."""
    store = tmp_path / "s.sqlite"
    folder = Path(f"{store}{CHECKPOINTS_SUFFIX}")
    command = [sys.executable, "-m", "knight", "census", "6", "6", "--method", "frontier", "--store", str(store)]
    env = {**os.environ, SECONDS_VARIABLE: "0"}
    first = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while not any(folder.glob("*.npz")) and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert first.poll() is None, "the count ended before its first checkpoint"
    os.killpg(first.pid, signal.SIGKILL)  # the runner and its worker
    assert first.wait() == -signal.SIGKILL
    again = subprocess.run([*command, "--json"], env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["total"] == frontier_count(Board(6, 6)).tours
    assert not folder.exists()  # the checkpoint gone, and its folder with it
    verified = subprocess.run([sys.executable, "-m", "knight", "verify", "--store", str(store)], capture_output=True)
    assert verified.returncode == 0


def test_a_checkpoint_that_cannot_be_written_leaves_the_count_to_go_on(tmp_path: Path, every_row: None) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    task = FrontierParams(False).task(5, 6)
    task = type(task)(task.method, task.params, task.n, task.m, task.start, checkpoints=str(blocked / "checkpoints"))
    assert kind_of(task.method).run(task).tours == frontier_count(Board(5, 6)).tours
    Checkpoints(task).done()  # nothing there: nothing to remove, no error
