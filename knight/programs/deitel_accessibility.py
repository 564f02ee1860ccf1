"""Deitel 7.24, the accessibility heuristic: the knight always moves to
the square with the lowest accessibility number, ties to the lowest
move number; as a square is occupied, its neighbours' numbers drop
(with --static, never). Python 3.9 or newer.

Run: python3 deitel_accessibility.py [size] [--static]   (size 8 if none)
"""

import argparse

horizontal = [2, 1, -1, -2, -2, -1, 1, 2]
vertical = [-1, -2, -2, -1, 1, 2, 2, 1]
parser = argparse.ArgumentParser()
parser.add_argument("size", type=int, nargs="?", default=8)
parser.add_argument("--static", action="store_true")
args = parser.parse_args()
size, static = args.size, args.static
if size < 1:
    parser.error("the size is at least 1")
sides = range(size)


def moves_from(row: int, column: int) -> list[tuple[int, int]]:
    """The squares one knight move away, in move order 0 to 7."""
    near = [
        (row + vertical[move_number], column + horizontal[move_number])
        for move_number in range(8)
    ]
    return [(r, c) for r, c in near if 0 <= r < size and 0 <= c < size]


def tour(row: int, column: int) -> list[list[int]]:
    """The board numbered 1, 2, 3, ... in the order the knight came."""
    accessibility = [
        [len(moves_from(r, c)) for c in sides] for r in sides
    ]
    board = [[0] * size for _ in sides]
    for counter in range(1, size * size + 1):
        board[row][column] = counter
        moves = moves_from(row, column)
        if not static:  # each neighbour is now reached from one fewer
            for r, c in moves:
                accessibility[r][c] -= 1
        free = [(r, c) for r, c in moves if board[r][c] == 0]
        if not free:
            break
        # min() keeps the first of equal numbers: the lowest move number
        row, column = min(free, key=lambda s: accessibility[s[0]][s[1]])
    return board


print(f"The tour from (0, 0), {size} x {size}:")
for row in tour(0, 0):
    print(" ".join(f"{n:2}" for n in row))
print("Squares reached from each start:")
grid = [[max(map(max, tour(r, c))) for c in sides] for r in sides]
for row in grid:
    print(" ".join(f"{n:2}" for n in row))
full = sum(row.count(size * size) for row in grid)
print(f"Full tours: {full} of {size * size}.")
