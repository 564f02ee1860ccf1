"""Try_All's answer (the Eiffel text): how many tours there are. Every count the project made itself, open and
closed, by enumeration (the census) and by the frontier method, with the time each took; the two methods checked
against each other where both counted a board; the literature cited only for boards beyond the largest counted."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from knight.engine import METHODS
from knight.engine.diagrams import heat_label_size, heat_map_svg
from knight.errors import MissingData
from knight.report.answers.common import StoreData, agreement
from knight.report.answers.homework import OTHER_ORDER, OWN_TIE
from knight.report.records import CensusRecord, FrontierRecord
from knight.report.text import board_text, duration

__all__ = [
    "CLOSED_TOURS_8X8",
    "LITERATURE",
    "AllTours",
    "ExactCount",
    "LiteratureCount",
    "OpenCount",
    "eiffel_all",
]

#: Homework #8's program, as the key names it among the heuristics' runs: in the homework's own move order (ties to
#: the first of its eight moves as it lists them), and in Deitel's (ties to the lowest move number) beside it.
HOMEWORK_RULE = "Warnsdorff (homework ties)"
DEITEL_ORDER_RULE = "Warnsdorff (first ties)"


@dataclass(frozen=True)
class LiteratureCount:
    """A count the literature gives: the tours of the n × m board (directed open tours, or closed tours as
    cycles) and where it is published."""

    n: int
    m: int
    closed: bool
    tours: int
    source: str

    @property
    def board(self) -> str:
        return board_text(self.n, self.m)


#: Undirected closed tours of 8 × 8 (McKay 1997; OEIS A001230).
CLOSED_TOURS_8X8 = 13_267_364_410_532
#: The literature's counts of square boards, cited for those beyond the largest board counted here.
LITERATURE = (
    LiteratureCount(6, 6, False, 6_637_920, "OEIS A165134"),
    LiteratureCount(7, 7, False, 165_575_218_320, "OEIS A165134"),
    LiteratureCount(8, 8, False, 19_591_828_170_979_904, "OEIS A165134"),
    LiteratureCount(6, 6, True, 9_862, "OEIS A001230"),
    LiteratureCount(8, 8, True, CLOSED_TOURS_8X8, "McKay 1997; OEIS A001230"),
)


@dataclass(frozen=True)
class ExactCount:
    """One board's tours counted here, open (directed, as Try_All counts them) or closed (as cycles): by
    enumeration (the census: every tour listed; its time is its units' added up) and by the frontier method
    (counted without listing, keeping at most ``peak_states`` frontier states, spread over ``shards``: 1 in one
    process), either or both; a method that did not count the board has None."""

    n: int
    m: int
    closed: bool
    enumeration: int | None = None
    enumeration_seconds: float | None = None
    frontier: int | None = None
    frontier_seconds: float | None = None
    peak_states: int | None = None
    shards: int | None = None

    @property
    def board(self) -> str:
        return board_text(self.n, self.m)

    @property
    def squares(self) -> int:
        return self.n * self.m

    @property
    def tours(self) -> int:
        """The count (the enumeration's where the two differ: :attr:`verdict` says so)."""
        found = self.enumeration if self.enumeration is not None else self.frontier
        assert found is not None  # a row has at least one method's count
        return found

    @property
    def kind(self) -> str:
        return "closed, as cycles" if self.closed else "open, directed"

    @property
    def verdict(self) -> str:
        """``agree`` or ``disagree`` where both methods counted the board; ``""`` where one did."""
        if self.enumeration is None or self.frontier is None:
            return ""
        return agreement(self.enumeration == self.frontier)

    @property
    def enumeration_time(self) -> str:
        return "" if self.enumeration_seconds is None else duration(self.enumeration_seconds)

    @property
    def frontier_time(self) -> str:
        return "" if self.frontier_seconds is None else duration(self.frontier_seconds)


@dataclass(frozen=True)
class OpenCount:
    """One board's census of open tours, and how many of them the heuristics' runs found."""

    board: str
    total: int
    undirected: int | None
    nodes: int
    corner: int | None
    found: int
    by_method: list[tuple[str, int]]
    homework_rule: int | None  # None: the store has no runs in the homework's own order on this board
    heat: str
    deitel_order: int | None = None  # the same program in Deitel's move order
    tree_nodes: int | None = None  # Try_All as printed from (0, 0): every path, nothing pruned (the exact tree)


@dataclass(frozen=True)
class AllTours:
    """Try_All's counts: the census boards against what the heuristics found; every board counted here, open and
    closed, by each method with its time; the literature beyond the largest board counted."""

    boards: list[OpenCount]
    counts: list[ExactCount]
    literature: list[LiteratureCount]
    incomplete: list[str]

    @property
    def both_ways(self) -> list[ExactCount]:
        """The boards both methods counted."""
        return [c for c in self.counts if c.verdict]

    @property
    def disagreements(self) -> list[ExactCount]:
        return [c for c in self.counts if c.verdict == "disagree"]

    @property
    def largest(self) -> ExactCount:
        """The largest board counted here (the most squares; open before closed)."""
        return max(self.counts, key=lambda c: (c.squares, c.n, not c.closed))

    @property
    def methods_say(self) -> str:
        """What the two methods say of each other, as the glance and the section both put it."""
        if self.disagreements:
            boards = ", ".join(f"{c.board} {'closed' if c.closed else 'open'}" for c in self.disagreements)
            return f"DISAGREE on {boards}"
        if not self.both_ways:
            return "have counted no board in common"
        return f"agree on all {len(self.both_ways)} boards both counted"

    @property
    def glance(self) -> str:
        largest = self.largest
        return (
            "; ".join(
                f"{b.board}: {b.total:,}{' directed open tours' if i == 0 else ''}"
                + (f" ({b.corner:,} from each corner)" if b.corner else "")
                for i, b in enumerate(self.boards)
            )
            + "; Homework #8's rule finds "
            + " and ".join("—" if b.homework_rule is None else f"{b.homework_rule:,}" for b in self.boards)
            + (
                " (Deitel's order "
                + " and ".join("—" if b.deitel_order is None else f"{b.deitel_order:,}" for b in self.boards)
                + ")"
                if any(b.deitel_order is not None for b in self.boards)
                else ""
            )
            + " of them, all the heuristics together "
            + " and ".join(f"{b.found:,}" for b in self.boards)
            + f". Counted up to {largest.board} ({largest.tours:,} {'closed' if largest.closed else 'open'}); "
            + f"enumeration and the frontier method {self.methods_say}."
        )


def eiffel_all(data: StoreData) -> AllTours:
    whole = [c for c in data.censuses if c.total is not None and not c.removed and c.starts is None and not c.closed]
    if not whole:
        raise MissingData("no complete census of open tours")
    drawn = [c for c in whole if c.n * c.m <= HEAT_UP_TO]
    label_size = min((heat_label_size(_count_text(v)) for c in drawn for v in c.counts.values()), default=None)
    boards = []
    for c in whole:
        full = [r for r in data.results.select(n=c.n, m=c.m) if r.full and r.method != "backtrack"]
        by_method: dict[str, set[str]] = {}
        for r in full:
            name = (
                (METHODS[r.method].label if r.method in METHODS else r.method)
                if r.method != "warnsdorff"
                else f"Warnsdorff ({r.params['tie']} ties)"
            )
            by_method.setdefault(name, set()).add(r.key_directed)
        boards.append(
            OpenCount(
                board=board_text(c.n, c.m),
                total=c.total or 0,  # not None: only complete censuses are kept
                undirected=c.undirected,
                nodes=c.nodes,
                corner=c.counts.get((0, 0)),
                found=len({r.key_directed for r in full}),
                by_method=sorted(((name, len(keys)) for name, keys in by_method.items()), key=lambda x: -x[1]),
                homework_rule=_found(data, c, OWN_TIE, by_method.get(HOMEWORK_RULE)),
                heat=_heat(c, label_size) if c.n * c.m <= HEAT_UP_TO else "",
                deitel_order=_found(data, c, OTHER_ORDER, by_method.get(DEITEL_ORDER_RULE)),
                tree_nodes=next(
                    (e.exact_nodes for e in data.estimates if (e.n, e.m, e.start) == (c.n, c.m, (0, 0))), None
                ),
            )
        )
    counts = exact_counts(data.censuses, data.frontier)
    return AllTours(
        boards=boards,
        counts=counts,
        literature=beyond(counts),
        incomplete=[board_text(c.n, c.m) for c in data.censuses if c.total is None],
    )


def _found(data: StoreData, c: CensusRecord, tie: str, keys: set[str] | None) -> int | None:
    """How many of the census's tours one Warnsdorff tie-break found; None when it was not run on the board."""
    if not data.results.select("warnsdorff", c.n, c.m, tie=tie):
        return None
    return len(keys or ())


#: The boards whose tours from each start are drawn (a heat map each), by their number of squares at most.
HEAT_UP_TO = 36


def _count_text(count: int) -> str:
    """A count as a heat map prints it: 524,486."""
    return f"{count:,.0f}"


def _heat(c: CensusRecord, label_size: float | None) -> str:
    """The census's open tours from each start square, drawn, its numbers ``label_size`` (the units of a square:
    the maps of one figure print theirs at one size, the size the longest of them fits)."""
    grid = np.full((c.n, c.m), np.nan)
    for start, count in c.counts.items():
        grid[start] = count
    board = board_text(c.n, c.m)
    return heat_map_svg(
        c.board, grid, title=f"{board}: open tours from each start", label_format="{:,.0f}", label_size=label_size
    )


def exact_counts(censuses: list[CensusRecord], frontier: list[FrontierRecord]) -> list[ExactCount]:
    """Every whole board counted here, open and closed, with each method's count and time: the complete censuses
    of every start (open: their directed tours; closed: their cycles) and the frontier counts. By kind (open
    first), then size."""
    found: dict[tuple[bool, int, int], ExactCount] = {}
    for c in censuses:
        if c.census is None or c.removed or c.starts is not None or (c.closed, c.n, c.m) in found:
            continue
        tours = c.undirected if c.closed else c.total
        assert tours is not None  # a complete census
        found[c.closed, c.n, c.m] = ExactCount(c.n, c.m, c.closed, enumeration=tours, enumeration_seconds=c.seconds)
    for f in frontier:
        if f.removed:
            continue
        known = found.get((f.closed, f.n, f.m), ExactCount(f.n, f.m, f.closed))
        found[f.closed, f.n, f.m] = ExactCount(
            f.n,
            f.m,
            f.closed,
            known.enumeration,
            known.enumeration_seconds,
            frontier=f.tours,
            frontier_seconds=f.seconds,
            peak_states=f.peak_states,
            shards=f.shards,
        )
    return sorted(found.values(), key=lambda c: (c.closed, c.squares, c.n, c.m))


def beyond(counts: list[ExactCount]) -> list[LiteratureCount]:
    """The literature's counts of boards beyond those of their kind (open or closed) counted here: no board counted
    here is as long both ways (either way round). Not merely fewer squares than the largest: 4 × 13 counted, 7 × 7
    is still the literature's."""

    def sides(n: int, m: int) -> tuple[int, int]:
        return min(n, m), max(n, m)

    counted = {(c.closed, *sides(c.n, c.m)) for c in counts}

    def covered(cited: LiteratureCount) -> bool:
        short, long = sides(cited.n, cited.m)
        return any(closed == cited.closed and a >= short and b >= long for closed, a, b in counted)

    return [count for count in LITERATURE if not covered(count)]
