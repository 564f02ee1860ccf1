import doctest
import itertools
import json
from dataclasses import replace

import numpy as np
import pytest

import knight.engine.census as census_module
import knight.engine.census_count as census_count
import knight.engine.census_plan as census_plan
import knight.engine.census_symmetry as census_symmetry
from knight.engine import Board, InvalidInput
from knight.engine.census import (
    CensusUnit,
    KeptCycles,
    UnitCount,
    assemble,
    census,
    census_units,
    classes_from_shares,
    closed_tours,
    count_unit,
    cycles_up_to_symmetry,
)

MOVES = [(-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1)]


def brute_force_counts(n, m, removed=(), closed=False):
    """Directed tours from every square by plain recursion, written without the engine (small boards only)."""
    squares = [(r, c) for r in range(n) for c in range(m) if (r, c) not in set(removed)]
    counts = {}

    def extend(path, seen):
        if len(path) == len(squares):
            (r0, c0), (r1, c1) = path[0], path[-1]
            return 1 if not closed or (len(path) >= 3 and abs((r0 - r1) * (c0 - c1)) == 2) else 0
        r, c = path[-1]
        total = 0
        for dr, dc in MOVES:
            nxt = (r + dr, c + dc)
            if nxt in squares and nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                total += extend(path, seen)
                path.pop()
                seen.discard(nxt)
        return total

    for square in squares:
        counts[square] = extend([square], {square})
    return counts


@pytest.mark.parametrize(
    "module", [census_module, census_plan, census_count, census_symmetry], ids=lambda m: m.__name__
)
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


def test_5x5_census_matches_the_published_numbers():
    result = census(Board(5, 5))
    assert result.total == 1728  # OEIS A165134
    corners = [result.counts[r, c] for r in (0, 4) for c in (0, 4)]
    assert corners == [304] * 4
    assert (result.counts[(np.add.outer(range(5), range(5)) % 2) == 1] == 0).all()  # the minority colour
    assert result.undirected == 864 and result.complete
    assert result.searched_starts == ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))


@pytest.mark.parametrize("unit", census_units(Board(5, 5)), ids=lambda unit: unit.key)
def test_pruned_search_agrees_with_plain_backtracking_on_every_5x5_unit(unit):
    pruned, plain = count_unit(unit), count_unit(unit, prune=False)
    assert pruned.tours == plain.tours
    assert pruned.nodes <= plain.nodes


def test_pruned_search_agrees_with_plain_backtracking_on_every_5x5_start():
    board = Board(5, 5)
    for row, col in itertools.product(range(5), range(5)):
        units = census_units(board, start=(row, col))
        pruned = assemble(board, units, [count_unit(unit) for unit in units])
        plain = assemble(board, units, [count_unit(unit, prune=False) for unit in units])
        assert pruned.counts[row, col] == plain.counts[row, col]
        assert pruned.nodes < plain.nodes  # the pruning does cut the search


@pytest.mark.parametrize("n, m", [(1, 1), (1, 3), (2, 3), (3, 3), (3, 4), (4, 4), (2, 5), (3, 5), (4, 5), (3, 6)])
def test_census_agrees_with_an_independent_brute_force_counter(n, m):
    board = Board(n, m)
    expected = brute_force_counts(n, m)
    result = census(board)
    assert {(r, c): int(result.counts[r, c]) for (r, c) in expected} == expected


@pytest.mark.parametrize("n, m", [(3, 4), (3, 6), (4, 4), (2, 4), (3, 3), (4, 5), (3, 8), (3, 10)])
def test_closed_census_agrees_with_plain_backtracking(n, m):
    board = Board(n, m)
    result = census(board, closed=True)
    units = census_units(board, closed=True)
    plain = sum(count_unit(unit, prune=False).tours for unit in units)
    assert 2 * result.cycles == plain
    assert set(result.counts.ravel().tolist()) == {2 * result.cycles}


def test_closed_census_brute_force_on_a_small_board():
    expected = brute_force_counts(3, 4, closed=True)
    assert set(expected.values()) == {0} and census(Board(3, 4), closed=True).cycles == 0
    expected = brute_force_counts(2, 3, removed=[(0, 1)], closed=True)
    assert census(Board(2, 3), closed=True, removed=[(0, 1)]).cycles == expected[(0, 0)] // 2


def test_6x6_closed_tours_match_the_published_count():
    result = census(Board(6, 6), closed=True)
    assert result.cycles == 9862  # OEIS A001230
    assert result.total == 36 * 2 * 9862
    assert result.undirected == 9862


def test_closed_tours_up_to_symmetry_on_6x6_match_the_published_count():
    assert cycles_up_to_symmetry(Board(6, 6)) == 1245


@pytest.mark.parametrize("n, m", [(3, 10), (5, 6)])
def test_closed_tours_up_to_symmetry_agree_with_plain_python(n, m):
    board = Board(n, m)
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (r, m - 1 - c),
        lambda r, c: (n - 1 - r, m - 1 - c),
    ]
    if n == m:
        maps += [lambda r, c, f=f: f(c, r) for f in maps]
    classes = set()
    for unit in census_units(board, closed=True):
        for row in closed_tours(unit):
            cells = [divmod(int(s), m) for s in row]
            edges = list(zip(cells, cells[1:] + cells[:1]))
            classes.add(min(tuple(sorted(tuple(sorted((f(*a), f(*b)))) for a, b in edges)) for f in maps))
    assert len(classes) == cycles_up_to_symmetry(board) > 0


def test_closed_tours_listed_are_closed_knight_tours():
    board = Board(5, 6)
    unit = census_units(board, closed=True)[0]
    tours = closed_tours(unit)
    assert len(tours) == count_unit(unit).tours > 0
    from knight.engine import Tour

    for row in tours:
        assert Tour(board=board, path=row, method="census").closed


def test_census_on_a_board_with_removed_squares_agrees_with_brute_force():
    removed = [(0, 0), (3, 3)]
    result = census(Board(4, 4), removed=removed)
    expected = brute_force_counts(4, 4, removed)
    assert {square: int(result.counts[square]) for square in expected} == expected
    assert result.counts[0, 0] == -1 and result.counts[3, 3] == -1


def test_symmetry_is_used_only_when_it_keeps_the_removed_squares():
    assert len(census(Board(5, 5)).searched_starts) == 6
    assert len(census(Board(5, 5), removed=[(0, 0)]).searched_starts) == 14  # only the diagonal reflection left


def test_start_restricts_the_census_to_one_square():
    result = census(Board(5, 5), start=(2, 2))
    assert result.counts[2, 2] == 64 and (result.counts >= 0).sum() == 1 and not result.complete
    assert result.undirected is None


def test_compiled_and_interpreted_kernels_agree():
    for unit in census_units(Board(4, 5)):
        assert count_unit(unit, compiled=True) == count_unit(unit, compiled=False)


def test_units_are_plain_data():
    for unit in census_units(Board(4, 4), closed=True, removed=[(1, 1)]) + census_units(Board(5, 5), depth=4):
        assert CensusUnit.from_dict(json.loads(json.dumps(unit.to_dict()))) == unit
    assert len({unit.key for unit in census_units(Board(6, 6))}) == len(census_units(Board(6, 6)))


def test_census_splits_6x6_into_units_by_start_and_first_move():
    units = census_units(Board(6, 6))
    assert len({unit.start for unit in units}) == 6
    assert sum(unit.closed for unit in units) == 0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: census(Board(9, 8)), "at most 64"),
        (lambda: census(Board(5, 5), start=(5, 0)), "off the 5x5 board"),
        (lambda: census(Board(5, 5), start=(0, 0), removed=[(0, 0)]), "removed square"),
        (lambda: census(Board(1, 1), removed=[(0, 0)]), "every square"),
        (lambda: count_unit(CensusUnit(5, 5, (0, 0), (1, 1))), "not a knight move"),
        (lambda: assemble(Board(5, 5), census_units(Board(5, 5)), [UnitCount(0, 0)]), "one result per unit"),
    ],
)
def test_bad_requests_say_what_is_wrong(call, message):
    with pytest.raises(InvalidInput, match=message):
        call()


@pytest.mark.parametrize("depth", [2, 3, 5])
def test_finer_units_give_the_same_census(depth):
    board = Board(5, 5)
    units = census_units(board, depth=depth)
    assert len(units) > len(census_units(board))
    assert all(len(unit.prefix) <= depth + 1 for unit in units)
    result = assemble(board, units, [count_unit(unit) for unit in units])
    assert (result.counts == census(board).counts).all()
    closed = census_units(Board(5, 6), closed=True, depth=depth)
    assert assemble(Board(5, 6), closed, [count_unit(unit) for unit in closed]).cycles == 8


def test_unit_with_a_bad_continuation_is_refused():
    with pytest.raises(InvalidInput, match="visits a square twice"):
        count_unit(CensusUnit(5, 5, (0, 0), (1, 2), more=((0, 0),)))
    with pytest.raises(InvalidInput, match="not a knight move"):
        count_unit(CensusUnit(5, 5, (0, 0), (1, 2), more=((1, 3),)))


@pytest.mark.parametrize(
    ("n", "m", "kwargs"),
    [(5, 5, {}), (6, 6, {"closed": True}), (4, 5, {}), (5, 5, {"removed": [(0, 0), (4, 4)]}), (5, 5, {"depth": 3})],
)
def test_symmetric_first_moves_are_searched_once_and_weighed(n, m, kwargs):
    board = Board(n, m)
    weighed = census(board, **kwargs)
    every = assemble(board, *_every_first_move(board, **kwargs))
    assert np.array_equal(weighed.counts, every.counts) and weighed.cycles == every.cycles
    assert weighed.nodes < every.nodes or n != m  # a square board's corner has a mirror to skip


def _every_first_move(board, **kwargs):
    """The units with every first move searched (weight 1 each), as before the symmetry was used."""
    units = [
        replace(unit, first=image, weight=1)
        for unit in census_units(board, **{**kwargs, "depth": 1})
        for image in _images_of_first_move(board, unit, kwargs.get("removed", []))
    ]
    return units, [count_unit(unit) for unit in units]


def _images_of_first_move(board, unit, removed):
    gone = {board.index(square) for square in removed}
    start, first = board.index(unit.start), board.index(unit.first)
    images = {
        int(image[first])
        for image in board.symmetric_images(np.arange(board.size), keeping=gone)
        if int(image[start]) == start
    }
    assert len(images) == unit.weight
    return [board.coords(t) for t in sorted(images)]


@pytest.mark.parametrize(
    ("n", "m", "removed"),
    [(3, 10, ()), (3, 12, ()), (5, 6, ()), (4, 7, ()), (6, 6, ((1, 1), (1, 4), (4, 1), (4, 4)))],
)
def test_symmetry_classes_by_burnside_equal_classes_listed_one_by_one(n, m, removed):
    """Burnside's count against the classes themselves: every closed tour's edge set, canonical under the symmetries.
    (The 6 x 6 board less four squares starts from a corner, whose two first moves are mirror images: one is
    searched and counted twice.)"""
    board = Board(n, m)
    start = census_units(board, closed=True, removed=removed)[0].start
    gone = {board.index(square) for square in removed}
    tours = [
        tour
        for first in board.neighbours[board.index(start)]
        if first >= 0 and int(first) not in gone
        for tour in closed_tours(CensusUnit(n, m, start, board.coords(int(first)), True, removed)).tolist()
    ]
    images = list(board.symmetric_images(np.arange(board.size), keeping=gone))
    classes = {
        min(tuple(sorted(tuple(sorted((int(g[a]), int(g[b])))) for a, b in zip(t, t[1:] + t[:1]))) for g in images)
        for t in tours
    }
    assert cycles_up_to_symmetry(board, removed=removed) == len(classes)
    units = census_units(board, closed=True, removed=removed)  # the same from the counting search's shares
    assert classes_from_shares(
        board, units, [count_unit(unit, share=True).share for unit in units], removed=removed
    ) == len(classes)


def test_burnside_spread_over_a_process_pool_counts_the_same():
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    board = Board(5, 6)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        assert cycles_up_to_symmetry(board, map=pool.map) == cycles_up_to_symmetry(board) == 3


def test_a_closed_unit_counts_its_share_of_burnside_with_its_tours_and_an_open_one_none():
    closed = census_units(Board(5, 6), closed=True)
    assert [count_unit(unit, share=True).share for unit in closed] == [KeptCycles()(unit) for unit in closed]
    assert all(count_unit(unit, share=True).tours <= count_unit(unit, share=True).share for unit in closed)
    assert all(count_unit(unit).share is None for unit in closed)  # asked for only
    assert count_unit(census_units(Board(5, 5))[0], share=True).share is None
    units = census_units(Board(5, 5))
    two_starts = [units[0], next(unit for unit in units if unit.start != units[0].start)]
    with pytest.raises(InvalidInput, match="one start square"):
        classes_from_shares(Board(5, 5), two_starts, [1, 1])
