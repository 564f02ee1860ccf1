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
    """One plain line every ``every`` seconds (and at the end): done / total, rate, time left.

    The rate, and so the time left, is measured from the first result on, as rich's bar measures it: the
    workers' start (a pool, the kernels loaded) comes before any result and not again, so counted in it
    made the time left at a tenth of ``knight run homework-8`` some ten times too long."""

    def __init__(
        self, stream: TextIO | None = None, every: float = 5.0, noun: str = "tasks", *, verbose: bool = False
    ) -> None:
        self.stream = stream or sys.stderr
        self.every = every
        self.noun = noun  # what is counted: tasks, or squares (knight starts)
        self.verbose = verbose
        self.total = self.done = 0
        self.started = self.last = 0.0
        self.first: tuple[float, int] | None = None  # when the first results came, and how many

    def start(self, total: int) -> None:
        self.total, self.done = total, 0
        self.started = self.last = time.monotonic()
        self.first = None

    def advance(self, count: int) -> None:
        self.done += count
        now = time.monotonic()
        if self.first is None:
            self.first = (now, self.done)
        if now - self.last >= self.every:
            self.last = now
            self._line(now)

    def finish(self) -> None:
        self._line(time.monotonic())

    def log_handler(self) -> logging.Handler:
        """Log lines on the same stream as the progress lines: warnings and errors, or every line when verbose
        (output piped or redirected carries no informational log lines without ``-v``)."""
        return _log_handler(self.stream, self.verbose)

    def rate(self, now: float) -> float:
        """Results a second since the first ones came (over the whole run until a second result comes)."""
        if self.first is not None and self.done > self.first[1] and now > self.first[0]:
            return (self.done - self.first[1]) / (now - self.first[0])
        return self.done / max(now - self.started, 1e-9)

    def time_left(self, now: float) -> float:
        """Seconds left at the current rate (0 when done, NaN before any result)."""
        if self.done >= self.total:
            return 0.0
        rate = self.rate(now)
        return (self.total - self.done) / rate if rate else float("nan")

    def _line(self, now: float) -> None:
        elapsed = max(now - self.started, 1e-9)
        percent = 100 * self.done / self.total if self.total else 100.0
        print(
            f"knight: {self.done}/{self.total} {self.noun} ({percent:.0f}%), {self.rate(now):,.0f} {self.noun}/s, "
            f"{elapsed:.1f} s elapsed, {self.time_left(now):.1f} s left",
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
        return _log_handler(self.stream, self.verbose)


def _log_handler(stream: TextIO, verbose: bool) -> logging.Handler:
    """A handler writing to ``stream``: warnings and errors, or every line when ``verbose``."""
    handler = logging.StreamHandler(stream)
    if not verbose:
        # A filter, not a level: the run's log receiver hands records to ``handle``, which applies the
        # handler's filters but not its level (a level is the logger's to check).
        handler.addFilter(lambda record: record.levelno >= logging.WARNING)
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
    return LineReporter(stream, noun=noun, verbose=verbose)
