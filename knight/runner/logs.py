"""Logging for a run: every worker's lines go to one stream, each naming its process.

The runner writes its own records directly. A worker sends each of its records to the runner as one
datagram on a Unix socket pair made for the run (pickled as the standard library's DatagramHandler
pickles them; where there are no Unix sockets, Windows, a pair of UDP sockets on the loopback, the runner
taking datagrams from its own sender's address only), and a thread of the runner writes them. A datagram is delivered whole or not at all,
and each worker sends its own: nothing is shared among the writers, so a worker killed at any moment
(SIGKILL, the out-of-memory killer) takes at most its own record with it. (A ``multiprocessing.Queue``
shares a write lock among its writers, which a worker killed as it wrote kept for good: every other
worker's records then stopped.) Forked workers inherit the handler, which knows the runner's pid; a
worker started by spawn installs it with the setup :func:`run_logging` yields. Either way logging never
stops a run.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import pickle
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["FORMAT", "run_logging"]

#: How often the log receiver looks whether the run has closed it.
_POLL_SECONDS = 0.02
#: The largest record a worker sends (a bigger one is cut to this size by the sender's socket, and lost; UDP's
#: datagrams, where there are no Unix sockets, hold 65,507 bytes at most).
_MAX_RECORD = 1 << 20

FORMAT = "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(name)s: %(message)s"


@contextmanager
def run_logging(
    verbose: bool, handler: logging.Handler | None = None, method: str = "fork"
) -> Iterator[Callable[[], None] | None]:
    """Send the ``knight`` loggers' records, the workers' included, to ``handler`` (stderr by default)
    for the duration of a run. Yields the setup each worker must call (None when the workers are
    forked, ``method``, and inherit it)."""
    handler = handler or logging.StreamHandler()
    if handler.formatter is None:
        handler.setFormatter(logging.Formatter(FORMAT))
    logger = logging.getLogger("knight")
    saved = (logger.level, logger.propagate, list(logger.handlers))
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.propagate = False
    for old in saved[2]:
        logger.removeHandler(old)
    receiving, sending, source = _channel()
    receiver = _Receiver(receiving, handler, source)
    logger.addHandler(_ToRunner(sending, os.getpid(), handler))
    receiver.start()
    try:
        yield None if method == "fork" else _WorkerSetup(sending, os.getpid(), logger.level)
    finally:
        receiver.close(sending)
        receiving.close()
        sending.close()
        logger.handlers.clear()
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
        for old in saved[2]:
            logger.addHandler(old)


def _channel() -> tuple[socket.socket, socket.socket, object]:
    """The run's log channel: (receiving, sending, the sender's address or None). A Unix datagram pair where there
    is one; else UDP on the loopback, whose receiver takes only what comes from the sender's own address (any
    local process may send to its port, and a record is unpickled)."""
    if hasattr(socket, "AF_UNIX"):
        receiving, sending = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        return receiving, sending, None
    receiving = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sending = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiving.bind(("127.0.0.1", 0))
    sending.bind(("127.0.0.1", 0))
    sending.connect(receiving.getsockname())
    return receiving, sending, sending.getsockname()


class _ToRunner(logging.handlers.DatagramHandler):
    """In the runner (process ``runner``), hands records to ``target``; in a worker, sends each one to the
    runner on ``channel``, pickled as DatagramHandler does."""

    def __init__(self, channel: socket.socket, runner: int, target: logging.Handler | None) -> None:
        super().__init__("", None)  # no address: the socket is given
        self.sock = channel
        self.runner, self.target = runner, target

    def emit(self, record: logging.LogRecord) -> None:
        if self.target is not None and os.getpid() == self.runner:
            self.target.handle(record)
        else:
            super().emit(record)

    def send(self, s: Buffer) -> None:
        if self.sock is not None:
            self.sock.send(s)

    def close(self) -> None:
        """Leave the socket open: the run owns it, and closes it when it ends."""
        logging.Handler.close(self)


class _Receiver(threading.Thread):
    """The runner's thread that writes the workers' records to ``handler`` until :meth:`close`."""

    def __init__(self, channel: socket.socket, handler: logging.Handler, source: object = None) -> None:
        super().__init__(name="knight-worker-logs", daemon=True)
        self.channel, self.handler, self.source = channel, handler, source
        self.closed = threading.Event()
        channel.settimeout(_POLL_SECONDS)

    def run(self) -> None:
        while True:
            closed = self.closed.is_set()  # read before the receive: a record sent before the close is still written
            try:
                data, sender = self.channel.recvfrom(_MAX_RECORD)
            except TimeoutError:
                if closed:
                    return
                continue
            except OSError:  # the socket is gone
                return
            if self.source is not None and sender != self.source:  # not the run's own sender: never unpickled
                continue
            if not data:  # the run's end (see close): every record sent before it has been read
                return
            try:
                record = logging.makeLogRecord(pickle.loads(data[4:]))  # after DatagramHandler's length prefix
            except Exception as error:  # noqa: BLE001 - a record cut short: say so, and go on with the next
                sys.stderr.write(f"knight: a worker's log line was lost ({type(error).__name__})\n")
                continue
            self.handler.handle(record)

    def close(self, sender: socket.socket) -> None:
        """Write what the workers have sent, then end (the run has stopped them). An empty datagram, queued after
        all theirs, ends the thread at once (it waited for its next poll, 20-40 ms of every run's end)."""
        self.closed.set()
        with suppress(OSError):  # not sent: the thread ends at its next poll
            sender.send(b"")
        self.join()


class _WorkerSetup:
    """Picklable worker setup for workers started by spawn: route the worker's ``knight`` records to the runner."""

    def __init__(self, channel: socket.socket, runner: int, level: int) -> None:
        self.channel, self.runner, self.level = channel, runner, level

    def __call__(self) -> None:
        logger = logging.getLogger("knight")
        logger.handlers.clear()
        logger.addHandler(_ToRunner(self.channel, self.runner, None))
        logger.setLevel(self.level)
        logger.propagate = False
