"""The ``runs`` table: one row per ``knight run``, and whether a run that says it is running still is.

Each function writes inside the caller's transaction (:meth:`knight.store.Store.transaction`).
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time

__all__ = ["HOST", "alive", "begin", "end", "mark_dead_killed", "mark_killed"]

#: This machine, as a run and a claim name it: a process id means something only on its own host.
HOST = socket.gethostname()


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (on this machine; another user's process too). Asked through psutil:
    ``os.kill(pid, 0)``, the POSIX way, sends Ctrl-C on Windows."""
    import psutil  # lazily: only a run, a claim or a pool asks

    try:
        return bool(psutil.pid_exists(pid))
    except (OverflowError, ValueError):  # not a process id (negative, or too large)
        return False


def mark_dead_killed(db: sqlite3.Connection) -> None:
    """Mark ``killed`` the runs left ``running`` by a process of this host that is gone (killed outright);
    another host's run is left to the claims' timeout."""
    for run_id, pid, host in db.execute("SELECT id, pid, host FROM runs WHERE status = 'running'").fetchall():
        if host == HOST and not alive(pid):
            mark_killed(db, run_id)


def mark_killed(db: sqlite3.Connection, run_id: int) -> None:
    """Mark run ``run_id`` ``killed``, unless it has ended already."""
    db.execute("UPDATE runs SET status = 'killed' WHERE id = ? AND status = 'running'", (run_id,))


def begin(db: sqlite3.Connection, jobs: list[str], executor: str, workers: int) -> int:
    """Record a new run of this process; its id."""
    cursor = db.execute(
        "INSERT INTO runs (started, status, jobs, executor, workers, pid, host) VALUES (?, 'running', ?, ?, ?, ?, ?)",
        (time.time(), json.dumps(jobs), executor, workers, os.getpid(), HOST),
    )
    return int(cursor.lastrowid or 0)


def end(db: sqlite3.Connection, run_id: int, status: str, tasks_total: int, tasks_run: int) -> None:
    """Record how run ``run_id`` ended."""
    db.execute(
        "UPDATE runs SET finished = ?, status = ?, tasks_total = ?, tasks_run = ? WHERE id = ?",
        (time.time(), status, tasks_total, tasks_run, run_id),
    )
