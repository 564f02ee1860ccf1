"""Logging for a run: every worker's lines go to one stream, each naming its process.

With the fork start method the workers' records go through multiprocessing-logging (its
handler forwards them over a queue to the parent, which writes them). The parent's own records
are written directly, never through that queue: a worker killed while it holds the queue's write
lock (SIGKILL, the out-of-memory killer) would otherwise block the parent's writes and hang its
exit, where Python waits for the queue's feeder thread; and when a worker is killed outright the pool releases
that lock if the dead worker held it (:func:`unblock_after_a_kill`), so that the other workers' records keep
coming and they exit without waiting on it. That package refuses
any start method but fork, and Python 3.14 no longer defaults to fork on Linux; where fork
is not available the standard library's QueueHandler/QueueListener do the same work. Either
way logging never stops a run.
"""

from __future__ import annotations

import logging
import logging.handlers
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from queue import Empty

import multiprocessing_logging

__all__ = ["FORMAT", "run_logging", "unblock_after_a_kill"]

#: How often the log receiver looks whether the run has closed it.
_POLL_SECONDS = 0.02
#: How long the log queue's write lock must stay held, with its pipe empty, after a worker was killed, before the
#: dead worker is taken to hold it. A live worker holds it while it writes a record, and longer only when the pipe
#: is full (the receiver behind): then it is left alone, for at most _GIVE_UP seconds.
_HELD_BY_THE_DEAD, _GIVE_UP = 1.0, 5.0

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
        """Write the workers' records until :meth:`close`, then what is left in the queue's pipe. The package's own
        loop looks for the close every 0.2 s, which added up to that to the end of every run; here every 0.02 s.
        (Waking it by sending something would be sooner, but the runner never writes to the queue: see the module.)

        Once closed, it stops when the pipe is empty: the run has stopped its workers by then, and each flushed its
        records as it exited. The package waits instead until the queue's count of records put is back to 0, which
        a worker killed before its records reached the pipe never lets happen: the run's end then waited for the
        package's 5-second timeout."""
        while True:
            closed = self._is_closed  # read before the get: a record in the pipe at the close is still written
            try:
                self.sub_handler.emit(self.queue.get(timeout=_POLL_SECONDS))
            except Empty:
                if closed:
                    break
            except (EOFError, OSError):  # the queue is gone
                break
            except Exception as error:  # noqa: BLE001 - a record garbled by a worker killed as it wrote it
                sys.stderr.write(f"knight: the workers' log lines from here on are lost ({type(error).__name__})\n")
                break
        self.queue.close()
        self.queue.join_thread()


def unblock_after_a_kill() -> bool:
    """After a worker was killed outright: if it died holding the log queue's write lock (killed as its records
    were being written), release the lock, so that the other workers' records get through again and they can
    exit without waiting on it. True when it did.

    The lock is taken to be the dead worker's when it stays held for :data:`_HELD_BY_THE_DEAD` seconds while the
    queue's pipe is empty: a live worker holds it longer than a write only while the pipe is full. (A record of up
    to 4 kB, as knight's are, is written in one ``write``, all or nothing, so the pipe then holds whole records.)
    """
    for handler in logging.getLogger("knight").handlers:
        if not isinstance(handler, _RunnerWritesDirectly):
            continue
        queue = handler.queue
        lock = getattr(queue, "_wlock", None)  # multiprocessing.Queue's, shared by the writing processes
        if lock is None:
            continue
        began = time.monotonic()
        while time.monotonic() - began < _GIVE_UP:
            if lock.acquire(timeout=0.1):
                lock.release()
                return False
            if time.monotonic() - began >= _HELD_BY_THE_DEAD and not queue._reader.poll():
                lock.release()
                return True
        return False
    return False


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
