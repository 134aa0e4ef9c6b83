"""Times said in words, as players write them in ``away``: "until Friday", "till the 20th",
"for a week", "away for 3 days", "till 2nd Jan", in any of the languages.

The names of weekdays and months are CLDR's (through Babel), in every language the referee
reads, and their last word too ("Dydd Gwener" is also "Gwener"); each language's
``words.toml`` adds under ``[time]`` the words around them: ``until`` (till, tan, til, ĝis,
পর্যন্ত…), ``for``, the units (``day``, ``week``, ``fortnight``, ``month``: each with its
forms), ``today`` and ``tomorrow``, the suffixes of a day's number (``ordinal``: 20th,
20fed, 20-a), the numbers of days beyond the counts of ``[numbers]`` (``[time.numbers]``:
ten, deg, tíu, dek, দশ), and other forms of the weekdays and months (``[time.weekdays]``,
``[time.months]``: Welsh mutations, Icelandic cases), and words that are a length of time
whole (``[time.lengths]``: Welsh "tridiau", three days), and a day of the month said as a word
(``[time.days]``: Bengali "উনিশে", the nineteenth; ``[time.dates]``, only beside a
month's name: Esperanto "la dudeka de decembro"). A count before a unit that is none of
these ("a few days") is not read as a time at all. Nothing here names a language.

Pure: (text, now) -> when, or None when no time is said.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from babel.core import UnknownLocaleError
from babel.dates import get_day_names, get_month_names

from referee.wording.vocabulary import (
    WORD,
    fold,
    language_tables,
    locale_folder,
    reading_vocabulary,
)

#: The length of each unit of time, in days.
UNITS = {"day": 1, "week": 7, "fortnight": 14, "month": 30}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
#: The most days a time said in words may be (a greater one is read as this: away caps it).
MOST_DAYS = 3660
#: A day's number, with what may follow it (20th, 20fed, 20., 20-a).
_DAY = re.compile(r"(\d{1,2})(\D*)")


@dataclass(frozen=True)
class TimeWords:
    """The words of time of every language at once, folded: each word -> what it is."""

    until: frozenset[str]
    during: frozenset[str]  # "for"
    units: Mapping[str, int]  # word -> days
    today: frozenset[str]
    tomorrow: frozenset[str]
    ordinals: frozenset[str]  # what may follow a day's number
    weekdays: Mapping[str, int]  # word -> 0 (Monday) .. 6
    months: Mapping[str, int]  # word -> 1 .. 12
    numbers: Mapping[str, int]  # the numbers of [numbers] and of [time.numbers]
    ones: frozenset[str]  # "a", "an": one of what follows ([grammar] one and articles)
    #: the languages that name a weekday or a month so (Icelandic "frí", holiday, written
    #: with its accent, is not English "Fri")
    named_in: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: a day of the month said as a word (Bengali "উনিশে", "উনিশ"): word -> 1 .. 31
    days: Mapping[str, int] = field(default_factory=dict)
    #: the words of "until" that are one word whole, where the day comes after them
    #: ("until Monday", "ĝis lundo"), and where it comes before them (Bengali "সোমবার
    #: পর্যন্ত", in a language that puts its verb last): a day beside one is the day meant
    until_before_day: frozenset[str] = frozenset()
    until_after_day: frozenset[str] = frozenset()
    #: a day of the month said as a word that is one only beside a month's name (Esperanto
    #: "la dudeka de decembro"; "ĝis la sepa" alone is until seven o'clock)
    dates: Mapping[str, int] = field(default_factory=dict)

    def names(self, word: str, written: str) -> bool:
        """Whether ``word`` (folded), written as ``written``, names a day or a month in a
        language that could write it so."""
        vocabulary = reading_vocabulary()
        return any(vocabulary.written_in(written, lang) for lang in self.named_in.get(word, ()))


def time_words() -> TimeWords:
    return _time_words(locale_folder())


@functools.cache
def _time_words(folder: Path) -> TimeWords:
    until: set[str] = set()
    during: set[str] = set()
    units: dict[str, int] = {}
    today: set[str] = set()
    tomorrow: set[str] = set()
    ordinals: set[str] = set()
    weekdays: dict[str, int] = {}
    months: dict[str, int] = {}
    numbers: dict[str, int] = {}
    ones: set[str] = set()
    named_in: dict[str, frozenset[str]] = {}
    of_month: dict[str, int] = {}
    dates: dict[str, int] = {}
    before_day: set[str] = set()
    after_day: set[str] = set()
    for language, table in language_tables(folder):
        said: Mapping[str, Any] = table.get("time", {})

        def folded(words: list[str], lang: str = language) -> set[str]:
            return {piece for w in words for piece in WORD.findall(fold(str(w), lang))}

        until |= folded(said.get("until", []))
        grammar = table.get("grammar", {})
        small = {  # (the language's small words: "to", "up" of "up to", Welsh "hyd" of "hyd
            fold(str(w), language)  # at": a place may follow them)
            for kind in ("prepositions", "conjunctions", "articles", "pronouns", "helpers")
            for w in grammar.get(kind, [])
        }
        whole = {fold(str(w), language) for w in said.get("until", [])}
        whole = {w for w in whole if len(WORD.findall(w)) == 1 and w not in small}
        last = grammar.get("order") == "verb last"
        (after_day if last else before_day).update(whole)
        during |= folded(said.get("for", []))
        today |= folded(said.get("today", []))
        tomorrow |= folded(said.get("tomorrow", []))
        ordinals |= {fold(str(w), language) for w in said.get("ordinal", [])}
        for unit, days in UNITS.items():
            units.update(dict.fromkeys(folded(said.get(unit, [])), days))
        for length, words in said.get("lengths", {}).items():  # ("tridiau": three days)
            units.update(dict.fromkeys(folded(words), int(length)))
        for day, words in said.get("days", {}).items():  # ("ফিরব উনিশে ডিসেম্বর")
            of_month.update(dict.fromkeys(folded(words), int(day)))
        for day, words in said.get("dates", {}).items():  # ("la dudeka de decembro")
            dates.update(dict.fromkeys(folded(words), int(day)))
        counted = [*table.get("numbers", {}).items(), *said.get("numbers", {}).items()]
        for number, words in counted:
            numbers.update(dict.fromkeys(folded(words), int(number)))
        ones |= folded([*grammar.get("one", []), *grammar.get("articles", [])])
        _cldr_names(language, weekdays, months)
        for name, words in said.get("weekdays", {}).items():
            weekdays.update(dict.fromkeys(folded(words), WEEKDAYS.index(name)))
        for name, words in said.get("months", {}).items():
            months.update(dict.fromkeys(folded(words), MONTHS.index(name) + 1))
        own_days: dict[str, int] = {}
        own_months: dict[str, int] = {}
        _cldr_names(language, own_days, own_months)
        kept = [*said.get("weekdays", {}).values(), *said.get("months", {}).values()]
        for key in {*own_days, *own_months, *folded([w for words in kept for w in words])}:
            named_in[key] = named_in.get(key, frozenset()) | {language}
    return TimeWords(
        frozenset(until), frozenset(during), units, frozenset(today), frozenset(tomorrow),
        frozenset(ordinals), weekdays, months, numbers, frozenset(ones), named_in, of_month,
        frozenset(before_day), frozenset(after_day), dates,
    )  # fmt: skip


def _cldr_names(language: str, weekdays: dict[str, int], months: dict[str, int]) -> None:
    """CLDR's names of the weekdays and months in ``language`` (wide and abbreviated, as
    they stand alone and in a date), and the last word of each."""
    try:
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for day, name in get_day_names(width, context, language).items():
                    for key in _keys(name, language):
                        weekdays.setdefault(key, int(day))
                for month, name in get_month_names(width, context, language).items():
                    for key in _keys(name, language):
                        months.setdefault(key, int(month))
    except (ValueError, LookupError, UnknownLocaleError):  # a language CLDR does not know:
        # its words.toml says
        return


def _keys(name: str, language: str) -> list[str]:
    """How a name is looked up: whole, and its last word ("Dydd Gwener", "Gwener"); not a
    name of two letters or fewer, which other words are too (Esperanto's "me" is
    Wednesday)."""
    pieces = WORD.findall(fold(name.rstrip("."), language))
    keys = [" ".join(pieces), pieces[-1]] if pieces else []
    return [key for key in keys if len(key) > 2]


def until_said(text: str, now: datetime) -> datetime | None:
    """When the time said in ``text`` ends, counted from ``now``: a length of time ("for a
    week", "3 days") from now; a day ("until Friday", "till the 20th", "till 2nd Jan",
    "tomorrow") at its start (UTC); None when ``text`` says no time."""
    words = time_words()
    written = WORD.findall(text.casefold())
    said = [fold(w) for w in written]
    today = now.date()
    for n, word in enumerate(said):
        if word in words.tomorrow and n > 0 and said[n - 1] in words.until:
            return _start(today + timedelta(days=1))  # ("until tomorrow, not Friday")
        if word in words.units:
            count = _count_before(said, n, words)
            if count is None:  # ("this month"; "ten days" in a language whose "ten" is not
                continue  # listed: not read as a length, a time said after it may be)
            count = min(count, MOST_DAYS)  # (away caps it after)
            return now + timedelta(days=min(count * words.units[word], MOST_DAYS))
    order = _days_meant_first(said, words)
    for n in order:
        word = said[n]
        month = words.months.get(word) if words.names(word, written[n]) else None
        day = _day_beside(said, n, words) if month is not None else None
        if month is not None and day is None:
            day = _day_beside(said, n, words, dates=True)
            if day is not None and word in words.weekdays:  # (Welsh "Mawrth", March and
                return None  # Tuesday: "tan yr ail o Fawrth": which, is not guessed)
        if month is not None and day is not None:
            start = _next_date(today, month, day)
            later = _day_until_after(said, n, words)
            if later is not None:  # ("from the 2nd of January until the 15th": the next
                return _start(_next_day_of_month(start, later))  # 15th after the 2nd)
            governed = _weekday_until(said, written, n, words)
            if governed is not None and not 0 < governed[0] - n <= 4:  # (the weekday "until"
                continue  # governs, below, unless it follows the date: "It's my birthday on
                # 12 December so I'm away until Friday"; "till Friday, then from the 20th…")
            if governed is not None:  # ("from 20 December until Friday": the Friday after)
                ahead = (governed[1] - start.weekday()) % 7 or 7
                return _start(start + timedelta(days=ahead))
            return _start(start)
    for n in order:
        word = said[n]
        weekday = words.weekdays.get(word) if words.names(word, written[n]) else None
        if weekday is None:
            continue
        day = _day_beside(said, n, words)
        if day is not None:  # ("until Sunday the 20th": the day's number says which Sunday)
            return _start(_next_day_of_month(today, day))
        ahead = (weekday - today.weekday()) % 7 or 7
        return _start(today + timedelta(days=ahead))
    for n, word in enumerate(said):
        if word in words.until:
            day = _day_after(said, n + 1, words) or _day_before(said, n, words)
            if day is not None:
                return _start(_next_day_of_month(today, day))
    if any(word in words.tomorrow for word in said):  # (last: "from tomorrow until the 20th")
        return _start(today + timedelta(days=1))
    return None


def _day_until_after(said: list[str], n: int, words: TimeWords) -> int | None:
    """The day's number said after a word of "until" that comes after the month at ``n``
    with no month of its own ("from the 2nd of January until the 15th"); None when there
    is none."""
    for u in range(n + 1, len(said)):
        if said[u] in words.until_before_day:
            after = said[u + 1 : u + 5]
            if any(w in words.months for w in after):
                return None  # (its own month: "…until the 15th of January", read so)
            return _day_after(said, u + 1, words)
    return None


def _weekday_until(
    said: list[str], written: list[str], n: int, words: TimeWords
) -> tuple[int, int] | None:
    """The place and the weekday a word of "until" governs when the date at ``n`` is not
    the one it governs ("from 20 December until Friday"; only an "until": "rhwng 20 Rhagfyr
    a dydd Gwener" is not read so); None when there is none."""
    if n in _places_meant(said, words):
        return None
    for at in _places_meant(said, words):
        word = said[at]
        weekday = word in words.weekdays and word not in words.months
        if weekday and words.names(word, written[at]) and _day_beside(said, at, words) is None:
            return at, words.weekdays[word]
    return None


def _places_meant(said: list[str], words: TimeWords) -> list[int]:
    """The places of ``said`` a word of "until" governs, on the side its language puts the
    day (a word or four after, or two before)."""
    after = [n for n, w in enumerate(said) if w in words.until_before_day]
    before = [n for n, w in enumerate(said) if w in words.until_after_day]
    return [
        n
        for n in range(len(said))
        if any(0 < n - u <= 4 for u in after) or any(0 < u - n <= 2 for u in before)
    ]


def _days_meant_first(said: list[str], words: TimeWords) -> list[int]:
    """The places of ``said``, those beside a word of "until" first, on the side its language
    puts the day ("…from Friday until Monday the 21st", "ĝis la deka de januaro", "সোমবার
    পর্যন্ত, শুক্রবার থেকে…"); otherwise in order."""
    meant = set(_places_meant(said, words))
    return sorted(range(len(said)), key=lambda n: n not in meant)


def names_a_day(text: str) -> bool:
    """Whether ``text`` names a day to come, with or without an "until": a weekday, a month,
    tomorrow, or a day's number with its ordinal ("I'm back on the 20th", "back Monday"; not
    today)."""
    words = time_words()
    written = WORD.findall(text.casefold())
    for n, word in enumerate(fold(w) for w in written):
        if word in words.tomorrow or word in words.days:
            return True
        if (word in words.weekdays or word in words.months) and words.names(word, written[n]):
            return True
        found = _DAY.fullmatch(word)
        if found and found.group(2) and found.group(2) in words.ordinals:
            return True
    return False


def _count_before(said: list[str], n: int, words: TimeWords) -> int | None:
    """How many of a unit the words before it say ("3 days", "two weeks", "৫ দিন"; "a week",
    "for a week", "am wythnos", "í viku": 1); None when the word before it is none of those
    (a number the language's lists lack: never guessed as one)."""
    if n == 0:
        return 1
    before = said[n - 1]
    if before.isdecimal():
        return int(before) if len(before) <= 5 else MOST_DAYS
    if before in words.numbers:
        return words.numbers[before]
    if before in words.ones or before in words.during or before in words.until:
        return 1
    return None


def _day_beside(said: list[str], n: int, words: TimeWords, dates: bool = False) -> int | None:
    """A day's number just before or after a month's or a weekday's name ("2nd Jan",
    "December 20", "Sunday the 20th"; beside a month's name, ``dates``, a word that is a day
    only there too: "la dudeka de decembro")."""
    for at in (n - 1, n + 1, n - 2, n + 2):
        if 0 <= at < len(said):
            day = _day_of(said[at], words)
            if day is None and dates:
                day = words.dates.get(said[at])
            if day is not None:
                return day
    return None


def _day_after(said: list[str], start: int, words: TimeWords) -> int | None:
    """A day's number with its ordinal after an "until" ("till the 20th"), a word or two on."""
    for at in range(start, min(start + 3, len(said))):
        day = _day_of(said[at], words)
        if day is not None:
            return day
    return None


def _day_before(said: list[str], n: int, words: TimeWords) -> int | None:
    """A day's number a word or two before an "until" that follows what it governs
    (Bengali "২০ তারিখ পর্যন্ত")."""
    if n >= 1 and (day := _day_of(said[n - 1], words)) is not None:
        return day
    if n >= 2 and said[n - 1] in words.ordinals:  # ("২০ তারিখ", "উনিশ তারিখ"; not "৫ মিনিট")
        day = words.numbers.get(said[n - 2]) or _day_of(said[n - 2], words)
        return day if day is not None and 1 <= day <= 31 else None
    return None


def _day_of(word: str, words: TimeWords) -> int | None:
    if word in words.days:
        return words.days[word]
    found = _DAY.fullmatch(word)
    if not found or (found.group(2) and found.group(2) not in words.ordinals):
        return None
    day = int(found.group(1))
    return day if 1 <= day <= 31 else None


def _next_date(today: date, month: int, day: int) -> date:
    """The next ``day`` of ``month`` after ``today`` (this year, or next)."""
    for year in (today.year, today.year + 1):
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if found > today:
            return found
    return today + timedelta(days=1)


def _next_day_of_month(today: date, day: int) -> date:
    """The next date whose day of the month is ``day``, after ``today``."""
    at = today
    for _ in range(62):
        at += timedelta(days=1)
        if at.day == day:
            return at
    return today + timedelta(days=1)


def _start(day: date) -> datetime:
    return datetime.combine(day, time(), UTC)
