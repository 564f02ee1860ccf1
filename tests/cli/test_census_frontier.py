"""`knight census --method frontier`: the count made once through the runner into the store, said from there the
second time; bad input in one line before anything runs, and a count past the state cap in one line too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import knight_here

from knight.engine import Board
from knight.engine.census import census
from knight.runner.jobs import MAX_STATE_CAP
from knight.store import Store


def frontier(capsys: pytest.CaptureFixture[str], store: Path, *args: str) -> tuple[int, str, str]:
    ran = knight_here(capsys, ["census", *args, "--method", "frontier", "--store", str(store)])
    return ran.returncode, ran.stdout, ran.stderr


@pytest.mark.parametrize(("board", "closed"), [(("4", "5"), False), (("6",), True)])  # in this process; on a worker
def test_the_count_is_stored_once_and_said_again(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, board: tuple[str, ...], closed: bool
) -> None:
    store = tmp_path / "s.sqlite"
    kind = ("--closed",) if closed else ()
    code, out, err = frontier(capsys, store, *board, *kind, "--json")
    assert code == 0, err
    first = json.loads(out)
    expected = census(Board(int(board[0]), int(board[-1])), closed=closed)
    assert (first["cycles"] if closed else first["total"]) == (expected.cycles if closed else expected.total) > 0
    assert first["method"] == "frontier" and first["counted_now"] is True and first["store"] == str(store)
    assert 0 < first["peak_states"] <= first["states"] and first["seconds"] > 0
    with Store(store, read_only=True) as opened:
        (record,) = opened.frontier_counts()
        assert (record.tours, record.closed, record.peak_states) == (
            first["cycles"] if closed else first["total"],
            closed,
            first["peak_states"],
        )
    code, out, _ = frontier(capsys, store, *board, *kind, "--json")
    again = json.loads(out)
    assert code == 0 and again["counted_now"] is False
    assert {k: v for k, v in again.items() if k != "counted_now"} == {
        k: v for k, v in first.items() if k != "counted_now"
    }
    code, out, _ = frontier(capsys, store, *board, *kind)
    assert code == 0 and "by the frontier method" in out and "not counted again" in out
    assert f"{record.tours:,}" in out and f"peak {record.peak_states:,} frontier states" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["14"], "shorter side is at most 13"),
        (["5", "--max-states", "0"], "the state cap must be a positive whole number"),
        (["5", "--start", "0,0"], "--start needs --method census"),
        (["4", "5", "--remove", "4,0"], "--remove 4,0 is not on the 4x5 board"),
        (["5", "--max-states", "10"], "counting 5x5 needs more than 10 frontier states"),
        (["5", "--max-states", str(10**13)], f"--max-states may be at most {MAX_STATE_CAP:,}"),  # no OverflowError
        (["5", "--depth", "2"], "--depth needs --method census"),  # not left unsaid
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    code, out, err = frontier(capsys, tmp_path / "s.sqlite", *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_count_past_the_cap_is_made_with_a_larger_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    assert frontier(capsys, store, "5", "--max-states", "10")[0] == 2
    code, out, _ = frontier(capsys, store, "5", "--json")  # the failed count, run again under the default cap
    assert code == 0 and json.loads(out)["total"] == census(Board(5, 5)).total
    assert json.loads(out)["counted_now"] is True


def test_an_unknown_method_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ran = knight_here(capsys, ["census", "5", "--method", "bogus", "--store", str(tmp_path / "s.sqlite")])
    assert ran.returncode == 2 and ran.stdout == ""
    assert "--method must be census or frontier" in ran.stderr and ran.stderr.count("\n") == 1


def test_a_state_cap_for_the_census_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ran = knight_here(capsys, ["census", "5", "--max-states", "10", "--store", str(tmp_path / "s.sqlite")])
    assert ran.returncode == 2 and ran.stdout == "" and not (tmp_path / "s.sqlite").exists()
    assert "--max-states needs --method frontier" in ran.stderr and ran.stderr.count("\n") == 1


def test_results_show_the_counts_and_failures_say_no_start(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`knight results` gives every frontier count (a store of them alone holds results), and a failed count is
    named as the runner names it, with no start square: a count has none."""
    store = tmp_path / "s.sqlite"
    counted = json.loads(frontier(capsys, store, "4", "5", "--json")[1])
    assert frontier(capsys, store, "6", "--closed", "--max-states", "10")[0] == 2
    shown = knight_here(capsys, ["results", "--store", str(store), "--json"])
    assert shown.returncode == 0
    document = json.loads(shown.stdout)
    (row,) = document["frontier_counts"]
    seconds = row.pop("seconds")  # as stored; `knight census --json` rounds it
    assert row == {
        "jobs": ["frontier-4x5-open"],
        "board": [4, 5],
        "kind": "open",
        "removed": [],
        "tours": counted["total"],
        "shards": counted["shards"],
        "peak_states": counted["peak_states"],
        "states": counted["states"],
    }
    assert round(seconds, 4) == counted["seconds"]
    (failure,) = document["failures"]
    assert failure["what"] == "frontier 6x6 closed" and failure["cause"] == "state-cap"
    table = knight_here(capsys, ["results", "--store", str(store)])
    assert table.returncode == 0 and "holds no results" not in table.stdout
    assert "Frontier counts" in table.stdout and f"{counted['total']:,}" in table.stdout
    assert "failed: frontier 6x6 closed after 1 attempt(s)" in table.stdout and "from (0, 0)" not in table.stdout
