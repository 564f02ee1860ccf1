"""The report's template context: every number, table and picture, computed from stored results.

One function per source document. Nothing here is typed in by hand except the questions'
own parameters (which boards and starts a document asks about).
"""

from __future__ import annotations

import random
from statistics import mean
from typing import Any

import numpy as np

from knight.engine import HORIZONTAL, METHODS, TIE_BREAKS, VERTICAL, Board
from knight.engine.backtrack import ORDERINGS
from knight.engine.board import Square
from knight.engine.parberry import structured_moves
from knight.report.charts import histogram_svg, success_by_size_svg, success_maps_svg
from knight.report.diagrams import empty_board_svg, heat_map_svg, tour_svg
from knight.report.reach import judge_claims, reach_by_rule, side_ranges
from knight.engine.theory import colour_counts, open_tour_verdict
from knight.report.records import CensusRecord, Record, Results, Summary

#: The "4 different initial squares" Homework #8 asks for on 6 x 6 and 8 x 8: a corner, an
#: edge square, and two inner squares, each from a different symmetry class.
FOUR_STARTS: dict[int, list[Square]] = {6: [(0, 0), (0, 1), (1, 2), (2, 2)], 8: [(0, 0), (0, 1), (1, 2), (3, 3)]}
HOMEWORK_SIZES = (5, 6, 8)
CORNERS_8 = [(0, 0), (0, 7), (7, 0), (7, 7)]
#: The boards the backtracking questions are answered on.
EIFFEL_SIZES = (5, 6, 8)


def handout_context() -> dict[str, Any]:
    """What the student handout shows: the methods, the conventions and empty boards; no results."""
    return {
        "appendix": appendix_section(),
        "worksheets": {size: empty_board_svg(Board(size, size)) for size in HOMEWORK_SIZES},
        "homework_sizes": HOMEWORK_SIZES,
    }


def build_context(results: Results, censuses: list[CensusRecord]) -> dict[str, Any]:
    """Everything the answer key shows, from the stored tours and censuses; raises :class:`MissingData`
    naming the job to run."""
    return {
        **handout_context(),
        "deitel": deitel_section(results),
        "homework": homework_section(results),
        "eiffel": eiffel_section(results),
        "census": census_section(results, censuses),
        "blog": blog_section(results),
        "provenance": provenance(results),
    }


def provenance(results: Results) -> list[dict[str, Any]]:
    """Which runs the numbers come from: every job found in the store, with its stored tours."""
    counts: dict[str, int] = {}
    for record in results.records:
        for job in record.jobs:
            counts[job] = counts.get(job, 0) + 1
    return [{"job": job, "tours": count} for job, count in sorted(counts.items())]


# --- Deitel 7.24 ----------------------------------------------------------------------------------

def deitel_section(results: Results) -> dict[str, Any]:
    board = Board(8, 8)
    naive = results.by_start("naive", 8, 8)
    corner = naive[(0, 0)]
    moves = [record.length - 1 for record in naive.values()]
    warnsdorff = results.by_start("warnsdorff", 8, 8, tie="first")
    static = results.by_start("static", 8, 8)
    rules = [("naive", "first legal move (no heuristic)", list(naive.values())),
             ("static", "accessibility table of the empty board, never updated", list(static.values()))]
    rules += [(f"warnsdorff, tie {tie}", TIE_BREAKS[tie], list(results.by_start("warnsdorff", 8, 8, tie=tie).values()))
              for tie in TIE_BREAKS if tie != "random" and not tie.startswith("squirrel") and results.select("warnsdorff", 8, 8, tie=tie)]
    return {
        "naive_corner": {"moves": corner.length - 1, "squares": corner.length, "svg": tour_svg(corner.tour())},
        "naive_moves": {
            "min": min(moves), "max": max(moves), "mean": mean(moves), "starts": len(moves),
            "never_full": all(not r.full for r in naive.values()),
            "histogram": histogram_svg(moves, title="Moves made by the naive knight, by start square",
                                       xlabel="moves before the knight is stuck"),
            "heat": heat_map_svg(board, _grid(board, naive, lambda r: r.length - 1),
                                 title="naive: moves made from each start"),
        },
        "accessibility": board.accessibility().tolist(),
        "corners": [{"start": start, "full": warnsdorff[start].full, "length": warnsdorff[start].length,
                     "static_full": static[start].full, "static_length": static[start].length}
                    for start in CORNERS_8],
        "corner_svg": tour_svg(warnsdorff[(0, 0)].tour(), title="Warnsdorff from the top-left corner"),
        "rules": [{"name": name, "meaning": meaning, "summary": Summary.of(records)} for name, meaning, records in rules],
        "static": Summary.of(list(static.values())),
        "warnsdorff": Summary.of(list(warnsdorff.values())),
        "lookahead": Summary.of(list(results.by_start("warnsdorff", 8, 8, tie="lookahead-min").values())),
        "static_heat": heat_map_svg(board, _grid(board, static, lambda r: r.length),
                                    title="static table: squares reached from each start", low=1, high=64),
        "warnsdorff_heat": heat_map_svg(board, _grid(board, warnsdorff, lambda r: r.length),
                                        title="updated table: squares reached from each start", low=1, high=64),
    }


# --- Homework #8 ----------------------------------------------------------------------------------

def homework_section(results: Results) -> dict[str, Any]:
    return {"boards": [_homework_board(results, size) for size in HOMEWORK_SIZES]}


def _homework_board(results: Results, size: int) -> dict[str, Any]:
    board = Board(size, size)
    first = results.by_start("warnsdorff", size, size, tie="first")
    failures = [record for record in first.values() if not record.full]
    minority = board.minority_colour()
    rules = []
    for tie in TIE_BREAKS:
        records = results.select("warnsdorff", size, size, tie=tie)
        if records:
            rules.append({"tie": tie, "summary": Summary.of(records),
                          "seeds": len({r.params.get("seed") for r in records}) if tie == "random" else None})
    return {
        "size": size,
        "squares": board.size,
        "symmetries": len(board.symmetries()),
        "summary": Summary.of(list(first.values())),
        "rules": rules,
        "heat": heat_map_svg(board, _grid(board, first, lambda r: r.length),
                             title=f"{board}: squares reached from each start", low=1, high=board.size),
        "failures": [{"start": r.start, "length": r.length, "minority": board.colour(r.start) == minority,
                      "array": r.tour().array().tolist()} for r in failures],
        "failures_on_minority": sum(board.colour(r.start) == minority for r in failures),
        "odd": board.size % 2 == 1,
        "four": [{"start": start, "full": first[start].full, "closed": first[start].closed,
                  "length": first[start].length} for start in FOUR_STARTS.get(size, [])],
        "four_summary": Summary.of([first[start] for start in FOUR_STARTS[size]]) if size in FOUR_STARTS else None,
        "example_svg": tour_svg(first[(0, 0)].tour(), title=f"{board} from the corner"),
    }


# --- The Eiffel text: backtracking ------------------------------------------------------------------

def eiffel_section(results: Results) -> dict[str, Any]:
    first_tours = []
    for record in results.select("backtrack", closed=False):
        if record.start == (0, 0) and record.n == record.m and record.n in EIFFEL_SIZES and record.full:
            first_tours.append({"board": f"{record.n}x{record.m}", "order": record.params["order"],
                                "nodes": record.work, "svg": tour_svg(record.tour(), title=(
                                    f"first tour found on {record.n}x{record.m}, {record.params['order']} order"))})
    first_tours.sort(key=lambda t: (int(t["board"].split("x")[0]), t["order"]))

    five = results.by_start("backtrack", 5, 5, order="plain", closed=False)
    board5 = Board(5, 5)
    proven_none = [r for r in five.values() if not r.full and not r.budget_exhausted]
    closed_tours = [{"board": f"{r.n}x{r.m}", "order": r.params["order"], "nodes": r.work, "closed": r.closed,
                     "svg": tour_svg(r.tour(), title=f"closed tour on {r.n}x{r.m}")}
                    for r in results.select("backtrack", closed=True)
                    if r.start == (0, 0) and r.n in EIFFEL_SIZES and r.success]
    return {
        "first_tours": first_tours,
        "five": {
            "starts": len(five), "found": sum(r.full for r in five.values()), "proven_none": len(proven_none),
            "out_of_budget": sum(r.budget_exhausted for r in five.values()),
            "proven_none_minority": sum(board5.colour(r.start) == 1 for r in proven_none),
            "minority_squares": sum(board5.colour(s) == 1 for s in five),
            "nodes_total": sum(r.work for r in five.values()),
            "heat": heat_map_svg(board5, _grid(board5, five, lambda r: float(r.full)),
                                 title="5x5: 1 where backtracking found a tour", label_format="{:.0f}", low=0, high=1),
        },
        "closed_tours": closed_tours,
        "colouring": _colouring_check(results),
        "parberry": _parberry(results),
    }


def census_section(results: Results, censuses: list[CensusRecord]) -> dict[str, Any]:
    """Try_All: every tour counted (from the census runs in the store), set beside what the heuristics found."""
    complete = [c for c in censuses if c.total is not None]
    whole = [c for c in complete if not c.removed and c.starts is None]
    open_boards = []
    for c in (c for c in whole if not c.closed):
        board = Board(c.n, c.m)
        full = [r for r in results.select(n=c.n, m=c.m) if r.full and r.method != "backtrack"]
        by_method: dict[str, set[str]] = {}
        for r in full:
            by_method.setdefault(r.method if r.method != "warnsdorff" else f"warnsdorff {r.params['tie']}",
                                 set()).add(r.key_directed)
        grid = np.full((c.n, c.m), np.nan)
        for start, count in c.counts.items():
            grid[start] = count
        open_boards.append({
            "board": f"{c.n}x{c.m}", "total": c.total, "undirected": c.undirected, "nodes": c.nodes,
            "corner": c.counts.get((0, 0)), "found": len({r.key_directed for r in full}),
            "by_method": sorted(((name, len(keys)) for name, keys in by_method.items()), key=lambda x: -x[1]),
            "heat": heat_map_svg(board, grid, title=f"{board}: open tours from each start",
                                 label_format="{:,.0f}") if c.n * c.m <= 64 else "",
        })
    closed_boards = []
    for c in (c for c in whole if c.closed):
        found = {r.tour().key_cycle for r in results.select("backtrack", c.n, c.m, closed=True) if r.success}
        closed_boards.append({"board": f"{c.n}x{c.m}", "directed": c.total, "cycles": c.undirected,
                              "symmetric": c.symmetric, "nodes": c.nodes, "found": len(found)})
    mutilated = []
    for c in (c for c in complete if c.removed):
        board = Board(c.n, c.m)
        first, second = colour_counts(board, c.removed)
        mutilated.append({"board": f"{c.n}x{c.m}", "removed": list(c.removed), "colours": (first, second),
                          "theory": str(open_tour_verdict(board, removed=c.removed)), "total": c.total,
                          "nodes": c.nodes})
    return {"open": open_boards, "closed": closed_boards, "mutilated": mutilated,
            "incomplete": [f"{c.n}x{c.m}" for c in censuses if c.total is None],
            "eight_mutilated": str(open_tour_verdict(Board(8, 8), removed=[(0, 0), (7, 7)]))}


def _colouring_check(results: Results) -> list[dict[str, Any]]:
    """Runs from minority-colour starts on odd boards, and how many gave a full tour: the boards up to
    9 x 9 one by one, then all odd boards in the store together."""
    rows, runs, full, boards = [], 0, 0, 0
    for n, m in sorted({(r.n, r.m) for r in results.records if (r.n * r.m) % 2 == 1}):
        minority = [r for r in results.select(n=n, m=m) if (r.start[0] + r.start[1]) % 2 == 1]
        if not minority:
            continue
        boards, runs, full = boards + 1, runs + len(minority), full + sum(r.full for r in minority)
        if n * m <= 81:
            rows.append({"board": f"{n}x{m}", "runs": len(minority), "full": sum(r.full for r in minority),
                         "squares": sum(1 for s in range(n * m) if sum(divmod(s, m)) % 2 == 1)})
    if boards > len(rows):
        rows.append({"board": f"all {boards} odd boards", "runs": runs, "full": full, "squares": "—"})
    return rows


def _parberry(results: Results) -> dict[str, Any] | None:
    """Parberry's structured closed tours in the store: the 8 x 8 one drawn, every board's join property checked."""
    records = [r for r in results.select("parberry") if r.moves]
    if not records:
        return None
    boards = []
    for record in records:
        tour = record.tour()
        moves = {frozenset(pair) for pair in zip(tour.squares, tour.squares[1:] + tour.squares[:1])}
        corner = structured_moves(record.n, record.m)
        boards.append({"board": f"{record.n}x{record.m}", "closed": record.closed,
                       "corner_moves": sum(frozenset(pair) in moves for pair in corner), "of": len(corner)})
    eight = next((r for r in records if (r.n, r.m) == (8, 8)), records[0])
    return {"boards": boards, "svg": tour_svg(eight.tour(), title=f"Parberry's closed tour of {eight.n}x{eight.m}",
                                               highlight=structured_moves(eight.n, eight.m)),
            "board": f"{eight.n}x{eight.m}"}


# --- The Warnsdorff blog ----------------------------------------------------------------------------

def blog_section(results: Results) -> dict[str, Any]:
    random_runs = results.require("warnsdorff", 8, 8, tie="random")
    chosen = random.Random(2014).choice(random_runs)  # "start the knight randomly": a seeded draw from the runs
    comparison = []
    for tie in TIE_BREAKS:
        records = results.select("warnsdorff", 8, 8, tie=tie)
        if records:
            comparison.append({"tie": tie, "meaning": TIE_BREAKS[tie], "summary": Summary.of(records)})
    return {
        "random_tour": {"start": chosen.start, "seed": chosen.params.get("seed"), "full": chosen.full,
                        "length": chosen.length, "svg": tour_svg(chosen.tour(), title="a tour from a random start")},
        "comparison": comparison,
        "sizes": _size_study(results),
    }


def _size_study(results: Results) -> dict[str, Any]:
    """Success from the corner against board side, per tie-break, and the literature's claims judged."""
    reach = reach_by_rule(results.records)
    if not reach:
        return {"chart": "", "rules": [], "claims": [], "first_rule": None}
    largest = max(r.sides[-1] for r in reach.values())
    width = 5 if largest <= 150 else 25
    series = {tie: rule.binned(width) for tie, rule in reach.items()}
    chart = success_by_size_svg(series, title=f"Full tours from the corner, in ranges of {width} sides")
    ranges = side_ranges(largest)
    rules = [{"tie": tie, "tested": len(rule.sides), "smallest": rule.sides[0], "largest": rule.sides[-1],
              "runs": sum(r for _, r in rule.outcomes.values()), "first": rule.first_failure,
              "failing": len(rule.failing), "failing_list": rule.failing[:12], "last_success": rule.last_success,
              "by_range": [rule.rate_between(low, high) for low, high in ranges]}
             for tie, rule in reach.items()]
    return {"chart": chart, "width": width, "rules": rules, "largest": largest,
            "rectangles": _rectangles(results), "every_start": _every_start(results), "ranges": [f"{low}–{high}" for low, high in ranges],
            "claims": judge_claims(reach), "first_rule": next((r for r in rules if r["tie"] == "first"), None)}


def _rectangles(results: Results) -> str:
    """Where each rule finds a tour from the corner of an n × m board with n < m (a map per rule), or ''."""
    maps: dict[str, dict[tuple[int, int], bool]] = {}
    for record in results.select("warnsdorff"):
        if record.n < record.m and record.start == (0, 0) and record.params["tie"] != "random":
            maps.setdefault(record.params["tie"], {})[(record.n, record.m)] = record.full
    maps = {tie: outcome for tie, outcome in maps.items() if len(outcome) >= 20}
    return success_maps_svg(maps, title="Full tours from the corner of n × m boards (green: found)") if maps else ""


def _every_start(results: Results) -> list[dict[str, Any]]:
    """For square boards run from every start: the share of starts from which each rule finds a full tour."""
    rows: dict[int, dict[str, list[bool]]] = {}
    for record in results.select("warnsdorff"):
        if record.n == record.m and record.params["tie"] in ("first", "lookahead-min", "lookahead-sum", "roth"):
            rows.setdefault(record.n, {}).setdefault(record.params["tie"], []).append(record.full)
    return [{"side": side, "starts": side * side,
             "shares": {tie: sum(runs) / len(runs) for tie, runs in by_tie.items()}}
            for side, by_tie in sorted(rows.items())
            if all(len(runs) == side * side for runs in by_tie.values()) and len(by_tie) == 4]


# --- Appendix ---------------------------------------------------------------------------------------

def appendix_section() -> dict[str, Any]:
    return {
        "methods": [{"name": m.name, "summary": m.summary, "reference": m.reference, "parameters": m.parameters}
                    for m in METHODS.values()],
        "ties": TIE_BREAKS,
        "orderings": ORDERINGS,
        "horizontal": list(HORIZONTAL),
        "vertical": list(VERTICAL),
    }


def _grid(board: Board, by_start: dict[Square, Record], value: Any) -> np.ndarray:
    grid = np.full((board.n, board.m), np.nan)
    for start, record in by_start.items():
        grid[start] = value(record)
    return grid
