"""No module of knight uses another's private names (issue 30): a name with a leading underscore belongs to the
module or package that defines it, which may change it without notice (typer's vendored ``typer._click``, a
module's helpers, multiprocessing's internals).

Read from the source with ``ast``: ``import a._b``, ``from a import _b``, ``from a._b import c``, ``m._b`` where
``m`` names an imported module or class, ``getattr(x, "_b")``, ``super()._b``, and ``x._b`` on any other object
unless ``_b`` is a name the module defines itself. Dunder names are public; ``self._b`` and ``cls._b`` are the
module's own. A private name is private to its parent: ``knight._lazy`` may be used anywhere in ``knight``,
``knight.cli.report._meta`` only in ``knight.cli.report``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import knight

PACKAGE = Path(knight.__file__).parent

#: Names with an underscore that their library documents as public.
PUBLIC_DESPITE_THE_UNDERSCORE = {"os._exit"}


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _private(name: str) -> bool:
    return name.startswith("_") and not _dunder(name)


def _foreign(dotted: str, module: str) -> bool:
    """Whether ``dotted`` (``a.b._c.d``) reaches a private name of a module or package other than ``module``'s own:
    each private part belongs to its parent, and only the parent and what is inside it may use it."""
    parts = dotted.split(".")
    for i, part in enumerate(parts):
        if i and _private(part):
            parent = ".".join(parts[:i])
            if module != parent and not module.startswith(parent + "."):
                return True
    return False


def _own_private_names(tree: ast.Module) -> set[str]:
    """The private names the module defines: functions, classes, assigned names and attributes, parameters."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and ast.unparse(node.value) in ("self", "cls")
        ):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias) and node.asname:
            names.add(node.asname)
    return {name for name in names if _private(name)}


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The module an import ``from`` names, a relative one resolved against ``module``."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def private_uses(source: str, module: str, *, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, what) for every use of another module's private name in ``source``, the text of ``module``."""
    tree = ast.parse(source)
    own = _own_private_names(tree)
    imported: dict[str, str] = {}  # a local name -> the dotted name of the module or class it stands for
    found: list[tuple[int, str]] = []

    def reach(line: int, dotted: str, shown: str) -> None:
        if dotted not in PUBLIC_DESPITE_THE_UNDERSCORE and _foreign(dotted, module):
            found.append((line, shown))

    def attribute(line: int, base: ast.expr, name: str, shown: str) -> None:
        if not _private(name):
            return
        if isinstance(base, ast.Name) and base.id in imported:
            reach(line, f"{imported[base.id]}.{name}", shown)
        elif isinstance(base, ast.Name) and base.id in ("self", "cls"):
            return
        elif isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super":
            found.append((line, shown))  # a base class's private name (one in this module would be its own)
        elif name not in own:
            found.append((line, shown))

    for node in ast.walk(tree):  # the imports first: an attribute may come before its lazy import in the walk
        if isinstance(node, ast.Import):
            for alias in node.names:
                reach(node.lineno, alias.name, f"import {alias.name}")
                imported[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, is_package)
            reach(node.lineno, base, f"from {base} import ...")
            for alias in node.names:
                reach(node.lineno, f"{base}.{alias.name}", f"from {base} import {alias.name}")
                imported[alias.asname or alias.name] = f"{base}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            attribute(node.lineno, node.value, node.attr, ast.unparse(node))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            shown = f"{node.func.id}({ast.unparse(node.args[0])}, {node.args[1].value!r})"
            attribute(node.lineno, node.args[0], node.args[1].value, shown)
    return sorted(found)


def _modules() -> list[tuple[Path, str, bool]]:
    """Every module of knight: its file, its dotted name, whether it is a package's ``__init__``."""
    modules = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        modules.append((path, ".".join(parts[:-1] if is_package else parts), is_package))
    return modules


def test_no_module_uses_another_ones_private_names():
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {shown}"
        for path, module, is_package in _modules()
        for line, shown in private_uses(path.read_text(), module, is_package=is_package)
    ]
    assert found == [], "use the public name, or make one public in the module that owns it"


def test_the_check_finds_each_kind_of_use():
    """A planted violation of each kind is found; the module's own and dunder names are not."""
    source = """
import os
import typer._click
from typer._click.exceptions import ClickException
from typer import _coercion
from knight.cli.report import _meta
from knight.engine import diagrams as d
from knight._lazy import lazy_names
from . import _sibling
from ..cli.report import _papers

class Own:
    def __init__(self):
        self._mine = 1

def f(param, other, queue):
    d._board(None, "")
    param._runtime_param = None
    getattr(queue, "_wlock")
    super()._send(1)
    other._mine
    os._exit(1)
    typer.__version__
    _meta
    return Own()._mine
"""
    found = [shown for _, shown in private_uses(source, "knight.store.thing")]
    assert found == [
        "import typer._click",
        "from typer._click.exceptions import ...",
        "from typer._click.exceptions import ClickException",
        "from typer import _coercion",
        "from knight.cli.report import _meta",
        "from knight.cli.report import _papers",
        "d._board",
        "param._runtime_param",
        "getattr(queue, '_wlock')",
        "super()._send",
    ]
