"""The site workflow's daily build runs just after midnight in course.toml's time zone (issue 38, item 5): its cron
hours are 00:07 there, written in UTC (two hours for a zone with daylight saving time), and the workflow says
why and warns of GitHub's 60-day rule."""

from __future__ import annotations

import re
import tomllib
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "site.yml"
MINUTE = 7


def utc_hours(zone: str, year: int = 2026) -> list[int]:
    """The UTC hours at which it is 00:07 in ``zone`` on some day of ``year``."""
    local = ZoneInfo(zone)
    day, hours = date(year, 1, 1), set()
    while day.year == year:
        moment = datetime.combine(day, time(0, MINUTE), tzinfo=local)
        hours.add(moment.astimezone(ZoneInfo("UTC")).hour)
        day += timedelta(days=1)
    return sorted(hours)


def cron(text: str) -> tuple[int, list[int], str]:
    (entry,) = re.findall(r'-\s*cron:\s*"([^"]+)"', text)
    minute, hours, *rest = entry.split()
    return int(minute), [int(hour) for hour in hours.split(",")], " ".join(rest)


@pytest.mark.parametrize(("zone", "hours"), [("UTC", [0]), ("America/New_York", [4, 5]), ("Asia/Kolkata", [18])])
def test_the_hours_of_a_zone(zone, hours):
    assert utc_hours(zone) == hours


def test_the_daily_build_runs_just_after_midnight_in_the_courses_time_zone():
    zone = tomllib.loads((ROOT / "course.toml").read_text(encoding="utf-8")).get("time_zone", "UTC")
    minute, hours, rest = cron(WORKFLOW.read_text(encoding="utf-8"))
    expected = utc_hours(zone)
    assert (minute, hours, rest) == (MINUTE, expected, "* * *"), (
        f'course.toml\'s time zone is {zone}: the cron must be "{MINUTE} {",".join(map(str, expected))} * * *"'
    )


def test_the_workflow_explains_the_offset_and_the_60_day_rule():
    text = " ".join(WORKFLOW.read_text(encoding="utf-8").split())
    assert "19:07" in text and "time_zone" in text
    assert "60 days" in text and "Enable workflow" in text
