"""Warnsdorff's rule from the corner (0, 0) of m x m boards, m from 5 to
past 50 (the blog's D3 and D4), Python 3.6 or newer: on which m does it
fail? The plain rule breaks ties by move order; W2 takes the tied square
whose unvisited neighbours have the least sum of degrees. W+ needs
Squirrel & Cull's tables of move orders, not given here.
Run: python3 board_sizes.py [largest]   (m = 5 to largest, 100 if none)
"""

import argparse

ROW = [-1, -2, -2, -1, 1, 2, 2, 1]  # move k changes the row by ROW[k]
COL = [2, 1, -1, -2, -2, -1, 1, 2]  # and the column by COL[k]
parser = argparse.ArgumentParser()
parser.add_argument("largest", type=int, nargs="?", default=100)
largest = parser.parse_args().largest
if largest < 5:
    parser.error("the largest side is at least 5")


def moves(m: int, s: int) -> list:
    """The squares a knight move from square s = r * m + c, in order."""
    r, c = divmod(s, m)
    near = [(r + ROW[k], c + COL[k]) for k in range(8)]
    return [a * m + b for a, b in near if 0 <= a < m and 0 <= b < m]


def walk(m: int, rule: str) -> int:
    """The squares the rule numbers from (0, 0) of m x m (m * m: all)."""
    near = [moves(m, s) for s in range(m * m)]
    degree = [len(squares) for squares in near]  # unvisited neighbours
    seen = [False] * (m * m)

    def free(s: int) -> list:  # the unvisited squares a move from s
        return [t for t in near[s] if not seen[t]]

    square, length = 0, 1
    while True:
        seen[square] = True
        for t in near[square]:  # each neighbour has one way in fewer
            degree[t] -= 1
        if not free(square):
            return length
        low = min(degree[t] for t in free(square))
        tied = [t for t in free(square) if degree[t] == low]  # in order
        if (
            rule == "W2"
        ):  # the least sum first; sort() keeps ties' order
            tied.sort(key=lambda t: sum(degree[u] for u in free(t)))
        square, length = tied[0], length + 1


sides = range(5, largest + 1)
print(f"From the corner of m x m, m = 5 to {largest}:")
for rule in "plain", "W2":
    failing = [m for m in sides if walk(m, rule) < m * m]
    print(f"{rule} fails on {len(failing)} sides:", *failing)
    past = [m for m in sides if m > 50]
    if past:
        full = sum(m not in failing for m in past)
        print(f"  a tour on {full} of the {len(past)} sides past 50")
