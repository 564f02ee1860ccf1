"""knight: a knight's-tour workbench — the engine, a sweep runner, and a homework report.

The public API is the engine's core, listed in :data:`__all__`: boards and tours, the methods
that find a tour, the census that counts them, and the errors (:mod:`knight.errors`). The
runner, the store, the report and the command line are layers above it (see ARCHITECTURE.md).

>>> from knight import Board, find_tour
>>> find_tour(Board(8, 8), (0, 0), "warnsdorff").full
True
"""

from knight.engine import (
    HORIZONTAL,
    METHODS,
    TIE_BREAKS,
    VERTICAL,
    Board,
    Tour,
    closed_tour_verdict,
    find_tour,
    open_tour_verdict,
)
from knight.engine.census import census  # not re-exported by knight.engine: it would hide the module
from knight.errors import (
    InvalidInput,
    InvalidTour,
    JobError,
    KnightError,
    MissingData,
    PathNotKept,
    RenderError,
    StoreError,
    StoreVersionError,
    Unreadable,
)

__version__ = "0.1.0"

__all__ = [
    "__version__",
    # the engine
    "Board", "Tour", "find_tour", "census", "open_tour_verdict", "closed_tour_verdict",
    "METHODS", "TIE_BREAKS", "HORIZONTAL", "VERTICAL",
    # the errors, one tree rooted at KnightError
    "KnightError", "InvalidInput", "InvalidTour", "JobError", "Unreadable", "StoreError", "StoreVersionError",
    "MissingData", "PathNotKept", "RenderError",
]
