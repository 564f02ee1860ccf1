"""The answers to the Warnsdorff blog (Wozniak's 10^25 years, an example run, the blog's script, the rule
past m = 50, W+ and W2, and the tie-breaks)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from knight.engine import TIE_BREAKS, Board
from knight.engine.board import Square
from knight.engine.diagrams import tour_svg
from knight.errors import MissingData
from knight.report.answers.common import (
    Failure,
    OneTour,
    StoreData,
    agreement,
    failures,
    failures_text,
    outcome_map,
)
from knight.report.charts import estimates_svg, success_by_size_svg, success_maps_svg
from knight.report.reach import Reach, judge_claims, reach_by_rule, side_ranges
from knight.report.records import EstimateRecord, Results, Summary
from knight.report.text import board_text, power_of_ten, scientific, superscript

__all__ = [
    "CHARTED_RULES",
    "Example",
    "PastFifty",
    "Script",
    "Ties",
    "WPlus",
    "Wozniak",
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
#: The readings of the plain rule's ties W+ and W2 are compared with (not W+ and W2 themselves).
PLAIN_TIES = ("first", "random", "lookahead-min", "roth", "blog")
#: The side up to which the blog says the rule works, and past which it "experiences difficulty".
BLOG_LIMIT = 50


@dataclass(frozen=True)
class Wozniak:
    """The brute force's tree on 8 x 8 measured by Knuth's estimator and timed, against Wozniak's 10^25 years;
    the other boards' estimates checked against exact counts."""

    eight: EstimateRecord
    estimates: list[EstimateRecord]
    rate: float
    chart: str

    @property
    def years_log(self) -> float:
        return math.log10(self.eight.node_mean / self.rate / SECONDS_PER_YEAR)

    @property
    def years(self) -> float:
        return 10**self.years_log

    @property
    def agree(self) -> bool:
        """The search's time is Wozniak's to an order of magnitude."""
        return abs(self.years_log - WOZNIAK_YEARS_LOG10) <= 1

    @property
    def verdict(self) -> str:
        return agreement(self.agree)

    @property
    def moves(self) -> int:
        return self.eight.n * self.eight.m - 1  # the moves of a full tour: the tree's depth

    @property
    def moves_power(self) -> str:
        return superscript(self.moves)  # d⁶³

    @property
    def branching(self) -> float:
        """The d whose d ** moves is the tree's count of nodes: the choices a path has at each move, on average."""
        return 10 ** (math.log10(self.eight.node_mean) / self.moves)

    @property
    def guesses(self) -> list[tuple[int, float]]:
        """The tree's size, as a power of ten, if every square had d = 2 or d = 3 choices."""
        return [(d, self.moves * math.log10(d)) for d in (2, 3)]

    @property
    def sequences_log(self) -> float:
        return self.moves * math.log10(8)  # every move tried, visited squares or not

    @property
    def slow_rate(self) -> int:
        return SLOW_NODES_PER_SECOND

    @property
    def slow_years_log(self) -> float:
        return math.log10(self.eight.node_mean / SLOW_NODES_PER_SECOND / SECONDS_PER_YEAR)

    @property
    def claim_log(self) -> int:
        return WOZNIAK_YEARS_LOG10

    @property
    def too_long_log(self) -> float:
        return WOZNIAK_YEARS_LOG10 - self.years_log

    @property
    def age_ratio_log(self) -> float:
        return self.years_log - math.log10(AGE_OF_THE_UNIVERSE_YEARS)

    @property
    def years_per_node(self) -> float:
        return 10**WOZNIAK_YEARS_LOG10 / self.eight.node_mean

    @property
    def glance(self) -> str:
        return (
            f"About {scientific(self.eight.node_mean, 2)} nodes from the corner (Knuth's estimator, "
            f"{self.eight.probes:,} probes); at {scientific(self.rate)} nodes a second that is about "
            f"{scientific(self.years)} years: our runs {self.verdict} with {power_of_ten(WOZNIAK_YEARS_LOG10)}."
        )


def blog_wozniak(data: StoreData) -> Wozniak:
    estimates = {(e.n, e.m): e for e in data.estimates if e.start == (0, 0)}
    eight = estimates.get((8, 8))
    if eight is None or eight.nodes_per_second is None:
        raise MissingData("no timed estimate of the 8 x 8 tree")
    shown = [e for _, e in sorted(estimates.items())]
    return Wozniak(
        eight=eight,
        estimates=shown,
        rate=eight.nodes_per_second,
        chart=estimates_svg(
            {board_text(e.n, e.m): running_estimate(e) for e in shown},
            spread={board_text(e.n, e.m): e.node_sd / e.node_mean for e in shown if e.node_mean > 0},
            exact={board_text(e.n, e.m): e.exact_nodes for e in shown if e.exact_nodes},
        ),
    )


@dataclass(frozen=True)
class Example(OneTour):
    """Warnsdorff's rule from a start drawn at random among the runs with random ties."""

    start: Square
    seed: int | None
    full: bool
    length: int
    svg: str
    others: list[tuple[str, bool, int]] = field(default_factory=list)  # each tie-break from the same start
    random_runs: int = 0  # every run with random ties on 8 x 8 (every start, every seed) and how many were full
    random_full: int = 0

    @property
    def glance(self) -> str:
        return (
            f"{self.answer}: from {self.start} (random ties, seed {self.seed}) a {self.kind} tour of "
            f"{self.length} squares."
        )


def blog_example(data: StoreData) -> Example:
    random_runs = data.results.require("warnsdorff", 8, 8, tie="random")
    chosen = random.Random(2014).choice(random_runs)  # "start the knight randomly": a seeded draw from the runs
    others = [
        (tie, record.full, record.length)
        for tie in TIE_BREAKS
        if tie != "random"
        for record in data.results.select("warnsdorff", 8, 8, tie=tie)
        if record.start == chosen.start
    ]
    return Example(
        start=chosen.start,
        seed=chosen.params.get("seed"),
        full=chosen.full,
        length=chosen.length,
        svg=tour_svg(chosen.tour(), title="Warnsdorff's rule from a random start"),
        others=others,
        random_runs=len(random_runs),
        random_full=sum(r.full for r in random_runs),
    )


@dataclass(frozen=True)
class Script:
    """The blog's script on 8 x 8 from every start, and from the corner of m x m boards."""

    complete: int
    starts: int
    first_failure: int | None
    largest: int | None  # the largest side it ran on; None when it ran on no board of the size study
    failing: list[int]
    heat: str
    failures: list[Failure] = field(default_factory=list)  # the starts of 8 x 8 it stops short from

    @property
    def failing_starts(self) -> str:
        return failures_text(self.failures)

    @property
    def glance(self) -> str:
        where = (
            f"at m = {self.first_failure}"
            if self.first_failure
            else f"nowhere up to m = {self.largest if self.largest is not None else '—'}"
        )
        # as printed it stops with an error (D6's notes); the figures are the script's once made to run
        return (
            f"As printed it does not run; made to run, it completes from {self.complete} of the {self.starts} squares "
            f"of 8 × 8; from the corner it first fails {where}."
        )


def blog_script(data: StoreData) -> Script:
    results = data.results
    starts = results.by_start("warnsdorff", 8, 8, tie="blog")
    reach = reach_by_rule(results.select("warnsdorff", tie="blog")).get("blog")
    return Script(
        complete=sum(r.full for r in starts.values()),
        starts=len(starts),
        first_failure=reach.first_failure if reach else None,
        largest=reach.sides[-1] if reach else None,
        failing=reach.failing if reach else [],
        heat=outcome_map(Board(8, 8), list(starts.values()), "the blog's script: each start's outcome"),
        failures=failures(starts.values()),
    )


@dataclass(frozen=True)
class RuleReach:
    """How far one rule goes from the corner: the sides it ran, its first failure, its success by range of sides."""

    tie: str
    smallest: int
    largest: int
    runs: int
    first: int | None
    failing: int
    by_range: list[float | None]
    failing_to_limit: int = 0  # sides up to m = 50 where it failed
    failing_past_limit: int = 0  # sides past m = 50 where it failed, of
    sides_past_limit: int = 0

    @property
    def verdict(self) -> str:
        """The blog's claim read for this tie-break: no failure up to m = 50, and difficulty (a failure) past it;
        ``untested`` when it ran on no side past 50."""
        if not self.sides_past_limit:
            return "untested"
        return agreement(self.failing_to_limit == 0 and self.failing_past_limit > 0)

    @property
    def reason(self) -> str:
        """Why, in a few words: which half of the claim fails."""
        if self.failing_to_limit:
            return f"fails on {self.failing_to_limit} sides up to {BLOG_LIMIT}"
        if not self.failing_past_limit:
            return f"never fails past {BLOG_LIMIT}"
        return f"no failure up to {BLOG_LIMIT}, {self.failing_past_limit} past it"


@dataclass(frozen=True)
class EveryStart:
    """A square board run from every start: the share of starts each rule completes from."""

    side: int
    shares: dict[str, float]


@dataclass(frozen=True)
class PastFifty:
    """The plain rule past m = 50 (the blog's claim), every rule's reach, and the literature's other claims."""

    first: int | None
    failing: int
    tested: int
    largest: int
    verdict: str
    below: float | None
    above: float | None
    chart: str
    rules: list[RuleReach]
    ranges: list[str]
    claims: list[dict[str, object]]  # reach.judge_claims's rows: source, rule, statement, ours, verdict
    rectangles: str
    every_start: list[EveryStart]

    @property
    def agreeing(self) -> list[str]:
        """The tie-breaks for which the blog's claim holds on our runs."""
        return [r.tie for r in self.rules if r.verdict == "agree"]

    @property
    def judged(self) -> int:
        """How many tie-breaks the claim could be judged for (each ran past m = 50)."""
        return sum(r.verdict != "untested" for r in self.rules)

    @property
    def agreeing_count(self) -> int:
        return len(self.agreeing)

    @property
    def by_rule(self) -> str:
        """The claim's verdict by tie-break, in a few words: ``agree for first and blog, disagree for 6 others``."""
        judged = [r for r in self.rules if r.verdict != "untested"]
        if not judged:
            return ""
        agree = self.agreeing
        ties = " and ".join([", ".join(agree[:-1]), agree[-1]] if len(agree) > 1 else agree)
        others = len(judged) - len(agree)
        return (f"agree for {ties}" if agree else "agree for none") + (
            f", disagree for the {others} other{'s' if others > 1 else ''}" if others else ""
        )

    @property
    def never_fails(self) -> str:
        """The answer when the plain rule never fails, said in the glance and the section alike."""
        return f"The plain rule never fails from the corner up to m = {self.largest}"

    @property
    def glance(self) -> str:
        return (
            (f"From the corner the plain rule first fails at m = {self.first}" if self.first else self.never_fails)
            + (
                f"; it succeeds on {self.below:.0%} of sides up to 50 and {self.above:.0%} above: our runs {self.verdict}"
                if self.above is not None and self.below is not None
                else f": {self.verdict}"
            )
            + (f" ({self.agreeing_count} of {self.judged} tie-breaks agree)." if self.judged else ".")
        )


def blog_past_50(data: StoreData) -> PastFifty:
    reach = data.reach
    if "first" not in reach:
        raise MissingData("no board-size study")
    first = reach["first"]
    largest = max(r.sides[-1] for r in reach.values())
    width = 5 if largest <= 150 else 25
    ranges = side_ranges(largest)
    claims = judge_claims(reach)
    return PastFifty(
        first=first.first_failure,
        failing=len(first.failing),
        tested=len(first.sides),
        largest=largest,
        verdict=str(next(c["verdict"] for c in claims if c["rule"] == "first")),
        below=first.rate_between(5, 50),
        above=first.rate_between(51, largest),
        chart=success_by_size_svg(
            {tie: reach[tie].binned(width) for tie in CHARTED_RULES if tie in reach},
            title=f"Full tours from the corner, in ranges of {width} sides",
        ),
        rules=[
            RuleReach(
                tie=tie,
                smallest=rule.sides[0],
                largest=rule.sides[-1],
                runs=sum(r for _, r in rule.outcomes.values()),
                first=rule.first_failure,
                failing=len(rule.failing),
                by_range=[rule.rate_between(low, high) for low, high in ranges],
                failing_to_limit=sum(m <= BLOG_LIMIT for m in rule.failing),
                failing_past_limit=sum(m > BLOG_LIMIT for m in rule.failing),
                sides_past_limit=sum(m > BLOG_LIMIT for m in rule.sides),
            )
            for tie, rule in reach.items()
        ],
        ranges=[f"{low}–{high}" for low, high in ranges],
        claims=claims,
        rectangles=_rectangles(data.results),
        every_start=_every_start(data.results),
    )


@dataclass(frozen=True)
class Improved:
    """W+ or W2 against the plain rule, from the corner of the sides past 50 that both ran."""

    name: str
    full: int
    sides: int
    plain_full: int
    failing: int
    tested: int
    first: int | None
    rate: float | None = None  # its share of full runs on the sides past 50
    against: list[Against] = field(default_factory=list)  # against each reading of the plain rule's ties

    @property
    def verdict(self) -> str:
        """Whether it "does better": decided by the counts the table shows."""
        return agreement(self.full > self.plain_full)


@dataclass(frozen=True)
class Against:
    """W+ or W2 against the plain rule with one tie-break, on the sides past 50 both ran: the shares of runs full."""

    tie: str
    rate: float
    ours: float

    @property
    def verdict(self) -> str:
        """ "Does better" with this reading of the plain rule: a higher share of full tours."""
        return agreement(self.ours > self.rate)


@dataclass(frozen=True)
class WPlus:
    """The blog's W+ and W2 past m = 50."""

    rows: list[Improved]
    largest: int

    @property
    def plain_ties(self) -> list[str]:
        """The tie-breaks of the plain rule each row is compared with (the same for every row)."""
        return [a.tie for a in self.rows[0].against] if self.rows else []

    @property
    def glance(self) -> str:
        return (
            "; ".join(
                f"{r.name.split(' ')[0]}: {r.full} of the {r.sides} sides 51–{self.largest} (the plain rule "
                f"{r.plain_full}), our runs {r.verdict}"
                for r in self.rows
            )
            + "."
        )


def _share(rule: Reach, sides: list[int]) -> float:
    """The share of ``rule``'s runs on ``sides`` that gave a full tour (every seed counted)."""
    full = sum(rule.outcomes[m][0] for m in sides)
    return full / sum(rule.outcomes[m][1] for m in sides)


def blog_w_plus(data: StoreData) -> WPlus:
    reach = data.reach
    if "first" not in reach:
        raise MissingData("no board-size study")
    largest = max(r.sides[-1] for r in reach.values())
    plain = reach["first"].rate_between(51, largest)
    rows: list[Improved] = []
    for name, tie in (("W+ (Squirrel–Cull)", W_PLUS), ("W2 (second-level look-ahead)", W_TWO)):
        rule = reach.get(tie)
        if rule is None or plain is None:
            continue
        both = [m for m in rule.sides if 51 <= m <= largest and m in reach["first"].outcomes]  # sides both ran
        if rule.rate_between(51, largest) is None or not both:
            continue
        rows.append(
            Improved(
                name=name,
                full=rule.full_sides(both),
                sides=len(both),
                plain_full=reach["first"].full_sides(both),
                failing=len(rule.failing),
                tested=len(rule.sides),
                first=rule.first_failure,
                rate=_share(rule, both),
                against=[
                    Against(other, _share(reach[other], both), _share(rule, both))
                    for other in PLAIN_TIES
                    if other in reach and all(m in reach[other].outcomes for m in both)
                ],
            )
        )
    if not rows:
        raise MissingData("no runs of W+ or W2 past m = 50")
    return WPlus(rows, largest)


@dataclass(frozen=True)
class TieRate:
    """One tie-break's runs on 8 x 8 and the share of them that are full."""

    tie: str
    meaning: str
    summary: Summary
    rate: float
    failures: list[Failure] = field(default_factory=list)
    outcomes: str = ""  # a small board of each start's outcome, for a tie-break run from every start

    @property
    def failing(self) -> str:
        return failures_text(self.failures)


@dataclass(frozen=True)
class Ties:
    """The tie-breaks compared on 8 x 8; those run from all 64 starts ranked."""

    comparison: list[TieRate]

    @property
    def everywhere(self) -> list[TieRate]:
        return [c for c in self.comparison if c.summary.starts == 64]

    @property
    def best_rate(self) -> float:
        return max(c.rate for c in self.everywhere)

    @property
    def best(self) -> list[TieRate]:
        return [c for c in self.everywhere if c.rate == self.best_rate]

    @property
    def second_level(self) -> TieRate | None:
        return next((c for c in self.everywhere if c.tie == W_TWO), None)

    @property
    def literature_w2(self) -> float:
        return GANZFRIED_W2_ON_8X8

    @property
    def glance(self) -> str:
        others = sorted((c for c in self.everywhere if c.rate < self.best_rate), key=lambda c: -c.rate)
        return (
            f"From all 64 starts: {' and '.join(c.tie for c in self.best)} ({self.best_rate:.0%} full); "
            + ", ".join(f"{c.tie} {c.rate:.0%}" for c in others)
            + "."
        )


def blog_ties(data: StoreData) -> Ties:
    comparison = []
    for tie in TIE_BREAKS:
        records = data.results.select("warnsdorff", 8, 8, tie=tie)
        if records:
            summary = Summary.of(records)
            everywhere = summary.starts == 64
            comparison.append(
                TieRate(
                    tie,
                    TIE_BREAKS[tie],
                    summary,
                    summary.full / len(records),
                    failures(records),
                    outcome_map(Board(8, 8), records, f"{tie}: each start's outcome")
                    if everywhere and summary.full < len(records)
                    else "",
                )
            )
    ties = Ties(comparison)
    if not ties.everywhere:
        raise MissingData("no tie-break run from every start of 8 x 8")
    return ties


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


def _every_start(results: Results) -> list[EveryStart]:
    """For square boards run from every start: the share of starts from which each rule finds a full tour."""
    rows: dict[int, dict[str, list[bool]]] = {}
    for record in results.select("warnsdorff"):
        if record.n == record.m and record.params["tie"] in ("first", "lookahead-min", "lookahead-sum", "roth"):
            rows.setdefault(record.n, {}).setdefault(record.params["tie"], []).append(record.full)
    return [
        EveryStart(side, {tie: sum(runs) / len(runs) for tie, runs in by_tie.items()})
        for side, by_tie in sorted(rows.items())
        if all(len(runs) == side * side for runs in by_tie.values()) and len(by_tie) == 4
    ]


def running_estimate(found: EstimateRecord) -> tuple[list[int], list[float]]:
    """An estimate's running mean of nodes at each checkpoint (powers of ten of probes), ending with the estimate
    from every probe (a last point of its own when the probes are not a power of ten)."""
    before = [c for c in found.checkpoints if c.probes < found.probes]
    return [*(c.probes for c in before), found.probes], [*(c.node_mean for c in before), found.node_mean]
