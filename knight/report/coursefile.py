"""The shape of the course file, as a pydantic model (loaded only when a course file is read:
:func:`knight.report.course.parse_course` turns its first complaint into one line)."""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictStr
from pydantic_core import PydanticCustomError

__all__ = ["CourseFile"]


def _text(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("course", "is empty; give the text to show")
    return value.strip()


def _zone(value: str) -> str:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise PydanticCustomError(
            "course",
            "unknown time zone {value}; give an IANA name such as UTC or Europe/Berlin",
            {"value": repr(value)},
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


Text = Annotated[StrictStr, AfterValidator(_text)]
Day = Annotated[datetime.date, BeforeValidator(_day)]


class CourseFile(BaseModel):
    """``course.toml``: every key is shown to students; none is secret."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    title: Text
    class_: Text = Field(alias="class")
    due: Day
    key_public_from: Day
    time_zone: Annotated[StrictStr, AfterValidator(_zone)] = "UTC"
    hand_in: StrictStr = ""
