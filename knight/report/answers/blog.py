"""The answers to the Warnsdorff blog (Wozniak's 10^25 years, an example run, the blog's script and the
tie-breaks); its board-size questions (the rule past m = 50, W+ and W2) are in :mod:`.blog_sizes`."""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field

from knight.engine import TIE_BREAKS, Board
from knight.engine.board import Square
from knight.engine.diagrams import tour_svg
from knight.errors import MissingData, RenderError
from knight.report.answers.common import (
    Failure,
    OneTour,
    StoreData,
    agreement,
    failures,
    failures_text,
    outcome_map,
)
from knight.report.charts import estimates_svg
from knight.report.reach import reach_by_rule
from knight.report.records import EstimateRecord, Summary
from knight.report.text import board_text, power_of_ten, scientific, superscript

__all__ = [
    "W_PLUS",
    "W_TWO",
    "Example",
    "Script",
    "Ties",
    "Wozniak",
    "blog_example",
    "blog_script",
    "blog_ties",
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
#: The blog's W+ and W2, as we read them (see the methods appendix).
W_PLUS, W_TWO = "squirrel", "lookahead-sum"


@dataclass(frozen=True)
class Choices:
    """What tree_size.py printed (D1's program): its command, its estimate from as many random paths as a checkpoint
    of the stored estimate (the same random numbers: the two are one figure), and the choices d along its paths,
    averaged two ways, with d ** (moves of a full tour) as a power of ten: the back of the envelope's range."""

    command: str
    paths: int
    estimate: float
    checkpoint: float | None  # the stored estimate's running mean after as many probes, None without one
    mean: float
    geometric: float
    mean_power: float
    geometric_power: float

    @property
    def agrees(self) -> bool:
        """The program's estimate is the engine's (it prints four digits)."""
        return self.checkpoint is not None and math.isclose(self.estimate, self.checkpoint, rel_tol=1e-3)

    @property
    def powers(self) -> tuple[int, int]:
        """The range d ** moves gives, as whole powers of ten (10^32 to 10^36 on 8 x 8)."""
        return round(self.geometric_power), round(self.mean_power)


@dataclass(frozen=True)
class PythonSpeed:
    """try_all.py (C2's program) timed as the key ran it: the squares it placed from the corner of 5 x 5 (the tree,
    counted) and the seconds it took, interpreter start included."""

    command: str
    nodes: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.nodes / self.seconds


@dataclass(frozen=True)
class Wozniak:
    """The brute force's tree on 8 x 8 measured by Knuth's estimator and timed, against Wozniak's 10^25 years;
    the other boards' estimates checked against exact counts; D1's program's choices along random paths."""

    eight: EstimateRecord
    estimates: list[EstimateRecord]
    rate: float
    chart: str
    choices: Choices | None = None
    python: PythonSpeed | None = None

    @property
    def python_years(self) -> float | None:
        """The whole tree at the speed of try_all.py in plain Python, in years."""
        return self.eight.node_mean / self.python.rate / SECONDS_PER_YEAR if self.python else None

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
        by_hand = ""
        if self.choices:
            low, high = self.choices.powers
            by_hand = (
                f"; by hand, d ≈ {self.choices.geometric:.1f}–{self.choices.mean:.1f} gives "
                f"{power_of_ten(low)}–{power_of_ten(high)}"
            )
        return (
            f"About {scientific(self.eight.node_mean, 2)} nodes from the corner (Knuth's estimator, "
            f"{self.eight.probes:,} probes{by_hand}); at {scientific(self.rate)} nodes a second that is about "
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
        choices=_choices(data, eight),
        python=_python_speed(estimates.get((5, 5))),
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


def _choices(data: StoreData, eight: EstimateRecord) -> Choices:
    """D1's program, tree_size.py, as its listing runs it (read from the listings' cache when the key was made
    before): its estimate and the choices along its paths, as it printed them."""
    from knight.report.listings import TREE_SIZE_PATHS, program_text, run_source, tree_size_args  # no cycle

    args = tree_size_args(data)
    run = run_source(program_text("tree_size.py"), args, name="tree_size.py")
    found = re.search(
        r"estimate: (?P<estimate>\S+) nodes.*\nmean (?P<mean>\S+), d\*\*\d+ = 10\*\*(?P<mean_power>\S+)\n"
        r"geometric mean (?P<geometric>\S+), d\*\*\d+ = 10\*\*(?P<geometric_power>\S+)",
        run.stdout,
        re.S,
    )
    if run.status != 0 or found is None:
        raise RenderError(f"tree_size.py did not print its estimate: {run.error or run.stdout[-200:]}")
    checkpoint = next((c.node_mean for c in eight.checkpoints if c.probes == TREE_SIZE_PATHS), None)
    return Choices(
        command=run.command,
        paths=TREE_SIZE_PATHS,
        checkpoint=checkpoint,
        **{key: float(value) for key, value in found.groupdict().items()},
    )


def _python_speed(five: EstimateRecord | None) -> PythonSpeed | None:
    """try_all.py on 5 x 5 as C2's listing runs it (the cached run), timed: it places the whole plain tree from the
    corner, whose nodes the store counted (1,735,079); None without that count."""
    from knight.report.listings import program_text, run_source  # no cycle

    if five is None or not five.exact_nodes:
        return None
    run = run_source(program_text("try_all.py"), ("5",), name="try_all.py")
    return PythonSpeed(command=run.command, nodes=five.exact_nodes, seconds=run.seconds) if run.status == 0 else None


def running_estimate(found: EstimateRecord) -> tuple[list[int], list[float]]:
    """An estimate's running mean of nodes at each checkpoint (powers of ten of probes), ending with the estimate
    from every probe (a last point of its own when the probes are not a power of ten)."""
    before = [c for c in found.checkpoints if c.probes < found.probes]
    return [*(c.probes for c in before), found.probes], [*(c.node_mean for c in before), found.node_mean]
