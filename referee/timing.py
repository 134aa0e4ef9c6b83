"""Durations and dates as people write them: ``7d``, ``36h``, ``2w``, ``90m``, ``2027-01-15``.

Pure: "now" is always an argument (the service's one clock, which ``serve --now`` sets).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta

from referee.errors import RequestError

#: The default time a player has for a move.
DEFAULT_DEADLINE = timedelta(days=7)
#: The shortest and longest deadline a game may have.
SHORTEST_DEADLINE = timedelta(hours=1)
LONGEST_DEADLINE = timedelta(days=60)

_UNITS = {
    "m": 60,
    "min": 60,
    "minute": 60,
    "minutes": 60,
    "h": 3600,
    "hour": 3600,
    "hours": 3600,
    "d": 86400,
    "day": 86400,
    "days": 86400,
    "w": 7 * 86400,
    "week": 7 * 86400,
    "weeks": 7 * 86400,
}
_DURATION = re.compile(r"\s*(\d{1,6})\s*([a-z]+)\s*")


def parse_duration(text: str) -> timedelta:
    """``"3d"`` -> 3 days. Minutes (m), hours (h), days (d) and weeks (w), also spelt out
    (``3 days``). RequestError naming the text and what would work."""
    m = _DURATION.fullmatch(text.casefold())
    if not m or m.group(2) not in _UNITS or int(m.group(1)) == 0:
        raise RequestError.of("duration.unreadable", text=text)
    return timedelta(seconds=int(m.group(1)) * _UNITS[m.group(2)])


def format_duration(span: timedelta) -> str:
    """The shortest exact way to write ``span``: ``7d``, ``36h``, ``90m``."""
    seconds = int(span.total_seconds())
    for unit, size in (("w", 7 * 86400), ("d", 86400), ("h", 3600)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds // 60}m"


def parse_deadline(text: str) -> timedelta:
    """A game's time per move, within SHORTEST_DEADLINE and LONGEST_DEADLINE."""
    span = parse_duration(text)
    if not SHORTEST_DEADLINE <= span <= LONGEST_DEADLINE:
        raise RequestError.of(
            "deadline.out_of_range",
            text=text,
            shortest=int(SHORTEST_DEADLINE.total_seconds()),
            longest=int(LONGEST_DEADLINE.total_seconds()),
        )
    return span


def parse_until(text: str, now: datetime) -> datetime:
    """When ``away UNTIL`` ends: a duration from ``now`` (``5d``), a date (``2027-01-15``,
    the start of that day, UTC) or an ISO time (``2027-01-15T18:00``, UTC unless it says)."""
    written = text.strip()
    try:
        return now + parse_duration(written)
    except RequestError:
        pass
    try:
        if len(written) == 10:
            return datetime.combine(date.fromisoformat(written), time(), UTC)
        at = datetime.fromisoformat(written)
    except ValueError:
        raise RequestError.of("until.unreadable", text=text) from None
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def due_at(since: datetime, deadline: timedelta) -> datetime:
    """When a move is due: ``deadline`` after ``since`` (the last turn, or the game's start).

    Pure and small on purpose: the one place a due time is worked out, so that pauses (a
    player away) can be added here for every caller."""
    return since + deadline
