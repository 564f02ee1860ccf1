"""The sweep runner: job files, task expansion, a process pool (or Dask), logging and progress."""

from knight.runner.jobs import Job, JobError, Task, load_job
from knight.runner.sweep import EXECUTORS, RunSummary, default_workers, run_jobs

__all__ = ["EXECUTORS", "Job", "JobError", "RunSummary", "Task", "default_workers", "load_job", "run_jobs"]
