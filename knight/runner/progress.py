"""Progress of a sweep: a rich progress bar on a terminal (:mod:`knight.runner.bar`, loaded only then), plain
periodic lines otherwise."""

from __future__ import annotations

import logging
import sys
import time
from typing import Protocol, TextIO

__all__ = [
    "Reporter",
    "LineReporter",
    "SilentReporter",
    "reporter_for",
]


class Reporter(Protocol):
    """Told how far a sweep has got."""

    def start(self, total: int) -> None: ...
    def advance(self, count: int) -> None: ...
    def finish(self) -> None: ...
    def log_handler(self) -> logging.Handler: ...


class LineReporter:
    """One plain line every ``every`` seconds (and at the end): done / total, rate, time left."""

    def __init__(self, stream: TextIO | None = None, every: float = 5.0, noun: str = "tasks") -> None:
        self.stream = stream or sys.stderr
        self.every = every
        self.noun = noun  # what is counted: tasks, or squares (knight starts)
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
            f"knight: {self.done}/{self.total} {self.noun} ({percent:.0f}%), {rate:,.0f} {self.noun}/s, "
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


def reporter_for(
    stream: TextIO | None = None, *, quiet: bool = False, verbose: bool = False, noun: str = "tasks"
) -> Reporter:
    """No progress when ``quiet`` (nor log lines below warnings, unless ``verbose``); else a progress bar when ``stream`` (stderr by default) is a terminal, plain
    lines otherwise, counting ``noun``."""
    stream = stream or sys.stderr
    if quiet:
        return SilentReporter(stream, verbose=verbose)
    if stream.isatty():
        from knight.runner.bar import BarReporter

        return BarReporter(description="sweep" if noun == "tasks" else noun)
    return LineReporter(stream, noun=noun)
