"""The Eiffel text's Try_Next_Move: backtracking for the first knight's
tour from the corner (0, 0), the moves tried in the key's order 0 to 7.
The search gives up once it has placed `budget` squares (the start is
the first): in this order it does not finish on 8 x 8.

Run: python3 try_next_move.py size [budget]   (budget 2000000 if none)
"""

import sys

# move d changes x (the row) by row[d] and y (the column) by col[d]
row = [-1, -2, -2, -1, 1, 2, 2, 1]
col = [2, 1, -1, -2, -2, -1, 1, 2]
size = int(sys.argv[1])
budget = int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
board = [[0] * size for _ in range(size)]  # 0: free; k: the kth square
nodes = 0  # squares placed so far
gave_up = False


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
    global nodes
    nodes = 1
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
