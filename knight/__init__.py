"""knight: a knight's-tour workbench — the engine, a sweep runner, and a homework report.

The public API is the engine's core, listed in :data:`__all__`: boards and tours, the methods
that find a tour, the census that counts them, and the errors (:mod:`knight.errors`). The
runner, the store, the report and the command line are layers above it (see ARCHITECTURE.md).

>>> from knight import Board, find_tour
>>> find_tour(Board(8, 8), (0, 0), "warnsdorff").full
True
"""

from typing import TYPE_CHECKING, Any

from knight._lazy import lazy_names
from knight.errors import *  # noqa: F403 - the error tree is public; the module imports nothing itself
from knight.errors import __all__ as _ERRORS

#: The distribution that installs this package (``knight`` on the public index is another project's).
_DISTRIBUTION = "knights-tour-lab"

#: Each public name of the engine and the module that defines it: loaded on first use, so that
#: `import knight` (and the command line, which starts with it) costs nothing until one is asked for.
_HOMES = {
    "Board": "knight.engine.board",
    "Tour": "knight.engine.tour",
    "tour": "knight.engine.api",
    "find_tour": "knight.engine.methods",
    "census": "knight.engine.api",
    "open_tour_verdict": "knight.engine.theory",
    "closed_tour_verdict": "knight.engine.theory",
    "METHODS": "knight.engine.methods",
    "TIE_BREAKS": "knight.engine.greedy",
    "HORIZONTAL": "knight.engine.board",
    "VERTICAL": "knight.engine.board",
}

__all__ = ["__version__", *_HOMES, *_ERRORS]


def _version() -> str:
    """The installed distribution's version (its metadata, as pip installed it); ``0+unknown`` when this
    copy was never installed (run from a source tree on PYTHONPATH)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(_DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


_load = lazy_names(globals(), _HOMES)


def __getattr__(name: str) -> Any:
    if name == "__version__":  # read on first use: importlib.metadata costs ~25 ms at import
        globals()[name] = _version()
        return globals()[name]
    return _load(name)


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:  # the lazy names, for type checkers (``as`` marks each a re-export)
    __version__: str
    from knight.engine.api import census as census
    from knight.engine.api import tour as tour
    from knight.engine.board import HORIZONTAL as HORIZONTAL
    from knight.engine.board import VERTICAL as VERTICAL
    from knight.engine.board import Board as Board
    from knight.engine.greedy import TIE_BREAKS as TIE_BREAKS
    from knight.engine.methods import METHODS as METHODS
    from knight.engine.methods import find_tour as find_tour
    from knight.engine.theory import closed_tour_verdict as closed_tour_verdict
    from knight.engine.theory import open_tour_verdict as open_tour_verdict
    from knight.engine.tour import Tour as Tour
