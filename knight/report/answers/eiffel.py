"""The answers to the Eiffel text (backtracking: the first tour, all tours, closed tours, the colour
argument, the board without two corners, and Parberry's join)."""

from __future__ import annotations

from typing import Any

import numpy as np

from knight.engine import Board
from knight.engine.diagrams import heat_map_svg, tour_svg
from knight.engine.parberry import BASE_SIZES, structured_moves
from knight.engine.theory import colour_counts, open_tour_verdict
from knight.errors import MissingData
from knight.report.answers.common import StoreData, count_of
from knight.report.records import TourRecord
from knight.report.text import board_text

__all__ = [
    "METHOD_NAMES",
    "eiffel_all",
    "eiffel_closed",
    "eiffel_colours",
    "eiffel_corners",
    "eiffel_first",
    "eiffel_parberry",
]

#: The boards the Eiffel questions ask about.
EIFFEL_SIZES = (5, 6, 8)
#: Exact counts of the literature for boards too big for a census here (../shared/literature, OEIS).
CLOSED_TOURS_8X8 = 13_267_364_410_532  # undirected closed tours of 8 x 8: OEIS A001230, McKay 1997
OPEN_TOURS_8X8 = 19_591_828_170_979_904  # directed open tours of 8 x 8: OEIS A165134
#: Homework #8's program, as the key names it among the heuristics' runs.
HOMEWORK_RULE = "Warnsdorff (first ties)"
#: How the key names the methods in prose.
METHOD_NAMES = {
    "naive": "first legal move",
    "static": "static table",
    "random-walk": "random walk",
    "backtrack": "backtracking",
    "parberry": "Parberry",
}


def eiffel_first(data: StoreData) -> dict[str, Any]:
    results = data.results
    first_tours = sorted(
        (
            {"size": r.n, "board": board_text(r.n), "order": r.params["order"], "nodes": r.work, "record": r}
            for r in results.select("backtrack", closed=False)
            if r.start == (0, 0) and r.n == r.m and r.n in EIFFEL_SIZES and r.full and "removed" not in r.params
        ),
        key=lambda t: (t["size"], t["order"] != "plain"),
    )
    five = results.by_start("backtrack", 5, 5, order="plain", closed=False)
    proven_none = [r for r in five.values() if not r.full and not r.budget_exhausted]
    plain = [t for t in first_tours if t["order"] == "plain"]
    drawn = plain[0] if plain else first_tours[0]
    given_up = sorted(
        {
            (r.n, r.work)
            for r in results.select("backtrack", order="plain", closed=False)
            if r.start == (0, 0)
            and r.n == r.m
            and r.n in EIFFEL_SIZES
            and r.budget_exhausted
            and "removed" not in r.params
        }
    )
    return {
        "first_tours": [{k: v for k, v in t.items() if k != "record"} for t in first_tours],
        "given_up": [{"board": board_text(n), "nodes": nodes} for n, nodes in given_up],
        "svg": tour_svg(drawn["record"].tour(), title=f"first tour found on {drawn['board']}"),
        "drawn": {k: v for k, v in drawn.items() if k != "record"},
        "five": {
            "starts": len(five),
            "found": sum(r.full for r in five.values()),
            "proven_none": len(proven_none),
            "out_of_budget": sum(r.budget_exhausted for r in five.values()),
            "nodes_total": sum(r.work for r in five.values()),
        },
        "glance": "First tour from (0, 0) after "
        + ", ".join(
            [f"{t['nodes']:,}{' nodes' if i == 0 else ''} on {t['board']}" for i, t in enumerate(plain)]
            + [f"none within {nodes:,} on {board_text(n)}" for n, nodes in given_up]
        )
        + " (plain order); "
        f"{sum(r.full for r in five.values())} of 25 squares of 5 × 5 start a tour, {len(proven_none)} proved none.",
    }


def eiffel_all(data: StoreData) -> dict[str, Any]:
    whole = [c for c in data.censuses if c.total is not None and not c.removed and c.starts is None and not c.closed]
    if not whole:
        raise MissingData("no complete census of open tours")
    boards = []
    for c in whole:
        board = c.board
        full = [r for r in data.results.select(n=c.n, m=c.m) if r.full and r.method != "backtrack"]
        by_method: dict[str, set[str]] = {}
        for r in full:
            name = (
                METHOD_NAMES.get(r.method, r.method)
                if r.method != "warnsdorff"
                else f"Warnsdorff ({r.params['tie']} ties)"
            )
            by_method.setdefault(name, set()).add(r.key_directed)
        grid = np.full((c.n, c.m), np.nan)
        for start, count in c.counts.items():
            grid[start] = count
        boards.append(
            {
                "board": board_text(c.n, c.m),
                "total": c.total,
                "undirected": c.undirected,
                "nodes": c.nodes,
                "corner": c.counts.get((0, 0)),
                "found": len({r.key_directed for r in full}),
                "by_method": sorted(((name, len(keys)) for name, keys in by_method.items()), key=lambda x: -x[1]),
                "homework_rule": len(by_method.get(HOMEWORK_RULE, ())),
                "heat": heat_map_svg(board, grid, title=f"{board}: open tours from each start", label_format="{:,.0f}")
                if c.n * c.m <= 36
                else "",
            }
        )
    return {
        "boards": boards,
        "open_8x8": None if any((c.n, c.m) == (8, 8) for c in whole) else OPEN_TOURS_8X8,
        "incomplete": [board_text(c.n, c.m) for c in data.censuses if c.total is None],
        "glance": "; ".join(
            f"{b['board']}: {b['total']:,}{' directed open tours' if i == 0 else ''}"
            + (f" ({b['corner']:,} from each corner)" if b["corner"] else "")
            for i, b in enumerate(boards)
        )
        + "; Homework #8's rule finds "
        + " and ".join(f"{b['homework_rule']:,}" for b in boards)
        + " of them, all the heuristics together "
        + " and ".join(f"{b['found']:,}" for b in boards)
        + ".",
    }


def eiffel_closed(data: StoreData) -> dict[str, Any]:
    closed = [c for c in data.censuses if c.closed and c.total is not None and not c.removed and c.starts is None]
    if not closed:
        raise MissingData("no complete census of closed tours")
    boards = []
    for c in closed:
        found = {r.tour().key_cycle for r in data.results.select("backtrack", c.n, c.m, closed=True) if r.success}
        boards.append(
            {
                "board": board_text(c.n, c.m),
                "directed": c.total,
                "cycles": c.undirected,
                "symmetric": c.symmetric,
                "nodes": c.nodes,
                "found": len(found),
            }
        )
    drawn = [
        r
        for r in data.results.select("backtrack", closed=True)
        if r.start == (0, 0) and r.n in EIFFEL_SIZES and r.success
    ]
    sizes = [s for s in EIFFEL_SIZES if (s * s) % 2 == 0]
    counted = {(c.n, c.m) for c in closed}
    literature = [] if (8, 8) in counted else [{"board": board_text(8, 8), "cycles": CLOSED_TOURS_8X8}]
    return {
        "boards": boards,
        "literature": literature,
        "even_sizes": [board_text(s) for s in sizes],
        "tours": [
            {
                "board": board_text(r.n, r.m),
                "order": r.params["order"],
                "nodes": r.work,
                "svg": tour_svg(r.tour(), title=f"closed tour on {board_text(r.n, r.m)}"),
            }
            for r in drawn[:2]
        ],
        "glance": f"Only on boards with an even number of squares ({', '.join(board_text(s) for s in sizes)}; "
        f"never 5 × 5); "
        + "; ".join(f"{b['board']} has {b['cycles']:,} closed tours" for b in boards)
        + "".join(f"; {b['board']} has {b['cycles']:,} (the literature)" for b in literature)
        + ".",
    }


def eiffel_colours(data: StoreData) -> dict[str, Any]:
    rows, runs, full, boards = [], 0, 0, 0
    odd_boards = sorted(
        {(r.n, r.m) for r in data.results.records if (r.n * r.m) % 2 == 1 and not r.params.get("removed")}
    )
    largest = board_text(*max(odd_boards, key=lambda b: (b[0] * b[1], b))) if odd_boards else ""
    for n, m in odd_boards:
        # whole boards only: without two corners, the colour with more squares changes
        board = Board(n, m)
        minority = [
            r
            for r in data.results.select(n=n, m=m)
            if board.colour(r.start) == board.minority_colour() and not r.params.get("removed")
        ]
        if not minority:
            continue
        boards, runs, full = boards + 1, runs + len(minority), full + sum(r.full for r in minority)
        if n * m <= 49:
            rows.append(
                {
                    "board": board_text(n, m),
                    "runs": len(minority),
                    "full": sum(r.full for r in minority),
                    "squares": colour_counts(board)[1],
                }
            )
    if not boards:
        raise MissingData("no runs on odd boards")
    if boards > len(rows):
        rows.append(
            {"board": f"all {boards} odd boards run, up to {largest}", "runs": runs, "full": full, "squares": "—"}
        )
    five = data.results.require("backtrack", 5, 5, order="plain", closed=False)
    proven_none = [r for r in five if not r.full and not r.budget_exhausted]
    majority, minority_count = colour_counts(Board(5, 5))
    return {
        "rows": rows,
        "majority": majority,
        "minority": minority_count,
        "proven_none": len(proven_none),
        "proven_none_minority": sum(Board(5, 5).colour(r.start) == 1 for r in proven_none),
        "glance": f"Each move changes colour: on 5 × 5 only the {majority}-square colour starts a tour ({full} in "
        f"{runs:,} runs from the other), and no odd board has a closed tour.",
    }


def eiffel_corners(data: StoreData) -> dict[str, Any]:
    mutilated: list[dict[str, Any]] = []
    for c in (c for c in data.censuses if c.removed and c.total is not None):
        board = c.board
        first, second = colour_counts(board, c.removed)
        mutilated.append(
            {
                "board": board_text(c.n, c.m),
                "n": c.n,
                "removed": [tuple(square) for square in c.removed],
                "colours": (first, second),
                "total": c.total,
                "nodes": c.nodes,
                "odd": c.n % 2 == 1,
                "theory": open_tour_verdict(board, removed=c.removed),
            }
        )
    searches = _searches_by_board(
        [r for r in data.results.select("backtrack") if r.params.get("removed") and r.n % 2 == 1]
    )
    if not mutilated:
        raise MissingData("no census without opposite corners")
    even = [b for b in mutilated if not b["odd"]]
    odd = [b for b in mutilated if b["odd"]]
    even_agree = all(b["total"] == 0 for b in even)
    odd_found = [f"{b['board']}: {b['total']:,} tours" for b in odd if b["total"] > 0] + [
        f"{s['board']}: a tour from {count_of(s['found'], s['starts'], 'start')} tried" for s in searches if s["found"]
    ]
    odd_text = (
        "odd n: possible, our runs find journeys — " + "; ".join(odd_found)
        if odd_found
        else "odd n: none found on " + ", ".join([b["board"] for b in odd] + [s["board"] for s in searches])
        if odd or searches
        else "odd n: not searched"
    )
    return {
        "boards": mutilated,
        "odd_found": searches,
        "eight": open_tour_verdict(Board(8, 8), removed=[(0, 0), (7, 7)]),
        "even_agree": even_agree,
        "odd_possible": bool(odd_found),
        "glance": f"Even n: impossible, our runs {'agree' if even_agree else 'disagree'} "
        f"({'no tour' if even_agree else 'tours found'} on {', '.join(b['board'] for b in even)}); {odd_text}.",
    }


def _searches_by_board(records: list[TourRecord]) -> list[dict[str, Any]]:
    """First-tour searches on boards with squares removed, one row per board: starts tried, tours found."""
    boards: dict[tuple[int, int], list[TourRecord]] = {}
    for record in records:
        boards.setdefault((record.n, record.m), []).append(record)
    return [
        {
            "board": board_text(n, m),
            "removed": [tuple(square) for square in runs[0].params.get("removed", ())],
            "colours": colour_counts(Board(n, m), [tuple(square) for square in runs[0].params.get("removed", ())]),
            "starts": len(runs),
            "found": sum(r.full for r in runs),
            "nodes": sum(r.work for r in runs),
        }
        for (n, m), runs in sorted(boards.items())
    ]


def eiffel_parberry(data: StoreData) -> dict[str, Any]:
    records = [r for r in data.results.select("parberry") if r.moves]
    if not records:
        raise MissingData("no Parberry tour")
    boards = []
    for record in records:
        tour = record.tour()
        moves = {frozenset(pair) for pair in zip(tour.squares, tour.squares[1:] + tour.squares[:1])}
        corner = structured_moves(record.n, record.m)
        base = (record.n, record.m) in BASE_SIZES or (record.m, record.n) in BASE_SIZES
        boards.append(
            {
                "board": board_text(record.n, record.m),
                "closed": record.closed,
                "base": base,
                "quarter": None if base else board_text(record.n // 2, record.m // 2),
                "corner_moves": sum(frozenset(pair) in moves for pair in corner),
                "of": len(corner),
            }
        )
    eight = next((r for r in records if (r.n, r.m) == (8, 8)), records[0])
    shown = next(b for b in boards if b["board"] == board_text(eight.n, eight.m))
    joined = next((b for b in boards if not b["base"]), None)
    return {
        "boards": boards,
        "board": board_text(eight.n, eight.m),
        "joined": joined,
        "shown": shown,
        "svg": tour_svg(
            eight.tour(),
            title=f"a closed tour of {board_text(eight.n, eight.m)} with the join property",
            highlight=structured_moves(eight.n, eight.m),
        ),
        "glance": "Four closed quarter tours join by swapping one corner move in each"
        + (f" ({joined['board']} from four {joined['quarter']})" if joined else "")
        + f"; the {shown['board']} tour shown is {'closed' if shown['closed'] else 'NOT closed'}, with "
        f"{shown['corner_moves']} of {shown['of']} corner moves.",
    }
