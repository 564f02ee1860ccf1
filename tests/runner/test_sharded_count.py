"""The sharded frontier count's runner (knight.runner.frontier_shards, issue 40 items 1-2): the local pool, this
process and a Dask cluster give the one-process count; a worker killed mid-square costs its task, run again; bad
input stops in one line that says what to do."""

from __future__ import annotations

import json
import os
import socket
import time

import pytest
from distributed import LocalCluster

from knight.engine.board import Board
from knight.engine.frontier import frontier_count
from knight.errors import InvalidInput
from knight.runner.faults import ENVIRONMENT_VARIABLE
from knight.runner.frontier_shards import (
    MARKER_NAME,
    SHARDS_PER_PROCESS,
    RowDone,
    ShardJob,
    default_shards,
    shard_task,
    sharded_frontier_count,
)
from knight.runner.pool import HUNG_VARIABLE


def test_the_local_pool_counts_what_one_process_counts(tmp_path):
    rows: list[RowDone] = []
    count = sharded_frontier_count(Board(6, 6), closed=True, shards=4, processes=2, folder=tmp_path, on_row=rows.append)
    one = frontier_count(Board(6, 6), closed=True)
    assert (count.tours, count.peak_states, count.states) == (9862, one.peak_states, one.states)
    assert (count.shards, count.processes) == (4, 2)
    assert len(count.row_seconds) == 6 == len(rows) and [row.row for row in rows] == list(range(6))
    assert 0 < count.peak_shard_states < one.peak_states and count.peak_bytes > 0
    assert list(tmp_path.iterdir()) == []  # the run's parts are gone


@pytest.mark.parametrize(("shards", "removed"), [(1, ()), (2, ((0, 0),)), (5, ())])
def test_shards_run_in_this_process_one_after_another(tmp_path, shards, removed):
    count = sharded_frontier_count(Board(5, 5), shards=shards, processes=1, removed=removed, folder=tmp_path)
    assert count.tours == frontier_count(Board(5, 5), removed=removed).tours
    assert count.shards == shards and count.processes == 1


def test_a_worker_killed_mid_square_costs_its_task_not_the_count(tmp_path, monkeypatch):
    marker = tmp_path / "killed-once"
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, f"kill:5x6:20,1:{marker}")  # square 20, shard 1: its worker dies
    parts = tmp_path / "parts"
    count = sharded_frontier_count(Board(5, 6), shards=3, processes=2, folder=parts)
    assert marker.exists() and count.tours == 37568


def test_a_task_run_again_writes_the_same_parts(tmp_path):
    board = Board(5, 5)
    (tmp_path / "s0000").mkdir()
    for shard in range(2):
        shard_task(ShardJob(board, False, (), False, 0, shard, 2, str(tmp_path), 4.0, 10**6))
    (tmp_path / "s0001").mkdir()
    jobs = [ShardJob(board, False, (), False, 1, shard, 2, str(tmp_path), 4.0, 10**6) for shard in range(2)]
    reports = [shard_task(job) for job in jobs]
    written = {path.name: path.read_bytes() for path in (tmp_path / "s0001").iterdir()}
    again = shard_task(jobs[0])  # as a lost worker's task is, on another worker
    assert again.merged == reports[0].merged and again.ways == reports[0].ways
    assert {path.name: path.read_bytes() for path in (tmp_path / "s0001").iterdir()} == written
    assert not [name for name in written if name.startswith(".")]  # no partial file left


def test_a_dask_cluster_counts_what_one_process_counts(tmp_path):
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=":0"
    ) as cluster:
        count = sharded_frontier_count(Board(5, 6), shards=3, scheduler=cluster.scheduler_address, folder=tmp_path)
    assert count.tours == 37568 and (count.shards, count.processes) == (3, 2)


def test_small_boards_stay_in_one_process():
    assert default_shards(Board(5, 5), processes=2) == 1
    assert default_shards(Board(6, 6), processes=2) == 1
    assert default_shards(Board(6, 7), processes=2) == 1
    assert default_shards(Board(6, 7), closed=True, processes=2) == 1
    assert default_shards(Board(7, 7), processes=1) == 1
    assert default_shards(Board(7, 7), processes=2) == 2 * SHARDS_PER_PROCESS
    assert default_shards(Board(8, 7), closed=True, processes=3) == 3 * SHARDS_PER_PROCESS


def test_one_shard_by_default_is_the_one_process_count(tmp_path):
    count = sharded_frontier_count(Board(5, 5), folder=tmp_path)
    assert (count.tours, count.shards, count.processes) == (1728, 1, 1)


@pytest.mark.parametrize("shards", [0, -1, 2000, 2.5, True])
def test_shards_out_of_range_are_refused(tmp_path, shards):
    with pytest.raises(InvalidInput, match="shards must be a whole number from 1 to"):
        sharded_frontier_count(Board(5, 5), shards=shards, folder=tmp_path)


def test_processes_below_one_are_refused(tmp_path):
    with pytest.raises(InvalidInput, match="processes must be a whole number of at least 1"):
        sharded_frontier_count(Board(5, 5), shards=2, processes=0, folder=tmp_path)


def test_a_folder_that_cannot_be_written_is_refused(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(InvalidInput, match=r"cannot be written in .*give a writable folder") as raised:
        sharded_frontier_count(Board(5, 5), shards=2, processes=1, folder=blocker / "parts")
    assert "\n" not in str(raised.value)


def test_an_unreachable_scheduler_is_said_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("KNIGHT_DASK_TIMEOUT", "2")
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(InvalidInput, match="scheduler") as raised:
        sharded_frontier_count(Board(5, 5), shards=2, scheduler=f"tcp://127.0.0.1:{port}", folder=tmp_path)
    assert "\n" not in str(raised.value)


def test_a_malformed_scheduler_address_is_refused(tmp_path):
    with pytest.raises(InvalidInput, match="tcp://HOST:PORT"):
        sharded_frontier_count(Board(5, 5), shards=2, scheduler="localhost:8786", folder=tmp_path)


def test_processes_and_a_scheduler_together_are_refused(tmp_path):
    with pytest.raises(InvalidInput, match="not both"):
        sharded_frontier_count(Board(5, 5), processes=2, scheduler="tcp://127.0.0.1:8786", folder=tmp_path)


def test_nothing_is_left_in_the_folder_when_a_count_fails(tmp_path):
    with pytest.raises(InvalidInput, match="frontier states"):
        sharded_frontier_count(Board(6, 6), shards=2, processes=1, max_states=1000, folder=tmp_path)
    assert [path.name for path in tmp_path.iterdir()] == []
    assert os.environ.get(ENVIRONMENT_VARIABLE) is None


class _Stop(KeyboardInterrupt):
    """An interrupt raised by a test's ``on_row`` after a given row: as Ctrl-C there."""


def _stop_after(row: int):
    def on_row(done: RowDone) -> None:
        if done.row == row:
            raise _Stop

    return on_row


def test_a_keyed_count_stopped_after_a_row_goes_on_from_it(tmp_path):
    board, key = Board(6, 6), "a-count"
    with pytest.raises(_Stop):
        sharded_frontier_count(
            board, closed=True, shards=3, processes=1, folder=tmp_path, key=key, on_row=_stop_after(2)
        )
    marker = json.loads((tmp_path / f"{key}-shards" / MARKER_NAME).read_text())
    assert marker["square"] == 17 and len(marker["row_seconds"]) == 3  # the third row's last square
    rows: list[RowDone] = []
    count = sharded_frontier_count(
        board, closed=True, shards=3, processes=1, folder=tmp_path, key=key, on_row=rows.append
    )
    one = frontier_count(board, closed=True)
    assert (count.tours, count.peak_states, count.states) == (9862, one.peak_states, one.states)
    assert count.resumed == 18 and [row.row for row in rows] == [3, 4, 5] and len(count.row_seconds) == 6
    assert list(tmp_path.iterdir()) == []  # the run's folder gone once counted


def test_a_keyed_count_on_the_local_pool_goes_on_from_its_marker(tmp_path):
    with pytest.raises(_Stop):
        sharded_frontier_count(Board(5, 5), shards=3, processes=2, folder=tmp_path, key="k", on_row=_stop_after(1))
    count = sharded_frontier_count(Board(5, 5), shards=3, processes=2, folder=tmp_path, key="k")
    assert (count.tours, count.resumed) == (1728, 10) and list(tmp_path.iterdir()) == []


def _edit_marker(run, old, new):
    (run / MARKER_NAME).write_text((run / MARKER_NAME).read_text().replace(old, new, 1))


@pytest.mark.parametrize(
    ("spoil", "shards"),
    [
        (lambda run: None, 2),  # another count's marker: of 3 shards, not 2
        (lambda run: _edit_marker(run, '"engine": "', '"engine": "old'), 3),  # made by other engine sources
        (lambda run: (run / MARKER_NAME).write_text('{"format": 1, "squ'), 3),  # cut short
        (lambda run: next((run / "s0009").iterdir()).unlink(), 3),  # a part gone
        (lambda run: _edit_marker(run, '"peak": ', '"peak": -'), 3),  # a count out of range
    ],
)
def test_a_marker_of_another_count_or_damaged_starts_the_count_over(tmp_path, spoil, shards):
    with pytest.raises(_Stop):
        sharded_frontier_count(Board(5, 5), shards=3, processes=1, folder=tmp_path, key="k", on_row=_stop_after(1))
    run = tmp_path / "k-shards"
    spoil(run)
    (run / "s0033").mkdir()  # a stale square's folder: gone with the rest
    count = sharded_frontier_count(Board(5, 5), shards=shards, processes=1, folder=tmp_path, key="k")
    assert (count.tours, count.resumed) == (1728, 0) and list(tmp_path.iterdir()) == []


def test_a_keyed_count_that_fails_leaves_no_folder(tmp_path):
    with pytest.raises(InvalidInput, match="frontier states"):
        sharded_frontier_count(Board(6, 6), shards=2, processes=1, max_states=1000, folder=tmp_path, key="k")
    assert list(tmp_path.iterdir()) == []


def test_a_hung_worker_is_killed_and_its_task_sent_again(tmp_path, monkeypatch):
    marker = tmp_path / "stopped-once"
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, f"stop:5x6:20,1:{marker}")  # square 20, shard 1: its worker stops
    monkeypatch.setenv(HUNG_VARIABLE, "1")  # no CPU time for a second on a task of milliseconds: hung
    began = time.monotonic()
    count = sharded_frontier_count(Board(5, 6), shards=3, processes=2, folder=tmp_path / "parts")
    assert marker.exists() and count.tours == 37568 and time.monotonic() - began < 30
