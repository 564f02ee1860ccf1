"""Fault injection for the fault-tolerance tests — never set in production.

The tests need a worker that dies mid-task and a sweep slow enough to interrupt. Rather than
put test branches in the task code, the worker reads one environment variable once, when it
starts; unset (always, outside the tests), it costs nothing.

``KNIGHT_FAULT_INJECTION`` holds semicolon-separated rules:

* ``kill:NxM:ROW,COL:MARKER`` — a task on the NxM board from (ROW, COL) kills its own worker
  with SIGKILL, once: it creates the file MARKER first, and does not kill when it exists.
  With MARKER ``always`` it kills every time (a task that keeps failing).
* ``stop:NxM:ROW,COL:MARKER`` — the same, but the worker stops itself (SIGSTOP) instead: a hung
  worker, which never dies by itself (the runner ends it: see ``KNIGHT_HUNG_AFTER``, knight/runner/pool.py).
  Once, as ``kill``; where there is no SIGSTOP (Windows) the task sleeps for a day instead.
* ``delay:SECONDS`` — every task sleeps SECONDS first (a slow sweep to interrupt).
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field

__all__ = ["ENVIRONMENT_VARIABLE", "Faults"]

ENVIRONMENT_VARIABLE = "KNIGHT_FAULT_INJECTION"


@dataclass
class Faults:
    """The faults this process injects, read from :data:`ENVIRONMENT_VARIABLE`."""

    kills: list[tuple[tuple[int, int], tuple[int, int], str]] = field(default_factory=list)
    stops: list[tuple[tuple[int, int], tuple[int, int], str]] = field(default_factory=list)
    delay: float = 0.0

    @classmethod
    def from_environment(cls) -> Faults:
        faults = cls()
        for rule in filter(None, os.environ.get(ENVIRONMENT_VARIABLE, "").split(";")):
            kind, _, rest = rule.partition(":")
            if kind == "delay":
                faults.delay = float(rest)
            elif kind in ("kill", "stop"):
                size, start, marker = rest.split(":", 2)
                n, m = (int(x) for x in size.split("x"))
                row, col = (int(x) for x in start.split(","))
                (faults.kills if kind == "kill" else faults.stops).append(((n, m), (row, col), marker))
            else:
                raise ValueError(f"{ENVIRONMENT_VARIABLE}: unknown rule {rule!r}; use kill:..., stop:... or delay:...")
        return faults

    def before_task(self, n: int, m: int, start: tuple[int, int]) -> None:
        """Inject the faults that apply to a task on the n x m board from ``start``."""
        if self.delay:
            time.sleep(self.delay)
        for size, square, marker in self.kills:
            if size == (n, m) and square == tuple(start) and _first_time(marker):
                os.kill(os.getpid(), signal.SIGKILL)
        for size, square, marker in self.stops:
            if size == (n, m) and square == tuple(start) and _first_time(marker):
                if hasattr(signal, "SIGSTOP"):
                    os.kill(os.getpid(), signal.SIGSTOP)
                else:
                    time.sleep(86400)


def _first_time(marker: str) -> bool:
    """Whether a fault marked by file ``marker`` is to be injected now: the first time (the file is made), or
    every time with marker ``always``."""
    if marker == "always":
        return True
    try:
        with open(marker, "x"):
            return True
    except FileExistsError:
        return False
