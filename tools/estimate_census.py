"""Estimate what a census costs before running it: sample its units, run them, extrapolate.

    python tools/estimate_census.py 7 7 --depth 8 --samples 400

Splits the census into units of ``depth`` moves (:func:`census_units`), runs a uniform
random sample of them with the compiled kernel, and scales up: the mean over the sample
times the number of units is an unbiased estimate of the total nodes and of the total
directed tours (each unit's tours weighted by the first moves it stands for, its ``weight``, and by the size
of its start's symmetry class).
The spread of the sample gives a standard error. Check it on 6 x 6, where the answer is
known (6,637,920 tours, 24,815,244 nodes), before trusting it on 7 x 7.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from knight.engine.board import Board  # noqa: E402
from knight.engine.census import census_units, count_unit  # noqa: E402
from knight.engine.census_symmetry import orbits  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("m", type=int)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    board = Board(args.n, args.m)
    began = time.perf_counter()
    units = census_units(board, depth=args.depth)
    orbit = {square: len(images) for square, images in orbits(board, set()).items()}
    print(f"{board}: {len(units):,} units of depth {args.depth} ({time.perf_counter() - began:.1f} s to list)")
    count_unit(units[0], compiled=True)  # compile or load the kernel
    rng = random.Random(args.seed)
    nodes, tours = [], []
    began = time.perf_counter()
    for unit in (rng.choice(units) for _ in range(args.samples)):
        result = count_unit(unit, compiled=True)
        nodes.append(result.nodes)
        tours.append(result.tours * unit.weight * orbit[board.index(unit.start)])
    seconds = time.perf_counter() - began
    rate = sum(nodes) / seconds
    for name, values in (("nodes", nodes), ("directed tours", tours)):
        mean, error = statistics.fmean(values), statistics.stdev(values) / len(values) ** 0.5
        print(f"{name}: {len(units) * mean:.3e} ± {len(units) * error:.1e} (one standard error)")
    total = len(units) * statistics.fmean(nodes)
    print(f"measured {rate:.3e} nodes/s on one core over {args.samples} units ({seconds:.1f} s)")
    print(f"estimated cost: {total / rate / 3600:.1f} core-hours")


if __name__ == "__main__":
    main()
