"""The Eiffel text's Try_All: every knight's tour from a square, found
by backtracking that never stops at the first. The text displays each
tour; this version counts them and shows the first one found.

Run: python3 try_all.py size [x0 y0]   (the start; 0 0 if none)
"""

import sys

# move d changes x (the row) by row[d] and y (the column) by col[d]
row = [-1, -2, -2, -1, 1, 2, 2, 1]
col = [2, 1, -1, -2, -2, -1, 1, 2]
size = int(sys.argv[1])
x0, y0 = [int(a) for a in sys.argv[2:4]] or [0, 0]
board = [[0] * size for _ in range(size)]
tours = 0
first = ""


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
