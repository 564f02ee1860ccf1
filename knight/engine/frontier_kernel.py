"""The frontier sweep's compiled step: every state of one square's frontier to the next's, in a hash table.

A state is one 64-bit word, 4 bits per frontier square (the codes of :mod:`knight.engine.frontier`: 0 degree
0, 1 degree 2 or no square, 2 a tail, 3… a path's loose ends), the oldest square in the lowest bits, and in
bits 60–61 the colour of an open tour's first end gone, plus one (0 while none is); bits 62–63 are 0, so
a state read as a signed word is never negative. The states of a step are a dense array of (state, count)
pairs; the next step's go into an open-addressing table of such pairs side by side (one cache line a
probe; linear probing, :data:`EMPTY_KEY` the empty slot) of any number of slots, which the caller sizes by
the last step's growth and, when the step fills it to :data:`MAX_LOAD`, moves into one half as large again
before the step resumes where it stopped; :func:`frontier_compact` then packs the table's states to its
front, where they become the next step's.
The logic is
:func:`knight.engine.frontier_reference.frontier_count_reference`'s, square for square; the tests compare the two.
"""

from __future__ import annotations

import types

import numpy as np

from knight.engine.kernel import Kernel, kernel, kernel_step

__all__ = [
    "EMPTY_KEY",
    "MAX_LOAD",
    "FIXED_WINDOW_STEPS",
    "fixed_window",
    "frontier_compact",
    "frontier_partition",
    "frontier_regrow",
    "frontier_step",
]

#: The hash table's empty slot: no state is negative (its 62 bits, read as a signed 64-bit word).
EMPTY_KEY = -1
#: The most a table is filled, in quarters of its slots: at three quarters linear probing still finds a key in
#: about two probes (side by side, mostly in one cache line), and a table holds half again as many states as at
#: half full: the memory a count of 10^8 states needs.
MAX_LOAD = 3
#: States inserted into the table together (:func:`frontier_insert`).
BATCH = 64
#: The frontier's length a copy of :func:`frontier_step` is compiled for (:func:`fixed_window`); 0: the argument's.
FIXED_WINDOW = 0


@kernel_step
def frontier_join(work: np.ndarray, a: int, b: int, window: int, closed: int, at_end: int) -> int:  # pragma: no cover
    """The move between frontier squares ``a`` and ``b`` joins their paths: 0 done, 1 the tour is complete,
    2 no tour can follow (a cycle too early, a path completed with squares left)."""
    ca = work[a]
    cb = work[b]
    if ca >= 3 and ca == cb:  # the two ends of one path: a cycle
        work[a] = 1
        work[b] = 1
        if closed and at_end and frontier_all_done(work, window):
            return 1
        return 2
    label = 3  # a fresh path's code, above every code in use (set here: numba's inlining wants it in scope)
    end_a = frontier_other_end(work, a, ca, window)
    end_b = frontier_other_end(work, b, cb, window)
    if end_a == -1 and end_b == -1:  # two tails joined: the whole open path
        if at_end and frontier_all_done(work, window):
            return 1
        return 2
    if end_a == -1:
        work[end_b] = 2
    elif end_b == -1:
        work[end_a] = 2
    else:
        for i in range(window + 1):
            label = max(label, work[i] + 1)
        work[end_a] = label
        work[end_b] = label
    return 0


@kernel_step
def frontier_other_end(work: np.ndarray, square: int, code: int, window: int) -> int:  # pragma: no cover
    """The other end of the path ``square`` (of ``code``) ends, -1 for a tail's (gone), the square itself when it
    has no move yet; a square with a move already gets its second: degree 2."""
    if code == 0:
        return square
    work[square] = 1
    if code == 2:
        return -1
    found = -1
    for i in range(window, -1, -1):  # every square looked at, the lowest kept: no branch to mispredict
        found = i if work[i] == code else found
    return found


@kernel_step
def frontier_all_done(work: np.ndarray, window: int) -> bool:  # pragma: no cover
    """True when every frontier square has degree 2 (or is no square)."""
    for i in range(window + 1):  # noqa: SIM110 - a loop numba compiles
        if work[i] != 1:
            return False
    return True


@kernel_step
def frontier_leave(
    work: np.ndarray, at: int, window: int, closed: int, at_end: int, rule: int
) -> int:  # pragma: no cover
    """Frontier square ``at`` leaves (its moves are all decided): 0 it may, 1 it completes the open tour, 2 no
    tour can follow (never reached; a tour's end on a closed tour, of the wrong colour, or a third end).
    ``rule`` is the square's end rule (``SweepLayout.end_rules``: 0 any end, 1 no end, 2 + colour one end of
    each colour, the first end's colour plus one kept in ``work[window + 1]``)."""
    code = work[at]
    if code == 1:
        return 0
    if code == 0 or closed or rule == 1:
        return 2
    if rule >= 2:
        if work[window + 1] == rule - 1:
            return 2
        work[window + 1] = rule - 1
    work[at] = 1
    if code == 2:
        if at_end and frontier_all_done(work, window):
            return 1
        return 2
    tails = 0
    for i in range(window + 1):
        now = 2 if work[i] == code else work[i]
        work[i] = now
        tails += now == 2
    if tails > 2:
        return 2
    return 0


@kernel_step
def frontier_viable(
    work: np.ndarray, spare: np.ndarray, ends: np.ndarray, window: int, closed: int
) -> bool:  # pragma: no cover
    """Whether a tour can still follow: each frontier square can still get the moves it needs (``spare[i]``
    it has left; an open tour's two ends need one fewer, the ends gone counted by the tails, each of the
    colour ``ends[i]``, its end rule, allows)."""
    forced = 0
    bad = False
    colour = work[window + 1]
    for i in range(1, window + 1):  # no early return: selects, not branches the processor would mispredict
        code = work[i]
        short = (2 if code == 0 else 1) - spare[i]
        needy = (code != 1) & (short > 0)
        forced += int(code == 2) + int(needy)
        bad |= needy & ((closed != 0) | (short >= 2) | (ends[i] == 1) | (colour == ends[i] - 1))
    return not bad and forced <= 2


@kernel_step
def frontier_slot(key: np.uint64, size: np.uint64) -> int:  # pragma: no cover
    """``key``'s first slot in a table of ``size`` slots (fewer than 2^32): MurmurHash3's 64-bit finalizer mixes
    every bit of the key into the hash's top 32 (a state's codes are mostly 0s and 1s: a weaker mix clustered
    them, and probing took 2.7 times as long), which are scaled to the table's size (Lemire's multiply-shift:
    any size, not only a power of two, so that a table need not be up to twice as large as it must)."""
    h = key ^ (key >> np.uint64(33))
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xC4CEB9FE1A85EC53)
    h ^= h >> np.uint64(33)
    return int(((h >> np.uint64(32)) * size) >> np.uint64(32))


@kernel_step
def frontier_insert(
    table: np.ndarray, keys: np.ndarray, counts: np.ndarray, slots: np.ndarray, pending: int
) -> int:  # pragma: no cover
    """Add ``counts[i]`` ways to the slot of ``keys[i]`` in ``table`` (key, count pairs)
    for the first ``pending`` keys; returns how many were new. Linear probing from each key's slot.

    A batch, not one key at a time: a table of 10^8 states is far larger than the cache, so each insertion
    waits on memory. The batch's first slots are read in a loop of their own, whose loads do not depend on
    each other: the processor overlaps their cache misses, and the insertions then find their slots cached
    (3-4 times as fast as inserting each key as it comes). ``slots`` has room for ``pending`` + 1."""
    size = table.shape[0] // 2
    touched = new = slot = 0  # all set before the loops: numba's inlining wants them in scope
    for i in range(pending):
        slots[i] = frontier_slot(np.uint64(keys[i]), np.uint64(size))
    for i in range(pending):
        touched += table[2 * slots[i]]
    slots[pending] = touched  # kept, so that the compiler keeps the loads
    for i in range(pending):
        slot = slots[i]
        while table[2 * slot] != EMPTY_KEY and table[2 * slot] != keys[i]:
            slot += 1
            if slot == size:
                slot = 0
        if table[2 * slot] == EMPTY_KEY:
            table[2 * slot] = keys[i]
            table[2 * slot + 1] = counts[i]
            new += 1
        else:
            table[2 * slot + 1] += counts[i]
    return new


@kernel(compile_from=0, signature="void(i8[::1], i8[::1])")
def frontier_regrow(table, bigger):  # type: ignore[no-untyped-def]  # a numba kernel; pragma: no cover
    """Move every state of ``table`` into ``bigger`` (empty, with more slots)."""
    keys = np.empty(BATCH, dtype=np.int64)
    counts = np.empty(BATCH, dtype=np.int64)
    slots = np.empty(BATCH + 1, dtype=np.int64)
    pending = 0
    for slot in range(table.shape[0] // 2):
        if table[2 * slot] != EMPTY_KEY:
            keys[pending] = table[2 * slot]
            counts[pending] = table[2 * slot + 1]
            pending += 1
            if pending == BATCH:
                frontier_insert(bigger, keys, counts, slots, pending)
                pending = 0
    frontier_insert(bigger, keys, counts, slots, pending)


@kernel(compile_from=0, signature="i8(i8[::1])")
def frontier_compact(table):  # type: ignore[no-untyped-def]  # a numba kernel; pragma: no cover
    """Pack the (key, count) pairs of ``table``'s filled slots to its front, in slot order; returns how many."""
    filled = 0
    for slot in range(table.shape[0] // 2):
        if table[2 * slot] != EMPTY_KEY:
            table[2 * filled] = table[2 * slot]
            table[2 * filled + 1] = table[2 * slot + 1]
            filled += 1
    return filled


@kernel(
    compile_from=0,
    signature=(
        "i8(i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8, i8, i8, i8, i8, i8, i8, i8, "
        "i8[::1])"
    ),
)
def frontier_step(  # type: ignore[no-untyped-def]  # a numba kernel: typed by numba
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
    """Sweep one square: from ``states`` (key, count pairs), beginning at pair ``start``, to the states after
    it, added into ``table`` (key, count pairs; empty keys :data:`EMPTY_KEY`).

    ``moves`` are the distances back to the square's neighbours already swept; ``leaving`` the distances back
    to the squares whose last move is decided here, ``rules[i]`` whether ``leaving[i]`` may end an open
    tour (``frontier_leave``); ``spare`` and ``ends_here`` each extended frontier index's moves left and end
    rule (``frontier_viable``); ``window`` the frontier's length; ``closed``, ``at_end`` (the board's last
    square), ``absent`` (a removed square) as 0 or 1. With ``mirror`` 1 (the square ends a row of a board that is
    its own mirror image), each state is stored as the lesser of itself and its mirror image (``mirrored[p]``
    the position whose code the image's position ``p`` takes; ``flip`` 1 when the first end's colour swaps):
    both have as many completions (``SweepLayout.mirrors_at``). ``out[0]`` gains the tours completed here, ``out[1]``
    counts the states in ``table``. Returns the number of pairs in ``states`` when all are swept; the pair to
    resume at when ``table`` is filled to :data:`MAX_LOAD` and could not hold ``cap`` states at that load (the
    caller moves it into a larger one, :func:`frontier_regrow`);
    -1 as soon as the states would pass ``cap``.
    """
    if FIXED_WINDOW:  # a copy compiled for one frontier's length (:func:`fixed_window`); 0 in this one
        window = FIXED_WINDOW
    full = (table.shape[0] // 2) // 4 * MAX_LOAD  # states the table may hold: linear probing stays short
    four = np.uint64(4)
    fifteen = np.uint64(15)
    work = np.empty(window + 2, dtype=np.int64)  # the frontier, the new square, the first end's colour + 1
    codes = np.empty(window + 2, dtype=np.int64)
    ends = np.empty(4, dtype=np.int64)
    names = np.empty(16, dtype=np.int64)
    stored = out[1]
    ways = 0
    keys = np.empty(BATCH, dtype=np.int64)  # the states found, waiting to be inserted together
    counts = np.empty(BATCH, dtype=np.int64)
    slots = np.empty(BATCH + 1, dtype=np.int64)
    pending = 0
    for s in range(start, states.shape[0] // 2):
        if stored + pending + 11 > full and full < cap:  # at most 11 successors; a table holding the cap never grows
            stored += frontier_insert(table, keys, counts, slots, pending)
            out[0] += ways
            out[1] = stored
            return s
        key = np.uint64(states[2 * s])
        count = states[2 * s + 1]
        for i in range(window):
            codes[i] = np.int64((key >> (four * np.uint64(i))) & fifteen)
        codes[window] = 1 if absent else 0
        codes[window + 1] = np.int64(key >> np.uint64(60))
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
                for i in range(16):
                    names[i] = -1
                fresh = 3
                new = np.uint64(work[window + 1]) << np.uint64(60)
                for i in range(1, window + 1):  # selects, not branches (names[0] takes the writes of no path)
                    code = work[i]
                    path = code >= 3
                    at = code if path else 0
                    named = names[at]
                    fresh_here = path & (named < 0)
                    named = fresh if fresh_here else named
                    names[at] = named
                    fresh += fresh_here
                    code = named if path else code
                    new |= np.uint64(code) << (four * np.uint64(i - 1))
                if mirror and work[1] == 1:
                    for i in range(16):
                        names[i] = -1
                    fresh = 3
                    colour = work[window + 1]
                    if flip and colour != 0:
                        colour = 3 - colour
                    image = np.uint64(colour) << np.uint64(60)
                    for p in range(window):
                        code = work[mirrored[p] + 1]
                        if code >= 3:
                            if names[code] < 0:
                                names[code] = fresh
                                fresh += 1
                            code = names[code]
                        image |= np.uint64(code) << (four * np.uint64(p))
                    if image < new:
                        new = image
                keys[pending] = np.int64(new)
                counts[pending] = count
                pending += 1
                if pending == BATCH:
                    stored += frontier_insert(table, keys, counts, slots, pending)
                    pending = 0
                    if stored > cap:
                        return -1
    stored += frontier_insert(table, keys, counts, slots, pending)
    if stored > cap:
        return -1
    out[0] += ways
    out[1] = stored
    return states.shape[0] // 2


def fixed_window(step: Kernel, window: int) -> Kernel:
    """A copy of the kernel ``step`` (:func:`frontier_step`) whose frontier is ``window`` squares long, whatever its
    argument ``window`` says: the compiler then knows how many times each loop over the frontier runs and unrolls
    it (6 x 6 open swept 11 % faster with 13 squares fixed). Named after the window (``frontier_step_15``), so that
    numba's cache and the ahead-of-time module keep each copy apart.

    >>> fixed_window(frontier_step, 15).export_name
    'frontier_kernel_frontier_step_15'
    """
    function = step.python
    name = f"{function.__name__}_{window}"
    copy = types.FunctionType(function.__code__, {**function.__globals__, "FIXED_WINDOW": window}, name)
    copy.__qualname__, copy.__module__, copy.__doc__ = name, function.__module__, function.__doc__
    return Kernel(copy, step.compile_from, step.signature)


#: The step compiled for the frontiers of boards 6 (13 squares) and 7 (15) wide, where the counts take minutes.
frontier_step_13 = fixed_window(frontier_step, 13)
frontier_step_15 = fixed_window(frontier_step, 15)
#: Those copies by the frontier's length.
FIXED_WINDOW_STEPS = {13: frontier_step_13, 15: frontier_step_15}


#: The owner hash's odd multiplier (a constant of SplitMix64; :func:`frontier_owner`), not the tables' slot hash.
OWNER_MULTIPLIER = 0xBF58476D1CE4E5B9


@kernel_step
def frontier_owner(key: np.uint64, shards: np.uint64) -> int:  # pragma: no cover
    """The shard, of ``shards``, that owns the state ``key``: a multiplicative hash's top 32 bits scaled to
    ``shards`` (not :func:`frontier_slot`'s hash, so that one shard's states still spread over its table's slots)."""
    mixed = key * np.uint64(OWNER_MULTIPLIER)
    return int(((mixed >> np.uint64(32)) * shards) >> np.uint64(32))


@kernel_step
def frontier_bounds(bounds: np.ndarray, shards: int) -> np.ndarray:  # pragma: no cover
    """``bounds`` (each shard's states counted in ``bounds[s + 1]``) summed into where each shard's states begin and
    end; returns a copy of the beginnings, to fill from (:func:`frontier_partition`)."""
    for s in range(shards):
        bounds[s + 1] += bounds[s]
    return bounds[:-1].copy()


@kernel(compile_from=0, signature="void(i8[::1], i8, i8[::1])")
def frontier_partition(states, shards, bounds):  # type: ignore[no-untyped-def]  # a numba kernel; pragma: no cover
    """Reorder ``states`` (key, count pairs) in place so that the states each shard owns (:func:`frontier_owner`)
    are together, shard 0's first; ``bounds[s]`` and ``bounds[s + 1]`` become where shard ``s``'s pairs begin and
    end (``bounds`` has ``shards + 1`` places). An American flag sort: one pass counts, one swaps each state into
    its shard's place; no second array."""
    size = np.uint64(shards)
    n = states.shape[0] // 2
    bounds[:] = 0
    for i in range(n):
        bounds[frontier_owner(np.uint64(states[2 * i]), size) + 1] += 1
    next_free = frontier_bounds(bounds, shards)
    for s in range(shards):
        while next_free[s] < bounds[s + 1]:
            i = next_free[s]
            owner = frontier_owner(np.uint64(states[2 * i]), size)
            if owner == s:
                next_free[s] += 1
                continue
            j = next_free[owner]  # a state that is not yet in its place: swapped with it, then looked at
            next_free[owner] += 1
            key, count = states[2 * j], states[2 * j + 1]
            states[2 * j], states[2 * j + 1] = states[2 * i], states[2 * i + 1]
            states[2 * i], states[2 * i + 1] = key, count
