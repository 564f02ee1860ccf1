"""The answers to the Warnsdorff blog (Wozniak's 10^25 years, an example run, the blog's script, the rule
past m = 50, W+ and W2, and the tie-breaks)."""

from __future__ import annotations

import math
import random
from typing import Any

from knight.engine import TIE_BREAKS, Board
from knight.engine.diagrams import tour_svg
from knight.errors import MissingData
from knight.report.answers.common import StoreData, reached_map
from knight.report.charts import estimates_svg, success_by_size_svg, success_maps_svg
from knight.report.reach import judge_claims, reach_by_rule, side_ranges
from knight.report.records import EstimateRecord, Results, Summary
from knight.report.text import board_text, power_of_ten, scientific, superscript

__all__ = [
    "CHARTED_RULES",
    "blog_example",
    "blog_past_50",
    "blog_script",
    "blog_ties",
    "blog_w_plus",
    "blog_wozniak",
    "running_estimate",
]

#: Wozniak's figure, as the blog gives it.
WOZNIAK_YEARS_LOG10 = 25
#: A computer of Wozniak's day, for comparison: about ten thousand nodes a second (an order of magnitude).
SLOW_NODES_PER_SECOND = 10_000
#: Ganzfried 2004 (../shared/literature): the second-level rule with random final ties completes from 67% of 8 x 8.
GANZFRIED_W2_ON_8X8 = 0.67
AGE_OF_THE_UNIVERSE_YEARS = 13.82e9
SECONDS_PER_YEAR = 365.25 * 24 * 3600
#: The rules the board-size chart draws (the table beside it gives every rule): more lines would not read.
CHARTED_RULES = ("first", "lookahead-sum", "roth", "squirrel")
#: The blog's W+ and W2, as we read them (see the methods appendix).
W_PLUS, W_TWO = "squirrel", "lookahead-sum"


def blog_wozniak(data: StoreData) -> dict[str, Any]:
    estimates = {(e.n, e.m): e for e in data.estimates if e.start == (0, 0)}
    eight = estimates.get((8, 8))
    if eight is None or eight.nodes_per_second is None:
        raise MissingData("no timed estimate of the 8 x 8 tree")
    rate = eight.nodes_per_second
    years_log = math.log10(eight.node_mean / rate / SECONDS_PER_YEAR)
    moves = eight.n * eight.m - 1  # the moves of a full tour: the tree's depth
    agree = abs(years_log - WOZNIAK_YEARS_LOG10) <= 1
    shown = [e for _, e in sorted(estimates.items())]
    return {
        "eight": eight,
        "estimates": shown,
        "rate": rate,
        "years_log": years_log,
        "years": 10**years_log,
        "nodes_log": math.log10(eight.node_mean),
        "moves": moves,
        "moves_power": superscript(moves),  # d⁶³
        # the same count from d choices at each of the moves: d ** moves = nodes
        "branching": 10 ** (math.log10(eight.node_mean) / moves),
        "guesses": [(d, moves * math.log10(d)) for d in (2, 3)],
        "sequences_log": moves * math.log10(8),  # every move tried, visited squares or not
        "slow_rate": SLOW_NODES_PER_SECOND,
        "slow_years_log": math.log10(eight.node_mean / SLOW_NODES_PER_SECOND / SECONDS_PER_YEAR),
        "agree": agree,
        "too_long_log": WOZNIAK_YEARS_LOG10 - years_log,
        "claim_log": WOZNIAK_YEARS_LOG10,
        "age_ratio_log": years_log - math.log10(AGE_OF_THE_UNIVERSE_YEARS),
        "chart": estimates_svg(
            {board_text(e.n, e.m): running_estimate(e) for e in shown},
            spread={board_text(e.n, e.m): e.node_sd / e.node_mean for e in shown if e.node_mean > 0},
            exact={board_text(e.n, e.m): e.exact_nodes for e in shown if e.exact_nodes},
        ),
        "years_per_node": 10**WOZNIAK_YEARS_LOG10 / eight.node_mean,
        "glance": f"About {scientific(eight.node_mean, 2)} nodes from the corner (Knuth's estimator, "
        f"{eight.probes:,} probes); at {scientific(rate)} nodes a second that is about "
        f"{scientific(10**years_log)} years: our runs "
        f"{'agree' if agree else 'disagree'} with {power_of_ten(WOZNIAK_YEARS_LOG10)}.",
    }


def blog_example(data: StoreData) -> dict[str, Any]:
    random_runs = data.results.require("warnsdorff", 8, 8, tie="random")
    chosen = random.Random(2014).choice(random_runs)  # "start the knight randomly": a seeded draw from the runs
    return {
        "start": chosen.start,
        "seed": chosen.params.get("seed"),
        "full": chosen.full,
        "length": chosen.length,
        "svg": tour_svg(chosen.tour(), title="Warnsdorff's rule from a random start"),
        "glance": f"{'Yes' if chosen.full else 'No'}: from {chosen.start} (random ties, seed "
        f"{chosen.params.get('seed')}) a {'full' if chosen.full else 'partial'} tour of "
        f"{chosen.length} squares.",
    }


def blog_script(data: StoreData) -> dict[str, Any]:
    results = data.results
    starts = results.by_start("warnsdorff", 8, 8, tie="blog")
    complete = sum(r.full for r in starts.values())
    reach = reach_by_rule(results.select("warnsdorff", tie="blog")).get("blog")
    first = reach.first_failure if reach else None
    failing = reach.failing if reach else []
    board = Board(8, 8)
    return {
        "complete": complete,
        "starts": len(starts),
        "first_failure": first,
        "largest": reach.sides[-1] if reach else None,
        "failing": failing,
        "heat": reached_map(board, starts, "the blog's script: squares reached from each start"),
        "glance": f"It completes from {complete} of the {len(starts)} squares of 8 × 8; from the corner it first fails "
        + (f"at m = {first}" if first else f"nowhere up to m = {reach.sides[-1] if reach else '—'}")
        + ".",
    }


def blog_past_50(data: StoreData) -> dict[str, Any]:
    reach = data.reach
    if "first" not in reach:
        raise MissingData("no board-size study")
    first = reach["first"]
    largest = max(r.sides[-1] for r in reach.values())
    width = 5 if largest <= 150 else 25
    chart = success_by_size_svg(
        {tie: reach[tie].binned(width) for tie in CHARTED_RULES if tie in reach},
        title=f"Full tours from the corner, in ranges of {width} sides",
    )
    ranges = side_ranges(largest)
    rules = [
        {
            "tie": tie,
            "tested": len(rule.sides),
            "smallest": rule.sides[0],
            "largest": rule.sides[-1],
            "runs": sum(r for _, r in rule.outcomes.values()),
            "first": rule.first_failure,
            "failing": len(rule.failing),
            "by_range": [rule.rate_between(low, high) for low, high in ranges],
        }
        for tie, rule in reach.items()
    ]
    claims = judge_claims(reach)
    verdict = next(c["verdict"] for c in claims if c["rule"] == "first")
    below, above = first.rate_between(5, 50), first.rate_between(51, largest)
    return {
        "first": first.first_failure,
        "failing": len(first.failing),
        "tested": len(first.sides),
        "largest": largest,
        "verdict": verdict,
        "below": below,
        "above": above,
        "chart": chart,
        "rules": rules,
        "ranges": [f"{low}–{high}" for low, high in ranges],
        "claims": claims,
        "rectangles": _rectangles(data.results),
        "every_start": _every_start(data.results),
        "glance": (
            f"From the corner the plain rule first fails at m = {first.first_failure}"
            if first.first_failure
            else f"The plain rule never fails from the corner up to m = {largest}"
        )
        + (
            f"; it succeeds on {below:.0%} of sides up to 50 and {above:.0%} above: our runs {verdict}."
            if above is not None
            else f": {verdict}."
        ),
    }


def blog_w_plus(data: StoreData) -> dict[str, Any]:
    reach = data.reach
    if "first" not in reach:
        raise MissingData("no board-size study")
    largest = max(r.sides[-1] for r in reach.values())
    plain = reach["first"].rate_between(51, largest)
    rows: list[dict[str, Any]] = []
    for name, tie in (("W+ (Squirrel–Cull)", W_PLUS), ("W2 (second-level look-ahead)", W_TWO)):
        rule = reach.get(tie)
        if rule is None or plain is None:
            continue
        rate = rule.rate_between(51, largest)
        both = [m for m in rule.sides if 51 <= m <= largest and m in reach["first"].outcomes]  # sides both ran
        if rate is None or not both:
            continue
        full, plain_full = rule.full_sides(both), reach["first"].full_sides(both)
        rows.append(
            {
                "name": name,
                "tie": tie,
                "rate": rate,
                "full": full,
                "sides": len(both),
                "plain": plain,
                "plain_full": plain_full,
                "failing": len(rule.failing),
                "tested": len(rule.sides),
                "first": rule.first_failure,
                "verdict": "agree" if full > plain_full else "disagree",  # decided by the counts the table shows
            }
        )
    if not rows:
        raise MissingData("no runs of W+ or W2 past m = 50")
    return {
        "rows": rows,
        "largest": largest,
        "glance": "; ".join(
            f"{r['name'].split(' ')[0]}: {r['full']} of the {r['sides']} sides 51–{largest} (the plain rule "
            f"{r['plain_full']}), our runs {r['verdict']}"
            for r in rows
        )
        + ".",
    }


def blog_ties(data: StoreData) -> dict[str, Any]:
    comparison: list[dict[str, Any]] = []
    for tie in TIE_BREAKS:
        records = data.results.select("warnsdorff", 8, 8, tie=tie)
        if records:
            comparison.append(
                {
                    "tie": tie,
                    "meaning": TIE_BREAKS[tie],
                    "summary": Summary.of(records),
                    "rate": Summary.of(records).full / len(records),
                }
            )
    everywhere = [c for c in comparison if c["summary"].starts == 64]
    if not everywhere:
        raise MissingData("no tie-break run from every start of 8 x 8")
    top = max(c["rate"] for c in everywhere)
    best = [c for c in everywhere if c["rate"] == top]
    others = sorted((c for c in everywhere if c["rate"] < top), key=lambda c: -c["rate"])
    second_level = next((c for c in everywhere if c["tie"] == W_TWO), None)
    return {
        "comparison": comparison,
        "second_level": second_level,
        "literature_w2": GANZFRIED_W2_ON_8X8,
        "best": best,
        "best_rate": top,
        "glance": f"From all 64 starts: {' and '.join(c['tie'] for c in best)} ({top:.0%} full); "
        + ", ".join(f"{c['tie']} {c['rate']:.0%}" for c in others)
        + ".",
    }


def _rectangles(results: Results) -> str:
    """Where each rule finds a tour from the corner of an n × m board with n < m (a map per rule), or ''."""
    maps: dict[str, dict[tuple[int, int], bool]] = {}
    for record in results.select("warnsdorff"):
        if record.n < record.m and record.start == (0, 0) and record.params["tie"] != "random":
            maps.setdefault(record.params["tie"], {})[(record.n, record.m)] = record.full
    maps = {tie: outcome for tie, outcome in maps.items() if len(outcome) >= 20}
    return (
        success_maps_svg(maps, title="Full tours from the corner of n × m boards (dark: found, light: not found)")
        if maps
        else ""
    )


def _every_start(results: Results) -> list[dict[str, Any]]:
    """For square boards run from every start: the share of starts from which each rule finds a full tour."""
    rows: dict[int, dict[str, list[bool]]] = {}
    for record in results.select("warnsdorff"):
        if record.n == record.m and record.params["tie"] in ("first", "lookahead-min", "lookahead-sum", "roth"):
            rows.setdefault(record.n, {}).setdefault(record.params["tie"], []).append(record.full)
    return [
        {"side": side, "starts": side * side, "shares": {tie: sum(runs) / len(runs) for tie, runs in by_tie.items()}}
        for side, by_tie in sorted(rows.items())
        if all(len(runs) == side * side for runs in by_tie.values()) and len(by_tie) == 4
    ]


def running_estimate(found: EstimateRecord) -> tuple[list[int], list[float]]:
    """An estimate's running mean of nodes at each checkpoint (powers of ten of probes), ending with the estimate
    from every probe (a last point of its own when the probes are not a power of ten)."""
    before = [c for c in found.checkpoints if c.probes < found.probes]
    return [*(c.probes for c in before), found.probes], [*(c.node_mean for c in before), found.node_mean]
