"""The answer key's template context: every number, table and picture, computed from stored results.

One function per question of ``questions.toml`` (:data:`ANSWERS`), each returning what its part of
the key shows and a one-line ``glance`` answer for the table at the top. A question whose job has
not run (or was not named with ``--job``) gets ``missing`` instead, and the rest still renders.
Nothing here is typed in by hand except what the documents themselves fix (which boards and starts
they ask about, the 10^25 years they claim).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from statistics import median
from typing import Any

import numpy as np

from knight.engine import HORIZONTAL, METHODS, TIE_BREAKS, VERTICAL, Board
from knight.engine.backtrack import ORDERINGS
from knight.engine.board import Square
from knight.engine.diagrams import heat_map_svg, starts_map_svg, tour_svg
from knight.engine.parberry import BASE_SIZES, structured_moves
from knight.engine.theory import colour_counts, open_tour_verdict
from knight.errors import MissingData
from knight.report.charts import distributions_svg, estimates_svg, success_by_size_svg, success_maps_svg
from knight.report.questions import Question, document_letters, documents, labels, questions
from knight.report.reach import Reach, judge_claims, reach_by_rule, side_ranges
from knight.report.records import CensusRecord, EstimateRecord, Results, Summary, TourRecord
from knight.report.text import board_text, power_of_ten, scientific, superscript

__all__ = [
    "ANSWERS",
    "CHARTED_RULES",
    "GLOSSARY",
    "METHOD_NAMES",
    "StoreData",
    "appendix_section",
    "build_context",
    "provenance",
]

#: The side of a square on the existence maps, in millimetres.
MAP_SQUARE_MM = 6

#: The four start squares of each homework board, as the document asks them (questions.toml).
HOMEWORK_SIZES = (5, 6, 8)
CORNERS_8 = [(0, 0), (0, 7), (7, 0), (7, 7)]
EIFFEL_SIZES = (5, 6, 8)
#: Wozniak's figure, as the blog gives it.
WOZNIAK_YEARS_LOG10 = 25
#: A computer of Wozniak's day, for comparison: about ten thousand nodes a second (an order of magnitude).
SLOW_NODES_PER_SECOND = 10_000
#: Exact counts of the literature for boards too big for a census here (../shared/literature, OEIS).
CLOSED_TOURS_8X8 = 13_267_364_410_532  # undirected closed tours of 8 x 8: OEIS A001230, McKay 1997
OPEN_TOURS_8X8 = 19_591_828_170_979_904  # directed open tours of 8 x 8: OEIS A165134
#: Ganzfried 2004 (../shared/literature): the second-level rule with random final ties completes from 67% of 8 x 8.
GANZFRIED_W2_ON_8X8 = 0.67
AGE_OF_THE_UNIVERSE_YEARS = 13.82e9
SECONDS_PER_YEAR = 365.25 * 24 * 3600
#: The rules the board-size chart draws (the table beside it gives every rule): more lines would not read.
CHARTED_RULES = ("first", "lookahead-sum", "roth", "squirrel")
#: Homework #8's program, as the key names it among the heuristics' runs.
HOMEWORK_RULE = "Warnsdorff (first ties)"
#: How the key names the methods in prose.
METHOD_NAMES = {
    "naive": "first legal move",
    "static": "static table",
    "random-walk": "random walk",
    "backtrack": "backtracking",
    "parberry": "Parberry",
}
#: The blog's W+ and W2, as we read them (see the methods appendix).
W_PLUS, W_TWO = "squirrel", "lookahead-sum"


@dataclass
class StoreData:
    """What the key is computed from: the stored tours, censuses and tree-size estimates."""

    results: Results
    censuses: list[CensusRecord]
    estimates: list[EstimateRecord] = field(default_factory=list)

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
        )


def build_context(data: StoreData) -> dict[str, Any]:
    """Everything the answer key shows: per question its answer (or what is missing), the table of
    answers at a glance, and the appendix."""
    answers: dict[str, dict[str, Any]] = {}
    for question in questions():
        try:
            answers[question.id] = ANSWERS[question.id](data)
        except MissingData as missing:
            answers[question.id] = {"missing": _missing_line(question), "why": str(missing)}
    numbered = labels()
    glance = [
        {
            "question": q,
            "number": numbered[q.id],
            "answer": answers[q.id].get("glance", ""),
            "missing": answers[q.id].get("missing"),
        }
        for q in questions()
    ]
    return {
        "documents": documents(),
        "questions": questions(),
        "numbers": numbered,
        "letters": document_letters(),
        "answers": answers,
        "glance": glance,
        "appendix": appendix_section(),
        "provenance": provenance(data),
    }


def _missing_line(question: Question) -> str:
    files = " ".join(f"jobs/{job}.toml" for job in question.jobs)
    return (
        f"Not answered: this needs results of the job{'s' if len(question.jobs) > 1 else ''} "
        f"{', '.join(question.jobs)}, which this report does not hold; run `knight run {files}` "
        f"(and name the file{'s' if len(question.jobs) > 1 else ''} with `--job`)."
    )


def provenance(data: StoreData) -> list[dict[str, Any]]:
    """Which runs the numbers come from: every job with results in the report, and how many."""
    tours: dict[str, int] = {}
    counts: dict[str, int] = {}
    for record in data.results.records:
        for job in record.jobs:
            tours[job] = tours.get(job, 0) + 1
    stored: list[CensusRecord | EstimateRecord] = [*data.censuses, *data.estimates]
    for census in stored:
        for job in census.jobs:
            counts[job] = counts.get(job, 0) + 1
    return [
        {"job": job, "tours": tours.get(job, 0), "counts": counts.get(job, 0)}
        for job in sorted(tours.keys() | counts.keys())
    ]


# --- Deitel 7.24 ----------------------------------------------------------------------------------


def deitel_by_hand(data: StoreData) -> dict[str, Any]:
    """The yardstick for a tour by hand: how far a knight gets with no rule (naive and random walks)."""
    naive = [r.length for r in data.results.by_start("naive", 8, 8).values()]
    walks = data.results.require("random-walk", 8, 8)
    random_lengths = [r.length for r in walks]
    seeds = len({r.params.get("seed") for r in walks})
    chart = distributions_svg(
        {"first legal move (64 starts)": naive, f"random legal move ({len(walks):,} walks)": random_lengths},
        xlabel="squares numbered before the knight is stuck (of 64)",
        ylabel="share of walks this far",
    )
    quartiles = np.percentile(random_lengths, [25, 50, 75])
    full = sum(r.full for r in walks)
    return {
        "naive": {"median": median(naive), "min": min(naive), "max": max(naive)},
        "random": {
            "walks": len(walks),
            "seeds": seeds,
            "starts": len({r.start for r in walks}),
            "median": median(random_lengths),
            "q1": quartiles[0],
            "q3": quartiles[2],
            "min": min(random_lengths),
            "max": max(random_lengths),
            "full": full,
            "over_50": sum(n > 50 for n in random_lengths),
        },
        "chart": chart,
        "glance": f"With no rule a knight numbers about {median(random_lengths):.0f} of 64 squares (median of "
        f"{len(walks):,} random walks, {min(random_lengths)}–{max(random_lengths)}); the first-legal-move "
        f"knight {median(naive):.0f} (median of {len(naive)} starts).",
    }


def deitel_naive(data: StoreData) -> dict[str, Any]:
    board = Board(8, 8)
    naive = data.results.by_start("naive", 8, 8)
    corner = naive[(0, 0)]
    moves = [record.length - 1 for record in naive.values()]
    full = sum(r.full for r in naive.values())
    return {
        "corner": {
            "moves": corner.length - 1,
            "squares": corner.length,
            "svg": tour_svg(corner.tour(), title="the first script's knight from (0, 0)"),
        },
        "moves": {
            "min": min(moves),
            "max": max(moves),
            "mean": sum(moves) / len(moves),
            "starts": len(moves),
            "full": full,
        },
        "heat": heat_map_svg(board, _grid(board, naive, lambda r: r.length - 1), title="moves made from each start"),
        "glance": f"{corner.length - 1} moves from (0, 0) ({corner.length} squares); between {min(moves)} and "
        f"{max(moves)} from the {len(moves)} starts; {_count(full, 'full tour')}.",
    }


def deitel_heuristic(data: StoreData) -> dict[str, Any]:
    updated = data.results.by_start("warnsdorff", 8, 8, tie="first")
    corners = [
        {"start": start, "full": updated[start].full, "length": updated[start].length}
        for start in CORNERS_8
        if start in updated
    ]
    corner = updated[(0, 0)]
    full_corners = [c["start"] for c in corners if c["full"]]
    return {
        "corners": corners,
        "corner_full": corner.full,
        "corner_svg": tour_svg(corner.tour(), title="the accessibility heuristic from (0, 0)"),
        "glance": f"{'Yes' if corner.full else 'No'}: from (0, 0) the tour visits {corner.length} of 64 squares; "
        f"full from {len(full_corners)} of the 4 corners.",
    }


def deitel_64_tours(data: StoreData) -> dict[str, Any]:
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
    w, s8, s6 = (
        Summary.of(list(updated.values())),
        Summary.of(list(static.values())),
        Summary.of(list(static6.values())),
    )
    return {
        "updated": w,
        "static": s8,
        "static6": s6,
        "rules": [
            {"name": name, "meaning": meaning, "summary": Summary.of(records)} for name, meaning, records in rules
        ],
        "static_heat": heat_map_svg(
            board,
            _grid(board, static, lambda r: r.length),
            title="static table: squares reached from each start",
            low=1,
            high=64,
        ),
        "glance": f"{w.full} of {w.starts} with the table updated; {s8.full} of {s8.starts} with the static table "
        f"({s6.full} of {s6.starts} on 6 × 6).",
    }


# --- Homework #8 ----------------------------------------------------------------------------------


def homework_program(data: StoreData) -> dict[str, Any]:
    first = data.results.by_start("warnsdorff", 5, 5, tie="first")
    corner = first[(0, 0)]
    failed = [r for r in first.values() if not r.full]
    return {
        "full_array": corner.tour().array().tolist(),
        "full": corner.full,
        "length": corner.length,
        "partial": None
        if not failed
        else {"start": failed[0].start, "length": failed[0].length, "array": failed[0].tour().array().tolist()},
        "failures": len(failed),
        "glance": f"The numbered array: from (0, 0) on 5 × 5 a {'full' if corner.full else 'partial'} tour, 1 to "
        f"{corner.length}; from {len(failed)} of the 25 squares a partial tour and the failure message.",
    }


def _homework_board(size: int) -> Callable[[StoreData], dict[str, Any]]:
    def answer(data: StoreData) -> dict[str, Any]:
        board = Board(size, size)
        first = data.results.by_start("warnsdorff", size, size, tie="first")
        question = next(q for q in questions() if q.id == f"homework-{Board(size, size)}")
        asked = [(s[0], s[1]) for s in question.starts] or sorted(first)
        chosen = [first[s] for s in asked]
        summary = Summary.of(chosen)
        everywhere = Summary.of(list(first.values()))
        minority = board.minority_colour()
        failures = [r for r in first.values() if not r.full]
        rules = [
            {
                "tie": tie,
                "summary": Summary.of(records),
                "seeds": len({r.params.get("seed") for r in records}) if tie == "random" else None,
            }
            for tie in TIE_BREAKS
            if (records := data.results.select("warnsdorff", size, size, tie=tie))
        ]
        always = summary.full == summary.runs
        kinds = (
            "all open"
            if summary.closed == 0
            else ("all closed" if summary.closed == summary.full else f"{summary.closed} closed, the rest open")
        )
        return {
            "size": size,
            "squares": board.size,
            "symmetries": len(board.symmetries()),
            "odd": board.size % 2 == 1,
            "asked": [
                {
                    "start": r.start,
                    "full": r.full,
                    "closed": r.closed,
                    "length": r.length,
                    "svg": tour_svg(r.tour(), numbers=False, labels=False, title=f"from {r.start}"),
                }
                for r in chosen
            ],
            "summary": summary,
            "everywhere": everywhere,
            "rules": rules,
            "failures": [
                {"start": r.start, "length": r.length, "minority": board.colour(r.start) == minority} for r in failures
            ],
            "failures_on_minority": sum(board.colour(r.start) == minority for r in failures),
            "heat": heat_map_svg(
                board,
                _grid(board, first, lambda r: r.length),
                title=f"{board_text(size)}: squares reached from each start",
                low=1,
                high=board.size,
            )
            if len(chosen) == len(first)
            else None,
            "glance": f"{'Yes' if always else 'No'}: {summary.full} of {summary.runs}; {kinds}; "
            f"{summary.distinct_directed} different ({summary.distinct_symmetric} up to symmetry)"
            + (f"; from all {everywhere.runs} starts {everywhere.full}" if len(chosen) < len(first) else "")
            + ".",
        }

    return answer


def homework_starts(data: StoreData) -> dict[str, Any]:
    """The existence map of each homework board (engine: theory, a closed tour walked from each
    start, or a search), checked against the stored census where there is one."""
    from knight.engine.starts import existence_map

    maps = []
    for size in HOMEWORK_SIZES:
        board = Board(size, size)
        records = existence_map(board)
        kinds = {r.square: r.kind for r in records}
        found = sum(kind == "found" for kind in kinds.values())
        census = next(
            (
                c
                for c in data.censuses
                if (c.n, c.m) == (size, size) and c.complete and not c.closed and not c.removed and c.starts is None
            ),
            None,
        )
        maps.append(
            {
                "board": board_text(size, size),
                "squares": board.size,
                "found": found,
                "none": sum(kind == "none" for kind in kinds.values()),
                "unknown": sum(kind == "unknown" for kind in kinds.values()),
                "proofs": sorted({r.method for r in records if r.kind == "none"}),
                "ways": sorted({_way_words(r.method) for r in records if r.kind == "found"}),
                "nodes": sum(r.nodes for r in records),
                "census": None
                if census is None
                else all((census.counts.get(square, 0) > 0) == (kind == "found") for square, kind in kinds.items()),
                "svg": starts_map_svg(board, kinds, title=f"where a tour starts on {board}"),
                "width_mm": MAP_SQUARE_MM * size,  # squares of one size on every map
            }
        )
    return {
        "maps": maps,
        "glance": "; ".join(
            f"{m['board']}: {m['found']} of {m['squares']}" + (" squares" if i == 0 else "") for i, m in enumerate(maps)
        )
        + " — "
        + (
            "every square where a closed tour exists, on an odd board only the larger colour"
            if any(m["none"] for m in maps)
            else "every square"
        )
        + ".",
    }


def _way_words(method: str) -> str:
    """How a tour from a square was found, in a student's words (the engine's record names the method)."""
    if method.startswith("closed tour (") and method.endswith(") walked from the start"):
        made_by = method[len("closed tour (") : -len(") walked from the start")]
        closed = {"parberry": "Parberry's closed tour", "backtrack": "a closed tour found by backtracking"}
        return f"by walking {closed.get(made_by, 'a closed tour')} of the board from the square"
    return {
        "Warnsdorff with rotations": "by Warnsdorff's rule with Pósa's rotations",
        "pruned search": "by an exhaustive search",
        "open tour of an odd block joined with closed tours": "by joining a small open tour to closed tours of blocks",
        "open tour of a 3-wide window extended by 3 × 4 blocks": "by extending a small tour with 3 × 4 blocks",
    }.get(method, method)


# --- The Eiffel text -------------------------------------------------------------------------------


def eiffel_first(data: StoreData) -> dict[str, Any]:
    results = data.results
    first_tours = sorted(
        (
            {"size": r.n, "board": board_text(r.n), "order": r.params["order"], "nodes": r.work, "record": r}
            for r in results.select("backtrack", closed=False)
            if r.start == (0, 0) and r.n == r.m and r.n in EIFFEL_SIZES and r.full and "removed" not in r.params
        ),
        key=lambda t: (t["size"], t["order"] != "plain"),
    )
    five = results.by_start("backtrack", 5, 5, order="plain", closed=False)
    proven_none = [r for r in five.values() if not r.full and not r.budget_exhausted]
    plain = [t for t in first_tours if t["order"] == "plain"]
    drawn = plain[0] if plain else first_tours[0]
    given_up = sorted(
        {
            (r.n, r.work)
            for r in results.select("backtrack", order="plain", closed=False)
            if r.start == (0, 0)
            and r.n == r.m
            and r.n in EIFFEL_SIZES
            and r.budget_exhausted
            and "removed" not in r.params
        }
    )
    return {
        "first_tours": [{k: v for k, v in t.items() if k != "record"} for t in first_tours],
        "given_up": [{"board": board_text(n), "nodes": nodes} for n, nodes in given_up],
        "svg": tour_svg(drawn["record"].tour(), title=f"first tour found on {drawn['board']}"),
        "drawn": {k: v for k, v in drawn.items() if k != "record"},
        "five": {
            "starts": len(five),
            "found": sum(r.full for r in five.values()),
            "proven_none": len(proven_none),
            "out_of_budget": sum(r.budget_exhausted for r in five.values()),
            "nodes_total": sum(r.work for r in five.values()),
        },
        "glance": "First tour from (0, 0) after "
        + ", ".join(
            [f"{t['nodes']:,}{' nodes' if i == 0 else ''} on {t['board']}" for i, t in enumerate(plain)]
            + [f"none within {nodes:,} on {board_text(n)}" for n, nodes in given_up]
        )
        + " (plain order); "
        f"{sum(r.full for r in five.values())} of 25 squares of 5 × 5 start a tour, {len(proven_none)} proved none.",
    }


def eiffel_all(data: StoreData) -> dict[str, Any]:
    whole = [c for c in data.censuses if c.total is not None and not c.removed and c.starts is None and not c.closed]
    if not whole:
        raise MissingData("no complete census of open tours")
    boards = []
    for c in whole:
        board = c.board
        full = [r for r in data.results.select(n=c.n, m=c.m) if r.full and r.method != "backtrack"]
        by_method: dict[str, set[str]] = {}
        for r in full:
            name = (
                METHOD_NAMES.get(r.method, r.method)
                if r.method != "warnsdorff"
                else f"Warnsdorff ({r.params['tie']} ties)"
            )
            by_method.setdefault(name, set()).add(r.key_directed)
        grid = np.full((c.n, c.m), np.nan)
        for start, count in c.counts.items():
            grid[start] = count
        boards.append(
            {
                "board": board_text(c.n, c.m),
                "total": c.total,
                "undirected": c.undirected,
                "nodes": c.nodes,
                "corner": c.counts.get((0, 0)),
                "found": len({r.key_directed for r in full}),
                "by_method": sorted(((name, len(keys)) for name, keys in by_method.items()), key=lambda x: -x[1]),
                "homework_rule": len(by_method.get(HOMEWORK_RULE, ())),
                "heat": heat_map_svg(board, grid, title=f"{board}: open tours from each start", label_format="{:,.0f}")
                if c.n * c.m <= 36
                else "",
            }
        )
    return {
        "boards": boards,
        "open_8x8": None if any((c.n, c.m) == (8, 8) for c in whole) else OPEN_TOURS_8X8,
        "incomplete": [board_text(c.n, c.m) for c in data.censuses if c.total is None],
        "glance": "; ".join(
            f"{b['board']}: {b['total']:,}{' directed open tours' if i == 0 else ''}"
            + (f" ({b['corner']:,} from each corner)" if b["corner"] else "")
            for i, b in enumerate(boards)
        )
        + "; Homework #8's rule finds "
        + " and ".join(f"{b['homework_rule']:,}" for b in boards)
        + " of them, all the heuristics together "
        + " and ".join(f"{b['found']:,}" for b in boards)
        + ".",
    }


def eiffel_closed(data: StoreData) -> dict[str, Any]:
    closed = [c for c in data.censuses if c.closed and c.total is not None and not c.removed and c.starts is None]
    if not closed:
        raise MissingData("no complete census of closed tours")
    boards = []
    for c in closed:
        found = {r.tour().key_cycle for r in data.results.select("backtrack", c.n, c.m, closed=True) if r.success}
        boards.append(
            {
                "board": board_text(c.n, c.m),
                "directed": c.total,
                "cycles": c.undirected,
                "symmetric": c.symmetric,
                "nodes": c.nodes,
                "found": len(found),
            }
        )
    drawn = [
        r
        for r in data.results.select("backtrack", closed=True)
        if r.start == (0, 0) and r.n in EIFFEL_SIZES and r.success
    ]
    sizes = [s for s in EIFFEL_SIZES if (s * s) % 2 == 0]
    counted = {(c.n, c.m) for c in closed}
    literature = [] if (8, 8) in counted else [{"board": board_text(8, 8), "cycles": CLOSED_TOURS_8X8}]
    return {
        "boards": boards,
        "literature": literature,
        "even_sizes": [board_text(s) for s in sizes],
        "tours": [
            {
                "board": board_text(r.n, r.m),
                "order": r.params["order"],
                "nodes": r.work,
                "svg": tour_svg(r.tour(), title=f"closed tour on {board_text(r.n, r.m)}"),
            }
            for r in drawn[:2]
        ],
        "glance": f"Only on boards with an even number of squares ({', '.join(board_text(s) for s in sizes)}; "
        f"never 5 × 5); "
        + "; ".join(f"{b['board']} has {b['cycles']:,} closed tours" for b in boards)
        + "".join(f"; {b['board']} has {b['cycles']:,} (the literature)" for b in literature)
        + ".",
    }


def eiffel_colours(data: StoreData) -> dict[str, Any]:
    rows, runs, full, boards = [], 0, 0, 0
    odd_boards = sorted(
        {(r.n, r.m) for r in data.results.records if (r.n * r.m) % 2 == 1 and not r.params.get("removed")}
    )
    largest = board_text(*max(odd_boards, key=lambda b: (b[0] * b[1], b))) if odd_boards else ""
    for n, m in odd_boards:
        # whole boards only: without two corners, the colour with more squares changes
        board = Board(n, m)
        minority = [
            r
            for r in data.results.select(n=n, m=m)
            if board.colour(r.start) == board.minority_colour() and not r.params.get("removed")
        ]
        if not minority:
            continue
        boards, runs, full = boards + 1, runs + len(minority), full + sum(r.full for r in minority)
        if n * m <= 49:
            rows.append(
                {
                    "board": board_text(n, m),
                    "runs": len(minority),
                    "full": sum(r.full for r in minority),
                    "squares": colour_counts(board)[1],
                }
            )
    if not boards:
        raise MissingData("no runs on odd boards")
    if boards > len(rows):
        rows.append(
            {"board": f"all {boards} odd boards run, up to {largest}", "runs": runs, "full": full, "squares": "—"}
        )
    five = data.results.require("backtrack", 5, 5, order="plain", closed=False)
    proven_none = [r for r in five if not r.full and not r.budget_exhausted]
    majority, minority_count = colour_counts(Board(5, 5))
    return {
        "rows": rows,
        "majority": majority,
        "minority": minority_count,
        "proven_none": len(proven_none),
        "proven_none_minority": sum(Board(5, 5).colour(r.start) == 1 for r in proven_none),
        "glance": f"Each move changes colour: on 5 × 5 only the {majority}-square colour starts a tour ({full} in "
        f"{runs:,} runs from the other), and no odd board has a closed tour.",
    }


def eiffel_corners(data: StoreData) -> dict[str, Any]:
    mutilated: list[dict[str, Any]] = []
    for c in (c for c in data.censuses if c.removed and c.total is not None):
        board = c.board
        first, second = colour_counts(board, c.removed)
        mutilated.append(
            {
                "board": board_text(c.n, c.m),
                "n": c.n,
                "removed": [tuple(square) for square in c.removed],
                "colours": (first, second),
                "total": c.total,
                "nodes": c.nodes,
                "odd": c.n % 2 == 1,
                "theory": open_tour_verdict(board, removed=c.removed),
            }
        )
    searches = _searches_by_board(
        [r for r in data.results.select("backtrack") if r.params.get("removed") and r.n % 2 == 1]
    )
    if not mutilated:
        raise MissingData("no census without opposite corners")
    even = [b for b in mutilated if not b["odd"]]
    odd = [b for b in mutilated if b["odd"]]
    even_agree = all(b["total"] == 0 for b in even)
    odd_found = [f"{b['board']}: {b['total']:,} tours" for b in odd if b["total"] > 0] + [
        f"{s['board']}: a tour from {_count_of(s['found'], s['starts'], 'start')} tried" for s in searches if s["found"]
    ]
    odd_text = (
        "odd n: possible, our runs find journeys — " + "; ".join(odd_found)
        if odd_found
        else "odd n: none found on " + ", ".join([b["board"] for b in odd] + [s["board"] for s in searches])
        if odd or searches
        else "odd n: not searched"
    )
    return {
        "boards": mutilated,
        "odd_found": searches,
        "eight": open_tour_verdict(Board(8, 8), removed=[(0, 0), (7, 7)]),
        "even_agree": even_agree,
        "odd_possible": bool(odd_found),
        "glance": f"Even n: impossible, our runs {'agree' if even_agree else 'disagree'} "
        f"({'no tour' if even_agree else 'tours found'} on {', '.join(b['board'] for b in even)}); {odd_text}.",
    }


def _searches_by_board(records: list[TourRecord]) -> list[dict[str, Any]]:
    """First-tour searches on boards with squares removed, one row per board: starts tried, tours found."""
    boards: dict[tuple[int, int], list[TourRecord]] = {}
    for record in records:
        boards.setdefault((record.n, record.m), []).append(record)
    return [
        {
            "board": board_text(n, m),
            "removed": [tuple(square) for square in runs[0].params.get("removed", ())],
            "colours": colour_counts(Board(n, m), [tuple(square) for square in runs[0].params.get("removed", ())]),
            "starts": len(runs),
            "found": sum(r.full for r in runs),
            "nodes": sum(r.work for r in runs),
        }
        for (n, m), runs in sorted(boards.items())
    ]


def eiffel_parberry(data: StoreData) -> dict[str, Any]:
    records = [r for r in data.results.select("parberry") if r.moves]
    if not records:
        raise MissingData("no Parberry tour")
    boards = []
    for record in records:
        tour = record.tour()
        moves = {frozenset(pair) for pair in zip(tour.squares, tour.squares[1:] + tour.squares[:1])}
        corner = structured_moves(record.n, record.m)
        base = (record.n, record.m) in BASE_SIZES or (record.m, record.n) in BASE_SIZES
        boards.append(
            {
                "board": board_text(record.n, record.m),
                "closed": record.closed,
                "base": base,
                "quarter": None if base else board_text(record.n // 2, record.m // 2),
                "corner_moves": sum(frozenset(pair) in moves for pair in corner),
                "of": len(corner),
            }
        )
    eight = next((r for r in records if (r.n, r.m) == (8, 8)), records[0])
    shown = next(b for b in boards if b["board"] == board_text(eight.n, eight.m))
    joined = next((b for b in boards if not b["base"]), None)
    return {
        "boards": boards,
        "board": board_text(eight.n, eight.m),
        "joined": joined,
        "shown": shown,
        "svg": tour_svg(
            eight.tour(),
            title=f"a closed tour of {board_text(eight.n, eight.m)} with the join property",
            highlight=structured_moves(eight.n, eight.m),
        ),
        "glance": "Four closed quarter tours join by swapping one corner move in each"
        + (f" ({joined['board']} from four {joined['quarter']})" if joined else "")
        + f"; the {shown['board']} tour shown is {'closed' if shown['closed'] else 'NOT closed'}, with "
        f"{shown['corner_moves']} of {shown['of']} corner moves.",
    }


# --- The Warnsdorff blog ----------------------------------------------------------------------------


def blog_wozniak(data: StoreData) -> dict[str, Any]:
    estimates = {(e.n, e.m): e for e in data.estimates if e.start == (0, 0)}
    eight = estimates.get((8, 8))
    if eight is None or eight.nodes_per_second is None:
        raise MissingData("no timed estimate of the 8 x 8 tree")
    rate = eight.nodes_per_second
    years_log = math.log10(eight.node_mean / rate / SECONDS_PER_YEAR)
    moves = eight.n * eight.m - 1  # the moves of a full tour: the tree's depth
    agree = abs(years_log - WOZNIAK_YEARS_LOG10) <= 1
    shown = [e for _, e in sorted(estimates.items())]
    return {
        "eight": eight,
        "estimates": shown,
        "rate": rate,
        "years_log": years_log,
        "years": 10**years_log,
        "nodes_log": math.log10(eight.node_mean),
        "moves": moves,
        "moves_power": superscript(moves),  # d⁶³
        # the same count from d choices at each of the moves: d ** moves = nodes
        "branching": 10 ** (math.log10(eight.node_mean) / moves),
        "guesses": [(d, moves * math.log10(d)) for d in (2, 3)],
        "sequences_log": moves * math.log10(8),  # every move tried, visited squares or not
        "slow_rate": SLOW_NODES_PER_SECOND,
        "slow_years_log": math.log10(eight.node_mean / SLOW_NODES_PER_SECOND / SECONDS_PER_YEAR),
        "agree": agree,
        "too_long_log": WOZNIAK_YEARS_LOG10 - years_log,
        "claim_log": WOZNIAK_YEARS_LOG10,
        "age_ratio_log": years_log - math.log10(AGE_OF_THE_UNIVERSE_YEARS),
        "chart": estimates_svg(
            {board_text(e.n, e.m): _running_estimate(e) for e in shown},
            spread={board_text(e.n, e.m): e.node_sd / e.node_mean for e in shown if e.node_mean > 0},
            exact={board_text(e.n, e.m): e.exact_nodes for e in shown if e.exact_nodes},
        ),
        "years_per_node": 10**WOZNIAK_YEARS_LOG10 / eight.node_mean,
        "glance": f"About {scientific(eight.node_mean, 2)} nodes from the corner (Knuth's estimator, "
        f"{eight.probes:,} probes); at {scientific(rate)} nodes a second that is about "
        f"{scientific(10**years_log)} years: our runs "
        f"{'agree' if agree else 'disagree'} with {power_of_ten(WOZNIAK_YEARS_LOG10)}.",
    }


def blog_example(data: StoreData) -> dict[str, Any]:
    random_runs = data.results.require("warnsdorff", 8, 8, tie="random")
    chosen = random.Random(2014).choice(random_runs)  # "start the knight randomly": a seeded draw from the runs
    return {
        "start": chosen.start,
        "seed": chosen.params.get("seed"),
        "full": chosen.full,
        "length": chosen.length,
        "svg": tour_svg(chosen.tour(), title="Warnsdorff's rule from a random start"),
        "glance": f"{'Yes' if chosen.full else 'No'}: from {chosen.start} (random ties, seed "
        f"{chosen.params.get('seed')}) a {'full' if chosen.full else 'partial'} tour of "
        f"{chosen.length} squares.",
    }


def blog_script(data: StoreData) -> dict[str, Any]:
    results = data.results
    starts = results.by_start("warnsdorff", 8, 8, tie="blog")
    complete = sum(r.full for r in starts.values())
    reach = reach_by_rule(results.select("warnsdorff", tie="blog")).get("blog")
    first = reach.first_failure if reach else None
    failing = reach.failing if reach else []
    board = Board(8, 8)
    return {
        "complete": complete,
        "starts": len(starts),
        "first_failure": first,
        "largest": reach.sides[-1] if reach else None,
        "failing": failing,
        "heat": heat_map_svg(
            board,
            _grid(board, starts, lambda r: r.length),
            title="the blog's script: squares reached from each start",
            low=1,
            high=64,
        ),
        "glance": f"It completes from {complete} of the {len(starts)} squares of 8 × 8; from the corner it first fails "
        + (f"at m = {first}" if first else f"nowhere up to m = {reach.sides[-1] if reach else '—'}")
        + ".",
    }


def blog_past_50(data: StoreData) -> dict[str, Any]:
    reach = data.reach
    if "first" not in reach:
        raise MissingData("no board-size study")
    first = reach["first"]
    largest = max(r.sides[-1] for r in reach.values())
    width = 5 if largest <= 150 else 25
    chart = success_by_size_svg(
        {tie: reach[tie].binned(width) for tie in CHARTED_RULES if tie in reach},
        title=f"Full tours from the corner, in ranges of {width} sides",
    )
    ranges = side_ranges(largest)
    rules = [
        {
            "tie": tie,
            "tested": len(rule.sides),
            "smallest": rule.sides[0],
            "largest": rule.sides[-1],
            "runs": sum(r for _, r in rule.outcomes.values()),
            "first": rule.first_failure,
            "failing": len(rule.failing),
            "by_range": [rule.rate_between(low, high) for low, high in ranges],
        }
        for tie, rule in reach.items()
    ]
    claims = judge_claims(reach)
    verdict = next(c["verdict"] for c in claims if c["rule"] == "first")
    below, above = first.rate_between(5, 50), first.rate_between(51, largest)
    return {
        "first": first.first_failure,
        "failing": len(first.failing),
        "tested": len(first.sides),
        "largest": largest,
        "verdict": verdict,
        "below": below,
        "above": above,
        "chart": chart,
        "rules": rules,
        "ranges": [f"{low}–{high}" for low, high in ranges],
        "claims": claims,
        "rectangles": _rectangles(data.results),
        "every_start": _every_start(data.results),
        "glance": (
            f"From the corner the plain rule first fails at m = {first.first_failure}"
            if first.first_failure
            else f"The plain rule never fails from the corner up to m = {largest}"
        )
        + (
            f"; it succeeds on {below:.0%} of sides up to 50 and {above:.0%} above: our runs {verdict}."
            if above is not None
            else f": {verdict}."
        ),
    }


def blog_w_plus(data: StoreData) -> dict[str, Any]:
    reach = data.reach
    if "first" not in reach:
        raise MissingData("no board-size study")
    largest = max(r.sides[-1] for r in reach.values())
    plain = reach["first"].rate_between(51, largest)
    rows: list[dict[str, Any]] = []
    for name, tie in (("W+ (Squirrel–Cull)", W_PLUS), ("W2 (second-level look-ahead)", W_TWO)):
        rule = reach.get(tie)
        if rule is None or plain is None:
            continue
        rate = rule.rate_between(51, largest)
        both = [m for m in rule.sides if 51 <= m <= largest and m in reach["first"].outcomes]  # sides both ran
        if rate is None or not both:
            continue
        full, plain_full = rule.full_sides(both), reach["first"].full_sides(both)
        rows.append(
            {
                "name": name,
                "tie": tie,
                "rate": rate,
                "full": full,
                "sides": len(both),
                "plain": plain,
                "plain_full": plain_full,
                "failing": len(rule.failing),
                "tested": len(rule.sides),
                "first": rule.first_failure,
                "verdict": "agree" if full > plain_full else "disagree",  # decided by the counts the table shows
            }
        )
    if not rows:
        raise MissingData("no runs of W+ or W2 past m = 50")
    return {
        "rows": rows,
        "largest": largest,
        "glance": "; ".join(
            f"{r['name'].split(' ')[0]}: {r['full']} of the {r['sides']} sides 51–{largest} (the plain rule "
            f"{r['plain_full']}), our runs {r['verdict']}"
            for r in rows
        )
        + ".",
    }


def blog_ties(data: StoreData) -> dict[str, Any]:
    comparison: list[dict[str, Any]] = []
    for tie in TIE_BREAKS:
        records = data.results.select("warnsdorff", 8, 8, tie=tie)
        if records:
            comparison.append(
                {
                    "tie": tie,
                    "meaning": TIE_BREAKS[tie],
                    "summary": Summary.of(records),
                    "rate": Summary.of(records).full / len(records),
                }
            )
    everywhere = [c for c in comparison if c["summary"].starts == 64]
    if not everywhere:
        raise MissingData("no tie-break run from every start of 8 x 8")
    top = max(c["rate"] for c in everywhere)
    best = [c for c in everywhere if c["rate"] == top]
    others = sorted((c for c in everywhere if c["rate"] < top), key=lambda c: -c["rate"])
    second_level = next((c for c in everywhere if c["tie"] == W_TWO), None)
    return {
        "comparison": comparison,
        "second_level": second_level,
        "literature_w2": GANZFRIED_W2_ON_8X8,
        "best": best,
        "best_rate": top,
        "glance": f"From all 64 starts: {' and '.join(c['tie'] for c in best)} ({top:.0%} full); "
        + ", ".join(f"{c['tie']} {c['rate']:.0%}" for c in others)
        + ".",
    }


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


def _every_start(results: Results) -> list[dict[str, Any]]:
    """For square boards run from every start: the share of starts from which each rule finds a full tour."""
    rows: dict[int, dict[str, list[bool]]] = {}
    for record in results.select("warnsdorff"):
        if record.n == record.m and record.params["tie"] in ("first", "lookahead-min", "lookahead-sum", "roth"):
            rows.setdefault(record.n, {}).setdefault(record.params["tie"], []).append(record.full)
    return [
        {"side": side, "starts": side * side, "shares": {tie: sum(runs) / len(runs) for tie, runs in by_tie.items()}}
        for side, by_tie in sorted(rows.items())
        if all(len(runs) == side * side for runs in by_tie.values()) and len(by_tie) == 4
    ]


#: Each question's answer, by the id it has in questions.toml.
ANSWERS: dict[str, Callable[[StoreData], dict[str, Any]]] = {
    "deitel-by-hand": deitel_by_hand,
    "deitel-naive": deitel_naive,
    "deitel-heuristic": deitel_heuristic,
    "deitel-64-tours": deitel_64_tours,
    "homework-program": homework_program,
    "homework-5x5": _homework_board(5),
    "homework-6x6": _homework_board(6),
    "homework-8x8": _homework_board(8),
    "homework-starts": homework_starts,
    "eiffel-first": eiffel_first,
    "eiffel-all": eiffel_all,
    "eiffel-closed": eiffel_closed,
    "eiffel-colours": eiffel_colours,
    "eiffel-corners": eiffel_corners,
    "eiffel-parberry": eiffel_parberry,
    "blog-wozniak": blog_wozniak,
    "blog-example": blog_example,
    "blog-script": blog_script,
    "blog-past-50": blog_past_50,
    "blog-w-plus": blog_w_plus,
    "blog-ties": blog_ties,
}


# --- Appendix ---------------------------------------------------------------------------------------

#: The technical terms the key uses, defined for a student.
GLOSSARY: dict[str, str] = {
    "degree (accessibility)": "the number of unvisited squares one knight move away from a square",
    "full tour": "a path of knight moves that visits every square once",
    "partial tour": "a path that stops before every square is visited: the knight has no unvisited square to go to",
    "open / closed tour": "closed when the last square is one knight move from the first (a circular journey), "
    "open otherwise",
    "directed tours": "tours counted as sequences: a tour and its reversal count twice",
    "up to symmetry": "tours that become one another by a rotation or reflection of the board (or by walking "
    "them backwards) counted once",
    "tie-break": "the rule that chooses among squares of equal lowest degree; the tables name them first (the lowest "
    "move number), random, lookahead-min, lookahead-sum, roth (the square farthest from the centre), squirrel "
    "(Squirrel & Cull's orderings), blog (the blog's script), each described in the table of the tie-breaks on 8 × 8",
    "move order (plain, warnsdorff)": "the order a backtracking search tries the moves in: plain is move 0 to 7; "
    "warnsdorff tries the squares of lowest degree first",
    "look-ahead (lookahead-min, lookahead-sum)": "tie-breaks that look one move further: to the lowest degree "
    "reachable next, or the least total degree of the next squares",
    "backtracking": "depth-first search: try a move, and undo it when it leads nowhere",
    "node": "one square placed by a search; the number of nodes measures the work done",
    "census": "counting every tour of a board by a search that tries every path",
    "colour argument": "a knight always moves to the other colour, so a path alternates colours",
    "Knuth's estimator": "an estimate of the size of a search tree from random walks down it (Knuth 1975)",
    "Pósa's rotations": "when the path is stuck, reverse its last stretch so that it ends on another square, "
    "and go on from there (Pósa 1976)",
}


#: The works the key cites, by the short name it cites them with.
SOURCES: dict[str, str] = {
    "Warnsdorff 1823": "H. C. von Warnsdorff, Des Rösselsprunges einfachste und allgemeinste Lösung, Schmalkalden",
    "Pohl 1967": "I. Pohl, A method for finding Hamilton paths and knight's tours, Communications of the ACM 10, "
    "446–449",
    "Knuth 1975": "D. E. Knuth, Estimating the efficiency of backtrack programs, Mathematics of Computation 29, "
    "121–136",
    "Wirth 1976": "N. Wirth, Algorithms + Data Structures = Programs, Prentice-Hall (the backtracking knight's tour)",
    "Pósa 1976": "L. Pósa, Hamiltonian circuits in random graphs, Discrete Mathematics 14, 359–364",
    "Schwenk 1991": "A. J. Schwenk, Which rectangular chessboards have a knight's tour?, Mathematics Magazine 64, "
    "325–332",
    "Conrad et al. 1994": "A. Conrad, T. Hindrichs, H. Morsy, I. Wegener, Solution of the knight's Hamiltonian "
    "path problem on chessboards, Discrete Applied Mathematics 50, 125–134",
    "Squirrel & Cull 1996": "D. Squirrel, P. Cull, A Warnsdorff-rule algorithm for knight's tours on square "
    "chessboards",
    "Parberry 1997": "I. Parberry, An efficient algorithm for the knight's tour problem, Discrete Applied "
    "Mathematics 73, 251–260",
    "McKay 1997": "B. D. McKay, Knight's tours of an 8 × 8 chessboard, technical report TR-CS-97-03, Australian "
    "National University (13,267,364,410,532 closed tours)",
    "Ganzfried 2004": "S. Ganzfried, A simple algorithm for knight's tours, Oregon State University REU report",
    "Roth": "A. Roth's tie-break: the tied square farthest from the board's centre",
    "OEIS": "The On-Line Encyclopedia of Integer Sequences: A165134 (directed open tours of n × n), A001230 "
    "(closed tours of 2n × 2n)",
}


def appendix_section() -> dict[str, Any]:
    """The appendix: each method with its parameters as the method describes them (choices as registered now)."""
    return {
        "methods": [
            {
                "name": m.name,
                "summary": m.summary,
                "reference": m.reference,
                "parameters": {name: p.describe() for name, p in m.parameters.items()},
            }
            for m in METHODS.values()
        ],
        "orderings": ORDERINGS,
        "horizontal": list(HORIZONTAL),
        "vertical": list(VERTICAL),
        "glossary": GLOSSARY,
        "sources": SOURCES,
    }


def _grid(board: Board, by_start: dict[Square, TourRecord], value: Any) -> np.ndarray:
    grid = np.full((board.n, board.m), np.nan)
    for start, record in by_start.items():
        grid[start] = value(record)
    return grid


def _running_estimate(found: EstimateRecord) -> tuple[list[int], list[float]]:
    """An estimate's running mean of nodes at each checkpoint (powers of ten of probes), ending with the estimate
    from every probe (a last point of its own when the probes are not a power of ten)."""
    before = [c for c in found.checkpoints if c.probes < found.probes]
    return [*(c.probes for c in before), found.probes], [*(c.node_mean for c in before), found.node_mean]


def _count_of(part: int, whole: int, noun: str) -> str:
    """``each of the 4 starts`` when ``part`` is all of ``whole``, else ``3 of the 4 starts``."""
    nouns = noun if whole == 1 else f"{noun}s"
    return f"each of the {whole} {nouns}" if part == whole else f"{part} of the {whole} {nouns}"


def _count(number: int, noun: str) -> str:
    return f"no {noun}" if number == 0 else f"{number} {noun}{'s' if number != 1 else ''}"
