"""Progress of a sweep: a rich progress bar on a terminal (:mod:`knight.runner.bar`, loaded only then), plain
periodic lines otherwise."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterable, Mapping
from typing import Protocol, TextIO

__all__ = [
    "Reporter",
    "WorkTracker",
    "work_time_left",
    "LineReporter",
    "SilentReporter",
    "reporter_for",
]


class Reporter(Protocol):
    """Told how far a sweep has got: tasks, and, for a run whose tasks differ in cost (a census), the work they
    weigh (``work``: :class:`WorkTracker`; None: each task weighs 1, and the rate is measured in tasks)."""

    def start(self, total: int, work: float | None = None) -> None: ...
    def advance(self, count: int, work: float | None = None) -> None: ...
    def finish(self) -> None: ...
    def log_handler(self) -> logging.Handler: ...


class WorkTracker:
    """The work a run has done, for its time left: the weights of its finished tasks, plus half of those of the
    tasks presumably running on the other workers as a result comes (the first ``workers - 1`` unfinished ones,
    in the order they are run; the worker that sent the result starts its next task).

    Without that half, the first results of a census that runs its heaviest units first (two workers, each on a
    unit of a quarter of the work) would say that one finished quarter took all the time so far: some four
    times the true time left. The estimate only grows (a finished task adds at least half its weight), and is 0
    until a task has finished (what runs before then is not known to run).

    >>> tracker = WorkTracker({"a": 3.0, "b": 1.0, "c": 1.0}, workers=2)
    >>> tracker.total, tracker.done, tracker.finish(["a"]), tracker.finish(["b", "c"])
    (5.0, 0.0, 3.5, 1.5)
    """

    def __init__(self, weights: Mapping[str, float], workers: int) -> None:
        self.weights = dict(weights)
        self.order = list(self.weights)
        self.running = max(workers - 1, 0)
        self.total = float(sum(self.weights.values()))
        self.finished: set[str] = set()
        self.finished_weight = 0.0
        self.next = 0  # the first task in order not finished
        self.done = self._estimate()

    def finish(self, keys: Iterable[str]) -> float:
        """Mark ``keys`` finished; return how much the work done grew."""
        for key in keys:
            if key in self.weights and key not in self.finished:
                self.finished.add(key)
                self.finished_weight += self.weights[key]
        before, self.done = self.done, self._estimate()
        return self.done - before

    def _estimate(self) -> float:
        if not self.finished:
            return 0.0
        while self.next < len(self.order) and self.order[self.next] in self.finished:
            self.next += 1
        running, index = 0.0, self.next
        for _ in range(self.running):
            while index < len(self.order) and self.order[index] in self.finished:
                index += 1
            if index == len(self.order):
                break
            running += self.weights[self.order[index]]
            index += 1
        return self.finished_weight + running / 2


def work_time_left(elapsed: float, done: float, total: float) -> float | None:
    """Seconds left when ``done`` of ``total`` work took ``elapsed`` seconds (None before any is done)."""
    if done >= total:
        return 0.0
    return elapsed * (total - done) / done if done > 0 else None


class LineReporter:
    """One plain line every ``every`` seconds (and at the end): done / total, rate, time left.

    The rate, and so the time left, is measured from the first result on, as rich's bar measures it: the
    workers' start (a pool, the kernels loaded) comes before any result and not again, so counted in it
    made the time left at a tenth of ``knight run homework-8`` some ten times too long. A run told the work of
    its tasks (a census: :class:`WorkTracker`) measures the time left by that work, from its start: its units
    differ in cost a thousand-fold, so their count says little, and the first result comes late."""

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
        self.work: float | None = None  # the work done, when the run weighs its tasks
        self.work_total = 0.0

    def start(self, total: int, work: float | None = None) -> None:
        self.total, self.done = total, 0
        self.work, self.work_total = (None, 0.0) if work is None else (0.0, work)
        self.started = self.last = time.monotonic()
        self.first = None

    def advance(self, count: int, work: float | None = None) -> None:
        self.done += count
        if self.work is not None:
            self.work += count if work is None else work
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
        if self.work is not None:
            left = work_time_left(now - self.started, self.work, self.work_total)
            return float("nan") if left is None else left
        rate = self.rate(now)
        return (self.total - self.done) / rate if rate else float("nan")

    def _line(self, now: float) -> None:
        elapsed = max(now - self.started, 1e-9)
        part = (self.work / self.work_total) if self.work is not None and self.work_total else None
        percent = 100 * (self.done / self.total if part is None else part) if self.total else 100.0
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

    def start(self, total: int, work: float | None = None) -> None:
        pass

    def advance(self, count: int, work: float | None = None) -> None:
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

        return BarReporter(description="sweep" if noun == "tasks" else noun, verbose=verbose)
    return LineReporter(stream, noun=noun, verbose=verbose)
