"""Knuth's estimate of the brute-force search that try_all.py runs from
the corner (0, 0), in Python 3.6 or newer: a random path (the knight
moves at random until stuck) with d1, d2, ... choices on its way gives
1 + d1 + d1*d2 + ...; the mean over many paths estimates the nodes.
Random numbers: xorshift32, as knight's engine draws them.
Run: python3 tree_size.py [size] [paths] [--seed S]   (8 10000 0)
"""

import argparse
import math

ROW = [-1, -2, -2, -1, 1, 2, 2, 1]  # move k changes the row by ROW[k]
COL = [2, 1, -1, -2, -2, -1, 1, 2]  # and the column by COL[k]
parser = argparse.ArgumentParser()
parser.add_argument("size", type=int, nargs="?", default=8)
parser.add_argument("paths", type=int, nargs="?", default=10000)
parser.add_argument("--seed", type=int, default=0)
n, paths, seed = vars(parser.parse_args()).values()
if not (3 <= n <= 12 and paths > 1 and seed >= 0):
    parser.error("the size is 3 to 12, paths at least 2, the seed >= 0")
state = (seed * 2654435761 + 1) % 2**32 or 0x9E3779B9


def probe() -> tuple:
    """A random path from (0, 0): 1 + d1 + d1*d2 + ..., and d1, d2, ..."""
    global state
    path, nodes, weight = [(0, 0)], 1.0, 1.0
    choices: list[int] = []
    while True:
        r, c = path[-1]
        near = [(r + ROW[k], c + COL[k]) for k in range(8)]
        free = [s for s in near if min(s) >= 0 and max(s) < n]
        free = [s for s in free if s not in path]  # in move order
        if not free:
            return nodes, choices
        choices.append(len(free))
        weight *= len(free)
        nodes += weight
        k = 0
        if len(free) > 1:  # xorshift32: the next random number
            state ^= (state << 13) % 2**32
            state ^= state >> 17
            state ^= (state << 5) % 2**32
            k = state * len(free) >> 32  # 0 to len(free) - 1
        path.append(free[k])


estimates, choices = zip(*(probe() for _ in range(paths)))
mean = math.fsum(estimates) / paths
spread = math.fsum((x - mean) ** 2 for x in estimates) / (paths - 1)
error = math.sqrt(spread / paths)  # the standard error of the mean
d = [x for path in choices for x in path]  # every choice, every path
arithmetic = math.log10(sum(d) / len(d))  # log10 of the mean of d
geometric = math.fsum(map(math.log10, d)) / len(d)  # of its geometric
moves = n * n - 1  # of a full tour
print(f"{n} x {n} from (0, 0), {paths} random paths, seed {seed}:")
print(f"Knuth's estimate: {mean:.4g} nodes, standard error {error:.2g}")
print(f"Paths end after {1 + len(d) / paths:.1f} squares; choices d:")
for name, log in ("mean", arithmetic), ("geometric mean", geometric):
    print(f"{name} {10**log:.2f}, d**{moves} = 10**{moves * log:.1f}")
