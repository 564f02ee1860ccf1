"""The estimated cost of a census's units (census_plan.unit_costs), which a run's time left is measured by (issue
29, item 7): exact where the trees fit, the heavy units weighed within a factor of their truth where they do not."""

from __future__ import annotations

import numpy as np
import pytest

from knight.engine import Board
from knight.engine.census_count import count_unit
from knight.engine.census_plan import CensusUnit, census_units, unit_costs


def exact_nodes(units: list[CensusUnit]) -> np.ndarray:
    return np.array([count_unit(unit).nodes for unit in units], dtype=np.float64)


@pytest.fixture(scope="module")
def six_by_six() -> tuple[list[CensusUnit], np.ndarray]:
    units = census_units(Board(6, 6))
    return units, exact_nodes(units)


@pytest.mark.parametrize(
    ("n", "m", "options"),
    [
        (5, 5, {}),
        (4, 5, {}),
        (3, 8, {}),
        (3, 4, {}),
        (5, 6, {"closed": True}),
        (4, 6, {"removed": [(0, 0), (3, 5)]}),
        (5, 5, {"depth": 3}),
        (1, 1, {}),
    ],
)
def test_a_tree_that_fits_the_budget_is_counted_as_the_kernel_counts_it(n, m, options):
    """Every unit, those the kernel's rules end at their start (one node) or along their prefix included."""
    units = census_units(Board(n, m), **options)
    assert unit_costs(units, budget=10**6) == [float(max(nodes, 1)) for nodes in exact_nodes(units)]


def shares(costs: list[float] | np.ndarray) -> np.ndarray:
    values = np.asarray(costs, dtype=np.float64)
    return values / values.sum()


def test_the_heaviest_units_of_six_by_six_weigh_within_a_fifth_of_their_share(six_by_six):
    """The corner's first unit is 29 % of the census, the edge's next 20 %: counted to 50,000 nodes and no further,
    each would weigh about half of that (the heavy trees branch more the deeper they go)."""
    units, exact = six_by_six
    truth, estimate = shares(exact), shares(unit_costs(units))
    heaviest = np.argsort(-truth)[:2]
    assert list(np.argsort(-estimate)[:2]) == list(heaviest)
    assert estimate[heaviest] / truth[heaviest] == pytest.approx([1, 1], rel=0.2)
    assert np.all((estimate / truth)[truth > 0.05] > 0.4)  # no unit of over 5 % weighs less than 0.4 of it
    assert np.all((estimate / truth)[truth > 0.05] < 2.5)


def test_carried_on_from_a_small_budget_the_heavy_units_of_five_by_six_keep_their_share():
    units = census_units(Board(5, 6))
    exact = exact_nodes(units)
    assert unit_costs(units, budget=10**6) == list(exact)  # 391,280 nodes: it fits a larger budget
    truth, estimate = shares(exact), shares(unit_costs(units, budget=20_000))
    heavy = truth > 0.1
    assert heavy.sum() >= 3
    assert np.all(estimate[heavy] / truth[heavy] > 0.6) and np.all(estimate[heavy] / truth[heavy] < 1.6)


def test_the_smaller_boards_of_a_run_are_counted_first_and_leave_the_budget_to_the_others(six_by_six):
    small = census_units(Board(5, 5))
    big, exact = six_by_six
    costs = unit_costs(small + big)
    assert costs[: len(small)] == list(exact_nodes(small))  # 4,286 nodes: counted whole
    truth, estimate = shares(exact), shares(costs[len(small) :])  # 6 × 6 has the rest: still weighed right
    heaviest = np.argsort(-truth)[:2]
    assert estimate[heaviest] / truth[heaviest] == pytest.approx([1, 1], rel=0.25)
    assert 0.25 < sum(costs[len(small) :]) / exact.sum() < 4  # and weighed against 5 × 5 within a few-fold


def test_the_estimate_is_repeatable_and_does_not_depend_on_the_units_order(six_by_six):
    units = six_by_six[0] + census_units(Board(5, 6), closed=True)
    costs = unit_costs(units)
    assert unit_costs(units) == costs
    assert unit_costs(units[::-1]) == costs[::-1]


def test_more_units_than_the_budget_weigh_one_each():
    units = census_units(Board(6, 6), depth=3)  # 322 units
    assert unit_costs(units, budget=300) == [1.0] * len(units)
    assert len(set(unit_costs(units))) > 10


@pytest.mark.parametrize(("board", "options"), [(Board(5, 5), {}), (Board(6, 6), {}), (Board(6, 6), {"closed": True})])
def test_the_costs_are_the_same_without_numpys_bit_count(monkeypatch, board, options):
    """numpy's bitwise_count came with numpy 2.0; the project asks for numpy 1.26 on: without it, the same costs."""
    units = census_units(board, **options)
    with_it = unit_costs(units)
    monkeypatch.delattr(np, "bitwise_count", raising=False)
    assert unit_costs(units) == with_it
