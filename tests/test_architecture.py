"""The layers of ARCHITECTURE.md, enforced: who may import whom inside knight.

Every import is read from the source (module level and inside functions alike), so a lazy import
that crosses a layer is caught too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import knight

PACKAGE = Path(knight.__file__).parent

#: Each part of knight and the parts it may import (itself always). Bottom to top.
ALLOWED = {
    "_lazy": set(),
    "errors": set(),
    "files": {"errors"},
    "engine": {"errors"},
    "tasks": {"engine", "errors"},
    "store": {"engine", "errors", "tasks"},
    "runner": {"engine", "errors", "files", "tasks", "store"},
    "report": {"engine", "errors", "files", "tasks", "store"},
    "grading": {"engine", "errors", "files", "report"},
    "aot": {"engine", "errors"},
    "cli": {"engine", "errors", "files", "tasks", "store", "runner", "report", "grading"},
}


def _part(module: str) -> str | None:
    """The part of knight a dotted module name belongs to ('engine', 'store', ...), None outside knight."""
    names = module.split(".")
    if names[0] != "knight":
        return None
    return names[1] if len(names) > 1 else "__init__"


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import of a knight module in the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return [(line, module) for line, module in found if module.split(".")[0] == "knight"]


def test_every_part_of_knight_is_in_the_layer_table():
    parts = {
        path.stem if path.is_file() else path.name
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py" or (path / "__init__.py").exists()) and path.name not in ("__init__.py", "__main__.py")
    }
    assert parts == set(ALLOWED), "add the new part to ALLOWED here and to ARCHITECTURE.md"


def test_each_layer_imports_only_the_layers_below_it():
    crossings = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        if own in ("__init__", "__main__"):
            continue
        for line, module in _imports(path):
            other = _part(module)
            if other not in (own, "__init__", "_lazy") and other not in ALLOWED[own]:  # _lazy: imports nothing
                crossings.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}")
            if other == "__init__" and own != "cli":  # the command line may read knight.__version__
                crossings.append(
                    f"{path.relative_to(PACKAGE.parent)}:{line} imports the package root; "
                    "import from the part that defines the name"
                )
    assert crossings == []


def test_the_engine_and_the_public_api_load_without_the_heavy_libraries():
    code = (
        "import sys, knight, knight.cli; "
        "print(sorted(m for m in ('numba', 'weasyprint', 'matplotlib', 'jinja2') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_the_command_line_starts_without_the_engine():
    """`knight --help` and every command's import stay light: the engine, numpy, the store's database and
    the job files' models load only when a command runs, and rich (tables, progress bars) only where it draws."""
    heavy = (
        "numpy",
        "pydantic",
        "rich.console",
        "rich.table",
        "knight.engine",
        "knight.store.database",
        "knight.runner",
    )
    code = f"import sys, knight.cli; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_the_public_api_is_listed_and_importable():
    assert "KnightError" in knight.__all__ and "Board" in knight.__all__ and "find_tour" in knight.__all__
    for name in knight.__all__:
        assert hasattr(knight, name), name
    assert callable(knight.census) and callable(knight.find_tour)  # functions, not modules of the same name


def test_every_public_module_says_what_it_exports():
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name.startswith("_") and path.name != "__init__.py":
            continue
        if path.relative_to(PACKAGE).parts[0] == "programs":
            continue  # the key's reference programs: scripts a student runs, not modules to import
        tree = ast.parse(path.read_text())
        names = [
            target.id
            for node in tree.body
            if isinstance(node, (ast.Assign, ast.AnnAssign))
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name)
        ]
        assert "__all__" in names, f"{path.relative_to(PACKAGE.parent)} has no __all__"


def test_the_runner_loads_rich_only_to_draw_a_bar():
    code = "import sys, knight.runner, knight.runner.progress; print(sorted(m for m in sys.modules if m == 'rich'))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
