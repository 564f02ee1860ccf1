"""The reference programs of the answer key (``knight/programs/``): each run as a Python process of its own,
what it printed kept in a cache named by the hash of the program, its arguments and the interpreter's version, and
its text highlighted with Pygments.

The programs are plain Python 3 with the standard library only, for students to read; nothing here imports them.
Each says in its docstring which Python it needs ("Python 3.9 or newer"; :attr:`Listing.python`), takes its
arguments with argparse (a bad one: a usage line and exit status 2) and its randomness from ``--seed``.
The key shows each program after the answer to the question it answers, with the output of the runs the key's
figures can be checked against (:data:`PROGRAMS`; arguments that depend on the results, such as the start where a
rule fails, are taken from the store). A warm report reads every output from the cache.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from knight.engine import Board
from knight.errors import MissingData, MissingExtra, RenderError
from knight.report.answers.common import StoreData
from knight.report.answers.homework import shown_failure

__all__ = [
    "PROGRAMS",
    "Listing",
    "Program",
    "Run",
    "cache_folder",
    "highlight",
    "listings",
    "program_text",
    "python_needed",
    "run_source",
    "tree_size_args",
]

#: The folder of the programs, shipped as package data.
PROGRAMS_FOLDER = importlib.resources.files("knight") / "programs"
#: The longest a program may run before the report gives up on it, in seconds (the slowest takes about 3).
TIMEOUT = 120
#: How a run with a seed starts: ``random.seed(seed)``, then the program as ``__main__`` (for the blog's script as
#: printed, which draws its start at random and reads no ``--seed``: the errata run it so).
_SEEDED = (
    "import random, runpy, sys; name, seed = sys.argv[1], int(sys.argv[2]); sys.argv = [name, *sys.argv[3:]]; "
    "random.seed(seed); runpy.run_path(name, run_name='__main__')"
)


@dataclass(frozen=True)
class Run:
    """One run of a program: its arguments, what it printed, its exit status and how long it took."""

    name: str
    args: tuple[str, ...]
    seed: int | None
    stdout: str
    stderr: str
    status: int
    seconds: float

    @property
    def command(self) -> str:
        """The command line a student types (a seeded run says so)."""
        seeded = f" (after random.seed({self.seed}))" if self.seed is not None else ""
        return " ".join(["python3", self.name, *self.args]) + seeded

    @property
    def error(self) -> str:
        """The interpreter's last line on an error (``NameError: name 'random' is not defined``), or ''."""
        lines = self.stderr.strip().splitlines()
        return lines[-1] if self.status != 0 and lines else ""

    @property
    def error_line(self) -> int | None:
        """The line of the program the error was raised at, as the traceback names it (its last mention)."""
        found = re.findall(rf'File "{re.escape(self.name)}", line (\d+)', self.stderr)
        return int(found[-1]) if found else None


@dataclass(frozen=True)
class Program:
    """A reference program and where the key shows it: after the answer to ``question``, run with each of
    ``runs`` (argument lists), which may depend on the stored results."""

    question: str
    file: str
    title: str
    runs: Callable[[StoreData], list[tuple[str, ...]]]
    seed: int | None = None


@dataclass(frozen=True)
class Listing:
    """A program as the key prints it: its file, what it is, its text highlighted, and its runs."""

    question: str
    file: str
    title: str
    source: str
    html: str
    runs: list[Run]

    @property
    def lines(self) -> int:
        return len(self.source.splitlines())

    @property
    def python(self) -> str:
        """The Python the program needs, as its docstring says: ``3.9`` (from "Python 3.9 or newer")."""
        return python_needed(self.source)

    @property
    def python_version(self) -> tuple[int, ...]:
        """:attr:`python` as numbers, to compare: ``(3, 9)``."""
        return tuple(int(part) for part in self.python.split("."))

    @property
    def output_width(self) -> int:
        """The longest line any run printed, in characters (a narrow output leaves the code more room)."""
        return max(
            (len(line.rstrip()) for run in self.runs for line in (run.stdout + run.stderr).splitlines()), default=0
        )


def program_text(file: str) -> str:
    """The text of a shipped program (or of the blog's script as printed, ``blog_script_as_printed.txt``)."""
    return (PROGRAMS_FOLDER / file).read_text(encoding="utf-8")


def python_needed(source: str) -> str:
    """The oldest Python a program runs on, as its docstring says it: "Python 3.9 or newer" gives ``3.9``."""
    found = re.search(r"Python (3\.\d+) or newer", source)
    if found is None:
        raise RenderError("a reference program does not say which Python it needs (“Python 3.N or newer”)")
    return found.group(1)


def cache_folder() -> Path:
    """Where the outputs are kept: ``$XDG_CACHE_HOME/knight/listings`` (``~/.cache`` without it)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "knight" / "listings"


def run_source(source: str, args: Sequence[str] = (), *, name: str = "program.py", seed: int | None = None) -> Run:
    """Run ``source`` as the file ``name`` in a folder of its own with this interpreter (isolated: ``-I``), and
    return what it printed; a run already made of the same text, arguments, seed and Python version is read
    from the cache instead. A program that does not end within :data:`TIMEOUT` raises :class:`RenderError`."""
    args = tuple(args)
    key = hashlib.sha256(json.dumps([source, name, args, seed, list(sys.version_info[:2])]).encode("utf-8")).hexdigest()
    cached = _cached(key)
    if cached is not None:
        return cached
    with tempfile.TemporaryDirectory(prefix="knight-program-") as folder:
        Path(folder, name).write_text(source, encoding="utf-8")
        head = [sys.executable, "-I"] + (["-c", _SEEDED, name, str(seed)] if seed is not None else [name])
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [*head, *args], cwd=folder, capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT
            )
        except subprocess.TimeoutExpired:
            raise RenderError(
                f"the program {name} {' '.join(args)} did not finish within {TIMEOUT} s; "
                "check that it is the shipped version (knight/programs/)"
            ) from None
        seconds = time.perf_counter() - started
        stderr = done.stderr.replace(str(Path(folder).resolve()) + os.sep, "").replace(folder + os.sep, "")
    run = Run(name, args, seed, done.stdout, stderr, done.returncode, round(seconds, 3))  # the folder's name is chance
    _keep(key, run)
    return run


def _cached(key: str) -> Run | None:
    """The run kept under ``key``, or None (never made, or the file is unreadable: run it again)."""
    try:
        kept = json.loads((cache_folder() / f"{key}.json").read_text(encoding="utf-8"))
        return Run(**{**kept, "args": tuple(kept["args"])})
    except (OSError, ValueError, TypeError, KeyError):
        return None


def _keep(key: str, run: Run) -> None:
    """Keep ``run`` under ``key``, atomically; a cache that cannot be written is no error (the run is redone)."""
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{key}.", suffix=".partial")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(asdict(run), file)
        os.replace(temporary, folder / f"{key}.json")
    except OSError:
        pass


def highlight(source: str, language: str = "python") -> str:
    """``source`` as HTML: Pygments' tokens as classes (styled in style.css), line numbers for ``python``."""
    try:  # lazily: only the key's listings need it
        from pygments import highlight as pygmentize
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import DiffLexer, PythonLexer
    except ModuleNotFoundError as error:  # the report extra
        raise MissingExtra("Pygments", "report", "the answer key's program listings") from error

    lexer = PythonLexer() if language == "python" else DiffLexer()
    numbers = "inline" if language == "python" else False
    return str(pygmentize(source, lexer, HtmlFormatter(linenos=numbers, cssclass="code", wrapcode=True)))


def _homework_failure(data: StoreData) -> list[tuple[str, ...]]:
    """The 5 x 5 start where Homework #8's program stops short although a tour exists from it (or, failing
    that, any start where it stops short): the one a teacher shows; none if it never does."""
    failed = [s for s, r in data.results.by_start("warnsdorff", 5, 5, tie="homework").items() if not r.full]
    shown = shown_failure(Board(5, 5), failed)  # the start the key's B1 shows too
    return [] if shown is None else [("5", "5", str(shown[0]), str(shown[1]))]


def _eight_budget(data: StoreData) -> tuple[str, ...]:
    """Try_Next_Move on 8 x 8 with the budget of the stored search from (0, 0) (2,000,000 nodes)."""
    stored = [
        r
        for r in data.results.select("backtrack", 8, 8, order="plain", closed=False)
        if r.start == (0, 0) and "removed" not in r.params
    ]
    if not stored:
        raise MissingData("no plain search on 8 x 8 from (0, 0)")
    return ("8", str(stored[0].params["budget"]))


def tree_size_args(data: StoreData) -> tuple[str, ...]:
    """tree_size.py on 8 x 8 with the seed of the stored estimate (0 without one) and the paths of one of its
    checkpoints: it prints the very running estimate the engine kept there (the same random numbers)."""
    stored = [e.seed for e in data.estimates if (e.n, e.m, e.start) == (8, 8, (0, 0))]
    return ("8", str(TREE_SIZE_PATHS), "--seed", str(stored[0] if stored else 0))


#: The random paths tree_size.py walks for the key: a checkpoint of the stored estimate, and about 2 s in Python.
TREE_SIZE_PATHS = 10_000


def _board_sizes_args(data: StoreData) -> tuple[str, ...]:
    """board_sizes.py up to the largest side the board-size study ran (100 without one)."""
    reach = data.reach
    return (str(max((r.sides[-1] for r in reach.values()), default=100)),)


def _tie_seed(data: StoreData) -> tuple[str, ...]:
    """tie_breaks.py on 8 x 8 from the first seed of the stored random ties (its ten seeds are theirs)."""
    seeds = [int(r.params["seed"]) for r in data.results.select("warnsdorff", 8, 8, tie="random")]
    return ("8", "--seed", str(min(seeds, default=0)))


#: The programs, in the order of the questions they follow. Where a program checks several answers it follows the
#: first (Deitel's first script: A1's yardstick and A2; the accessibility heuristic: A3 from (0, 0), A4 from every
#: start; Homework #8's program: B1 to B4), which keeps each program whole on a page of the printed key.
PROGRAMS: tuple[Program, ...] = (
    Program("deitel-by-hand", "deitel_first_knight.py", "Deitel's first script", lambda data: [()]),
    Program(
        "deitel-heuristic",
        "deitel_accessibility.py",
        "Deitel's accessibility heuristic, from every start",
        lambda data: [(), ("--static",), ("6", "--static")],
    ),
    Program(
        "homework-program",
        "homework8.py",
        "Homework #8's program",
        lambda data: [("5", "5", "0", "0"), *_homework_failure(data), ("5", "5"), ("6", "6"), ("8", "8")],
    ),
    Program(
        "eiffel-first",
        "try_next_move.py",
        "The Eiffel text's Try_Next_Move",
        lambda data: [("5",), ("6",), _eight_budget(data)],
    ),
    Program("eiffel-all", "try_all.py", "The Eiffel text's Try_All", lambda data: [("5",)]),
    Program(
        "blog-wozniak",
        "tree_size.py",
        "Knuth's estimate of the brute force's tree, and the choices along its paths",
        lambda data: [tree_size_args(data)],
    ),
    Program(
        "blog-past-50",
        "board_sizes.py",
        "Warnsdorff's rule and W2 from the corner of m × m boards",
        lambda data: [_board_sizes_args(data)],
    ),
    Program("blog-ties", "tie_breaks.py", "The tie-breaks on 8 × 8, from every start", lambda data: [_tie_seed(data)]),
    Program(
        "blog-script",
        "warnsdorff_blog.py",
        "The blog's script, made to run (the change: see the erratum)",
        lambda data: [("--seed", "2014")],
    ),
)


def listings(data: StoreData, *, programs: Sequence[Program] = PROGRAMS) -> dict[str, Listing]:
    """Each program's listing with its runs, by the question it follows. The runs go in parallel (a cold cache
    takes about the slowest program's time); a program whose arguments need results the store lacks is left
    out, as its question's answer is."""
    planned: list[tuple[Program, list[tuple[str, ...]]]] = []
    for program in programs:
        try:
            planned.append((program, program.runs(data)))
        except MissingData:
            continue
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        futures = {
            (program.file, args): pool.submit(
                run_source, program_text(program.file), args, name=program.file, seed=program.seed
            )
            for program, runs in planned
            for args in runs
        }
        done = {key: future.result() for key, future in futures.items()}
    return {
        program.question: Listing(
            question=program.question,
            file=program.file,
            title=program.title,
            source=program_text(program.file),
            html=highlight(program_text(program.file)),
            runs=[done[program.file, args] for args in runs],
        )
        for program, runs in planned
    }
