"""`knight run`: run job files' sweeps on a process pool (or Dask) into the results store."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from knight.cli import EXIT_INTERRUPTED, app, fail
from knight.store import STORE_VARIABLE, Store, store_path

if TYPE_CHECKING:
    from knight.runner import Job, RunSummary

__all__ = ["EXIT_ALL_DONE", "EXIT_SOME_FAILED", "run", "check_run_options", "run_in_store"]

EXIT_ALL_DONE = 0
EXIT_SOME_FAILED = 1

#: The options every command that runs tasks or reads the store shares.
StoreOption = Annotated[
    Path | None, typer.Option(help=f"The results store (default: ${STORE_VARIABLE}, else var/knight.sqlite).")
]
ExecutorOption = Annotated[str, typer.Option(help="Where tasks run: process (a local pool) or dask.")]
SchedulerOption = Annotated[
    str | None, typer.Option(help="dask: the scheduler's address, tcp://HOST:PORT (default: a local cluster).")
]
VerboseOption = Annotated[bool, typer.Option("--verbose", "-v", help="Log every task (debug).")]


@app.command()
def run(
    jobs: Annotated[list[Path], typer.Argument(help="Job files (TOML), e.g. jobs/*.toml.", show_default=False)],
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).")] = None,
    store: StoreOption = None,
    executor: ExecutorOption = "process",
    scheduler: SchedulerOption = None,
    verbose: VerboseOption = False,
    force: Annotated[
        bool, typer.Option("--force", help="Run a job of more than 10,000,000 tasks (refused otherwise).")
    ] = False,
) -> int:
    """Run the sweeps of the job files; tasks already in the store are not run again.

    Exit status: 0 every task has its tour; 1 some tasks failed (listed, and kept in the store
    with their reason); 2 bad input (a malformed job file, a bad option); 130 interrupted
    (Ctrl-C or SIGTERM: what finished is stored, the next run does the rest).
    """
    check_run_options(workers, executor, scheduler)
    from knight.runner import default_workers, load_job

    loaded = [load_job(path, force=force) for path in jobs]  # every file is checked before anything runs
    names = [job.name for job in loaded]
    for name in names:
        if names.count(name) > 1:
            fail(f"two job files are named {name!r}; give each job a name of its own")
    path = store_path(store)
    summary = run_in_store(
        loaded,
        path,
        workers=workers or default_workers(),
        executor=executor,
        scheduler=scheduler,
        verbose=verbose,
        again="knight run",
    )
    typer.echo(
        f"run {summary.run_id}: {summary.total} tasks, {summary.already_done} already in {path}, "
        f"{summary.ran} run now ({summary.failed} failed) in {summary.seconds:.1f} s"
    )
    for failure in summary.failures:
        typer.echo(f"  failed: {failure}")
    if summary.failed:
        typer.echo("Failed tasks are kept with their reason (`knight results`); the next run retries them.")
    return EXIT_SOME_FAILED if summary.failed else EXIT_ALL_DONE


def check_run_options(workers: int | None, executor: str, scheduler: str | None) -> None:
    """Refuse (exit 2, one line) a bad --workers, --executor or --scheduler."""
    if workers is not None and workers < 1:
        fail(f"--workers must be a positive number of processes, got {workers}")
    from knight.runner import EXECUTORS

    if executor not in EXECUTORS:
        fail(f"unknown executor {executor!r}; choose one of: {', '.join(EXECUTORS)}")
    if scheduler and executor != "dask":
        fail("--scheduler applies only to --executor dask")


def run_in_store(
    jobs: list[Job], path: Path, *, workers: int, executor: str, scheduler: str | None, verbose: bool, again: str
) -> RunSummary:
    """Run ``jobs`` into the store at ``path`` with a progress bar; SIGTERM and Ctrl-C stop the run in
    order and exit 130, saying that ``again`` (the command to rerun) does the rest."""
    from knight.runner import run_jobs
    from knight.runner.progress import reporter_for

    try:
        with Store(path) as results:  # SIGTERM arrives as Ctrl-C (knight.cli.main)
            return run_jobs(
                jobs,
                results,
                workers=workers,
                executor=executor,
                scheduler=scheduler,
                verbose=verbose,
                reporter=reporter_for(),
            )
    except KeyboardInterrupt:
        typer.echo(f"knight: interrupted; what finished is in {path}, and the next `{again}` does the rest", err=True)
        raise SystemExit(EXIT_INTERRUPTED) from None
