"""A method is said once (issue 39, item 1): its entry in `engine/methods.py` (`METHODS`) says what every layer
needs of it (its parameters, its name in prose, whether it makes only full tours, how a closed tour of it is
named, when it takes a seed, whether the grader tries it), and no other module lists methods by name: a list,
a tuple, a set or a dict's keys naming two or more of them is a second registry that a new method would miss."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from knight.engine import METHODS
from knight.engine.methods import Method

PACKAGE = Path(__file__).resolve().parent.parent / "knight"
HOME = PACKAGE / "engine" / "methods.py"


def listings(source: str, names: set[str]) -> list[tuple[int, list[str]]]:
    """Each collection literal of ``source`` that names two or more of ``names`` (a dict by its keys)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items: list[ast.expr | None] = list(node.elts)
        elif isinstance(node, ast.Dict):
            items = list(node.keys)
        else:
            continue
        named = [item.value for item in items if isinstance(item, ast.Constant) and item.value in names]
        if len(named) >= 2:
            found.append((node.lineno, named))
    return found


def test_the_check_finds_a_listing_and_passes_a_single_name():
    source = 'A = {"naive": 1, "static": 2}\nif m in ("backtrack", "parberry"): pass\nif m == "warnsdorff": pass\n'
    assert listings(source, set(METHODS)) == [(1, ["naive", "static"]), (2, ["backtrack", "parberry"])]


def test_no_module_lists_methods_by_name_but_their_home():
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {', '.join(named)}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != HOME
        for line, named in listings(path.read_text(encoding="utf-8"), set(METHODS))
    ]
    assert found == [], "read it from the method's entry in METHODS instead"


def test_a_new_method_is_tried_by_the_grader_and_named_in_prose(monkeypatch: pytest.MonkeyPatch) -> None:
    from knight.grading.check import _specs

    naive = METHODS["naive"]
    extra = Method("dummy", "a test's method", "none", {}, naive.build, label="the dummy knight")
    monkeypatch.setitem(METHODS, "dummy", extra)
    assert ("the dummy knight", "dummy", {}) in _specs()
    monkeypatch.setitem(METHODS, "dummy", Method("dummy", "", "", {}, naive.build, label="x", graded=False))
    assert all(method != "dummy" for _, method, _ in _specs())
