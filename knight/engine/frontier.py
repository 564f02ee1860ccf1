"""Exact tour counts by dynamic programming over the board's frontier: counting without listing.

The enumerating census (:mod:`knight.engine.census`) visits every tour, so its cost grows with their number
(7 × 7 has 1.7·10^11 directed open tours). This module counts the same numbers by sweeping the board square
by square in row-major order and deciding, at each square, which of its knight moves to squares already
swept belong to the tour. What the squares still to come can see of the moves chosen so far is the
*frontier state*: for each of the last ``2w + 1`` squares swept (``w`` the row length; a knight move reaches
two rows back and one column aside, so no older square has a move left to decide) its degree so far (0, 1
or 2) and, for a loose end (degree 1), which other loose end closes its path — the *mate* of Knuth's
SIMPATH. Only the number of ways to reach each state is kept: partial tours that look the same from the
squares to come merge, so the cost grows with the number of states, not of tours.

A square leaves the frontier once its last move is decided; it must then have degree 2, or, for an open
tour, degree 1 if it is one of the tour's two ends. The other end of a path whose end has left is marked
a *tail*; at most two tails. A cycle may close only at the last square, with nothing left loose; an open
path may be completed (both ends gone) only when nothing is left either. A state in which some frontier
square needs more moves than it has left to squares not yet swept is dropped at once (an open tour's two
ends need one fewer): most of the states a sweep would otherwise carry are such dead ones.

State encoding, one code per frontier square (4 bits each in the compiled kernels):
``0`` degree 0, ``1`` degree 2 (or no square: beyond the board's edge, removed), ``2`` a tail, ``3…`` a
loose end's path, both ends of a path sharing the code, numbered in order of first appearance so that
equal frontiers have equal codes. The board is swept along its longer side, so the row length ``w`` is
its shorter side. A frontier of at most 15 squares (``w`` at most 7) is one 64-bit word a state
(:mod:`knight.engine.frontier_kernel`); a wider one, two (:mod:`knight.engine.frontier_wide_kernel`, 8 × 8's
17 squares and on, up to ``w`` = :data:`MAX_SHORT_SIDE`), the same sweep square for square at half again the
memory a state.

References: D. E. Knuth, *The Art of Computer Programming* 4A, §7.1.4 (SIMPATH, the mate array);
H. Iwashita, J. Kawahara, S. Minato, "ZDD-based computation of the number of paths in a graph" (2012)
and J. Kawahara et al., "Frontier-based search for enumerating all constrained subgraphs with compressed
representation" (IEICE 2017; the frontier search of graphillion); OEIS A165134 (directed open tours of
n × n) and A001230 (closed tours).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.frontier_kernel import EMPTY_KEY, MAX_LOAD, frontier_compact, frontier_regrow, frontier_step
from knight.engine.frontier_wide_kernel import (
    LO_SQUARES,
    MAX_WINDOW,
    frontier_wide_compact,
    frontier_wide_regrow,
    frontier_wide_step,
)
from knight.engine.theory import colour_counts
from knight.errors import InvalidInput

__all__ = [
    "MAX_SHORT_SIDE",
    "DEFAULT_MAX_STATES",
    "MAX_STATES",
    "FrontierCount",
    "FrontierProgress",
    "TooManyStates",
    "frontier_count",
    "sweep_layout",
]

#: The longest shorter side the compiled kernels' states hold. One 64-bit word holds 2·7 + 1 squares of 4 bits
#: (:data:`NARROW_SHORT_SIDE`); two hold 30 squares, but the 4-bit codes bound it first: a frontier of 2w + 1 squares
#: has up to w paths, coded 3 to w + 2, so w is at most 13 (27 squares: 15 in the low word, 12 in the high). 8 x 8
#: (17 squares) is the board the two words are for; from 9 the states pass any memory long before the codes do.
MAX_SHORT_SIDE = (MAX_WINDOW - 1) // 2
#: The longest shorter side one 64-bit word a state holds (:mod:`knight.engine.frontier_kernel`).
NARROW_SHORT_SIDE = (LO_SQUARES - 1) // 2
#: The state table's default cap: 2·10^8 states, room for 7 x 7's open tours (158 M at the peak). A step holds
#: its states (16 bytes each) and the next's table (16-byte slots, three quarters filled at most, never more
#: than hold the cap: 4.3 GB) and, while that grows, the table it leaves (two thirds as large): at most about
#: 10 GB at the cap, 50 bytes a state; 7 x 7 open took 6 GB. Two-word states (a shorter side over 7) are 24 bytes,
#: in 24-byte slots: half again, some 15 GB at the cap (8 x 8 closed held 7.9 GB when it passed 1.5·10^8 states).
DEFAULT_MAX_STATES = 200_000_000
#: The largest cap: a table that holds it has fewer than 2^32 slots, as a key's slot is computed
#: (:func:`knight.engine.frontier_kernel.frontier_slot`); some 150 GB, 225 GB with two-word states.
MAX_STATES = 3_000_000_000

#: A two-word state's row: its low word, its high word, the ways to it (:mod:`knight.engine.frontier_wide_kernel`).
WIDE_COLUMNS = 3
#: The low word's bits of a one-word state (its squares; the colour's are above): a two-word state's low word.
LOW_WORD = (1 << (4 * LO_SQUARES)) - 1

#: Codes of a frontier square (see the module's docstring).
EMPTY, DONE, TAIL, FIRST_PATH = 0, 1, 2, 3
#: Whether a square may end an open tour (:meth:`SweepLayout.end_rules`).
ANY_END, NOT_AN_END, END_OF_COLOUR = 0, 1, 2


class TooManyStates(InvalidInput):
    """The frontier held more states than the cap allows (``--max-states``)."""


@dataclass(frozen=True)
class FrontierCount:
    """The count of ``board``'s tours (less ``removed``) by the frontier method.

    ``tours``: directed open tours (each path twice, once from each end, as the census counts them), or
    closed tours as cycles (up to start square and direction, as the census's ``cycles``).
    ``peak_states``: the most frontier states held at once; ``states``: summed over every square swept.
    """

    board: Board
    closed: bool
    tours: int
    peak_states: int
    states: int
    removed: tuple[Square, ...] = ()


@dataclass(frozen=True)
class FrontierProgress:
    """Where a compiled count stands after a row of its sweep: the last square swept (row-major along the longer
    side), the frontier's states, the tours completed so far (``ways``: paths, as :func:`finish_count` takes them),
    the most states held at once and in all, and the growth guessed for the next step. Given back to
    :func:`frontier_count` (``resume``), the count goes on from the next square and gives what it would have given
    without the stop: a long count survives its process.

    ``states`` is as the count's kernel holds them: one-word states, a flat array of ``(state, ways)`` pairs
    (:mod:`knight.engine.frontier_kernel`); two-word states, an ``(n, 3)`` array of ``(lo, hi, ways)`` rows
    (:mod:`knight.engine.frontier_wide_kernel`, :attr:`wide`). Either resumes either kind of count of a board
    whose frontier fits one word: the states are converted."""

    square: int
    states: np.ndarray
    ways: int
    peak: int
    total: int
    growth: float

    @property
    def wide(self) -> bool:
        """Whether the states are two words each (rows of lo, hi, ways)."""
        return self.states.ndim == 2

    @property
    def held(self) -> int:
        """How many states the frontier holds."""
        return int(self.states.shape[0] if self.wide else self.states.shape[0] // 2)


@dataclass(frozen=True)
class SweepLayout:
    """The board as swept: ``width`` squares a row, ``length`` rows, ``absent[i]`` for a removed square ``i``
    (row-major, in the sweep's orientation)."""

    width: int
    length: int
    absent: tuple[bool, ...]

    @property
    def squares(self) -> int:
        return self.width * self.length

    @property
    def window(self) -> int:
        """Frontier squares kept between two steps: a move reaches ``2 * width + 1`` squares back."""
        return 2 * self.width + 1

    def back_moves(self, square: int) -> list[int]:
        """The distances back, in the sweep, to the squares on the board before ``square`` a knight move away."""
        if self.absent[square]:
            return []
        w = self.width
        row, col = divmod(square, w)
        found = []
        for rows, cols in ((2, -1), (2, 1), (1, -2), (1, 2)):
            if row - rows >= 0 and 0 <= col + cols < w and not self.absent[square - rows * w + cols]:
                found.append(rows * w - cols)
        return found

    def finished(self) -> list[list[int]]:
        """For each square, the distances back to the squares whose last move is decided there (itself
        included when no move leads on from it): they leave the frontier as soon as they can, so that
        frontiers differing only in them merge."""
        last = list(range(self.squares))
        for square in range(self.squares):
            for back in self.back_moves(square):
                last[square - back] = square
        out: list[list[int]] = [[] for _ in range(self.squares)]
        for square in range(self.squares):
            if not self.absent[square]:
                out[last[square]].append(last[square] - square)
        return out

    def spare(self, square: int) -> list[int]:
        """For each extended frontier index ``i`` after ``square`` is swept (``window`` the new square), how
        many knight moves the square ``square - window + i`` still has to squares not yet swept: a square
        that needs more moves than it can still get dooms every state it is in, which is dropped at once
        rather than carried to the square's leaving (most of the sweep's states were such dead ones)."""
        ahead = [0] * self.squares
        for later in range(square + 1, self.squares):
            for back in self.back_moves(later):
                ahead[later - back] += 1
        return [ahead[square - self.window + i] if square - self.window + i >= 0 else 2 for i in range(self.window + 1)]

    def rules_at(self, square: int, rules: list[int]) -> list[int]:
        """``rules`` (:meth:`end_rules`) by extended frontier index after ``square`` is swept."""
        return [
            rules[square - self.window + i] if square - self.window + i >= 0 else NOT_AN_END
            for i in range(self.window + 1)
        ]

    def mirrors_at(self, square: int) -> bool:
        """Whether the states after ``square`` may be merged with their mirror images (columns reversed):
        ``square`` ends a row, so that the squares swept are the whole rows above, and the board with its removed
        squares is its own mirror image. The tours that complete a state and those that complete its mirror image
        are then mirror images of each other, as many: the two states' ways are added under one of them."""
        return square % self.width == self.width - 1 and self.width > 1 and self.symmetric

    @cached_property
    def symmetric(self) -> bool:
        """Whether the board with its removed squares is its own mirror image (columns reversed)."""
        w = self.width
        return all(self.absent[i] == self.absent[i - i % w + w - 1 - i % w] for i in range(self.squares))

    def mirrored(self) -> list[int]:
        """For each position of a state kept after a row's last square, the position its mirror image takes the
        code from: the oldest square (the row before last's last, always gone) stays, the last two rows reverse."""
        w = self.width
        return [0] + [w + 1 - p for p in range(1, w + 1)] + [3 * w + 1 - p for p in range(w + 1, 2 * w + 1)]

    def end_rules(self) -> list[int]:
        """For each square, whether it may be an end of an open tour: :data:`NOT_AN_END` when the colours are
        one apart and it is of the fewer (both ends lie on the other); else :data:`END_OF_COLOUR` plus its
        colour when they are equally many (one end on each: the state keeps the first end's colour); else
        :data:`ANY_END` (colours two or more apart: there is no tour anyway)."""
        colours = [0, 0]
        of = [sum(divmod(square, self.width)) % 2 for square in range(self.squares)]
        for square in range(self.squares):
            colours[of[square]] += not self.absent[square]
        more = colours[0] - colours[1]
        if more == 0:
            return [END_OF_COLOUR + colour for colour in of]
        if abs(more) == 1:
            return [NOT_AN_END if (colour == 0) != (more == 1) else ANY_END for colour in of]
        return [ANY_END] * self.squares


def sweep_layout(board: Board, removed: Iterable[Square] = ()) -> SweepLayout:
    """``board`` laid out to be swept along its longer side (the frontier spans the shorter one).

    >>> layout = sweep_layout(Board(6, 4), removed=[(0, 3)])
    >>> layout.width, layout.length, layout.absent.index(True)
    (4, 6, 3)
    """
    gone = set()
    for square in removed:
        if not board.contains(square):
            raise InvalidInput(f"removed square {square} is not on {board}; give squares of the board")
        gone.add(tuple(square))
    transpose = board.m > board.n
    width, length = (board.n, board.m) if transpose else (board.m, board.n)
    absent = tuple(((col, row) if transpose else (row, col)) in gone for row in range(length) for col in range(width))
    return SweepLayout(width, length, absent)


def check_frontier_board(board: Board, max_states: int = DEFAULT_MAX_STATES) -> None:
    """Raise :class:`InvalidInput` when the frontier method cannot count ``board`` (its shorter side too long)
    or ``max_states`` is not a positive number."""
    if min(board.n, board.m) > MAX_SHORT_SIDE:
        raise InvalidInput(
            f"the frontier method counts boards whose shorter side is at most {MAX_SHORT_SIDE} (states of two "
            f"64-bit words, 4-bit codes); "
            f"{board} has {min(board.n, board.m)}: use the enumerating census"
        )
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
        raise InvalidInput(f"the state cap must be a positive whole number, got {max_states!r}")
    if max_states > MAX_STATES:
        raise InvalidInput(f"the state cap may be at most {MAX_STATES:,} (some 150 GB), got {max_states:,}")


def table_slots(states: int) -> int:
    """Slots of a hash table that holds ``states`` states, filled to :data:`MAX_LOAD` quarters."""
    return max(1024, -(-4 * states // MAX_LOAD) + 16)


def too_many_states(board: Board, max_states: int) -> TooManyStates:
    """The error for a count that would pass the state cap."""
    return TooManyStates(
        f"counting {board} needs more than {max_states:,} frontier states (the state cap, --max-states); "
        "raise the cap if memory allows (about 50 bytes a state, 80 at most; half again as much for a board whose "
        f"shorter side is over {NARROW_SHORT_SIDE})"
    )


def finish_count(
    board: Board, closed: bool, ways: int, removed: tuple[Square, ...], peak: int, total: int
) -> FrontierCount:
    """The count as the census gives it: an open path is two directed tours (a lone square is one)."""
    squares = board.size - len(set(removed))
    tours = ways if closed or squares == 1 else 2 * ways
    return FrontierCount(board, closed, tours, peak, total, removed)


def colour_bound(board: Board, closed: bool, removed: tuple[Square, ...]) -> bool:
    """Whether the colouring argument alone says there is no tour: a knight move changes colour, so a closed
    tour needs as many squares of each colour, an open one at most one more of one (7 x 7 has no closed tour:
    counted, that took 108 s)."""
    light, dark = colour_counts(board, removed)
    return abs(light - dark) > (0 if closed else 1) and light + dark > 1


def frontier_count(
    board: Board,
    *,
    closed: bool = False,
    removed: Iterable[Square] = (),
    max_states: int = DEFAULT_MAX_STATES,
    compiled: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_row: Callable[[FrontierProgress], None] | None = None,
    resume: FrontierProgress | None = None,
    wide: bool | None = None,
) -> FrontierCount:
    """Count every tour of ``board`` exactly by dynamic programming over its frontier (see the module).

    Parameters
    ----------
    board : the board; its shorter side at most :data:`MAX_SHORT_SIDE`.
    closed : count closed tours (as cycles), else directed open tours.
    removed : squares taken off the board, ``(row, col)``.
    max_states : stop with :class:`TooManyStates` when the frontier would hold more states.
    compiled : force the compiled (True) or interpreted (False) kernel; see :mod:`knight.engine.kernel`.
    progress : called after each square swept with its index (row-major along the longer side) and the
        states then held: how the states grow row by row.
    on_row : called after each row but the last with where the count stands (:class:`FrontierProgress`), for
        the caller to keep (a checkpoint); its ``states`` are the count's own: copy them to keep them.
    resume : where an earlier count of this board stood (as ``on_row`` gave it): go on from there.
    wide : states of two 64-bit words (:mod:`knight.engine.frontier_wide_kernel`) when True, of one when False
        (only for a frontier of at most 15 squares, a shorter side of at most 7); None, as the board needs (two
        words from a shorter side of 8). The count is the same; two words take half again the memory and a tenth
        more time (6 x 7 open: 0.92 GB against 0.63, 45 s of CPU against 41).

    Returns a :class:`FrontierCount`: the tours, counted as :func:`knight.engine.census.census` counts them
    (its ``total`` for open tours, its ``cycles`` for closed), and the peak number of states.

    Example
    -------
    >>> frontier_count(Board(5, 5)).tours, frontier_count(Board(6, 6), closed=True).tours
    (1728, 9862)
    """
    check_frontier_board(board, max_states)
    removed = tuple((int(row), int(col)) for row, col in removed)
    layout = sweep_layout(board, removed)
    real = [i for i in range(layout.squares) if not layout.absent[i]]
    if len(real) <= 1 or colour_bound(board, closed, removed):
        from knight.engine.frontier_reference import frontier_count_reference  # it imports this module

        return frontier_count_reference(board, closed=closed, removed=removed, max_states=max_states)
    window, finished, rules = layout.window, layout.finished(), layout.end_rules()
    if wide is None:
        wide = not fits_one_word(window)
    if not wide and not fits_one_word(window):
        raise InvalidInput(
            f"{board}'s frontier of {window} squares does not fit a one-word state: count it with two-word states "
            "(wide=None or wide=True)"
        )
    kernels = (
        (frontier_wide_step, frontier_wide_regrow, frontier_wide_compact)
        if wide
        else (frontier_step, frontier_regrow, frontier_compact)
    )
    step, regrow, compact = (each.choose(board.size, compiled) for each in kernels)
    states = first_states(window, wide)
    out = np.zeros(2, dtype=np.int64)
    ways = peak = total = 0
    growth = 4.0  # the next step's states per state, guessed from the last step's
    first = 0
    if resume is not None:
        states = states_as(resume.states, wide, window)
        ways, peak, total, growth = resume.ways, resume.peak, resume.total, resume.growth
        first = resume.square + 1
    mirrored = np.array(layout.mirrored(), dtype=np.int64)
    most = table_slots(max_states)  # a table that holds the cap: never larger, so memory stays bounded by it
    for square in range(first, layout.squares):
        held = ways_of(states, wide)
        if float(held.sum(dtype=np.float64)) * 11 >= 2.0**63:  # a square takes at most 11 sets of moves
            raise InvalidInput(f"counting {board} would pass 2^63 ways to a frontier: too large a board")
        moves = np.array(layout.back_moves(square), dtype=np.int64)
        leaving = np.array(finished[square], dtype=np.int64)
        ends = np.array([rules[square - back] for back in finished[square]], dtype=np.int64)
        spare = np.array(layout.spare(square), dtype=np.int64)
        ends_here = np.array(layout.rules_at(square, rules), dtype=np.int64)
        before = len(held)
        if not before:  # every partial tour died: no more to count
            break
        # Room for a tenth more than the guess: a wrong guess costs a regrow (the table copied into one half as
        # large again), a generous one memory.
        table = empty_table(min(table_slots(int(1.1 * growth * before)), most), wide)
        out[:] = 0
        at = 0
        while True:
            at = step(
                states,
                table,
                moves,
                leaving,
                ends,
                spare,
                ends_here,
                mirrored,
                window,
                int(closed),
                int(square == real[-1]),
                int(layout.absent[square]),
                int(layout.mirrors_at(square)),
                int(layout.width % 2 == 0),
                at,
                max_states,
                out,
            )
            if at < 0:
                raise too_many_states(board, max_states)
            if at == before:
                break
            bigger = empty_table(min(slots_of(table, wide) * 3 // 2, most), wide)
            regrow(table, bigger)
            table = bigger
        states = held = np.empty(0, dtype=np.int64)  # swept: its memory goes to the next states
        stored = compact(table)
        # in place: the slots past the states given back, not copied
        table.resize((stored, WIDE_COLUMNS) if wide else 2 * stored, refcheck=False)
        states, table = table, states
        growth = max(stored / before, 0.25)
        ways += int(out[0])
        peak, total = max(peak, stored), total + stored
        if progress is not None:
            progress(square, stored)
        if on_row is not None and square % layout.width == layout.width - 1 and square < layout.squares - 1:
            on_row(FrontierProgress(square, states, ways, peak, total, growth))
    return finish_count(board, closed, ways, removed, peak, total)


def fits_one_word(window: int) -> bool:
    """Whether a frontier of ``window`` squares fits a one-word state: 4 bits a square and 2 of colour in 62 bits."""
    return 4 * window + 2 <= 62


def first_states(window: int, wide: bool) -> np.ndarray:
    """The states before the board: one, every frontier square no square (:data:`DONE`), reached one way."""
    if not wide:
        return np.array([sum(DONE << (4 * i) for i in range(window)), 1], dtype=np.int64)  # (state, count) pairs
    lo = sum(DONE << (4 * i) for i in range(min(window, LO_SQUARES)))
    hi = sum(DONE << (4 * (i - LO_SQUARES)) for i in range(LO_SQUARES, window))
    return np.array([[lo, hi, 1]], dtype=np.int64)  # (lo, hi, count) rows


def states_as(states: np.ndarray, wide: bool, window: int) -> np.ndarray:
    """``states`` (as :class:`FrontierProgress` holds them) as the one-word (pairs) or two-word (rows) kernel takes
    them: as they are when they already are, else converted (a new array): a frontier of at most 15 squares is the
    one-word state in the low word and the colour bits in the high."""
    if (states.ndim == 2) == wide:
        return states
    if not fits_one_word(window):
        raise InvalidInput(
            f"a frontier of {window} squares needs two-word states; the progress given has one-word ones"
        )
    if wide:
        pairs = states.reshape(-1, 2)
        rows = np.empty((len(pairs), WIDE_COLUMNS), dtype=np.int64)
        rows[:, 0] = pairs[:, 0] & LOW_WORD
        rows[:, 1] = pairs[:, 0] & ~LOW_WORD
        rows[:, 2] = pairs[:, 1]
        return rows
    flat = np.empty(2 * len(states), dtype=np.int64)
    flat[0::2] = states[:, 0] | states[:, 1]
    flat[1::2] = states[:, 2]
    return flat


def ways_of(states: np.ndarray, wide: bool) -> np.ndarray:
    """The ways to each state of ``states`` (a view)."""
    return states[:, 2] if wide else states[1::2]


def empty_table(slots: int, wide: bool) -> np.ndarray:
    """A hash table of ``slots`` empty slots for the one-word (pairs) or two-word (rows) kernel."""
    return np.full((slots, WIDE_COLUMNS) if wide else 2 * slots, EMPTY_KEY, dtype=np.int64)


def slots_of(table: np.ndarray, wide: bool) -> int:
    """The slots of a hash table of :func:`empty_table`."""
    return int(table.shape[0] if wide else table.shape[0] // 2)
