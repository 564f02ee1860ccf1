"""Compile the engine's kernels ahead of time, so that commands need neither numba nor LLVM to run them.

    python -m knight.aot [--force] [--into FOLDER]     (make install runs it; building a wheel runs it
                                                        --into the wheel's knight/engine, see setup.py)

Every :class:`~knight.engine.kernel.Kernel` of the engine goes, with its declared signature (and the steps it
calls, :func:`~knight.engine.kernel.kernel_step`, compiled into it), into one
extension module built by numba's ``pycc`` for the generic CPU of this architecture (within a few per cent
of the JIT's host-tuned code here, and still right on another machine sharing the folder). The module is
named after a fingerprint of the engine's sources and written beside their bytecode (or, when that folder
is read-only, to the user's cache folder); older builds there are removed. Building takes ~15 s and needs
numba (the ``jit`` extra, or the build requirement of pyproject.toml) and a C compiler; without them,
nothing changes: the kernels are JIT-compiled as before (or run interpreted, without numba).

numba's ``pycc`` is pending deprecation (since numba 0.57; its replacement is still being developed), so
pyproject.toml's build requirement pins numba to the releases whose ``pycc`` builds these kernels. When a
release removes ``pycc``, nothing breaks: the pin keeps building wheels with the last release that has it;
with a newer numba installed by hand, ``python -m knight.aot`` says the compiler is not available and the
kernels are JIT-compiled instead. The kernels then move to numba's replacement for ``pycc``.

Exit status: 0 built or already up to date, 1 the build failed (the message says why).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import os
import pkgutil
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

import knight.engine
from knight.engine import kernel as kernel_module
from knight.engine.kernel import (
    SHIPPED_FOLDER,
    Kernel,
    ahead_of_time_module,
    import_numba,
    module_folders,
    module_name,
    register_steps,
    user_cache_folder,
)

__all__ = ["engine_kernels", "build"]


def engine_kernels() -> list[Kernel]:
    """Every kernel of the engine, by export name."""
    found: dict[str, Kernel] = {}
    for info in pkgutil.iter_modules(knight.engine.__path__):
        module = importlib.import_module(f"knight.engine.{info.name}")
        for value in vars(module).values():
            if isinstance(value, Kernel):
                found[value.export_name] = value
    return [found[name] for name in sorted(found)]


def build(folder: Path | None = None, *, force: bool = False) -> Path:
    """Build the module into ``folder`` (by default the first writable of :func:`module_folders`) unless it is
    there already; return its path. Into a ``folder`` named by the caller (a wheel's), a module these sources
    have already built elsewhere (:func:`module_folders`) is copied rather than compiled again, unless
    ``force``. Raises RuntimeError when it cannot be built."""
    name = module_name()
    folder = folder or _writable_folder()
    filename = name + importlib.machinery.EXTENSION_SUFFIXES[0]  # this Python's: another's may be there
    target = folder / filename
    if target.is_file() and not force:
        return target
    built_before = [] if force else [each / filename for each in module_folders() if (each / filename).is_file()]
    folder.mkdir(parents=True, exist_ok=True)
    if built_before:  # the same sources, this Python: the same module, without the ~15 s
        _copy(built_before[0], target)
        return target
    try:
        import_numba()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pycc's pending deprecation: see the module's docstring
            from numba.pycc import CC
            from numba.pycc.platform import external_compiler_works
    except ImportError as error:
        raise RuntimeError(
            f"numba's ahead-of-time compiler is not available ({error}; pip install 'knights-tour-lab[jit]')"
        ) from error
    if not external_compiler_works():  # found out in a moment, not after compiling every kernel
        raise RuntimeError("no working C compiler (install one, e.g. `apt-get install gcc`, then run this again)")
    with tempfile.TemporaryDirectory(dir=folder, prefix=".build-") as scratch:
        compiler = CC(name)
        compiler.output_dir = scratch
        compiler.verbose = False
        kernels = engine_kernels()  # imports every engine module, so every step is declared before numba learns them
        register_steps()
        for each in kernels:
            compiler.export(each.export_name, each.signature)(each.python)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compiler.compile()
        except Exception as error:  # distutils' CompileError, LinkError, a numba typing error
            raise RuntimeError(f"compiling the kernels failed: {type(error).__name__}: {error}") from error
        (built,) = Path(scratch).glob(name + ".*")
        target = folder / built.name
        os.replace(built, target)  # atomic: a command starting now sees the whole module or none
    _tidy(folder, keep=target)
    _keep_a_copy(target)
    return target


def _copy(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` atomically: a command starting meanwhile sees the whole module or none."""
    partial = target.with_name(f".{target.name}.partial")
    shutil.copyfile(source, partial)
    os.replace(partial, target)


def _keep_a_copy(built: Path) -> None:
    """A copy of ``built`` in the user's cache folder, where the next build of the same sources (a fresh clone,
    a wheel) finds it instead of compiling again, as pip's cache spares a download; none if it cannot be kept."""
    cache = user_cache_folder()
    if cache.exists() and built.parent.resolve() == cache.resolve():
        return
    try:
        cache.mkdir(parents=True, exist_ok=True)
        _copy(built, cache / built.name)
        _tidy(cache, keep=cache / built.name)
    except OSError:
        pass


def _tidy(folder: Path, keep: Path) -> None:
    """Remove what earlier builds left in ``folder``: in the engine's own bytecode folder, the modules of its
    earlier sources (another install or checkout may use a shared folder, so there only what is a day old
    goes); anywhere, the scratch folders of a build that was killed."""
    own = folder.resolve() == (Path(kernel_module.__file__).parent / "__pycache__").resolve()
    day_ago = time.time() - 86_400
    for old in folder.glob("knight_kernels_*"):
        if old != keep and old.is_file() and (own or old.stat().st_mtime < day_ago):
            old.unlink(missing_ok=True)
    for scratch in folder.glob(".build-*"):
        if scratch.is_dir() and scratch.stat().st_mtime < day_ago:
            shutil.rmtree(scratch, ignore_errors=True)


def _writable_folder() -> Path:
    for folder in module_folders():
        if folder == SHIPPED_FOLDER:  # a wheel's place (setup.py puts it there), never a checkout's sources
            continue
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            return folder
    raise RuntimeError(f"no writable folder for the kernels among {', '.join(map(str, module_folders()))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m knight.aot", description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build even when an up-to-date module exists")
    parser.add_argument("--into", type=Path, metavar="FOLDER", help="build into FOLDER (a wheel's knight/engine)")
    options = parser.parse_args(argv)
    started = time.monotonic()
    try:
        path = build(folder=options.into, force=options.force)
    except RuntimeError as error:
        print(f"knight.aot: {error}; the kernels will be JIT-compiled by numba instead", file=sys.stderr)
        return 1
    if options.into is not None:  # built for another install: it does not load from here
        print(f"knight.aot: kernels compiled ahead of time: {path}")
        return 0
    ahead_of_time_module.cache_clear()
    if os.environ.get("KNIGHT_AOT") == "0":
        print(f"knight.aot: kernels compiled ahead of time: {path} (not used while KNIGHT_AOT=0)")
        return 0
    if ahead_of_time_module() is None:
        print(f"knight.aot: {path} was built but does not load here", file=sys.stderr)
        return 1
    took = time.monotonic() - started
    print(f"knight.aot: kernels compiled ahead of time: {path}" + (f" (built in {took:.0f} s)" if took > 1 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
