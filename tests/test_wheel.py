"""The wheel works on its own: built from this checkout, installed into an empty directory, run from elsewhere.

A new user's `pip install` gets the wheel and nothing of the checkout, so this test builds the wheel
(`pip wheel --no-deps --no-build-isolation`: the project environment has the build backend), installs it
with `pip install --no-deps --target` (its dependencies are the project environment's), and runs the
installed `knight` script from a directory outside the checkout that is a git repository of its own,
with PYTHONPATH pointing at the install: `knight tour 8`, `knight run` on a small job, `knight report
--no-pdf`. Python's import log (PYTHONVERBOSE) shows where every knight module came from: all from the
install, none from the checkout (the editable install's finder would otherwise serve them). The
report's colophon must name the version of the installed metadata and the commit the build recorded,
never the commit of the directory it runs in. About 7.5 s for this file on this machine (building and
installing: 1.5 s; the three commands: 5.3 s).

The wheel carries the kernels compiled ahead of time (setup.py; the build copies the checkout's module when
its sources have one, else compiles it, ~15 s), so it is tagged for this Python and platform. A second test
installs it, with its dependencies from the package index, into an empty virtual environment that has no
numba (~10 s with pip's cache warm) and runs `knight tour 1000`, `knight census 5` and `knight grade` there
on the compiled kernels: site-packages is the same afterwards, bytecode aside.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DISTRIBUTION = "knights-tour-lab"

#: Where the import log says a module's code came from: "# code object from '<path>'" and the like.
_MODULE_FILE = re.compile(r"""(/[^\s'"]+\.pyc?)(?=['"\s]|$)""", re.MULTILINE)

TINY_JOB = """\
name = "tiny"
description = "one Warnsdorff tour of 5x5, for the wheel test"

[[sweep]]
boards = [5]
starts = [[0, 0]]
method = "warnsdorff"
"""


PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout, once per session."""
    root = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [
            *PIP,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--wheel-dir",
            str(root / "dist"),
            str(REPO),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (found,) = (root / "dist").glob("*.whl")
    assert found.name.startswith(DISTRIBUTION.replace("-", "_") + "-")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory the freshly built wheel was installed into (``pip install --target``)."""
    target = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [*PIP, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return target


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory outside the checkout that is a git repository with a commit of its own."""
    here = tmp_path_factory.mktemp("elsewhere")
    git = ["git", "-C", str(here), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True, timeout=60)
    (here / "tiny.toml").write_text(TINY_JOB)
    subprocess.run([*git, "add", "tiny.toml"], check=True, timeout=60)
    subprocess.run([*git, "commit", "-q", "-m", "not knight"], check=True, timeout=60)
    return here


def _knight(installed: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the installed `knight` script in ``cwd`` with the install first on the path and the import log on."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("KNIGHT_")}
    env.update(PYTHONPATH=str(installed), PYTHONVERBOSE="1", PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(
        [sys.executable, str(installed / "bin" / "knight"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _knight_modules(import_log: str) -> set[Path]:
    """The files of every knight module the import log shows being loaded."""
    return {Path(path) for path in _MODULE_FILE.findall(import_log) if "knight" in Path(path).parent.parts[-3:]}


def _assert_ran_installed(done: subprocess.CompletedProcess[str], installed: Path) -> None:
    """The command succeeded, and every knight module it loaded came from ``installed``."""
    errors = [line for line in done.stderr.splitlines() if not line.startswith(("#", "import "))]
    assert done.returncode == 0, "\n".join(errors[-20:])
    modules = _knight_modules(done.stderr)
    assert any(path.parent.name == "cli" for path in modules), "the import log shows no knight.cli module"
    outside = sorted(str(path) for path in modules if not path.is_relative_to(installed))
    assert outside == [], f"knight modules loaded from outside the install: {outside[:5]}"


def _recorded_commit(installed: Path) -> str:
    """The commit the build wrote into the installed package ("unknown" when it had none)."""
    return json.loads((installed / "knight" / "_build.json").read_text())["commit"] or "unknown"


def test_the_installed_wheel_tours_runs_and_reports_outside_the_checkout(installed: Path, elsewhere: Path) -> None:
    tour = _knight(installed, elsewhere, "tour", "8")
    _assert_ran_installed(tour, installed)
    assert "Full tour" in tour.stdout

    store = elsewhere / "store.sqlite"
    run = _knight(installed, elsewhere, "run", "tiny.toml", "--store", str(store), "--workers", "1")
    _assert_ran_installed(run, installed)
    assert store.exists()

    out = elsewhere / "out"
    report = _knight(
        installed, elsewhere, "report", "--no-pdf", "--store", str(store), "--out", str(out), "--job", "tiny.toml"
    )
    _assert_ran_installed(report, installed)
    html = (out / "knights-tour.html").read_text(encoding="utf-8")
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    colophon = re.search(r"made by knight (\S+) \(commit ([^)]+)\)", html)
    assert colophon is not None, "the report has no colophon naming version and commit"
    assert colophon.groups() == (version, _recorded_commit(installed))
    cwd_commit = subprocess.run(
        ["git", "-C", str(elsewhere), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=60
    ).stdout.strip()
    assert cwd_commit and cwd_commit not in colophon.group(2)


def test_the_wheel_records_the_commit_it_was_built_from(installed: Path) -> None:
    """setup.py's build hook: the checkout's HEAD (``-dirty`` when tracked files differ), none without git."""
    recorded = _recorded_commit(installed)
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=60
    )
    sdist = REPO / "knight" / "_build.json"  # an unpacked sdist: the commit it was made from
    if (REPO / ".git").exists() and head.returncode == 0:
        assert recorded.removesuffix("-dirty") == head.stdout.strip()
    elif sdist.is_file():
        assert recorded == (json.loads(sdist.read_text(encoding="utf-8"))["commit"] or "unknown")
    else:  # a source tree without its history: nothing to name
        assert recorded == "unknown"


def test_the_installed_version_is_the_metadata_version(installed: Path, elsewhere: Path) -> None:
    done = _knight(installed, elsewhere, "--version")
    assert done.returncode == 0
    (dist_info,) = installed.glob(f"{DISTRIBUTION.replace('-', '_')}-*.dist-info")
    version = re.search(r"^Version: (\S+)$", (dist_info / "METADATA").read_text(), re.MULTILINE)
    assert version is not None and done.stdout.strip() == f"knight {version.group(1)}"


def test_the_wheel_carries_every_file_the_package_reads(installed: Path) -> None:
    """Every data file of the source package (templates, CSS, JS, questions, job files) is in the install; not
    the tools' (ruff's settings for the reference programs, a cache folder) nor compiled kernels of a checkout."""
    source = REPO / "knight"
    wanted = {
        (Path(folder) / name).relative_to(source)
        for folder, _, names in os.walk(source)
        for name in names
        if not any(part == "__pycache__" or part.startswith(".") for part in Path(folder).relative_to(source).parts)
        and not name.endswith((".py", ".pyc"))
        and name != "ruff.toml"
    }
    # the job files: the checkout's jobs/, copied by the build into knight/jobs/
    wanted |= {Path("jobs") / path.relative_to(REPO / "jobs") for path in (REPO / "jobs").rglob("*.toml")}
    missing = sorted(str(path) for path in wanted if not (installed / "knight" / path).is_file())
    assert wanted and missing == []


def test_the_installed_copy_finds_its_shipped_jobs_by_name(installed: Path, elsewhere: Path) -> None:
    """`knight run homework-8` works without a checkout: the name resolves to the install's package data."""
    code = "from knight.runner.jobs import load_job; from knight.runner.shipped import job_file; "
    code += "print(job_file('homework-8')); print(load_job('full/board-sizes-1000', force=True).name)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=elsewhere,
        env={**os.environ, "PYTHONPATH": str(installed)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found, name = done.stdout.split()
    assert Path(found) == installed / "knight" / "jobs" / "homework-8.toml"
    assert name == tomllib.loads((REPO / "jobs" / "full" / "board-sizes-1000.toml").read_text())["name"]


def test_a_job_file_that_exists_wins_over_a_shipped_job_of_that_name(tmp_path: Path, monkeypatch) -> None:
    from knight.runner.jobs import load_job
    from knight.runner.shipped import job_file

    monkeypatch.chdir(tmp_path)
    (tmp_path / "homework-8.toml").write_text(TINY_JOB)
    assert load_job("homework-8.toml").name == "tiny"
    assert load_job("homework-8").name == "homework-8"  # no file of that name here: the shipped job
    assert job_file("no-such-job") == Path("no-such-job")


def test_the_wheel_carries_the_compiled_kernels_and_is_tagged_for_this_platform(wheel: Path, installed: Path) -> None:
    from knight.engine.kernel import module_name

    assert not wheel.name.endswith("-none-any.whl"), wheel.name  # a compiled module: one Python, one platform
    shipped = sorted(path.name for path in (installed / "knight" / "engine").glob("knight_kernels_*"))
    assert len(shipped) == 1 and shipped[0].startswith(module_name() + "."), shipped


@pytest.fixture(scope="module")
def empty_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment made empty (no pip, no numba) into which the wheel and the core's dependencies
    were installed, as `pip install knights-tour-lab` would."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    done = subprocess.run(
        [*PIP, "--python", str(python), "install", "--quiet", str(wheel)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return venv


def _site_packages(venv: Path) -> Path:
    (site,) = (venv / "lib").glob("python3*/site-packages")
    return site


def _site_files(venv: Path) -> dict[str, tuple[int, int]]:
    """Every file of the venv's site-packages but bytecode, with its size and modification time."""
    site = _site_packages(venv)
    return {
        str(path.relative_to(site)): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in site.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


def test_the_wheel_in_an_empty_venv_runs_compiled_without_numba_and_writes_nothing_beside_itself(
    empty_venv: Path, tmp_path: Path
) -> None:
    python, knight = empty_venv / "bin" / "python", empty_venv / "bin" / "knight"
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KNIGHT_", "PYTHON", "NUMBA_"))}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), KNIGHT_STORE=str(tmp_path / "store.sqlite"))
    before = _site_files(empty_venv)

    def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)

    probe = run(python, "-c", "import importlib.util as u; print(u.find_spec('numba'), u.find_spec('matplotlib'))")
    assert probe.stdout.split() == ["None", "None"], probe.stderr  # the core alone: no JIT, no report
    loaded = run(python, "-c", "from knight.engine.kernel import ahead_of_time_module as m; print(m().__file__)")
    assert Path(loaded.stdout.strip()).parent == _site_packages(empty_venv) / "knight" / "engine", loaded.stderr

    tour = run(knight, "tour", "1000")  # Warnsdorff's first-move rule stops short on 1000 x 1000: exit 1
    assert tour.returncode in (0, 1) and "1000x1000" in tour.stdout, tour.stderr[-2000:]
    census = run(knight, "census", "5", "--json")
    assert census.returncode == 0, census.stderr[-2000:]
    assert json.loads(census.stdout)["total"] == 1728
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "ada.txt").write_text(run(knight, "tour", "5").stdout)
    grade = run(knight, "grade", "class", "--out", "graded")
    assert grade.returncode == 0, grade.stderr[-2000:]
    assert (tmp_path / "graded" / "ada.html").is_file() and "ada" in (tmp_path / "graded" / "gradebook.csv").read_text()
    for done in (tour, census, grade):
        assert "notice" not in done.stderr  # compiled, not interpreted

    assert _site_files(empty_venv) == before
