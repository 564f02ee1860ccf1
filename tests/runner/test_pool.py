"""How the process pool cuts a sweep into chunks, and finds the chunks lost with a worker."""

from __future__ import annotations

import os

import pytest

from knight.runner.pool import MAX_CHUNK, MIN_CHUNK, chunk_size, split


@pytest.mark.parametrize("tasks, workers", [(10_240, 1), (10_240, 2), (1000, 2), (100, 4), (7, 2), (1, 1)])
def test_chunks_cover_the_tasks_in_order_and_shrink_towards_the_end(tasks, workers):
    items = list(range(tasks))
    chunks = split(items, workers)
    sizes = [len(chunk) for chunk in chunks]
    assert [task for chunk in chunks for task in chunk] == items
    assert max(sizes) == chunk_size(tasks, workers) <= MAX_CHUNK
    assert sizes == sorted(sizes, reverse=True)  # never a large chunk after a small one
    assert min(sizes[:-1] or sizes) >= min(MIN_CHUNK, chunk_size(tasks, workers))


def test_a_large_sweep_ends_in_chunks_small_enough_for_the_workers_to_finish_together():
    sizes = [len(chunk) for chunk in split(list(range(10_240)), 2)]
    assert sizes[0] == MAX_CHUNK and sizes[-2] == MIN_CHUNK
    assert sum(sizes[-4:]) <= 4 * MIN_CHUNK and sum(sizes[-8:]) <= 128  # about a hundred tasks, not 2,048
    assert len(sizes) <= 60  # and not many more chunks than that takes: each costs the runner two transactions


def _noting_worker_and_time(task):
    """A stand-in for run_task, run in the pool's workers: notes which worker ran the task and when."""
    import os
    import time

    from knight.tasks import Failure, FailureCause, TaskResult

    began = time.monotonic()
    time.sleep(0.3)
    return TaskResult.failed(task, Failure(FailureCause.ENGINE, f"{os.getpid()} {began} {time.monotonic()}"))


def test_each_of_two_big_tasks_gets_a_worker_of_its_own(monkeypatch):
    """Two one-task chunks on two workers run side by side, not one after the other on one worker."""
    import knight.runner.pool as pool_module
    from knight.tasks import Task

    monkeypatch.setattr(pool_module, "run_task", _noting_worker_and_time)
    tasks = [Task("warnsdorff", (("tie", "first"),), side, side, (0, 0)) for side in (40, 41)]
    results = []
    pool_module.ProcessPool(2, None).run(tasks, results.extend)
    assert sorted(r.key for r in results) == sorted(t.key for t in tasks)
    (pid_a, began_a, ended_a), (pid_b, began_b, ended_b) = (r.error.split() for r in results)
    assert pid_a != pid_b and float(began_a) < float(ended_b) and float(began_b) < float(ended_a)


def test_a_workers_log_lines_reach_the_runners_stream_and_the_logging_thread_ends_with_the_run():
    import io
    import logging
    import multiprocessing
    import threading

    from knight.runner.logs import run_logging

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the forwarding handler needs fork")  # pragma: no cover - Linux has it
    stream = io.StringIO()
    before = set(threading.enumerate())
    with run_logging(False, logging.StreamHandler(stream), "fork"):
        worker = multiprocessing.get_context("fork").Process(
            target=lambda: logging.getLogger("knight.test").warning("from the worker")
        )
        worker.start()
        worker.join()
        logging.getLogger("knight.test").warning("from the runner")
    lines = stream.getvalue().splitlines()
    assert any("from the worker" in line for line in lines) and any("from the runner" in line for line in lines)
    assert [thread for thread in threading.enumerate() if thread not in before] == []  # the receiver has ended


def test_workers_log_over_udp_where_there_are_no_unix_sockets(monkeypatch):
    """Windows has no AF_UNIX: the log channel is then UDP on the loopback, and the runner writes only what its own
    sender sent (a datagram from any other local socket is dropped, never unpickled)."""
    import io
    import logging
    import multiprocessing
    import pickle
    import socket

    from knight.runner import logs

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the test forks its worker")  # pragma: no cover - Linux has it
    monkeypatch.delattr(socket, "AF_UNIX")
    stream = io.StringIO()
    with logs.run_logging(False, logging.StreamHandler(stream), "fork"):
        receiver = next(h for h in logging.getLogger("knight").handlers if isinstance(h, logs._ToRunner))
        port = receiver.sock.getpeername()
        assert receiver.sock.family == socket.AF_INET and port[0] == "127.0.0.1"
        stranger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        forged = pickle.dumps({"msg": "forged", "levelno": logging.WARNING, "levelname": "WARNING", "name": "knight"})
        stranger.sendto(b"\0\0\0\0" + forged, port)
        stranger.close()
        worker = multiprocessing.get_context("fork").Process(
            target=lambda: logging.getLogger("knight.test").warning("from the worker")
        )
        worker.start()
        worker.join()
    assert "from the worker" in stream.getvalue() and "forged" not in stream.getvalue()


def _slow_second_worker_that_dies_on_its_second_chunk(marker, task):
    """A stand-in for run_task, run in the pool's workers: the task from (0, 1) takes 0.2 s, the task from (0, 3)
    kills its worker the first time (``marker``), every other task returns at once."""
    import os
    import signal
    import time

    from knight.tasks import Failure, FailureCause, TaskResult

    if task.start == (0, 1):
        time.sleep(0.2)
    if task.start == (0, 3):
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
            os.kill(os.getpid(), signal.SIGKILL)
        except FileExistsError:
            pass
    return TaskResult.failed(task, Failure(FailureCause.ENGINE, "stand-in"))


def test_a_worker_that_dies_just_after_sending_results_has_the_right_task_retried(tmp_path, monkeypatch):
    """The second worker sends its first chunk's results and dies on its second chunk while the runner is busy
    storing the first worker's: those results are taken first, so the task it died on is the one retried (and
    counted so), not the one at the same position of the chunk before."""
    import functools
    import time

    import knight.runner.pool as pool_module
    from knight.tasks import Task

    monkeypatch.setattr(
        pool_module, "run_task", functools.partial(_slow_second_worker_that_dies_on_its_second_chunk, tmp_path / "x")
    )
    tasks = [Task("warnsdorff", (("tie", "first"),), 5, 5, (0, col)) for col in range(5)]  # one chunk each
    stored: dict[tuple[int, int], int] = {}

    def on_results(results):
        if not stored:
            time.sleep(0.6)  # the runner busy with the first worker's results while the second sends and dies
        for result in results:
            start = next(task.start for task in tasks if task.key == result.key)
            assert start not in stored, f"the task from {start} ran twice"
            stored[start] = result.attempts

    pool_module.ProcessPool(2, None).run(tasks, on_results)
    assert (tmp_path / "x").exists()  # the second worker was killed
    assert stored == {(0, 0): 1, (0, 1): 1, (0, 2): 1, (0, 3): 2, (0, 4): 1}


def test_the_logging_thread_ends_with_the_run_without_waiting_for_its_next_poll(monkeypatch):
    """The run's end wakes the receiver (an empty datagram after every record): with a poll of a minute, the run
    still ends at once, and a record sent just before the end is written."""
    import io
    import logging
    import multiprocessing
    import time

    from knight.runner import logs

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the test forks its worker")  # pragma: no cover - Linux has it
    monkeypatch.setattr(logs, "_POLL_SECONDS", 60.0)
    stream = io.StringIO()
    with logs.run_logging(False, logging.StreamHandler(stream), "fork"):
        worker = multiprocessing.get_context("fork").Process(
            target=lambda: logging.getLogger("knight.test").warning("the last word")
        )
        worker.start()
        worker.join()
        began = time.monotonic()
    assert time.monotonic() - began < 30  # not the poll's minute
    assert "the last word" in stream.getvalue()


def test_the_run_does_not_wait_for_the_records_of_a_worker_killed_after_it_sent_them():
    """A worker killed just after it logged: its record is still written, and the run's end does not wait for
    anything of it (the receiver ends with the socket empty)."""
    import io
    import logging
    import multiprocessing
    import os
    import signal
    import time

    from knight.runner.logs import run_logging

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the test forks its worker")  # pragma: no cover - Linux has it
    stream = io.StringIO()
    with run_logging(False, logging.StreamHandler(stream), "fork"):

        def worker() -> None:
            logging.getLogger("knight.test").warning("sent before the kill")
            os.kill(os.getpid(), signal.SIGKILL)

        process = multiprocessing.get_context("fork").Process(target=worker)
        process.start()
        process.join()
        assert process.exitcode == -signal.SIGKILL
        began = time.monotonic()
    assert time.monotonic() - began < 0.5
    assert "sent before the kill" in stream.getvalue()


def _log_until_killed() -> None:
    import logging

    while True:
        logging.getLogger("knight.test").warning("x" * 2000)


def test_a_worker_killed_as_it_writes_its_records_does_not_silence_the_others():
    """A worker killed while its records were being written (here: killed while it writes as fast as it can)
    used to keep the log queue's write lock: every other worker's records then stopped, and each hung as it
    exited. Now each record is its own datagram: the others' get through and they exit at once."""
    import io
    import logging
    import multiprocessing
    import os
    import signal
    import time

    from knight.runner.logs import run_logging

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the test forks its workers")  # pragma: no cover - Linux has it
    context = multiprocessing.get_context("fork")
    stream = io.StringIO()
    with run_logging(False, logging.StreamHandler(stream), "fork"):
        dying = context.Process(target=_log_until_killed)
        dying.start()
        time.sleep(0.3)
        os.kill(dying.pid, signal.SIGKILL)
        dying.join()
        another = context.Process(target=lambda: logging.getLogger("knight.test").warning("from another worker"))
        another.start()
        another.join(timeout=10)
        exited = another.exitcode == 0
        if another.is_alive():  # pragma: no cover - the failure this test is for: stuck writing its records
            another.kill()
    assert exited and "from another worker" in stream.getvalue()
    assert stream.getvalue().count("x" * 2000) > 10  # the dying worker's records were coming as it was killed


def test_a_worker_started_by_spawn_sends_its_records_through_the_setup():
    import io
    import logging
    import multiprocessing

    from knight.runner.logs import run_logging

    stream = io.StringIO()
    with run_logging(False, logging.StreamHandler(stream), "spawn") as setup:
        assert setup is not None
        worker = multiprocessing.get_context("spawn").Process(target=_set_up_and_log, args=(setup,))
        worker.start()
        worker.join(timeout=60)
    assert worker.exitcode == 0 and "from a spawned worker" in stream.getvalue()


def _set_up_and_log(setup) -> None:
    import logging

    setup()
    logging.getLogger("knight.test").warning("from a spawned worker")


class _RacingPebble:
    """A stand-in for pebble's pool that plays its race: a worker (pid 111) finishes its first chunk and takes the
    second, then dies; pebble reports the death against the first chunk (whose results it then drops) and holds
    the second as running for ever. Every later chunk is run at once."""

    def __init__(self, slots) -> None:
        self.array, self.scheduled, self.active = slots.array, 0, True

    def schedule(self, function, args):
        import concurrent.futures

        import pebble

        from knight.tasks import Failure, FailureCause, TaskResult

        slot, chunk = args
        future = concurrent.futures.Future()
        self.scheduled += 1
        self.array[2 * slot] = 111 if self.scheduled <= 2 else 222
        if self.scheduled == 1:  # run to its end, then blamed
            self.array[2 * slot + 1] = len(chunk)
            future.set_exception(pebble.ProcessExpired("Abnormal termination", code=-9, pid=111))
        elif self.scheduled == 2:  # its first task started by the worker that died: never finishes
            self.array[2 * slot + 1] = 0
        else:
            self.array[2 * slot + 1] = len(chunk)
            future.set_result([TaskResult.failed(t, Failure(FailureCause.ENGINE, "stand-in")) for t in chunk])
        return future

    def close(self) -> None:
        pass

    stop = close

    def join(self) -> None:
        pass


def test_pebbles_race_costs_no_result_and_blames_the_task_the_worker_died_on(monkeypatch):
    import time

    from knight.runner.pool import ProcessPool
    from knight.tasks import Task

    tasks = [Task("warnsdorff", (("tie", "first"),), 5, 5, (row, col)) for row in range(4) for col in range(5)]
    pool = ProcessPool(1)
    monkeypatch.setattr(pool, "_start_workers", _RacingPebble)
    results = []
    began = time.monotonic()
    pool.run(tasks, results.extend)
    assert time.monotonic() - began < 5  # the chunk pebble holds for the dead worker is not waited for
    attempts = {result.key: result.attempts for result in results}
    assert len(results) == len(attempts) == len(tasks)  # every task once: none lost, none twice
    second_chunk_first_task = tasks[2]  # chunks of 2 tasks: the second chunk starts at the third task
    assert attempts.pop(second_chunk_first_task.key) == 2 and set(attempts.values()) == {1}


def test_a_chunk_held_for_a_worker_that_is_gone_is_an_orphan_even_unreported():
    """Pebble may never report a worker that died just after it took a chunk (it looked for the worker's chunk before
    reading the worker's note that it took one): the chunk is found by its slot naming a pid that has ended."""
    import subprocess
    import sys
    from concurrent.futures import Future

    from knight.runner.pool import ProcessPool, _Sent, _Slots

    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()  # reaped, as pebble reaps its workers
    pool = ProcessPool(2)
    pool.dead = {}  # pebble has reported no death
    slots = _Slots(pool.context, 3)
    sent: dict[Future, _Sent] = {}
    for pid in (ended.pid, os.getpid(), 0):  # gone; running; not started yet (no pid noted)
        slot = slots.take()
        slots.array[2 * slot] = pid
        sent[Future()] = _Sent([], slot)
    orphans = pool._orphans(sent, slots)
    assert [slots.read(sent[future].slot)[0] for future in orphans] == [ended.pid]
    assert all(future.cancelled() for future in orphans)
