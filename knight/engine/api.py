"""The two calls a notebook starts with: :func:`tour` and :func:`census`, sizes given as plain numbers.

``knight.tour(8)`` and ``knight.census(5)`` are these functions. They build the :class:`~knight.engine.board.Board`
and pass everything else to :func:`~knight.engine.methods.find_tour` and :func:`~knight.engine.census.census`;
what they return shows itself as a board diagram in Jupyter (``_repr_svg_``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from knight.engine.board import Board, Square
from knight.engine.census import Census
from knight.engine.census import census as _census
from knight.engine.methods import find_tour
from knight.engine.tour import Tour
from knight.errors import InvalidInput

__all__ = ["tour", "census"]


def tour(
    n: int | Board,
    m: int | None = None,
    *,
    start: Square = (0, 0),
    method: str = "warnsdorff",
    **params: Any,
) -> Tour:
    """A knight's tour of the ``n`` × ``m`` board (``m`` defaults to ``n``) from ``start``, by ``method``.

    Parameters
    ----------
    n, m : the board's rows and columns, or a :class:`~knight.engine.board.Board` as ``n``.
    start : the start square ``(row, col)``, 0-based from the top-left.
    method : one of :data:`~knight.engine.methods.METHODS` (``naive``, ``static``, ``warnsdorff``,
        ``random-walk``, ``backtrack``, ``parberry``, ``find``).
    params : the method's parameters, e.g. ``tie="roth"`` or ``closed=True``.

    Returns the validated :class:`~knight.engine.tour.Tour` (full or partial: see ``.full``).

    Example
    -------
    >>> t = tour(8)
    >>> t.full, t.length, t.start
    (True, 64, (0, 0))
    >>> tour(5, start=(0, 1)).length  # Warnsdorff's rule gets stuck here: a partial tour
    22

    Reference: Warnsdorff (1823), the default method; Deitel exercise 7.24 and Homework #8 ask for it.
    """
    return find_tour(_board(n, m), start, method, **params)


def census(
    n: int | Board,
    m: int | None = None,
    *,
    closed: bool = False,
    removed: Iterable[Square] = (),
    start: Square | None = None,
    **options: Any,
) -> Census:
    """Count every directed open tour (or, with ``closed``, every closed tour) of the ``n`` × ``m`` board.

    Parameters
    ----------
    n, m : the board's rows and columns (at most 64 squares), or a :class:`~knight.engine.board.Board` as ``n``.
    closed : count closed tours instead of open ones.
    removed : squares taken off the board, ``(row, col)``.
    start : count only the tours from this square (the count is given on every square of its symmetry
        class, as the census fills a class from the one square it searched).
    options : passed to :func:`knight.engine.census.census` (``depth``, ``map_units``, ``compiled``, ``prune``).

    Returns a :class:`~knight.engine.census.Census`: per-square counts (``.counts``), ``.total``, ``.nodes``.

    Example
    -------
    >>> result = census(5)
    >>> result.total, int(result.counts[0, 0])
    (1728, 304)

    Reference: the Eiffel text's Try_All; OEIS A165134 (open tours of n × n).
    """
    return _census(_board(n, m), closed=closed, removed=removed, start=start, **options)


def _board(n: int | Board, m: int | None) -> Board:
    """The board ``n`` × ``m`` (``m`` defaults to ``n``), or ``n`` itself when it is one."""
    if isinstance(n, Board):
        if m is not None:
            raise InvalidInput(f"give a board or its sides, not both: {n} and m = {m}")
        return n
    return Board(n, n if m is None else m)
