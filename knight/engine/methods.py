"""Tour-building methods by name, with the parameters each accepts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from knight.engine.backtrack import DEFAULT_BUDGET, ORDERINGS, backtrack_tour
from knight.engine.board import Board, Square
from knight.engine.greedy import TIE_BREAKS, naive_tour, random_walk_tour, static_tour, warnsdorff_tour
from knight.engine.parameters import Parameter, Params, ParamValue
from knight.engine.parberry import parberry_tour
from knight.engine.starts import DEFAULT_BUDGET as FIND_BUDGET
from knight.engine.starts import find_tour_from
from knight.engine.tour import Tour
from knight.errors import InvalidInput

__all__ = ["Method", "METHODS", "check_parameters", "find_tour"]


@dataclass(frozen=True)
class Method:
    """A named way to build a tour: what it does, where it comes from, and its parameters (by name); and what the
    other layers say of it, here once: its name in prose (``label``), whether it makes only full tours
    (``full_only``: it fails rather than stop short), how a student names a closed tour it made
    (``closed_tour``, '' when it makes none), whether a set of its parameters takes a random seed (``seeded``)
    and whether the grader tries it on a hand-in (``graded``: not a method that searches on, board by board)."""

    name: str
    summary: str
    reference: str
    parameters: dict[str, Parameter]
    build: Callable[..., Tour]
    label: str
    full_only: bool = False
    closed_tour: str = ""
    seeded: Callable[[Params], bool] = lambda params: False
    graded: bool = True

    def defaults(self) -> Params:
        """The parameter values a job fills in when it does not give them (see :attr:`Parameter.keyed`)."""
        return {name: p.default for name, p in self.parameters.items() if p.keyed}


def _by_name(*parameters: Parameter) -> dict[str, Parameter]:
    return {p.name: p for p in parameters}


def _seed(help: str) -> Parameter:
    # Keyed only where it matters (random ties, the random walk): the job parser adds it there.
    return Parameter("seed", int, 0, help, minimum=0, keyed=False)


METHODS: dict[str, Method] = {
    method.name: method
    for method in (
        Method(
            "naive",
            "the first legal unvisited move in move order, until stuck",
            "Deitel 7.24, first script",
            {},
            naive_tour,
            label="first legal move",
        ),
        Method(
            "static",
            "lowest accessibility in the empty board's table, never updated; ties by move order",
            "Deitel 7.24, accessibility heuristic without its note",
            {},
            static_tour,
            label="static table",
        ),
        Method(
            "warnsdorff",
            "lowest current degree, ties broken by the chosen rule",
            "Warnsdorff 1823; Deitel 7.24; Homework #8",
            _by_name(
                Parameter("tie", str, "first", "tie-break", choices=TIE_BREAKS, noun="tie-break"),
                _seed("seed of the random tie-break"),
            ),
            warnsdorff_tour,
            label="Warnsdorff",
            seeded=lambda params: params.get("tie") == "random",
        ),
        Method(
            "random-walk",
            "a uniformly random legal unvisited move at each step, until stuck",
            "the naive knight choosing at random; the probe of Knuth 1975",
            _by_name(_seed("seed of the walk")),
            random_walk_tour,
            label="random walk",
            seeded=lambda params: True,
        ),
        Method(
            "backtrack",
            "depth-first search for the first full tour, within a node budget",
            "the Eiffel text's Try_Next_Move (after Wirth 1976)",
            _by_name(
                Parameter("closed", bool, False, "demand a closed tour"),
                Parameter("order", str, "plain", "move ordering", choices=ORDERINGS, noun="move ordering"),
                Parameter("budget", int, DEFAULT_BUDGET, "most nodes to visit", minimum=1),
                Parameter(
                    "removed",
                    "squares",
                    None,
                    "squares taken off the board, [[row, col], ...]; a full tour covers the others",
                    keyed=False,
                ),
            ),
            backtrack_tour,
            label="backtracking",
            full_only=True,
            closed_tour="a closed tour found by backtracking",
        ),
        Method(
            "parberry",
            "a structured closed tour by divide and conquer: base tours, found once by a search and kept, joined four at a "
            "time (n×n and n×(n+2), even n ≥ 6)",
            "Parberry 1997, Discrete Applied Mathematics 73; the Eiffel text's join property",
            {},
            parberry_tour,
            label="Parberry",
            full_only=True,
            closed_tour="Parberry's closed tour",
        ),
        Method(
            "find",
            "a full tour from the start wherever one exists, else why none does: theory, a closed tour "
            "walked from the start, joined blocks, Warnsdorff with rotations, exhaustive pruned search",
            "Schwenk 1991; Conrad et al. 1994; Parberry 1997; Pósa 1976",
            _by_name(Parameter("budget", int, FIND_BUDGET, "most nodes of the exhaustive search", minimum=1)),
            find_tour_from,
            label="a tour wherever one exists",
            graded=False,
        ),
    )
}


def check_parameters(method: str, params: Mapping[str, ParamValue]) -> None:
    """Raise :class:`InvalidInput` unless ``method`` exists, takes every one of ``params``, and each
    value is valid for its parameter (a value of None: only the name is checked)."""
    if method not in METHODS:
        raise InvalidInput(f"unknown method {method!r}; choose one of: {', '.join(METHODS)}")
    accepted = METHODS[method].parameters
    for name, value in params.items():
        if name not in accepted:
            takes = f"it takes {', '.join(accepted)}" if accepted else "it takes none"
            raise InvalidInput(f"parameter {name!r} does not apply to method {method!r}; {takes}")
        problem = None if value is None else accepted[name].problem(value)  # None: the name alone is checked
        if problem:
            raise InvalidInput(f"parameter {name!r} of method {method!r}: {problem}")
    if "seed" in params and method != "random-walk" and params.get("tie", "first") != "random":
        raise InvalidInput("parameter 'seed' applies only to the tie-break 'random' and to 'random-walk'")


def find_tour(
    board: Board, start: Square, method: str = "warnsdorff", *, compiled: bool | None = None, **params: Any
) -> Tour:
    """Build a tour on ``board`` from ``start`` with the method named ``method``.

    ``params`` are the method's parameters (see :data:`METHODS`); one the method does not
    take is an error rather than silently ignored. ``compiled`` forces the numba kernel
    (True, best for sweeps of many small boards) or the interpreted one (False); by
    default the board size decides. Both give the same tour.

    >>> find_tour(Board(5, 5), (0, 0), "warnsdorff", tie="first").full
    True
    """
    check_parameters(method, params)
    return METHODS[method].build(board, start, compiled=compiled, **params)
