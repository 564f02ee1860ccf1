"""The answers to Deitel's exercise 7.24 (the knight's tour by hand, by the first legal move, by the
accessibility heuristic, and from all 64 starts)."""

from __future__ import annotations

from statistics import median
from typing import Any

import numpy as np

from knight.engine import TIE_BREAKS, Board
from knight.engine.diagrams import heat_map_svg, tour_svg
from knight.report.answers.common import StoreData, count_words, reached_map, start_grid
from knight.report.charts import distributions_svg
from knight.report.records import Summary

__all__ = ["deitel_64_tours", "deitel_by_hand", "deitel_heuristic", "deitel_naive"]

#: The four corners of 8 x 8, each asked about by the heuristic's question.
CORNERS_8 = [(0, 0), (0, 7), (7, 0), (7, 7)]


def deitel_by_hand(data: StoreData) -> dict[str, Any]:
    """The yardstick for a tour by hand: how far a knight gets with no rule (naive and random walks)."""
    naive = [r.length for r in data.results.by_start("naive", 8, 8).values()]
    walks = data.results.require("random-walk", 8, 8)
    random_lengths = [r.length for r in walks]
    seeds = len({r.params.get("seed") for r in walks})
    chart = distributions_svg(
        {"first legal move (64 starts)": naive, f"random legal move ({len(walks):,} walks)": random_lengths},
        xlabel="squares numbered before the knight is stuck (of 64)",
        ylabel="share of walks this far",
    )
    quartiles = np.percentile(random_lengths, [25, 50, 75])
    full = sum(r.full for r in walks)
    return {
        "naive": {"median": median(naive), "min": min(naive), "max": max(naive)},
        "random": {
            "walks": len(walks),
            "seeds": seeds,
            "starts": len({r.start for r in walks}),
            "median": median(random_lengths),
            "q1": quartiles[0],
            "q3": quartiles[2],
            "min": min(random_lengths),
            "max": max(random_lengths),
            "full": full,
            "over_50": sum(n > 50 for n in random_lengths),
        },
        "chart": chart,
        "glance": f"With no rule a knight numbers about {median(random_lengths):.0f} of 64 squares (median of "
        f"{len(walks):,} random walks, {min(random_lengths)}–{max(random_lengths)}); the first-legal-move "
        f"knight {median(naive):.0f} (median of {len(naive)} starts).",
    }


def deitel_naive(data: StoreData) -> dict[str, Any]:
    board = Board(8, 8)
    naive = data.results.by_start("naive", 8, 8)
    corner = naive[(0, 0)]
    moves = [record.length - 1 for record in naive.values()]
    full = sum(r.full for r in naive.values())
    return {
        "corner": {
            "moves": corner.length - 1,
            "squares": corner.length,
            "svg": tour_svg(corner.tour(), title="the first script's knight from (0, 0)"),
        },
        "moves": {
            "min": min(moves),
            "max": max(moves),
            "mean": sum(moves) / len(moves),
            "starts": len(moves),
            "full": full,
        },
        "heat": heat_map_svg(
            board, start_grid(board, naive, lambda r: r.length - 1), title="moves made from each start"
        ),
        "glance": f"{corner.length - 1} moves from (0, 0) ({corner.length} squares); between {min(moves)} and "
        f"{max(moves)} from the {len(moves)} starts; {count_words(full, 'full tour')}.",
    }


def deitel_heuristic(data: StoreData) -> dict[str, Any]:
    updated = data.results.by_start("warnsdorff", 8, 8, tie="first")
    corners = [
        {"start": start, "full": updated[start].full, "length": updated[start].length}
        for start in CORNERS_8
        if start in updated
    ]
    corner = updated[(0, 0)]
    full_corners = [c["start"] for c in corners if c["full"]]
    return {
        "corners": corners,
        "corner_full": corner.full,
        "corner_svg": tour_svg(corner.tour(), title="the accessibility heuristic from (0, 0)"),
        "glance": f"{'Yes' if corner.full else 'No'}: from (0, 0) the tour visits {corner.length} of 64 squares; "
        f"full from {len(full_corners)} of the 4 corners.",
    }


def deitel_64_tours(data: StoreData) -> dict[str, Any]:
    results = data.results
    board = Board(8, 8)
    updated = results.by_start("warnsdorff", 8, 8, tie="first")
    static = results.by_start("static", 8, 8)
    static6 = results.by_start("static", 6, 6)
    rules = [
        ("first legal move", "no heuristic (the first script)", results.select("naive", 8, 8)),
        ("static table", "the empty board's accessibility, never updated", list(static.values())),
        ("updated table", "Warnsdorff's rule, ties by move order", list(updated.values())),
    ]
    rules += [
        (f"updated, ties: {tie}", TIE_BREAKS[tie], results.select("warnsdorff", 8, 8, tie=tie))
        for tie in ("lookahead-min", "random")
        if results.select("warnsdorff", 8, 8, tie=tie)
    ]
    w, s8, s6 = (
        Summary.of(list(updated.values())),
        Summary.of(list(static.values())),
        Summary.of(list(static6.values())),
    )
    return {
        "updated": w,
        "static": s8,
        "static6": s6,
        "rules": [
            {"name": name, "meaning": meaning, "summary": Summary.of(records)} for name, meaning, records in rules
        ],
        "static_heat": reached_map(board, static, "static table: squares reached from each start"),
        "glance": f"{w.full} of {w.starts} with the table updated; {s8.full} of {s8.starts} with the static table "
        f"({s6.full} of {s6.starts} on 6 × 6).",
    }
