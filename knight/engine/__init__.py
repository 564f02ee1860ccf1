"""The pure engine: boards, tours and the methods that build them. No I/O, no global state."""

from knight.engine.backtrack import backtrack_tour
from knight.engine.board import HORIZONTAL, MAX_SQUARES, VERTICAL, Board, is_knight_move
from knight.engine.errors import InvalidInput
from knight.engine.greedy import TIE_BREAKS, naive_tour, random_walk_tour, static_tour, warnsdorff_tour
from knight.engine.methods import METHODS, check_parameters, find_tour
from knight.engine.tour import InvalidTour, Tour

__all__ = [
    "HORIZONTAL", "VERTICAL", "MAX_SQUARES", "METHODS", "TIE_BREAKS",
    "Board", "Tour", "InvalidInput", "InvalidTour",
    "backtrack_tour", "check_parameters", "find_tour", "is_knight_move",
    "naive_tour", "random_walk_tour", "static_tour", "warnsdorff_tour",
]
