"""How far each Warnsdorff rule goes: success against board size, and the literature's claims checked.

Works on stored :class:`~knight.report.records.Record` values of the board-size study: runs
of ``warnsdorff`` from the top-left corner of m × m boards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from knight.engine import TIE_BREAKS
from knight.report.records import Record


@dataclass(frozen=True)
class Reach:
    """One rule's results by board side m: ``outcomes[m]`` = (full tours, runs) from the corner."""

    rule: str
    outcomes: dict[int, tuple[int, int]]

    @property
    def sides(self) -> list[int]:
        return sorted(self.outcomes)

    def rate(self, side: int) -> float:
        full, runs = self.outcomes[side]
        return full / runs

    @property
    def failing(self) -> list[int]:
        """Sides where at least one run failed."""
        return [m for m in self.sides if self.outcomes[m][0] < self.outcomes[m][1]]

    @property
    def first_failure(self) -> int | None:
        return self.failing[0] if self.failing else None

    @property
    def last_success(self) -> int | None:
        """The largest side with at least one full tour."""
        succeeded = [m for m in self.sides if self.outcomes[m][0] > 0]
        return succeeded[-1] if succeeded else None

    def rate_between(self, low: int, high: int) -> float | None:
        """Success rate over all runs with low <= m <= high, or None when none ran there."""
        chosen = [self.outcomes[m] for m in self.sides if low <= m <= high]
        runs = sum(r for _, r in chosen)
        return sum(f for f, _ in chosen) / runs if runs else None

    def binned(self, width: int) -> tuple[list[float], list[float]]:
        """Success rate in consecutive ranges of ``width`` sides: (range midpoints, rates)."""
        if not self.sides:
            return [], []
        first = self.sides[0]
        middles, rates = [], []
        for low in range(first, self.sides[-1] + 1, width):
            rate = self.rate_between(low, low + width - 1)
            if rate is not None:
                middles.append(low + (width - 1) / 2)
                rates.append(rate)
        return middles, rates


def reach_by_rule(records: Iterable[Record]) -> dict[str, Reach]:
    """The :class:`Reach` of every tie-break that has corner runs on at least three square boards."""
    outcomes: dict[str, dict[int, list[int]]] = {}
    for record in records:
        if record.method == "warnsdorff" and record.n == record.m and record.start == (0, 0):
            full_runs = outcomes.setdefault(record.params["tie"], {}).setdefault(record.n, [0, 0])
            full_runs[0] += record.full
            full_runs[1] += 1
    return {tie: Reach(tie, {m: (f, r) for m, (f, r) in outcomes[tie].items()})
            for tie in TIE_BREAKS if tie in outcomes and len(outcomes[tie]) >= 3}


@dataclass(frozen=True)
class Claim:
    """A published statement about a rule, and how to test it on our runs."""

    source: str
    rule: str
    statement: str
    needs_side: int  # the claim can be judged only once the study reaches this side
    check: Callable[[Reach], tuple[bool, str]]


def _first_failure_after(limit: int) -> Callable[[Reach], tuple[bool, str]]:
    def check(reach: Reach) -> tuple[bool, str]:
        first = reach.first_failure
        return (first is not None and first > limit,
                f"first failure at m = {first}" if first else f"no failure up to m = {reach.sides[-1]}")
    return check


def _no_success_after(limit: int) -> Callable[[Reach], tuple[bool, str]]:
    def check(reach: Reach) -> tuple[bool, str]:
        last = reach.last_success
        return (last is not None and last <= limit, f"last full tour at m = {last}")
    return check


def _first_failure_at(side: int) -> Callable[[Reach], tuple[bool, str]]:
    def check(reach: Reach) -> tuple[bool, str]:
        first = reach.first_failure
        return first == side, f"first failure at m = {first}" if first else f"no failure up to m = {reach.sides[-1]}"
    return check


def _fails_exactly_on(sides: set[int], above: int) -> Callable[[Reach], tuple[bool, str]]:
    def check(reach: Reach) -> tuple[bool, str]:
        failing = {m for m in reach.failing if m >= above}
        shown = ", ".join(map(str, sorted(failing))) or "none"
        return failing == {m for m in sides if m <= reach.sides[-1]}, f"fails at m = {shown}"
    return check


def _rate_at_least(low: int, high: int, share: float) -> Callable[[Reach], tuple[bool, str]]:
    def check(reach: Reach) -> tuple[bool, str]:
        rate = reach.rate_between(low, high)
        return (rate is not None and rate >= share, f"{rate:.0%} for {low} ≤ m ≤ {high}" if rate is not None else "—")
    return check


CLAIMS: list[Claim] = [
    Claim("the Warnsdorff blog", "first", "the rule has difficulty finding a tour past m = 50", 60,
          _first_failure_after(50)),
    Claim("Squirrel 1996", "random", "random ties: no success for m > 325", 400, _no_success_after(325)),
    Claim("Squirrel 1996", "random", "random ties: over 50% success for most m < 100", 99, _rate_at_least(5, 99, 0.5)),
    Claim("Roth", "roth", "first failure on a board with 428 rows", 430, _first_failure_at(428)),
    Claim("Ganzfried 2004", "squirrel", "Squirrel–Cull orderings succeed for every m ≥ 5 (74 with its own ordering)",
          10, _fails_exactly_on(set(), 5)),
    Claim("Ganzfried 2004", "squirrel-table", "Table 1 alone fails at m = 74 only", 75, _fails_exactly_on({74}, 5)),
]


def judge_claims(reach: dict[str, Reach]) -> list[dict[str, object]]:
    """Each claim with our verdict: agree, disagree, or untested (the study does not reach far enough)."""
    verdicts = []
    for claim in CLAIMS:
        rule = reach.get(claim.rule)
        if rule is None or rule.sides[-1] < claim.needs_side:
            verdict, ours = "untested", (f"study reaches m = {rule.sides[-1]}" if rule else "no runs")
        else:
            agrees, ours = claim.check(rule)
            verdict = "agree" if agrees else "disagree"
        verdicts.append({"source": claim.source, "rule": claim.rule, "statement": claim.statement,
                         "ours": ours, "verdict": verdict})
    return verdicts
