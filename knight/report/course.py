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
from typing import Any, TypedDict

from knight.errors import InvalidInput, Unreadable
from knight.files import read_regular

__all__ = ["DEFAULT_COURSE", "Assignment", "Course", "load_course", "parse_course", "parse_day"]

#: The course file at the project's root, used when none is named.
DEFAULT_COURSE = Path("course.toml")
_KEYS = "title, class, due, time_zone, key_public_from, hand_in, site_url, [assignment]"
#: The self-check page's file on the class's site (``knight site`` writes it at the site's root).
CHECK_PAGE = "check.html"


class AssignmentContext(TypedDict):
    """:meth:`Assignment.to_context`: what the templates and the self-check page read."""

    board: list[int]
    start: list[int] | None
    closed: bool


class CourseContext(TypedDict):
    """:meth:`Course.to_context`: what the templates show."""

    title: str
    class_name: str
    due: str
    time_zone: str
    key_public_from: str
    hand_in: str
    site_url: str
    check_url: str
    assignment: AssignmentContext | None


@dataclass(frozen=True)
class Assignment:
    """The exercise: a tour of ``board`` (rows, columns) from ``start`` (0-based (row, col); None: any square),
    closed when ``closed``. ``knight check``, ``knight grade`` and the self-check page judge a hand-in by it."""

    board: tuple[int, int]
    start: tuple[int, int] | None = None
    closed: bool = False

    def to_context(self) -> AssignmentContext:
        """What the templates and the self-check page read."""
        return {
            "board": list(self.board),
            "start": None if self.start is None else list(self.start),
            "closed": self.closed,
        }


@dataclass(frozen=True)
class Course:
    """A checked course file."""

    title: str
    class_name: str
    due: datetime.date
    key_public_from: datetime.date
    time_zone: str = "UTC"
    hand_in: str = ""
    assignment: Assignment | None = None
    #: Where the class's site is published (``knight site``'s folder on the web), ending in "/"; "" when not said.
    site_url: str = ""

    @property
    def check_url(self) -> str:
        """The self-check page's address on the class's site ("" when the course file gives no ``site_url``)."""
        return f"{self.site_url}{CHECK_PAGE}" if self.site_url else ""

    def today(self) -> datetime.date:
        """Today's date in the course's time zone."""
        return datetime.datetime.now(zoneinfo.ZoneInfo(self.time_zone)).date()

    def key_public(self, today: datetime.date) -> bool:
        """True from ``key_public_from`` on (that day included)."""
        return today >= self.key_public_from

    def to_context(self) -> CourseContext:
        """What the templates show (dates as ISO text; the assignment as :meth:`Assignment.to_context`, or None)."""
        return {
            "title": self.title,
            "class_name": self.class_name,
            "due": self.due.isoformat(),
            "time_zone": self.time_zone,
            "key_public_from": self.key_public_from.isoformat(),
            "hand_in": self.hand_in,
            "site_url": self.site_url,
            "check_url": self.check_url,
            "assignment": None if self.assignment is None else self.assignment.to_context(),
        }


def parse_day(text: str, what: str = "--today") -> datetime.date:
    """A date given as YYYY-MM-DD (the value of --today)."""
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput(f"{what} takes a date as YYYY-MM-DD (e.g. 2025-11-14), got {text[:40]!r}") from None


def load_course(path: Path) -> Course:
    """Read and check the course file ``path``: a regular file of at most :data:`MOST_BYTES` bytes (a FIFO or a
    device is refused without waiting on it or reading it), TOML nested at most :data:`DEEPEST` deep."""
    text = _read(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidInput(f"{path}: not valid TOML: {error}") from None
    except RecursionError:  # arrays or tables nested some thousand deep
        raise InvalidInput(f"{path}: nested too deeply (a course file nests {DEEPEST} levels at most)") from None
    if _depth(data) > DEEPEST:
        raise InvalidInput(f"{path}: nested too deeply (a course file nests {DEEPEST} levels at most)")
    return parse_course(data, path)


#: A course file is a dozen lines: anything larger than this is not one (and is not read further).
MOST_BYTES = 64 * 1024
#: Tables and arrays in tables and arrays: the course file's deepest is two ([assignment], a value in it).
DEEPEST = 8


def _read(path: Path) -> str:
    """The text of the course file: opened without blocking (a FIFO with no writer opens at once), refused
    unless it is a regular file, at most :data:`MOST_BYTES` + 1 bytes read (:func:`knight.files.read_regular`)."""
    if not path.exists() and not path.is_symlink():
        raise InvalidInput(f"{path}: no such course file; write one (keys: {_KEYS}) or give its path with --course")
    try:
        data = read_regular(path, MOST_BYTES)
    except Unreadable as error:
        raise InvalidInput(f"{path}: cannot read the course file: {error}") from None
    if len(data) > MOST_BYTES:
        raise InvalidInput(
            f"{path}: larger than {MOST_BYTES // 1024} KiB, so not a course file (a dozen lines); give the course "
            "file with --course"
        )
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, as Windows editors write, is no error
    except UnicodeDecodeError:
        raise InvalidInput(f"{path}: not UTF-8 text; save the course file as UTF-8") from None


def _depth(data: object) -> int:
    """How deep tables and arrays nest in ``data`` (a value alone: 0), counted without recursion."""
    deepest, stack = 0, [(data, 0)]
    while stack:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(value, dict):
            stack.extend((inner, depth + 1) for inner in value.values())
        elif isinstance(value, list):
            stack.extend((inner, depth + 1) for inner in value)
    return deepest


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
    assignment = None
    if model.assignment is not None:
        table = model.assignment
        (n, m), start = table.board, table.start
        if start is not None and not (start[0] < n and start[1] < m):
            raise InvalidInput(
                f"{path}: assignment.start: ({start[0]}, {start[1]}) is off the {n}x{m} board; give a row from 0 to "
                f"{n - 1} and a column from 0 to {m - 1}"
            )
        assignment = Assignment(table.board, start, table.closed)
    return Course(
        model.title,
        model.class_,
        model.due,
        model.key_public_from,
        model.time_zone,
        model.hand_in.strip(),
        assignment,
        model.site_url,
    )
