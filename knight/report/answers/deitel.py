"""The answers to Deitel's exercise 7.24 (the knight's tour by hand, by the first legal move, by the
accessibility heuristic, and from all 64 starts)."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

import numpy as np

from knight.engine import TIE_BREAKS, Board
from knight.engine.board import Square
from knight.engine.diagrams import heat_map_svg, tour_svg
from knight.report.answers.common import StoreData, count_words, reached_map, start_grid, yes_no
from knight.report.charts import distributions_svg
from knight.report.records import Summary

__all__ = [
    "ByHand",
    "Corner",
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
    corner = naive[(0, 0)]
    moves = [record.length - 1 for record in naive.values()]
    return Naive(
        corner_moves=corner.length - 1,
        corner_svg=tour_svg(corner.tour(), title="the first script's knight from (0, 0)"),
        moves=Moves(
            starts=len(moves),
            min=min(moves),
            max=max(moves),
            mean=sum(moves) / len(moves),
            full=sum(r.full for r in naive.values()),
        ),
        heat=heat_map_svg(board, start_grid(board, naive, lambda r: r.length - 1), title="moves made from each start"),
    )


@dataclass(frozen=True)
class Corner:
    """The heuristic's tour from one corner: how many squares it visited, and whether that is all of them."""

    start: Square
    full: bool
    length: int


@dataclass(frozen=True)
class Heuristic:
    """The accessibility heuristic from the corners of 8 x 8 (the one from (0, 0) drawn)."""

    corner: Corner
    corners: list[Corner]
    corner_svg: str

    @property
    def answer(self) -> str:
        """Yes or No: the heuristic's tour from (0, 0) is full (the glance and the section open with it)."""
        return yes_no(self.corner.full)

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
    corner = updated[(0, 0)]
    return Heuristic(
        corner=Corner(corner.start, corner.full, corner.length),
        corners=corners,
        corner_svg=tour_svg(corner.tour(), title="the accessibility heuristic from (0, 0)"),
    )


@dataclass(frozen=True)
class RuleRow:
    """One rule's runs on 8 x 8: its name, what it means, what it found."""

    name: str
    meaning: str
    summary: Summary


@dataclass(frozen=True)
class SixtyFourTours:
    """The 64 tours of 8 x 8 with the table updated and static (and the static table on 6 x 6), and every rule."""

    updated: Summary
    static: Summary
    static6: Summary
    rules: list[RuleRow]
    static_heat: str

    @property
    def glance(self) -> str:
        w, s8, s6 = self.updated, self.static, self.static6
        return (
            f"{w.full} of {w.starts} with the table updated; {s8.full} of {s8.starts} with the static table "
            f"({s6.full} of {s6.starts} on 6 × 6)."
        )


def deitel_64_tours(data: StoreData) -> SixtyFourTours:
    results = data.results
    board = Board(8, 8)
    updated = results.by_start("warnsdorff", 8, 8, tie="first")
    static = results.by_start("static", 8, 8)
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
        static6=Summary.of(list(results.by_start("static", 6, 6).values())),
        rules=[RuleRow(name, meaning, Summary.of(records)) for name, meaning, records in rules],
        static_heat=reached_map(board, static, "static table: squares reached from each start"),
    )
