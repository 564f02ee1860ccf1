"""From which squares does a tour start? A tour from every start where one exists, a proof where none does.

:func:`tour_from` answers for one square, :func:`existence_map` for every square of a board.
Each answer is a :class:`StartRecord`: ``found`` (with the tour and how it was made), ``none``
(with the proof: a theorem, a colouring argument, or an exhaustive search and its node count) or
``unknown`` (every method ran out of its budget). The order of the methods:

1. theory (:mod:`knight.engine.theory`): the colouring argument (the minority colour of an odd
   board), Conrad et al. (the boards with no open tour at all), and the two-colouring argument
   of 4 × m boards (:func:`four_rows_verdict`);
2. where Schwenk's theorem gives a closed tour, one closed tour of the board (Parberry's
   construction, rotations, a search, closed tours of blocks joined, or on 3 × m a small closed
   tour extended by 3 × 4 blocks), walked from the start;
3. on odd boards with both sides at least 5, an open tour of a small odd block from the start
   joined with closed tours of the rest (:func:`knight.engine.hamilton.joined_closed_tour`); on
   odd 3 × m boards an open tour of a window round the start extended by 3 × 4 blocks
   (:func:`knight.engine.hamilton.strip_tour`);
4. Warnsdorff's rule with random ties and Pósa's rotations (:func:`~knight.engine.hamilton.rotation_tour`),
   from the start and from its images under the board's symmetries;
5. an exhaustive depth-first search with exact pruning (:func:`~knight.engine.hamilton.pruned_tour`)
   within a node budget: a tour, or a proof that none exists, or "unknown".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.hamilton import (
    joined_closed_tour,
    odd_board_block,
    pruned_tour,
    rotation_tour,
    small_closed_tour,
    strip_tour,
    walk_cycle,
)
from knight.engine.parberry import covered, parberry_links, parberry_tour
from knight.engine.theory import Verdict, closed_tour_verdict, open_tour_verdict
from knight.engine.tour import Tour
from knight.errors import InvalidInput

__all__ = [
    "FOUR_ROWS",
    "EXHAUSTIVE",
    "DEFAULT_BUDGET",
    "JOIN_FROM",
    "StartRecord",
    "four_rows_verdict",
    "board_closed_tour",
    "tour_from",
    "existence_map",
    "searched_one_by_one",
    "find_tour_from",
    "walk_from",
]

FOUND, NONE, UNKNOWN = "found", "none", "unknown"
#: The argument named for the outer rows of a 4 × m board.
FOUR_ROWS = "two-colouring of 4 × m"
EXHAUSTIVE = "exhaustive search"
#: Nodes the exhaustive search may visit per start square unless told otherwise.
DEFAULT_BUDGET = 2_000_000
#: Boards up to this many squares get their closed tour by rotations or search; larger ones by joined blocks.
JOIN_FROM = 2500


@dataclass(frozen=True)
class StartRecord:
    """What is known of the open tours from one square.

    ``kind`` is ``found``, ``none`` or ``unknown``; ``method`` says how the tour was found or
    names the argument of the proof; ``proof`` says it in a sentence; ``nodes`` is the work of
    the search that decided (search nodes for an exhaustive search, 0 for theory); ``tour`` the
    tour, when found.
    """

    square: Square
    kind: str
    method: str
    proof: str
    nodes: int = 0
    found: Tour | None = None
    cycle: Tour | None = field(default=None, repr=False)

    @property
    def tour(self) -> Tour | None:
        """The tour from :attr:`square`, when found (walked off :attr:`cycle` only when asked: maps stay fast)."""
        if self.found is None and self.cycle is not None:
            return walk_from(self.cycle, self.square)
        return self.found

    def to_dict(self) -> dict[str, object]:
        """Plain data, without the tour's squares."""
        return {
            "square": list(self.square),
            "kind": self.kind,
            "method": self.method,
            "proof": self.proof,
            "nodes": self.nodes,
        }


def four_rows_verdict(board: Board, start: Square) -> Verdict | None:
    """The classic two-colouring argument: no open tour of a 4 × m board starts (or ends) on its inner rows.

    Colour the two outer lines A and the two inner lines B. Every knight move from A goes to
    B, so no two A squares follow each other on a path. A tour of the 4m squares that starts
    on B must then alternate B, A, B, A, … and end on A, putting every A square at an odd
    position: all of one chess colour. But each outer line holds both colours. So every open
    tour starts and ends on the outer lines. Returns None when the argument does not apply.

    Example
    -------
    >>> four_rows_verdict(Board(4, 9), (1, 3)).exists
    False
    >>> four_rows_verdict(Board(4, 9), (0, 3)) is None
    True

    Reference: the argument of L. Pósa as told by Ball & Coxeter, *Mathematical Recreations
    and Essays*; Schwenk (1991) uses it for closed tours of 4 × m.
    """
    board.index(start)
    if board.n == 4 and board.m >= 2 and start[0] in (1, 2):
        line = "row"
    elif board.m == 4 and board.n >= 2 and start[1] in (1, 2):
        line = "column"
    else:
        return None
    return Verdict(
        False,
        FOUR_ROWS,
        f"on {board} every move from the outer {line}s goes to the inner {line}s, so a "
        f"tour from an inner {line} alternates inner and outer squares and puts every "
        f"outer square on one chess colour; the outer {line}s hold both colours",
    )


def board_closed_tour(board: Board, *, compiled: bool | None = None) -> Tour | None:
    """One closed tour of ``board`` when Schwenk's theorem gives one (None when it does not, or none was found).

    Parberry's construction where it applies; rotations or a search on boards up to
    :data:`JOIN_FROM` squares; closed tours of blocks joined on larger ones.

    >>> board_closed_tour(Board(5, 6)).closed, board_closed_tour(Board(4, 6))
    (True, None)

    Reference: Schwenk (1991); Parberry (1997); Pósa (1976).
    """
    if not closed_tour_verdict(board).exists:
        return None
    if covered(board.n, board.m):
        return parberry_tour(board, (0, 0), compiled=compiled)
    if min(board.n, board.m) == 3 and board.size > JOIN_FROM // 10:
        return strip_tour(board, (0, 0), compiled=compiled) or small_closed_tour(board, compiled=compiled)
    if board.size <= JOIN_FROM or min(board.n, board.m) < 5:
        found = small_closed_tour(board, compiled=compiled)
        if found is not None or min(board.n, board.m) < 5:
            return found
    return joined_closed_tour(board, (0, 0), compiled=compiled)


def tour_from(
    board: Board,
    start: Square,
    *,
    budget: int = DEFAULT_BUDGET,
    cycle: Tour | None = None,
    compiled: bool | None = None,
) -> StartRecord:
    """Whether an open tour of ``board`` starts on ``start``: the tour, or the proof that there is none.

    Parameters
    ----------
    board : the board.
    start : the first square, ``(row, col)``.
    budget : most nodes of the exhaustive search (the last method tried).
    cycle : a closed tour of the board, when the caller has one (see :func:`board_closed_tour`).

    Example
    -------
    >>> tour_from(Board(8, 8), (3, 4)).tour.full
    True
    >>> record = tour_from(Board(3, 7), (1, 3))
    >>> record.kind, record.method, record.nodes > 0
    ('none', 'exhaustive search', True)
    >>> tour_from(Board(5, 5), (0, 1)).method
    'colouring'

    Reference: see the module's docstring.
    """
    square = (int(start[0]), int(start[1]))
    board.index(square)
    verdict = open_tour_verdict(board, square)
    if verdict.exists is False:
        return StartRecord(square, NONE, verdict.argument, str(verdict.reason))
    rows = four_rows_verdict(board, square)
    if rows is not None:
        return StartRecord(square, NONE, rows.argument, rows.reason)
    if closed_tour_verdict(board).exists:
        if cycle is None and covered(board.n, board.m):  # walked from the start at once, without numba
            path = walk_cycle(parberry_links(board), board.index(square))
            how = "closed tour (parberry) walked from the start"
            return StartRecord(
                square,
                FOUND,
                how,
                "",
                board.size - 1,
                Tour(board=board, path=path, method="find", params={"via": how}, work=board.size - 1),
            )
        cycle = cycle if cycle is not None else board_closed_tour(board, compiled=compiled)
        if cycle is not None:
            return StartRecord(
                square, FOUND, f"closed tour ({cycle.method}) walked from the start", "", cycle.work, cycle=cycle
            )
    if board.n % 2 and board.m % 2 and min(board.n, board.m) >= 5 and board.size > JOIN_FROM:
        block = odd_board_block(board, square)
        joined = None if block is None else joined_closed_tour(board, square, open_block=block, compiled=compiled)
        if joined is not None:
            return _found(square, "open tour of an odd block joined with closed tours", joined)
    if min(board.n, board.m) == 3 and board.size % 2:
        strip = strip_tour(board, square, compiled=compiled)
        if strip is not None:
            return _found(square, "open tour of a 3-wide window extended by 3 × 4 blocks", strip)
    images = _images(board, square)
    for image, back in images:
        found = rotation_tour(board, image, compiled=compiled)
        if found.full:
            return _found(square, "Warnsdorff with rotations", back(found))
    per_image = max(1, int(budget) // len(images))
    for image, back in images:
        found = pruned_tour(board, image, budget=per_image, compiled=compiled)
        if found.full:
            return _found(square, "pruned search", back(found))
        if not found.budget_exhausted:
            return StartRecord(
                square,
                NONE,
                EXHAUSTIVE,
                f"a depth-first search with exact pruning from {image} tried every path "
                f"({found.work:,} nodes) and found no tour",
                found.work,
            )
    return StartRecord(
        square,
        UNKNOWN,
        "budget",
        f"every method ran out: rotations, and an exhaustive search of {per_image:,} nodes "
        f"from each of {len(images)} symmetric squares",
        per_image * len(images),
    )


def existence_map(
    board: Board,
    *,
    budget: int = DEFAULT_BUDGET,
    compiled: bool | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[StartRecord]:
    """The existence map of ``board``: for every square, row by row, a :class:`StartRecord` from :func:`tour_from`.

    Squares that a symmetry of the board carries onto each other are decided once; the others
    get the image of the tour, or the same proof.

    Parameters
    ----------
    board : the board.
    budget : most nodes of the exhaustive search, per square searched.
    progress : called with the number of squares just decided (a square and its images), as they are;
        the counts add up to ``board.size``.

    Example
    -------
    >>> records = existence_map(Board(3, 4))
    >>> sum(record.kind == "found" for record in records)
    6
    >>> "".join("#" if record.kind == "found" else "." for record in records[:4])
    '#..#'

    Reference: see the module's docstring.
    """
    cycle = board_closed_tour(board, compiled=compiled)
    records: dict[Square, StartRecord] = {}
    rows, cols = np.divmod(np.arange(board.size, dtype=np.int64), board.m)
    for s in range(board.size):
        square = board.coords(s)
        if square in records:
            continue
        record = tour_from(board, square, budget=budget, cycle=cycle, compiled=compiled)
        records[square] = record
        known = len(records)
        for symmetry in board.symmetries():
            r, c = symmetry(np.array([square[0]]), np.array([square[1]]))
            image = (int(r[0]), int(c[0]))
            if image in records:
                continue
            if record.kind != FOUND or record.cycle is not None:
                records[image] = StartRecord(
                    image, record.kind, record.method, record.proof, record.nodes, cycle=record.cycle
                )
            else:
                tour = record.found
                assert tour is not None
                tr, tc = symmetry(rows[tour.path], cols[tour.path])
                moved = Tour(
                    board=board,
                    path=tr * board.m + tc,
                    method=tour.method,
                    params=tour.params,
                    work=tour.work,
                    work_unit=tour.work_unit,
                )
                records[image] = StartRecord(image, FOUND, record.method, "", record.nodes, moved)
        if progress is not None:
            progress(len(records) - known + 1)
    return [records[board.coords(s)] for s in range(board.size)]


def searched_one_by_one(board: Board) -> bool:
    """Whether :func:`existence_map` decides the squares of ``board`` by a search each, its time growing faster than
    the board: there is no closed tour to walk from every start, and theory does not rule every start out.

    >>> searched_one_by_one(Board(4, 9)), searched_one_by_one(Board(6, 6)), searched_one_by_one(Board(2, 9))
    (True, False, False)
    """
    return closed_tour_verdict(board).exists is not True and open_tour_verdict(board).exists is not False


def find_tour_from(board: Board, start: Square, *, budget: int = DEFAULT_BUDGET, compiled: bool | None = None) -> Tour:
    """The tour of :func:`tour_from` as a :class:`Tour` of method ``find``; where none is found, the start alone.

    Parameters
    ----------
    board : the board.
    start : the first square, ``(row, col)``.
    budget : most nodes of the exhaustive search.

    ``params`` say how (``via``), or why there is none (``verdict``: ``none: argument: reason``
    or ``unknown: …``).

    Example
    -------
    >>> tour = find_tour_from(Board(4, 5), (1, 1))
    >>> tour.full, tour.params["verdict"].split(":")[0]
    (False, 'none')

    Reference: see the module's docstring.
    """
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < 1:
        raise InvalidInput(f"budget must be a positive number of nodes, got {budget!r}")
    record = tour_from(board, start, budget=int(budget), compiled=compiled)
    if record.tour is not None:
        return record.tour
    verdict = f"{record.kind}: {record.method}: {record.proof}"
    return Tour(
        board=board,
        path=np.array([board.index(record.square)], dtype=np.int64),
        method="find",
        params={"budget": int(budget), "verdict": verdict},
        work=record.nodes,
        work_unit="nodes",
        budget_exhausted=record.kind == UNKNOWN,
    )


def walk_from(cycle: Tour, start: Square) -> Tour:
    """The closed tour ``cycle`` walked from ``start`` (the same cycle, so again a closed tour).

    >>> walk_from(parberry_tour(Board(6, 6)), (2, 3)).start
    (2, 3)
    """
    at = int(np.flatnonzero(cycle.path == cycle.board.index(start))[0])
    path = np.concatenate([cycle.path[at:], cycle.path[:at]])
    return Tour(
        board=cycle.board,
        path=path,
        method="find",
        params={"via": f"closed tour ({cycle.method}) walked from the start"},
        work=cycle.work,
        work_unit=cycle.work_unit,
    )


def _found(square: Square, how: str, tour: Tour) -> StartRecord:
    """A found record, its tour renamed ``find`` with ``via`` saying how it was made."""
    renamed = Tour(
        board=tour.board, path=tour.path, method="find", params={"via": how}, work=tour.work, work_unit=tour.work_unit
    )
    return StartRecord(square, FOUND, how, "", tour.work, renamed)


def _images(board: Board, square: Square) -> list[tuple[Square, Callable[[Tour], Tour]]]:
    """The distinct images of ``square`` under the board's symmetries, each with the map that carries
    a tour from the image back to a tour from ``square`` (the start itself comes first)."""
    m = board.m
    found: list[tuple[Square, Callable[[Tour], Tour]]] = []
    seen = set()
    rows, cols = np.divmod(np.arange(board.size, dtype=np.int64), m)
    for symmetry in board.symmetries():
        r, c = symmetry(np.array([square[0]]), np.array([square[1]]))
        image = (int(r[0]), int(c[0]))
        if image in seen:
            continue
        seen.add(image)
        inverse = next(s for s in board.symmetries() if tuple(int(v[0]) for v in s(r, c)) == square)

        def back(tour: Tour, inverse: Callable[..., Any] = inverse) -> Tour:
            tr, tc = inverse(rows[tour.path], cols[tour.path])
            return Tour(
                board=board,
                path=tr * m + tc,
                method=tour.method,
                params=tour.params,
                work=tour.work,
                work_unit=tour.work_unit,
            )

        found.append((image, back))
    return found
