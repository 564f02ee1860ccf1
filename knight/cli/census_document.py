"""`knight census --json`'s document: the same keys whether the census was searched or answered by theory, open
or closed (null where a value does not apply)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:  # imported where used: `knight --help` loads no engine
    from knight.engine import Board
    from knight.engine.census import Census
    from knight.engine.theory import Verdict

__all__ = ["CensusDocument", "CensusRun", "census_document"]


class Theory(TypedDict):
    """What theory says of the board (:class:`~knight.engine.theory.Verdict`)."""

    exists: bool | None
    argument: str
    reason: str


class CensusRun(TypedDict):
    """How the census ran: the store, units counted now and found there, on how many processes of which
    executor, in how long (none, 0 and null when theory answered)."""

    store: str | None
    units_run: int
    units_stored: int
    processes: int
    executor: str | None
    seconds: float


class _Head(TypedDict):
    board: list[int]
    closed: bool
    removed: list[list[int]]
    theory: Theory


class _Counts(TypedDict):
    counts: list[list[int | None]] | None
    total: int | None
    undirected: int | None
    cycles: int | None
    cycles_up_to_symmetry: int | None
    nodes: int | None
    units: int
    units_done: int
    units_failed: int
    failures: list[str]
    searched: bool
    searched_starts: list[list[int]]


class CensusDocument(_Head, _Counts, CensusRun):
    """``knight census --json``'s document (after its version): the same keys whether the census was searched
    or answered by theory, open or closed (null where a value does not apply)."""


def census_document(
    board: Board,
    closed: bool,
    removed: list,
    start: tuple[int, int] | None,
    verdict: Verdict,
    result: Census | None,
    symmetric: int | None,
    run: CensusRun | None,
) -> CensusDocument:
    """The census as the JSON document's data: the same keys whether it was searched or answered by theory,
    open or closed (null where a value does not apply)."""
    head: _Head = {
        "board": [board.n, board.m],
        "closed": closed,
        "removed": [list(s) for s in removed],
        "theory": {"exists": verdict.exists, "argument": verdict.argument, "reason": verdict.reason},
    }
    if result is None or run is None:
        counts: list[list[int | None]] = [
            [None if (r, c) in removed or (start and (r, c) != tuple(start)) else 0 for c in range(board.m)]
            for r in range(board.n)
        ]
        return {
            **head,
            "counts": counts,
            "total": 0,
            "undirected": None if closed else 0,
            "cycles": 0 if closed else None,
            "cycles_up_to_symmetry": 0 if closed else None,
            "nodes": 0,
            "units": 0,
            "units_done": 0,
            "units_failed": 0,
            "failures": [],
            "searched": False,
            "searched_starts": [],
            "store": None,
            "units_run": 0,
            "units_stored": 0,
            "processes": 0,
            "executor": None,
            "seconds": 0.0,
        }
    return {
        **head,
        "counts": [[int(v) if v >= 0 else None for v in row] for row in result.counts],
        "total": result.total,
        "undirected": result.undirected,
        "cycles": result.cycles if closed else None,
        "cycles_up_to_symmetry": symmetric if closed else None,
        "nodes": result.nodes,
        "units": result.units,
        "units_done": result.units,
        "units_failed": 0,
        "failures": [],
        "searched": True,
        "searched_starts": [list(s) for s in result.searched_starts],
        **run,
    }
