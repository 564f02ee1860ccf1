"""One implementation of each hot loop, run interpreted or compiled by numba.

A kernel is written once, in the subset of Python that numba compiles (numpy arrays,
ints, loops; no calls to other Python functions). Small inputs run it as plain Python,
so ``knight --help`` and an 8 × 8 tour never pay numba's ~0.5 s import; large inputs
and sweeps run it compiled (cached on disk after the first compilation). Both give the
same answer, and the tests check that they do.

Set ``KNIGHT_JIT=0`` to never compile, ``KNIGHT_JIT=1`` to always compile.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

__all__ = ["Kernel", "kernel"]


class Kernel:
    """A numba-compatible function, compiled on first use of :attr:`compiled`.

    ``compile_from`` is the board size (in squares) from which compiling pays off.
    """

    def __init__(self, function: Callable[..., Any], compile_from: int) -> None:
        self.python = function
        self.compile_from = compile_from
        self.__doc__ = function.__doc__
        self.__name__ = function.__name__
        self._compiled: Callable[..., Any] | None = None

    @property
    def compiled(self) -> Callable[..., Any]:
        if self._compiled is None:
            import numba  # lazily: importing numba costs ~0.5 s

            self._compiled = numba.njit(cache=True, nogil=True)(self.python)
        return self._compiled

    def choose(self, squares: int, compiled: bool | None = None) -> Callable[..., Any]:
        """The implementation to run for a board of ``squares`` squares.

        ``compiled`` forces a choice; otherwise ``KNIGHT_JIT`` decides, and by default
        boards from ``compile_from`` squares (or any board, once compiled) run compiled.
        """
        if compiled is None:
            setting = os.environ.get("KNIGHT_JIT", "auto")
            if setting in ("0", "1"):
                compiled = setting == "1"
            else:
                compiled = self._compiled is not None or squares >= self.compile_from
        return self.compiled if compiled else self.python


def kernel(*, compile_from: int) -> Callable[[Callable[..., Any]], Kernel]:
    """Decorator: make a function a :class:`Kernel` compiled for boards from ``compile_from`` squares."""
    return lambda function: Kernel(function, compile_from)
