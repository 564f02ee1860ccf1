"""tools/same_outputs.py, cheaply: its store dump, its timings hand-over and its usage errors. The comparison
itself runs every shipped job twice (a minute or more) and is run by hand, not here."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "same_outputs.py"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("same_outputs", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def census(store: Path, *more: str) -> None:
    """Count 5 x 5's open tours into ``store`` (a fraction of a second, in this process's Python)."""
    subprocess.run(
        [sys.executable, "-m", "knight", "census", "5", "--store", str(store), *more], check=True, capture_output=True
    )


def rows_of(store: Path, query: str) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(store)) as db:
        return db.execute(query).fetchall()


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two stores of the same census and frontier count, made apart: their timings differ."""
    folder = tmp_path_factory.mktemp("stores")
    made = folder / "a.sqlite", folder / "b.sqlite"
    for store in made:
        census(store)
        census(store, "--method", "frontier")
    return made


def test_dumps_of_two_runs_are_the_same_without_their_timings(tool: ModuleType, stores: tuple[Path, Path]) -> None:
    first, second = (tool.dump_store(store) for store in stores)
    assert first == second == tool.dump_store(stores[0])
    assert set(first) == {f"store/{table}" for table in tool.TABLES}
    counts = first["store/counts"].decode().splitlines()
    assert json.loads(counts[0]) == ["task_key", "tours", "nodes"] and len(counts) == 1 + 12  # 12 units
    assert "finished" not in json.loads(first["store/results"].decode().splitlines()[0])


def test_timings_taken_from_base_keep_the_store_sound(
    tool: ModuleType, stores: tuple[Path, Path], tmp_path: Path
) -> None:
    head = tmp_path / "head.sqlite"
    head.write_bytes(stores[1].read_bytes())
    tool.take_timings(head, stores[0])
    every = "SELECT * FROM {} ORDER BY 1"
    for table in (*tool.TIMINGS, "results"):
        rows = [rows_of(store, every.format(table)) for store in (stores[0], head)]
        if table == "results":  # when and by which run stays the store's own
            rows = [[(key, status, checksum) for key, status, *_, checksum in table_rows] for table_rows in rows]
        assert rows[0] == rows[1]
    read = [sys.executable, "-m", "knight", "results", "--json", "--store", str(head)]
    document = json.loads(subprocess.run(read, check=True, capture_output=True).stdout)  # not refused as damaged
    assert document["censuses"][0]["directed"] == 1728


def test_results_json_leaves_out_the_timings(tool: ModuleType) -> None:
    document = {"tours": [], "frontier_counts": [{"tours": 1728, "seconds": 0.01}], "estimates": []}
    assert json.loads(tool.results_json(json.dumps(document).encode())) == {
        **document,
        "frontier_counts": [{"tours": 1728}],
    }


def test_difference_names_the_first_differing_line_or_byte(tool: ModuleType) -> None:
    assert tool.difference(b"a\nb\nc\n", b"a\nB\nc\n") == "line 2: 'b' vs 'B'"
    assert tool.difference(b"%PDF\xff\x00", b"%PDF\xff\x01") == "6 vs 6 bytes, the first difference at byte 5"


def test_a_table_whose_columns_changed_is_said_so(tool: ModuleType, stores: tuple[Path, Path]) -> None:
    before = tool.dump_store(stores[0])["store/results"]
    lines = [json.loads(line) for line in before.splitlines()]
    after = "\n".join(json.dumps([*line, "note" if number == 0 else ""]) for number, line in enumerate(lines))
    assert tool.column_difference(before, before) is None
    assert tool.column_difference(before, after.encode()) == (
        "columns only in BASE [], only in HEAD ['note']; on the others the rows are the same"
    )


@pytest.mark.parametrize("arguments", [[], ["HEAD", "HEAD", "extra"], ["no-such-revision"]])
def test_a_usage_error_exits_2(arguments: list[str]) -> None:
    done = subprocess.run([sys.executable, str(TOOL), *arguments], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    if arguments == ["no-such-revision"]:
        assert done.stderr == f"same_outputs: 'no-such-revision' names no commit in {TOOL.parent.parent}\n"
