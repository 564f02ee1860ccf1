"""A method's parameter described once, as data: its kind, default, choices and help.

The job-file parser (its defaults and messages), the options of `knight tour` and the
report's methods appendix all read these descriptions, so a parameter or a choice added
here (or to a live registry such as :data:`~knight.engine.greedy.TIE_BREAKS`) appears in
every one of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["INT64_MAX", "Parameter", "ParamValue", "Params", "SquareValue"]

#: The largest value an integer parameter may take (the kernels count in signed 64-bit integers).
INT64_MAX = 2**63 - 1

#: A square as a parameter holds it: ``(row, col)``, or ``[row, col]`` as a job file and the store's JSON write it.
SquareValue = tuple[int, int] | list[int]
#: One parameter's value: a flag (``closed``), a number (``budget``, ``seed``), a name (``tie``), a square (a census
#: unit's ``first``, None when it has no move) or squares (``removed``, a census unit's ``more``).
ParamValue = bool | int | str | SquareValue | Sequence[SquareValue] | None
#: A task's, a sweep's or a tour's parameters, by name.
Params = dict[str, ParamValue]


@dataclass(frozen=True)
class Parameter:
    """One parameter of a tour-building method.

    ``kind`` is ``bool``, ``int``, ``str`` or ``"squares"`` (a set of ``(row, col)``).
    ``choices``, for a ``str`` parameter, is the live registry of its values (name to
    meaning), read each time so that a value registered later is a choice too; ``noun`` is
    what one choice is called in messages ("tie-break"). ``minimum`` and ``maximum`` bound an
    ``int`` (at most :data:`INT64_MAX`, what the compiled kernels can hold).
    ``keyed``: the job parser fills the default into every task, so that a task's key does
    not depend on how the job spelled it (a seed is added only where it matters).
    """

    name: str
    kind: type | str
    default: ParamValue
    help: str
    choices: Mapping[str, str] | None = None
    noun: str = ""
    minimum: int | None = None
    keyed: bool = True
    maximum: int = INT64_MAX

    def choice_names(self) -> list[str]:
        """The valid values of a parameter with choices, in registry order (empty when it has none)."""
        return list(self.choices or ())

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` for this parameter, as the end of a message; None when it is valid."""
        if self.choices is not None and value not in self.choices:
            return f"unknown {self.noun} {value!r}; choose one of: {', '.join(self.choice_names())}"
        if self.kind is bool and not isinstance(value, bool):
            return f"must be true or false, got {value!r}"
        if self.kind is int and (
            isinstance(value, bool) or not isinstance(value, int) or (self.minimum is not None and value < self.minimum)
        ):
            return f"must be a {'positive' if self.minimum == 1 else 'non-negative'} integer, got {value!r}"
        if self.kind is int and value > self.maximum:
            return f"must be at most {self.maximum:,}, got {value:,}"
        return None

    def default_text(self) -> str | None:
        """The default as the help shows it (``false``, ``50,000,000``, ``first``); None when there is none."""
        if self.default is None:
            return None
        if isinstance(self.default, bool):
            return str(self.default).lower()
        if isinstance(self.default, int):
            return f"{self.default:,}"
        return str(self.default)

    def describe(self) -> str:
        """One line: the help, the choices if any, and the default (the methods appendix and `knight tour --help`)."""
        text = self.help
        if self.choices is not None:
            text += f": {', '.join(self.choice_names())}"
        default = self.default_text()
        return f"{text} (default {default})" if default is not None else text
