"""The pure engine: boards, tours and the methods that build and count them. No I/O, no global state."""

from knight.engine.backtrack import backtrack_tour
from knight.engine.board import HORIZONTAL, MAX_SQUARES, VERTICAL, Board, is_knight_move
from knight.engine.greedy import (
    TIE_BREAKS,
    naive_tour,
    random_walk_tour,
    register_tie_break,
    static_tour,
    warnsdorff_tour,
)
from knight.engine.methods import METHODS, Method, check_parameters, find_tour
from knight.engine.parameters import Parameter
from knight.engine.theory import closed_tour_verdict, open_tour_verdict
from knight.engine.tour import Tour
from knight.errors import InvalidInput, InvalidTour

__all__ = [
    "HORIZONTAL",
    "VERTICAL",
    "MAX_SQUARES",
    "METHODS",
    "TIE_BREAKS",
    "Board",
    "Tour",
    "Method",
    "Parameter",
    "InvalidInput",
    "InvalidTour",
    "backtrack_tour",
    "check_parameters",
    "closed_tour_verdict",
    "find_tour",
    "is_knight_move",
    "naive_tour",
    "open_tour_verdict",
    "random_walk_tour",
    "register_tie_break",
    "static_tour",
    "warnsdorff_tour",
]
