"""The messages of durations and dates as people write them (:mod:`referee.timing`)."""

from __future__ import annotations

from referee.wording.catalogue import entry

entry(
    "duration.unreadable",
    "{text} is not a duration: write a whole number and a unit, like 3d (days), "
    "36h (hours), 2w (weeks) or 90m (minutes)",
    {"text": "quoted"},
    when="a length of time is not a number and a unit (as written)",
)
entry(
    "deadline.out_of_range",
    "a deadline of {text} is out of range: give between {shortest} and {longest}",
    {"text": "text", "shortest": "duration", "longest": "duration"},
    when="a game's time per move is shorter or longer than a game may have (as written)",
)
entry(
    "until.unreadable",
    "{text} is neither a date nor a duration: write a date like 2027-01-15, or a "
    "duration like 5d or 2w",
    {"text": "quoted"},
    when="the end of an absence is neither a date, a time nor a length of time (as written)",
)
