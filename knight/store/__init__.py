"""The results store: one SQLite file that a sweep can crash, resume and be read from.

:class:`Store` writes (runs, tasks and their results) and reads: every reader, the report and
``knight results`` included, goes through ``Store(path, read_only=True)`` and gets the records
of :mod:`knight.store.records` back, never SQL of its own. See :mod:`knight.store.database` for
the tables.
"""

from knight.store.database import (
    CLAIM_TIMEOUT,
    DEFAULT_STORE,
    SCHEMA_VERSION,
    STORE_VARIABLE,
    Claimed,
    Outcome,
    Store,
    schema_version,
    store_path,
)
from knight.store.records import DRAWN_UP_TO_SQUARES, CensusRecord, EstimateRecord, TourRecord

__all__ = [
    "CLAIM_TIMEOUT",
    "DEFAULT_STORE",
    "DRAWN_UP_TO_SQUARES",
    "SCHEMA_VERSION",
    "STORE_VARIABLE",
    "CensusRecord",
    "Claimed",
    "EstimateRecord",
    "Outcome",
    "Store",
    "TourRecord",
    "schema_version",
    "store_path",
]
