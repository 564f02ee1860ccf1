"""knight: a knight's-tour workbench — the engine, a sweep runner, and a homework report.

The public API is the engine's core, listed in :data:`__all__`: boards and tours, the methods
that find a tour, the census that counts them, and the errors (:mod:`knight.errors`). The
runner, the store, the report and the command line are layers above it (see ARCHITECTURE.md).

>>> from knight import Board, find_tour
>>> find_tour(Board(8, 8), (0, 0), "warnsdorff").full
True
"""

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each public name and the module that defines it: loaded on first use, so that `import knight`
#: (and the command line, which starts with it) costs nothing until a name is asked for.
_HOMES = {
    "Board": "knight.engine.board",
    "Tour": "knight.engine.tour",
    "find_tour": "knight.engine.methods",
    "census": "knight.engine.census",
    "open_tour_verdict": "knight.engine.theory",
    "closed_tour_verdict": "knight.engine.theory",
    "METHODS": "knight.engine.methods",
    "TIE_BREAKS": "knight.engine.greedy",
    "HORIZONTAL": "knight.engine.board",
    "VERTICAL": "knight.engine.board",
    **{
        name: "knight.errors"
        for name in (
            "KnightError",
            "InvalidInput",
            "InvalidTour",
            "JobError",
            "Unreadable",
            "StoreError",
            "StoreVersionError",
            "MissingData",
            "PathNotKept",
            "RenderError",
        )
    },
}


__all__ = [
    "__version__",
    # the engine
    "Board",
    "Tour",
    "find_tour",
    "census",
    "open_tour_verdict",
    "closed_tour_verdict",
    "METHODS",
    "TIE_BREAKS",
    "HORIZONTAL",
    "VERTICAL",
    # the errors, one tree rooted at KnightError
    "KnightError",
    "InvalidInput",
    "InvalidTour",
    "JobError",
    "Unreadable",
    "StoreError",
    "StoreVersionError",
    "MissingData",
    "PathNotKept",
    "RenderError",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        import importlib

        value = getattr(importlib.import_module(_HOMES[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'knight' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:
    from knight.engine.board import HORIZONTAL, VERTICAL, Board
    from knight.engine.census import census
    from knight.engine.greedy import TIE_BREAKS
    from knight.engine.methods import METHODS, find_tour
    from knight.engine.theory import closed_tour_verdict, open_tour_verdict
    from knight.engine.tour import Tour
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
