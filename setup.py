"""The build hooks: the wheel carries the kernels compiled ahead of time, the commit it was built from and the
job files.

Everything about the distribution is in pyproject.toml; this file adds three steps to setuptools'
``build_py``.

The job files: the checkout's ``jobs/`` (the design's folder; ``make report`` runs them) is copied into the
built package as ``knight/jobs/``, where an installed knight finds them (``knight run homework-8``:
``knight/runner/shipped.py``). No link: a Windows checkout or an sdist may not keep one. The sdist carries
``jobs/`` (MANIFEST.in), so a wheel built from it has them too. An editable install reads the checkout's
``jobs/`` itself.

The kernels: ``python -m knight.aot --into <build>/knight/engine`` compiles the engine's kernels into one
extension module inside the wheel (numba, pinned in pyproject.toml's ``[build-system]``, is needed to
build it, not to run it), so an installed wheel runs compiled code with no numba and writes nothing
beside itself; the wheel is tagged for this Python and platform. An editable install builds the module
into the checkout's ``knight/engine/__pycache__`` instead, as ``python -m knight.aot`` does. When it cannot
be built (no C compiler, no numba) the build goes on without it, with a warning: the kernels are then
JIT-compiled, or run interpreted without numba. ``KNIGHT_REQUIRE_KERNELS=1`` makes that an error (the
release workflow sets it); ``KNIGHT_BUILD_KERNELS=0`` skips the step and makes a pure-Python wheel
(``py3-none-any``), which the release publishes too, for the platforms with no compiled wheel.

The commit: it writes ``knight/_build.json`` (``{"commit": "<short hash>"}``, with ``-dirty`` when
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
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

SOURCE = Path(__file__).resolve().parent
BUILD_FILE = "_build.json"
#: The job files' folder in the checkout, and where the built package has them.
JOBS, PACKAGED_JOBS = "jobs", Path("knight", "jobs")


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


def copy_jobs(root: Path) -> list[Path]:
    """Copy the checkout's job files (``jobs/**/*.toml``) into ``root``'s ``knight/jobs/``; the files written."""
    target = root / PACKAGED_JOBS
    shutil.rmtree(target, ignore_errors=True)  # a job deleted from jobs/ stays out
    copied = []
    for job in sorted((SOURCE / JOBS).rglob("*.toml")):
        into = target / job.relative_to(SOURCE / JOBS)
        into.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(job, into)  # a regular file, whatever jobs/ holds
        copied.append(into)
    if not copied:
        raise SystemExit(f"error: no job files in {SOURCE / JOBS}: the package would ship none")
    return copied


def build_kernels(into: Path | None) -> None:
    """Compile the kernels into ``into`` (a wheel's ``knight/engine``; None: the checkout's own folder), from
    this source tree's engine, in a process of its own (numba and the engine stay out of setuptools')."""
    if os.environ.get("KNIGHT_BUILD_KERNELS") == "0":
        return
    command = [sys.executable, "-m", "knight.aot", *(["--into", str(into)] if into else [])]
    # Bytecode stays out of the source tree; the source tree's knight, not an installed one, is compiled; pip's
    # isolated build environment is found through PYTHONPATH, which is kept.
    path = os.pathsep.join([str(SOURCE), *filter(None, [os.environ.get("PYTHONPATH")])])
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": path}
    done = subprocess.run(command, cwd=SOURCE, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode == 0:
        print(done.stdout.strip())
        return
    why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    if os.environ.get("KNIGHT_REQUIRE_KERNELS") == "1":
        raise SystemExit(f"error: the kernels could not be compiled: {why}")
    print(f"warning: the kernels could not be compiled ({why}); the package is built without them", file=sys.stderr)


class BuildWithCommit(build_py):
    """setuptools' build_py, plus the compiled kernels, the job files and ``knight/_build.json`` naming the commit
    (for an editable install, only the kernels, into the checkout)."""

    def run(self) -> None:
        if not self.editable_mode:  # start from an empty build/lib: a module deleted from the source stays out
            shutil.rmtree(Path(self.build_lib) / "knight", ignore_errors=True)
        super().run()
        if self.editable_mode:
            build_kernels(None)
            return
        build_kernels(Path(self.build_lib) / "knight" / "engine")
        self.jobs = copy_jobs(Path(self.build_lib))
        write_build_file(Path(self.build_lib))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if not self.editable_mode:
            outputs.append(str(Path(self.build_lib) / "knight" / BUILD_FILE))
            outputs.extend(str(job) for job in getattr(self, "jobs", []))
        return outputs


class SdistWithCommit(sdist):
    """setuptools' sdist, plus ``knight/_build.json``, for the wheels built from it."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        write_build_file(Path(base_dir))


class CompiledDistribution(Distribution):
    """A distribution whose wheel is tagged for one Python and platform, as it carries a compiled module
    (unless ``KNIGHT_BUILD_KERNELS=0``: then a pure-Python wheel)."""

    def has_ext_modules(self) -> bool:
        return os.environ.get("KNIGHT_BUILD_KERNELS") != "0"


setup(distclass=CompiledDistribution, cmdclass={"build_py": BuildWithCommit, "sdist": SdistWithCommit})
