"""The Dask executor on a local cluster gives the same results as the process pool; a scheduler's address is
checked before use, reaching it is bounded in time, and a scheduler lost mid-run ends the run in one line."""

from __future__ import annotations

import http.server
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings

import pytest
from distributed import LocalCluster
from runner_helpers import write_job

from knight.engine import InvalidInput
from knight.runner import load_job, run_jobs
from knight.runner.progress import LineReporter
from knight.store import Store

SWEEP = """
name = "on-dask"
[[sweep]]
boards = [5, 6]
starts = "all"
method = "warnsdorff"
params = { tie = ["first", "random"] }
repeats = 2

[[sweep]]
boards = [5]
starts = "corners"
method = "backtrack"
"""


def test_the_dask_executor_matches_the_process_pool(tmp_path):
    job = load_job(write_job(tmp_path, "on-dask", SWEEP))
    with Store(tmp_path / "pool.sqlite") as store:
        run_jobs([job], store, workers=2, reporter=LineReporter(io.StringIO()))
        expected = store.summary()
    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=":0"
    ) as cluster:
        with Store(tmp_path / "dask.sqlite") as store:
            run = run_jobs(
                [job],
                store,
                workers=2,
                executor="dask",
                scheduler=cluster.scheduler_address,
                reporter=LineReporter(io.StringIO()),
            )
            assert run.status == "done" and run.ran == len(job.tasks()) and run.failed == 0
            assert store.summary() == expected
            again = run_jobs(
                [job], store, executor="dask", scheduler=cluster.scheduler_address, reporter=LineReporter(io.StringIO())
            )
            assert again.ran == 0 and again.already_done == len(job.tasks())


def test_an_unreachable_scheduler_is_bad_input(tmp_path, capsys):
    import pytest

    from knight.cli import main

    job = write_job(tmp_path, "on-dask", SWEEP)
    with pytest.raises(SystemExit) as stop:
        main(
            [
                "run",
                str(job),
                "--executor",
                "dask",
                "--scheduler",
                "tcp://127.0.0.1:9",
                "--store",
                str(tmp_path / "s.sqlite"),
            ]
        )
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err


def _knight(capsys, *argv: str) -> tuple[int, str]:
    from knight.cli import main

    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    return stop.value.code, capsys.readouterr().err


@pytest.mark.parametrize(
    "address, expected",
    [
        ("not a url", "--scheduler takes tcp://HOST:PORT"),
        ("http://127.0.0.1:8786", "--scheduler takes tcp://HOST:PORT"),
        ("tcp://127.0.0.1", "the port must be a number in 1..65535"),
        ("tcp://127.0.0.1:0", "the port must be a number in 1..65535"),
        ("tcp://127.0.0.1:99999", "the port must be a number in 1..65535"),
        ("tcp://127.0.0.1:http", "the port must be a number in 1..65535"),
        ("tcp://:8786", "the host is missing"),
        ("tcp://127.0.0.1:8786/status", "nothing else"),
        ("", "--scheduler takes tcp://HOST:PORT"),
        ("tcp://[::1", "--scheduler takes tcp://HOST:PORT"),  # urlsplit's ValueError was a traceback
        ("tcp://" + "a" * 300 + ":1", "is not a host name"),  # the idna codec's UnicodeError was a traceback
        ("tcp://a..b:8786", "is not a host name"),
    ],
)
def test_a_malformed_scheduler_address_is_one_line_before_anything_runs(tmp_path, capsys, address, expected):
    job = write_job(tmp_path, "on-dask", SWEEP)
    status, err = _knight(
        capsys, "run", str(job), "--executor", "dask", "--scheduler", address, "--store", str(tmp_path / "s.sqlite")
    )
    assert status == 2 and expected in err and err.count("\n") == 1 and err.startswith("knight: error: ")
    assert not (tmp_path / "s.sqlite").exists()  # refused before the store was opened


@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan", "7200"])
def test_a_bad_timeout_is_one_line(tmp_path, capsys, monkeypatch, value):
    monkeypatch.setenv("KNIGHT_DASK_TIMEOUT", value)
    status, err = _knight(capsys, "census", "5", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:8786")
    assert status == 2 and "$KNIGHT_DASK_TIMEOUT must be a number of seconds" in err and err.count("\n") == 1


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # the server's own request log would land in stderr
        pass


def _http_server() -> int:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def _garbage_server() -> int:
    """A server that answers every connection with bytes that read as a frame of exabytes."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def answer() -> None:
        while True:
            connection, _ = listener.accept()
            connection.sendall(b"\xff" * 64 + b"not dask" * 16)

    threading.Thread(target=answer, daemon=True).start()
    return listener.getsockname()[1]


@pytest.mark.parametrize(
    "server, expected",
    [
        (_http_server, "but not as a Dask scheduler (no Dask handshake within 1 s)"),
        (_garbage_server, "but not as a Dask scheduler ("),
        (_free_port, "cannot reach the Dask scheduler at"),
    ],
)
def test_a_port_without_a_scheduler_is_one_line_within_the_timeout(tmp_path, capfd, monkeypatch, server, expected):
    monkeypatch.setenv("KNIGHT_DASK_TIMEOUT", "1")
    job = write_job(tmp_path, "on-dask", SWEEP)
    address = f"tcp://127.0.0.1:{server()}"
    started = time.monotonic()
    status, err = _knight(
        capfd, "run", str(job), "--executor", "dask", "--scheduler", address, "--store", str(tmp_path / "s"), "-q"
    )
    assert time.monotonic() - started < 5  # the timeout, and the run's start and end
    assert status == 2 and expected in err and address in err
    assert err.count("\n") == 1 and err.startswith("knight: error: ")


def test_a_dask_worker_is_not_taken_for_the_scheduler(tmp_path, capsys):
    job = write_job(tmp_path, "on-dask", SWEEP)
    with LocalCluster(n_workers=1, processes=False, protocol="tcp", dashboard_address=":0") as cluster:
        (worker,) = cluster.workers.values()
        status, err = _knight(
            capsys, "run", str(job), "--executor", "dask", "--scheduler", worker.address, "--store", str(tmp_path / "s")
        )
    assert status == 2 and "(a Dask Worker); give the scheduler's address" in err


CLUSTER = """
import sys, time
from distributed import LocalCluster
cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=":0")
print(cluster.scheduler_address, flush=True)
time.sleep(120)
"""


class _KillOnFirstResults(LineReporter):
    """Kills the cluster's process as the first chunk's results are stored: the scheduler dies mid-run."""

    def __init__(self, cluster: subprocess.Popen) -> None:
        super().__init__(io.StringIO())
        self.cluster = cluster

    def advance(self, count: int) -> None:
        super().advance(count)
        if self.cluster.poll() is None:
            os.kill(self.cluster.pid, signal.SIGKILL)
            self.cluster.wait()


def test_a_scheduler_lost_mid_run_ends_it_in_one_line_and_the_next_run_does_the_rest(tmp_path, capfd):
    job = load_job(write_job(tmp_path, "on-dask", SWEEP))
    cluster = subprocess.Popen(
        [sys.executable, "-c", CLUSTER], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        address = cluster.stdout.readline().strip()
        with Store(tmp_path / "s.sqlite") as store:
            with pytest.raises(InvalidInput, match="lost the Dask scheduler at .* mid-run") as lost:
                run_jobs([job], store, executor="dask", scheduler=address, reporter=_KillOnFirstResults(cluster))
            time.sleep(0.5)  # what Dask would log after the run, as the client's retries give up
            err = capfd.readouterr().err
            assert "\n" not in str(lost.value) and "run again" in str(lost.value)
            assert len(err.splitlines()) <= 5, err  # was thousands: a line per task, and Dask's tracebacks
            again = run_jobs([job], store, workers=1, reporter=LineReporter(io.StringIO()))
            assert again.failed == 0 and 0 < again.already_done < again.total  # no task stored as failed
            assert again.ran == again.total - again.already_done and again.status == "done"
    finally:
        cluster.kill()
        cluster.wait()


def test_a_tls_address_without_dask_tls_settings_is_one_line(tmp_path, capsys):
    job = write_job(tmp_path, "on-dask", SWEEP)
    argv = [
        "run",
        str(job),
        "--executor",
        "dask",
        "--scheduler",
        "tls://127.0.0.1:8786",
        "--store",
        str(tmp_path / "s"),
    ]
    status, err = _knight(capsys, *argv, "-q")
    assert status == 2 and "needs Dask's TLS settings" in err and err.count("\n") == 1


def test_a_run_on_its_own_cluster_takes_a_free_port_not_dasks_default(tmp_path):
    """Two runs on their own clusters at once: the second's would have warned that port 8787 was taken."""
    job = load_job(
        write_job(tmp_path, "own-cluster", '[[sweep]]\nboards = [5]\nstarts = "corners"\nmethod = "warnsdorff"\n')
    )
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        holder.bind(("0.0.0.0", 8787))  # dask's default port, as another run's cluster holds it
        holder.listen()
    except OSError:
        pass  # something else holds it already: the same situation
    try:
        with warnings.catch_warnings(record=True) as caught, Store(tmp_path / "s.sqlite") as store:
            warnings.simplefilter("always")
            run = run_jobs([job], store, workers=1, executor="dask", reporter=LineReporter(io.StringIO()))
            assert run.status == "done" and run.failed == 0 and run.ran == len(job.tasks())
    finally:
        holder.close()
    assert [str(each.message) for each in caught if issubclass(each.category, UserWarning)] == []
