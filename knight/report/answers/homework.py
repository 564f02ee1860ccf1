"""The answers to Homework #8 (Warnsdorff's program, its tours on 5 x 5, 6 x 6 and 8 x 8, and from which
squares a tour starts at all)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from knight.engine import TIE_BREAKS, Board
from knight.engine.diagrams import starts_map_svg, tour_svg
from knight.report.answers.common import StoreData, reached_map
from knight.report.questions import questions
from knight.report.records import Summary
from knight.report.text import board_text

__all__ = ["HOMEWORK_SIZES", "homework_board", "homework_program", "homework_starts"]

#: The side of a square on the existence maps, in millimetres.
MAP_SQUARE_MM = 6
#: The homework's boards.
HOMEWORK_SIZES = (5, 6, 8)


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


def homework_board(size: int) -> Callable[[StoreData], dict[str, Any]]:
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
            "heat": reached_map(board, first, f"{board_text(size)}: squares reached from each start")
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
