"""Progress of a sweep: a rich progress bar on a terminal, plain periodic lines otherwise."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from typing import Protocol, TextIO

from rich.console import Console
from rich.logging import RichHandler
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

__all__ = [
    "REFRESH_PER_SECOND",
    "SPEED_ESTIMATE_SECONDS",
    "Reporter",
    "RateColumn",
    "BarReporter",
    "LineReporter",
    "SilentReporter",
    "reporter_for",
]

#: How often the bar is redrawn, whether or not results came in.
REFRESH_PER_SECOND = 4
#: The window of past progress the rate and the time left are estimated from.
SPEED_ESTIMATE_SECONDS = 60.0


class Reporter(Protocol):
    """Told how far a sweep has got."""

    def start(self, total: int) -> None: ...
    def advance(self, count: int) -> None: ...
    def finish(self) -> None: ...
    def log_handler(self) -> logging.Handler: ...


class RateColumn(ProgressColumn):
    """Tasks per second, by rich's own estimate (over the last minute of samples) and its own formatting."""

    def render(self, task: Task) -> Text:
        return TaskProgressColumn.render_speed(task.finished_speed or task.speed)


class BarReporter:
    """A rich progress bar on stderr: a spinner, done / total, percent, rate, elapsed and time left.

    Results arrive in chunks (the pool sends a chunk's results when the chunk is done), so the bar may
    not grow for a while; rich's own refresh thread redraws it several times a second all the same (the
    spinner turns, the elapsed time ticks), and the time left is rich's estimate from the chunks' arrival
    times over the last minute (``speed_estimate_period``), long enough to span several chunks.
    """

    def __init__(self, console: Console | None = None, get_time: Callable[[], float] | None = None) -> None:
        self.console = console or Console(stderr=True)
        self.progress = Progress(
            SpinnerColumn(),
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            RateColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(elapsed_when_finished=True),
            console=self.console,
            refresh_per_second=REFRESH_PER_SECOND,
            speed_estimate_period=SPEED_ESTIMATE_SECONDS,
            get_time=get_time,
        )
        self.task: TaskID | None = None

    def start(self, total: int) -> None:
        self.progress.start()
        self.task = self.progress.add_task("sweep", total=total)

    def advance(self, count: int) -> None:
        assert self.task is not None, "start() comes first"
        self.progress.advance(self.task, count)

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


class SilentReporter:
    """No progress at all (``--quiet``): of the log, only warnings and errors go to ``stream``, unless
    ``verbose`` asks for every line."""

    def __init__(self, stream: TextIO | None = None, *, verbose: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.verbose = verbose

    def start(self, total: int) -> None:
        pass

    def advance(self, count: int) -> None:
        pass

    def finish(self) -> None:
        pass

    def log_handler(self) -> logging.Handler:
        """Log lines on ``stream``: warnings and errors, or every line when verbose."""
        handler = logging.StreamHandler(self.stream)
        handler.setLevel(logging.NOTSET if self.verbose else logging.WARNING)
        return handler


def reporter_for(stream: TextIO | None = None, *, quiet: bool = False, verbose: bool = False) -> Reporter:
    """No progress when ``quiet`` (nor log lines below warnings, unless ``verbose``); else a progress bar when ``stream`` (stderr by default) is a terminal, plain
    lines otherwise."""
    stream = stream or sys.stderr
    if quiet:
        return SilentReporter(stream, verbose=verbose)
    return BarReporter() if stream.isatty() else LineReporter(stream)
