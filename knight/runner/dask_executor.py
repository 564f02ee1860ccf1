"""Send a sweep's tasks to a Dask distributed cluster (the optional extra ``knights-tour-lab[dask]``)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from knight.engine import InvalidInput
from knight.runner.pool import MAX_ATTEMPTS, chunk_size
from knight.runner.work import run_chunk
from knight.tasks import Task, TaskResult

__all__ = ["DaskExecutor"]

log = logging.getLogger("knight.runner.dask")


class DaskExecutor:
    """Runs chunks of tasks on the cluster whose scheduler is at ``address`` (``tcp://HOST:PORT``),
    or, with no address, on a local cluster of ``workers`` processes started for the run.

    Dask retries a chunk whose worker died (``retries``); a chunk that still fails is recorded as
    failed, task by task, with the cluster's reason.
    """

    def __init__(self, address: str | None, workers: int, max_attempts: int = MAX_ATTEMPTS) -> None:
        self.address = address
        self.workers = workers
        self.max_attempts = max_attempts

    def run(self, tasks: list[Task], on_results: Callable[[list[TaskResult]], None]) -> None:
        """Run ``tasks`` on the cluster; call ``on_results`` with each finished chunk's results."""
        try:
            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise InvalidInput("--executor dask needs the dask extra: pip install 'knights-tour-lab[dask]'") from None
        cluster = None
        try:
            if self.address:
                client = Client(self.address, timeout="10s")
            else:
                cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, dashboard_address=None)
                client = Client(cluster)
        except (OSError, TimeoutError) as error:
            raise InvalidInput(
                f"cannot reach the Dask scheduler at {self.address}: {error}; "
                "start one with `dask scheduler` or drop --scheduler"
            ) from None
        try:
            size = chunk_size(len(tasks), max(1, sum(client.nthreads().values())))
            chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
            futures = client.map(run_chunk, chunks, pure=False, retries=self.max_attempts - 1)
            chunk_of = {future.key: chunk for future, chunk in zip(futures, chunks)}
            log.info("sent %d tasks in %d chunks to %s", len(tasks), len(chunks), client.scheduler.address)
            for future in as_completed(futures):
                try:
                    results = future.result()
                except Exception as error:  # noqa: BLE001 - e.g. KilledWorker: recorded, not lost
                    reason = f"dask: {type(error).__name__}: {error}"
                    log.error("chunk of %d tasks failed: %s", len(chunk_of[future.key]), reason)
                    results = [
                        TaskResult(t.key, t.n, t.m, t.method, ok=False, error=reason, attempts=self.max_attempts)
                        for t in chunk_of[future.key]
                    ]
                on_results(results)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
