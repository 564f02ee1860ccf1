"""Helpers for the runner tests: job files, the `knight` command in a subprocess, the store read directly."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def write_job(directory: Path, name: str, text: str) -> Path:
    """A job file named ``name``.toml holding ``text``."""
    path = directory / f"{name}.toml"
    path.write_text(text)
    return path


def knight_env(store: Path, faults: str = "") -> dict[str, str]:
    """The environment for a `knight` subprocess on ``store``, with fault injection ``faults`` (or none)."""
    env = {k: v for k, v in os.environ.items() if k != "KNIGHT_FAULT_INJECTION"}
    env["KNIGHT_STORE"] = str(store)
    if faults:
        env["KNIGHT_FAULT_INJECTION"] = faults
    return env


def start_knight(args: list[str], store: Path, faults: str = "") -> subprocess.Popen:
    """`knight ARGS` in its own session (so the test can end it and its workers), output captured."""
    return subprocess.Popen(
        [sys.executable, "-m", "knight", *args],
        env=knight_env(store, faults),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def knight(args: list[str], store: Path, faults: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `knight ARGS` to the end."""
    return subprocess.run(
        [sys.executable, "-m", "knight", *args],
        env=knight_env(store, faults),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def stored_results(store: Path) -> int:
    """How many tasks have an outcome in ``store`` (0 while it does not exist yet)."""
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store, timeout=10) as db:
            return db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    except sqlite3.OperationalError:  # tables not created yet
        return 0


def wait_for_results(store: Path, at_least: int, process: subprocess.Popen, timeout: float = 60) -> int:
    """Wait until ``store`` holds ``at_least`` results; fail if ``process`` ends first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        count = stored_results(store)
        if count >= at_least:
            return count
        assert process.poll() is None, f"knight ended early: {process.communicate()}"
        time.sleep(0.05)
    raise AssertionError(f"fewer than {at_least} results after {timeout} s")


def wait_until_knight_catches_signals(process: subprocess.Popen, timeout: float = 60) -> None:
    """Wait until ``process`` (a `knight` command) runs knight's own code: its entry point catches SIGTERM (Linux,
    where /proc shows the signals a process catches; elsewhere no wait). Before that the interpreter is still
    starting, and an interruption there is Python's own: a traceback, or "Fatal Python error" while it imports
    its site module, which no code of knight's can catch (under load that takes longer than 0.3 s)."""
    status = Path(f"/proc/{process.pid}/status")
    if not status.exists():
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        caught = next((line.split()[1] for line in status.read_text().splitlines() if line.startswith("SigCgt:")), "0")
        if int(caught, 16) & (1 << (signal.SIGTERM - 1)):
            return
        time.sleep(0.005)
    raise AssertionError(f"knight did not start within {timeout} s (or ended first: {process.poll()})")


def end_session(process: subprocess.Popen) -> None:
    """Make sure a process the test started, and any worker it left, is gone."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


def summary(store: Path, job: str | None = None) -> list[dict]:
    """The tour rows of `knight results --json` on ``store``."""
    done = knight(["results", *([job] if job else []), "--json"], store)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["tours"]
