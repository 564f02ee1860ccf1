"""Send a sweep's tasks to a Dask distributed cluster (the optional extra ``knights-tour-lab[dask]``).

A scheduler's address is checked before it is used (:func:`scheduler_address`), and reaching it is bounded:
the connection and the scheduler's first reply each come within :func:`connect_timeout` seconds, or the run
stops with one line. A scheduler lost mid-run stops the run the same way, what finished being stored.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import re
from collections.abc import Generator, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypedDict
from urllib.parse import urlsplit

from knight.engine import InvalidInput
from knight.errors import MissingExtra
from knight.runner.executors import Claim
from knight.runner.pool import MAX_ATTEMPTS, chunk_size
from knight.runner.work import run_chunk
from knight.tasks import Failure, FailureCause, Task, TaskResult

if TYPE_CHECKING:
    import ssl

__all__ = [
    "SCHEMES",
    "TIMEOUT_VARIABLE",
    "DEFAULT_TIMEOUT",
    "MAX_TIMEOUT",
    "DaskExecutor",
    "scheduler_address",
    "connect_timeout",
    "connect",
]

log = logging.getLogger("knight.runner.dask")

#: The address schemes a scheduler is reached by (tls:// with Dask's own TLS settings).
SCHEMES = ("tcp", "tls")
#: The environment variable that sets how long reaching the scheduler may take, in seconds.
TIMEOUT_VARIABLE = "KNIGHT_DASK_TIMEOUT"
DEFAULT_TIMEOUT = 10.0
#: A longer wait is a mistake (minutes typed as seconds), not patience.
MAX_TIMEOUT = 3600.0
#: The loggers of Dask's own machinery, silenced once the scheduler is lost (they log every retry, with tracebacks).
_DASK_LOGGERS = ("distributed", "tornado", "asyncio")


_LABEL = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?")


def scheduler_address(text: str) -> str:
    """``text`` if it is a scheduler address ``tcp://HOST:PORT`` (or ``tls://``), the port in 1..65535;
    :class:`InvalidInput` saying what is wrong otherwise. Nothing is contacted.

    >>> scheduler_address("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    """
    shape = "--scheduler takes tcp://HOST:PORT (or tls://HOST:PORT), e.g. tcp://127.0.0.1:8786"
    scheme, sep, _ = text.partition("://")
    if not sep or scheme not in SCHEMES:
        raise InvalidInput(f"{shape}; got {text!r}")
    try:
        parts = urlsplit(text)
    except ValueError:  # an unclosed IPv6 bracket
        raise InvalidInput(f"{shape}; got {text!r}") from None
    try:
        port = parts.port
    except ValueError:  # not a number, or past 65535
        port = -1
    if port is None or not 1 <= port <= 65535:
        raise InvalidInput(f"{shape}; the port must be a number in 1..65535, got {text!r}")
    if not parts.hostname:
        raise InvalidInput(f"{shape}; the host is missing in {text!r}")
    if parts.path or parts.query or parts.fragment or parts.username or any(char.isspace() for char in text):
        raise InvalidInput(f"{shape}, nothing else; got {text!r}")
    if not _host_name(parts.hostname):
        raise InvalidInput(f"{shape}; {parts.hostname!r} is not a host name or an IP address")
    return text


def _host_name(host: str) -> bool:
    """True for an IP address or a name the resolver takes (labels of 1-63 characters, 253 in all)."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    try:
        ascii_name = host.encode("idna").decode("ascii")  # a label past 63 characters fails here
    except UnicodeError:
        return False
    labels = ascii_name.rstrip(".").split(".")
    return len(ascii_name) <= 253 and all(_LABEL.fullmatch(label) for label in labels)


def connect_timeout() -> float:
    """Seconds that connecting to the scheduler, and then its first reply, may each take: ``$KNIGHT_DASK_TIMEOUT``
    (default 10); :class:`InvalidInput` when it is not a number of seconds above 0 and at most an hour."""
    text = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds <= MAX_TIMEOUT:  # NaN fails too
        raise InvalidInput(
            f"${TIMEOUT_VARIABLE} must be a number of seconds above 0 and at most {MAX_TIMEOUT:.0f}, got {text!r}"
        )
    return seconds


class DaskExecutor:
    """Runs chunks of tasks on the cluster whose scheduler is at ``address`` (``tcp://HOST:PORT``),
    or, with no address, on a local cluster of ``workers`` processes started for the run.

    An :class:`~knight.runner.executors.Executor`. Dask retries a chunk whose worker died (``retries``); a chunk that still fails is recorded as
    failed, task by task, with the cluster's reason. A scheduler lost mid-run stops the run
    (:class:`InvalidInput`, one line): the chunks it had not returned are left for the next run.
    """

    def __init__(
        self, address: str | None, workers: int, max_attempts: int = MAX_ATTEMPTS, timeout: float | None = None
    ) -> None:
        self.address = None if address is None else scheduler_address(address)
        self.workers = workers
        self.max_attempts = max_attempts
        self.timeout = connect_timeout() if timeout is None else timeout
        self.lost = False  # the scheduler was lost mid-run

    def prepare(self, tasks: list[Task]) -> None:
        """Nothing to prepare here: the cluster's workers load the kernels themselves."""

    def results(
        self, tasks: list[Task], claim: Claim, weights: Mapping[str, float] | None = None
    ) -> Generator[list[TaskResult]]:
        """Claim ``tasks`` all at once (the cluster takes them together), run those granted on the cluster, and
        yield each chunk's results as it finishes (``weights`` are not used: Dask watches its own workers)."""
        claimed = claim(tasks)
        if not claimed:
            return
        try:
            from distributed import Client, LocalCluster, as_completed
        except ModuleNotFoundError as error:
            raise MissingExtra("Dask", "dask", "--executor dask") from error
        cluster = None
        if self.address:
            client = self._connect(Client)
        else:
            # Its HTTP server on a free port (None means 8787, and a warning when another run has it); no dashboard.
            cluster = LocalCluster(
                n_workers=self.workers,
                threads_per_worker=1,
                dashboard_address=":0",
                scheduler_kwargs={"dashboard": False},
            )
            client = Client(cluster)
        self.lost = False
        try:
            size = chunk_size(len(claimed), max(1, sum(client.nthreads().values())))
            chunks = [claimed[i : i + size] for i in range(0, len(claimed), size)]
            futures = client.map(run_chunk, chunks, pure=False, retries=self.max_attempts - 1)
            chunk_of = {future.key: chunk for future, chunk in zip(futures, chunks)}
            log.info("sent %d tasks in %d chunks to %s", len(claimed), len(chunks), client.scheduler.address)
            for future in as_completed(futures, loop=client.loop):
                yield self._chunk_results(future, chunk_of[future.key], client)
        finally:
            with _silenced(self.lost):  # a lost scheduler: the client's reconnection attempts log a traceback each
                client.close(timeout=self.timeout)
                if cluster is not None:
                    cluster.close()

    def _chunk_results(self, future: Any, chunk: list[Task], client: Any) -> list[TaskResult]:
        """A finished chunk's results, or each of its tasks failed with the cluster's reason; :class:`InvalidInput`
        when the scheduler is lost."""
        try:
            results: list[TaskResult] = future.result()
        except Exception as error:  # noqa: BLE001 - e.g. KilledWorker: recorded, not lost
            if self.address and _scheduler_lost(error, client):
                self.lost = True
                raise InvalidInput(
                    f"lost the Dask scheduler at {self.address} mid-run ({type(error).__name__}); "
                    "what finished is stored: run again to do the rest"
                ) from None
            reason = f"dask: {type(error).__name__}: {error}"
            log.error("chunk of %d tasks failed: %s", len(chunk), reason)
            lost = Failure(FailureCause.WORKER_LOST, reason)
            results = [TaskResult.failed(t, lost, self.max_attempts) for t in chunk]
        return results

    def _connect(self, client_type: Any) -> Any:
        """A client of the scheduler at :attr:`address`, after its first reply came within :attr:`timeout`."""
        import dask
        from distributed.security import Security

        address = str(self.address)
        security = Security()  # Dask's TLS settings, from its configuration
        arguments: ConnectionArgs = security.get_connection_args("client")
        if address.startswith("tls://") and arguments.get("ssl_context") is None:
            raise InvalidInput(
                f"{address} needs Dask's TLS settings (distributed.comm.tls.ca-file, .client.cert and .client.key "
                "in the Dask configuration); set them, or give a tcp:// address"
            )
        _identify(address, self.timeout, arguments)
        # Dask's own connection is bounded too; the reply above shows a scheduler is there to answer it.
        with dask.config.set({"distributed.comm.timeouts.connect": f"{self.timeout}s"}):
            try:
                return client_type(address, timeout=f"{self.timeout}s", security=security, set_as_default=False)
            except (OSError, TimeoutError) as error:
                raise InvalidInput(f"cannot reach the Dask scheduler at {address}: {error}; {_ADVICE}") from None


_ADVICE = "start one with `dask scheduler`, check the address, or drop --scheduler"


def connect(address: str) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, checked and reached as :class:`DaskExecutor` reaches
    it (:func:`scheduler_address`, :func:`connect_timeout`): :class:`InvalidInput` in one line when it cannot be,
    :class:`MissingExtra` without Dask. The caller closes it."""
    try:
        from distributed import Client
    except ModuleNotFoundError as error:
        raise MissingExtra("Dask", "dask", "--scheduler") from error
    return DaskExecutor(address, workers=0)._connect(Client)


class ConnectionArgs(TypedDict):
    """How a client connects, as Dask's ``Security.get_connection_args("client")`` gives it: passed to its comm."""

    ssl_context: ssl.SSLContext | None
    require_encryption: bool | None
    extra_conn_args: dict[str, object]  # the comm's own, passed on unread


def _identify(address: str, timeout: float, arguments: ConnectionArgs) -> None:
    """Connect to ``address`` and ask who answers, each step within ``timeout`` seconds; :class:`InvalidInput`
    in one line unless a Dask scheduler does. Run on a thread of its own: the caller may be in an event loop."""
    parts = urlsplit(address)
    with ThreadPoolExecutor(1, thread_name_prefix="knight-dask-probe") as thread:
        outcome = thread.submit(
            asyncio.run, _ask(address, str(parts.hostname), int(parts.port or 0), timeout, arguments)
        )
        answer = outcome.result()
    if isinstance(answer, str):
        raise InvalidInput(answer)


async def _ask(address: str, host: str, port: int, timeout: float, arguments: ConnectionArgs) -> str | None:
    """None when a Dask scheduler answers at ``address`` within ``timeout`` seconds in all; else why not, in a
    sentence that says what to do."""
    from distributed.comm import connect

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout

    def left() -> float:
        return max(deadline - loop.time(), 0.001)

    try:  # a plain connection first: refused or unknown at once, not after Dask's retries
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), left())
        writer.close()
    except OSError as error:  # TimeoutError too
        why = f"no connection within {timeout:g} s" if isinstance(error, TimeoutError) else str(error)
        return f"cannot reach the Dask scheduler at {address}: {why}; {_ADVICE}"
    not_dask = f"something answers at {address}, but not as a Dask scheduler"
    comm = None
    try:
        comm = await asyncio.wait_for(connect(address, timeout=left(), **arguments), left())
        await asyncio.wait_for(comm.write({"op": "identity", "reply": True}), left())
        reply = await asyncio.wait_for(comm.read(), left())
    except TimeoutError:
        return (
            f"{not_dask} (no {'reply' if comm else 'Dask handshake'} within {timeout:g} s); check the address, "
            f"or give a slow network more time with ${TIMEOUT_VARIABLE}"
        )
    except Exception as error:  # noqa: BLE001 - garbage bytes can fail the decoding in any way (a 3 EiB frame)
        return f"{not_dask} ({type(error).__name__}); check the address"
    finally:
        if comm is not None:
            comm.abort()
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        kind = reply.get("type") if isinstance(reply, dict) else None
        return f"{not_dask}{f' (a Dask {kind})' if kind else ''}; give the scheduler's address"
    return None


def _scheduler_lost(error: BaseException, client: Any) -> bool:
    """Whether ``error`` (a chunk's) means the scheduler is gone, not that the chunk failed: the connection
    closed, or the client, reconnecting, cancelled its futures (a KilledWorker is the chunk's own failure)."""
    import concurrent.futures

    lost = (OSError, asyncio.CancelledError, concurrent.futures.CancelledError)  # CommClosedError is an OSError
    return isinstance(error, lost) or client.status != "running"


@contextmanager
def _silenced(quiet: bool) -> Iterator[None]:
    """Dask's loggers silenced while ``quiet`` (they are given back as they were)."""
    if not quiet:
        yield
        return
    names = [name for name in list(logging.root.manager.loggerDict) if name.split(".")[0] in _DASK_LOGGERS]
    loggers = [logging.getLogger(name) for name in names]
    before = [logger.disabled for logger in loggers]
    for logger in loggers:
        logger.disabled = True
    try:
        yield
    finally:
        for logger, disabled in zip(loggers, before):
            logger.disabled = disabled
