"""The build hook: records in the wheel which commit it was built from.

Everything about the distribution is in pyproject.toml; this file only adds one step to setuptools'
``build_py``: it writes ``knight/_build.json`` (``{"commit": "<short hash>"}``, with ``-dirty`` when
tracked files differ from that commit, or ``null`` when the source is not a git checkout) into the
built package, never into the source tree. An sdist carries the same file, so a wheel built from it
(``python -m build`` does that) names the commit the sdist was made from. The report's
colophon reads it through ``importlib.resources``, so an installed knight names the commit it was
built from, whatever directory it runs in. An editable install gets no ``_build.json``: its code is
the checkout itself, and the report asks that checkout's git (see ``knight/cli/report.py``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

SOURCE = Path(__file__).resolve().parent
BUILD_FILE = "_build.json"


def source_commit(source: Path = SOURCE) -> str | None:
    """The short hash of the commit checked out in ``source`` (``-dirty`` if tracked files changed); in an
    unpacked sdist, the commit its ``_build.json`` names; otherwise None."""
    if not (source / ".git").exists():  # an unpacked sdist, or a copy: no history of its own to name
        try:
            return json.loads((source / "knight" / BUILD_FILE).read_text(encoding="utf-8"))["commit"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
    try:
        commit = _git(source, "rev-parse", "--short", "HEAD")
        changed = _git(source, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):  # no git, or not a repository after all
        return None
    return f"{commit}-dirty" if changed else commit or None


def _git(source: Path, *args: str) -> str:
    """What ``git -C source ARGS`` prints (stripped); raises if git is missing or fails."""
    quiet = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}  # git status must not rewrite the checkout's index
    done = subprocess.run(
        ["git", "-C", str(source), *args], capture_output=True, text=True, timeout=30, check=True, env=quiet
    )
    return done.stdout.strip()


def write_build_file(root: Path) -> None:
    """Write ``knight/_build.json`` under ``root`` (a build or release tree)."""
    target = root / "knight" / BUILD_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)  # a release tree may hard-link the source's files: never write through one
    target.write_text(json.dumps({"commit": source_commit()}) + "\n", encoding="utf-8")


class BuildWithCommit(build_py):
    """setuptools' build_py, plus ``knight/_build.json`` naming the commit (not for editable installs)."""

    def run(self) -> None:
        if not self.editable_mode:  # start from an empty build/lib: a module deleted from the source stays out
            shutil.rmtree(Path(self.build_lib) / "knight", ignore_errors=True)
        super().run()
        if self.editable_mode:
            return
        write_build_file(Path(self.build_lib))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if not self.editable_mode:
            outputs.append(str(Path(self.build_lib) / "knight" / BUILD_FILE))
        return outputs


class SdistWithCommit(sdist):
    """setuptools' sdist, plus ``knight/_build.json``, for the wheels built from it."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        write_build_file(Path(base_dir))


setup(cmdclass={"build_py": BuildWithCommit, "sdist": SdistWithCommit})
