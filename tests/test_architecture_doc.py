"""ARCHITECTURE.md names only what exists: every path, module, name, table, command and option it cites.

What counts as cited is what the text puts in backticks (outside its fenced diagram):

* a path (``engine/board.py``, ``tests/store/test_store.py``, ``jobs/``, ``knight/report/templates/answers/<id>.html.j2``;
  ``<...>`` stands for any name): it exists relative to the repository or to ``knight/``;
* a name in the parentheses right after a module's path (``engine/tour.py`` (``Tour``, ``Tour.json_chunks``)):
  that module has it (for a package, a submodule will do); the same for a test file, read without importing it;
  after a TOML file's path, a key of that file (``pyproject.toml`` (``dask``): an extra);
* any other name (``Store.claim``, ``knight.errors.KnightError``, ``register_tie_break(name, meaning, ranks)``,
  ``@kernel_step``): ``knight.…`` imports, else some module of knight (or Python's builtins) has it, or it is a
  table of the store, a method or a job kind; the names a call passes are its parameters;
* ``knight COMMAND --option``: the command and its options exist; ``--option`` alone: some command has it;
  ``make TARGET``: the Makefile has the target; ``python -m MODULE`` and ``import MODULE``: it imports;
  ``$VARIABLE``: knight reads it.

Anything else in backticks (a signature, a tool's command line) is prose, but a path or a ``knight.`` name
inside it is checked all the same.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import importlib.util
import inspect
import pkgutil
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

import knight

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(knight.__file__).parent
DOC = ROOT / "ARCHITECTURE.md"

NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
PATH = re.compile(r"\.?[\w<>*-]+(?:\.[\w<>*-]+)*(?:/[\w<>*.-]+)*/?")
FILE_SUFFIXES = (".py", ".toml", ".j2", ".md", ".rst", ".yml", ".css", ".js", ".txt", ".cfg")


@dataclass(frozen=True)
class Span:
    """One backticked citation: its text, where it starts, and the module whose parentheses it stands in."""

    text: str
    offset: int
    context: str | None  # a path cited just before, in whose parentheses the span stands


def spans(text: str) -> Iterator[Span]:
    """Every backticked span of the text outside fenced blocks, with the path whose parentheses hold it."""
    text = _without_fences(text)
    found = [(" ".join(m.group(1).split()), m.start()) for m in re.finditer(r"`([^`]+)`", text)]  # may wrap
    groups = []  # (start, end, path): the parentheses right after a cited path
    for cited, offset in found:
        end = offset + len(cited) + 2
        if _is_path(cited) and re.match(r"[ \t]*\n?[ \t]*\(", text[end:]):
            start = text.index("(", end)
            groups.append((start, _closing(text, start), cited))
    for cited, offset in found:
        around = [(start, path) for start, end, path in groups if start < offset < end]
        yield Span(cited, offset, max(around)[1] if around else None)


def _without_fences(text: str) -> str:
    """The text with each fenced block blanked (same length, so offsets and line numbers stay)."""
    return re.sub(r"```.*?```", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def _closing(text: str, start: int) -> int:
    """Where the parenthesis opened at ``start`` closes, counting none inside backticks."""
    depth, quoted = 0, False
    for index in range(start, len(text)):
        char = text[index]
        if char == "`":
            quoted = not quoted
        elif not quoted and char == "(":
            depth += 1
        elif not quoted and char == ")":
            depth -= 1
            if depth == 0:
                return index
    return len(text)


def _is_path(cited: str) -> bool:
    return not cited.startswith("-") and bool(PATH.fullmatch(cited)) and ("/" in cited or cited.endswith(FILE_SUFFIXES))


def problems(text: str, root: Path = ROOT) -> list[str]:
    """What the text cites that does not exist, one line each: ``line N: `cited`: why``."""
    found = []
    for span in spans(text):
        problem = _problem(span, root)
        if problem:
            found.append(f"line {text.count(chr(10), 0, span.offset) + 1}: `{span.text}`: {problem}")
    return found


def _problem(span: Span, root: Path) -> str | None:
    cited = span.text.strip()
    if _is_path(cited):
        return None if _where(cited, root) else "no such path in the repository or in knight/"
    words = cited.split()
    if words[0] == "knight" and len(words) > 1 or cited == "knight":
        return _command_problem(words[1:])
    if cited.startswith("-"):
        return _options_problem(words)
    if words[0] == "make" and len(words) == 2:
        targets = re.findall(r"^([\w-]+):", (root / "Makefile").read_text(), flags=re.M)
        return None if words[1] in targets else "the Makefile has no such target"
    if words[:2] == ["python", "-m"] and len(words) >= 3 or words[0] == "import" and len(words) == 2:
        return None if importlib.util.find_spec(words[-1] if words[0] == "import" else words[2]) else "no such module"
    if re.fullmatch(r"\$\w+", cited):
        return None if _reads_variable(cited[1:]) else "knight reads no such variable"
    name, arguments = _call(cited.removeprefix("@"))
    if name is not None:
        return _name_problem(name, arguments, span.context, root)
    for word in re.findall(r"[^\s:,;()]+", cited):  # prose: its paths and knight.* names checked all the same
        if "/" in word and _is_path(word) and not _where(word, root):
            return f"{word}: no such path"
        if word.startswith("knight.") and NAME.fullmatch(word) and _resolve_dotted(word) is None:
            return f"{word}: no such name"
    return None


def _where(cited: str, root: Path) -> Path | None:
    """The file or folder a cited path names, relative to the repository or to knight/ (``<...>``: any name)."""
    pattern = re.sub(r"<[^>]*>", "*", cited.rstrip("/"))
    for base in (root, root / "knight"):
        for match in base.glob(pattern) if "*" in pattern else [base / pattern]:
            if match.exists() and (match.is_dir() or not cited.endswith("/")):
                return match
    return None


def _call(cited: str) -> tuple[str | None, list[str]]:
    """A name (``Store.claim``), or a call of one (``Store(path, read_only=True)``): the name and the names it
    passes; (None, []) for anything else."""
    if NAME.fullmatch(cited):
        return cited, []
    try:
        node = ast.parse(cited, mode="eval").body
    except SyntaxError:
        return None, []
    if not isinstance(node, ast.Call) or not NAME.fullmatch(ast.unparse(node.func)):
        return None, []
    passed = [a.id for a in node.args if isinstance(a, ast.Name)] + [k.arg for k in node.keywords if k.arg]
    return ast.unparse(node.func), passed


def _name_problem(name: str, arguments: list[str], context: str | None, root: Path) -> str | None:
    module = _module_name(context, root) if context is not None else None
    if context is not None and module is None and context.endswith(".py"):  # a test, a tool, a reference program
        return None if _defined_in_file(_where(context, root), name) else f"{context} has no such name"
    if context is not None and context.endswith(".toml"):
        return None if name in _keys(_where(context, root)) else f"{context} has no such key"
    if module is not None:
        found = _resolve_in(importlib.import_module(module), name.split("."))
        if found is None and name not in _other_words():
            return f"{context} has no such name"
    elif name.startswith("knight.") or name == "knight":
        found = _resolve_dotted(name)
        if found is None:
            return "no such module or name"
    else:
        found = _resolve_anywhere(name)
        if found is None and name not in _other_words():
            return "no module of knight has this name, and it is no table, method or job kind"
    if found is not None and arguments:
        missing = [a for a in arguments if a not in _parameters(found)]
        if missing:
            return f"takes no parameter {', '.join(missing)}"
    return None


def _keys(path: Path | None) -> set[str]:
    """Every key of a TOML file, at any depth (a ``pyproject.toml``'s extras among them)."""
    if path is None or path.is_dir():
        return set()

    def walk(value: object) -> Iterator[str]:
        if isinstance(value, dict):
            for key, inner in value.items():
                yield key
                yield from walk(inner)

    return set(walk(tomllib.loads(path.read_text())))


def _module_name(path: str, root: Path) -> str | None:
    """The dotted name of the knight module or package a cited path is; None if it is none (or lies in a folder
    that is no package, as the reference programs do: scripts, never imported)."""
    where = _where(path, root)
    if where is None or PACKAGE not in (where, *where.parents) or not (where.suffix == ".py" or where.is_dir()):
        return None
    folder = where if where.is_dir() else where.parent
    if any(not (f / "__init__.py").exists() for f in (folder, *folder.parents) if PACKAGE in (f, *f.parents)):
        return None
    parts = where.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _defined_in_file(path: Path | None, name: str) -> bool:
    """Whether a Python file outside knight (a test, a tool) defines the name, read without running it."""
    if path is None or path.is_dir():
        return False
    scope: list[ast.stmt] = ast.parse(path.read_text()).body
    for part in name.split("."):
        found = next((node for node in scope if part in _defines(node)), None)
        if found is None:
            return False
        scope = found.body if isinstance(found, ast.ClassDef) else []
    return True


def _defines(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    return set()


_MISSING = object()


def _member(owner: object, name: str) -> object:
    """The attribute, a submodule of a package, or a field a class declares (a dataclass's, a TypedDict's)."""
    if hasattr(owner, name):
        return getattr(owner, name)
    if isinstance(owner, ModuleType) and hasattr(owner, "__path__"):
        try:
            return importlib.import_module(f"{owner.__name__}.{name}")
        except ModuleNotFoundError:
            return _MISSING
    if isinstance(owner, type) and any(name in vars(kind).get("__annotations__", {}) for kind in owner.__mro__):
        return None  # a declared field: it exists, with nothing further to look into
    return _MISSING


def _resolve_in(owner: object, names: list[str]) -> object:
    """The object the names lead to from ``owner``, None when one is missing (or a field ends the chain)."""
    for index, name in enumerate(names):
        owner = _member(owner, name)
        if owner is _MISSING or (owner is None and index < len(names) - 1):
            return None
    return owner if owner is not None else _FIELD


_FIELD = object()  # a declared field, found: it has no parameters to check


def _resolve_dotted(name: str) -> object:
    """``knight.x.y.Name.attr``: the longest prefix that imports, then attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        return _resolve_in(module, parts[cut:])
    return None


def _resolve_anywhere(name: str) -> object:
    """A name some module of knight has (its first part a module's public name or a module's own name)."""
    first, *rest = name.split(".")
    for owner in [*_everything().get(first, []), *([getattr(builtins, first)] if hasattr(builtins, first) else [])]:
        found = _resolve_in(owner, rest)
        if found is not None:
            return found
    return None


@cache
def _everything() -> dict[str, list[object]]:
    """Every public name of every module of knight, and each module by its own name."""
    names: dict[str, list[object]] = {}
    modules = [knight] + [
        importlib.import_module(info.name) for info in pkgutil.walk_packages(knight.__path__, "knight.")
    ]
    for module in modules:
        names.setdefault(module.__name__.rsplit(".", 1)[-1], []).append(module)
        for attribute, value in vars(module).items():
            if not attribute.startswith("_") or attribute in getattr(module, "__all__", ()):
                names.setdefault(attribute, []).append(value)
    return names


@cache
def _other_words() -> frozenset[str]:
    """Names that are no Python name but the store's tables, the methods and the job kinds."""
    from knight import tasks
    from knight.engine import METHODS
    from knight.store.schema import SCHEMA

    tables = re.findall(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", SCHEMA)
    return frozenset([*tables, *METHODS, tasks.CENSUS, tasks.ESTIMATE])


def _parameters(found: object) -> set[str]:
    try:
        return set(inspect.signature(found).parameters)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return set()


@cache
def _commands() -> dict[str, object]:
    """The ``knight`` group (under "") and each of its commands, by name (click's objects, made once)."""
    import typer

    from knight.cli import app

    group = typer.main.get_command(app)
    return {"": group, **group.commands}  # type: ignore[attr-defined]


def _command_problem(words: list[str]) -> str | None:
    command = _commands()[""]
    if words and not words[0].startswith("-"):
        if words[0] not in _commands():
            return f"knight has no command {words[0]}"
        command, words = _commands()[words[0]], words[1:]
    return _options_problem(words, [command])


def _options_problem(words: list[str], commands: list[object] | None = None) -> str | None:
    """Each ``--option`` (``-q/--quiet``: each form) is one of the commands' (any command's by default)."""
    known = {"--help"} | {
        option
        for command in commands or _commands().values()
        for param in command.params  # type: ignore[attr-defined]
        for option in param.opts + param.secondary_opts
    }
    for word in words:
        for option in word.split("/") if word.startswith("-") else []:
            if option not in known:
                return f"no such option {option}"
    return None


def _reads_variable(variable: str) -> bool:
    return any(f'"{variable}"' in text for text in _sources())


@cache
def _sources() -> tuple[str, ...]:
    return tuple(path.read_text() for path in sorted(PACKAGE.rglob("*.py")))


def test_every_path_and_name_architecture_md_cites_exists():
    assert problems(DOC.read_text()) == []


def test_every_module_of_knight_has_a_home_on_the_page():
    """A module added without a row (or a line) of its own would leave the page true but out of date."""
    cited = set()
    for span in spans(DOC.read_text()):
        if _is_path(span.text) and "<" not in span.text and (where := _where(span.text, ROOT)):
            cited.add(where.resolve())
        elif span.context and (folder := _where(span.context, ROOT)) and folder.is_dir():
            cited.add((folder / f"{span.text}.py").resolve())  # `report/answers/` (`deitel`): its module
    folders = {path.parent for path in PACKAGE.rglob("__init__.py")}
    modules = [p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" and p.parent in folders]
    scripts = {p.parent for p in PACKAGE.rglob("*.py") if p.parent not in folders}  # the reference programs
    assert sorted(str(p.relative_to(PACKAGE)) for p in modules + list(scripts) if p.resolve() not in cited) == []


def test_the_layer_table_is_the_one_the_import_test_enforces():
    from test_architecture import ALLOWED

    rows = re.findall(r"^\| `knight\.(\w+)` \| ([^|(]*)", DOC.read_text(), flags=re.M)
    table = {part: set() if may.strip() == "nothing" else set(may.strip().split(", ")) for part, may in rows}
    assert table == ALLOWED


#: The packages the project was asked to use (issue 39): each has its row, whether it is used or not.
ASKED_FOR = {"typer", "multiprocessing-logging", "jinja2", "weasyprint", "pytest"}


def dependency_rows(text: str) -> dict[str, tuple[bool, set[str]]]:
    """The table of the section Dependencies: each package -> (asked for, where it is declared)."""
    section = text.split("\n## Dependencies\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| ([\w.-]+) \| (yes)? *\| ([^|]+?) \|", section, flags=re.M)
    return {name: (asked == "yes", set(declared.split(", "))) for name, asked, declared in rows}


def declared_dependencies(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, set[str]]:
    """Each package ``pyproject.toml`` names -> where: core, build, an extra's name, a dependency group's."""
    project = tomllib.loads(pyproject.read_text())
    places = [("core", project["project"]["dependencies"]), ("build", project["build-system"]["requires"])]
    places += [*project["project"]["optional-dependencies"].items(), *project["dependency-groups"].items()]
    found: dict[str, set[str]] = {}
    for place, requirements in places:
        for requirement in requirements:
            if isinstance(requirement, str):  # not a group's include-group
                name = re.match(r"[A-Za-z0-9_.-]+", requirement)
                assert name is not None, requirement
                found.setdefault(name.group(0).lower(), set()).add(place)
    return found


def test_every_dependency_has_a_row():
    """ARCHITECTURE.md's table of dependencies names every package pyproject.toml does, where it declares it,
    and each one the project was asked to use; a package it names that is not declared says so."""
    rows, declared = dependency_rows(DOC.read_text()), declared_dependencies()
    assert {name: rows[name][1] for name in declared if name in rows} == declared
    assert sorted(set(declared) - set(rows)) == [], "add a row to ARCHITECTURE.md's table of dependencies"
    assert {name for name, (_, where) in rows.items() if name not in declared and where != {"none: dropped"}} == set()
    assert {name for name, (asked, _) in rows.items() if asked} == ASKED_FOR


def test_a_dependency_without_a_row_is_found(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    text = (ROOT / "pyproject.toml").read_text()
    pyproject.write_text(text.replace('"psutil>=5.9",', '"psutil>=5.9",\n    "attrs>=23",'))
    declared = declared_dependencies(pyproject)
    assert declared["attrs"] == {"core"} and declared["dask"] == {"dask"} and declared["numba"] == {"jit", "build"}
    assert "attrs" not in dependency_rows(DOC.read_text())


#: (what the text says, a false version of it): each false version must be reported.
PLANTED = [
    ("`engine/board.py`", "`engine/bored.py`"),
    ("(`Board`)", "(`Bored`)"),
    ("`Tour.json_chunks`", "`Tour.json_chunk`"),
    ("`Store.claim`", "`Store.clam`"),
    ("`knight.errors.MissingExtra`", "`knight.errors.MissingExtras`"),
    ("`register_tie_break(name, meaning, ranks)`", "`register_tie_break(name, meaning, rank)`"),
    ("`knight starts`", "`knight start`"),
    ("`knight tour --method find`", "`knight tour --mehtod find`"),
    ("`make lint`", "`make lnt`"),
    ("`tests/test_architecture.py`", "`tests/test_architecture_.py`"),
    ("`census_shares`", "`census_share`"),
    ("`$KNIGHT_STORE`", "`$KNIGHT_STOR`"),
]


@pytest.mark.parametrize(("true", "false"), PLANTED, ids=[false for _, false in PLANTED])
def test_a_false_citation_planted_in_a_copy_is_reported(tmp_path, true, false):
    text = DOC.read_text()
    assert true in text, f"ARCHITECTURE.md no longer says {true}: plant the false one elsewhere"
    copy = tmp_path / "ARCHITECTURE.md"
    copy.write_text(text.replace(true, false, 1))
    found = problems(copy.read_text())
    line = f"line {text.count(chr(10), 0, text.index(true)) + 1}: "
    assert found and all(problem.startswith(line) for problem in found), found  # there, and only there
    assert any(false.split("(")[-1].strip("`)") in problem for problem in found), found


def test_a_name_is_looked_up_in_the_module_it_is_cited_beside():
    # KnightError exists, but not in engine/board.py: beside that path it is false
    text = "`engine/board.py` (`Board`, `KnightError`) and `errors.py` (`KnightError`)"
    assert problems(text) == ["line 1: `KnightError`: engine/board.py has no such name"]


@pytest.mark.parametrize(
    "cited",
    [
        "`engine/<name>.py`",
        "`report/answers/` (`deitel`)",
        "`tests/store/test_store.py` (`test_a_store_of_another_version_is_refused`)",
        "`knight.tour(8)`",
        "`@kernel_step`",
        "`UnitCount.share`",
        "`-q/--quiet`",
        "`python -m knight.aot`",
    ],
)
def test_what_exists_is_not_reported(cited):
    if "tests/store/test_store.py" in cited:
        real = next(n for n in _top_level(ROOT / "tests/store/test_store.py") if n.startswith("test_"))
        cited = f"`tests/store/test_store.py` (`{real}`)"
    assert problems(cited) == []


def _top_level(path: Path) -> list[str]:
    return [name for node in ast.parse(path.read_text()).body for name in _defines(node)]
