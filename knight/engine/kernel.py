"""One implementation of each hot loop, run interpreted or compiled.

A kernel is written once, in the subset of Python that numba compiles (numpy arrays,
ints, loops; no calls to other Python functions but *steps*), with the types it takes declared
as a numba signature. A step (:func:`kernel_step`) is a piece several kernels share, written in
the same subset: interpreted, a kernel calls it as the plain function it is; compiled, numba
compiles it into each kernel that calls it (numba's ``register_jitable``, inlined). numba's disk
cache would keep serving a kernel compiled with an older step (it only notices edits to the
kernel's own file), so a kernel that calls steps is cached under a name carrying a fingerprint
of their sources. A kernel runs one of three ways, all giving the same answer (the tests check
that they do):

- **ahead of time**: building the wheel compiles every kernel into one extension module shipped
  beside this file (setup.py); in a checkout, ``python -m knight.aot`` (``make install`` runs it)
  builds it beside the engine's bytecode. Loading it takes a few
  milliseconds and needs neither numba nor LLVM, so a compiled command starts as fast as
  a plain one and takes ~100 MB less memory; every board then runs compiled. It is named after a fingerprint of the
  engine's sources: an edited engine ignores a stale module until it is built again.
- **just in time**: without that module, numba (the ``jit`` extra) compiles the kernel on first
  use, cached on disk in the user's cache folder (never beside the installed sources); importing
  numba and loading the cache cost ~0.3 s and ~100 MB.
- **interpreted**: without the ahead-of-time module, small boards (where the JIT would
  cost more than it saves) run the plain Python function; and every board does, slowly and with
  a one-line notice on standard error, when numba is not installed either.

Set ``KNIGHT_JIT=0`` to never compile, ``KNIGHT_JIT=1`` to always compile;
``KNIGHT_AOT=0`` to ignore the ahead-of-time module, ``KNIGHT_AOT=strict`` to make a call
whose arguments do not match the declared types an error rather than a quiet fall-back
to the JIT (the tests run so).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import importlib.util
import inspect
import os
import re
import sys
import types
import warnings
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "Kernel",
    "kernel",
    "kernel_step",
    "register_steps",
    "ahead_of_time_module",
    "module_name",
    "module_folders",
    "import_numba",
    "user_cache_folder",
    "SHIPPED_FOLDER",
]

#: The numba type codes the kernels' signatures use, as numpy dtypes.
_DTYPES = {
    "b1": np.dtype(np.bool_),
    "i2": np.dtype(np.int16),
    "i4": np.dtype(np.int32),
    "i8": np.dtype(np.int64),
    "u8": np.dtype(np.uint64),
    "f8": np.dtype(np.float64),
}
_ARGUMENT = re.compile(r"(\w+)(?:\[(.*)\])?")
#: Every step (:func:`kernel_step`), in the order declared; numba learns them all before it compiles a kernel.
_STEPS: list[Callable[..., Any]] = []
#: How numba puts a step into a kernel: "always" inlines it in numba's own IR, before LLVM optimizes the kernel
#: (left to LLVM's inliner, the census kernel ran ~9 % slower); part of the kernels' cache names.
_INLINE = "always"
#: The steps numba has been told of, in this process.
_REGISTERED: list[Callable[..., Any]] = []
#: Set in the environment once the notice that the kernels run interpreted is given, so that the pool's workers
#: (which inherit it) do not each give it again.
_NOTICE_GIVEN = "KNIGHT_INTERPRETED_NOTICE_GIVEN"


class Kernel:
    """A numba-compatible function, compiled on first use of :attr:`compiled`.

    ``compile_from`` is the board size (in squares) from which JIT compiling pays off;
    ``signature`` the numba signature of the one compiled version, arrays C-contiguous
    (``"i8(i4[:, ::1], i8)"``).
    """

    def __init__(self, function: Callable[..., Any], compile_from: int, signature: str) -> None:
        self.python = function
        self.compile_from = compile_from
        self.signature = signature
        self.__doc__ = function.__doc__
        self.__name__ = function.__name__
        #: The name of its function in the ahead-of-time module: module and function, ``census__count_tours``.
        self.export_name = f"{function.__module__.rpartition('.')[2]}_{function.__name__}"
        self._arity, self._check = _argument_check(signature)
        self._compiled: Callable[..., Any] | None = None
        self._jit: Callable[..., Any] | None = None
        self.interpreted = _wrapping(function)

    @property
    def compiled(self) -> Callable[..., Any]:
        """The compiled kernel: ahead of time when that module is built, else numba's JIT, else (numba not
        installed) the plain function, after a one-line notice."""
        if self._compiled is None:
            module = ahead_of_time_module()
            if module is not None and hasattr(module, self.export_name):
                self._compiled = self._guarded(getattr(module, self.export_name))
            else:
                try:
                    self._compiled = self.jit
                except ModuleNotFoundError as error:
                    if error.name != "numba":  # numba there but broken: say so, not "slow"
                        raise
                    _notice_interpreted()
                    self._compiled = self.interpreted
        return self._compiled

    @property
    def jit(self) -> Callable[..., Any]:
        """The kernel compiled by numba's JIT (cached on disk). Raises ModuleNotFoundError without numba."""
        if self._jit is None:
            numba = import_numba()
            register_steps()
            dispatcher = numba.njit(cache=True, nogil=True)(_named_after_its_steps(self.python))
            with warnings.catch_warnings():
                # Inlining a step into a kernel more than once trips a check numba calls pedantic ("variable ... is
                # not in scope") and asks to be reported; the code it makes is right (the three-way kernel tests).
                warnings.simplefilter("ignore", numba.core.errors.NumbaIRAssumptionWarning)
                dispatcher.compile(self.signature)  # now, from numba's disk cache when there
            self._jit = dispatcher
        return self._jit

    def choose(self, squares: int, compiled: bool | None = None) -> Callable[..., Any]:
        """The implementation to run for a board of ``squares`` squares.

        ``compiled`` forces a choice; otherwise ``KNIGHT_JIT`` decides, and by default
        boards from ``compile_from`` squares (or any board, once compiled or when the
        ahead-of-time module is built) run compiled.
        """
        if compiled is None:
            setting = os.environ.get("KNIGHT_JIT", "auto")
            if setting in ("0", "1"):
                compiled = setting == "1"
            else:
                compiled = (
                    self._compiled is not None or squares >= self.compile_from or ahead_of_time_module() is not None
                )
        return self.compiled if compiled else self.interpreted

    def _guarded(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function`` (compiled ahead of time), called only with the declared types: unlike numba's JIT, its
        wrapper would read an array of another dtype or layout as if it were right."""

        def call(*args: Any) -> Any:
            if len(args) == self._arity and self._check(*args):
                return function(*args)
            if os.environ.get("KNIGHT_AOT") == "strict":
                raise TypeError(f"{self.__name__} takes {self.signature}; got {_describe(args)}")
            return self.jit(*args)

        call.__doc__, call.__name__, call.__wrapped__ = self.__doc__, self.__name__, function  # type: ignore[attr-defined]
        return call


def _wrapping(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` run interpreted with 64-bit integer arithmetic wrapping around quietly, as it does compiled
    (a hash's multiplication overflows on purpose; numpy's scalars would warn)."""

    @functools.wraps(function)
    def call(*args: Any) -> Any:
        with np.errstate(over="ignore"):
            return function(*args)

    return call


def kernel(*, compile_from: int, signature: str) -> Callable[[Callable[..., Any]], Kernel]:
    """Decorator: make a function a :class:`Kernel` of ``signature``, JIT-compiled for boards from
    ``compile_from`` squares."""
    return lambda function: Kernel(function, compile_from, signature)


F = TypeVar("F", bound=Callable[..., Any])


def kernel_step(function: F) -> F:
    """Decorator: make ``function`` a step kernels may call (see the module's docstring); it stays the plain
    function, so an interpreted kernel calls it directly."""
    _STEPS.append(function)
    return function


def register_steps() -> None:
    """Tell numba every step, so that it compiles each into the kernels that call it (JIT or ahead of time)."""
    import_numba()
    from numba.core.extending import register_jitable  # lazily: importing numba costs ~0.3 s

    for step in _STEPS:
        if not any(step is done for done in _REGISTERED):
            register_jitable(inline=_INLINE)(step)
            _REGISTERED.append(step)


def _steps_called(
    function: Callable[..., Any], seen: list[Callable[..., Any]] | None = None
) -> list[Callable[..., Any]]:
    """The steps ``function`` calls, directly or through other steps, in the order first met."""
    seen = [] if seen is None else seen
    for name in function.__code__.co_names:
        value = function.__globals__.get(name)
        # By identity: a global may be an array, whose == is elementwise.
        step = next((step for step in _STEPS if value is step), None)
        if step is not None and not any(step is done for done in seen):
            seen.append(step)
            _steps_called(step, seen)
    return seen


def _named_after_its_steps(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, or, when it calls steps, a copy of it whose qualified name (numba's cache file name) ends in
    a fingerprint of their sources: an edited step gets a kernel compiled afresh, not one from the cache."""
    steps = _steps_called(function)
    if not steps:
        return function
    sources = [_INLINE, *(inspect.getsource(step) for step in steps)]
    digest = hashlib.sha256("\0".join(sources).encode()).hexdigest()[:12]
    copy = types.FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__)
    copy.__qualname__ = f"{function.__qualname__}_steps_{digest}"
    copy.__module__, copy.__doc__ = function.__module__, function.__doc__
    return copy


def user_cache_folder() -> Path:
    """knight's folder in the user's cache (``~/.cache/knight`` on Linux, honouring ``XDG_CACHE_HOME``)."""
    from platformdirs import user_cache_path  # lazily: only a build or the JIT needs it

    return user_cache_path("knight", appauthor=False)


def import_numba() -> ModuleType:
    """numba, imported with its on-disk cache in the user's cache folder unless ``NUMBA_CACHE_DIR`` says
    otherwise: by default numba caches beside the sources, which an install must not write into at run time.
    Raises ModuleNotFoundError (name ``numba``) when it is not installed."""
    if "numba" in sys.modules:
        numba = sys.modules["numba"]
        if not numba.config.CACHE_DIR:  # imported before us, with no folder of its own: read at each compile
            numba.config.CACHE_DIR = str(user_cache_folder() / "numba")
        return numba
    os.environ.setdefault("NUMBA_CACHE_DIR", str(user_cache_folder() / "numba"))
    import numba  # lazily: importing numba costs ~0.3 s

    return numba


def _notice_interpreted() -> None:
    """Say once, on standard error, that the kernels run interpreted: an install without its compiled module
    (no wheel for this platform, or an edited engine) and without numba still gives every answer, slowly."""
    if os.environ.get(_NOTICE_GIVEN):
        return
    os.environ[_NOTICE_GIVEN] = "1"
    print(
        "knight: notice: the kernels run interpreted (slow): neither their compiled module nor numba is "
        "installed; pip install 'knights-tour-lab[jit]' to compile them",
        file=sys.stderr,
    )


def module_name() -> str:
    """The ahead-of-time module's name: ``knight_kernels_`` and a fingerprint of the engine's sources (every
    module, since a kernel freezes the globals it reads)."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return f"knight_kernels_{digest.hexdigest()[:16]}"


#: Where a wheel ships the ahead-of-time module: beside this file (setup.py builds it there).
SHIPPED_FOLDER = Path(__file__).parent


def module_folders() -> Iterator[Path]:
    """Where the ahead-of-time module is looked for, in order: ``KNIGHT_KERNEL_DIR`` when set; else where a
    wheel ships it (:data:`SHIPPED_FOLDER`), beside the engine's bytecode (``python -m knight.aot`` in a
    checkout), then the user's cache folder (built for an engine installed read-only)."""
    if folder := os.environ.get("KNIGHT_KERNEL_DIR"):
        yield Path(folder)
        return
    yield SHIPPED_FOLDER
    yield SHIPPED_FOLDER / "__pycache__"
    yield user_cache_folder()


@cache
def ahead_of_time_module() -> ModuleType | None:
    """The kernels compiled ahead of time for these sources, or None (not built, stale, or ``KNIGHT_AOT=0``)."""
    if os.environ.get("KNIGHT_AOT") == "0":
        return None
    name = module_name()
    for folder in module_folders():
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = folder / (name + suffix)
            if path.is_file():
                spec = importlib.util.spec_from_file_location(name, path)
                if spec is None or spec.loader is None:
                    continue
                try:
                    module = importlib.util.module_from_spec(spec)
                    spec.loader.exec_module(module)
                except ImportError:  # built for another Python or numpy: the JIT does
                    continue
                return module
    return None


def _argument_check(signature: str) -> tuple[int, Callable[..., bool]]:
    """The number of arguments of ``signature`` and one function testing that arguments have its types.

    Generated as one expression, like a dataclass's methods: the test runs on every call, and a small
    board's kernel takes only some 20 µs.
    """
    dtypes: dict[str, np.dtype[Any]] = {}
    conditions = [_condition(f"a{i}", part.strip(), dtypes) for i, part in enumerate(_split(_arguments(signature)))]
    # exec's globals: the names the generated test reads
    names: dict[str, Any] = {"ndarray": np.ndarray, "integer": np.integer, "floating": np.floating, "bool_": np.bool_}
    names.update(dtypes)
    parameters = ", ".join(f"a{i}" for i in range(len(conditions)))
    exec(f"def check({parameters}):\n    return {' and '.join(conditions)}\n", names)  # noqa: S102 - our own text
    return len(conditions), names["check"]


def _arguments(signature: str) -> str:
    """The argument list of ``signature``: what its last top-level parentheses hold."""
    depth = 0
    for i in range(len(signature) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(signature[i], 0)
        if depth == 0:
            return signature[i + 1 : -1]
    raise ValueError(f"kernel signature {signature!r} has unbalanced parentheses")


def _split(text: str) -> list[str]:
    """``text`` split at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]


def _condition(name: str, argument: str, dtypes: dict[str, np.dtype[Any]]) -> str:
    """The test, as Python source, that the argument ``name`` has the type ``argument`` (``i8``, ``i4[:, ::1]``);
    the dtype an array's test compares with is added to ``dtypes``, under the name the test reads."""
    match = _ARGUMENT.fullmatch(argument)
    if match is None or match.group(1) not in _DTYPES:
        raise ValueError(f"unsupported kernel argument type {argument!r}; use one of {', '.join(_DTYPES)}")
    code, dims = match.groups()
    if dims is None:
        if code == "f8":
            return f"isinstance({name}, (float, floating))"
        low, high = (0, 2**64 - 1) if code == "u8" else (-(2**63), 2**63 - 1)  # beyond, a number would not convert
        return f"(type({name}) is int or isinstance({name}, (int, integer, bool_))) and {low} <= {name} <= {high}"
    if not dims.replace(" ", "").endswith("::1"):
        raise ValueError(f"kernel array argument {argument!r} must be C-contiguous (end its dimensions with ::1)")
    dtypes[f"{name}_dtype"] = _DTYPES[code]
    return (  # numpy's dtypes of its own types are one object each: `is` first, `==` for another's
        f"type({name}) is ndarray and ({name}.dtype is {name}_dtype or {name}.dtype == {name}_dtype) "
        f"and {name}.ndim == {dims.count(',') + 1} and {name}.flags.c_contiguous"
    )


def _describe(args: tuple[Any, ...]) -> str:
    return ", ".join(
        f"{a.dtype}[{a.ndim}d{'' if a.flags.c_contiguous else ', strided'}]"
        if isinstance(a, np.ndarray)
        else type(a).__name__
        for a in args
    )
