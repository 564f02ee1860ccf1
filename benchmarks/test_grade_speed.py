"""Grading speed (issue 13): `make bench`.

Target on this project's 2-core machine: `knight grade` on 1,000 generated 8 x 8 submissions (every
format, right and wrong: tours by every heuristic from every start, a fifth of them with two steps
swapped) with the gradebook and an HTML feedback page each, in under 10 s. Each round starts with an
empty cache of our methods' tours and of drawings, so the search for the method that made each tour
and every drawing are timed in full.
"""

import json
from pathlib import Path

from knight.engine import Board, find_tour
from knight.grading import check as checking
from knight.grading import gradebook
from knight.grading.gradebook import grade_directory

BOARD = Board(8, 8)
METHODS = [
    ("warnsdorff", {"tie": "first"}),
    ("warnsdorff", {"tie": "roth"}),
    ("naive", {}),
    ("static", {}),
    ("warnsdorff", {"tie": "random", "seed": 5}),
    ("warnsdorff", {"tie": "lookahead-sum"}),
]


def write_class(directory: Path, count: int = 1000) -> None:
    """``count`` submissions: tours from every start by several methods, in every format, some broken."""
    for i in range(count):
        method, params = METHODS[i % len(METHODS)]
        start = divmod((i * 7) % 64, 8)
        squares = find_tour(BOARD, start, method, **params).squares
        if i % 5 == 4:
            j = min(10, len(squares) - 3)
            squares[j], squares[j + 1] = squares[j + 1], squares[j]
        kind = i % 5
        if kind == 0:
            grid = [[0] * 8 for _ in range(8)]
            for k, (r, c) in enumerate(squares, start=1):
                grid[r][c] = k
            text = "Tour:\n" + "\n".join(" ".join(f"{v:2}" for v in row) for row in grid) + "\n"
        elif kind == 1:
            text = " ".join(f"({r}, {c})" for r, c in squares)
        elif kind == 2:
            text = " ".join(f"{chr(97 + c)}{8 - r}" for r, c in squares)
        elif kind == 3:
            text = "step,row,col\n" + "".join(f"{k},{r},{c}\n" for k, (r, c) in enumerate(squares, start=1))
        else:
            text = json.dumps({"board": [8, 8], "squares": [list(sq) for sq in squares]})
        (directory / f"student{i:04}.txt").write_text(text)


def test_grade_1000_submissions_8x8(benchmark, tmp_path):
    source = tmp_path / "class"
    source.mkdir()
    write_class(source)
    find_tour(BOARD, (0, 0), "warnsdorff", compiled=True)  # load the kernels outside the timing
    rounds = iter(range(100))

    def fresh():
        checking._PATHS.clear()
        gradebook._SVG_CACHE.clear()
        return (source, tmp_path / f"out{next(rounds)}"), {"board": BOARD}  # as the teacher gives --board 8

    batch = benchmark.pedantic(grade_directory, setup=fresh, rounds=3, iterations=1)
    assert len(batch.rows) == 1000 and batch.unreadable == 0
    assert sum(row.result.verdict == "not a tour" for row in batch.rows) == 200
    assert (tmp_path / "out0" / "gradebook.csv").exists() and (tmp_path / "out0" / "student0999.html").exists()
    benchmark.extra_info["submissions"] = len(batch.rows)
