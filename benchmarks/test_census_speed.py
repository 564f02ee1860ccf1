"""Census and Parberry speed (issue 6): `make bench`. Compilation happens once, before timing starts.

Targets on this project's 2-core machine: the 5 x 5 census in under 0.5 s; the 6 x 6 census
(6,637,920 open tours) in under 15 s on 2 processes; a 1000 x 1000 Parberry closed tour in under 2 s.
"""

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from knight.engine import Board
from knight.engine.census import census
from knight.engine.parberry import parberry_tour


@pytest.fixture(scope="module")
def pool():
    census(Board(5, 5), compiled=True)  # compile (or load) the kernel before the workers fork
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as executor:
        list(executor.map(abs, range(4)))  # start the workers outside the timing
        yield executor


def test_census_5x5(benchmark):
    census(Board(5, 5), compiled=True)
    result = benchmark(census, Board(5, 5), compiled=True)
    assert result.total == 1728
    benchmark.extra_info.update(tours=result.total, nodes=result.nodes)


def test_census_6x6_two_processes(benchmark, pool):
    result = benchmark.pedantic(
        census, args=(Board(6, 6),), kwargs={"compiled": True, "map_units": pool.map}, rounds=3, iterations=1
    )
    assert result.total == 6_637_920
    benchmark.extra_info.update(tours=result.total, nodes=result.nodes)
    if benchmark.stats:  # None under --benchmark-disable
        benchmark.extra_info["nodes per second"] = round(result.nodes / benchmark.stats.stats.median)


def test_census_6x6_closed(benchmark, pool):
    result = benchmark.pedantic(
        census,
        args=(Board(6, 6),),
        kwargs={"closed": True, "compiled": True, "map_units": pool.map},
        rounds=3,
        iterations=1,
    )
    assert result.cycles == 9862
    benchmark.extra_info.update(cycles=result.cycles, nodes=result.nodes)


def test_parberry_1000x1000(benchmark):
    parberry_tour(Board(12, 12), (0, 0), compiled=True)  # compile the walk
    tour = benchmark.pedantic(
        parberry_tour, args=(Board(1000, 1000), (0, 0)), kwargs={"compiled": True}, rounds=5, iterations=1
    )
    assert tour.closed
    benchmark.extra_info["closed"] = tour.closed
