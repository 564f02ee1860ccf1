"""The frontier count's states split into shards: one square of the sweep for one shard, and the merge of the parts
that every shard sends another.

:func:`knight.engine.frontier.frontier_count` keeps every frontier state of a square in one hash table, so that one
process holds them all (7 × 7 open: 1.6·10^8 states, 8.6 GB). Here the states are split by an *owner* hash of the
state into ``shards`` parts; each shard sweeps one square over its own states with the same compiled kernels
(:mod:`knight.engine.frontier_kernel`, :mod:`knight.engine.frontier_wide_kernel`), into a table of its own, and
orders the states after the square by their owners, in place, so that each shard's part is a slice
(:func:`step_shard`; the kernels ``frontier_partition`` and ``frontier_wide_partition``); each shard then merges what every shard
sent it (:func:`merge_parts`: equal states, found by several shards, add their ways) and sweeps the next square. A
state is merged where its owner is, so the states a square holds, summed over the shards after the merge, are the
one-table count's exactly, and so are the tours: the ways completed add up over the shards and the squares. The
mirror merge at a row's end is the kernel's canonical form of a state, chosen before the owner is: a state and its
mirror image go to one shard.

The owner hash is not the tables' slot hash (:func:`knight.engine.frontier_kernel.frontier_slot`, MurmurHash3's
finalizer): the keys of one shard, all sharing a value of the owner hash, still spread over every slot of its
table. It is a multiplicative (Fibonacci) hash whose top 32 bits are scaled to the number of shards
(:func:`knight.engine.frontier_kernel.frontier_owner`; :func:`owners` is its numpy twin).

This module only computes: where the parts go and how shards meet (files, processes, a cluster) is the runner's,
:mod:`knight.runner.frontier_shards`.

References: D. E. Knuth, *The Art of Computer Programming* 3, §6.4 (multiplicative hashing); the hash-partitioned
aggregation of parallel databases (a group-by's rows sent to the node their key's hash names, then merged there),
e.g. D. DeWitt and J. Gray, "Parallel database systems: the future of high performance database systems", CACM 35
(1992).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.frontier import (
    DEFAULT_MAX_STATES,
    SweepLayout,
    check_frontier_board,
    colour_bound,
    empty_table,
    first_states,
    fits_one_word,
    slots_of,
    sweep_layout,
    table_slots,
    too_many_states,
    ways_of,
)
from knight.engine.frontier_kernel import (
    FIXED_WINDOW_STEPS,
    OWNER_MULTIPLIER,
    frontier_compact,
    frontier_partition,
    frontier_regrow,
    frontier_step,
)
from knight.engine.frontier_wide_kernel import (
    HIGH_MULTIPLIER,
    frontier_wide_compact,
    frontier_wide_partition,
    frontier_wide_regrow,
    frontier_wide_step,
)
from knight.errors import InvalidInput

__all__ = [
    "MAX_SHARDS",
    "ShardSweep",
    "ShardStep",
    "shard_sweep",
    "owners",
    "step_shard",
    "merge_parts",
    "held_states",
]

#: The most shards: each square every shard sends a part to every shard, ``shards²`` parts a square.
MAX_SHARDS = 1024


@dataclass(frozen=True)
class ShardSweep:
    """A board as the sharded sweep sees it: what each square's step takes, the same for every shard.

    Made by :func:`shard_sweep`, which checks the board. ``wide``: states of two 64-bit words (rows of lo, hi,
    ways), else one (flat pairs of state, ways).
    """

    board: Board
    closed: bool
    removed: tuple[Square, ...]
    wide: bool

    @cached_property
    def layout(self) -> SweepLayout:
        """The board laid out along its longer side (:func:`knight.engine.frontier.sweep_layout`)."""
        return sweep_layout(self.board, self.removed)

    @property
    def squares(self) -> int:
        """The squares swept, one step each."""
        return self.layout.squares

    @cached_property
    def last_real(self) -> int:
        """The last square of the board not removed: where a closed tour closes."""
        return max(i for i in range(self.layout.squares) if not self.layout.absent[i])

    @cached_property
    def trivial(self) -> bool:
        """Whether there is nothing to sweep: at most one square, or too many of one colour for a tour."""
        real = sum(not absent for absent in self.layout.absent)
        return real <= 1 or colour_bound(self.board, self.closed, self.removed)

    def first_states(self) -> np.ndarray:
        """The states before the first square (one, reached one way): shard 0's, whoever owns it."""
        return first_states(self.layout.window, self.wide)

    def no_states(self) -> np.ndarray:
        """An empty array of states of this sweep's kind."""
        return np.empty((0, 3) if self.wide else 0, dtype=np.int64)

    def kernels(self) -> tuple[Callable[..., int], Callable[..., None], Callable[..., int]]:
        """The compiled step, regrow and compact kernels for these states."""
        chosen = (
            (frontier_wide_step, frontier_wide_regrow, frontier_wide_compact)
            if self.wide
            else (frontier_step, frontier_regrow, frontier_compact)
        )
        if not self.wide:  # the copy compiled for this frontier's length, where there is one
            chosen = (FIXED_WINDOW_STEPS.get(self.layout.window, frontier_step), *chosen[1:])
        step, regrow, compact = (each.choose(self.board.size) for each in chosen)
        return step, regrow, compact

    def partition(self) -> Callable[..., None]:
        """The compiled kernel that orders these states by owner, in place (:func:`owners` is its numpy twin)."""
        return (frontier_wide_partition if self.wide else frontier_partition).choose(self.board.size)

    def step_arguments(self, square: int) -> tuple[object, ...]:
        """The step kernel's arguments after ``table`` that depend on ``square`` (moves back, squares leaving, their
        end rules, the moves left, the end rules by frontier index, the mirror, and the flags)."""
        layout = self.layout
        finished, rules = self._finished, self._rules
        return (
            np.array(layout.back_moves(square), dtype=np.int64),
            np.array(finished[square], dtype=np.int64),
            np.array([rules[square - back] for back in finished[square]], dtype=np.int64),
            np.array(layout.spare(square), dtype=np.int64),
            np.array(layout.rules_at(square, rules), dtype=np.int64),
            np.array(layout.mirrored(), dtype=np.int64),
            layout.window,
            int(self.closed),
            int(square == self.last_real),
            int(layout.absent[square]),
            int(layout.mirrors_at(square)),
            int(layout.width % 2 == 0),
        )

    @cached_property
    def _finished(self) -> list[list[int]]:
        return self.layout.finished()

    @cached_property
    def _rules(self) -> list[int]:
        return self.layout.end_rules()


@dataclass(frozen=True)
class ShardStep:
    """One shard's square swept: ``states`` the states after it (each once, its ways summed over this shard's
    states), ordered by the shard that owns them (:func:`owners`), shard ``e``'s from ``bounds[e]`` to
    ``bounds[e + 1]``; ``ways`` the tours' ends completed at the square (paths, as
    :func:`knight.engine.frontier.finish_count` takes them). :meth:`part` gives what one shard owns: a view, no copy."""

    states: np.ndarray
    bounds: np.ndarray
    ways: int

    @property
    def held(self) -> int:
        """The states after the square."""
        return held_states(self.states)

    @property
    def shards(self) -> int:
        """How many shards the states are split among."""
        return len(self.bounds) - 1

    def part(self, shard: int) -> np.ndarray:
        """The states after the square that ``shard`` owns (a view of :attr:`states`)."""
        begin, end = int(self.bounds[shard]), int(self.bounds[shard + 1])
        return self.states[begin:end] if self.states.ndim == 2 else self.states[2 * begin : 2 * end]

    @property
    def parts(self) -> tuple[np.ndarray, ...]:
        """Every shard's part, by shard."""
        return tuple(self.part(shard) for shard in range(self.shards))


def shard_sweep(
    board: Board, *, closed: bool = False, removed: Iterable[Square] = (), wide: bool | None = None
) -> ShardSweep:
    """The sharded sweep of ``board``, checked: :class:`InvalidInput` for a board the frontier method cannot count.

    Parameters
    ----------
    board : the board; its shorter side at most :data:`knight.engine.frontier.MAX_SHORT_SIDE`.
    closed : count closed tours (as cycles), else directed open tours.
    removed : squares taken off the board, ``(row, col)``.
    wide : two-word states when True, one-word when False; None, as the board needs.

    Example
    -------
    >>> sweep = shard_sweep(Board(5, 5))
    >>> sweep.squares, sweep.wide, len(sweep.first_states())
    (25, False, 2)
    """
    check_frontier_board(board)
    kept = tuple(sorted({(int(row), int(col)) for row, col in removed}))
    window = sweep_layout(board, kept).window  # checks the removed squares too
    needs_wide = not fits_one_word(window)
    if wide is None:
        wide = needs_wide
    elif not wide and needs_wide:
        raise InvalidInput(f"{board}'s frontier of {window} squares needs two-word states: leave wide unset")
    return ShardSweep(board, closed, kept, bool(wide))


def owners(states: np.ndarray, shards: int) -> np.ndarray:
    """The shard that owns each state of ``states`` (flat pairs of state, ways; or rows of lo, hi, ways): a
    multiplicative hash's top 32 bits scaled to ``shards``, as unsigned 16-bit numbers.

    Parameters
    ----------
    states : the states, as a step's kernel holds them.
    shards : how many shards, 1 to :data:`MAX_SHARDS`.

    Example
    -------
    >>> owners(np.array([5, 1, 6, 1, 5, 2], dtype=np.int64), 4).tolist()  # the state 5 twice: one owner
    [2, 1, 2]
    >>> sorted(set(owners(np.arange(2000, dtype=np.int64), 4).tolist()))
    [0, 1, 2, 3]
    """
    keys = (states[:, 0] ^ (states[:, 1] * np.int64(HIGH_MULTIPLIER - 2**64))) if states.ndim == 2 else states[0::2]
    mixed = keys.view(np.uint64) * np.uint64(OWNER_MULTIPLIER)  # wraps around: unsigned arithmetic
    return (((mixed >> np.uint64(32)) * np.uint64(shards)) >> np.uint64(32)).astype(np.uint16)


def held_states(states: np.ndarray) -> int:
    """How many states ``states`` holds (flat pairs or rows)."""
    return int(states.shape[0] if states.ndim == 2 else states.shape[0] // 2)


def merge_parts(parts: Iterable[np.ndarray], held: int, sweep: ShardSweep) -> np.ndarray:
    """The states of ``parts`` (each of :func:`step_shard`'s parts some shard sent this one) in one array, equal
    states once with their ways added, in no particular order.

    Parameters
    ----------
    parts : the parts, each flat pairs (one-word states) or rows (two-word), as ``sweep`` holds them; read one at a
        time, so a caller may load each as it is needed.
    held : the states of all parts together (an equal state counted once a part): the table's size.
    sweep : the sweep they belong to (:func:`shard_sweep`).

    Example
    -------
    >>> sweep = shard_sweep(Board(5, 5))
    >>> merged = merge_parts([np.array([7, 1, 9, 2]), np.array([7, 3])], 3, sweep)
    >>> sorted(zip(merged[0::2].tolist(), merged[1::2].tolist()))
    [(7, 4), (9, 2)]

    Reference: the regrow kernel (:func:`knight.engine.frontier_kernel.frontier_regrow`) adds each part's states
    into the table as it moves a table's states into a larger one: a part is a table with every slot filled.
    """
    _, regrow, compact = sweep.kernels()
    table = empty_table(table_slots(held), sweep.wide)
    for part in parts:
        if held_states(part):
            regrow(np.ascontiguousarray(part, dtype=np.int64), table)
    stored = compact(table)
    table.resize((stored, 3) if sweep.wide else 2 * stored, refcheck=False)
    return table


def step_shard(
    sweep: ShardSweep,
    square: int,
    states: np.ndarray,
    shards: int,
    *,
    growth: float = 4.0,
    max_states: int = DEFAULT_MAX_STATES,
) -> ShardStep:
    """Sweep ``square`` for one shard's ``states`` and split the states after it by owner (:func:`owners`).

    Parameters
    ----------
    sweep : the board's sweep (:func:`shard_sweep`).
    square : the square, row-major along the board's longer side, 0 to ``sweep.squares - 1``.
    states : the shard's states before the square (as :func:`merge_parts` gives them: each state once).
    shards : how many shards the states after it are split among.
    growth : the states after a square per state before, guessed (the last square's): sizes the table.
    max_states : :class:`knight.engine.frontier.TooManyStates` when the shard would hold more states.

    Returns a :class:`ShardStep`. Its ways, summed over every shard and square, are what
    :func:`knight.engine.frontier.frontier_count` adds up.

    Example
    -------
    >>> sweep = shard_sweep(Board(5, 5))
    >>> first = step_shard(sweep, 0, sweep.first_states(), 2)
    >>> len(first.parts), first.held, first.ways
    (2, 1, 0)
    """
    if not 1 <= shards <= MAX_SHARDS:
        raise InvalidInput(f"the shards must be 1 to {MAX_SHARDS}, got {shards}")
    before = held_states(states)
    if not before:
        return ShardStep(sweep.no_states(), np.zeros(shards + 1, dtype=np.int64), 0)
    if float(ways_of(states, sweep.wide).sum(dtype=np.float64)) * 11 >= 2.0**63:  # at most 11 sets of moves
        raise InvalidInput(f"counting {sweep.board} would pass 2^63 ways to a frontier: too large a board")
    step, regrow, compact = sweep.kernels()
    arguments = sweep.step_arguments(square)
    most = table_slots(max_states)
    table = empty_table(min(table_slots(int(1.1 * growth * before) + 16), most), sweep.wide)
    out = np.zeros(2, dtype=np.int64)
    at = 0
    while at != before:
        at = step(states, table, *arguments, at, max_states, out)
        if at < 0:
            raise too_many_states(sweep.board, max_states)
        if at != before:  # the table is full: into one half as large again, and on from where it stopped
            bigger = empty_table(min(slots_of(table, sweep.wide) * 3 // 2, most), sweep.wide)
            regrow(table, bigger)
            table = bigger
    stored = compact(table)
    table.resize((stored, 3) if sweep.wide else 2 * stored, refcheck=False)  # in place: the empty slots' memory goes
    bounds = np.zeros(shards + 1, dtype=np.int64)
    sweep.partition()(table, shards, bounds)  # in place, by owner: each part a slice
    return ShardStep(table, bounds, int(out[0]))
