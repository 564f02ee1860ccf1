"""docs/install.md is true (issue 38, item 3): every command it shows works as a newcomer runs it, in order (the
installed wheel's in an empty folder outside any clone, this checkout's `.venv` standing for the skipped `pip
install`), except those marked as needing the network; the compile runs as written, into a cache folder of the
test's own. The page's first block, the clone's commands, is the README's first block word for word (checked
here), so tests/test_readme.py's walk runs it in a fresh clone, `make report` for real, once for both pages.
What the page says of the wheel's name, the extras and where the results go is checked against the build."""

from __future__ import annotations

import re
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from doc_commands import ROOT, VENV, check, clean_environment, commands, stand_in, transcript, walk

README = ROOT / "README.md"
PAGE = ROOT / "docs" / "install.md"


def test_every_command_of_the_install_page_works(tmp_path):
    if Path(sys.prefix).resolve() != VENV.resolve():
        pytest.skip("the tests do not run in the checkout's .venv, which stands for the page's pip install")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = clean_environment(tmp_path, venv_on_path=True)
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # the compile's kernels: not into the user's own cache
    steps = commands(PAGE.read_text(encoding="utf-8"))
    after_the_clone = [step for step in steps if step.block != steps[0].block]

    outcomes = walk(after_the_clone, elsewhere, env, stand_in)
    print("\n" + transcript(outcomes))
    check(outcomes)
    assert sum(outcome.ran is not None for outcome in outcomes) >= 3
    # knight run and knight report outside a clone: the store in the user's data folder, no var/ where they ran
    assert (tmp_path / "data" / "knight" / "knight.sqlite").is_file()
    assert not (elsewhere / "var").exists() and (elsewhere / "reports" / "out" / "knights-tour.html").is_file()
    assert any((tmp_path / "cache" / "knight").rglob("*.so")) or any((tmp_path / "cache" / "knight").rglob("*.pyd"))


def test_the_clones_commands_are_the_readmes_which_its_walk_runs():
    def first_block(page):
        steps = commands(page.read_text(encoding="utf-8"))
        return [step.shell for step in steps if step.block == steps[0].block]

    clone_block = first_block(PAGE)
    assert "make report" in clone_block and len(clone_block) >= 3
    assert clone_block == first_block(README), "walk the install page's first block in a clone of its own"


def test_the_wheel_named_is_the_one_the_build_makes():
    text = PAGE.read_text(encoding="utf-8")
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    names = set(re.findall(r"knights_tour_lab-[^\s'`\[]+\.whl", text))
    assert names == {f"knights_tour_lab-{version}-cp311-cp311-linux_x86_64.whl"}
    assert "py3-none-any.whl" not in text
    if sys.version_info[:2] == (3, 11) and sysconfig.get_platform() == "linux-x86_64":
        tag = f"cp311-cp311-{sysconfig.get_platform().replace('-', '_')}"
        assert f"`{tag}`" in text  # what tests/test_wheel.py builds here


def test_the_page_names_every_extra_and_the_dev_group():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    extras = project["project"]["optional-dependencies"]
    assert "dev" not in extras and "dev" in project["dependency-groups"]
    for extra in extras:
        assert f"`{extra}`" in text
    assert "dependency group `dev`" in text and "--group dev" in text
    assert "user_data_path" in text and "~/.local/share/knight/knight.sqlite" in text
