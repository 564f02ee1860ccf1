"""The extras (pyproject.toml): a command that needs a package a missing extra installs says so in one line, with
the pip command, and exits 2; without numba and without the compiled kernels, the kernels run interpreted, with
a one-line notice, and give the same answers.

Each case runs `knight` in a process of its own in which a meta-path finder hides the packages of one extra, as
if they were not installed (the project's environment has every extra).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_wheel import TINY_JOB  # the wheel test's tiny job: one Warnsdorff tour of 5x5

from knight.errors import MissingExtra

#: Run `knight` (argv[2:]) with the top-level packages named in argv[1] (comma-separated) impossible to import.
HIDING = """\
import sys
from importlib.abc import MetaPathFinder

HIDDEN = set(sys.argv[1].split(","))


class Hide(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Hide())
sys.argv = ["knight", *sys.argv[2:]]
from knight.__main__ import main

main()
"""


def _knight(tmp_path: Path, hidden: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "KNIGHT_STORE": str(tmp_path / "store.sqlite"), **env}
    return subprocess.run(
        [sys.executable, "-c", HIDING, hidden, *args],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _one_line_error(done: subprocess.CompletedProcess[str], package: str, extra: str) -> str:
    """The error line, after checking it is the only line on standard error and the exit status is 2."""
    lines = [line for line in done.stderr.splitlines() if " INFO " not in line]  # a run's log lines
    assert done.returncode == 2, done.stderr[-2000:]
    assert len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith(f"knight: error: {package} is not installed (needed for ")
    assert f"pip install 'knights-tour-lab[{extra}]'" in lines[0]
    return lines[0]


@pytest.fixture
def tiny_store(tmp_path: Path) -> Path:
    """``tmp_path`` with a store holding one small job's results (run with every package there)."""
    (tmp_path / "tiny.toml").write_text(TINY_JOB)
    done = _knight(tmp_path, "nothing-hidden", "run", "tiny.toml", "--workers", "1", "-q")
    assert done.returncode == 0, done.stderr[-2000:]
    return tmp_path


def test_the_report_without_matplotlib_names_the_report_extra(tiny_store: Path) -> None:
    done = _knight(tiny_store, "matplotlib", "report", "--no-pdf", "--job", "tiny.toml", "--out", "out")
    assert "charts" in _one_line_error(done, "matplotlib", "report")


def test_the_pdf_without_weasyprint_names_the_report_extra_and_keeps_the_html(tiny_store: Path) -> None:
    done = _knight(tiny_store, "weasyprint", "report", "--job", "tiny.toml", "--out", "out")
    line = _one_line_error(done, "WeasyPrint", "report")
    assert line.endswith("(needed for a PDF): pip install 'knights-tour-lab[report]'")
    assert (tiny_store / "out" / "knights-tour.html").is_file()  # written before the PDF was tried


def test_dask_without_distributed_names_the_dask_extra(tmp_path: Path) -> None:
    (tmp_path / "tiny.toml").write_text(TINY_JOB)
    done = _knight(tmp_path, "distributed,dask", "run", "tiny.toml", "--executor", "dask", "-q")
    _one_line_error(done, "Dask", "dask")


def test_the_listings_without_pygments_name_the_report_extra(tmp_path: Path) -> None:
    code = HIDING.replace(
        "from knight.__main__ import main\n\nmain()\n",
        "from knight.report.listings import highlight\nhighlight('print(1)')\n",
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "pygments"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1] == (
        "knight.errors.MissingExtra: Pygments is not installed (needed for the answer key's program listings): "
        "pip install 'knights-tour-lab[report]'"
    )


def test_a_missing_extra_is_a_knight_error_and_an_import_error() -> None:
    error = MissingExtra("WeasyPrint", "report", "the PDF")
    assert isinstance(error, ImportError) and error.exit_status == 2
    assert str(error) == "WeasyPrint is not installed (needed for the PDF): pip install 'knights-tour-lab[report]'"


def test_without_numba_or_the_compiled_kernels_the_census_runs_interpreted_with_one_notice(tmp_path: Path) -> None:
    """`knight census 5` counts the same tours on two workers, interpreted, and says once that it is slow."""
    slow = _knight(tmp_path, "numba,llvmlite", "census", "5", "--workers", "2", "--json", KNIGHT_AOT="0")
    fast = _knight(tmp_path, "nothing-hidden", "census", "5", "--json", "--store", str(tmp_path / "other.sqlite"))
    assert slow.returncode == 0 and fast.returncode == 0, slow.stderr[-2000:] + fast.stderr[-2000:]
    notices = [line for line in slow.stderr.splitlines() if line.startswith("knight: notice:")]
    assert notices == [
        "knight: notice: the kernels run interpreted (slow): neither their compiled module nor numba is installed; "
        "pip install 'knights-tour-lab[jit]' to compile them"
    ]
    assert "notice" not in fast.stderr
    interpreted, compiled = json.loads(slow.stdout), json.loads(fast.stdout)
    assert interpreted["counts"] == compiled["counts"]
    assert interpreted["total"] == compiled["total"] == 1728
