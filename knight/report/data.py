"""Read the report's records out of the results store, through its read-only API."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from knight.report.records import CensusRecord, EstimateRecord, Results
from knight.store import DRAWN_UP_TO_SQUARES, Store


def load_results(store: Path, *, drawn_up_to: int = DRAWN_UP_TO_SQUARES) -> Results:
    """Every stored tour as a :class:`~knight.store.TourRecord` (paths, encoded, on boards up to
    ``drawn_up_to`` squares); raises :class:`~knight.errors.MissingData` when the store does not
    exist and :class:`~knight.errors.StoreVersionError` when another version of knight wrote it."""
    with Store(store, read_only=True) as opened:
        return Results(opened.tours(drawn_up_to=drawn_up_to))


def load_census(store: Path) -> list[CensusRecord]:
    """Every census in the store (`knight census`, and census sweeps of `knight run`), one
    :class:`~knight.store.CensusRecord` each, ordered by board size, open before closed.

    >>> load_census(Path("no-such-store.sqlite"))
    Traceback (most recent call last):
    ...
    knight.errors.MissingData: no-such-store.sqlite does not exist; run `knight run jobs/*.toml` first, or give --store
    """
    with Store(store, read_only=True) as opened:
        return opened.censuses()


def load_estimates(store: Path) -> list[EstimateRecord]:
    """Every stored tree-size estimate (method ``estimate``, the job ``tree-size``), one
    :class:`~knight.store.EstimateRecord` each, smallest board first.

    The exact number of tours from the start comes from the estimate task itself where it counted
    the whole tree (boards of at most 25 squares), else from a complete open census in the store
    that counted that start (``exact_tours_source`` says which; the job ``tree-size`` asks for the
    6 × 6 census from the corner); nothing is computed here.
    """
    with Store(store, read_only=True) as opened:
        stored = opened.estimates()
        censuses = opened.censuses() if any(s.exact_tours is None for s in stored) else []
    counted: dict[tuple[int, int, int, int], int] = {}  # (n, m, row, col): directed open tours from there
    for found in censuses:
        if found.complete and not found.closed and not found.removed:
            for (row, col), tours in found.counts.items():
                counted.setdefault((found.n, found.m, row, col), tours)
    return [
        dataclasses.replace(record, exact_tours=counted[key], exact_tours_source="census")
        if record.exact_tours is None and (key := (record.n, record.m, *record.start)) in counted else record
        for record in stored
    ]
