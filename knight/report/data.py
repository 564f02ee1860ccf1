"""Read the report's records out of the results store, through its read-only API."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from knight.report.records import CensusRecord, EstimateRecord, FrontierRecord, Results
from knight.store import DRAWN_UP_TO_SQUARES, Store

__all__ = ["load_store", "load_results", "load_census", "load_estimates"]


def load_store(store: Path) -> tuple[Results, list[CensusRecord], list[EstimateRecord], list[FrontierRecord]]:
    """Everything the report reads, from one opening of the store: the tours (:func:`load_results`),
    the censuses (:func:`load_census`), the tree-size estimates (:func:`load_estimates`) and the frontier
    counts (:meth:`~knight.store.Store.frontier_counts`)."""
    with _reading(store) as opened:
        censuses = opened.censuses()
        estimates = _with_census_tours(opened.estimates(), censuses)
        return Results(opened.tours()), censuses, estimates, opened.frontier_counts()


def load_results(store: Path, *, drawn_up_to: int = DRAWN_UP_TO_SQUARES) -> Results:
    """Every stored tour as a :class:`~knight.store.TourRecord` (paths, encoded, on boards up to
    ``drawn_up_to`` squares); raises :class:`~knight.errors.MissingData` when the store does not
    exist, :class:`~knight.errors.StoreVersionError` when another version of knight wrote it and
    :class:`~knight.errors.StoreError` when it is damaged."""
    with _reading(store) as opened:
        return Results(opened.tours(drawn_up_to=drawn_up_to))


def load_census(store: Path) -> list[CensusRecord]:
    """Every census in the store (`knight census`, and census sweeps of `knight run`), one
    :class:`~knight.store.CensusRecord` each, ordered by board size, open before closed.

    >>> load_census(Path("no-such-store.sqlite"))
    Traceback (most recent call last):
    ...
    knight.errors.MissingData: no-such-store.sqlite does not exist; run `knight run homework-8` (or another job) first, or give --store
    """
    with _reading(store) as opened:
        return opened.censuses()


def load_estimates(store: Path) -> list[EstimateRecord]:
    """Every stored tree-size estimate (method ``estimate``, the job ``tree-size``), one
    :class:`~knight.store.EstimateRecord` each, smallest board first.

    The exact number of tours from the start comes from the estimate task itself where it counted
    the whole tree (boards of at most 25 squares), else from a complete open census in the store
    that counted that start (``exact_tours_source`` says which; the job ``tree-size`` asks for the
    6 × 6 census from the corner); nothing is computed here.
    """
    with _reading(store) as opened:
        estimates = opened.estimates()
        return _with_census_tours(estimates, opened.censuses() if any(e.exact_tours is None for e in estimates) else [])


def _with_census_tours(stored: list[EstimateRecord], censuses: list[CensusRecord]) -> list[EstimateRecord]:
    """The estimates, each with the exact tours from its start taken from a complete open census
    where the task itself did not count them."""
    counted: dict[tuple[int, int, int, int], int] = {}  # (n, m, row, col): directed open tours from there
    for found in censuses:
        if found.complete and not found.closed and not found.removed:
            for (row, col), tours in found.counts.items():
                counted.setdefault((found.n, found.m, row, col), tours)
    return [
        dataclasses.replace(record, exact_tours=counted[key], exact_tours_source="census")
        if record.exact_tours is None and (key := (record.n, record.m, *record.start)) in counted
        else record
        for record in stored
    ]


@contextmanager
def _reading(store: Path) -> Iterator[Store]:
    """The store opened read-only, refused when the cheap checks find it damaged."""
    with Store(store, read_only=True) as opened:
        opened.refuse_if_damaged()
        yield opened
