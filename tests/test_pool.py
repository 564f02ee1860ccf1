"""How the process pool cuts a sweep into chunks."""

from __future__ import annotations

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


def test_each_of_two_big_tasks_gets_a_worker_of_its_own(monkeypatch):
    """Two one-task chunks on two workers run side by side: a second worker is started before the first is
    given its next chunk."""
    from knight.runner.pool import ProcessPool
    from knight.tasks import Task

    tasks = [Task("warnsdorff", (("tie", "first"),), side, side, (0, 0)) for side in (40, 41)]
    pool = ProcessPool(2, None)
    started = []
    start = pool._start_worker
    monkeypatch.setattr(pool, "_start_worker", lambda: started.append(1) or start())
    results = []
    pool.run(tasks, results.extend)
    assert len(started) == 2 and sorted(r.key for r in results) == sorted(t.key for t in tasks)


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


def _slow_second_worker_that_dies_on_its_second_chunk(marker, task):
    """A stand-in for run_task, run in the pool's workers: the task from (0, 1) takes 0.2 s, the task from (0, 3)
    kills its worker the first time (``marker``), every other task returns at once."""
    import os
    import signal
    import time

    from knight.tasks import TaskResult

    if task.start == (0, 1):
        time.sleep(0.2)
    if task.start == (0, 3):
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
            os.kill(os.getpid(), signal.SIGKILL)
        except FileExistsError:
            pass
    return TaskResult(task.key, task.n, task.m, task.method, ok=False, error="stand-in")


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


def test_the_run_does_not_wait_for_the_records_of_a_worker_killed_before_it_sent_them():
    """A worker killed between counting a record into the log queue and writing it to the pipe leaves the queue's
    count above 0 for good; the run's end used to wait 5 s for it. A record already in the pipe is still written."""
    import io
    import logging
    import multiprocessing
    import os
    import signal
    import time

    from knight.runner.logs import run_logging

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the forwarding handler needs fork")  # pragma: no cover - Linux has it
    stream = io.StringIO()
    with run_logging(False, logging.StreamHandler(stream), "fork"):
        (handler,) = logging.getLogger("knight").handlers

        def worker() -> None:
            logging.getLogger("knight.test").warning("sent before the kill")
            handler.queue.close()
            handler.queue.join_thread()  # that record is in the pipe
            handler.queue._sem.acquire()  # a record counted, as put() does, that never reaches the pipe
            os.kill(os.getpid(), signal.SIGKILL)

        process = multiprocessing.get_context("fork").Process(target=worker)
        process.start()
        process.join()
        assert process.exitcode == -signal.SIGKILL
        began = time.monotonic()
    assert time.monotonic() - began < 2.5  # the receiver ended with the pipe empty, not after the 5 s timeout
    assert "sent before the kill" in stream.getvalue()


def test_a_worker_killed_holding_the_log_queues_lock_does_not_silence_the_others():
    """A worker killed while its records were being written holds the log queue's write lock for good: every other
    worker's records then stopped, and each hung as it exited. The pool releases it when a worker is killed."""
    import io
    import logging
    import multiprocessing
    import os
    import signal

    from knight.runner.logs import run_logging, unblock_after_a_kill

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the forwarding handler needs fork")  # pragma: no cover - Linux has it
    context = multiprocessing.get_context("fork")
    stream = io.StringIO()
    with run_logging(False, logging.StreamHandler(stream), "fork"):
        (handler,) = logging.getLogger("knight").handlers

        def killed_as_it_writes() -> None:
            handler.queue._wlock.acquire()  # as the queue's feeder thread does to write a record
            os.kill(os.getpid(), signal.SIGKILL)

        dying = context.Process(target=killed_as_it_writes)
        dying.start()
        dying.join()
        assert unblock_after_a_kill() is True  # it was held, and is released
        assert unblock_after_a_kill() is False  # and free now
        another = context.Process(target=lambda: logging.getLogger("knight.test").warning("from another worker"))
        another.start()
        another.join(timeout=10)
        exited = another.exitcode == 0
        if another.is_alive():  # pragma: no cover - the failure this test is for: stuck flushing its records
            another.kill()
    assert exited and "from another worker" in stream.getvalue()
