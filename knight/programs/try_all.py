"""The Eiffel text's Try_All (Python 3.6 or newer): every knight's tour
from a square, by backtracking that never stops at the first. The text
displays each tour; this version counts them and shows the first found.
It says how long it will take, and refuses over a minute unless --force.
Run: python3 try_all.py size [x0 y0] [--force]   (the start; 0 0 if none)
"""

import argparse

# The squares placed from a corner of size x size (counted up to 5 x 5,
# Knuth's estimate beyond: tree_size.py); about SPEED a second (Python)
NODES = [1, 1, 1, 15, 2223, 1735079, 1.9e10, 3.0e15, 4.1e21]
SPEED = 1e6
# move d changes x (the row) by row[d] and y (the column) by col[d]
row = [-1, -2, -2, -1, 1, 2, 2, 1]
col = [2, 1, -1, -2, -2, -1, 1, 2]
USAGE = "%(prog)s [-h] size [x0 y0] [--force]"
parser = argparse.ArgumentParser(usage=USAGE)
parser.add_argument("numbers", type=int, nargs="+", help="size [x0 y0]")
parser.add_argument("--force", action="store_true", help="however long")
args = parser.parse_args()
numbers = args.numbers if len(args.numbers) in (1, 3) else [0]
size, x0, y0 = [*numbers, 0, 0][:3]
if size < 1 or not (0 <= x0 < size and 0 <= y0 < size):
    parser.error("the size is at least 1; x0 and y0 are 0 to size - 1")
nodes = NODES[min(size, 8)]  # or more, beyond 8 x 8
about = "Over" if size > 8 else "About"
seconds, hours = nodes / SPEED, nodes / SPEED / 3600
when = f"{hours:.2g} hours" if hours >= 1 else f"{seconds:.2g} seconds"
print(f"{about} {nodes:.2g} squares to place: {when}.")
if seconds > 60 and not args.force:
    parser.error("that is over a minute: add --force to start it")
board = [[0] * size for _ in range(size)]
tours, first = 0, ""  # the tours found, the first one


def Acceptable(s: int, t: int) -> bool:
    return 0 <= s < size and 0 <= t < size and board[s][t] == 0


def Try_All(k: int, x: int, y: int) -> None:
    global tours, first
    if k > size * size:  # "Display Board": count it, keep the first
        tours += 1
        if not first:
            lines = [" ".join(f"{n:2}" for n in r) for r in board]
            first = "\n".join(lines)
        return
    for d in range(8):
        new_x, new_y = x + row[d], y + col[d]
        if Acceptable(new_x, new_y):
            board[new_x][new_y] = k
            Try_All(k + 1, new_x, new_y)
            board[new_x][new_y] = 0  # no exit on success: try the rest


board[x0][y0] = 1
Try_All(2, x0, y0)
print(first or "No tour.")
print(f"{tours} tours from ({x0}, {y0}) on {size} x {size}.")
