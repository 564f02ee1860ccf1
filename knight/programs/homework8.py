"""Homework #8 (Python 3.9 or newer): knight's tours by the lowest-degree
heuristic without backtracking, ties to the move listed first.
Run: python3 homework8.py n m [i j]   (i j: a start; none: every start)
"""

import argparse

ROW = [-1, -1, 1, 1, -2, -2, 2, 2]  # the homework's order of moves:
COL = [-2, 2, -2, 2, -1, 1, -1, 1]  # (i-1, j-2), (i-1, j+2), …


def reachable(n: int, m: int, i: int, j: int) -> list[tuple[int, int]]:
    squares = [(i + ROW[k], j + COL[k]) for k in range(8)]
    return [(a, b) for a, b in squares if 0 <= a < n and 0 <= b < m]


def find_tour(n: int, m: int, i: int, j: int) -> list[tuple[int, int]]:
    """The tour, or the partial tour where no square is possible."""
    squares = [(a, b) for a in range(n) for b in range(m)]
    degree = {s: len(reachable(n, m, *s)) for s in squares}
    tour = [(i, j)]
    while True:
        last = tour[-1]
        for square in reachable(n, m, *last):
            degree[square] -= 1  # the last square is in the tour now
        possible = [s for s in reachable(n, m, *last) if s not in tour]
        if not possible:
            return tour
        tour.append(min(possible, key=degree.__getitem__))  # ties: 1st


parser = argparse.ArgumentParser(usage="%(prog)s [-h] n m [i j]")
parser.add_argument("numbers", type=int, nargs="+", help="n m [i j]")
numbers = parser.parse_args().numbers
n, m, i, j = [*numbers, 0, 0][:4] if len(numbers) in (2, 4) else [0] * 4
if min(n, m) < 1 or not (0 <= i < n and 0 <= j < m):
    parser.error("n, m at least 1; a start i j: 0 <= i < n, 0 <= j < m")
width = len(str(n * m))
if len(numbers) == 4:
    tour = find_tour(n, m, i, j)
    array = [["."] * m for _ in range(n)]  # ".": not in the tour
    for k, (a, b) in enumerate(tour, start=1):
        array[a][b] = str(k)  # the kth square of the tour holds k
    for row in array:
        print(" ".join(k.rjust(width) for k in row))
    if len(tour) < n * m:
        print(f"{len(tour)} of {n * m} squares.")
        print("Failed to find a full tour.")
    else:  # closed: the last square is a knight move from the first
        closed = tour[0] in reachable(n, m, *tour[-1])
        print(f"A full tour, {'closed' if closed else 'open'}.")
else:
    tours = [find_tour(n, m, i, j) for i in range(n) for j in range(m)]
    print("Squares in each start's tour:")
    for line in [tours[i : i + m] for i in range(0, n * m, m)]:
        print(" ".join(str(len(t)).rjust(width) for t in line))
    full = [t for t in tours if len(t) == n * m]
    shut = sum(t[0] in reachable(n, m, *t[-1]) for t in full)
    print(f"Full tours from {len(full)} of {n * m} starts:")
    print(f"{shut} closed, {len(set(map(tuple, full)))} different.")
