"""knight: a knight's-tour workbench — the engine, a sweep runner, and a homework report.

>>> from knight import Board, find_tour
>>> find_tour(Board(8, 8), (0, 0), "warnsdorff").full
True
"""

from knight.engine import *  # noqa: F401,F403 - the engine is the public API
from knight.engine import __all__

__version__ = "0.1.0"
