"""Shared fixtures and settings: the kernels' strict mode, hypothesis's profiles, a cache of the session's own,
the browser, a store of every shipped job."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from filelock import FileLock
from hypothesis import settings

# A kernel called with other types than it declares is an error in the tests, not a quiet fall-back to the JIT:
# the ahead-of-time module (knight/aot.py) is used for every call it can take.
os.environ.setdefault("KNIGHT_AOT", "strict")
# The tables' width follows $COLUMNS (knight results): the tests expect a pipe's, whatever terminal runs them
# (pytest-xdist's workers set COLUMNS=80).
for _size in ("COLUMNS", "LINES"):
    os.environ.pop(_size, None)

# knight's default store outside a clone is in the user's data folder (knight/store/location.py): a test that runs
# knight in a temporary folder without --store writes it to a data folder of the session's own, not the user's.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="knight-test-data-")

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Programs run into a cache of the test session's own, not the user's (the key's render in test_errata.py
    reads what test_programs.py ran)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, driven by Playwright (never Playwright's own browser download)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: `make test` installs it with apt-get")
        pytest.skip("chromium is not installed: `make test` installs it with apt-get")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def shipped_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of every shipped job (``jobs/*.toml``), run by `knight run` as `make report` runs them; made once a
    session however many pytest-xdist workers ask (the first makes it under a lock, the others wait for it), so
    it is only read: copy it to change it."""
    from runner_helpers import REPO, knight

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the session's folder, above each worker's own
    store = shared / "shipped-store" / "knight.sqlite"
    failed = shared / "shipped-store-failed.txt"  # a failed run is said to every worker, not run again by each
    with FileLock(str(shared / "shipped-store.lock")):
        if not store.is_file() and not failed.is_file():
            making = shared / "shipped-store-making"
            shutil.rmtree(making, ignore_errors=True)
            making.mkdir()
            jobs = sorted(str(job) for job in (REPO / "jobs").glob("*.toml"))
            try:
                done = knight(["run", *jobs, "--workers", "2"], making / "knight.sqlite", timeout=900)
                why = "" if done.returncode == 0 else done.stderr[-2000:] or f"exit status {done.returncode}"
            except Exception as error:  # a timeout: said the same way
                why = repr(error)
            if why:
                failed.write_text(why, encoding="utf-8")
            else:
                making.rename(store.parent)  # whole or not at all: a failed run leaves no store for the others
    if failed.is_file():
        pytest.fail("knight run of the shipped jobs failed:\n" + failed.read_text(encoding="utf-8"))
    return store
