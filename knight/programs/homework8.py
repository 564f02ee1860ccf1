"""Homework #8: knight's tours by the lowest-degree heuristic, without
backtracking; ties go to the lowest move number (the key's move order).

Run: python3 homework8.py n m i j   the tour from square (i, j) of n x m
     python3 homework8.py n m       a tour from every square, summed up
"""

import sys

Square = tuple[int, int]
ROW = [-1, -2, -2, -1, 1, 2, 2, 1]  # move k changes the row by ROW[k]
COL = [2, 1, -1, -2, -2, -1, 1, 2]  # and the column by COL[k]


def reachable(n: int, m: int, i: int, j: int) -> list[Square]:
    squares = [(i + ROW[k], j + COL[k]) for k in range(8)]
    return [(a, b) for a, b in squares if 0 <= a < n and 0 <= b < m]


def find_tour(n: int, m: int, i: int, j: int) -> list[Square]:
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
        # the lowest degree; of equal ones, min() keeps the first
        tour.append(min(possible, key=degree.__getitem__))


n, m, *start = (int(word) for word in sys.argv[1:5])
width = len(str(n * m))
if start:
    tour = find_tour(n, m, start[0], start[1])
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
    for i in range(n):
        line = tours[i * m : i * m + m]
        print(" ".join(str(len(t)).rjust(width) for t in line))
    full = [t for t in tours if len(t) == n * m]
    shut = sum(t[0] in reachable(n, m, *t[-1]) for t in full)
    print(f"Full tours from {len(full)} of {n * m} starts:")
    print(f"{shut} closed, {len(set(map(tuple, full)))} different.")
