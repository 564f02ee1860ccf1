"""What every document's answers share: the stored results they are computed from, and small helpers."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import numpy as np

from knight.engine import Board
from knight.engine.board import Square
from knight.engine.diagrams import MARGIN, SQUARE, heat_map_svg, numbered_tour_svg, outcome_board_svg
from knight.engine.tour import Tour
from knight.errors import MissingData
from knight.report.reach import Reach, reach_by_rule
from knight.report.records import CensusRecord, EstimateRecord, FrontierRecord, Results, TourRecord

__all__ = [
    "Answer",
    "Failure",
    "NumberedBoard",
    "OneTour",
    "StoreData",
    "agreement",
    "at_starts",
    "count_of",
    "count_words",
    "failures",
    "failures_text",
    "full_or_partial",
    "numbered_board",
    "outcome_map",
    "reached_map",
    "square_name",
    "start_grid",
    "yes_no",
]


class Answer(Protocol):
    """What every question's answer gives, besides the fields its template shows: its one line for the table of
    answers at a glance, rendered from those same fields."""

    @property
    def glance(self) -> str: ...


@dataclass
class StoreData:
    """What the key is computed from: the stored tours, censuses, tree-size estimates and frontier counts."""

    results: Results
    censuses: list[CensusRecord]
    estimates: list[EstimateRecord] = field(default_factory=list)
    frontier: list[FrontierRecord] = field(default_factory=list)

    @cached_property
    def reach(self) -> dict[str, Reach]:
        """How far each Warnsdorff rule goes from the corner (:func:`~knight.report.reach.reach_by_rule`),
        computed once for the questions that use it."""
        return reach_by_rule(self.results.records)

    def only(self, jobs: Iterable[str] | None) -> StoreData:
        """The results of the named jobs only (all when ``jobs`` is None)."""
        if jobs is None:
            return self
        wanted = set(jobs)
        return StoreData(
            Results([r for r in self.results.records if wanted & set(r.jobs)], hint=self.results.hint),
            [c for c in self.censuses if wanted & set(c.jobs)],
            [e for e in self.estimates if wanted & set(e.jobs)],
            [f for f in self.frontier if wanted & set(f.jobs)],
        )


def start_grid(board: Board, by_start: dict[Square, TourRecord], value: Callable[[TourRecord], float]) -> np.ndarray:
    """``value`` of each start's record on the board's squares, for a heat map (NaN where none started)."""
    values = np.full((board.n, board.m), np.nan)
    for start, record in by_start.items():
        values[start] = value(record)
    return values


def reached_map(board: Board, by_start: dict[Square, TourRecord], title: str) -> str:
    """A heat map of the squares each start's tour reached, on one scale from 1 to the whole board."""
    return heat_map_svg(board, start_grid(board, by_start, lambda r: r.length), title=title, low=1, high=board.size)


def at_starts(
    results: Results, method: str, n: int, m: int, starts: Iterable[Square], **params: object
) -> list[TourRecord]:
    """One record of ``method`` on n × m from each of ``starts``, in their order. A store that has runs of it but not
    from every one of these starts (a job run from other starts) raises MissingData naming those it lacks and what to
    run, as a store without any does, rather than a KeyError."""
    found = results.by_start(method, n, m, **params)
    wanted = list(starts)
    lacking = [start for start in wanted if start not in found]
    if lacking:
        described = "".join(f", {key}={value}" for key, value in params.items())
        raise MissingData(
            f"the store has no {method} tours on {n} × {m}{described} from "
            f"{', '.join(map(str, lacking))}; run `{results.hint}` first"
        )
    return [found[start] for start in wanted]


def count_of(part: int, whole: int, noun: str) -> str:
    """``each of the 4 starts`` when ``part`` is all of ``whole``, else ``3 of the 4 starts``."""
    nouns = noun if whole == 1 else f"{noun}s"
    return f"each of the {whole} {nouns}" if part == whole else f"{part} of the {whole} {nouns}"


def count_words(number: int, noun: str) -> str:
    """``no full tour``, ``1 full tour``, ``3 full tours``."""
    return f"no {noun}" if number == 0 else f"{number} {noun}{'s' if number != 1 else ''}"


def yes_no(answer: bool) -> str:
    """``Yes`` or ``No``, as an answer opens in the glance table and in its section."""
    return "Yes" if answer else "No"


def full_or_partial(full: bool) -> str:
    """What a tour is, as the glance and the section call it."""
    return "full" if full else "partial"


class OneTour:
    """What an answer about one tour says of it, in its glance and its section alike: ``answer`` (Yes: it is
    full) and ``kind`` (full or partial). A base for the dataclasses of such answers, which give ``full``."""

    full: bool

    @property
    def answer(self) -> str:
        return yes_no(self.full)

    @property
    def kind(self) -> str:
        return full_or_partial(self.full)


def agreement(agree: bool) -> str:
    """Our runs' verdict on a document's claim: ``agree`` or ``disagree`` (the template's verdict macro styles it)."""
    return "agree" if agree else "disagree"


def square_name(board: Board, square: Square) -> str:
    """A square's chess name, as a student who knows chess says it: the file a letter from the left-hand column,
    the rank counted up from the bottom row (row 0 is the top rank), so (0, 0) on 8 × 8 is a8, (7, 7) is h1."""
    row, col = square
    return f"{chr(ord('a') + col)}{board.n - row}"


@dataclass(frozen=True)
class Failure:
    """A run that stopped short: from which start (its chess name beside it), how many squares it numbered,
    and the seed of its random ties (None for a rule without)."""

    start: Square
    name: str
    reached: int
    seed: int | None = None

    @property
    def where(self) -> str:
        """``d5 (3, 2)``: the start as a chess player and as the program name it."""
        return f"{self.name} ({self.start[0]}, {self.start[1]})"


def failures(records: Iterable[TourRecord]) -> list[Failure]:
    """The runs among ``records`` that gave no full tour, by start (then seed)."""
    stopped = [r for r in records if not r.full]
    return sorted(
        (Failure(r.start, square_name(r.board, r.start), r.length, r.params.get("seed")) for r in stopped),
        key=lambda f: (f.start, f.seed if f.seed is not None else -1),
    )


def failures_text(found: list[Failure]) -> str:
    """The failures in a line, each start once with the squares its runs reached: ``c5 (3, 2): 60``; with random
    ties, the seeds that failed, ``c4 (4, 2): 60 (seeds 5, 9)``. Empty when nothing failed."""
    by_start: dict[Square, list[Failure]] = {}
    for failure in found:
        by_start.setdefault(failure.start, []).append(failure)
    parts = []
    for runs in by_start.values():
        reached = sorted({f.reached for f in runs})
        text = f"{runs[0].where}: {', '.join(map(str, reached))}"
        if runs[0].seed is not None:
            text += f" (seed{'s' if len(runs) > 1 else ''} {', '.join(str(f.seed) for f in runs)})"
        parts.append(text)
    return "; ".join(parts)


def outcome_map(board: Board, records: list[TourRecord], title: str) -> str:
    """A small board of each start's outcome (:func:`~knight.engine.diagrams.outcome_board_svg`): a disc where
    every run from the square was full, else the fewest squares a run from it reached."""
    reached: dict[Square, int] = {}
    for failure in failures(records):
        reached[failure.start] = min(failure.reached, reached.get(failure.start, failure.reached))
    return outcome_board_svg(
        board, sorted({r.start for r in records}), {s: str(k) for s, k in reached.items()}, title=title
    )


#: DejaVu Sans Bold's figures are all 1425 units wide (of 2048 to the em) and its space 713, half a figure: a cell
#: three figures wide holds one figure between two figure spaces, two between two spaces, or three, each centred.
FIGURE_EM = 1425 / 2048
FIGURE_SPACE = "\u2007"


@dataclass(frozen=True)
class NumberedBoard:
    """A tour drawn as the program prints it: the board with its start and end marked, and over it the move
    numbers twice, as an SVG layer for a screen and, for the PDF, as a line of text a row in cells three figures
    wide (WeasyPrint lays SVG text out a letter at a time: the homework's twenty boards took 0.4 s of the PDF's
    CPU that way, as lines of text almost none)."""

    board_svg: str
    numbers_svg: str
    rows: list[list[tuple[str, str]]]  # each row's runs of text, with "start" or "end" for the white figures
    n: int
    m: int
    labels: bool
    width_mm: float

    @property
    def square_mm(self) -> float:
        return round(self.width_mm * SQUARE / (self.m * SQUARE + 2 * self._margin), 3)

    @property
    def margin_mm(self) -> float:
        """Where the squares start, from the picture's left and top edges (the labels' margin)."""
        return round(self.width_mm * self._margin / (self.m * SQUARE + 2 * self._margin), 3)

    @property
    def font_mm(self) -> float:
        """The numbers' size: a cell three figures wide is one square."""
        return round(self.square_mm / (3 * FIGURE_EM), 3)

    @property
    def _margin(self) -> int:
        return MARGIN if self.labels else 0


def numbered_board(tour: Tour, width_mm: float, *, labels: bool = True, title: str | None = None) -> NumberedBoard:
    """A :class:`NumberedBoard` of ``tour``, to be printed ``width_mm`` wide."""
    array = tour.array()
    board = tour.board
    rows = []
    for row in array.tolist():
        runs: list[tuple[str, str]] = []
        for k in row:
            if not k:  # a square the tour never reached
                runs.append((FIGURE_SPACE * 3, ""))
                continue
            digits = str(k)
            pad = {1: FIGURE_SPACE, 2: " ", 3: ""}[len(digits)]  # the cell three figures wide, the number centred
            kind = "start" if k == 1 else ("end" if k == tour.length else "")
            runs += [(pad, ""), (digits, kind), (pad, "")]
        merged: list[tuple[str, str]] = []
        for text, kind in runs:  # neighbouring plain runs as one
            if merged and not kind and not merged[-1][1]:
                merged[-1] = (merged[-1][0] + text, "")
            elif text:
                merged.append((text, kind))
        rows.append(merged)
    return NumberedBoard(
        board_svg=numbered_tour_svg(tour, labels=labels, title=title, layer="board"),
        numbers_svg=numbered_tour_svg(tour, labels=labels, title=title, layer="numbers"),
        rows=rows,
        n=board.n,
        m=board.m,
        labels=labels,
        width_mm=width_mm,
    )
