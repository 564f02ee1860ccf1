"""Shared fixtures and settings: the kernels' strict mode, hypothesis's profiles, a cache of the session's own,
the browser."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest
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
