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

from knight.runner.progress import work_time_left

__all__ = ["REFRESH_PER_SECOND", "SPEED_ESTIMATE_SECONDS", "RateColumn", "TasksColumn", "TimeLeftColumn", "BarReporter"]

#: How often the bar is redrawn, whether or not results came in.
REFRESH_PER_SECOND = 4
#: The window of past progress the rate and the time left are estimated from.
SPEED_ESTIMATE_SECONDS = 60.0


class RateColumn(ProgressColumn):
    """Tasks per second, by rich's own estimate (over the last minute of samples) and its own formatting; for a
    bar counting work (``weighted``), tasks done over the time elapsed."""

    def render(self, task: Task) -> Text:
        if task.fields.get("weighted"):
            elapsed = task.elapsed or 0.0
            return TaskProgressColumn.render_speed(task.fields["done"] / elapsed if elapsed else None)
        return TaskProgressColumn.render_speed(task.finished_speed or task.speed)


class TasksColumn(MofNCompleteColumn):
    """Tasks done / tasks, also when the bar counts work (``weighted``)."""

    def render(self, task: Task) -> Text:
        if task.fields.get("weighted"):
            count = str(task.fields["count"])
            return Text(f"{task.fields['done']:>{len(count)}d}/{count}", style="progress.download")
        return super().render(task)


class TimeLeftColumn(TimeRemainingColumn):
    """rich's time left, but for a bar counting work (``weighted``): the time so far, scaled by the work left over
    the work done (:func:`~knight.runner.progress.work_time_left`), as the plain lines say."""

    def render(self, task: Task) -> Text:
        if task.fields.get("weighted") and not task.finished:
            left = work_time_left(task.elapsed or 0.0, task.completed, task.total or 0.0)
            minutes, seconds = divmod(int(left), 60) if left is not None else (0, 0)
            hours, minutes = divmod(minutes, 60)
            text = "-:--:--" if left is None else f"{hours:d}:{minutes:02d}:{seconds:02d}"
            return Text(text, style="progress.remaining")
        return super().render(task)


class BarReporter:
    """A rich progress bar on stderr: a spinner, done / total, percent, rate, elapsed and time left.

    Results arrive in chunks (the pool sends a chunk's results when the chunk is done), so the bar may
    not grow for a while; rich's own refresh thread redraws it several times a second all the same (the
    spinner turns, the elapsed time ticks), and the time left is rich's estimate from the chunks' arrival
    times over the last minute (``speed_estimate_period``), long enough to span several chunks.
    """

    def __init__(
        self,
        console: Console | None = None,
        get_time: Callable[[], float] | None = None,
        description: str = "sweep",
        *,
        verbose: bool = False,
    ) -> None:
        self.console = console or Console(stderr=True)
        self.description = description
        self.verbose = verbose
        self.progress = Progress(
            SpinnerColumn(),
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            TasksColumn(),
            TaskProgressColumn(),
            RateColumn(),
            TimeElapsedColumn(),
            TimeLeftColumn(elapsed_when_finished=True),
            console=self.console,
            refresh_per_second=REFRESH_PER_SECOND,
            speed_estimate_period=SPEED_ESTIMATE_SECONDS,
            get_time=get_time,
        )
        self.task: TaskID | None = None

    def start(self, total: int, work: float | None = None) -> None:
        """Show ``total`` tasks; the bar measures ``work`` when given (tasks of unequal cost), else tasks."""
        self.progress.start()
        self.task = self.progress.add_task(
            self.description, total=total if work is None else work, weighted=work is not None, done=0, count=total
        )

    def advance(self, count: int, work: float | None = None) -> None:
        assert self.task is not None, "start() comes first"
        task = self.progress.tasks[self.progress.task_ids.index(self.task)]
        weighted = task.fields["weighted"]
        self.progress.update(
            self.task,
            advance=(count if work is None else work) if weighted else count,
            done=task.fields["done"] + count,
        )

    def time_left(self) -> float | None:
        """The seconds left, as the bar shows them (None before any estimate)."""
        assert self.task is not None, "start() comes first"
        task = self.progress.tasks[self.progress.task_ids.index(self.task)]
        if task.fields["weighted"]:
            return work_time_left(task.elapsed or 0.0, task.completed, task.total or 0.0)
        return task.time_remaining

    def finish(self) -> None:
        self.progress.stop()

    def log_handler(self) -> logging.Handler:
        """Log lines printed above the bar: warnings and errors, or every line when verbose (``-v``), as when the
        output is not a terminal (a terminal showed every INFO line with its process id before)."""
        handler = RichHandler(console=self.console, show_path=False, markup=False)
        handler.setFormatter(logging.Formatter("%(processName)s[%(process)d] %(name)s: %(message)s"))
        if not self.verbose:  # a filter, not a level: see knight.runner.progress._log_handler
            handler.addFilter(lambda record: record.levelno >= logging.WARNING)
        return handler
