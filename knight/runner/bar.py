"""The progress bar of a sweep on a terminal (rich's own columns), loaded only when one is drawn."""

from __future__ import annotations

import logging
from collections.abc import Callable

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

__all__ = ["REFRESH_PER_SECOND", "SPEED_ESTIMATE_SECONDS", "RateColumn", "BarReporter"]

#: How often the bar is redrawn, whether or not results came in.
REFRESH_PER_SECOND = 4
#: The window of past progress the rate and the time left are estimated from.
SPEED_ESTIMATE_SECONDS = 60.0


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

    def __init__(
        self, console: Console | None = None, get_time: Callable[[], float] | None = None, description: str = "sweep"
    ) -> None:
        self.console = console or Console(stderr=True)
        self.description = description
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
        self.task = self.progress.add_task(self.description, total=total)

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
