"""Words for messages: each kind of parameter worded, lists joined, plurals chosen, times and
lengths of time written; and a message worded whole (:meth:`Words.say`).

This is the one place where a number, a list, a plural or a date becomes text, so that a
language is a catalogue and these few functions, not sentences spread through the code.
:class:`Words` is one language: English writes the forms the referee has always written;
every other language takes its texts from its gettext catalogue
(:mod:`referee.wording.translations`), its plural forms, lists, numbers, dates and lengths
of time from CLDR (Babel), and its game words from its ``words.toml``. Times are shown in
the reader's time zone when they chose one.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent
from babel.units import format_unit
from wcwidth import wcswidth

from referee.engine.cards import TOKEN_COLOURS
from referee.engine.moves import move_from_json
from referee.wording.catalogue import Entry, lookup
from referee.wording.messages import Message
from referee.wording.move_text import format_move
from referee.wording.translations import translations
from referee.wording.vocabulary import (
    NOMINATIVE,
    PLAIN_DATE,
    PLURAL_CATEGORIES,
    Vocabulary,
    counted_spec,
    vocabulary,
)

#: The units a length of time is written in, largest first: as English writes it, CLDR's
#: name, seconds (the last, minutes, is written whatever is left over).
_UNITS = (
    ("d", "duration-day", 86400),
    ("h", "duration-hour", 3600),
    ("m", "duration-minute", 60),
)
#: Welsh "and" is "ac" before a vowel.
_WELSH_VOWELS = tuple("aeiouwyâêîôûŵŷAEIOUWY")
#: The aspirate mutation after Welsh "a" (and): coch -> choch.
_ASPIRATE = {"c": "ch", "p": "ph", "t": "th"}
#: The soft mutation after Welsh "neu" (or): cymryd -> gymryd, prynu -> brynu.
_SOFT = (("ll", "l"), ("rh", "r"), ("p", "b"), ("t", "d"), ("c", "g"), ("b", "f"), ("d", "dd"),
         ("g", ""), ("m", "f"))  # fmt: skip


def _welsh_vowel(word: str) -> bool:
    """Whether ``word`` is said beginning with a vowel (so "and" is "ac"): a vowel letter, a
    noble's N ("en"), 1 and 11-19 read as "un..." and 8 as "wyth"."""
    if word.startswith(_WELSH_VOWELS) or word[:1] in ("N", "8"):
        return True
    return word[:1] == "1" and (word[1:2] in ("", "1") or not word[1:2].isdigit())


def _soft(word: str) -> str:
    """``word`` with the Welsh soft mutation of its first letters."""
    for before, after in _SOFT:
        if word.startswith(before):
            return after + word[len(before) :]
    return word


class Words:
    """How one language words what the catalogue says, for a reader in one time zone
    (``zone`` None: UTC)."""

    def __init__(self, language: str = "en", zone: str | None = None) -> None:
        self.language = language
        self.zone = _zone(zone)
        self._gettext = translations(language)

    # -- a message --------------------------------------------------------------------------

    def say(self, message: Message) -> str:
        """``message`` in words."""
        found = lookup(message.code)
        text = self.text_of(found, message.params)
        try:
            return "".join(
                piece if name is None else self._field(found, message.params, name, spec)
                for piece, name, spec in _pieces(text)
            )
        except (KeyError, IndexError, ValueError, TypeError) as err:
            raise ValueError(f"message {message.code} cannot be worded: {err!r}") from None

    def _field(self, found: Entry, params: Mapping[str, Any], name: str, spec: str) -> str:
        """The field ``name`` of a message in words. A number whose spec names a colour (one
        of the message's colour fields, or a colour itself: ``{paid:colour}``, ``{gold:gold,
        accusative}``) is written with that colour as the number wants it (:meth:`counted`)."""
        kind = found.params[name]
        if kind == "number" and spec:
            case, rest = counted_spec(spec)
            for part in rest:
                colour = params[part] if found.params.get(part) == "colour" else part
                if colour in TOKEN_COLOURS:
                    return self.counted(int(params[name]), str(colour), case)
        return self.word(kind, params[name], spec)

    def text_of(self, found: Entry, params: Mapping[str, Any]) -> str:
        """The form of ``found`` to use, in this language: its plural form when its count
        says so (CLDR's rules: Welsh has six)."""
        if found.plural is None or found.count is None:
            if self.language == "en":
                return found.text
            return str(self._gettext.pgettext(found.code, found.text))
        count = params[found.count]
        number = len(count) if isinstance(count, list | tuple) else int(count)
        if self.language == "en":
            return self.plural(number, found.text, found.plural)
        return str(self._gettext.npgettext(found.code, found.text, found.plural, number))

    def _written(self, value: object) -> str:
        """A word of words.toml as this language writes it; any other value as it is
        written, its digits the language's ("5d", "2027-01-15": what a player may write)."""
        found = self.vocabulary.written.get(str(value))
        return found if found is not None else self.count(value)

    def plural(self, number: int, one: str, other: str) -> str:
        """English has two forms: one, and every other number."""
        return one if number == 1 else other

    @functools.cached_property
    def vocabulary(self) -> Vocabulary:
        """This language's game words (what a move is written in)."""
        return vocabulary(self.language)

    # -- lists ------------------------------------------------------------------------------

    def listed(self, items: Sequence[str], style: str = "") -> str:
        """Items joined: ``and`` (a and b and c), ``or`` (a, b or c), ``series`` (a, b and c),
        ``semicolon``, or (the default) commas."""
        joins = {"and": " and ", "semicolon": "; "}
        if self.language == "cy" and style in ("and", "series", "or") and len(items) > 1:
            return self._welsh_list(items, style == "or")
        if self.language != "en" and style in ("and", "or", "series") and items:
            kind: Literal["or", "standard"] = "or" if style == "or" else "standard"
            said = str(format_list(list(items), kind, self.language))
            return said.replace(", বা ", " বা ") if self.language == "bn" else said
        if style in ("series", "or") and len(items) > 1:
            word = " or " if style == "or" else " and "
            return ", ".join(items[:-1]) + word + items[-1]
        return joins.get(style, ", ").join(items)

    def _welsh_list(self, items: Sequence[str], either: bool) -> str:
        """A Welsh list: no comma before its last word, "neu" (or), or "a" (and: "ac"
        before a vowel); the game's own words after them mutate as Welsh mutates them
        (neu gymryd: soft; a choch: aspirate), names and ids never."""
        last = items[-1]
        game_word = last.split(" ")[0] in self._written_words
        if either:
            return ", ".join(items[:-1]) + " neu " + (_soft(last) if game_word else last)
        if game_word and last[:1] in _ASPIRATE:
            last = _ASPIRATE[last[:1]] + last[1:]
        joined = " ac " if _welsh_vowel(last) else " a "
        return ", ".join(items[:-1]) + joined + last

    @functools.cached_property
    def _written_words(self) -> frozenset[str]:
        """The words the referee writes in this language (moves, colours, commands,
        options)."""
        return frozenset(self.vocabulary.written.values())

    # -- the game's things -------------------------------------------------------------------

    def colour(self, name: str) -> str:
        """A colour's word (``red``; in Welsh ``coch``)."""
        if self.language == "en":
            return name
        return self.vocabulary.word(name)

    def counted(self, number: int, colour: str, case: str = NOMINATIVE) -> str:
        """``number`` of ``colour``, the colour as the number and ``case`` want it (the
        language's ``[counted]``): ``2 red``; in Welsh ``2 goch``; in Esperanto, accusative,
        ``2 ruĝajn``."""
        return self.vocabulary.counted(number, colour, case)

    def colour_as(self, colour: str, spec: str) -> str:
        """A colour field with a spec: the form the spec's CLDR plural category (default
        ``one``) and case want: ``{colour:two}`` after a written 2 (Welsh ``goch``),
        ``{colour:nominative}`` agreeing with one card (Icelandic ``rautt``)."""
        case, rest = counted_spec(spec)
        categories = [part for part in rest if part in PLURAL_CATEGORIES]
        return self.vocabulary.form(colour, categories[-1] if categories else "one", case)

    def tokens(self, counts: Sequence[int], spec: str = "") -> str:
        """``(0, 0, 0, 2, 0, 1)`` -> ``2 red, 1 gold``, each as :meth:`counted` writes it in
        the case ``spec`` names (``accusative``; default nominative); when there are none,
        the word the rest of ``spec`` names in the language's ``[zero]`` words (default
        ``nothing``): ``none,accusative``."""
        case, rest = counted_spec(spec)
        parts = [self.counted(n, TOKEN_COLOURS[k], case) for k, n in enumerate(counts) if n]
        if parts:
            return ", ".join(parts)
        zero = ",".join(rest)
        if zero and zero not in self.vocabulary.zero:
            return zero  # a word said already (the board's "none")
        return self.vocabulary.zero[zero or "nothing"]

    def taken(self, counts: Sequence[int], spec: str = "") -> str:
        """Tokens as a take is told: ``blue, green and red``, ``2 white``; one of a colour
        by its word alone, as one token of it is written (Icelandic ``hvítt``)."""
        case, _rest = counted_spec(spec)
        return self.listed(self.vocabulary.each_counted(counts, case), "series")

    def move(self, body: Mapping[str, Any]) -> str:
        """A move, in the notation players write."""
        return format_move(move_from_json(body), self.vocabulary)

    # -- numbers and time ---------------------------------------------------------------------

    def count(self, text: object) -> str:
        """A number (or words with numbers in them) in the language's own digits (``[marks]
        digits``: Bengali's own; the reader reads both)."""
        return self.vocabulary.count(text)

    def number(self, value: int, spec: str = "") -> str:
        """A whole number; ``spec`` is Python's (``,`` thousands, ``>3`` a column), in the
        language's digits; thousands are grouped as the language groups them."""
        if self.language != "en" and spec == ",":
            return self.count(format_decimal(value, locale=self.language, numbering_system="latn"))
        return self.count(format(value, spec))

    def percent(self, value: float, spec: str = "") -> str:
        if self.language == "en":
            return format(value, spec or ".0%")
        said = format_percent(value, locale=self.language, numbering_system="latn")
        return self.count(said)

    def when(self, at: datetime | str, form: str = "") -> str:
        """A time for people, in the reader's zone: ``Tue 8 Dec 2026, 14:00 UTC``; in Welsh
        ``dydd Mawrth 8 Rhagfyr 2026, 14:00 UTC``, or after "tan" (``form`` soft) ``ddydd
        Mawrth …``. The pattern and forms are the language's data (``[dates]``)."""
        moment = datetime.fromisoformat(at) if isinstance(at, str) else at
        moment = moment.astimezone(self.zone)
        if self.language == "en":
            return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M} {moment.tzname() or 'UTC'}"
        words = self.vocabulary
        said = str(
            format_datetime(moment, words.date_pattern, tzinfo=self.zone, locale=self.language)
        )
        if words.small_months:  # CLDR capitalises them; the language does not
            month = str(format_datetime(moment, "MMMM", tzinfo=self.zone, locale=self.language))
            said = said.replace(month, month.lower())
        return self.count(words.dated(said, form or PLAIN_DATE))

    def duration(self, seconds: float | timedelta) -> str:
        """A length of time as people write it, in the largest whole unit up to days:
        ``7 days``, ``36 hours``, ``90 minutes``; in Welsh ``7 diwrnod``."""
        whole = int(seconds.total_seconds() if isinstance(seconds, timedelta) else seconds)
        _short, unit, size = next(u for u in _UNITS if whole % u[2] == 0 or u[2] == 60)
        return self.count(format_unit(whole // size, unit, "long", locale=self.language))

    def capital(self, text: str) -> str:
        """``text`` with its first letter a capital, as a sentence begins in English (other
        languages write a move told after a colon as it is: a name keeps its own case)."""
        if self.language != "en":
            return text
        return text[:1].upper() + text[1:]

    def sentence(self, text: str) -> str:
        """``text`` (a message said alone, as a refusal's reason is) as a sentence: its first
        letter a capital where the script has capitals, and the language's full stop
        (``[marks] full_stop``: Bengali ``।``) when it ends with no mark of its own."""
        text = text.strip()
        if not text:
            return text
        if text[0].islower():
            text = text[0].upper() + text[1:]
        stop = self.vocabulary.full_stop
        return text if text.endswith((".", "?", "!", "…", stop)) else text + stop

    # -- a parameter of a kind ------------------------------------------------------------------

    def word(self, kind: str, value: Any, spec: str = "") -> str:
        """One parameter of ``kind`` in words; ``spec`` is its field's format spec."""
        match kind:
            case "name" if spec:  # {player:genitive}: Bengali রহিমের
                return self.vocabulary.name_in(str(value), counted_spec(spec)[0])
            case "text" | "name" | "card" | "noble" | "english":
                return str(value)
            case "quoted":
                if self.language == "en":
                    return repr(str(value))
                opening, closing = self.vocabulary.quote
                return f"{opening}{value}{closing}"
            case "number":
                return self.number(int(value), spec)
            case "percent":
                return self.percent(float(value), spec)
            case "names" | "cards" | "nobles":
                return self.listed([str(v) for v in value], spec)
            case "colour":
                return self.colour_as(str(value), spec) if spec else self.colour(str(value))
            case "colours":
                return self.listed([self.colour(str(v)) for v in value], spec)
            case "tokens":
                return self.tokens(_counts(value), spec)
            case "taken":
                return self.taken(_counts(value), spec)
            case "word":  # a word of words.toml, else a value as it is written (15, 3d)
                return self._written(value)
            case "words":  # each as "word" is
                return self.listed([self._written(v) for v in value], spec)
            case "move":
                return self.move(value)
            case "moves":  # {examples:or,quoted}: each move in quotation marks
                style, _, quoted = spec.partition(",")
                moves = [self.move(v) for v in value]
                if quoted == "quoted":
                    moves = [self.word("quoted", move) for move in moves]
                return self.listed(moves, style)
            case "when":  # {until:soft}: a form of [dates.forms]
                return self.when(value, spec)
            case "duration":
                return self.duration(value)
            case "message":
                return self.say(_message(value))
            case "messages":
                said = [self.say(_message(v)) for v in value]
                return self.listed(said, spec) if spec else " ".join(said)
        raise ValueError(f"no kind {kind!r}")


def width(text: str) -> int:
    """How many columns ``text`` takes in a monospace font, as terminals and mail programs
    draw it (wcwidth: a Bengali conjunct and the marks on a letter take the columns of one
    cluster, an accent written apart none); a character with no width of its own (a control
    character) counts as one."""
    if text.isascii() and text.isprintable():
        return len(text)
    columns = int(wcswidth(text))
    if columns >= 0:
        return columns
    printable = "".join(ch for ch in text if ch.isprintable())
    return len(text) - len(printable) + width(printable)


def pad(text: str, columns: int) -> str:
    """``text`` and spaces after it, to fill ``columns`` columns (as ``str.ljust`` by width)."""
    return text + " " * max(0, columns - width(text))


def _zone(name: str | None) -> ZoneInfo:
    """The time zone ``name`` (an IANA name, ``Asia/Dhaka``); UTC for none or an unknown."""
    if not name:
        return ZoneInfo("UTC")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


@functools.cache
def words_for(language: str = "en", zone: str | None = None) -> Words:
    """The words of ``language`` for a reader in ``zone`` (kept: they hold no state)."""
    return Words(language, zone)


def _counts(value: Any) -> Sequence[int]:
    """A count per colour, given as a list (in colour order) or as {"red": 2}."""
    if isinstance(value, Mapping):
        return [int(value.get(colour, 0)) for colour in TOKEN_COLOURS]
    return [int(n) for n in value]


def _message(value: Any) -> Message:
    if isinstance(value, Message):
        return value
    if isinstance(value, Mapping):
        return Message.from_json(value)
    raise ValueError(f"{value!r} is not a message")


@functools.cache
def _pieces(text: str) -> tuple[tuple[str, str | None, str], ...]:
    """A catalogue text cut once into its pieces: literal text, or a field's name and spec."""
    pieces: list[tuple[str, str | None, str]] = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        if conversion:
            raise ValueError(f"{text!r}: a field is worded by its kind, not by !{conversion}")
        if literal:
            pieces.append((literal, None, ""))
        if name is not None:
            pieces.append(("", name, spec or ""))
    return tuple(pieces)


ENGLISH = Words()


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English of the message ``code`` with ``params`` (a coded error's ``str()``)."""
    return ENGLISH.say(Message(code, params))


def fields(text: str) -> set[str]:
    """The names of the fields of a catalogue text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}
