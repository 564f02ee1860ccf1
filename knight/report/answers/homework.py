"""The answers to Homework #8 (Warnsdorff's program, its tours on 5 x 5, 6 x 6 and 8 x 8, and from which
squares a tour starts at all)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from knight.engine import METHODS, TIE_BREAKS, Board
from knight.engine.board import Square
from knight.engine.diagrams import starts_map_svg
from knight.engine.greedy import HOMEWORK_MOVES
from knight.report.answers.common import (
    Failure,
    NumberedBoard,
    OneTour,
    StoreData,
    at_starts,
    failures,
    failures_text,
    numbered_board,
    outcome_map,
    yes_no,
)
from knight.report.questions import questions
from knight.report.records import Summary, TourRecord
from knight.report.text import board_text

__all__ = [
    "HOMEWORK_SIZES",
    "OWN_TIE",
    "OTHER_ORDER",
    "ORDER_WORDS",
    "homework_moves_text",
    "Asked",
    "BoardTours",
    "Partial",
    "Program",
    "Starts",
    "StartsMap",
    "TieRow",
    "homework_board",
    "homework_program",
    "homework_starts",
]

#: The side of a square on the existence maps, in millimetres.
MAP_SQUARE_MM = 6
#: The side of a square on the numbered boards of a homework answer, in millimetres: the move numbers print at
#: about 9 pt (half a square), 8 × 8 four to a row would not leave room for them.
NUMBERED_SQUARE_MM = {5: 6.4, 6: 6.8, 8: 6.6}
#: The homework's boards.
HOMEWORK_SIZES = (5, 6, 8)
#: The homework's answers are given first in its own terms: its own order of the eight moves, ties to the first one
#: it lists (tie-break ``homework``); Deitel's move order (``first``) and the other tie-breaks beside.
OWN_TIE = "homework"
OTHER_ORDER = "first"
#: The two move orders in words, as the answers name them.
ORDER_WORDS = {
    OWN_TIE: "the homework's own move order (ties to the first of its eight moves as it lists them)",
    OTHER_ORDER: "Deitel's move order (ties to the lowest move number, 0–7)",
}


def homework_moves_text() -> str:
    """The homework's eight moves in its order, as it writes them: ``(i − 1, j − 2), (i − 1, j + 2), …``."""

    def term(letter: str, d: int) -> str:
        return f"{letter} {'−' if d < 0 else '+'} {abs(d)}"

    return ", ".join(f"({term('i', dr)}, {term('j', dc)})" for dr, dc in HOMEWORK_MOVES)


@dataclass(frozen=True)
class Partial:
    """A start from which the program stops short: what it prints, the squares numbered so far."""

    start: Square
    length: int
    array: list[list[int]]
    board: NumberedBoard  # the array drawn as the other numbered boards are


@dataclass(frozen=True)
class Program(OneTour):
    """The program's output on 5 x 5: the numbered array from (0, 0), and one from a start that fails."""

    full_array: list[list[int]]
    full_board: NumberedBoard  # the array drawn as the other numbered boards are
    full: bool
    length: int
    partial: Partial | None
    failures: int
    failing: str = ""  # the starts it fails from, in words
    order: str = ORDER_WORDS[OWN_TIE]
    other_failures: int | None = None  # in Deitel's move order, when the store has it
    other_partial: Square | None = None  # the start whose partial tour Deitel's order would show

    @property
    def moves(self) -> str:
        """The homework's eight moves in its order, as it writes them."""
        return homework_moves_text()

    @property
    def glance(self) -> str:
        return (
            f"The numbered array: from (0, 0) on 5 × 5 a {self.kind} tour, 1 to {self.length}; from "
            f"{self.failures} of the 25 squares a partial tour and the failure message"
            + (f" (Deitel's move order: {self.other_failures})" if self.other_failures is not None else "")
            + "."
        )


def shown_failure(board: Board, failed: Iterable[Square]) -> Square | None:
    """The start whose partial tour the key and the program's listing both show: the first (in row order) where the
    program stops short although a tour exists from it (a square of the majority colour), else the first where it
    stops short; None when it never does."""
    ordered = sorted(failed)
    majority = [s for s in ordered if board.colour(s) != board.minority_colour()]
    return next(iter(majority or ordered), None)


def homework_program(data: StoreData) -> Program:
    """The program in the homework's own move order; how often Deitel's order fails beside it."""
    own = data.results.by_start("warnsdorff", 5, 5, tie=OWN_TIE)
    (corner,) = at_starts(data.results, "warnsdorff", 5, 5, [(0, 0)], tie=OWN_TIE)
    failed = [r for r in own.values() if not r.full]
    shown = shown_failure(Board(5, 5), (r.start for r in failed))
    partial = own[shown] if shown is not None else None
    other = [r for r in data.results.select("warnsdorff", 5, 5, tie=OTHER_ORDER)]
    other_failed = [r.start for r in other if not r.full]
    return Program(
        full_array=corner.tour().array().tolist(),
        full_board=_printed(corner),
        full=corner.full,
        length=corner.length,
        partial=(
            Partial(partial.start, partial.length, partial.tour().array().tolist(), _printed(partial))
            if partial
            else None
        ),
        failures=len(failed),
        failing=_failing_words(Board(5, 5), failures(failed)),
        other_failures=len(other_failed) if other else None,
        other_partial=shown_failure(Board(5, 5), other_failed) if other else None,
    )


@dataclass(frozen=True)
class Asked:
    """A tour the question asks for, drawn as the program prints it (a numbered board; None when not drawn)."""

    start: Square
    full: bool
    closed: bool
    length: int
    board: NumberedBoard | None


@dataclass(frozen=True)
class TieRow:
    """The runs of one tie-break on the board (how many seeds, for the random one): from every start, and from
    the starts the question asks about, with the runs that stopped short."""

    tie: str
    summary: Summary
    seeds: int | None
    asked_runs: int
    asked_full: int
    covers: bool  # it ran from every start asked (some rules run from the corner only)
    failures: list[Failure]
    failing: str  # the failures in words, the smaller colour's summed up on an odd board

    @property
    def name(self) -> str:
        """The tie-break as the tables name it: the two move orders said in words beside their names."""
        return {OWN_TIE: "homework (its own order)", OTHER_ORDER: "first (Deitel's order)"}.get(self.tie, self.tie)

    @property
    def always(self) -> bool:
        """The question's "does your program always find a tour?" answered for this tie-break: a full tour from
        every start asked (every seed)."""
        return self.asked_full == self.asked_runs

    @property
    def verdict(self) -> str:
        return yes_no(self.always)


@dataclass(frozen=True)
class BoardTours:
    """Homework #8's program on one square board: from the starts asked (or all), and every tie-break."""

    size: int
    symmetries: int
    asked: list[Asked]
    drawn: list[Asked]  # the numbered boards: the tours from the starts asked, or every full tour
    square_mm: float
    summary: Summary
    everywhere: Summary
    rules: list[TieRow]
    failures: list[Failure]  # from every start, ties by move order
    failing: str
    failures_on_minority: int
    outcomes: str | None  # a small board of each start's outcome, when the question runs over every start
    order: str = ORDER_WORDS[OWN_TIE]  # the move order of the answer given first
    other: Summary | None = None  # Deitel's move order from the same starts, when the store has it
    other_everywhere: Summary | None = None  # ... and from every start
    other_failing: str = ""

    @property
    def odd(self) -> bool:
        return self.size % 2 == 1

    @property
    def sampled(self) -> bool:
        """The question asks about some starts only (the rest are summed up apart)."""
        return len(self.asked) < self.everywhere.runs

    @property
    def always(self) -> bool:
        """The program finds a full tour from every start asked."""
        return self.summary.full == self.summary.runs

    @property
    def in_pairs(self) -> bool:
        """The numbered boards are drawn two by two beside the text: four in a row would print their numbers too
        small to read (8 × 8 in the page's 178 mm)."""
        return len(self.drawn) == 4 and 4 * self.board_mm + 9 > 178

    @property
    def board_mm(self) -> float:
        """The width of each numbered board (no labels in the margin): the squares the same size on each."""
        return round(self.square_mm * self.size, 1)

    @property
    def by_rule(self) -> str:
        """The answer to "always a tour?" where another tie-break, run from every start asked, gives the other
        answer than move order's: ``No with lookahead-min and random ties``."""
        other = [r.tie for r in self.rules if r.tie != OWN_TIE and r.covers and r.always != self.always]
        if not other:
            return ""
        ties = ", ".join(other[:-1]) + (" and " if len(other) > 1 else "") + other[-1]
        return f"{yes_no(not self.always)} with {ties} ties"

    @property
    def glance(self) -> str:
        s = self.summary
        return (
            f"{yes_no(self.always)}: {s.full} of {s.runs}"
            + f"; {_kinds(s)}; {s.distinct_directed} different ({s.distinct_symmetric} up to symmetry)"
            + (f"; from all {self.everywhere.runs} starts {self.everywhere.full}" if self.sampled else "")
            + self._other_glance
            + "."
        )

    @property
    def _other_glance(self) -> str:
        """What Deitel's move order answers otherwise, in a few words for the glance: ``; Deitel's order: 12 of 25,
        12 different``, or ``; the same in Deitel's order``."""
        o, s = self.other, self.summary
        if o is None:
            return ""
        differ = [f"{o.full} of {o.runs}"] if (o.full, o.runs) != (s.full, s.runs) else []
        differ += [f"{o.closed or 'none'} closed"] if o.closed != s.closed else []
        differ += [f"{o.distinct_directed} different"] if o.distinct_directed != s.distinct_directed else []
        if self.sampled and self.other_everywhere is not None and self.other_everywhere.full != self.everywhere.full:
            differ.append(f"from all {self.other_everywhere.full}")
        return f"; Deitel's order: {', '.join(differ)}" if differ else "; the same in Deitel's order"


def _kinds(s: Summary) -> str:
    """Open or closed, as the glance says it of the full tours of ``s``."""
    if s.closed == 0:
        return "all open"
    return "all closed" if s.closed == s.full else f"{s.closed} closed, the rest open"


def _failing_words(board: Board, found: list[Failure]) -> str:
    """The failures in words; on an odd board those of the smaller colour, where no tour can start, summed up."""
    minority = board.minority_colour()
    lost = [f for f in found if board.colour(f.start) == minority]
    rest = [f for f in found if board.colour(f.start) != minority]
    parts = [failures_text(rest)] if rest else []
    if lost:
        reached = [f.reached for f in lost]
        squares = len({f.start for f in lost})
        parts.append(
            f"{'each of ' if parts else 'only '}the {squares} squares of the smaller colour"
            f" ({min(reached)}–{max(reached)} squares)"
        )
    return "; and ".join(parts) if len(parts) > 1 else (parts[0] if parts else "")


def homework_board(size: int) -> Callable[[StoreData], BoardTours]:
    def answer(data: StoreData) -> BoardTours:
        board = Board(size, size)
        first = data.results.by_start("warnsdorff", size, size, tie=OWN_TIE)
        question = next(q for q in questions() if q.id == f"homework-{Board(size, size)}")
        asked = [(s[0], s[1]) for s in question.starts] or sorted(first)
        chosen = at_starts(data.results, "warnsdorff", size, size, asked, tie=OWN_TIE)
        sampled = len(chosen) < len(first)
        failed = failures(first.values())
        other = data.results.select("warnsdorff", size, size, tie=OTHER_ORDER)
        other_asked = [r for r in other if r.start in asked]
        rules = []
        for tie in sorted(TIE_BREAKS, key=lambda t: (t != OWN_TIE, t != OTHER_ORDER)):  # own order, Deitel's, the rest
            records = data.results.select("warnsdorff", size, size, tie=tie)
            if not records:
                continue
            from_asked = [r for r in records if r.start in asked]
            rules.append(
                TieRow(
                    tie=tie,
                    summary=Summary.of(records),
                    seeds=len({r.params.get("seed") for r in records}) if tie == "random" else None,
                    asked_runs=len(from_asked),
                    asked_full=sum(r.full for r in from_asked),
                    covers={r.start for r in from_asked} == set(asked),
                    failures=failures(records),
                    failing=_failing_words(board, failures(records)),
                )
            )
        shown = [_asked(r, size) for r in chosen] if sampled else []
        return BoardTours(
            size=size,
            symmetries=len(board.symmetries()),
            asked=shown or [Asked(r.start, r.full, r.closed, r.length, None) for r in chosen],
            drawn=shown or [_asked(r, size) for r in chosen if r.full],
            square_mm=NUMBERED_SQUARE_MM.get(size, 6.5),
            summary=Summary.of(chosen),
            everywhere=Summary.of(list(first.values())),
            rules=rules,
            failures=failed,
            failing=_failing_words(board, failed),
            failures_on_minority=sum(board.colour(f.start) == board.minority_colour() for f in failed),
            outcomes=None
            if sampled
            else outcome_map(board, list(first.values()), f"{board_text(size)}: each start's outcome"),
            other=Summary.of(other_asked) if {r.start for r in other_asked} == set(asked) else None,
            other_everywhere=Summary.of(other) if other else None,
            other_failing=_failing_words(board, failures(other)),
        )

    return answer


def _printed(record: TourRecord) -> NumberedBoard:
    """A 5 x 5 run of the program as it prints it, drawn at the squares of the other homework boards of 5 x 5."""
    return numbered_board(
        record.tour(),
        NUMBERED_SQUARE_MM[5] * 5,
        labels=False,
        title=f"{board_text(5)} from {record.start}, numbered",
    )


def _asked(record: TourRecord, size: int) -> Asked:
    """A tour as the program prints it: numbered, its start named in the caption (no labels on a row of boards)."""
    return Asked(
        record.start,
        record.full,
        record.closed,
        record.length,
        numbered_board(
            record.tour(),
            NUMBERED_SQUARE_MM.get(size, 6.5) * size,
            labels=False,
            title=f"{board_text(size)} from {record.start}, numbered",
        ),
    )


@dataclass(frozen=True)
class StartsMap:
    """One board's existence map: from how many squares a tour starts, how found, how the rest were ruled out."""

    board: str
    squares: int
    found: int
    none: int
    unknown: int
    proofs: list[str]
    ways: list[str]
    nodes: int
    census: bool | None  # the stored census agrees square by square; None when there is no census
    svg: str
    width_mm: int


@dataclass(frozen=True)
class Starts:
    """The existence maps of the homework's boards."""

    maps: list[StartsMap]

    @property
    def glance(self) -> str:
        return (
            "; ".join(
                f"{m.board}: {m.found} of {m.squares}" + (" squares" if i == 0 else "") for i, m in enumerate(self.maps)
            )
            + " — "
            + (
                "every square where a closed tour exists, on an odd board only the larger colour"
                if any(m.none for m in self.maps)
                else "every square"
            )
            + "."
        )


def homework_starts(data: StoreData) -> Starts:
    """The existence map of each homework board (engine: theory, a closed tour walked from each
    start, or a search), checked against the stored census where there is one."""
    from knight.engine.starts import existence_map

    maps = []
    for size in HOMEWORK_SIZES:
        board = Board(size, size)
        records = existence_map(board)
        kinds = {r.square: r.kind for r in records}
        census = next(
            (
                c
                for c in data.censuses
                if (c.n, c.m) == (size, size) and c.complete and not c.closed and not c.removed and c.starts is None
            ),
            None,
        )
        maps.append(
            StartsMap(
                board=board_text(size, size),
                squares=board.size,
                found=sum(kind == "found" for kind in kinds.values()),
                none=sum(kind == "none" for kind in kinds.values()),
                unknown=sum(kind == "unknown" for kind in kinds.values()),
                proofs=sorted({r.method for r in records if r.kind == "none"}),
                ways=sorted({_way_words(r.method) for r in records if r.kind == "found"}),
                nodes=sum(r.nodes for r in records),
                census=None
                if census is None
                else all((census.counts.get(square, 0) > 0) == (kind == "found") for square, kind in kinds.items()),
                svg=starts_map_svg(board, kinds, title=f"where a tour starts on {board}"),
                width_mm=MAP_SQUARE_MM * size,  # squares of one size on every map
            )
        )
    return Starts(maps)


def _way_words(method: str) -> str:
    """How a tour from a square was found, in a student's words (the engine's record names the method)."""
    if method.startswith("closed tour (") and method.endswith(") walked from the start"):
        made_by = method[len("closed tour (") : -len(") walked from the start")]
        closed = METHODS[made_by].closed_tour if made_by in METHODS else ""
        return f"by walking {closed or 'a closed tour'} of the board from the square"
    return {
        "Warnsdorff with rotations": "by Warnsdorff's rule with Pósa's rotations",
        "pruned search": "by an exhaustive search",
        "open tour of an odd block joined with closed tours": "by joining a small open tour to closed tours of blocks",
        "open tour of a 3-wide window extended by 3 × 4 blocks": "by extending a small tour with 3 × 4 blocks",
    }.get(method, method)
