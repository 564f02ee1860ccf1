"""The shape of a job file, as pydantic models: what :func:`knight.runner.jobs.parse_job` checks a file against.

Loaded only when a file is read (pydantic takes a fifth of a second to import): a command that builds its
job itself, as `knight census` does, never loads it. :func:`checked` turns pydantic's first complaint into
one :class:`~knight.errors.JobError` line that names the file, the key path and what would be valid.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal, NoReturn, Protocol, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    Discriminator,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    Tag,
    ValidationError,
    WrapValidator,
    create_model,
)
from pydantic_core import PydanticCustomError

from knight.engine import METHODS
from knight.engine.board import MAX_SQUARES
from knight.engine.frontier import DEFAULT_MAX_STATES
from knight.engine.parameters import Parameter
from knight.runner.jobs import (
    ESTIMATE_DEFAULT,
    MAX_PROBES,
    MAX_RATE_NODES,
    MAX_REPEATS,
    MAX_SIDE,
    MAX_STATE_CAP,
    START_SETS,
    SWEEP_METHODS,
)
from knight.tasks import CENSUS, ESTIMATE, FRONTIER
from knight.tasks.kind import sweep_kinds

__all__ = [
    "BoardRange",
    "CensusParams",
    "CensusSweep",
    "EstimateParams",
    "EstimateSweep",
    "FrontierSweep",
    "FrontierSweepParams",
    "JobFile",
    "SWEEP_MODELS",
    "Sample",
    "SweepTable",
    "Where",
    "checked",
]


_BOARD_PATTERN = re.compile(r"^\s*(\d+)(?:\s*\.\.\s*(\d+))?(?:\s*x\s*(\d+)(?:\s*\.\.\s*(\d+))?)?\s*$")
_BOARD_FORMS = 'N, "NxM", "A..B" or "A..BxC..D"'
_START_FORMS = '"all", "corners", a list of [row, col] or {sample = K, seed = S}'
_SQUARES = "a list of [row, col] squares"


class Where(Protocol):
    """Where a key is, for messages (:class:`knight.runner.jobs._Where`)."""

    def fail(self, key: str, message: str) -> NoReturn: ...


# ---- the shape of a job file, as pydantic models ------------------------------------------------

#: A union member's tag starts so in pydantic's error paths; a message's key path leaves it out.
TAG = "kind:"
_T = TypeVar("_T")


def _listed(value: Any) -> list[Any]:
    """A grid axis's values: a list as it is, one value as a list of one."""
    return value if isinstance(value, list) else [value]


def _problem(message: str) -> PydanticCustomError:
    """A validation error whose message is ``message`` as written (its key path is where it is raised)."""
    return PydanticCustomError("job", "{message}", {"message": message})


def _otherwise(say: Callable[[Any], str]) -> WrapValidator:
    """Refuse a value with one message, ``say(value)``, whatever inside it is wrong."""

    def check(value: Any, handler: Callable[[Any], Any]) -> Any:
        try:
            return handler(value)
        except ValidationError:
            raise _problem(say(value)) from None

    return WrapValidator(check)


def _must_be(what: str) -> WrapValidator:
    """Refuse a value that is not ``what``, saying what it must be and what it was."""
    return _otherwise(lambda value: f"must be {what}, got {value!r}")


def _one_of(choices: tuple[str, ...] | Callable[[], tuple[str, ...]], noun: str) -> AfterValidator:
    """Accept one of ``choices`` (a ``noun``; a function of no arguments gives them at each check); refuse anything
    else, naming the valid ones."""

    def check(value: Any) -> Any:
        valid = choices() if callable(choices) else choices
        if value not in valid:
            raise _problem(f"unknown {noun} {value!r}; choose one of: {', '.join(valid)}")
        return value

    return AfterValidator(check)


#: A grid axis: one value or a non-empty list of values; the sweep takes each.
_Axis = Annotated[list[_T], Field(min_length=1), BeforeValidator(_listed)]
_Square = tuple[StrictInt, StrictInt]
#: ``removed``: one set of squares for every task of the sweep (not a grid axis).
_Removed = Annotated[list[_Square], _must_be(f"{_SQUARES} (one set of squares)")]


#: One item of a sweep's ``boards``: as written, its rows, and its columns (None: square boards).
BoardRange = tuple[Any, range, range | None]


def _board_range(item: Any) -> BoardRange:
    """Read a board item, N, "NxM", "A..B" or "A..BxC..D"; its sides are bounded before any board is listed."""
    match = None
    if isinstance(item, (int, str)) and not isinstance(item, bool) and len(str(item)) <= 100:
        match = _BOARD_PATTERN.match(str(item))
    if match is None:
        raise _problem(f"{item!r} is not a board; write {_BOARD_FORMS}")
    low, high, low_m, high_m = (None if text is None else int(text) for text in match.groups())
    assert low is not None  # the pattern's first group is not optional
    rows, cols = _sides(item, low, high), None if low_m is None else _sides(item, low_m, high_m)
    if not rows or (cols is not None and not cols):
        raise _problem(f"{item!r} is an empty range; write A..B with A <= B")
    return item, rows, cols


def _sides(item: Any, low: int, high: int | None) -> range:
    """The sides ``low..high`` of a board item (one side when ``high`` is None): a range may reach
    :data:`MAX_SIDE`, one side :data:`~knight.engine.board.MAX_SQUARES` (a 1 x N board)."""
    if high is None and low > MAX_SQUARES:
        raise _problem(f"{item!r}: a side of {low:,} squares is past the limit of {MAX_SQUARES:,} squares")
    if high is not None and high > MAX_SIDE:
        raise _problem(f"{item!r}: a range of sides ends at most at {MAX_SIDE} (4096 x 4096 is the board limit)")
    return range(low, (low if high is None else high) + 1)


class _Table(BaseModel):
    """A table of a job file: its keys are the fields, and any other key is refused."""

    model_config = {"extra": "forbid"}


class Sample(_Table):
    sample: Annotated[StrictInt, Field(gt=0), _must_be("a positive number of squares")]
    seed: Annotated[StrictInt, _must_be("an integer")] = 0


#: ``starts``: a start set by name, a list of squares or a seeded sample, told apart by their TOML type.
_Starts = Annotated[
    Annotated[Any, _one_of(START_SETS, "start set"), Tag(f"{TAG}str")]
    | Annotated[list[_Square], Field(min_length=1), _must_be(_SQUARES), Tag(f"{TAG}list")]
    | Annotated[Sample, Tag(f"{TAG}dict")],
    Discriminator(
        lambda value: f"{TAG}{type(value).__name__}",
        custom_error_type="job",
        custom_error_message=f"write {_START_FORMS}",
    ),
]


class JobFile(_Table):
    name: Annotated[
        StrictStr,
        Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$"),
        _must_be("a word of letters, digits, '.', '_' or '-'"),
    ]
    description: Annotated[StrictStr, _must_be("a string")] = ""
    source: Annotated[StrictStr, _must_be("a string")] = ""
    sweep: Annotated[
        list[dict[str, Any]],  # TOML tables as read: each sweep is checked on its own, by its method's model (below)
        Field(min_length=1),
        _otherwise(lambda _: "give at least one [[sweep]] table with boards, starts and method"),
    ] = Field(default_factory=list, validate_default=True)


def sweep_methods() -> tuple[str, ...]:
    """Every method a sweep may name: the built-in ones, and each registered kind of its own (``KNIGHT_KINDS``)."""
    return (*SWEEP_METHODS, *(kind.name for kind in sweep_kinds()))


class SweepTable(_Table):
    """A ``[[sweep]]`` table: every method's sweep is one, and one naming an unknown method is refused as this."""

    method: Annotated[Any, _one_of(sweep_methods, "method")]
    boards: _Axis[Annotated[Any, AfterValidator(_board_range)]]
    starts: _Starts
    params: Any = None  # each method's model (below) says what its params are
    repeats: Annotated[
        Annotated[StrictInt, Field(ge=1, le=MAX_REPEATS)] | None, _must_be(f"a number of seeds 1..{MAX_REPEATS:,}")
    ] = None
    label: Annotated[StrictStr | None, _must_be("a string")] = None


def _tour_parameter(parameter: Parameter) -> Any:
    """The type of one parameter of a tour method: a grid axis of the values its description accepts
    (read at each check: a choice registered later is valid), or one set of squares."""
    if parameter.kind == "squares":
        return _Removed

    def check(value: Any) -> Any:
        if (problem := parameter.problem(value)) is not None:
            raise _problem(problem)
        return value

    return _Axis[Annotated[Any, AfterValidator(check)]]


def _tour_sweep(method: str) -> type[SweepTable]:
    """The model of a sweep of the tour method ``method``, its ``params`` made from the engine's descriptions."""
    # pydantic's field definitions, (type, default) each: create_model takes them as Any (a type form)
    fields: dict[str, Any] = {name: (_tour_parameter(p), None) for name, p in METHODS[method].parameters.items()}
    params = create_model(f"params of {method}", __base__=_Table, **fields)
    return create_model(f"sweep of {method}", __base__=SweepTable, params=(params, params()))


class CensusParams(_Table):
    closed: Annotated[_Axis[StrictBool], _must_be("true or false, or a list of both")] = [False]
    removed: _Removed = []
    depth: Annotated[
        _Axis[Annotated[StrictInt, Field(ge=1)]], _must_be("moves fixed per unit, a positive integer or a list")
    ] = [1]


class CensusSweep(SweepTable):
    starts: Annotated[
        Literal["all"] | Annotated[list[_Square], Field(min_length=1)],
        _otherwise(lambda _: 'a census takes starts = "all" or a list of [row, col]'),
    ] = "all"
    params: CensusParams = CensusParams()
    # None, which TOML cannot write, is the only value: any given is refused
    repeats: Annotated[None, _otherwise(lambda _: "does not apply to method 'census', which counts every tour")] = None


class EstimateParams(_Table):
    probes: Annotated[
        _Axis[Annotated[StrictInt, Field(ge=1, le=MAX_PROBES)]],
        _must_be(f"a number of Knuth's random probes, 1..{MAX_PROBES:,}"),
    ] = [ESTIMATE_DEFAULT.probes]
    seed: Annotated[_Axis[Annotated[StrictInt, Field(ge=0)]], _must_be("a non-negative integer, the probes' seed")] = [
        ESTIMATE_DEFAULT.seed
    ]
    rate_nodes: Annotated[
        _Axis[Annotated[StrictInt, Field(ge=0, le=MAX_RATE_NODES)]],
        _must_be(f"a number of nodes of plain backtracking to time, 0..{MAX_RATE_NODES:,}"),
    ] = [ESTIMATE_DEFAULT.rate_nodes]


class EstimateSweep(SweepTable):
    params: EstimateParams = EstimateParams()
    repeats: Annotated[
        None, _otherwise(lambda _: f"does not apply to method {ESTIMATE!r}; give params.seed (a list for several)")
    ] = None


class FrontierSweepParams(_Table):
    closed: Annotated[_Axis[StrictBool], _must_be("true or false, or a list of both")] = [False]
    removed: _Removed = []
    max_states: Annotated[
        Annotated[StrictInt, Field(ge=1, le=MAX_STATE_CAP)] | None,
        _must_be(f"the state cap, a whole number of states 1..{MAX_STATE_CAP:,} (default {DEFAULT_MAX_STATES:,})"),
    ] = None


class FrontierSweep(SweepTable):
    starts: Annotated[
        Literal["all"],
        _otherwise(lambda _: f"method {FRONTIER!r} counts every tour at once, from no start: leave starts out"),
    ] = "all"
    params: FrontierSweepParams = FrontierSweepParams()
    repeats: Annotated[
        None, _otherwise(lambda _: f"does not apply to method {FRONTIER!r}, which counts every tour")
    ] = None


class KindSweep(SweepTable):
    """A sweep of a registered kind of its own (:class:`knight.tasks.SweepKind`): its params a table it checks
    itself when it lists its tasks."""

    # a TOML table as read: the kind checks it when it lists its tasks
    params: Annotated[dict[str, Any], _must_be("a table of the kind's parameters")] = {}
    repeats: Annotated[None, _otherwise(lambda _: "does not apply to this kind; give seeds in its params")] = None


#: Each built-in method's sweep model (a sweep naming another method is checked by :func:`sweep_model`).
SWEEP_MODELS: dict[str, type[SweepTable]] = {
    **{method: _tour_sweep(method) for method in METHODS},
    CENSUS: CensusSweep,
    ESTIMATE: EstimateSweep,
    FRONTIER: FrontierSweep,
}


def sweep_model(method: Any) -> type[SweepTable]:
    """The model that checks a sweep naming ``method`` (:class:`SweepTable` itself refuses an unknown one)."""
    if not isinstance(method, str):
        return SweepTable
    if method in SWEEP_MODELS:
        return SWEEP_MODELS[method]
    return KindSweep if method in sweep_methods() else SweepTable


Model = TypeVar("Model", bound=BaseModel)


def checked(model: type[Model], data: Any, where: Where) -> Model:
    """``data`` checked by ``model``; else the first problem pydantic found (an unknown key before any
    other: a misspelt key explains the rest) refused in one line, naming its key path and what is valid."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problem = min(error.errors(), key=lambda each: each["type"] != "extra_forbidden")
    # the key path as the file spells it: union tags left out, an item of a list named by its list
    loc = [part for part in problem["loc"] if not str(part).startswith(TAG)]
    while loc and isinstance(loc[-1], int):
        loc.pop()
    key = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc).lstrip(".")
    kind, parent = problem["type"], loc[-2] if len(loc) > 1 else None
    if kind == "job":  # our own message, from a validator above
        where.fail(key, problem["msg"])
    if kind == "extra_forbidden" and parent == "params":  # the method's model of params lists what it takes
        takes = ", ".join(model.model_fields["params"].annotation.model_fields) or "none"  # type: ignore[union-attr]
        where.fail(key, f"not a parameter of method {data['method']!r}; it takes {takes}")
    if kind == "extra_forbidden":
        where.fail(key, f"unknown key; valid keys: {', '.join((Sample if parent == 'starts' else model).model_fields)}")
    if kind == "missing":
        needs = f"; every sweep needs boards, starts and method ({', '.join(sweep_methods())})" if len(loc) == 1 else ""
        where.fail(key, f"missing{needs}")
    if kind == "model_type":
        where.fail(key, f"must be a table {{key = value, ...}}, got {problem['input']!r}")
    if kind == "too_short":
        where.fail(key, "an empty list; give at least one value")
    where.fail(key, f"{problem['msg']}, got {problem['input']!r}")  # pydantic's own words, for a case not foreseen
