"""The searches for one tour (engine/rotation, pruned, joined, strip, links), one module each: their examples
run, and engine/hamilton still names them together for the modules that import them from there."""

import doctest
import importlib
from pathlib import Path

import pytest

import knight.engine
from knight.engine import hamilton

SEARCHES = ["rotation", "pruned", "links", "joined", "strip"]


@pytest.mark.parametrize("name", SEARCHES)
def test_docstring_examples(name):
    module = importlib.import_module(f"knight.engine.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_hamilton_names_each_search_from_its_module():
    homes = {name: importlib.import_module(f"knight.engine.{name}") for name in SEARCHES}
    for name in hamilton.__all__:
        found = [home for home in homes.values() if name in home.__all__]
        assert len(found) == 1, name
        assert getattr(hamilton, name) is getattr(found[0], name)


def test_no_module_of_knight_is_over_600_lines_but_generated_data():
    """Issue 30: a module stays small enough to read in one sitting; Parberry's base tours are data."""
    package = Path(knight.engine.__file__).parent.parent
    long = {
        str(path.relative_to(package)) for path in package.rglob("*.py") if len(path.read_text().splitlines()) > 600
    }
    assert long <= {"engine/parberry_base.py"}
