"""What theory says before any search: whether a tour can exist, and why.

Each answer is a :class:`Verdict`: ``exists`` is True (theory guarantees a tour), False
(theory rules every tour out) or None (theory does not decide here: search), and
``reason`` names the argument. The arguments:

* **colouring** — a knight always moves to a square of the other colour, so a path
  alternates colours: its squares number as many of each colour, or one more of the colour
  it starts (and ends) on. A closed tour has as many of each. This decides boards with
  removed squares too (the Eiffel text's board without two opposite corners).
* **Schwenk** — A. J. Schwenk, "Which rectangular chessboards have a knight's tour?",
  Mathematics Magazine 64 (1991) 325–332: an m × n board (m ≤ n) has a closed tour unless
  m and n are both odd; or m ∈ {1, 2, 4}; or m = 3 and n ∈ {4, 6, 8}.
* **Conrad et al.** — A. Conrad, T. Hindrichs, H. Morsy, I. Wegener, "Solution of the
  knight's Hamiltonian path problem on chessboards", Discrete Applied Mathematics 50 (1994)
  125–134 (with Cull & De Curtins 1978): an n × m board (n ≤ m) has an open tour exactly
  when it is 1 × 1, 3 × 4, 3 × m with m ≥ 7, 4 × m with m ≥ 5, or n ≥ 5; and on an n × n
  board with n ≥ 5 a tour joins any two squares that colouring allows, so one starts on
  every square not of the minority colour.
* **closed tour** — where a closed tour exists, dropping any one of its moves leaves an
  open tour from each of its squares, so every square starts one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from knight.engine.board import Board, Square
from knight.errors import InvalidInput

__all__ = [
    "COLOURING",
    "SCHWENK",
    "CONRAD",
    "FROM_CLOSED",
    "UNDECIDED",
    "Verdict",
    "colour_counts",
    "open_tour_verdict",
    "closed_tour_verdict",
]

COLOURING = "colouring"
SCHWENK = "Schwenk 1991"
CONRAD = "Conrad et al. 1994"
FROM_CLOSED = "closed tour (Schwenk 1991)"
UNDECIDED = "theory does not decide"


@dataclass(frozen=True)
class Verdict:
    """What theory says: ``exists`` True, False or None (undecided), the argument's name and why it applies."""

    exists: bool | None
    argument: str
    reason: str

    def __str__(self) -> str:
        answer = {True: "a tour exists", False: "no tour exists", None: "undecided"}[self.exists]
        return f"{answer} ({self.argument}: {self.reason})"


def colour_counts(board: Board, removed: Iterable[Square] = ()) -> tuple[int, int]:
    """The number of squares of each colour (0: the top-left corner's colour), less ``removed``.

    >>> colour_counts(Board(8, 8), removed=[(0, 0), (7, 7)])  # the Eiffel text's mutilated board
    (30, 32)
    """
    gone = _removed(board, removed)
    first = (board.size + 1) // 2  # squares of the top-left corner's colour
    counts = [first, board.size - first]
    for row, col in gone:
        counts[board.colour((row, col))] -= 1
    return counts[0], counts[1]


def open_tour_verdict(board: Board, start: Square | None = None, removed: Iterable[Square] = ()) -> Verdict:
    """Whether an open tour (of every square not removed) exists — from ``start``, or from some square.

    Parameters
    ----------
    board : the board.
    start : the first square, ``(row, col)``; None asks whether the board has any open tour.
    removed : squares taken off the board.

    Example
    -------
    >>> open_tour_verdict(Board(5, 5), (0, 1)).exists  # the minority colour of an odd board
    False
    >>> print(open_tour_verdict(Board(4, 4)))
    no tour exists (Conrad et al. 1994: an n × m board (n ≤ m) has an open tour only when it is 1 × 1, 3 × 4, 3 × m with m ≥ 7, 4 × m with m ≥ 5, or n ≥ 5)
    >>> open_tour_verdict(Board(8, 8), removed=[(0, 0), (7, 7)]).exists
    False

    Reference: Conrad et al. (1994); Schwenk (1991); the colouring argument of the Eiffel text.
    """
    gone = _removed(board, removed)
    if start is not None:
        board.index(start)
        if start in gone:
            raise InvalidInput(f"start {tuple(start)} is a removed square; choose a square on the board")
    verdict = _colouring(board, gone, start, closed=False)
    if verdict is not None or gone:
        return verdict or Verdict(None, UNDECIDED, "the theorems here are for whole boards; squares are removed")
    n, m = sorted((board.n, board.m))
    if not (n == m == 1 or (n, m) == (3, 4) or (n == 3 and m >= 7) or (n == 4 and m >= 5) or n >= 5):
        return Verdict(
            False,
            CONRAD,
            "an n × m board (n ≤ m) has an open tour only when it is 1 × 1, 3 × 4, "
            "3 × m with m ≥ 7, 4 × m with m ≥ 5, or n ≥ 5",
        )
    if start is None or board.size == 1:
        return Verdict(True, CONRAD, f"{board} is one of the boards with an open tour")
    if closed_tour_verdict(board).exists:
        return Verdict(
            True,
            FROM_CLOSED,
            f"{board} has a closed tour; dropping one of its moves gives an open tour from any square",
        )
    if board.n == board.m and n >= 5:
        return Verdict(
            True, CONRAD, "on an n × n board with n ≥ 5 an open tour starts on every square not of the minority colour"
        )
    return Verdict(None, UNDECIDED, f"{board} has open tours, but not necessarily from {tuple(start)}: search")


def closed_tour_verdict(board: Board, removed: Iterable[Square] = ()) -> Verdict:
    """Whether a closed tour (of every square not removed) exists.

    Parameters
    ----------
    board : the board.
    removed : squares taken off the board.

    Example
    -------
    >>> print(closed_tour_verdict(Board(5, 5)))
    no tour exists (colouring: 13 squares of one colour and 12 of the other; a closed tour needs as many of each)
    >>> closed_tour_verdict(Board(3, 10)).exists, closed_tour_verdict(Board(4, 8)).argument
    (True, 'Schwenk 1991')

    Reference: Schwenk (1991); the colouring argument of the Eiffel text.
    """
    gone = _removed(board, removed)
    if board.size - len(gone) < 3:
        return Verdict(False, "definition", "a closed tour is a cycle of at least three squares")
    verdict = _colouring(board, gone, None, closed=True)
    if verdict is not None or gone:
        return verdict or Verdict(None, UNDECIDED, "Schwenk's theorem is for whole boards; squares are removed")
    m, n = sorted((board.n, board.m))
    if m in (1, 2, 4):
        return Verdict(False, SCHWENK, f"no m × n board with m = {m} has a closed tour")
    if m == 3 and n in (4, 6, 8):
        return Verdict(False, SCHWENK, f"the 3 × {n} board has no closed tour")
    return Verdict(
        True, SCHWENK, f"{board}: not both sides odd, the shorter side not 1, 2 or 4, and not 3 × 4, 3 × 6 or 3 × 8"
    )


def _colouring(board: Board, gone: set[Square], start: Square | None, closed: bool) -> Verdict | None:
    """The colouring argument's verdict, or None when colour counts allow a tour."""
    counts = colour_counts(board, gone)
    more, fewer = max(counts), min(counts)
    counted = f"{more} squares of one colour and {fewer} of the other"
    if closed and more != fewer:
        return Verdict(False, COLOURING, f"{counted}; a closed tour needs as many of each")
    if more - fewer > 1:
        return Verdict(
            False, COLOURING, f"{counted}; a knight's path alternates colours, so they differ by at most one"
        )
    if start is not None and more > fewer and counts[board.colour(start)] == fewer:
        return Verdict(
            False,
            COLOURING,
            f"{counted}; a path with one more of the majority colour starts and "
            f"ends on it, and {tuple(start)} is of the minority colour",
        )
    return None


def _removed(board: Board, removed: Iterable[Square]) -> set[Square]:
    gone = set()
    for square in removed:
        board.index((square[0], square[1]))  # raises on a square off the board
        gone.add((int(square[0]), int(square[1])))
    return gone
