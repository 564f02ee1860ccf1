"""The frontier sweep's compiled step for frontiers wider than one 64-bit word: a state in two words.

:mod:`knight.engine.frontier_kernel` keeps a state in one 64-bit word, 4 bits per frontier square and the first
end's colour in bits 60–61: a frontier of at most 15 squares, boards whose shorter side is at most 7. Here a state is
two signed 64-bit words, ``lo`` and ``hi``, the same 4-bit codes (:mod:`knight.engine.frontier`) square by square:

- ``lo``: squares 0–14 of the frontier (the oldest in the lowest bits), bits 0–59; bits 60–63 are 0, so ``lo`` is
  never negative and :data:`EMPTY_KEY` (-1) in it marks an empty slot;
- ``hi``: squares 15 and on in bits 0, 4, 8, … and the first end's colour plus one (0 while none is gone) in bits
  60–61, as in the one-word state; bits 62–63 are 0.

So a frontier of at most 15 squares has the one-word state in ``lo`` and its colour bits in ``hi``: the two
encodings convert by masking (``lo = state & (2^60 - 1)``, ``hi = state - lo``). Read as the 128-bit number
``hi·2^64 + lo``, the order of two states is the one-word kernel's (the colour first, then the newest square
down to the oldest), so a state and its mirror image keep the same one of the two. A frontier holds at most
15 + 15 squares; the codes set the tighter bound: a path's two ends are both on the frontier, so a frontier of
``2w + 1`` squares has at most ``w`` paths, numbered 3 to ``w + 2``, which 4 bits hold up to ``w = 13`` (27
squares: 15 in ``lo``, 12 in ``hi``).

States are rows of ``(lo, hi, count)``, an ``(n, 3)`` array; the hash table is such rows too (one slot a row, 24
bytes: linear probing, as the one-word kernel's, reads a slot and mostly its neighbours in one or two cache lines),
its slot found from both words mixed (:func:`frontier_wide_slot`). The step's logic is the one-word kernel's,
square for square: it decodes a state into the same work array and calls the same steps (``frontier_join``,
``frontier_leave``, ``frontier_viable``), then encodes the state after into two words; the tests count the same
boards both ways and with :func:`knight.engine.frontier_reference.frontier_count_reference`.
"""

from __future__ import annotations

import numpy as np

from knight.engine.frontier_kernel import (
    BATCH,
    EMPTY_KEY,
    MAX_LOAD,
    frontier_bounds,
    frontier_join,
    frontier_leave,
    frontier_owner,
    frontier_slot,
    frontier_viable,
)
from knight.engine.kernel import kernel, kernel_step

__all__ = [
    "LO_SQUARES",
    "MAX_WINDOW",
    "frontier_wide_compact",
    "frontier_wide_partition",
    "frontier_wide_regrow",
    "frontier_wide_step",
]

#: Frontier squares in the low word: 15 codes of 4 bits, bits 60–63 left 0 (never negative, never the empty key).
LO_SQUARES = 15
#: The widest frontier the two words hold with 4-bit codes: 2·13 + 1 squares (at most 13 paths, codes up to 15).
MAX_WINDOW = 27
#: How a two-word state's high word is spread before its owner is found (:func:`frontier_wide_key`).
HIGH_MULTIPLIER = 0x94D049BB133111EB
#: The odd multiplier (2^64 over the golden ratio) that spreads the high word's bits before it is mixed with the low.
SPREAD = 0x9E3779B97F4A7C15


@kernel_step
def frontier_wide_slot(lo: np.int64, hi: np.int64, size: np.uint64) -> int:  # pragma: no cover
    """The first slot of the state ``(lo, hi)`` in a table of ``size`` slots: the high word times an odd constant
    (every bit of it moves into the upper bits) added into the low word, then mixed as a one-word key is
    (:func:`knight.engine.frontier_kernel.frontier_slot`). While the frontier fits the low word, ``hi`` holds only
    the colour in its bits 60–61, which the product keeps in bits 60–63, where ``lo`` has none: no two states
    share a mixed key."""
    return frontier_slot(np.uint64(lo) ^ (np.uint64(hi) * np.uint64(SPREAD)), size)


@kernel_step
def frontier_wide_insert(
    table: np.ndarray, lows: np.ndarray, highs: np.ndarray, counts: np.ndarray, slots: np.ndarray, pending: int
) -> int:  # pragma: no cover
    """Add ``counts[i]`` ways to the slot of the state ``(lows[i], highs[i])`` in ``table`` (rows of lo, hi,
    count) for the first ``pending`` states; returns how many were new. Linear probing from each state's slot;
    the batch's first slots read first, in a loop of their own, as the one-word kernel's
    :func:`~knight.engine.frontier_kernel.frontier_insert` does (their cache misses overlap).
    ``slots`` has room for ``pending`` + 1."""
    size = table.shape[0]
    touched = new = slot = 0  # all set before the loops: numba's inlining wants them in scope
    for i in range(pending):
        slots[i] = frontier_wide_slot(lows[i], highs[i], np.uint64(size))
    for i in range(pending):
        touched += table[slots[i], 0]
    slots[pending] = touched  # kept, so that the compiler keeps the loads
    for i in range(pending):
        slot = slots[i]
        while table[slot, 0] != EMPTY_KEY and (table[slot, 0] != lows[i] or table[slot, 1] != highs[i]):
            slot += 1
            if slot == size:
                slot = 0
        if table[slot, 0] == EMPTY_KEY:
            table[slot, 0] = lows[i]
            table[slot, 1] = highs[i]
            table[slot, 2] = counts[i]
            new += 1
        else:
            table[slot, 2] += counts[i]
    return new


@kernel(compile_from=0, signature="void(i8[:, ::1], i8[:, ::1])")
def frontier_wide_regrow(table, bigger):  # type: ignore[no-untyped-def]  # a numba kernel; pragma: no cover
    """Move every state of ``table`` into ``bigger`` (empty, with more slots)."""
    lows = np.empty(BATCH, dtype=np.int64)
    highs = np.empty(BATCH, dtype=np.int64)
    counts = np.empty(BATCH, dtype=np.int64)
    slots = np.empty(BATCH + 1, dtype=np.int64)
    pending = 0
    for slot in range(table.shape[0]):
        if table[slot, 0] != EMPTY_KEY:
            lows[pending] = table[slot, 0]
            highs[pending] = table[slot, 1]
            counts[pending] = table[slot, 2]
            pending += 1
            if pending == BATCH:
                frontier_wide_insert(bigger, lows, highs, counts, slots, pending)
                pending = 0
    frontier_wide_insert(bigger, lows, highs, counts, slots, pending)


@kernel(compile_from=0, signature="i8(i8[:, ::1])")
def frontier_wide_compact(table):  # type: ignore[no-untyped-def]  # a numba kernel; pragma: no cover
    """Pack the rows of ``table``'s filled slots to its front, in slot order; returns how many."""
    filled = 0
    for slot in range(table.shape[0]):
        if table[slot, 0] != EMPTY_KEY:
            table[filled, 0] = table[slot, 0]
            table[filled, 1] = table[slot, 1]
            table[filled, 2] = table[slot, 2]
            filled += 1
    return filled


@kernel(
    compile_from=0,
    signature=(
        "i8(i8[:, ::1], i8[:, ::1], i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8, i8, i8, i8, i8, i8, i8, "
        "i8, i8[::1])"
    ),
)
def frontier_wide_step(  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba
    states,
    table,
    moves,
    leaving,
    rules,
    spare,
    ends_here,
    mirrored,
    window,
    closed,
    at_end,
    absent,
    mirror,
    flip,
    start,
    cap,
    out,
):  # pragma: no cover
    """Sweep one square: from ``states`` (rows of lo, hi, count), beginning at row ``start``, to the states after
    it, added into ``table`` (rows of lo, hi, count; empty slots' lo :data:`EMPTY_KEY`). The arguments and the
    value returned are :func:`knight.engine.frontier_kernel.frontier_step`'s, rows for pairs; ``window`` at most
    :data:`MAX_WINDOW`."""
    full = table.shape[0] // 4 * MAX_LOAD  # states the table may hold: linear probing stays short
    four = np.uint64(4)
    fifteen = np.uint64(15)
    work = np.empty(window + 2, dtype=np.int64)  # the frontier, the new square, the first end's colour + 1
    codes = np.empty(window + 2, dtype=np.int64)
    ends = np.empty(4, dtype=np.int64)
    names = np.empty(window + 8, dtype=np.int64)  # a code's new name; joins may name up to 2 above the state's
    stored = out[1]
    ways = 0
    lows = np.empty(BATCH, dtype=np.int64)  # the states found, waiting to be inserted together
    highs = np.empty(BATCH, dtype=np.int64)
    counts = np.empty(BATCH, dtype=np.int64)
    slots = np.empty(BATCH + 1, dtype=np.int64)
    pending = 0
    for s in range(start, states.shape[0]):
        if stored + pending + 11 > full and full < cap:  # at most 11 successors; a table holding the cap never grows
            stored += frontier_wide_insert(table, lows, highs, counts, slots, pending)
            out[0] += ways
            out[1] = stored
            return s
        lo = np.uint64(states[s, 0])
        hi = np.uint64(states[s, 1])
        count = states[s, 2]
        for i in range(window):
            if i < LO_SQUARES:
                codes[i] = np.int64((lo >> (four * np.uint64(i))) & fifteen)
            else:
                codes[i] = np.int64((hi >> (four * np.uint64(i - LO_SQUARES))) & fifteen)
        codes[window] = 1 if absent else 0
        codes[window + 1] = np.int64(hi >> np.uint64(60))
        open_ends = 0
        for j in range(moves.shape[0]):
            if codes[window - moves[j]] != 1:
                ends[open_ends] = window - moves[j]
                open_ends += 1
        for first in range(-1, open_ends):
            for second in range(first, open_ends):
                if first == -1 and second != -1:
                    break
                for i in range(window + 2):
                    work[i] = codes[i]
                status = 0
                if first >= 0:
                    status = frontier_join(work, window, ends[first], window, closed, at_end)
                if status == 0 and second > first:
                    status = frontier_join(work, window, ends[second], window, closed, at_end)
                for j in range(leaving.shape[0]):
                    if status != 0:
                        break
                    status = frontier_leave(work, window - leaving[j], window, closed, at_end, rules[j])
                if status == 1:
                    ways += count
                if status != 0 or not frontier_viable(work, spare, ends_here, window, closed):
                    continue
                # The state after: the oldest square dropped, the paths numbered in order of first appearance.
                for i in range(names.shape[0]):
                    names[i] = -1
                fresh = 3
                new_lo = np.uint64(0)
                new_hi = np.uint64(work[window + 1]) << np.uint64(60)
                for i in range(1, window + 1):
                    code = work[i]
                    if code >= 3:
                        if names[code] < 0:
                            names[code] = fresh
                            fresh += 1
                        code = names[code]
                    if i - 1 < LO_SQUARES:
                        new_lo |= np.uint64(code) << (four * np.uint64(i - 1))
                    else:
                        new_hi |= np.uint64(code) << (four * np.uint64(i - 1 - LO_SQUARES))
                if mirror and work[1] == 1:
                    for i in range(names.shape[0]):
                        names[i] = -1
                    fresh = 3
                    colour = work[window + 1]
                    if flip and colour != 0:
                        colour = 3 - colour
                    image_lo = np.uint64(0)
                    image_hi = np.uint64(colour) << np.uint64(60)
                    for p in range(window):
                        code = work[mirrored[p] + 1]
                        if code >= 3:
                            if names[code] < 0:
                                names[code] = fresh
                                fresh += 1
                            code = names[code]
                        if p < LO_SQUARES:
                            image_lo |= np.uint64(code) << (four * np.uint64(p))
                        else:
                            image_hi |= np.uint64(code) << (four * np.uint64(p - LO_SQUARES))
                    if image_hi < new_hi or (image_hi == new_hi and image_lo < new_lo):
                        new_lo = image_lo
                        new_hi = image_hi
                lows[pending] = np.int64(new_lo)
                highs[pending] = np.int64(new_hi)
                counts[pending] = count
                pending += 1
                if pending == BATCH:
                    stored += frontier_wide_insert(table, lows, highs, counts, slots, pending)
                    pending = 0
                    if stored > cap:
                        return -1
    stored += frontier_wide_insert(table, lows, highs, counts, slots, pending)
    if stored > cap:
        return -1
    out[0] += ways
    out[1] = stored
    return states.shape[0]


@kernel_step
def frontier_wide_key(lo: np.int64, hi: np.int64) -> np.uint64:  # pragma: no cover
    """The two words of a state mixed into one, for its owner (:func:`frontier_wide_partition`): the high word times
    an odd constant of SplitMix64's into the low."""
    return np.uint64(lo) ^ (np.uint64(hi) * np.uint64(HIGH_MULTIPLIER))


@kernel(compile_from=0, signature="void(i8[:, ::1], i8, i8[::1])")
def frontier_wide_partition(states, shards, bounds):  # type: ignore[no-untyped-def]  # a numba kernel; pragma: no cover
    """:func:`knight.engine.frontier_kernel.frontier_partition` for rows of (lo, hi, count): reorder them in place so
    that each shard's rows are together, ``bounds[s]`` to ``bounds[s + 1]``."""
    size = np.uint64(shards)
    n = states.shape[0]
    bounds[:] = 0
    for i in range(n):
        bounds[frontier_owner(frontier_wide_key(states[i, 0], states[i, 1]), size) + 1] += 1
    next_free = frontier_bounds(bounds, shards)
    for s in range(shards):
        while next_free[s] < bounds[s + 1]:
            i = next_free[s]
            owner = frontier_owner(frontier_wide_key(states[i, 0], states[i, 1]), size)
            if owner == s:
                next_free[s] += 1
                continue
            j = next_free[owner]
            next_free[owner] += 1
            for c in range(3):
                value = states[j, c]
                states[j, c] = states[i, c]
                states[i, c] = value
