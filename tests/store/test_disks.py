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
import pwd
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from io import StringIO
from pathlib import Path

import pytest
from cli_helpers import knight_here, run_once
from runner_helpers import end_session, knight, start_knight, stored_results, wait_for_results, write_job

from knight.cli import main
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


# --- a store path that names no file, and files planted beside a store ---------------------------


@pytest.mark.parametrize("kind", ["a character device", "a FIFO", "a directory", "a socket"])
def test_a_store_that_is_not_a_file_is_refused_in_one_line_and_nothing_is_made_beside_it(
    reference, tmp_path, cli, kind
):
    """`--store /dev/null` made /dev/null-journal and blamed a full disk; a FIFO or a device was said not to exist
    by readers. Each is refused before SQLite opens it, in one line saying what it is."""
    job = reference[1]
    store = Path("/dev/null") if kind == "a character device" else tmp_path / "s.sqlite"
    with ExitStackOf(kind, store):
        beside = sorted(p.name for p in store.parent.iterdir() if p.name.startswith(store.name))
        for command in (["run", str(job)], ["census", "5"], ["results"], ["verify"], ["verify", "--repair"]):
            one_line(cli(*command, "--store", str(store)), f"the store {store} is {kind}", "not a file", "--store")
        assert sorted(p.name for p in store.parent.iterdir() if p.name.startswith(store.name)) == beside


@contextmanager
def ExitStackOf(kind: str, store: Path) -> Iterator[None]:  # noqa: N802 (named for what it makes)
    """``store`` made as ``kind`` for the block (a character device is /dev/null itself)."""
    if kind == "a FIFO":
        os.mkfifo(store)
    elif kind == "a directory":
        store.mkdir()
    if kind != "a socket":
        yield
        return
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(store))
        yield


def aged(store: Path) -> None:
    """Make ``store`` look written a minute ago (the facts of a freshly written file are never read or noted)."""
    stat = store.stat()
    os.utime(store, ns=(stat.st_atime_ns, stat.st_mtime_ns - 60 * 10**9))


def test_a_fifo_planted_beside_the_store_is_refused_or_passed_over_never_waited_on(reference, tmp_path, cli):
    original, job, clean = reference
    store = tmp_path / "s.sqlite"
    shutil.copy(original, store)
    aged(store)  # a fresh file's facts are not read at all
    os.mkfifo(f"{store}-known")  # the facts noted about the store: read by every reader
    assert cli("results", "--json", "--store", str(original)).stdout == clean  # loads what the child below runs
    # in a child that is stopped if it waits (a signal cannot be relied on to reach a thread blocked in open)
    assert in_child(knight_status("results", "--json", "--store", str(store))) == (0, clean)
    assert cli("run", str(job), "--store", str(store)).returncode == 0
    Path(f"{store}-known").unlink()
    os.mkfifo(f"{store}-wal")  # where SQLite keeps the store's log
    for command in (["results"], ["run", str(job)]):
        one_line(cli(*command, "--store", str(store)), f"{store}-wal", "a FIFO", "not a file")


# --- a store one user owns and another reads -------------------------------------------------------


def in_child(action: Callable[[], int], user: str | None = None, seconds: float = 15) -> tuple[int, str]:
    """Run ``action`` in a forked child process (as the user ``user``: these tests run as root, and the child drops
    to that user, the modules it needs already loaded here); its exit status and what it printed. A child still
    running after ``seconds`` is killed, and its status is -9."""
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child's lines are not traced)
        status = 99
        printed = StringIO()
        try:
            os.close(reading)
            if user is not None:
                found = pwd.getpwnam(user)
                os.setgroups([])
                os.setgid(found.pw_gid)
                os.setuid(found.pw_uid)
            with redirect_stdout(printed):
                status = action()
        except BaseException:
            printed.write(traceback.format_exc())
        finally:
            os.write(writing, printed.getvalue().encode()[:60000])  # within a pipe's buffer: never blocks
            os._exit(status)
    os.close(writing)
    deadline = time.monotonic() + seconds
    while (ended := os.waitpid(child, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    if ended[0] == 0:
        os.kill(child, signal.SIGKILL)
        ended = os.waitpid(child, 0)
    with os.fdopen(reading, "rb") as pipe:
        printed = pipe.read().decode()
    return os.waitstatus_to_exitcode(ended[1]), printed


def knight_status(*args: str) -> Callable[[], int]:
    """`knight ARGS` run in this process, as an action of :func:`in_child`: its exit status."""

    def action() -> int:
        try:
            main(list(args))
        except SystemExit as stop:
            return stop.code if isinstance(stop.code, int) else 0
        return 0

    return action


@pytest.mark.skipif(os.geteuid() != 0, reason="needs two other users: the test drops from root to each")
def test_a_store_another_user_only_read_stays_writable_for_its_owner(reference, tmp_path, cli):
    """A store in a folder all may write (/tmp), read by another user: SQLite made its -wal and -shm files there,
    owned by that reader, and the owner's next run was refused ("attempt to write a readonly database")."""
    original, job, clean = reference
    shared = Path(tempfile.mkdtemp(prefix="knight-shared-"))  # not under pytest's folder: only root may enter it
    try:
        shared.chmod(0o1777)
        store, shared_job = shared / "s.sqlite", shared / job.name
        shutil.copy(original, store)
        shutil.copy(job, shared_job)
        owner, reader = pwd.getpwnam("nobody"), pwd.getpwnam("daemon")
        os.chown(store, owner.pw_uid, owner.pw_gid)
        aged(store)  # so that what is known of it is noted, by whoever may
        for command in (["run", str(shared_job)], ["results", "--json"], ["verify"]):  # loads what the users run
            assert cli(*command, "--store", str(tmp_path / "warm.sqlite")).returncode == 0

        status, printed = in_child(knight_status("results", "--json", "--store", str(store)), "daemon")
        assert (status, printed) == (0, clean)
        assert in_child(knight_status("verify", "--store", str(store)), "daemon")[0] == 0
        assert [p.name for p in shared.iterdir() if p.stat().st_uid == reader.pw_uid] == []

        status, printed = in_child(knight_status("run", str(shared_job), "--store", str(store)), "nobody")
        assert status == 0, printed
        status, printed = in_child(knight_status("verify", "--repair", "--store", str(store)), "nobody")
        assert status == 0 and "sound" in printed, printed
    finally:
        shutil.rmtree(shared)


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
