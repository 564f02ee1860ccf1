"""The answers to Deitel's exercise 7.24 (the knight's tour by hand, by the first legal move, by the
accessibility heuristic, and from all 64 starts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median

import numpy as np

from knight.engine import TIE_BREAKS, Board
from knight.engine.board import Square
from knight.engine.diagrams import heat_map_svg, numbered_tour_svg
from knight.report.answers.common import (
    Failure,
    StoreData,
    at_starts,
    count_words,
    failures,
    failures_text,
    outcome_map,
    start_grid,
    yes_no,
)
from knight.report.charts import distributions_svg
from knight.report.records import Summary

__all__ = [
    "ByHand",
    "Corner",
    "CornerRule",
    "Heuristic",
    "Lengths",
    "Moves",
    "Naive",
    "RandomWalks",
    "RuleRow",
    "SixtyFourTours",
    "deitel_64_tours",
    "deitel_by_hand",
    "deitel_heuristic",
    "deitel_naive",
]

#: The four corners of 8 x 8, each asked about by the heuristic's question.
CORNERS_8 = [(0, 0), (0, 7), (7, 0), (7, 7)]
#: A rule that fails from more starts than this has them shown on a map, not listed.
FAILURES_NAMED_UP_TO = 12


@dataclass(frozen=True)
class Lengths:
    """How many squares each of ``runs`` walks numbered: median, extremes."""

    runs: int
    median: float
    min: int
    max: int

    @property
    def about(self) -> int:
        """The median to the nearest square, as the glance and the section say it."""
        return round(self.median)


@dataclass(frozen=True)
class RandomWalks(Lengths):
    """Random walks: the lengths, and from how many seeds and starts, their quartiles, how many were full."""

    seeds: int
    starts: int
    q1: float
    q3: float
    full: int


@dataclass(frozen=True)
class ByHand:
    """The yardstick for a tour by hand: the first legal move and random walks, with no rule."""

    naive: Lengths
    random: RandomWalks
    chart: str

    @property
    def glance(self) -> str:
        return (
            f"With no rule a knight numbers about {self.random.about} of 64 squares (median of "
            f"{self.random.runs:,} random walks, {self.random.min}–{self.random.max}); the first-legal-move "
            f"knight {self.naive.about} (median of {self.naive.runs} starts)."
        )


def deitel_by_hand(data: StoreData) -> ByHand:
    """How far a knight gets with no rule (naive and random walks)."""
    naive = [r.length for r in data.results.by_start("naive", 8, 8).values()]
    walks = data.results.require("random-walk", 8, 8)
    random_lengths = [r.length for r in walks]
    chart = distributions_svg(
        {"first legal move (64 starts)": naive, f"random legal move ({len(walks):,} walks)": random_lengths},
        xlabel="squares numbered before the knight is stuck (of 64)",
        ylabel="share of walks this far",
    )
    quartiles = np.percentile(random_lengths, [25, 50, 75])
    return ByHand(
        naive=Lengths(len(naive), median(naive), min(naive), max(naive)),
        random=RandomWalks(
            runs=len(walks),
            median=median(random_lengths),
            min=min(random_lengths),
            max=max(random_lengths),
            seeds=len({r.params.get("seed") for r in walks}),
            starts=len({r.start for r in walks}),
            q1=quartiles[0],
            q3=quartiles[2],
            full=sum(r.full for r in walks),
        ),
        chart=chart,
    )


@dataclass(frozen=True)
class Moves:
    """The moves made from each of ``starts`` starts before the knight was stuck, and how many tours were full."""

    starts: int
    min: int
    max: int
    mean: float
    full: int


@dataclass(frozen=True)
class Naive:
    """The first script's knight: from the corner (drawn) and from every start (a heat map)."""

    corner_moves: int
    corner_svg: str
    moves: Moves
    heat: str

    @property
    def corner_squares(self) -> int:
        return self.corner_moves + 1

    @property
    def glance(self) -> str:
        m = self.moves
        return (
            f"{self.corner_moves} moves from (0, 0) ({self.corner_squares} squares); between {m.min} and "
            f"{m.max} from the {m.starts} starts; {count_words(m.full, 'full tour')}."
        )


def deitel_naive(data: StoreData) -> Naive:
    board = Board(8, 8)
    naive = data.results.by_start("naive", 8, 8)
    (corner,) = at_starts(data.results, "naive", 8, 8, [(0, 0)])
    moves = [record.length - 1 for record in naive.values()]
    return Naive(
        corner_moves=corner.length - 1,
        corner_svg=numbered_tour_svg(corner.tour(), title="the first script's knight from (0, 0), numbered"),
        moves=Moves(
            starts=len(moves),
            min=min(moves),
            max=max(moves),
            mean=sum(moves) / len(moves),
            full=sum(r.full for r in naive.values()),
        ),
        # the worksheet's grid asks for the squares each start reached (its legend), not the moves made
        heat=heat_map_svg(board, start_grid(board, naive, lambda r: r.length), title="squares reached from each start"),
    )


@dataclass(frozen=True)
class Corner:
    """The heuristic's tour from one corner: how many squares it visited, and whether that is all of them."""

    start: Square
    full: bool
    length: int


@dataclass(frozen=True)
class CornerRule:
    """One tie-break's tours from the corners (every seed of the random one): the exercise lets the knight take
    any tied square, so whether "you got a full tour" depends on which."""

    tie: str
    runs: int  # runs from (0, 0): one, or one a seed
    full: int
    corner_runs: int  # runs from the four corners
    corner_full: int
    failures: list[Failure]  # the corner runs that stopped short

    @property
    def answer(self) -> str:
        """Yes when every run from (0, 0) is full, No when none is, else how many of the seeds."""
        if self.full in (0, self.runs):
            return yes_no(self.full == self.runs)
        return f"{self.full} of {self.runs} seeds"

    @property
    def failing(self) -> str:
        return failures_text(self.failures)


@dataclass(frozen=True)
class Heuristic:
    """The accessibility heuristic from the corners of 8 x 8 (the one from (0, 0) drawn), and every tie-break."""

    corner: Corner
    corners: list[Corner]
    corner_svg: str
    rules: list[CornerRule] = field(default_factory=list)

    @property
    def answer(self) -> str:
        """Yes or No: the heuristic's tour from (0, 0) is full (the glance and the section open with it)."""
        return yes_no(self.corner.full)

    @property
    def other_answers(self) -> list[CornerRule]:
        """The tie-breaks whose answer from (0, 0) is not move order's."""
        return [r for r in self.rules if r.tie != "first" and r.answer != self.answer]

    @property
    def glance(self) -> str:
        full = sum(c.full for c in self.corners)
        return (
            f"{self.answer}: from (0, 0) the tour visits {self.corner.length} of 64 squares; "
            f"full from {full} of the {len(CORNERS_8)} corners."
        )


def deitel_heuristic(data: StoreData) -> Heuristic:
    updated = data.results.by_start("warnsdorff", 8, 8, tie="first")
    corners = [Corner(start, updated[start].full, updated[start].length) for start in CORNERS_8 if start in updated]
    (corner,) = at_starts(data.results, "warnsdorff", 8, 8, [(0, 0)], tie="first")
    rules = []
    for tie in TIE_BREAKS:
        records = [r for r in data.results.select("warnsdorff", 8, 8, tie=tie) if r.start in CORNERS_8]
        from_corner = [r for r in records if r.start == (0, 0)]
        if from_corner and {r.start for r in records} == set(CORNERS_8):
            rules.append(
                CornerRule(
                    tie=tie,
                    runs=len(from_corner),
                    full=sum(r.full for r in from_corner),
                    corner_runs=len(records),
                    corner_full=sum(r.full for r in records),
                    failures=failures(records),
                )
            )
    return Heuristic(
        corner=Corner(corner.start, corner.full, corner.length),
        corners=corners,
        corner_svg=numbered_tour_svg(corner.tour(), title="the accessibility heuristic from (0, 0), numbered"),
        rules=rules,
    )


@dataclass(frozen=True)
class RuleRow:
    """One rule's runs on 8 x 8: its name, what it means, what it found, and from where it stopped short."""

    name: str
    meaning: str
    summary: Summary
    failures: list[Failure] = field(default_factory=list)

    @property
    def failing(self) -> str:
        """The failing starts named, when there are few; else how many, the map shows them."""
        starts = {f.start for f in self.failures}
        if not starts:
            return "none"
        if len(starts) > FAILURES_NAMED_UP_TO:
            reached = [f.reached for f in self.failures]
            return f"{len(starts)} starts, {min(reached)}–{max(reached)} squares"
        return failures_text(self.failures)


@dataclass(frozen=True)
class SixtyFourTours:
    """The 64 tours of 8 x 8 with the table updated and static (and the static table on 6 x 6), and every rule."""

    updated: Summary
    static: Summary
    static6: Summary
    rules: list[RuleRow]
    static_heat: str
    updated_failures: list[Failure] = field(default_factory=list)
    static6_reached: list[int] = field(default_factory=list)  # the squares each failing 6 x 6 start reached
    updated_map: str = ""
    static6_map: str = ""  # the worksheet's third grid: 6 x 6, never updated

    @property
    def updated_failing(self) -> str:
        return failures_text(self.updated_failures)

    @property
    def glance(self) -> str:
        w, s8, s6 = self.updated, self.static, self.static6
        return (
            f"{w.full} of {w.starts} with the table updated"
            + (f" (fails from {self.updated_failing})" if self.updated_failures else "")
            + f"; {s8.full} of {s8.starts} with the static table ({s6.full} of {s6.starts} on 6 × 6)."
        )


def deitel_64_tours(data: StoreData) -> SixtyFourTours:
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
    return SixtyFourTours(
        updated=Summary.of(list(updated.values())),
        static=Summary.of(list(static.values())),
        static6=Summary.of(list(static6.values())),
        rules=[RuleRow(name, meaning, Summary.of(records), failures(records)) for name, meaning, records in rules],
        static_heat=outcome_map(board, list(static.values()), "static table: each start's outcome"),
        updated_failures=failures(updated.values()),
        static6_reached=sorted({f.reached for f in failures(static6.values())}),
        updated_map=outcome_map(board, list(updated.values()), "updated table: each start's outcome"),
        static6_map=outcome_map(Board(6, 6), list(static6.values()), "6 × 6, static table: each start's outcome"),
    )
