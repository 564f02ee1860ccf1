"""The disk under the store and the report (issue 26): full, read-only, or the store moved away mid-run.

Each case ends in one line on stderr that names the path and the cause, exit status 2, no traceback and no
half-written file, and keeps what was already done. A read-only file or folder is made for real: with the
immutable flag (``chattr +i``) when the tests run as root, whom permissions do not stop, else with chmod. A
full disk is SQLite's own: the store's connection is given a page limit (``PRAGMA max_page_count``), past which
SQLite answers "database or disk is full" exactly as on a full disk; the report's files meet ENOSPC.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from cli_helpers import knight_here, run_once
from runner_helpers import end_session, knight, start_knight, stored_results, wait_for_results, write_job

from knight.store import Store

SMALL = """
name = "small"
[[sweep]]
boards = [5]
starts = "all"
method = "warnsdorff"
params = { tie = ["first", "roth", "lookahead-min", "lookahead-sum"] }
"""
SMALL_TOTAL = 4 * 25


@pytest.fixture
def cli(capsys):
    return lambda *args: knight_here(capsys, list(args))


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[Path, Path, str]:
    """A store with the small job run into it (in a folder of its own), the job, and `knight results --json`."""
    return run_once(tmp_path_factory.mktemp("reference"), "small", SMALL)


def one_line(ran, *words: str) -> None:
    """A refusal: exit status 2, one line on stderr holding ``words``, nothing on stdout."""
    assert ran.returncode == 2, (ran.returncode, ran.stderr)
    lines = [line for line in ran.stderr.splitlines() if line.startswith("knight: error:")]
    assert len(lines) == 1 and "Traceback" not in ran.stderr, ran.stderr
    assert all(word in lines[0] for word in words), (words, lines[0])


def leftovers(folder: Path) -> list[str]:
    """Half-written files: a report's ``.partial`` ones, the store's ``-known.<pid>``."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial") or "-known." in p.name)


# --- a full disk ---------------------------------------------------------------------------------


def test_a_full_disk_stops_a_run_in_one_line_and_the_run_after_finishes_it(reference, tmp_path, cli, monkeypatch):
    _, job, clean = reference
    store = tmp_path / "s.sqlite"
    opened = Store.__init__

    def on_a_small_disk(self, *args, **kwargs):  # room for the schema and a few chunks of results
        opened(self, *args, **kwargs)
        if not self.read_only:
            pages = self.db.execute("PRAGMA page_count").fetchone()[0]
            self.db.execute(f"PRAGMA max_page_count = {pages + 2}")

    monkeypatch.setattr(Store, "__init__", on_a_small_disk)
    full = cli("run", str(job), "--store", str(store))
    one_line(full, f"cannot write {store}", "no space left on device", "free some space", "finished tasks are kept")
    monkeypatch.undo()
    assert leftovers(tmp_path) == []
    kept = stored_results(store)
    assert 0 < kept < SMALL_TOTAL  # the run got some way, and what it stored is there

    resumed = cli("run", str(job), "--store", str(store), "--json")
    assert resumed.returncode == 0 and json.loads(resumed.stdout)["reused"] == kept
    assert cli("verify", "--store", str(store)).returncode == 0
    assert cli("results", "--json", "--store", str(store)).stdout == clean


def test_a_full_disk_stops_the_report_in_one_line_and_keeps_the_last_one(reference, tmp_path, cli, monkeypatch):
    store = reference[0]
    out = tmp_path / "out"
    out.mkdir()
    (out / "knights-tour.html").write_text("the last report")
    write_text = Path.write_text

    def full_disk(self, *args, **kwargs):
        if self.name.endswith(".partial"):  # the report's files (written atomically), not the store's notes
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    ran = cli("report", "--no-pdf", "--store", str(store), "--out", str(out))
    monkeypatch.undo()
    one_line(ran, f"cannot write {out / 'knights-tour.html'}", "no space left on device", "is kept")
    assert (out / "knights-tour.html").read_text() == "the last report" and leftovers(out) == []


def test_an_error_of_the_disk_anywhere_is_one_line_naming_the_file(tmp_path, cli, monkeypatch):
    def read_only(given=None):
        raise OSError(errno.EROFS, "Read-only file system", str(tmp_path / "somewhere"))

    monkeypatch.setattr("knight.cli.verify.store_path", read_only)
    one_line(cli("verify"), f"cannot write {tmp_path / 'somewhere'}", "read-only file system")

    def bug(given=None):
        raise OSError(errno.ENOENT, "No such file or directory", "x")  # not the disk's: a bug keeps its traceback

    monkeypatch.setattr("knight.cli.verify.store_path", bug)
    with pytest.raises(FileNotFoundError):
        cli("verify")


# --- a read-only store, folder or medium -------------------------------------------------------


@contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """``path`` (a file or a folder) made read-only for this process for real, then writable again."""
    if os.geteuid() == 0:  # permissions do not stop root; the immutable flag does
        subprocess.run(["chattr", "+i", str(path)], check=True)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(mode & ~0o222)
        try:
            yield
        finally:
            path.chmod(mode)


def test_a_read_only_store_is_refused_by_writers_in_one_line_and_read_by_readers(reference, tmp_path, cli):
    original, job, clean = reference
    store = tmp_path / "s.sqlite"
    shutil.copy(original, store)
    before = store.read_bytes()
    with unwritable(store):
        for command in (["run", str(job)], ["census", "5"], ["verify", "--repair"]):
            refused = cli(*command, "--store", str(store))
            one_line(refused, f"the store {store} cannot be written", "the file is read-only", "--store")
        assert cli("results", "--json", "--store", str(store)).stdout == clean
        assert cli("verify", "--store", str(store)).returncode == 0
    assert store.read_bytes() == before


def test_a_store_alone_in_a_read_only_folder_is_read_as_it_is(reference, tmp_path, cli):
    """As on read-only media: SQLite cannot make the files its WAL mode reads through beside the store."""
    original, job, clean = reference
    folder = tmp_path / "media"
    folder.mkdir()
    store = folder / "s.sqlite"
    shutil.copy(original, store)
    with unwritable(folder):
        assert cli("results", "--json", "--store", str(store)).stdout == clean
        report = cli("report", "--no-pdf", "--store", str(store), "--out", str(tmp_path / "out"))
        assert report.returncode == 0, report.stderr
        verified = cli("verify", "--store", str(store))
        assert verified.returncode == 0 and "delete" not in verified.stdout + verified.stderr
        refused = cli("run", str(job), "--store", str(store))
        one_line(refused, f"its folder {folder} is read-only", "--store")
        one_line(cli("run", str(job), "--store", str(folder / "new.sqlite")), "cannot be written", "read-only")
    assert sorted(p.name for p in folder.iterdir()) == ["s.sqlite"]


def test_a_store_whose_log_cannot_be_read_where_it_is_is_not_called_damaged(reference, tmp_path, cli):
    """Copied with its write-ahead log (results not yet in the file) to a read-only folder: SQLite cannot read
    the log there. The line says to copy both to a writable folder, never to delete the store."""
    original, _, _ = reference
    folder = tmp_path / "media"
    folder.mkdir()
    store = folder / "s.sqlite"
    shutil.copy(original, store)
    with sqlite3.connect(store, isolation_level=None) as db:
        db.execute("PRAGMA wal_autocheckpoint = 0")
        db.execute("UPDATE runs SET pid = pid + 1")  # a write that stays in the log while this connection lives
        shutil.copy(f"{store}-wal", tmp_path / "log")
    db.close()
    for name in (f"{store.name}-wal", f"{store.name}-shm"):
        (folder / name).unlink(missing_ok=True)
    shutil.copy(tmp_path / "log", f"{store}-wal")
    with unwritable(folder):
        refused = cli("results", "--store", str(store))
    one_line(refused, f"cannot read the store {store}", "-wal", "writable folder")
    assert "delete" not in refused.stderr


# --- a store moved away or deleted while a run writes to it --------------------------------------

SLOW = """
name = "slow"
[[sweep]]
boards = [5, 6, 7]
starts = "all"
method = "warnsdorff"
params = { tie = ["first", "roth"] }
"""
SLOW_TOTAL = (25 + 36 + 49) * 2


@pytest.mark.parametrize("how", ["moved", "deleted"])
def test_a_store_moved_or_deleted_during_a_run_is_said_with_where_the_results_are(tmp_path, how):
    store, moved = tmp_path / "s.sqlite", tmp_path / "elsewhere.sqlite"
    job = write_job(tmp_path, "slow", SLOW)
    runner = start_knight(["run", str(job), "--workers", "2"], store, faults="delay:0.01")
    try:
        wait_for_results(store, 20, runner)
        if how == "moved":
            store.rename(moved)
        else:
            store.unlink()
        _, stderr = runner.communicate(timeout=60)
    finally:
        end_session(runner)
    one_line(subprocess.CompletedProcess([], runner.returncode, "", stderr), str(store), how)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["slow.toml", *([moved.name] if how == "moved" else [])]
    )
    if how == "moved":  # everything the run stored is in the moved file, none of it left in a log at the old name
        assert f"is in {moved}" in stderr
        kept = stored_results(moved)
        assert 20 <= kept < SLOW_TOTAL
        resumed = knight(["run", str(job), "--json"], moved)
        assert resumed.returncode == 0 and json.loads(resumed.stdout)["reused"] == kept
        assert knight(["verify"], moved).returncode == 0
