"""benchmarks/time_left.py (issue 29, item 7): a command with no result to judge is said so, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "time_left.py"


def test_a_command_that_runs_nothing_is_said_so() -> None:
    # 3 x 3 has no tour: theory says so, and no task runs, so the reporter sees no result.
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--repeats", "1", "--", "census", "3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "knight census 3 #1: no result, no time left to judge" in done.stdout and "Traceback" not in done.stderr
