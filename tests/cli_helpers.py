"""The `knight` command run in the test's own process (a subprocess costs a second of imports each)."""

from __future__ import annotations

from pathlib import Path

import pytest
from runner_helpers import knight, write_job

from knight.cli import main


class Ran:
    """What an in-process `knight` command printed and its exit status."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def knight_here(capsys: pytest.CaptureFixture[str], args: list[str]) -> Ran:
    """Run `knight ARGS` in this process; what it printed and its exit status."""
    capsys.readouterr()
    try:
        main(args)
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0
    out, err = capsys.readouterr()
    return Ran(code, out, err)


def run_once(folder: Path, name: str, text: str) -> tuple[Path, Path, str]:
    """The job ``text`` (named ``name``) run into a new store in ``folder``: the store, the job file, and
    `knight results --json` of it (a subprocess: a pool inside pytest is slow)."""
    store, job = folder / f"{name}.sqlite", write_job(folder, name, text)
    assert knight(["run", str(job)], store).returncode == 0
    shown = knight(["results", "--json"], store)
    assert shown.returncode == 0
    return store, job, shown.stdout


def knight_cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int | str | None, str, str]:
    """`knight ARGV` in this process, which must exit: exit status, stdout, stderr."""
    with pytest.raises(SystemExit) as stop:
        main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return stop.value.code, out, err
