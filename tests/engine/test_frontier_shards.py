"""The frontier count's states in shards (knight.engine.frontier_shards, issue 40 items 1-2): swept shard by shard in
one process, the parts merged where their owner is, the count, the peak and the states summed are the one-table
count's, for any number of shards and either state encoding."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from knight.engine.board import Board
from knight.engine.frontier import FrontierCount, finish_count, frontier_count
from knight.engine.frontier_shards import (
    MAX_SHARDS,
    held_states,
    merge_parts,
    owners,
    shard_sweep,
    step_shard,
)
from knight.errors import InvalidInput


def sharded(board: Board, shards: int, *, closed: bool = False, removed=(), wide=None) -> FrontierCount:
    """The count with ``shards`` shards swept one after another, the parts passed in memory."""
    sweep = shard_sweep(board, closed=closed, removed=removed, wide=wide)
    if sweep.trivial:  # nothing to sweep: the runner counts it as one table would
        return frontier_count(board, closed=closed, removed=removed)
    inbox = [[sweep.first_states()]] + [[] for _ in range(shards - 1)]
    ways = peak = total = 0
    growth = 4.0
    for square in range(sweep.squares + 1):
        outbox: list[list[np.ndarray]] = [[] for _ in range(shards)]
        merged = sent = 0
        for shard in range(shards):
            parts = inbox[shard]
            states = merge_parts(parts, sum(held_states(part) for part in parts), sweep)
            merged += held_states(states)
            if square == sweep.squares:
                continue
            step = step_shard(sweep, square, states, shards, growth=growth)
            ways, sent = ways + step.ways, sent + step.held
            for target, part in enumerate(step.parts):
                outbox[target].append(part)
        if square:
            peak, total = max(peak, merged), total + merged
        growth = max(sent / merged, 0.25) if merged else 4.0
        inbox = outbox
    return finish_count(board, closed, ways, sweep.removed, peak, total)


@pytest.mark.parametrize("shards", [1, 2, 3, 8])
@pytest.mark.parametrize(
    ("n", "m", "closed", "tours"),
    [(5, 5, False, 1728), (6, 6, True, 9862), (5, 6, False, 37568), (3, 4, False, 16)],
)
def test_sharded_sweeps_count_what_one_table_counts(n, m, closed, tours, shards):
    one = frontier_count(Board(n, m), closed=closed)
    count = sharded(Board(n, m), shards, closed=closed)
    assert count.tours == one.tours == tours
    assert (count.peak_states, count.states) == (one.peak_states, one.states)


@pytest.mark.parametrize("shards", [2, 5])
def test_two_word_states_shard_as_one_word_states_do(shards):
    narrow = sharded(Board(5, 6), shards, wide=False)
    wide = sharded(Board(5, 6), shards, wide=True)
    assert (wide.tours, wide.peak_states, wide.states) == (narrow.tours, narrow.peak_states, narrow.states)


@given(
    shards=st.integers(1, 9),
    closed=st.booleans(),
    removed=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), max_size=3, unique=True),
)
def test_any_shards_any_removed_squares_count_as_one_table(shards, closed, removed):
    board = Board(4, 5)
    one = frontier_count(board, closed=closed, removed=removed)
    count = sharded(board, shards, closed=closed, removed=removed)
    assert (count.tours, count.peak_states, count.states) == (one.tours, one.peak_states, one.states)


def test_the_owners_spread_states_evenly_and_never_split_a_state():
    sweep = shard_sweep(Board(5, 5))
    states = sweep.first_states()
    for square in range(14):
        states = merge_parts(step_shard(sweep, square, states, 1).parts, 10**5, sweep)
    found = owners(states, 4)
    assert held_states(states) > 1000 and found.dtype == np.uint16
    shares = np.bincount(found, minlength=4) / len(found)
    assert shares.min() > 0.2 and shares.max() < 0.3
    rows = states.reshape(-1, 2)
    assert (owners(rows[::-1].reshape(-1), 4) == found[::-1]).all()  # a state's owner is its own


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("shards", [1, 3, 7])
def test_each_part_holds_the_states_its_shard_owns(shards, wide):
    sweep = shard_sweep(Board(5, 5), wide=wide)
    states = sweep.first_states()
    for square in range(12):
        states = merge_parts([states], held_states(states), sweep)
        step = step_shard(sweep, square, states, shards)
        states = step.states.copy()
        assert sum(held_states(part) for part in step.parts) == step.held
        for shard, part in enumerate(step.parts):
            assert (owners(part, shards) == shard).all()  # the compiled partition agrees with the numpy owners
    assert step.held > 200


def test_merging_adds_the_ways_of_equal_states():
    sweep = shard_sweep(Board(6, 6), wide=True)
    parts = [np.array([[4, 1, 2], [5, 0, 1]]), np.array([[4, 1, 3]]), np.empty((0, 3), dtype=np.int64)]
    merged = merge_parts(parts, 3, sweep)
    assert sorted(map(tuple, merged.tolist())) == [(4, 1, 5), (5, 0, 1)]


@pytest.mark.parametrize("shards", [0, MAX_SHARDS + 1])
def test_a_step_refuses_shards_out_of_range(shards):
    sweep = shard_sweep(Board(5, 5))
    with pytest.raises(InvalidInput, match="shards must be 1 to"):
        step_shard(sweep, 0, sweep.first_states(), shards)


def test_one_word_states_are_refused_where_they_do_not_fit():
    with pytest.raises(InvalidInput, match="needs two-word states"):
        shard_sweep(Board(8, 8), closed=True, wide=False)
