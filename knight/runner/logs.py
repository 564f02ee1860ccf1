"""Logging for a run: every worker's lines go to one stream, each naming its process.

With the fork start method the workers' records go through multiprocessing-logging (its
handler forwards them over a queue to the parent, which writes them). The parent's own records
are written directly, never through that queue: a worker killed while it holds the queue's write
lock (SIGKILL, the out-of-memory killer) would otherwise block the parent's writes and hang its
exit, where Python waits for the queue's feeder thread. That package refuses
any start method but fork, and Python 3.14 no longer defaults to fork on Linux; where fork
is not available the standard library's QueueHandler/QueueListener do the same work. Either
way logging never stops a run.
"""

from __future__ import annotations

import logging
import logging.handlers
import multiprocessing
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from queue import Empty

import multiprocessing_logging

__all__ = ["FORMAT", "run_logging"]

#: How often the log receiver looks whether the run has closed it.
_POLL_SECONDS = 0.02

FORMAT = "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(name)s: %(message)s"


@contextmanager
def run_logging(
    verbose: bool, handler: logging.Handler | None = None, method: str = "fork"
) -> Iterator[Callable[[], None] | None]:
    """Send the ``knight`` loggers' records, the workers' included, to ``handler`` (stderr by default)
    for the duration of a run. Yields the setup each worker must call (None when fork makes it
    unnecessary)."""
    handler = handler or logging.StreamHandler()
    if handler.formatter is None:
        handler.setFormatter(logging.Formatter(FORMAT))
    logger = logging.getLogger("knight")
    saved = (logger.level, logger.propagate, list(logger.handlers))
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.propagate = False
    for old in saved[2]:
        logger.removeHandler(old)
    try:
        if method == "fork" and _fork_is_default():
            logger.addHandler(_RunnerWritesDirectly(handler))
            try:
                yield None
            finally:
                for wrapped in list(logger.handlers):
                    logger.removeHandler(wrapped)
                    wrapped.close()
        else:
            yield from _queue_logging(logger, handler, method)
    finally:
        logger.handlers.clear()
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
        for old in saved[2]:
            logger.addHandler(old)


class _RunnerWritesDirectly(multiprocessing_logging.MultiProcessingHandler):  # type: ignore[misc]
    """multiprocessing-logging's handler, but the records of the process that made it (the runner)
    go straight to the wrapped handler instead of through the queue."""

    def __init__(self, sub_handler: logging.Handler) -> None:
        super().__init__("knight-log", sub_handler=sub_handler)
        self._runner = os.getpid()

    def _send(self, record: logging.LogRecord) -> None:
        if os.getpid() == self._runner:
            self.sub_handler.handle(record)
        else:
            super()._send(record)

    def _receive(self) -> None:
        """Write the workers' records until :meth:`close`. The package's own loop is this one, looking for the
        close every 0.2 s, which added up to that to the end of every run; here every 0.02 s. (Waking it by
        sending something would be sooner, but the runner never writes to the queue: see the module.)"""
        while not (self._is_closed and self.queue.qsize() == 0):
            try:
                self.sub_handler.emit(self.queue.get(timeout=_POLL_SECONDS))
            except Empty:
                continue
            except (EOFError, OSError):  # the queue is gone
                break
        self.queue.close()
        self.queue.join_thread()


def _fork_is_default() -> bool:
    """True when multiprocessing's default start method is fork (setting it, if nothing has)."""
    if multiprocessing.get_start_method(allow_none=True) is None:
        try:
            multiprocessing.set_start_method("fork")
        except (RuntimeError, ValueError):
            return False
    return multiprocessing.get_start_method() == "fork"


def _queue_logging(
    logger: logging.Logger, handler: logging.Handler, method: str
) -> Iterator[Callable[[], None] | None]:
    queue = multiprocessing.get_context(method).Queue()
    listener = logging.handlers.QueueListener(queue, handler, respect_handler_level=True)
    logger.addHandler(handler)
    listener.start()
    try:
        yield _WorkerSetup(queue, logger.level)
    finally:
        listener.stop()


class _WorkerSetup:
    """Picklable worker setup for the queue fallback: route the worker's ``knight`` records to the queue."""

    def __init__(self, queue: object, level: int) -> None:
        self.queue, self.level = queue, level

    def __call__(self) -> None:
        logger = logging.getLogger("knight")
        logger.handlers.clear()
        logger.addHandler(logging.handlers.QueueHandler(self.queue))  # type: ignore[arg-type]
        logger.setLevel(self.level)
        logger.propagate = False
