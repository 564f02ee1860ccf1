"""The kernels compiled ahead of time (knight/aot.py): built for these sources, complete, used, guarded,
and giving what numba's JIT and plain Python give."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from knight import aot
from knight.engine import backtrack, census_count, greedy, pruned, rotation
from knight.engine.backtrack import backtrack_tour
from knight.engine.board import Board
from knight.engine.census import CensusUnit, count_unit
from knight.engine.greedy import warnsdorff_tour
from knight.engine.kernel import Kernel, ahead_of_time_module, module_name
from knight.engine.pruned import pruned_tour
from knight.engine.rotation import rotation_tour


@pytest.fixture(scope="module")
def module() -> Iterator[ModuleType]:
    """The module for these sources: ``make test`` has built it; built here (~15 s) when the engine changed.

    Used by this file's tests even in a run without it (``make test-jit``, ``KNIGHT_AOT=0``), and put away again
    after them: the loaded module and the kernels' compiled functions are kept for the whole process, so the
    tests that follow would otherwise run compiled ahead of time in a run meant to run without it."""
    aot.build()
    with pytest.MonkeyPatch.context() as patch:
        if os.environ.get("KNIGHT_AOT") == "0":
            patch.setenv("KNIGHT_AOT", "strict")
        ahead_of_time_module.cache_clear()
        found = ahead_of_time_module()
        assert found is not None, "built but not loaded"
        yield found
    ahead_of_time_module.cache_clear()
    for each in aot.engine_kernels():
        each._compiled = None  # chosen again at its next call, with or without the module


def test_the_module_is_named_after_the_engines_sources(module):
    assert module.__name__ == module_name()
    assert module.__name__.startswith("knight_kernels_") and len(module.__name__) == len("knight_kernels_") + 16


def test_every_kernel_of_the_engine_is_in_the_module(module):
    kernels = aot.engine_kernels()
    names = {each.export_name for each in kernels}
    assert {"census_count__count_tours", "greedy__greedy_walk", "parberry__walk_cycle", "treesize__probe"} <= names
    assert all(callable(getattr(module, name, None)) for name in names)


def test_a_big_walk_runs_compiled_without_loading_numba_or_llvm(module):
    code = (
        "import sys\n"
        "from knight.engine import Board, warnsdorff_tour\n"
        "tour = warnsdorff_tour(Board(100, 100), (0, 0), tie='roth')\n"
        "print(tour.full, sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'llvmlite'}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "[]"]


def test_ahead_of_time_jit_and_python_count_the_same_tours(module, monkeypatch):
    units = [CensusUnit(5, 5, (0, 0), (1, 2)), CensusUnit(3, 8, (0, 0), (1, 2)), CensusUnit(6, 6, (2, 2), (0, 1))]
    units.append(CensusUnit(3, 10, (0, 0), (1, 2), closed=True))
    kernel = census_count._count_tours
    monkeypatch.setattr(kernel, "_compiled", None)  # an earlier test may have compiled it before the module was built
    ahead = [count_unit(unit, compiled=True) for unit in units]
    assert kernel.compiled.__wrapped__ is getattr(module, kernel.export_name)
    monkeypatch.setattr(kernel, "_compiled", kernel.jit)
    just_in_time = [count_unit(unit, compiled=True) for unit in units]
    interpreted = [count_unit(unit, compiled=False) for unit in units[:2]]
    assert ahead == just_in_time
    assert ahead[:2] == interpreted
    assert ahead[0].tours > 0 and ahead[3].tours == 16


SEARCHES = [  # (kernel, search): the searches whose kernels call the shared steps (engine/search_steps.py)
    (pruned._pruned, lambda compiled: pruned_tour(Board(6, 6), (0, 1), budget=200_000, compiled=compiled)),
    (
        backtrack._depth_first,
        lambda compiled: backtrack_tour(Board(5, 5), (0, 0), order="warnsdorff", compiled=compiled),
    ),
    (backtrack._depth_first, lambda compiled: backtrack_tour(Board(6, 6), (0, 1), budget=50_000, compiled=compiled)),
    (rotation._rotate, lambda compiled: rotation_tour(Board(12, 12), (5, 6), closed=True, compiled=compiled)),
]


@pytest.mark.parametrize(("kernel", "search"), SEARCHES, ids=["pruned", "warnsdorff", "backtrack", "rotation"])
def test_searches_calling_shared_steps_agree_ahead_of_time_jit_and_interpreted(module, monkeypatch, kernel, search):
    monkeypatch.setattr(kernel, "_compiled", None)  # an earlier test may have compiled it before the module was built
    ahead = search(True)
    assert kernel.compiled.__wrapped__ is getattr(module, kernel.export_name)
    monkeypatch.setattr(kernel, "_compiled", kernel.jit)
    just_in_time, interpreted = search(True), search(False)
    for other in (just_in_time, interpreted):
        assert (other.work, other.budget_exhausted) == (ahead.work, ahead.budget_exhausted)
        assert np.array_equal(other.path, ahead.path)
    assert ahead.work > 1


@pytest.mark.parametrize(
    ("tie", "board"),
    [("first", Board(40, 37)), ("roth", Board(40, 37)), ("random", Board(40, 37)), ("squirrel", Board(41, 41))],
)
def test_ahead_of_time_and_jit_walk_the_same_tour(module, monkeypatch, tie, board):
    start = (0, 0) if tie == "squirrel" else (3, 5)
    monkeypatch.setattr(greedy._greedy_walk, "_compiled", None)  # an earlier test may have compiled it by the JIT
    ahead = warnsdorff_tour(board, start, tie, seed=7, compiled=True).path
    assert greedy._greedy_walk.compiled.__wrapped__ is getattr(module, greedy._greedy_walk.export_name)
    monkeypatch.setattr(greedy._greedy_walk, "_compiled", greedy._greedy_walk.jit)
    just_in_time = warnsdorff_tour(board, start, tie, seed=7, compiled=True).path
    assert np.array_equal(ahead, just_in_time)


def _walk_kernel() -> Kernel:
    """A fresh kernel over the greedy walk: the same function, so the module's compiled walk."""
    walk = greedy._greedy_walk
    return Kernel(walk.python, walk.compile_from, walk.signature)


def _walk_arguments(ranks: np.ndarray) -> tuple:
    return (5, 5, 0, 1, 0, ranks, np.empty(0, dtype=np.int64), 0, np.empty(25, dtype=np.int32))


def test_arguments_of_other_types_go_to_the_jit_or_fail_when_strict(module, monkeypatch):
    kernel = _walk_kernel()
    wrong = [
        np.arange(8, dtype=np.int32)[None, :],  # another dtype
        np.arange(16, dtype=np.int64).reshape(2, 8)[:, ::2],  # strided
        np.arange(8, dtype=np.int64),  # another number of dimensions
    ]
    calls = []
    monkeypatch.setattr(kernel, "_jit", lambda *args: calls.append(args) or -1)
    monkeypatch.setenv("KNIGHT_AOT", "auto")
    for ranks in wrong:
        assert kernel.compiled(*_walk_arguments(ranks)) == -1
    assert len(calls) == len(wrong)
    monkeypatch.setenv("KNIGHT_AOT", "strict")
    with pytest.raises(TypeError, match=r"_greedy_walk takes i8\(.*\); got .*int32\[2d\]"):
        kernel.compiled(*_walk_arguments(wrong[0]))
    too_big = (*_walk_arguments(np.arange(8, dtype=np.int64)[None, :])[:7], 2**64, np.empty(25, dtype=np.int32))
    with pytest.raises(TypeError, match="got int, int"):  # a seed out of int64's range would not convert
        kernel.compiled(*too_big)
    arguments = _walk_arguments(np.arange(8, dtype=np.int64)[None, :])
    assert kernel.compiled(*arguments) == kernel.python(*_walk_arguments(np.arange(8, dtype=np.int64)[None, :]))
    assert len(calls) == len(wrong)


def test_no_module_when_turned_off(monkeypatch):
    monkeypatch.setenv("KNIGHT_AOT", "0")
    ahead_of_time_module.cache_clear()
    try:
        assert ahead_of_time_module() is None
        assert Kernel(greedy._greedy_walk.python, 1024, greedy._greedy_walk.signature).choose(64) is not None
    finally:
        monkeypatch.delenv("KNIGHT_AOT")
        ahead_of_time_module.cache_clear()


def test_a_stale_module_is_not_loaded(module, tmp_path, monkeypatch):
    """A module built from other sources has another name: it is not found, and the JIT stands in."""
    built = Path(module.__file__).name  # its suffix only: the folders above may hold dots (an unpacked sdist's)
    stale = tmp_path / ("knight_kernels_0000000000000000" + built[built.index(".") :])
    stale.write_bytes(b"not a module")
    monkeypatch.setenv("KNIGHT_KERNEL_DIR", str(tmp_path))
    ahead_of_time_module.cache_clear()
    try:
        assert ahead_of_time_module() is None
    finally:
        monkeypatch.delenv("KNIGHT_KERNEL_DIR")
        ahead_of_time_module.cache_clear()


def test_the_builder_says_so_when_it_cannot_build(monkeypatch, capsys):
    def fail(**_):
        raise RuntimeError("no C compiler found")

    monkeypatch.setattr(aot, "build", fail)
    assert aot.main([]) == 1
    assert capsys.readouterr().err.strip() == (
        "knight.aot: no C compiler found; the kernels will be JIT-compiled by numba instead"
    )


def test_an_up_to_date_module_is_not_built_again(module):
    done = subprocess.run([sys.executable, "-m", "knight.aot"], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("knight.aot: kernels compiled ahead of time: ")
    assert module.__name__ in done.stdout and "built in" not in done.stdout


@pytest.mark.filterwarnings("ignore:The 'pycc' module is pending deprecation")
def test_without_a_c_compiler_the_build_stops_at_once_and_says_so(tmp_path, monkeypatch):
    import numba.pycc.platform

    monkeypatch.setattr(numba.pycc.platform, "external_compiler_works", lambda: False)
    with pytest.raises(RuntimeError, match=r"^no working C compiler \(install one"):
        aot.build(tmp_path, force=True)
    assert list(tmp_path.iterdir()) == []  # nothing half built


def test_a_shared_folder_keeps_other_installs_recent_modules_and_drops_killed_builds_scratch(tmp_path):
    import os
    import time

    keep, recent, old = (tmp_path / f"knight_kernels_{name}.so" for name in ("new", "recent", "old"))
    scratch, fresh_scratch = tmp_path / ".build-killed", tmp_path / ".build-running"
    for path in (keep, recent, old):
        path.write_bytes(b"")
    scratch.mkdir()
    fresh_scratch.mkdir()
    two_days_ago = time.time() - 2 * 86_400
    for path in (old, scratch):
        os.utime(path, (two_days_ago, two_days_ago))
    aot._tidy(tmp_path, keep=keep)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([keep.name, recent.name, fresh_scratch.name])


def test_a_build_into_another_folder_copies_the_module_these_sources_built(module, tmp_path):
    """What a wheel's build does (setup.py, ``--into``): the same sources' module, copied whole, no compiling."""
    path = aot.build(tmp_path / "wheel" / "knight" / "engine")
    assert path.name == Path(module.__file__).name
    assert path.read_bytes() == Path(module.__file__).read_bytes()
    assert list(path.parent.iterdir()) == [path]  # no partial copy left beside it


def test_a_compiled_module_is_kept_in_the_users_cache_for_the_next_clone(module, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setattr(aot, "user_cache_folder", lambda: cache)
    aot._keep_a_copy(Path(module.__file__))
    assert [path.name for path in cache.iterdir()] == [Path(module.__file__).name]
    monkeypatch.setenv("KNIGHT_KERNEL_DIR", str(cache))  # the copy loads, as another checkout would load it
    ahead_of_time_module.cache_clear()
    try:
        assert ahead_of_time_module() is not None
    finally:
        monkeypatch.delenv("KNIGHT_KERNEL_DIR")
        ahead_of_time_module.cache_clear()
