"""`knight census --method frontier --shards N` (issue 40, items 1 and 5): the count's states sharded over the run's
processes give the count, peak and states of one process; the store keeps the shards, `knight results` and the key's
C2 show them, the store is sound and no part is left beside it; a small board is not sharded unless asked; bad
--shards in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import knight_here

from knight.engine import Board
from knight.engine.frontier import frontier_count
from knight.report.answers.eiffel_counts import exact_counts
from knight.runner.sharding import shards_for
from knight.store import Store
from knight.tasks import FrontierParams


@pytest.mark.parametrize(("n", "m", "closed", "shards", "workers"), [(5, 5, False, 3, 1), (6, 6, True, 2, 2)])
def test_a_sharded_count_is_the_one_process_count_and_is_stored_with_its_shards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, n: int, m: int, closed: bool, shards: int, workers: int
) -> None:
    store = tmp_path / "s.sqlite"
    args = ["census", str(n), str(m), "--method", "frontier", "--shards", str(shards), "--workers", str(workers)]
    ran = knight_here(capsys, [*args, *(["--closed"] if closed else []), "--store", str(store), "--json"])
    assert ran.returncode == 0, ran.stderr
    said = json.loads(ran.stdout)
    alone = frontier_count(Board(n, m), closed=closed)
    assert (said["cycles"] if closed else said["total"]) == alone.tours
    assert (said["peak_states"], said["states"], said["shards"]) == (alone.peak_states, alone.states, shards)
    shown = json.loads(knight_here(capsys, ["results", "--store", str(store), "--json"]).stdout)
    assert [row["shards"] for row in shown["frontier_counts"]] == [shards]
    with Store(store, read_only=True) as opened:
        assert opened.problems() == []
        (row,) = exact_counts([], opened.frontier_counts())  # C2's row
    assert (row.frontier, row.shards) == (alone.tours, shards)
    assert knight_here(capsys, ["verify", "--store", str(store)]).returncode == 0
    left = sorted(path.name for path in tmp_path.iterdir() if not path.name.startswith("s.sqlite-"))
    assert left == ["s.sqlite"] and not Path(f"{store}-checkpoints").exists()  # no parts, no checkpoint folder left


def test_a_small_board_is_counted_in_one_process_unless_shards_are_asked_for() -> None:
    task = FrontierParams(False).task(6, 6)
    assert shards_for(task, None, 2) == 1 and shards_for(task, 3, 2) == 3
    assert shards_for(FrontierParams(False).task(7, 7), None, 2) > 2  # a count of minutes: more shards than processes


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["5", "--method", "frontier", "--shards", "0"], "--shards must be a whole number of shards from 1 to"),
        (["5", "--shards", "2"], "--shards needs --method frontier"),
    ],
)
def test_bad_shards_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], said: str
) -> None:
    ran = knight_here(capsys, ["census", *args, "--store", str(tmp_path / "s.sqlite")])
    assert ran.returncode == 2 and ran.stdout == "" and said in ran.stderr and ran.stderr.count("\n") == 1
    assert not (tmp_path / "s.sqlite").exists()


def test_a_sharded_count_past_its_cap_is_one_line_and_leaves_no_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = tmp_path / "s.sqlite"
    args = ["census", "6", "--method", "frontier", "--shards", "2", "--max-states", "10", "--store", str(store)]
    ran = knight_here(capsys, args)
    assert ran.returncode == 2 and "state cap" in ran.stderr and ran.stderr.count("\n") == 1
    assert not Path(f"{store}-checkpoints").exists()


def test_an_unreachable_cluster_for_a_sharded_count_is_one_line_and_stores_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setenv("KNIGHT_DASK_TIMEOUT", "2")
    store = tmp_path / "s.sqlite"
    dask = ["--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"]
    ran = knight_here(
        capsys, ["census", "4", "5", "--method", "frontier", "--shards", "2", *dask, "--store", str(store)]
    )
    assert ran.returncode == 2 and "Dask scheduler" in ran.stderr and ran.stderr.count("\n") == 1
    with Store(store, read_only=True) as opened:
        assert opened.failures() == [] and opened.frontier_counts() == []
