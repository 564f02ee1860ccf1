"""The store's format: compact paths, the size policy for large boards, and refusing other versions."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest
from runner_helpers import knight, write_job

from knight.engine import Board, Tour, find_tour
from knight.engine.codec import encode_path
from knight.errors import MissingData, PathNotKept, StoreVersionError
from knight.report.data import load_results
from knight.store import SCHEMA_VERSION, Store
from knight.store.database import PAGE_SIZE
from knight.tasks import PATH_KEPT_UP_TO_SQUARES, Task, TaskResult, validate


def key_of(n: int, m: int) -> str:
    """The key of the task that :func:`register` stores for an ``n`` × ``m`` board (its definition gives it)."""
    return Task("warnsdorff", (), n, m, (0, 0)).key


def result_of(n: int, m: int) -> tuple[TaskResult, Tour]:
    """A worker's result for a Warnsdorff tour (Roth's ties: full on the boards used here) from the corner."""
    tour = find_tour(Board(n, m), (0, 0), "warnsdorff", compiled=True, tie="roth")
    return TaskResult.from_tour(key_of(n, m), tour), tour


def register(store: Store, *boards: tuple[int, int]) -> None:
    """Tasks rows for results stored directly (the store's foreign keys want them, and readers check that each
    task's key is its definition's)."""
    rows = [(key_of(n, m), n, m) for n, m in boards]
    with store.transaction() as db:
        db.executemany("INSERT INTO tasks VALUES (?, 'warnsdorff', '{}', '{}', ?, ?, 0, 0)", rows)
        db.executemany("INSERT INTO job_tasks VALUES ('direct', ?)", [(key,) for key, _, _ in rows])


def test_a_stored_tour_comes_back_square_for_square_and_in_the_report(tmp_path):
    result, tour = result_of(12, 9)
    assert len(result.outcome.moves) == tour.length + 3 and validate(result) == ""
    with Store(tmp_path / "s.sqlite") as store:
        register(store, (12, 9))
        run = store.start_run(["direct"], "process", 1)
        assert store.record(run, [result], revalidate=True) == 2
        assert store.tour(key_of(12, 9)).squares == tour.squares
    (record,) = load_results(tmp_path / "s.sqlite").records
    assert record.tour().squares == tour.squares and record.full == tour.full


def test_a_tour_too_large_to_keep_is_stored_without_its_path(tmp_path):
    side = 317  # 100,489 squares: just over the limit
    assert side * side > PATH_KEPT_UP_TO_SQUARES >= (side - 1) ** 2
    big, tour = result_of(side, side)
    small, small_tour = result_of(side - 1, side - 1)
    assert big.outcome.moves is None and small.outcome.moves is not None
    assert validate(big) == "" and big.outcome.key_directed == tour.key_directed
    with Store(tmp_path / "s.sqlite") as store:
        register(store, (side, side), (side - 1, side - 1))
        store.record(store.start_run(["direct"], "process", 1), [big, small])
        (row,) = store.summary("direct")[-1:]
        assert (row["n"], row["done"], row["full"], row["distinct_symmetric"]) == (side, 1, 1, 1) and tour.full
        with pytest.raises(PathNotKept, match="100,000 squares"):
            store.tour(key_of(side, side))
        assert store.tour(key_of(side - 1, side - 1)).squares == small_tour.squares and small_tour.full
    records = {r.n: r for r in load_results(tmp_path / "s.sqlite", drawn_up_to=side * side).records}
    assert records[side].moves is None and records[side].key_symmetric == tour.key_symmetric
    with pytest.raises(MissingData, match="not loaded"):
        records[side].tour()
    assert records[side - 1].tour().key_directed == small_tour.key_directed


def changed(result: TaskResult, **fields: object) -> TaskResult:
    """``result`` with its tour outcome's ``fields`` changed."""
    return replace(result, outcome=replace(result.outcome, **fields))


@pytest.mark.parametrize(
    "change, problem",
    [
        (lambda r: changed(r, moves=None), "path is missing"),
        (lambda r: changed(r, moves=r.outcome.moves[:-1]), "does not match its length"),
        (
            lambda r: changed(
                r, moves=r.outcome.moves[:4] + bytes([(r.outcome.moves[4] + 1) % 8]) + r.outcome.moves[5:]
            ),
            "invalid tour",
        ),
        (lambda r: changed(r, length=r.outcome.length - 1, moves=r.outcome.moves[:-1]), "does not match its squares"),
        (lambda r: changed(r, key_directed="0" * 32), "not the tour its key names"),
    ],
)
def test_validation_catches_a_tampered_result(change, problem):
    result, _ = result_of(8, 8)
    assert validate(result) == ""
    assert problem in validate(change(result))


def test_a_worker_checks_that_the_stored_form_decodes_to_the_tour_it_built():
    result, tour = result_of(8, 8)
    other = replace(result, key="other")
    assert validate(result, tour) == ""
    reversed_moves = encode_path(tour.path[::-1], 8)  # a sound tour, but not the one built
    assert validate(changed(result, moves=reversed_moves)) != ""  # its key names the other direction
    assert "does not decode to its squares" in validate(changed(result, moves=reversed_moves), tour)
    assert "not the tour its key names" in validate(changed(other, key_directed="0" * 32), tour)


@pytest.mark.parametrize("version", [0, 3, 9])  # 9: a version knight would migrate, had the tables been its own
def test_another_programs_database_is_refused_and_never_to_be_deleted(tmp_path, version):
    """An SQLite file knight did not write: one line, exit 2, no advice to delete it, not a byte changed."""
    other = tmp_path / "contacts.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE contacts (name TEXT)")
        db.execute("INSERT INTO contacts VALUES ('ada')")
        db.execute(f"PRAGMA user_version = {version}")
    before = other.read_bytes()
    job = write_job(tmp_path, "tiny", '[[sweep]]\nboards = [5]\nstarts = "corners"\nmethod = "warnsdorff"\n')
    for command in (["run", str(job)], ["results"], ["verify", "--repair"]):
        refused = knight(command, other)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, (command, refused.stderr)
        assert "not a knight store" in refused.stderr and "delete" not in refused.stderr
    assert other.read_bytes() == before


def test_a_store_of_another_version_is_refused_in_one_line(tmp_path):
    old = tmp_path / "old.sqlite"
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE tours (task_key TEXT PRIMARY KEY, path BLOB NOT NULL)")
        db.execute("PRAGMA user_version = 1")
    with pytest.raises(StoreVersionError, match=f"version 1, this knight writes version {SCHEMA_VERSION}"):
        Store(old)
    with pytest.raises(StoreVersionError, match="delete it"):
        load_results(old)
    job = write_job(tmp_path, "tiny", '[[sweep]]\nboards = [5]\nstarts = "corners"\nmethod = "warnsdorff"\n')
    refused = knight(["run", str(job)], old)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "delete it" in refused.stderr and "--store" in refused.stderr
    with sqlite3.connect(old) as db:  # refused, not changed
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def test_a_new_store_has_the_larger_pages_and_an_older_store_keeps_its_own(tmp_path):
    """Pages of PAGE_SIZE for a new store (fewer, fuller pages per commit of tours); a store made with SQLite's
    default pages is used as it is: the page size of a file in WAL mode cannot change."""
    result, tour = result_of(8, 8)
    older = tmp_path / "older.sqlite"
    with sqlite3.connect(older) as db:
        db.execute("PRAGMA page_size = 4096")
        db.execute("PRAGMA journal_mode = WAL")
    for path, pages in ((tmp_path / "new.sqlite", PAGE_SIZE), (older, 4096)):
        with Store(path) as store:
            register(store, (8, 8))
            assert store.record(store.start_run(["direct"], "process", 1), [result]) == 2
            assert store.db.execute("PRAGMA page_size").fetchone()[0] == pages
        assert Store(path, read_only=True).tour(key_of(8, 8)).squares == tour.squares
    assert PAGE_SIZE != 4096


def test_an_empty_store_file_becomes_a_store_and_the_report_says_it_is_empty(tmp_path):
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()
    with pytest.raises(MissingData, match="empty"):
        load_results(empty)
    with Store(empty) as store:
        assert store.jobs() == []
    with sqlite3.connect(empty) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_readers_open_the_store_read_only_and_change_nothing(tmp_path):
    """The report and `knight results` read through Store(read_only=True): a missing or empty file
    is not turned into a store, a read-only store can be read, and a file that is no store gets one line."""
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    shown = knight(["results"], empty)
    assert shown.returncode == 2 and "empty" in shown.stderr and shown.stderr.count("\n") == 1
    assert empty.read_bytes() == b""  # not turned into a store
    missing = tmp_path / "missing.sqlite"
    assert knight(["results"], missing).returncode == 2 and not missing.exists()
    not_a_store = tmp_path / "notes.sqlite"
    not_a_store.write_text("these are my notes, not a database\n" * 100)
    refused = knight(["results"], not_a_store)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--store" in refused.stderr
    assert knight(["results"], tmp_path).returncode == 2  # a directory

    store = tmp_path / "s.sqlite"
    job = write_job(tmp_path, "tiny", '[[sweep]]\nboards = [5]\nstarts = "corners"\nmethod = "warnsdorff"\n')
    assert knight(["run", str(job)], store).returncode == 0
    before = store.read_bytes()
    store.chmod(0o444)
    tmp_path.chmod(0o555)  # no journal or WAL files may be made beside it either
    try:
        listed = knight(["results", "--json"], store)
        with Store(store, read_only=True) as opened:
            records = opened.tours()
    finally:
        tmp_path.chmod(0o755)
        store.chmod(0o644)
    assert listed.returncode == 0, listed.stderr
    assert len(records) == 4 and all(r.full and r.jobs == ("tiny",) for r in records)
    assert store.read_bytes() == before


def test_a_census_split_into_other_units_is_registered_anew(tmp_path):
    """A census registered by another version of the engine (here: every first move its own unit) is
    re-registered with the units the engine lists now, so that its old units are not counted twice."""
    from knight.engine.census import CensusSpec, census_units
    from knight.tasks import CensusPlan, Task

    spec = CensusSpec(5, 5)
    now = CensusPlan.of(spec)
    every_first_move = [
        Task.from_unit(replace(unit, first=first, weight=1))
        for unit in census_units(Board(5, 5))
        for first in {unit.first, unit.first[::-1] if unit.start[0] == unit.start[1] else unit.first}
    ]
    before = CensusPlan(spec, tuple(every_first_move))
    with Store(tmp_path / "s.sqlite") as store:
        store.register_job("census", before.tasks, [before])
        store.register_job("census", now.tasks, [now])
        with store.transaction() as db:
            keys = {k for (k,) in db.execute("SELECT task_key FROM census_tasks")}
            (units,) = db.execute("SELECT units FROM censuses").fetchone()
    assert keys == set(now.keys) and units == len(now.keys) < len(before.keys)
