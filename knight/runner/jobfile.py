"""The shape of a job file, as pydantic models: what :func:`knight.runner.jobs.parse_job` checks a file against.

Loaded only when a file is read (pydantic takes a fifth of a second to import): a command that builds its
job itself, as `knight census` does, never loads it. The file's top level is :class:`JobFile`; each ``[[sweep]]``
table is checked by its kind's own model (:meth:`knight.tasks.sweep.Expander.sweep_model`, made of
:mod:`knight.tasks.params`). :func:`checked` turns pydantic's first complaint into one
:class:`~knight.errors.JobError` line that names the file, the key path and what would be valid.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field, StrictStr, ValidationError

from knight.tasks.kind import sweep_methods
from knight.tasks.params import TAG, Sample, SweepTable, Table, must_be, otherwise
from knight.tasks.sweep import Where

__all__ = ["JobFile", "checked"]


class JobFile(Table):
    name: Annotated[
        StrictStr,
        Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$"),
        must_be("a word of letters, digits, '.', '_' or '-'"),
    ]
    description: Annotated[StrictStr, must_be("a string")] = ""
    source: Annotated[StrictStr, must_be("a string")] = ""
    sweep: Annotated[
        list[dict[str, Any]],  # TOML tables as read: each sweep is checked on its own, by its kind's model
        Field(min_length=1),
        otherwise(lambda _: "give at least one [[sweep]] table with boards, starts and method"),
    ] = Field(default_factory=list, validate_default=True)


def sweep_model(method: Any) -> type[SweepTable]:
    """The model that checks a sweep naming ``method``: its kind's (:class:`SweepTable` itself refuses an unknown
    method)."""
    from knight.tasks.kind import kind_of
    from knight.tasks.sweep import expander

    if not isinstance(method, str) or method not in sweep_methods():
        return SweepTable
    model: type[SweepTable] = expander(kind_of(method)).sweep_model(method)
    return model


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
