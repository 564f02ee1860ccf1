"""Warnsdorff's rule from every start of a size x size board with each
tie-break of D5 (Python 3.6 or newer); random ties: seeds S to S + 9.
Run: python3 tie_breaks.py [size] [--seed S]   (8 and 0 if none)"""

import argparse

ROW = [-1, -2, -2, -1, 1, 2, 2, 1]  # move k changes the row by ROW[k]
COL = [2, 1, -1, -2, -2, -1, 1, 2]  # and the column by COL[k]
TIES = "first random lookahead-min lookahead-sum roth blog".split()
parser = argparse.ArgumentParser()
parser.add_argument("size", type=int, nargs="?", default=8)
parser.add_argument("--seed", type=int, default=0)
n, seed = vars(parser.parse_args()).values()
if n < 1 or seed < 0:
    parser.error("the size is at least 1, the seed at least 0")
starts = [(r, c) for r in range(n) for c in range(n)]
board = set(starts)  # the squares, to look up


def free(seen: set, r: int, c: int) -> list:
    """(k, row, col) of each unvisited square a move k from (r, c)."""
    near = [(k, r + ROW[k], c + COL[k]) for k in range(8)]
    return [s for s in near if s[1:] in board and s[1:] not in seen]


def rank(seen: set, s: tuple, tie: str) -> tuple:
    """Of the tied squares s = (k, a, b), a move k away, the least wins."""
    if tie == "blog":  # the blog script's index i of our move k
        return [7, 6, 5, 4, 0, 1, 2, 3][s[0]], s[0]
    if tie == "roth":  # the farthest from the centre, then move order
        return -sum((2 * v - n + 1) ** 2 for v in s[1:]), s[0]
    onward = [len(free(seen, *t[1:])) for t in free(seen, *s[1:])]
    if tie == "lookahead-min":  # the least degree one move further
        return min(onward, default=99), s[0]
    return (sum(onward) if tie == "lookahead-sum" else 0), s[0]


def full(r: int, c: int, tie: str, seed: int) -> bool:
    """Does the rule number every square from (r, c), with this tie?"""
    seen = {(r, c)}
    state = (seed * 2654435761 + 1) % 2**32 or 0x9E3779B9
    while free(seen, r, c):
        degree = {s: len(free(seen, *s[1:])) for s in free(seen, r, c)}
        tied = [s for s in degree if degree[s] == min(degree.values())]
        if tie == "random" and len(tied) > 1:  # xorshift32, as knight
            state ^= (state << 13) % 2**32
            state ^= state >> 17
            state ^= (state << 5) % 2**32
            tied = [tied[state % len(tied)]]
        _, r, c = min(tied, key=lambda s: rank(seen, s, tie))
        seen.add((r, c))
    return len(seen) == n * n


print(f"Full tours from the {n * n} starts of {n} x {n} (random: mean)")
for tie in TIES:
    seeds = range(seed, seed + 10) if tie == "random" else [seed]
    short = [s for x in seeds for s in starts if not full(*s, tie, x)]
    mean = n * n - len(short) / len(seeds)
    print(f"{tie:13} {mean:g}", *short if len(seeds) == 1 else "")
