"""How far each Warnsdorff rule goes: success against board size, and the literature's claims checked.

Works on stored :class:`~knight.store.TourRecord` values of the board-size study: runs
of ``warnsdorff`` from the top-left corner of m × m boards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from knight.engine import TIE_BREAKS
from knight.store import TourRecord

__all__ = ["Reach", "side_ranges", "reach_by_rule", "Claim", "CLAIMS", "judge_claims"]


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

    def full_sides(self, sides: Iterable[int]) -> int:
        """How many of ``sides`` (each one this rule ran) had every run give a full tour."""
        return sum(self.outcomes[m][0] == self.outcomes[m][1] for m in sides)

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


def side_ranges(largest: int, *, smallest: int = 5, columns: int = 5) -> list[tuple[int, int]]:
    """At most ``columns`` ranges of sides from ``smallest`` to ``largest``, each a whole number of hundreds.

    >>> side_ranges(100), side_ranges(1000)[:2]
    ([(5, 100)], [(5, 200), (201, 400)])
    """
    width = 100 * -(-largest // (100 * columns))  # ceiling, in hundreds
    return [(max(low, smallest), min(low + width - 1, largest)) for low in range(1, largest + 1, width)]


def reach_by_rule(records: Iterable[TourRecord]) -> dict[str, Reach]:
    """The :class:`Reach` of every tie-break that has corner runs on at least three square boards."""
    outcomes: dict[str, dict[int, list[int]]] = {}
    for record in records:
        if record.method == "warnsdorff" and record.n == record.m and record.start == (0, 0):
            full_runs = outcomes.setdefault(record.params["tie"], {}).setdefault(record.n, [0, 0])
            full_runs[0] += record.full
            full_runs[1] += 1
    return {
        tie: Reach(tie, {m: (f, r) for m, (f, r) in outcomes[tie].items()})
        for tie in TIE_BREAKS
        if tie in outcomes and len(outcomes[tie]) >= 3
    }


@dataclass(frozen=True)
class Claim:
    """A published statement about a rule, and how to test it on our runs.

    ``check`` says whether our runs are consistent with the claim. A claim about where something
    first (or last) happens that our runs contradict is refuted however far the study goes;
    a claim about a share over a range (``early=False``) is judged only once the study reaches
    ``needs_side``, as is any confirmation.
    """

    source: str
    rule: str
    statement: str
    needs_side: int
    check: Callable[[Reach], tuple[bool | None, str]]  # None: the runs cannot tell (a side it needs not run)
    early: bool = True


def _failure_text(reach: Reach) -> str:
    first = reach.first_failure
    return f"first failure at m = {first}" if first else f"no failure up to m = {reach.sides[-1]}"


def _first_failure_after(limit: int) -> Callable[[Reach], tuple[bool, str]]:
    return lambda reach: (reach.first_failure is None or reach.first_failure > limit, _failure_text(reach))


def _first_failure_at(side: int) -> Callable[[Reach], tuple[bool, str]]:
    return lambda reach: (reach.first_failure in (None, side), _failure_text(reach))


def _no_success_after(limit: int) -> Callable[[Reach], tuple[bool, str]]:
    def check(reach: Reach) -> tuple[bool, str]:
        last = reach.last_success
        return last is None or last <= limit, f"last full tour at m = {last}"

    return check


def _fails_only_on(sides: set[int]) -> Callable[[Reach], tuple[bool, str]]:
    def check(reach: Reach) -> tuple[bool, str]:
        failing = set(reach.failing)
        expected = {m for m in sides if m in reach.outcomes}
        if not failing:
            return failing == expected, f"no failure up to m = {reach.sides[-1]}"
        return failing == expected, f"fails at m = {', '.join(map(str, sorted(failing)))}"

    return check


def _failing_share_below(share: float) -> Callable[[Reach], tuple[bool, str]]:
    def check(reach: Reach) -> tuple[bool, str]:
        failing = len(reach.failing) / len(reach.sides)
        return failing < share, f"{len(reach.failing)} of {len(reach.sides)} sides fail ({failing:.1%})"

    return check


def _rate_at_least(low: int, high: int, share: float) -> Callable[[Reach], tuple[bool, str]]:
    def check(reach: Reach) -> tuple[bool, str]:
        rate = reach.rate_between(low, high)
        return rate is None or rate >= share, f"{rate:.0%} for {low} ≤ m ≤ {high}" if rate is not None else "—"

    return check


def _rates_near(expected: dict[int, float], tolerance: float) -> Callable[[Reach], tuple[bool | None, str]]:
    """The success rate at each side m of ``expected`` within ``tolerance`` of the figure given (None, untested,
    while a side is missing from the runs)."""

    def check(reach: Reach) -> tuple[bool | None, str]:
        found = {m: reach.rate(m) for m in expected if m in reach.outcomes}
        text = ", ".join(f"{rate:.0%} at m = {m}" for m, rate in found.items()) or "—"
        runs = [reach.outcomes[m][1] for m in found]  # how much a rate can be trusted: its number of runs
        if runs and len(set(runs)) == 1:
            text += f" ({runs[0]} run{'s' if runs[0] != 1 else ''}{' each' if len(runs) > 1 else ''})"
        elif runs:
            text += f" ({' and '.join(map(str, runs))} runs)"
        if len(found) < len(expected):
            return None, f"{text}; not run at m = {', '.join(str(m) for m in expected if m not in found)}"
        return all(abs(found[m] - expected[m]) <= tolerance for m in found), text

    return check


CLAIMS: list[Claim] = [
    Claim(
        "the Warnsdorff blog",
        "first",
        "the rule has difficulty finding a tour past m = 50",
        60,
        _first_failure_after(50),
    ),
    Claim("Squirrel 1996", "random", "random ties: no success for m > 325", 400, _no_success_after(325)),
    Claim(
        "Squirrel 1996",
        "random",
        "random ties: over 50% success for most m < 100",
        99,
        _rate_at_least(5, 99, 0.5),
        early=False,
    ),
    Claim(
        "Squirrel 1996",
        "random",
        "random ties: over 85% success for most m < 50",
        49,
        _rate_at_least(5, 49, 0.85),
        early=False,
    ),
    Claim(
        "Ganzfried 2004",
        "random",
        "random ties: 81% success at m = 50, about 35% at m = 100",
        100,
        _rates_near({50: 0.81, 100: 0.35}, 0.2),
        early=False,
    ),
    Claim(
        "Ganzfried 2004",
        "lookahead-sum",
        "the second-level rule (Pohl's sum; random final ties there, move order here): over 95% for m ≤ 100",
        100,
        _rate_at_least(5, 100, 0.95),
        early=False,
    ),
    Claim("Roth", "roth", "first failure on a board with 428 rows", 430, _first_failure_at(428)),
    Claim("Roth", "roth", "under 1% of boards fail below 2000 rows", 1000, _failing_share_below(0.01), early=False),
    Claim(
        "Ganzfried 2004",
        "squirrel",
        "Squirrel–Cull orderings succeed for every m ≥ 5 (74 with its own ordering)",
        10,
        _fails_only_on(set()),
    ),
    Claim("Ganzfried 2004", "squirrel-table", "Table 1 alone fails at m = 74 only", 75, _fails_only_on({74})),
]


def judge_claims(reach: dict[str, Reach]) -> list[dict[str, object]]:
    """Each claim with our verdict: ``disagree`` when our runs contradict it (at any reach), ``agree``
    when they are consistent and reach far enough to test it, ``untested`` otherwise."""
    verdicts: list[dict[str, object]] = []
    for claim in CLAIMS:
        rule = reach.get(claim.rule)
        if rule is None:
            verdict, ours = "untested", "no runs"
        else:
            consistent, ours = claim.check(rule)
            reached = rule.sides[-1] >= claim.needs_side
            if consistent is None:
                verdict = "untested"
            elif not consistent and (claim.early or reached):
                verdict = "disagree"
            elif not reached:
                verdict, ours = "untested", f"{ours}; the study reaches m = {rule.sides[-1]}"
            else:
                verdict = "agree"
        verdicts.append(
            {"source": claim.source, "rule": claim.rule, "statement": claim.statement, "ours": ours, "verdict": verdict}
        )
    return verdicts
