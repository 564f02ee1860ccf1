"""The rubric: how a checked submission is scored, out of 100 by default.

The default rubric (:data:`DEFAULT_RUBRIC`), and how :func:`score` adds it up:

* ``full_tour = 50`` — the squares: ``full_tour × p / N``, where ``p`` is the submission's longest legal prefix
  (the squares before its first error: a broken tour is a partial tour up to its first illegal step) and ``N``
  the board's squares; with ``partial_credit = false``, all 50 for a full tour and none otherwise. When the
  assignment asks for a closed tour, ``closed_tour`` of these points are earned by closing it and the squares
  earn the rest: ``(full_tour − closed_tour) × p / N + closed_tour × [closed]``;
* ``legal = 30`` — every step a knight move to a new square on the board, every number written once (full or
  partial tour: nothing wrong anywhere);
* ``rule_followed = 20`` — the lowest-degree rule: ``rule_followed × q / (N − 1)``, where ``q`` is the steps of
  the legal prefix taken before the first one that breaks the rule (all 20 for a full tour that follows it);
* ``closed_tour = 20`` — see ``full_tour`` (used only when a closed tour is assigned);
* ``wrong_exercise_penalty = 50`` — taken off a tour on another board or from another start than the assigned
  ones (``--board``/``--start``/``--course``): a wrong exercise never scores full marks;
* ``copied_penalty = 0`` — taken off each submission flagged as copied (0: flagged, not penalised).

A score is never below 0. It is monotonic in the work done: appending a legal move to a new square never lowers
it, and breaking a legal step never raises it (a property test holds it so). Every row that asks the teacher to
look (flagged as copied, not the assigned exercise) says why in the ``review`` column.

``--rubric FILE`` reads a TOML file (at most :data:`RUBRIC_BYTES`, a regular file) with any of these
keys at the top level or under ``[rubric]``; each number finite, from 0 to :data:`RUBRIC_MAX`.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from knight.engine import InvalidInput
from knight.grading.check import FULL, NOT_A_TOUR, Check
from knight.grading.files import display_name, read_regular, text_by_bom
from knight.grading.formats import Unreadable

__all__ = ["DEFAULT_RUBRIC", "RUBRIC_BYTES", "RUBRIC_MAX", "load_rubric", "score"]

DEFAULT_RUBRIC: dict[str, float | bool] = {
    "full_tour": 50,
    "legal": 30,
    "rule_followed": 20,
    "closed_tour": 20,
    "copied_penalty": 0,
    "wrong_exercise_penalty": 50,
    "partial_credit": True,
}
#: The largest rubric file read (a rubric is a few lines of TOML).
RUBRIC_BYTES = 16_000
#: The largest number a rubric may give (points or a penalty); 0 is the smallest.
RUBRIC_MAX = 1000


def load_rubric(path: Path | str | None) -> dict[str, float | bool]:
    """The default rubric, updated from a TOML file; raises :class:`InvalidInput` on a bad file."""
    rubric = dict(DEFAULT_RUBRIC)
    if path is None:
        return rubric
    shown = display_name(os.fspath(path))  # in a one-line message: a newline in the name escaped
    try:
        data = read_regular(path, RUBRIC_BYTES)
    except Unreadable as error:
        raise InvalidInput(f"cannot read the rubric {shown}: {error}") from None
    if len(data) > RUBRIC_BYTES:
        raise InvalidInput(f"the rubric {shown} is larger than {RUBRIC_BYTES // 1000} kB; a rubric is a few lines")
    try:
        parsed = tomllib.loads(_rubric_text(data, shown))
    except tomllib.TOMLDecodeError as error:
        raise InvalidInput(f"the rubric {shown} is not valid TOML: {error}") from None
    except ValueError:  # an integer of over 4,300 digits: Python's int() refuses it
        raise InvalidInput(
            f"the rubric {shown} holds a number of thousands of digits; give a number from 0 to {RUBRIC_MAX}"
        ) from None
    except RecursionError:  # tomllib recurses into nested arrays; a rubric has none
        raise InvalidInput(
            f"the rubric {shown} nests arrays or tables too deep; a rubric is key = number lines"
        ) from None
    section = parsed.get("rubric", parsed)
    if not isinstance(section, dict):
        raise InvalidInput(f"the rubric {shown}'s 'rubric' is not a table; write [rubric] and key = number lines")
    for key, value in section.items():
        if key not in DEFAULT_RUBRIC:
            raise InvalidInput(f"the rubric {shown} has an unknown key {key!r}; keys: {', '.join(DEFAULT_RUBRIC)}")
        if key == "partial_credit":
            if not isinstance(value, bool):
                raise InvalidInput(f"the rubric {shown}'s {key!r} must be true or false")
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InvalidInput(f"the rubric {shown}'s {key!r} must be a number from 0 to {RUBRIC_MAX}")
        elif not (0 <= value <= RUBRIC_MAX):  # compared as it is: a huge int overflows a float (0xFFF…F)
            number = f"{value}" if isinstance(value, float) or abs(value) < 10**12 else "a number that large"
            raise InvalidInput(f"the rubric {shown}'s {key!r} is {number}; give a number from 0 to {RUBRIC_MAX}")
        rubric[key] = value
    return rubric


def _rubric_text(data: bytes, path: str) -> str:
    """The rubric's text: as its byte-order mark says (a UTF-8 one left out), else UTF-8."""
    try:
        marked = text_by_bom(data)
        return marked if marked is not None else data.decode("utf-8")
    except (UnicodeDecodeError, Unreadable):
        raise InvalidInput(f"the rubric {path} is not UTF-8 text; write it as plain TOML") from None


def score(result: Check, rubric: dict[str, float | bool], copied: bool = False) -> float:
    """The submission's score under ``rubric`` (the formula is the module's docstring's)."""
    size = result.board.size
    squares_points = float(rubric["full_tour"])
    points = 0.0
    if result.closed_assigned:
        closing = min(float(rubric["closed_tour"]), squares_points)
        squares_points -= closing
        points += closing if result.verdict == FULL and result.closed else 0.0
    if rubric["partial_credit"]:
        points += squares_points * result.legal_prefix / size
    elif result.verdict == FULL:
        points += squares_points
    if result.verdict != NOT_A_TOUR:
        points += float(rubric["legal"])
    points += float(rubric["rule_followed"]) * (result.rule_steps / (size - 1) if size > 1 else 1.0)
    if copied:
        points -= float(rubric["copied_penalty"])
    if result.assigned is False:
        points -= float(rubric["wrong_exercise_penalty"])
    return round(max(points, 0.0), 1)
