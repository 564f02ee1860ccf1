"""Progress of a sweep: a rich progress bar on a terminal, plain periodic lines otherwise."""

from __future__ import annotations

import logging
import sys
import time
from typing import Protocol, TextIO

from rich.console import Console
from rich.logging import RichHandler
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = ["Reporter", "BarReporter", "LineReporter", "reporter_for"]


class Reporter(Protocol):
    """Told how far a sweep has got."""

    def start(self, total: int) -> None: ...
    def advance(self, count: int) -> None: ...
    def finish(self) -> None: ...
    def log_handler(self) -> logging.Handler: ...


class BarReporter:
    """A rich progress bar: done / total, rate, elapsed and time left."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(stderr=True)
        self.progress = Progress(
            TextColumn("[bold]sweep"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=self.console,
            transient=False,
        )
        self.task: TaskID | None = None
        self.started = 0.0

    def start(self, total: int) -> None:
        self.started = time.monotonic()
        self.progress.start()
        self.task = self.progress.add_task("sweep", total=total, rate="")

    def advance(self, count: int) -> None:
        done = self.progress.tasks[0].completed + count
        rate = done / max(time.monotonic() - self.started, 1e-9)
        assert self.task is not None, "start() comes first"
        self.progress.update(self.task, advance=count, rate=f"{rate:,.0f} tasks/s")

    def finish(self) -> None:
        self.progress.stop()

    def log_handler(self) -> logging.Handler:
        """Log lines printed above the bar."""
        handler = RichHandler(console=self.console, show_path=False, markup=False)
        handler.setFormatter(logging.Formatter("%(processName)s[%(process)d] %(name)s: %(message)s"))
        return handler


class LineReporter:
    """One plain line every ``every`` seconds (and at the end): done / total, rate, time left."""

    def __init__(self, stream: TextIO | None = None, every: float = 5.0) -> None:
        self.stream = stream or sys.stderr
        self.every = every
        self.total = self.done = 0
        self.started = self.last = 0.0

    def start(self, total: int) -> None:
        self.total, self.done = total, 0
        self.started = self.last = time.monotonic()

    def advance(self, count: int) -> None:
        self.done += count
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self._line(now)

    def finish(self) -> None:
        self._line(time.monotonic())

    def log_handler(self) -> logging.Handler:
        """Log lines on the same stream as the progress lines."""
        return logging.StreamHandler(self.stream)

    def _line(self, now: float) -> None:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate else (0.0 if self.done >= self.total else float("nan"))
        percent = 100 * self.done / self.total if self.total else 100.0
        print(
            f"knight: {self.done}/{self.total} tasks ({percent:.0f}%), {rate:,.0f} tasks/s, "
            f"{elapsed:.1f} s elapsed, {left:.1f} s left",
            file=self.stream,
            flush=True,
        )


def reporter_for(stream: TextIO | None = None) -> Reporter:
    """A progress bar when ``stream`` (stderr by default) is a terminal, plain lines otherwise."""
    stream = stream or sys.stderr
    return BarReporter() if stream.isatty() else LineReporter(stream)
