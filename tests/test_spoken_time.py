"""Times said in words (referee.spoken_time), as ``away`` reads them: counted from Wednesday
9 December 2026, 10:00 UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from referee.spoken_time import until_said

NOW = datetime(2026, 12, 9, 10, 0, tzinfo=UTC)


def day(month: int, day: int, year: int = 2026) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "until"),
    [
        ("I'm away until Friday", day(12, 11)),
        ("On holiday till Monday, back then!", day(12, 14)),
        ("Off on holiday till the 20th", day(12, 20)),
        ("away until 20 December", day(12, 20)),
        ("Away till 2nd Jan. Merry Christmas!", day(1, 2, 2027)),
        ("away till Wednesday", day(12, 16)),  # today is Wednesday: the next one
        ("mark me as away until Sunday the 20th?", day(12, 20)),  # the date says which
        ("back Sunday the 20th", day(12, 20)),
        ("Mi estos for ĝis la dudeka de decembro", day(12, 20)),
        ("A fyddech cystal â gohirio fy nhro hyd at y trydydd o Ionawr?", day(1, 3, 2027)),
        ("i ffwrdd tan y trydydd o Fai", day(5, 3, 2027)),
        ("Off on Friday and shan't be back until Monday the 21st", day(12, 21)),  # (the
        # day after "until", not the one before it)
        ("I won't be around, back on Monday, we fly to Rome Friday", day(12, 14)),  # ("to"
        # goes to a place)
        ("সোমবার পর্যন্ত, শুক্রবার থেকে খেলতে পারব না", day(12, 14)),  # (the day before পর্যন্ত)
        ("Mi ne povos ludi de la kvara de januaro ĝis la deka de januaro", day(1, 10, 2027)),
        ("away from the 2nd of January until the 15th", day(1, 15, 2027)),  # (the month
        ("away from 28 December till the 3rd", day(1, 3, 2027)),  # said once, for both)
        ("Away from 20 December until Friday.", day(12, 25)),  # (the Friday after the 20th)
        ("It's my birthday on 12 December so I'm away until Friday", day(12, 11)),  # (not
        # the start: too far before "until")
        ("Away till Friday, back properly after 20 December", day(12, 11)),  # ("until"
        # governs Friday; the date said after it is not the end)
        ("২০ ডিসেম্বর থেকে শুক্রবার পর্যন্ত থাকব না", day(12, 25)),
        ("back tomorrow", day(12, 10)),
        ("Away for a week from today", NOW + timedelta(days=7)),
        ("I'll be away for a fortnight", NOW + timedelta(days=14)),
        ("away for 3 days", NOW + timedelta(days=3)),
        ("away two weeks", NOW + timedelta(days=14)),
    ],
)
def test_a_time_said_in_words_ends_when_a_person_means(text: str, until: datetime) -> None:
    assert until_said(text, NOW) == until


@pytest.mark.parametrize(
    "text",
    [
        "I'm away",
        "please wait for me",
        "see you soon",
        "I may be late",
        "on the 3rd deck",
        "Getið þið sett mig í frí á meðan?",  # (Icelandic "frí", holiday: not English "Fri")
        "Mi estos for ĝis la sepa vespere",  # (until seven o'clock: no day of the month)
        "Mi ne povos ludi ĝis la kvina vico",
        "i ffwrdd tan y trydydd tro",
        "tan ddydd Mawrth yr ail",  # (Mawrth: March and Tuesday; which is not guessed)
        "tan yr ail o Fawrth",
        "Mi forestos ĝis la fino de decembro, mia tria vojaĝo",  # (no day: "tria" alone)
    ],
)
def test_no_time_said_is_none(text: str) -> None:
    # ("me" is Esperanto's short Wednesday, "may" a month without a day: neither is a time)
    assert until_said(text, NOW) is None


def test_a_time_too_long_to_be_is_read_as_the_longest() -> None:
    for text in ("away for 99999999 days", "away for 3000000 weeks", "away ৯৯৯৯৯৯৯৯৯ দিনের জন্য"):
        assert until_said(text, NOW) is not None  # (away caps it; no overflow)


@pytest.mark.parametrize(
    ("text", "days"),
    [("away for ten days", 10), ("í tíu daga", 10), ("am ddeng niwrnod", 10),
     ("dum dek tagoj", 10), ("দশ দিন খেলতে পারব না", 10), ("৫ দিন", 5), ("for a week", 7)],
)  # fmt: skip
def test_a_count_of_days_beyond_seven_said_in_words_is_read(text: str, days: int) -> None:
    now = datetime(2026, 12, 9, 10, tzinfo=UTC)
    assert until_said(text, now) == now + timedelta(days=days)


@pytest.mark.parametrize(
    ("text", "days"),
    [("Bydda i ffwrdd am dridiau", 3), ("i ffwrdd am ddeuddydd", 2),
     ("10 din thakbo na", 10), ("5 din jonno", 5)],
)  # fmt: skip
def test_a_word_that_is_a_length_of_time_whole_is_read(text: str, days: int) -> None:
    assert until_said(text, NOW) == NOW + timedelta(days=days)


@pytest.mark.parametrize("text", ["away a few days", "away for several weeks", "away many days"])
def test_a_count_the_lists_do_not_know_is_never_guessed_as_one(text: str) -> None:
    assert until_said(text, datetime(2026, 12, 9, 10, tzinfo=UTC)) is None


def test_a_name_of_a_day_is_read_only_as_its_languages_write_it() -> None:
    """A short name of a day in one language that is another's word with an accent (English
    "Fri", Icelandic "frí", holiday) is read only as written in a language that has it."""
    assert until_said("away till Fri", NOW) == day(12, 11)
    assert until_said("Ég verð í fríi", NOW) is None


@pytest.mark.parametrize(
    "text",
    ["মেয়ের কাছে যাচ্ছি, ফিরব ঊনিশে ডিসেম্বর, শনিবার।", "আমাকে উনিশ তারিখ পর্যন্ত অনুপস্থিত রেখো"],
)
def test_a_day_of_the_month_said_as_a_word_is_that_day(text: str) -> None:
    """(``[time.days]``; the weekday said beside it is not the day after next.)"""
    assert until_said(text, NOW) == day(12, 19)


@pytest.mark.parametrize(
    "text", ["away from tomorrow until the 20th", "i ffwrdd o yfory tan ddydd Sul 20 Rhagfyr"]
)
def test_tomorrow_said_as_the_start_leaves_the_end_said_after_it(text: str) -> None:
    assert until_said(text, NOW) == day(12, 20)
    assert until_said("away until tomorrow", NOW) == day(12, 10)


@pytest.mark.parametrize("text", ["পাঁচ মিনিট পর্যন্ত খেলতে পারব না", "৫ মিনিট পর্যন্ত", "বারো ঘণ্টা পর্যন্ত"])
def test_a_count_of_something_else_before_until_is_no_day(text: str) -> None:
    """(A count is a day of the month before "until" only with its ordinal word: "২০ তারিখ".)"""
    assert until_said(text, NOW) is None


def test_until_tomorrow_is_tomorrow_whatever_day_is_said_after() -> None:
    text = "Away until tomorrow, not until Friday as I wrote earlier."
    assert until_said(text, NOW) == day(12, 10)
