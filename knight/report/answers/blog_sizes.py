"""The Warnsdorff blog's board-size answers: does the rule have difficulty past m = 50 (D3), and do W+ and W2
do better (D4), each claim judged per reading of the rule's ties."""

from __future__ import annotations

from dataclasses import dataclass, field

from knight.errors import MissingData
from knight.report.answers.blog import W_PLUS, W_TWO
from knight.report.answers.common import StoreData, agreement
from knight.report.charts import success_by_size_svg, success_maps_svg
from knight.report.reach import Reach, judge_claims, side_ranges
from knight.report.records import Results

__all__ = ["BLOG_LIMIT", "CHARTED_RULES", "PLAIN_TIES", "PastFifty", "WPlus", "blog_past_50", "blog_w_plus"]

#: The rules the board-size chart draws (the table beside it gives every rule): more lines would not read.
CHARTED_RULES = ("first", "lookahead-sum", "roth", "squirrel")
#: The readings of the plain rule's ties W+ and W2 are compared with (not W+ and W2 themselves).
PLAIN_TIES = ("first", "random", "lookahead-min", "roth", "blog")
#: The side up to which the blog says the rule works, and past which it "experiences difficulty".
BLOG_LIMIT = 50


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
                f"; it succeeds on {self.below:.0%} of sides to 50, {self.above:.0%} above: by move order our runs "
                f"{self.verdict}"
                if self.above is not None and self.below is not None
                else f": {self.verdict}"
            )
            + (f" ({self.agreeing_count} of {self.judged} tie-breaks)." if self.judged else ".")
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
