"""The shape of the course file, as a pydantic model (loaded only when a course file is read:
:func:`knight.report.course.parse_course` turns its first complaint into one line)."""

from __future__ import annotations

import datetime
import urllib.parse
import zoneinfo
from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictStr
from pydantic_core import PydanticCustomError

__all__ = ["CourseFile"]


def _text(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("course", "is empty; give the text to show")
    return value.strip()


def _zone(value: str) -> str:
    # A folder of the time zone database ("Europe") is an OSError (IsADirectoryError), as is a name too long for
    # a path; a file of it that is no zone ("zone.tab") a ValueError.
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise PydanticCustomError(
            "course",
            "unknown time zone {value}; give an IANA name such as UTC or Europe/Berlin",
            {"value": repr(value[:60])},
        ) from None
    return value


def _day(value: object) -> datetime.date:
    """A TOML date (2025-11-14, unquoted) or the same as a string; never a date with a time."""
    if isinstance(value, datetime.datetime):
        raise PydanticCustomError("course", "give a day, 2025-11-14, not a date with a time")
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise PydanticCustomError(
        "course", "give a day as YYYY-MM-DD (e.g. 2025-11-14), got {value}", {"value": repr(value)}
    )


def _site(value: str) -> str:
    """The class's site as an absolute http(s) address, ending in "/" (the self-check page is its check.html)."""
    text = value.strip()
    if not text:
        return ""
    parsed = urllib.parse.urlsplit(text)
    if parsed.scheme not in ("http", "https") or not parsed.netloc or any(c.isspace() for c in text):
        raise PydanticCustomError(
            "course",
            "give the class site's address as https://…/ (where knight site's pages are published), got {value}",
            {"value": repr(value[:80])},
        )
    if parsed.query or parsed.fragment:
        raise PydanticCustomError(
            "course", "give the site's folder, without ?… or #…, got {value}", {"value": repr(value[:80])}
        )
    return text if text.endswith("/") else f"{text}/"


Text = Annotated[StrictStr, AfterValidator(_text)]
Day = Annotated[datetime.date, BeforeValidator(_day)]


def _board(value: object) -> tuple[int, int]:
    """A board as 8, "8" or "6x8" (rows x columns), of 1 to 1,000 rows and columns."""
    text = str(value).strip().lower().replace("×", "x") if isinstance(value, int | str) else ""
    parts = text.split("x") if text and not isinstance(value, bool) else []
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(part.strip().isascii() and part.strip().isdigit() for part in parts):
        raise PydanticCustomError(
            "course", 'give a board as N or NxM (8 or "6x8"), got {value}', {"value": repr(value)}
        )
    n, m = (int(part) for part in parts)
    if not (1 <= n <= 1000 and 1 <= m <= 1000):
        raise PydanticCustomError(
            "course", "a board has 1 to 1,000 rows and columns, got {value}", {"value": repr(value)}
        )
    return n, m


def _start(value: object) -> tuple[int, int]:
    """A start square as "ROW,COL", 0-based from the top-left ("0,0")."""
    parts = value.split(",") if isinstance(value, str) else []
    if len(parts) != 2 or not all(part.strip().isascii() and part.strip().isdigit() for part in parts):
        raise PydanticCustomError(
            "course",
            'give the start square as "ROW,COL", 0-based from the top-left ("0,0"), got {value}',
            {"value": repr(value)},
        )
    row, col = (int(part) for part in parts)
    return row, col


class AssignmentTable(BaseModel):
    """``[assignment]``: the exercise every hand-in is checked against (the board and the start square)."""

    model_config = ConfigDict(extra="forbid")

    board: Annotated[tuple[int, int], BeforeValidator(_board)]
    start: Annotated[tuple[int, int], BeforeValidator(_start)] | None = None
    closed: StrictBool = False


class CourseFile(BaseModel):
    """``course.toml``: every key is shown to students; none is secret."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    title: Text
    class_: Text = Field(alias="class")
    due: Day
    key_public_from: Day
    time_zone: Annotated[StrictStr, AfterValidator(_zone)] = "UTC"
    hand_in: StrictStr = ""
    site_url: Annotated[StrictStr, AfterValidator(_site)] = ""
    assignment: AssignmentTable | None = None
