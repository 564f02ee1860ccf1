"""The sweep runner: job files, task expansion, a process pool (or Dask), logging and progress."""

from knight.errors import JobError
from knight.runner.jobs import Job, load_job
from knight.runner.sweep import EXECUTORS, RunSummary, default_workers, run_jobs
from knight.tasks import Task

__all__ = ["EXECUTORS", "Job", "JobError", "RunSummary", "Task", "default_workers", "load_job", "run_jobs"]
