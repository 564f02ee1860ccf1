"""The shell commands a page of the docs shows, run as a newcomer runs them: every ```sh block, in order, in one
shell (so `. .venv/bin/activate` holds for the lines after it), each line checked for its exit status.

A command is a line of a block; the comment lines under it (indented ``#`` lines) are its comment. Skipped: a
block whose first line is ``# needs the network``, and a command whose comment says ``needs the network``. A
command whose comment says ``exit status N`` must exit with N, any other with 0. Every command runs as
written (:func:`stand_in`) but ``make test``, the suite a walk is part of: it runs as ``make -n test`` (make knows
the target and how to make it) unless ``KNIGHT_DOCS_SLOW=1`` (``make test FULL=1``, CI's ``readme`` job).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
NETWORK = "needs the network"
SLOW_VARIABLE = "KNIGHT_DOCS_SLOW"
_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)
_STATUS = re.compile(r"exit status (\d+)")


@dataclass(frozen=True)
class Command:
    """One command of a page, with its comment (what follows ``#`` on its line and the comment lines under it)."""

    line: str
    comment: str
    block: int

    @property
    def network(self) -> bool:
        return NETWORK in self.comment

    @property
    def status(self) -> int:
        found = _STATUS.search(self.comment)
        return int(found.group(1)) if found else 0

    @property
    def shell(self) -> str:
        """The command without its comment."""
        return _code(self.line)


def _code(line: str) -> str:
    """``line`` without a trailing comment (a ``#`` after two spaces, as the pages write them)."""
    return re.split(r"\s{2,}#|^#", line, maxsplit=1)[0].rstrip()


def commands(markdown: str) -> list[Command]:
    """Every command of every ```sh block of ``markdown``, in order (see the module's docstring)."""
    found: list[Command] = []
    for number, match in enumerate(_BLOCK.finditer(markdown)):
        lines = match.group(1).splitlines()
        if lines and lines[0].strip() == f"# {NETWORK}":
            continue
        block: list[list[str]] = []
        for line in lines:
            if not line.strip():
                continue
            if line.lstrip().startswith("#"):
                if block:  # a comment line under a command
                    block[-1][1] += " " + line.strip().lstrip("#").strip()
                continue
            comment = line[len(_code(line)) :].strip().lstrip("#").strip()
            block.append([line, comment])
        found += [Command(line, comment, number) for line, comment in block]
    return found


def slow_mode() -> bool:
    return os.environ.get(SLOW_VARIABLE) == "1"


def stand_in(command: Command) -> str | None:
    """What runs for ``command``: as written, but ``make test`` (the suite a walk is part of) as ``make -n test``
    unless in slow mode."""
    if slow_mode():
        return command.shell
    return re.sub(r"\bmake test\b", "make -n test >/dev/null", command.shell)


@dataclass
class Outcome:
    command: Command
    ran: str | None  # what ran instead (a stand-in), None when skipped
    status: int | None
    output: str


def walk(
    steps: Iterable[Command],
    cwd: Path | Callable[[Command], Path],
    env: dict[str, str],
    stand_in: Callable[[Command], str | None],
    timeout: float = 600,
) -> list[Outcome]:
    """Run ``steps`` in order in one bash process (the shell's state carries from line to line); each through
    ``stand_in`` (the command to run, or None to leave it out). Returns what each did; stops at the first
    command whose status is not the one its comment says."""
    steps = list(steps)
    script = ["set +e"]
    planned: list[tuple[Command, str | None]] = []
    for index, step in enumerate(steps):
        ran = None if step.network else stand_in(step)
        planned.append((step, ran))
        if ran is None:
            continue
        folder = cwd(step) if callable(cwd) else cwd
        script += [
            f"echo '@@begin {index}'",
            f"cd {_quote(str(folder))}",
            f"{ran} 2>&1",
            "status=$?",
            f'echo "@@end {index} $status"',
            f'if [ "$status" != {step.status} ]; then exit 99; fi',
        ]
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)], env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    outputs: dict[int, tuple[int, str]] = {}
    for found in re.finditer(r"^@@begin (\d+)\n(.*?)^@@end \1 (\d+)$", done.stdout, re.MULTILINE | re.DOTALL):
        outputs[int(found.group(1))] = (int(found.group(3)), found.group(2))
    outcomes = []
    for index, (step, ran) in enumerate(planned):
        status, output = outputs.get(index, (None, ""))
        outcomes.append(Outcome(step, ran, status, output))
    if done.returncode not in (0, 99):
        raise AssertionError(f"the walk stopped: {done.stderr[-2000:]}")
    return outcomes


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def clean_environment(tmp: Path, *, venv_on_path: bool) -> dict[str, str]:
    """The environment of a newcomer's shell: no virtual environment active (unless ``venv_on_path``: an install
    stands for the skipped ``pip install``), no store named, the user's data and cache folders of the test's own."""
    path = [part for part in os.environ.get("PATH", "").split(os.pathsep) if part and ".venv" not in part]
    if venv_on_path:
        path.insert(0, str(VENV / "bin"))
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("VIRTUAL_ENV", "KNIGHT_STORE", "PYTHONPATH", "COLUMNS", "LINES", SLOW_VARIABLE)
        and not key.startswith("PYTEST")
    }
    env.update(PATH=os.pathsep.join(path), XDG_DATA_HOME=str(tmp / "data"))
    return env


def temporary_clone(tmp: Path) -> Path:
    """A fresh clone of this checkout's HEAD in ``tmp``, its ``.venv`` this checkout's (installing one would take
    minutes and the network), its build inputs older than that environment (make installs nothing again)."""
    if not (ROOT / ".git").exists():
        import pytest

        pytest.skip("not a git checkout (an unpacked sdist): nothing to clone")
    if Path(sys.prefix).resolve() != VENV.resolve():
        import pytest

        pytest.skip("the tests do not run in the checkout's .venv")
    clone = tmp / "knight"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=120)
    (clone / ".venv").symlink_to(VENV)
    for name in ("pyproject.toml", "setup.py"):
        os.utime(clone / name, (946684800, 946684800))  # 2000-01-01: the stamps in .venv are newer
    return clone


def transcript(outcomes: list[Outcome]) -> str:
    """One line per command: what it was, and what came of it."""
    lines = []
    for outcome in outcomes:
        shown = outcome.command.shell
        if outcome.ran is None:
            lines.append(f"skipped   {shown}" + (" (needs the network)" if outcome.command.network else " (slow)"))
        elif outcome.status is None:
            lines.append(f"not run   {shown}")
        else:
            instead = "" if outcome.ran == shown else f"  [ran: {outcome.ran}]"
            lines.append(f"exit {outcome.status:<4} {shown}{instead}")
    return "\n".join(lines)


def check(outcomes: list[Outcome]) -> None:
    """Every command that ran exited as its comment says, and none was left unrun after a failure."""
    for outcome in outcomes:
        if outcome.ran is not None and outcome.status != outcome.command.status:
            raise AssertionError(
                f"{outcome.command.shell!r} exited {outcome.status}, not {outcome.command.status}:\n"
                f"{outcome.output[-3000:]}\n--- the walk so far:\n{transcript(outcomes)}"
            )
