"""The records the store gives back: one type per kind of stored result, the same for every reader.

Each kind's record type is its own module's (:mod:`knight.tasks`): :class:`TourRecord` — a tour task's outcome
(:mod:`knight.tasks.tour`); :class:`CensusRecord` — a census put together from its units
(:mod:`knight.tasks.census`); :class:`FrontierRecord` — a board's tours counted by the frontier method
(:mod:`knight.tasks.frontier`); :class:`EstimateRecord` — a tree-size estimate (:mod:`knight.tasks.estimate`);
named here for the store's readers, with :class:`FailureRecord`, a failed task of any kind. Read them with
:meth:`knight.store.Store.tours`, :meth:`~knight.store.Store.censuses`, :meth:`~knight.store.Store.frontier_counts`
and :meth:`~knight.store.Store.estimates`.
"""

from __future__ import annotations

from dataclasses import dataclass

from knight.tasks import Failure
from knight.tasks.census import CensusRecord
from knight.tasks.estimate import EstimateRecord
from knight.tasks.frontier import FrontierRecord
from knight.tasks.tour import DRAWN_UP_TO_SQUARES, TourRecord

__all__ = ["DRAWN_UP_TO_SQUARES", "CensusRecord", "EstimateRecord", "FailureRecord", "FrontierRecord", "TourRecord"]


@dataclass(frozen=True)
class FailureRecord:
    """A failed task as stored: its key, what it is (``what``: ``frontier 6x6 open``, a tour task with its
    parameters and start), how many times it ran, and its :class:`~knight.tasks.Failure` (cause and message)."""

    key: str
    what: str
    attempts: int
    failure: Failure

    @property
    def line(self) -> str:
        """``frontier 8x8 closed after 1 attempt(s): …``: the line a person reads."""
        return f"{self.what} after {self.attempts} attempt(s): {self.failure.message}"
