"""The steps the searches share (engine/search_steps.py) and how kernels call them (engine/kernel.py's
kernel_step): the degree-one rule on bits says what its proof says on counts, the pruned search that takes it
finds a tour exactly where plain backtracking does, and numba's disk cache never serves a kernel compiled with
an older step."""

import doctest
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import knight.engine.search_steps as steps
from knight.engine import Board, backtrack_tour
from knight.engine.pruned import pruned_tour
from knight.engine.search_steps import EVERY, degree_one_rule, few

NONE = np.uint64(0)


def test_docstring_examples():
    result = doctest.testmod(steps)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("closed", [False, True])
def test_the_rule_on_bits_is_the_rule_on_counts(closed):
    for ones in range(6):
        for away in range(ones + 1):
            allowed = degree_one_rule(few(ones), few(away), closed)
            if ones == 0:
                expected = EVERY
            elif closed:  # the one such square must be next
                expected = few(ones) if ones == 1 and away == 0 else NONE
            else:  # next and last: at most two, at most one away, and the next move takes one of two
                expected = NONE if ones > 2 or away > 1 else (few(ones) if ones == 2 else EVERY)
            assert allowed == expected, (ones, away, closed)


def test_the_rule_takes_any_bits_as_many_as_the_squares():
    ones = np.uint64((1 << 5) | (1 << 17))
    assert degree_one_rule(ones, np.uint64(1 << 17), False) == ones
    assert degree_one_rule(ones, ones, False) == NONE
    assert degree_one_rule(np.uint64(1 << 40), NONE, True) == np.uint64(1 << 40)


@pytest.mark.parametrize(("board", "compiled"), [(Board(3, 7), False), (Board(4, 5), True), (Board(5, 5), True)])
def test_the_pruned_search_finds_a_tour_exactly_where_backtracking_does(board, compiled):
    for square in range(board.size):
        start = board.coords(square)
        pruned = pruned_tour(board, start, compiled=compiled)
        plain = backtrack_tour(board, start, compiled=compiled)
        assert not pruned.budget_exhausted and not plain.budget_exhausted
        assert pruned.full == plain.full, start
        assert pruned.work <= plain.work


STEP = """
from knight.engine.kernel import kernel_step


@kernel_step
def scaled(x):
    return x * {factor}
"""
KERNEL = """
from knight.engine.kernel import kernel
from step_module import scaled


@kernel(compile_from=0, signature="i8(i8)")
def twice_scaled(x):
    return 2 * scaled(x)
"""
RUN = """
import sys
from kernel_module import twice_scaled
print(twice_scaled.python(5), twice_scaled.jit(5))
"""


def test_an_edited_step_is_compiled_afresh_not_read_from_numbas_cache(tmp_path):
    (tmp_path / "kernel_module.py").write_text(textwrap.dedent(KERNEL))
    cache = tmp_path / "numba-cache"  # numba's cache lives in the user's cache folder: keep this test's apart
    outputs = []
    for factor in (3, 7):  # the kernel's own file stays as it was: numba alone would serve the first build
        (tmp_path / "step_module.py").write_text(textwrap.dedent(STEP.format(factor=factor)))
        done = subprocess.run(
            [sys.executable, "-B", "-c", RUN],  # no bytecode: both edits may share a second and a size
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
            env={**os.environ, "NUMBA_CACHE_DIR": str(cache)},
        )
        outputs.append(done.stdout.split())
    assert outputs == [["30", "30"], ["70", "70"]]
    assert len(list(cache.rglob("kernel_module.twice_scaled_steps_*.nbi"))) == 2  # one build per version
