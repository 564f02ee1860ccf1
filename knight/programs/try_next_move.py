"""The Eiffel text's Try_Next_Move (Python 3.6 or newer): backtracking
for the first tour from the corner (0, 0), the moves tried in the key's
order 0 to 7, given up once `budget` squares are placed (the start is
the first): in this order it does not finish on 8 x 8.
Run: python3 try_next_move.py size [budget]   (budget 2000000 if none)
"""

import argparse
import sys

# move d changes x (the row) by row[d] and y (the column) by col[d]
row = [-1, -2, -2, -1, 1, 2, 2, 1]
col = [2, 1, -1, -2, -2, -1, 1, 2]
parser = argparse.ArgumentParser()
parser.add_argument("size", type=int)  # the board's side, 1 to 99
parser.add_argument("budget", type=int, nargs="?", default=2_000_000)
size, budget = vars(parser.parse_args()).values()
if not (0 < size < 100 and budget > 0):
    parser.error("the size is 1 to 99, the budget at least 1")
board = [[0] * size for _ in range(size)]  # 0: free; k: the kth square
nodes, gave_up = 1, False  # squares placed; has the budget run out?


def Acceptable(s: int, t: int) -> bool:
    return 0 <= s < size and 0 <= t < size and board[s][t] == 0


def Try_Next_Move(k: int, x: int, y: int) -> bool:
    """Place square k a knight move from (x, y); True: a full tour."""
    global nodes, gave_up
    if k > size * size:
        return True  # every square is placed
    for d in range(8):
        new_x, new_y = x + row[d], y + col[d]
        if Acceptable(new_x, new_y):
            if nodes == budget:
                gave_up = True
                return False
            nodes += 1
            board[new_x][new_y] = k
            if Try_Next_Move(k + 1, new_x, new_y):
                return True
            board[new_x][new_y] = 0  # a dead end: take the square back
    return False


def Knights(x0: int, y0: int) -> None:
    board[x0][y0] = 1  # start at (x0, y0)
    if Try_Next_Move(2, x0, y0):
        for line in board:
            print(" ".join(f"{k:2}" for k in line))
        print(f"First tour after {nodes} nodes.")
    elif gave_up:
        print(f"No solution within {nodes} nodes.")
    else:
        print(f"No solution ({nodes} nodes).")


sys.setrecursionlimit(10_000)
Knights(0, 0)
