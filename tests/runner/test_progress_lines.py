"""Progress of a run when its output is piped (issue 29, item 7): no informational log lines without -v, and a
time left measured from the first results, not from before the workers had started."""

from __future__ import annotations

import io
import logging
import re
import subprocess
import sys

from knight.runner.progress import LineReporter, SilentReporter

LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ .* (DEBUG|INFO) ", re.M)


def record(level: int) -> logging.LogRecord:
    return logging.LogRecord("knight.runner", level, __file__, 1, "message at %s", (level,), None)


def test_piped_log_lines_are_warnings_only_unless_verbose():
    # The run's log receiver calls handle() directly, so the handler itself must leave the lines out.
    for reporter in (LineReporter(io.StringIO()), SilentReporter(io.StringIO())):
        handler = reporter.log_handler()
        assert not handler.handle(record(logging.INFO)) and handler.handle(record(logging.WARNING))
    for reporter in (LineReporter(io.StringIO(), verbose=True), SilentReporter(io.StringIO(), verbose=True)):
        assert reporter.log_handler().handle(record(logging.DEBUG))


def test_a_piped_run_prints_no_log_lines_without_verbose(tmp_path):
    def run(name: str, *more: str) -> str:
        job = tmp_path / f"{name}.toml"
        job.write_text('[[sweep]]\nboards = [5]\nstarts = "corners"\nmethod = "warnsdorff"\n')
        argv = [sys.executable, "-m", "knight", "run", str(job), "--store", str(tmp_path / f"{name}.sqlite"), *more]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stderr

    plain = run("plain")
    assert not LOG_LINE.search(plain) and "knight: run 1:" in plain
    assert LOG_LINE.search(run("verbose", "-v"))  # the same run's lines, asked for


def test_time_left_is_measured_from_the_first_results(monkeypatch):
    """A second of start-up, then 100 tasks a second: at a tenth done the time left is that rate's (9 s), not
    the whole run's average (17.1 s)."""
    clock = [100.0]
    monkeypatch.setattr("knight.runner.progress.time.monotonic", lambda: clock[0])
    reporter = LineReporter(io.StringIO())
    reporter.start(1000)
    clock[0] += 1.0
    for _ in range(10):  # ten chunks of 10 tasks, 0.1 s apart
        reporter.advance(10)
        clock[0] += 0.1
    clock[0] -= 0.1  # now: the tenth chunk's arrival
    assert abs(reporter.rate(clock[0]) - 100) < 1e-6
    assert abs(reporter.time_left(clock[0]) - 9.0) < 1e-6
