"""The rows of `knight results`: a sweep's summary, a census, a frontier count and a tree-size estimate, each with
its table cells and its JSON (typed, read from the store's records once)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:  # the engine and the store are imported where used: `knight --help` loads neither
    from knight.engine.board import Square
    from knight.engine.parameters import Params, ParamValue
    from knight.store import CensusRecord, EstimateRecord, FrontierRecord

__all__ = [
    "Cell",
    "TourCounts",
    "TourJson",
    "CensusCounts",
    "CensusJson",
    "FrontierJson",
    "TourRow",
    "CensusRow",
    "FrontierRow",
    "EstimateRow",
    "estimate_json",
    "format_params",
]

#: A table cell's value before it is text (None shows as ``-``; CSV writes it as nothing).
Cell = int | str | None


class TourCounts(TypedDict):
    """A sweep summary row's numbers, in the table's order."""

    starts: int
    tasks: int
    done: int
    failed: int
    pending: int
    full: int
    closed: int
    starts_full: int
    distinct_directed: int
    distinct_undirected: int
    distinct_symmetric: int


class TourJson(TourCounts):
    """A sweep summary row in ``knight results --json``: the board as ``[n, m]``."""

    job: str
    board: list[int]
    method: str
    params: Params


class CensusCounts(TypedDict):
    """A census row's numbers, in the table's order: its depth, units done and failed, and its totals once
    complete (else None)."""

    depth: int
    units: int
    done: int
    failed: int
    directed: int | None
    undirected: int | None
    nodes: int


class CensusJson(CensusCounts):
    """A census in ``knight results --json``: the board as ``[n, m]``, ``starts`` null for every start."""

    jobs: list[str]
    board: list[int]
    kind: str
    removed: list[list[int]]
    starts: list[list[int]] | None


@dataclass(frozen=True)
class TourRow:
    """One line of the sweep summary: a job's tasks of one board, method and parameter group (random seeds
    counted together, as ``seeds``)."""

    job: str
    n: int
    m: int
    method: str
    params: Params
    counts: TourCounts

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> TourRow:  # a row of Store.summary, read by column name
        params = row["params"]
        if row["variants"] > 1 and (params.get("tie") == "random" or row["method"] == "random-walk"):
            params = {**params, "seeds": row["variants"]}
        counts = TourCounts(
            starts=row["starts"],
            tasks=row["tasks"],
            done=row["done"],
            failed=row["failed"],
            pending=row["pending"],
            full=row["full"],
            closed=row["closed"],
            starts_full=row["starts_full"],
            distinct_directed=row["distinct_directed"],
            distinct_undirected=row["distinct_undirected"],
            distinct_symmetric=row["distinct_symmetric"],
        )
        return cls(row["job"], row["n"], row["m"], row["method"], params, counts)

    def to_json(self) -> TourJson:
        return {"job": self.job, "board": [self.n, self.m], "method": self.method, "params": self.params, **self.counts}

    def cells(self, *, grouped: bool = True) -> dict[str, str]:
        """The row as text under :data:`COLUMNS` (parameters' numbers grouped unless not ``grouped``: CSV)."""
        return {
            "job": self.job,
            "board": _size_text(self.n, self.m),
            "method": self.method,
            "params": format_params(self.params, grouped=grouped),
            **{key: str(value) for key, value in self.counts.items()},
        }


@dataclass(frozen=True)
class CensusRow:
    """One census as a summary row: its definition, units done, and its totals once complete (else None)."""

    jobs: tuple[str, ...]
    n: int
    m: int
    kind: str
    removed: tuple[Square, ...]
    starts: tuple[Square, ...] | None  # None: every start
    counts: CensusCounts

    @classmethod
    def of(cls, stored: CensusRecord) -> CensusRow:
        spec = stored.spec
        counts = CensusCounts(
            depth=spec.depth,
            units=stored.units_total,
            done=stored.units_done,
            failed=stored.units_failed,
            directed=stored.total,
            undirected=stored.undirected,
            nodes=stored.nodes,
        )
        return cls(stored.jobs, spec.n, spec.m, spec.kind, spec.removed, spec.starts, counts)

    def to_json(self) -> CensusJson:
        return {
            "jobs": list(self.jobs),
            "board": [self.n, self.m],
            "kind": self.kind,
            "removed": [list(square) for square in self.removed],
            "starts": None if self.starts is None else [list(square) for square in self.starts],
            **self.counts,
        }

    def values(self) -> dict[str, Cell]:
        """The row under :data:`CENSUS_COLUMNS`: jobs and squares as text, numbers as they are (CSV's row)."""
        return {
            "jobs": _words(self.jobs),
            "board": _size_text(self.n, self.m),
            "kind": self.kind,
            "removed": _squares(self.removed),
            "starts": "all" if self.starts is None else _squares(self.starts),
            **_cells(self.counts),
        }

    def cells(self) -> dict[str, str]:
        return {key: _text(value) for key, value in self.values().items()}


class FrontierJson(TypedDict):
    """A frontier count in ``knight results --json``: the board as ``[n, m]``; ``tours`` directed open tours, or
    for ``closed`` the closed tours as cycles; the most frontier states held at once and in all; the seconds."""

    jobs: list[str]
    board: list[int]
    kind: str
    removed: list[list[int]]
    tours: int
    peak_states: int
    states: int
    seconds: float


@dataclass(frozen=True)
class FrontierRow:
    """One frontier count (every tour of a board, counted at once: it has no start square) as a table row."""

    count: FrontierRecord

    @property
    def kind(self) -> str:
        return "closed" if self.count.closed else "open"

    def to_json(self) -> FrontierJson:
        count = self.count
        return {
            "jobs": list(count.jobs),
            "board": [count.n, count.m],
            "kind": self.kind,
            "removed": [list(square) for square in count.removed],
            "tours": count.tours,
            "peak_states": count.peak_states,
            "states": count.states,
            "seconds": count.seconds,
        }

    def cells(self) -> dict[str, str]:
        count = self.count
        values: dict[str, Cell] = {
            "jobs": _words(count.jobs),
            "board": _size_text(count.n, count.m),
            "kind": self.kind,
            "removed": _squares(count.removed),
            "tours": count.tours,
            "peak_states": count.peak_states,
            "states": count.states,
            "seconds": f"{count.seconds:.2f}",
        }
        return {key: _text(value) for key, value in values.items()}


@dataclass(frozen=True)
class EstimateRow:
    """One tree-size estimate as a table row (exact tours only where the task counted the tree)."""

    estimate: EstimateRecord

    def cells(self) -> dict[str, str]:
        estimate = self.estimate
        rate = estimate.nodes_per_second
        values: dict[str, Cell] = {
            "jobs": _words(estimate.jobs),
            "board": _size_text(estimate.n, estimate.m),
            "start": _squares([estimate.start]),
            "probes": estimate.probes,
            "seed": estimate.seed,
            "nodes": f"{estimate.node_mean:.4g} ± {estimate.node_se:.2g}",
            "exact_nodes": estimate.exact_nodes,
            "tours": f"{estimate.tour_mean:.4g} ± {estimate.tour_se:.2g}",
            "exact_tours": estimate.exact_tours,
            "full_probes": estimate.full_probes,
            "rate": None if rate is None else f"{rate:.3g}",
        }
        return {key: _text(value) for key, value in values.items()}


def estimate_json(estimate: EstimateRecord) -> dict[str, Any]:  # every field of the record, as asdict gives them
    """A tree-size estimate for --json: every stored field, as numbers, with the standard errors and the speed."""
    data = dataclasses.asdict(estimate)
    n, m = data.pop("n"), data.pop("m")
    return {
        "jobs": list(estimate.jobs),
        "board": [n, m],
        **data,
        "start": list(estimate.start),
        "node_se": estimate.node_se,
        "tour_se": estimate.tour_se,
        "nodes_per_second": estimate.nodes_per_second,
    }


def _cells(counts: CensusCounts) -> dict[str, Cell]:
    """A census row's numbers as cells (a TypedDict's values are only objects to a type checker)."""
    return {key: value for key, value in counts.items() if value is None or isinstance(value, int)}


def _text(value: Cell) -> str:
    """A cell as table text: numbers with thousands separators, None as ``-``."""
    if value is None:
        return "-"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _words(words: Sequence[str]) -> str:
    return " ".join(words) or "-"


def _squares(squares: Sequence[Square]) -> str:
    """Squares as ``row,col`` separated by spaces (``-`` for none)."""
    return " ".join(f"{row},{col}" for row, col in squares) or "-"


def _size_text(n: int, m: int) -> str:
    from knight.engine.board import size_text

    return size_text(n, m)


def format_params(params: Mapping[str, ParamValue], *, grouped: bool = True) -> str:
    """Parameters as ``name=value`` pairs, e.g. ``tie=random, seeds=5``; numbers with thousands separators
    unless not ``grouped`` (CSV)."""
    return (
        ", ".join(
            f"{name}={value:,}"
            if grouped and isinstance(value, int) and not isinstance(value, bool)
            else f"{name}={json.dumps(value) if isinstance(value, bool) else value}"
            for name, value in params.items()
        )
        or "-"
    )
