"""`knight run`: run job files' sweeps on a process pool (or Dask) into the results store."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from knight.cli import EXIT_INTERRUPTED, app, fail
from knight.cli.options import Choice, JsonOption, KnightCommand, QuietOption, choice_option, examples, info, print_json
from knight.store.location import STORE_VARIABLE, store_path

if TYPE_CHECKING:
    from knight.runner import Job, RunSummary

__all__ = [
    "EXIT_ALL_DONE",
    "EXIT_SOME_FAILED",
    "StoreOption",
    "ExecutorOption",
    "SchedulerOption",
    "WorkersOption",
    "WORKERS_PER_CORE",
    "VerboseOption",
    "ForceOption",
    "run",
    "check_run_options",
    "check_shards",
    "run_in_store",
    "summary_line",
    "shipped_names",
    "run_everything",
]

EXIT_ALL_DONE = 0
EXIT_SOME_FAILED = 1

#: The options every command that runs tasks or reads the store shares.
StoreOption = Annotated[
    Path | None,
    typer.Option(
        help=f"The results store (default: ${STORE_VARIABLE}; else var/knight.sqlite in a clone of knight, else knight.sqlite in the user's data folder)."
    ),
]


def _executors() -> tuple[str, ...]:
    from knight.runner import EXECUTORS

    return EXECUTORS


ExecutorOption = Annotated[
    str, choice_option(Choice("--executor", "executor", _executors), "Where tasks run: a local process pool or dask.")
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        help=(
            "dask: the scheduler's address, tcp://HOST:PORT or tls://HOST:PORT (default: a local cluster). Reaching "
            "it and its first reply take at most $KNIGHT_DASK_TIMEOUT seconds (default 10), else one line, exit 2."
        )
    ),
]
#: --workers above this many per core is refused: more processes than that only contend for the cores.
WORKERS_PER_CORE = 4
WorkersOption = Annotated[
    int | None,
    typer.Option(
        help=(
            "Worker processes (default: all cores; none for a small job, done in this process); "
            f"at most {WORKERS_PER_CORE} per core."
        )
    ),
]
VerboseOption = Annotated[bool, typer.Option("--verbose", "-v", help="Log every task (debug).")]
ForceOption = Annotated[
    bool, typer.Option("--force", help="Run a job of more than 10,000,000 tasks (refused otherwise).")
]


def _jobs_argument() -> Any:
    """The JOBS argument, whose help names the shipped jobs when it is shown (the runner is not loaded before)."""
    argument = typer.Argument(help="", show_default=False)
    argument.described_by = lambda: f"Job files (TOML), or names of shipped jobs: {', '.join(shipped_names())}."
    return argument


def shipped_names() -> list[str]:
    """The jobs shipped with knight, by name (the heavy studies as ``full/NAME``)."""
    from knight.runner.shipped import shipped_jobs

    return shipped_jobs()


def run_everything() -> str:
    """The command that runs every job the default report answers, wherever knight is installed (what
    ``knight run jobs/*.toml`` does in a clone)."""
    return "knight run " + " ".join(name for name in shipped_names() if "/" not in name)


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight run homework-8 deitel-7.24",
        "knight run homework-8 --workers 1 --store /tmp/hw.sqlite -v",
        "knight run my-job.toml --quiet --json",
    ),
)
def run(
    jobs: Annotated[list[Path], _jobs_argument()],
    workers: WorkersOption = None,
    store: StoreOption = None,
    executor: ExecutorOption = "process",
    scheduler: SchedulerOption = None,
    verbose: VerboseOption = False,
    force: ForceOption = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> int:
    """Run the sweeps of the job files; tasks already in the store are not run again.

    A progress bar on stderr (plain lines when stderr is not a terminal), then one summary line: tasks
    run now, reused from the store, failed, and the time. Exit status: 0 every task has its tour; 1 some tasks failed (listed, and kept in the store
    with their reason); 2 bad input (a malformed job file, a bad option); 130 interrupted
    (Ctrl-C or SIGTERM: what finished is stored, the next run does the rest).
    """
    check_run_options(workers, executor, scheduler)
    from knight.runner import load_job

    loaded = [load_job(path, force=force) for path in jobs]  # every file is checked before anything runs
    names = [job.name for job in loaded]
    for name in names:
        if names.count(name) > 1:
            fail(f"two job files are named {name!r}; give each job a name of its own")
    path = store_path(store)
    summary = run_in_store(
        loaded,
        path,
        workers=workers,
        executor=executor,
        scheduler=scheduler,
        verbose=verbose,
        again="knight run",
        quiet=quiet,
    )
    if as_json:
        print_json(
            {
                "run": summary.run_id or None,  # None: nothing to do, no run recorded
                "store": str(path),
                "jobs": names,
                "tasks": summary.total,
                "ran": summary.ran,
                "by_others": summary.by_others,
                "reused": summary.already_done,
                "failed": summary.failed,
                "failures": list(summary.failures),
                "seconds": round(summary.seconds, 3),
            }
        )
    for failure in summary.failures:  # errors: printed even with --quiet
        typer.echo(f"knight: failed: {failure}", err=True)
    if summary.failed:
        typer.echo(
            "knight: failed tasks are kept with their reason (`knight results`); the next run retries them.", err=True
        )
    return EXIT_SOME_FAILED if summary.failed else EXIT_ALL_DONE


def check_shards(shards: int | None) -> None:
    """Refuse (exit 2, one line) a --shards out of its range."""
    from knight.engine.frontier_shards import MAX_SHARDS

    if shards is not None and not 1 <= shards <= MAX_SHARDS:
        fail(f"--shards must be a whole number of shards from 1 to {MAX_SHARDS}, got {shards}")


def check_run_options(workers: int | None, executor: str, scheduler: str | None) -> None:
    """Refuse (exit 2, one line) a bad --workers or --scheduler, or a bad $KNIGHT_DASK_TIMEOUT with --executor dask
    (--executor is a choice, checked as it is parsed), before anything is loaded or run."""
    if workers is not None and workers < 1:
        fail(f"--workers must be a positive number of processes, got {workers}")
    # the cores this process may use (taskset, a container's CPU set), as the default --workers counts them
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if workers is not None and workers > WORKERS_PER_CORE * cores:
        fail(
            f"--workers {workers} is more than {WORKERS_PER_CORE} per core ({WORKERS_PER_CORE * cores} on the "
            f"{cores} core{'' if cores == 1 else 's'} this process may use): more processes only contend for the cores; ask for at most {WORKERS_PER_CORE * cores}"
        )
    if scheduler is not None and executor != "dask":
        fail("--scheduler applies only to --executor dask")
    if executor == "dask":
        from knight.runner.dask_executor import connect_timeout, scheduler_address

        connect_timeout()
        if scheduler is not None:
            scheduler_address(scheduler)


def run_in_store(
    jobs: list[Job],
    path: Path,
    *,
    workers: int | None,
    executor: str,
    scheduler: str | None,
    verbose: bool,
    again: str,
    quiet: bool = False,
    shards: int | None = None,
) -> RunSummary:
    """Run ``jobs`` into the store at ``path`` with a progress bar and then a summary line on stderr (neither
    when ``quiet``); SIGTERM and Ctrl-C stop the run in order and exit 130, saying that ``again`` (the
    command to rerun) does the rest. ``shards``: a frontier count's (None: as many as pay)."""
    from knight.runner import run_jobs
    from knight.runner.progress import reporter_for

    try:
        from knight.store import Store

        with Store(path) as results:  # SIGTERM arrives as Ctrl-C (knight.cli.main)
            summary = run_jobs(
                jobs,
                results,
                workers=workers,
                executor=executor,
                scheduler=scheduler,
                verbose=verbose,
                reporter=reporter_for(quiet=quiet, verbose=verbose),
                shards=shards,
            )
    except KeyboardInterrupt:
        typer.echo(f"knight: interrupted; what finished is in {path}, and the next `{again}` does the rest", err=True)
        raise SystemExit(EXIT_INTERRUPTED) from None
    info(quiet, summary_line(summary, path))
    return summary


def summary_line(summary: RunSummary, path: Path) -> str:
    """What a run did, in one line: tasks run now (and by another run of the job at the same time), reused
    from the store, failed (here or there), and the time."""
    others = f", {summary.by_others:,} by another run at the same time" if summary.by_others else ""
    if not summary.run_id:
        return f"knight: nothing to run: {summary.total:,} tasks, all reused from {path}"
    return (
        f"knight: run {summary.run_id}: {summary.total:,} tasks: {summary.ran:,} run now{others}, "
        f"{summary.already_done:,} reused from {path}, {summary.failed:,} failed; {summary.seconds:.1f} s"
    )
