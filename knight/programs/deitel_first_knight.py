"""Deitel 7.24, the first script: the knight takes the first legal move,
0 to 7, until it is stuck. Python 3.9 or newer.

Run: python3 deitel_first_knight.py [row column]   (start; default 0 0)
"""

import argparse

horizontal = [2, 1, -1, -2, -2, -1, 1, 2]
vertical = [-1, -2, -2, -1, 1, 2, 2, 1]


def move_knight(start_row: int, start_column: int) -> list[list[int]]:
    """The board, each square holding the count when the knight came."""
    board = [[0] * 8 for _ in range(8)]
    current_row, current_column = start_row, start_column
    counter = 1
    board[current_row][current_column] = counter
    while True:
        for move_number in range(8):  # test every potential move
            row = current_row + vertical[move_number]
            column = current_column + horizontal[move_number]
            on_board = 0 <= row < 8 and 0 <= column < 8
            if on_board and board[row][column] == 0:
                break
        else:
            return board  # no move is legal: the knight is stuck
        current_row, current_column = row, column
        counter += 1
        board[current_row][current_column] = counter


def moves_made(board: list[list[int]]) -> int:
    return max(max(row) for row in board) - 1


parser = argparse.ArgumentParser()
parser.add_argument("row", type=int, nargs="?", default=0)
parser.add_argument("column", type=int, nargs="?", default=0)
args = parser.parse_args()
start = [args.row, args.column]
if not (0 <= args.row < 8 and 0 <= args.column < 8):
    parser.error("the row and the column are 0 to 7")
board = move_knight(start[0], start[1])
for row in board:
    print(" ".join(f"{count:2}" for count in row))
print(f"From {tuple(start)}: {moves_made(board)} moves.")

squares = [(r, c) for r in range(8) for c in range(8)]
every = [moves_made(move_knight(r, c)) for r, c in squares]
print(f"From the 64 starts: {min(every)} to {max(every)} moves,")
print(f"{every.count(63)} full tours.")
