"""Every hint in an error message works outside a clone (issue 29, item 7): no `jobs/*.toml`, which only a
checkout's shell can expand; the commands the hints give run from an empty folder."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from knight.cli.run import run_everything
from knight.report.records import Results

PACKAGE = Path(__file__).resolve().parents[2] / "knight"


def knight(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "knight", *argv], cwd=folder, capture_output=True, text=True, timeout=120
    )


def test_no_message_names_the_checkouts_job_glob():
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{number}"
        for path in sorted(PACKAGE.rglob("*"))
        if path.suffix in (".py", ".j2", ".toml", ".js") and path.is_file()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "jobs/*.toml" in line and not line.lstrip().startswith("#") and "in a clone" not in line
    ]
    assert found == []


def test_the_reports_hint_runs_every_default_shipped_job():
    assert Results([]).hint == run_everything()
    assert "homework-8" in run_everything() and "full/" not in run_everything()


def test_a_missing_stores_hint_runs_from_an_empty_folder(tmp_path):
    store = tmp_path / "results.sqlite"
    refused = knight(tmp_path, "results", "--store", str(store))
    assert refused.returncode == 2
    hint = re.search(r"run `(knight run [^`]+)`", refused.stderr)
    assert hint, refused.stderr
    command = hint.group(1).split()[1:]  # what follows `knight`
    assert knight(tmp_path, *command, "--store", str(store), "-q").returncode == 0
    assert knight(tmp_path, "results", "--store", str(store), "--json").returncode == 0
