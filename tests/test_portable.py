"""knight without the POSIX-only names: a stand-in for Windows (and macOS's spawned workers) on this Linux machine.

Windows has no ``fcntl``, no ``os.O_NOFOLLOW``, ``os.O_DIRECTORY``, ``os.O_NONBLOCK``, ``os.O_NOCTTY`` or
``os.O_CLOEXEC``, no ``os.fork`` (workers are spawned, as on macOS), no ``prctl`` and no ``openat``; there
``os.kill(pid, 0)`` is Ctrl-C. A ``sitecustomize.py`` on ``PYTHONPATH`` (:data:`STAND_IN`) takes those names away
before knight is imported, in every process (the spawned workers too: each notes its pid in ``$STAND_IN_LOG``):
``fcntl`` made unimportable, the flags and ``os.fork``/``os.forkpty``/``os.register_at_fork`` deleted, ``openat``
gone (``os.supports_dir_fd`` emptied), ``prctl`` missing from the C library (``ctypes``), and multiprocessing
offering ``spawn`` alone. Under it ``tests/portable_smoke.py`` runs ``knight tour``, ``check``, ``grade``,
``census 5``, ``run`` and ``report --edition handout``; and the safety the POSIX flags gave is checked to hold
by the fallbacks: links refused, a grader's lock held (by the process id, where no file lock exists), a
dead worker's chunk retried, workers ending with their runner.

What stays POSIX under the stand-in, as faking it would break the standard library on Linux: ``signal.SIGKILL``
(multiprocessing's own kill), ``socket.AF_UNIX`` (the default family of ``socket.socketpair``).

The stand-in's tests run on Linux only; on Windows and macOS (CI's ``portable`` job) the rest run as they are:
the grader's lock on the system's own file lock, process liveness, the sdist's job files.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

REPO = Path(__file__).resolve().parent.parent
#: The stand-in takes names away from Linux's Python; on Windows and macOS there is nothing to stand in for.
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the stand-in for Windows runs on Linux")
SMOKE = Path(__file__).resolve().parent / "portable_smoke.py"

#: The names taken away, as the stand-in's sitecustomize.py does.
REMOVED_OS_NAMES = (
    "O_NOFOLLOW",
    "O_DIRECTORY",
    "O_NONBLOCK",
    "O_NOCTTY",
    "O_CLOEXEC",
    "fork",
    "forkpty",
    "register_at_fork",
)

STAND_IN = f'''\
"""A stand-in for Windows: the POSIX-only names knight must not need, taken away before anything imports them."""
import os
import sys

sys.modules["fcntl"] = None  # import fcntl: ImportError
for name in {REMOVED_OS_NAMES!r}:
    if hasattr(os, name):
        delattr(os, name)
os.supports_dir_fd = set()  # no openat

import ctypes

_lookup = ctypes.CDLL.__getattr__


def _no_prctl(library, name):
    if name == "prctl":
        raise AttributeError(name)
    return _lookup(library, name)


ctypes.CDLL.__getattr__ = _no_prctl

import multiprocessing
import multiprocessing.context

multiprocessing.context.DefaultContext.get_all_start_methods = lambda self: ["spawn"]
multiprocessing.get_all_start_methods = lambda: ["spawn"]  # bound from the default context at import
multiprocessing.set_start_method("spawn", force=True)

if os.environ.get("STAND_IN_NO_AF_UNIX"):  # knight's modules see a socket module without AF_UNIX, as on Windows
    import importlib.abc
    import socket
    import types

    class _NoUnixSockets(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if not name.startswith("knight."):
                return None
            sys.meta_path.remove(self)
            try:
                import importlib.util

                spec = importlib.util.find_spec(name)
            finally:
                sys.meta_path.insert(0, self)
            if spec is None or spec.loader is None:
                return spec
            run = spec.loader.exec_module

            def exec_module(module, run=run):
                run(module)
                if isinstance(getattr(module, "socket", None), types.ModuleType):
                    windows = types.ModuleType("socket")
                    windows.__dict__.update((k, v) for k, v in vars(socket).items() if k != "AF_UNIX")
                    module.socket = windows

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _NoUnixSockets())

if os.environ.get("STAND_IN_LOG"):
    with open(os.path.join(os.environ["STAND_IN_LOG"], str(os.getpid())), "w") as note:
        note.write(" ".join(sys.argv))
'''


@pytest.fixture
def stand_in(tmp_path: Path) -> dict[str, str]:
    """The environment of a process that runs under the stand-in (its sitecustomize first on the path)."""
    folder = tmp_path / "stand-in"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(STAND_IN)
    log = tmp_path / "stand-in-log"
    log.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KNIGHT_FAULT", "PYTHONPATH"))}
    env.update(PYTHONPATH=str(folder), STAND_IN_LOG=str(log), PYTHONDONTWRITEBYTECODE="1")
    return env


def python(env: dict[str, str], code: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


@linux_only
def test_the_stand_in_takes_the_posix_names_away(stand_in: dict[str, str], tmp_path: Path) -> None:
    probe = python(
        stand_in,
        """
        import ctypes, ctypes.util, importlib, multiprocessing, os
        try:
            importlib.import_module("fcntl")
            print("fcntl imported")
        except ImportError:
            print("no fcntl")
        print(sorted(name for name in ("O_NOFOLLOW", "O_DIRECTORY", "O_NONBLOCK", "fork") if hasattr(os, name)))
        print(multiprocessing.get_all_start_methods(), bool(os.supports_dir_fd))
        print(hasattr(ctypes.CDLL(ctypes.util.find_library("c")), "prctl"))
        from knight.runner.pool import _death_signal, start_method
        print(start_method(), _death_signal())
        """,
        tmp_path,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split("\n")[:5] == ["no fcntl", "[]", "['spawn'] False", "False", "spawn False"]


@linux_only
def test_the_commands_run_without_the_posix_names(stand_in: dict[str, str], tmp_path: Path) -> None:
    """knight tour, check (0, and 1 for a tour cut short), grade (twice into one OUT), census 5, a frontier count
    in two shards, run (two spawned workers) and results, report --edition handout: each exits with its documented status, with the
    right output (tests/portable_smoke.py checks it)."""
    done = subprocess.run(
        [sys.executable, str(SMOKE), str(tmp_path / "smoke")],
        env=stand_in,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "portable smoke test passed"
    statuses = [line for line in done.stdout.splitlines() if line.startswith("knight ")]
    assert [line.rsplit(": exit ", 1)[1] for line in statuses] == ["0", "0", "0", "1"] + ["0"] * 7
    notes = [path.read_text() for path in Path(stand_in["STAND_IN_LOG"]).iterdir()]
    spawned = [note for note in notes if "multiprocessing" in note or "-c" in note.split()]
    assert len(notes) > 10 and spawned, notes  # the commands, and their spawned workers, all ran under it


@linux_only
def test_links_are_refused_without_o_nofollow(stand_in: dict[str, str], tmp_path: Path) -> None:
    """The fallbacks of the flags: a link is looked for before and after the open, never followed."""
    probe = python(
        stand_in,
        """
        import os
        from pathlib import Path
        from knight.errors import InvalidInput, Unreadable
        from knight import files
        from knight.grading.output import LOCK_NAME, Output
        from knight.report.render import _stamp
        from knight.store.known import _read_bounded

        assert not hasattr(os, "O_NOFOLLOW") and not files._OPENAT
        here = Path.cwd()
        (here / "secret.txt").write_text("1 2 3")
        (here / "link.txt").symlink_to(here / "secret.txt")
        results = []
        try:
            files.open_no_link(here / "link.txt", os.O_RDONLY)
        except OSError as error:
            results.append(f"open_no_link: {error.errno == 40}")
        try:
            files.read_regular(here / "link.txt", 100, follow=False)
        except Unreadable as error:
            results.append("read_regular: refused")
        klass = here / "class"
        (klass / "sub").mkdir(parents=True)
        (klass / "sub" / "x.txt").write_text("1 2 3")
        (here / "outside").mkdir()
        (here / "outside" / "x.txt").write_text("secret")
        os.rename(klass / "sub", here / "moved")
        (klass / "sub").symlink_to(here / "outside")  # a folder on the way swapped for a link
        try:
            files.read_regular(klass / "sub" / "x.txt", 100, within=klass)
        except Unreadable as error:
            results.append("within: refused")
        out = here / "out"
        out.mkdir()
        (out / LOCK_NAME).symlink_to(here / "secret.txt")
        try:
            with Output(out):
                pass
        except InvalidInput as error:
            results.append("lock: " + ("link" in str(error)).__str__())
        (out / LOCK_NAME).unlink()
        victim = here / "victim.txt"
        victim.write_text("keep")
        (out / "page.html").symlink_to(victim)
        with Output(out) as output:
            output.write("page.html", "new")
        results.append(f"write: {victim.read_text()} {(out / 'page.html').is_symlink()}")
        (here / "stamp").symlink_to(here / "secret.txt")
        results.append(f"stamp: {_stamp(here / 'stamp')!r}")
        try:
            _read_bounded(here / "link.txt")
        except OSError:
            results.append("known: refused")
        print("\\n".join(results))
        """,
        tmp_path,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines() == [
        "open_no_link: True",
        "read_regular: refused",
        "within: refused",
        "lock: True",
        "write: keep False",
        "stamp: ''",
        "known: refused",
    ]


@linux_only
def test_knight_run_without_unix_sockets(stand_in: dict[str, str], tmp_path: Path) -> None:
    """Windows' socket module has no AF_UNIX: knight run must not need it (the stand-in hides it from knight; the
    workers' log lines then travel as UDP datagrams on the loopback)."""
    (tmp_path / "smoke.toml").write_text(SLOW_JOB)
    env = {**stand_in, "STAND_IN_NO_AF_UNIX": "1"}
    runner = _knight_under(env, tmp_path / "store.sqlite", "", "run", "smoke.toml", "--workers", "2", "--json")
    out, err = runner.communicate(timeout=600)
    assert runner.returncode == 0, err[-3000:]
    assert json.loads(out)["ran"] == 25 + 36


HOLD = """
import sys, time
from pathlib import Path
from knight.grading.output import Output
with Output(Path(sys.argv[1])):
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
"""


@pytest.mark.parametrize("native", [pytest.param(False, marks=linux_only), True], ids=["stand-in", "native"])
def test_one_grader_per_out(native: bool, stand_in: dict[str, str], tmp_path: Path) -> None:
    """The system's own file lock holds OUT (flock on POSIX, LockFileEx on Windows); without any (the stand-in:
    no fcntl, and no Windows lock either) the lock file's process id holds it while that process lives. Either
    way a second grader stops with one line naming the first, and OUT is free again once the first has ended,
    even killed."""
    env = dict(os.environ) if native else stand_in
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(out), "60"], env=env, stdout=subprocess.PIPE, text=True, cwd=tmp_path
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        second = subprocess.run(
            [sys.executable, "-c", HOLD, str(out), "0"], env=env, capture_output=True, text=True, timeout=120
        )
        assert second.returncode != 0
        assert f"being written by another knight grade (process {holder.pid})" in second.stderr
    finally:
        holder.kill()
        holder.wait(timeout=30)
    third = subprocess.run(
        [sys.executable, "-c", HOLD, str(out), "0"], env=env, capture_output=True, text=True, timeout=120
    )
    assert third.returncode == 0 and third.stdout.strip() == "holding", third.stderr


def test_process_liveness_is_psutil_s(tmp_path: Path) -> None:
    """store/runs.py's alive: no os.kill(pid, 0) (Ctrl-C on Windows)."""
    from knight.store.runs import alive

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait(timeout=60)
    assert alive(os.getpid()) and not alive(child.pid) and not alive(-1) and not alive(2**40)


SLOW_JOB = """
name = "slow"
[[sweep]]
boards = [5, 6]
starts = "all"
method = "warnsdorff"
"""


def _knight_under(env: dict[str, str], store: Path, faults: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "knight", *args],
        env={**env, "KNIGHT_STORE": str(store), "KNIGHT_FAULT_INJECTION": faults},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=store.parent,
    )


@linux_only
def test_spawned_workers_end_with_their_runner_without_prctl(stand_in: dict[str, str], tmp_path: Path) -> None:
    """No death signal from the kernel: each worker's thread sees the runner gone and ends the worker, even in the
    middle of a task that sleeps a minute."""
    (tmp_path / "slow.toml").write_text(SLOW_JOB)
    runner = _knight_under(stand_in, tmp_path / "store.sqlite", "delay:60", "run", "slow.toml", "--workers", "2")
    try:
        deadline, workers = time.monotonic() + 120, []
        while time.monotonic() < deadline:
            workers = [
                p for p in psutil.Process(runner.pid).children() if "resource_tracker" not in " ".join(p.cmdline())
            ]
            if len(workers) >= 2:
                break
            time.sleep(0.2)
        time.sleep(8)  # spawned: each imports knight, then is inside its first task, which sleeps a minute
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=30)
        _, left = psutil.wait_procs(workers, timeout=10)
    finally:
        if runner.poll() is None:
            runner.kill()
        runner.communicate(timeout=30)
    assert len(workers) == 2 and left == []


@linux_only
def test_a_dead_spawned_worker_costs_only_its_task(stand_in: dict[str, str], tmp_path: Path) -> None:
    """The pool on spawned workers: a worker killed on a task, the task retried, every result stored."""
    (tmp_path / "slow.toml").write_text(SLOW_JOB)
    marker = tmp_path / "killed-once"
    store = tmp_path / "store.sqlite"
    runner = _knight_under(stand_in, store, f"kill:6x6:2,3:{marker}", "run", "slow.toml", "--workers", "2", "--json")
    out, err = runner.communicate(timeout=600)
    assert runner.returncode == 0, err[-3000:]
    assert marker.exists() and json.loads(out)["ran"] == 25 + 36
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT count(*) FROM tours").fetchone()[0] == 25 + 36


def test_no_symbolic_link_is_tracked_in_the_package() -> None:
    """knight/jobs was a link to jobs/: a Windows checkout or an sdist may not keep one."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-s", "knight", "jobs", "setup.py", "pyproject.toml"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    assert [line for line in listed.stdout.splitlines() if line.startswith("120000")] == []


def test_the_sdist_carries_the_job_files(tmp_path: Path) -> None:
    """MANIFEST.in grafts jobs/: a wheel built from the sdist copies them into knight/jobs/ (setup.py). Built from a
    copy of the sources (setuptools' sdist makes its tree in the folder it runs in)."""
    import shutil
    import tarfile

    source = tmp_path / "source"
    source.mkdir()
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    for folder in ("knight", "jobs"):
        shutil.copytree(REPO / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    built = subprocess.run(
        [sys.executable, "setup.py", "-q", "sdist", "--dist-dir", str(tmp_path / "dist")],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (sdist,) = (tmp_path / "dist").glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    jobs = {path.relative_to(REPO).as_posix() for path in (REPO / "jobs").rglob("*.toml")}
    assert jobs and jobs <= names
