"""The report's queries over the stored tours (:class:`~knight.store.TourRecord`): indexed
selections by method, board and parameters, and a summary of a group of runs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from knight.engine.board import Square, size_text
from knight.errors import MissingData
from knight.store.records import CensusRecord, EstimateRecord, FrontierRecord, TourRecord

__all__ = ["CensusRecord", "EstimateRecord", "FrontierRecord", "Results", "Summary", "TourRecord"]


class Results:
    """All records, with the few queries the report needs."""

    # Every job the default report answers, by the names that work wherever knight is installed (pinned to the
    # shipped jobs by tests/cli/test_hints_outside_a_clone.py).
    def __init__(
        self,
        records: Iterable[TourRecord],
        *,
        hint: str = "knight run board-sizes census deitel-7.24 eiffel-backtracking homework-8 tree-size warnsdorff-blog",
    ) -> None:
        self.records = sorted(records, key=lambda r: (r.n, r.m, r.start, sorted(r.params.items(), key=str)))
        self.hint = hint
        # Indexes, so that the report's many queries do not each scan every record.
        self._by_method: dict[str, list[TourRecord]] = {}
        self._by_board: dict[tuple[int, int], list[TourRecord]] = {}
        self._by_method_and_board: dict[tuple[str, int, int], list[TourRecord]] = {}
        for record in self.records:
            self._by_method.setdefault(record.method, []).append(record)
            self._by_board.setdefault((record.n, record.m), []).append(record)
            self._by_method_and_board.setdefault((record.method, record.n, record.m), []).append(record)

    def select(
        self, method: str | None = None, n: int | None = None, m: int | None = None, **params: Any
    ) -> list[TourRecord]:
        """The records of one method (and parameters) on one board size, sorted by start square."""
        if method is not None and n is not None and m is not None:
            candidates = self._by_method_and_board.get((method, n, m), [])
        elif n is not None and m is not None:
            candidates = self._by_board.get((n, m), [])
        elif method is not None:
            candidates = self._by_method.get(method, [])
        else:
            candidates = self.records
        return [r for r in candidates if r.matches(method, n, m, params)]

    def require(self, method: str, n: int, m: int, **params: Any) -> list[TourRecord]:
        """Like :meth:`select`, but at least one record must exist."""
        chosen = self.select(method, n, m, **params)
        if not chosen:
            described = ", ".join(f"{k}={v}" for k, v in params.items())
            raise MissingData(
                f"the store has no {method} tours on {size_text(n, m)}"
                f"{f' with {described}' if described else ''}; run `{self.hint}` first"
            )
        return chosen

    def by_start(self, method: str, n: int, m: int, **params: Any) -> dict[Square, TourRecord]:
        """One record per start square (the first, when several seeds share a start)."""
        found: dict[Square, TourRecord] = {}
        for record in self.require(method, n, m, **params):
            found.setdefault(record.start, record)
        return found


@dataclass(frozen=True)
class Summary:
    """What a group of runs found: how many, how many full or closed, and how many distinct tours."""

    runs: int
    starts: int
    full: int
    closed: int
    starts_with_full: int
    distinct_directed: int
    distinct_undirected: int
    distinct_symmetric: int
    mean_length: float

    @classmethod
    def of(cls, records: list[TourRecord]) -> Summary:
        full = [r for r in records if r.full]
        return cls(
            runs=len(records),
            starts=len({r.start for r in records}),
            full=len(full),
            closed=sum(r.closed for r in records),
            starts_with_full=len({r.start for r in full}),
            distinct_directed=len({r.key_directed for r in full}),
            distinct_undirected=len({r.key_undirected for r in full}),
            distinct_symmetric=len({r.key_symmetric for r in full}),
            mean_length=sum(r.length for r in records) / len(records) if records else 0.0,
        )
