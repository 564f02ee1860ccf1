"""The Dask executor on a local cluster gives the same results as the process pool."""

from __future__ import annotations

import io

from distributed import LocalCluster
from runner_helpers import write_job

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
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
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
