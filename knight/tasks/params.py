"""The shape of a ``[[sweep]]`` table, as pydantic models: what every kind's model of its sweep is made of.

Loaded only when a job file is read (pydantic takes a fifth of a second to import): a kind builds its model from
these the first time it is asked for it (:meth:`~knight.tasks.sweep.Expander.sweep_model`), never at import. A
validator here refuses a value with a message of its own (:func:`problem`), which the job file's reader
(:func:`knight.runner.jobfile.checked`) says in one line with the key path it was raised at.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

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
)
from pydantic_core import PydanticCustomError

from knight.engine.board import MAX_SQUARES
from knight.tasks.kind import sweep_methods
from knight.tasks.sweep import MAX_REPEATS, MAX_SIDE, START_SETS

__all__ = [
    "SQUARES",
    "TAG",
    "Axis",
    "BoardRange",
    "CountParams",
    "KindSweep",
    "Removed",
    "Sample",
    "SquareItem",
    "SweepTable",
    "Table",
    "must_be",
    "one_of",
    "otherwise",
    "problem",
]

_BOARD_PATTERN = re.compile(r"^\s*(\d+)(?:\s*\.\.\s*(\d+))?(?:\s*x\s*(\d+)(?:\s*\.\.\s*(\d+))?)?\s*$")
_BOARD_FORMS = 'N, "NxM", "A..B" or "A..BxC..D"'
_START_FORMS = '"all", "corners", a list of [row, col] or {sample = K, seed = S}'
#: What a list of squares is, for messages.
SQUARES = "a list of [row, col] squares"

#: A union member's tag starts so in pydantic's error paths; a message's key path leaves it out.
TAG = "kind:"
_T = TypeVar("_T")


def _listed(value: Any) -> list[Any]:
    """A grid axis's values: a list as it is, one value as a list of one."""
    return value if isinstance(value, list) else [value]


def problem(message: str) -> PydanticCustomError:
    """A validation error whose message is ``message`` as written (its key path is where it is raised)."""
    return PydanticCustomError("job", "{message}", {"message": message})


def otherwise(say: Callable[[Any], str]) -> WrapValidator:
    """Refuse a value with one message, ``say(value)``, whatever inside it is wrong."""

    def check(value: Any, handler: Callable[[Any], Any]) -> Any:
        try:
            return handler(value)
        except ValidationError:
            raise problem(say(value)) from None

    return WrapValidator(check)


def must_be(what: str) -> WrapValidator:
    """Refuse a value that is not ``what``, saying what it must be and what it was."""
    return otherwise(lambda value: f"must be {what}, got {value!r}")


def one_of(choices: tuple[str, ...] | Callable[[], tuple[str, ...]], noun: str) -> AfterValidator:
    """Accept one of ``choices`` (a ``noun``; a function of no arguments gives them at each check); refuse anything
    else, naming the valid ones."""

    def check(value: Any) -> Any:
        valid = choices() if callable(choices) else choices
        if value not in valid:
            raise problem(f"unknown {noun} {value!r}; choose one of: {', '.join(valid)}")
        return value

    return AfterValidator(check)


#: A grid axis: one value or a non-empty list of values; the sweep takes each.
Axis = Annotated[list[_T], Field(min_length=1), BeforeValidator(_listed)]
#: A square, ``[row, col]``.
SquareItem = tuple[StrictInt, StrictInt]
#: ``removed``: one set of squares for every task of the sweep (not a grid axis).
Removed = Annotated[list[SquareItem], must_be(f"{SQUARES} (one set of squares)")]


#: One item of a sweep's ``boards``: as written, its rows, and its columns (None: square boards).
BoardRange = tuple[Any, range, range | None]


def _board_range(item: Any) -> BoardRange:
    """Read a board item, N, "NxM", "A..B" or "A..BxC..D"; its sides are bounded before any board is listed."""
    match = None
    if isinstance(item, (int, str)) and not isinstance(item, bool) and len(str(item)) <= 100:
        match = _BOARD_PATTERN.match(str(item))
    if match is None:
        raise problem(f"{item!r} is not a board; write {_BOARD_FORMS}")
    low, high, low_m, high_m = (None if text is None else int(text) for text in match.groups())
    assert low is not None  # the pattern's first group is not optional
    rows, cols = _sides(item, low, high), None if low_m is None else _sides(item, low_m, high_m)
    if not rows or (cols is not None and not cols):
        raise problem(f"{item!r} is an empty range; write A..B with A <= B")
    return item, rows, cols


def _sides(item: Any, low: int, high: int | None) -> range:
    """The sides ``low..high`` of a board item (one side when ``high`` is None): a range may reach
    :data:`MAX_SIDE`, one side :data:`~knight.engine.board.MAX_SQUARES` (a 1 x N board)."""
    if high is None and low > MAX_SQUARES:
        raise problem(f"{item!r}: a side of {low:,} squares is past the limit of {MAX_SQUARES:,} squares")
    if high is not None and high > MAX_SIDE:
        raise problem(f"{item!r}: a range of sides ends at most at {MAX_SIDE} (4096 x 4096 is the board limit)")
    return range(low, (low if high is None else high) + 1)


class Table(BaseModel):
    """A table of a job file: its keys are the fields, and any other key is refused."""

    model_config = {"extra": "forbid"}


class CountParams(Table):
    """The params of a count of every tour (a census, a frontier count): open or closed (a grid axis), and one set of
    squares taken off the board; a kind's own params follow these."""

    closed: Annotated[Axis[StrictBool], must_be("true or false, or a list of both")] = [False]
    removed: Removed = []


class Sample(Table):
    sample: Annotated[StrictInt, Field(gt=0), must_be("a positive number of squares")]
    seed: Annotated[StrictInt, must_be("an integer")] = 0


#: ``starts``: a start set by name, a list of squares or a seeded sample, told apart by their TOML type.
_Starts = Annotated[
    Annotated[Any, one_of(START_SETS, "start set"), Tag(f"{TAG}str")]
    | Annotated[list[SquareItem], Field(min_length=1), must_be(SQUARES), Tag(f"{TAG}list")]
    | Annotated[Sample, Tag(f"{TAG}dict")],
    Discriminator(
        lambda value: f"{TAG}{type(value).__name__}",
        custom_error_type="job",
        custom_error_message=f"write {_START_FORMS}",
    ),
]


class SweepTable(Table):
    """A ``[[sweep]]`` table: every kind's model of its sweep is one, and one naming an unknown method is refused
    as this."""

    method: Annotated[Any, one_of(sweep_methods, "method")]
    boards: Axis[Annotated[Any, AfterValidator(_board_range)]]
    starts: _Starts
    params: Any = None  # each kind's model says what its params are
    repeats: Annotated[
        Annotated[StrictInt, Field(ge=1, le=MAX_REPEATS)] | None, must_be(f"a number of seeds 1..{MAX_REPEATS:,}")
    ] = None
    label: Annotated[StrictStr | None, must_be("a string")] = None


class KindSweep(SweepTable):
    """A sweep of a kind that lists its own tasks (:meth:`knight.tasks.SweepKind.tasks`): its params a table it
    checks itself when it lists them."""

    # a TOML table as read: the kind checks it when it lists its tasks
    params: Annotated[dict[str, Any], must_be("a table of the kind's parameters")] = {}
    repeats: Annotated[None, otherwise(lambda _: "does not apply to this kind; give seeds in its params")] = None
