"""The course file (``course.toml``): the course, the assignment's due date, and when the key may be public.

Validated like the job files: pydantic models (loaded only when a course file is read), the first problem
refused in one line that names the file, the key and what is valid. Nothing here is secret: the file says
when the project itself starts handing the answer key out (``knight site``), no more.

>>> course = parse_course({"title": "Algorithms", "class": "CS 201", "due": datetime.date(2025, 11, 14),
...                        "key_public_from": datetime.date(2025, 11, 17)}, Path("course.toml"))
>>> course.key_public(datetime.date(2025, 11, 16)), course.key_public(datetime.date(2025, 11, 17))
(False, True)
"""

from __future__ import annotations

import datetime
import tomllib
import zoneinfo
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from knight.errors import InvalidInput

__all__ = ["DEFAULT_COURSE", "Course", "load_course", "parse_course", "parse_day"]

#: The course file at the project's root, used when none is named.
DEFAULT_COURSE = Path("course.toml")
_KEYS = "title, class, due, time_zone, key_public_from, hand_in"


@dataclass(frozen=True)
class Course:
    """A checked course file."""

    title: str
    class_name: str
    due: datetime.date
    key_public_from: datetime.date
    time_zone: str = "UTC"
    hand_in: str = ""

    def today(self) -> datetime.date:
        """Today's date in the course's time zone."""
        return datetime.datetime.now(zoneinfo.ZoneInfo(self.time_zone)).date()

    def key_public(self, today: datetime.date) -> bool:
        """True from ``key_public_from`` on (that day included)."""
        return today >= self.key_public_from

    def to_context(self) -> dict[str, str]:
        """What the templates show (dates as ISO text)."""
        return {
            "title": self.title,
            "class_name": self.class_name,
            "due": self.due.isoformat(),
            "time_zone": self.time_zone,
            "key_public_from": self.key_public_from.isoformat(),
            "hand_in": self.hand_in,
        }


def parse_day(text: str, what: str = "--today") -> datetime.date:
    """A date given as YYYY-MM-DD (the value of --today)."""
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput(f"{what} takes a date as YYYY-MM-DD (e.g. 2025-11-14), got {text[:40]!r}") from None


def load_course(path: Path) -> Course:
    """Read and check the course file ``path``."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidInput(
            f"{path}: no such course file; write one (keys: {_KEYS}) or give its path with --course"
        ) from None
    except IsADirectoryError:
        raise InvalidInput(f"{path}: is a folder; give the course file (course.toml) with --course") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidInput(f"{path}: cannot read the course file: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise InvalidInput(f"{path}: not valid TOML: {error}") from None
    return parse_course(data, path)


def parse_course(data: dict[str, Any], path: Path) -> Course:  # TOML as read: checked below
    """Check the TOML ``data`` of the course file ``path``; the first problem is refused in one line."""
    from pydantic import ValidationError  # loaded only to read a file: it takes a fifth of a second

    from knight.report.coursefile import CourseFile

    try:
        model = CourseFile.model_validate(data)
    except ValidationError as error:
        problem = min(error.errors(), key=lambda each: each["type"] != "extra_forbidden")
        key = ".".join(str(part) for part in problem["loc"]) or "(the file)"
        kind = problem["type"]
        if kind == "extra_forbidden":
            message = f"unknown key; valid keys: {_KEYS}"
        elif kind == "missing":
            message = "missing; every course file gives title, class, due and key_public_from"
        elif kind == "course":  # our own message, from a validator
            message = problem["msg"]
        else:
            message = f"{problem['msg']}, got {problem['input']!r}"[:200]
        raise InvalidInput(f"{path}: {key}: {message}") from None
    if model.key_public_from < model.due:
        raise InvalidInput(
            f"{path}: key_public_from {model.key_public_from} is before the due date {model.due}; "
            "give a day on or after it"
        )
    return Course(model.title, model.class_, model.due, model.key_public_from, model.time_zone, model.hand_in.strip())
