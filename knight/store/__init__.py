"""The results store: one SQLite file that a sweep can crash, resume and be read from.

:class:`Store` writes (runs, tasks and their results) and reads: every reader, the report and
``knight results`` included, goes through ``Store(path, read_only=True)`` and gets the records
of :mod:`knight.store.records` back, never SQL of its own. See :mod:`knight.store.database` for
the modules behind it, :mod:`knight.store.schema` for the tables, and :mod:`knight.store.location` for
where the store is.

The names load on first use, so that the command line can name the store in its help without
loading the engine.
"""

from typing import TYPE_CHECKING

from knight._lazy import lazy_names

#: Each public name and the module that defines it.
_HOMES = {
    "DEFAULT_STORE": "knight.store.location",
    "STORE_VARIABLE": "knight.store.location",
    "store_path": "knight.store.location",
    "SCHEMA_VERSION": "knight.store.schema",
    "CLAIM_TIMEOUT": "knight.store.claims",
    "Claimed": "knight.store.claims",
    "Outcome": "knight.store.claims",
    "Store": "knight.store.database",
    "schema_version": "knight.store.schema",
    "DRAWN_UP_TO_SQUARES": "knight.store.records",
    "CensusRecord": "knight.store.records",
    "EstimateRecord": "knight.store.records",
    "FailureRecord": "knight.store.records",
    "FrontierRecord": "knight.store.records",
    "TourRecord": "knight.store.records",
}

__all__ = list(_HOMES)


__getattr__ = lazy_names(globals(), _HOMES)


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:  # the lazy names, for type checkers (``as`` marks each a re-export)
    from knight.store.claims import CLAIM_TIMEOUT as CLAIM_TIMEOUT
    from knight.store.claims import Claimed as Claimed
    from knight.store.claims import Outcome as Outcome
    from knight.store.database import Store as Store
    from knight.store.location import DEFAULT_STORE as DEFAULT_STORE
    from knight.store.location import STORE_VARIABLE as STORE_VARIABLE
    from knight.store.location import store_path as store_path
    from knight.store.records import DRAWN_UP_TO_SQUARES as DRAWN_UP_TO_SQUARES
    from knight.store.records import CensusRecord as CensusRecord
    from knight.store.records import EstimateRecord as EstimateRecord
    from knight.store.records import FailureRecord as FailureRecord
    from knight.store.records import FrontierRecord as FrontierRecord
    from knight.store.records import TourRecord as TourRecord
    from knight.store.schema import SCHEMA_VERSION as SCHEMA_VERSION
    from knight.store.schema import schema_version as schema_version
