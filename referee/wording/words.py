"""Words for messages: each kind of parameter worded, lists joined, plurals chosen, times and
lengths of time written; and a message worded whole (:meth:`Words.say`).

This is the one place where a number, a list, a plural or a date becomes text, so that a
language is a catalogue and these few functions, not sentences spread through the code.
English is the language today; its forms are the ones the referee has always written.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from referee.engine.cards import TOKEN_COLOURS
from referee.engine.moves import move_from_json
from referee.wording.catalogue import Entry, lookup
from referee.wording.messages import Message


class Words:
    """How one language words what the catalogue says (English)."""

    language = "en"

    # -- a message --------------------------------------------------------------------------

    def say(self, message: Message) -> str:
        """``message`` in words."""
        found = lookup(message.code)
        text = self.text_of(found, message.params)
        try:
            return "".join(
                piece if name is None else self.word(found.params[name], message.params[name], spec)
                for piece, name, spec in _pieces(text)
            )
        except (KeyError, IndexError, ValueError, TypeError) as err:
            raise ValueError(f"message {message.code} cannot be worded: {err!r}") from None

    def text_of(self, found: Entry, params: Mapping[str, Any]) -> str:
        """The form of ``found`` to use: its plural when its count says so."""
        if found.plural is None or found.count is None:
            return found.text
        count = params[found.count]
        number = len(count) if isinstance(count, list | tuple) else int(count)
        return self.plural(number, found.text, found.plural)

    def plural(self, number: int, one: str, other: str) -> str:
        """English has two forms: one, and every other number."""
        return one if number == 1 else other

    # -- lists ------------------------------------------------------------------------------

    def listed(self, items: Sequence[str], style: str = "") -> str:
        """Items joined: ``and`` (a and b and c), ``or``, ``series`` (a, b and c),
        ``semicolon``, or (the default) commas."""
        joins = {"and": " and ", "or": " or ", "semicolon": "; "}
        if style == "series":
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
        return joins.get(style, ", ").join(items)

    # -- the game's things -------------------------------------------------------------------

    def colour(self, name: str) -> str:
        return name

    def tokens(self, counts: Sequence[int], zero: str = "") -> str:
        """``(0, 0, 0, 2, 0, 1)`` -> ``2 red, 1 gold``; ``zero`` (default "nothing") when
        there are none."""
        parts = [f"{n} {self.colour(TOKEN_COLOURS[k])}" for k, n in enumerate(counts) if n]
        return ", ".join(parts) if parts else (zero or "nothing")

    def taken(self, counts: Sequence[int]) -> str:
        """Tokens as a take is told: ``blue, green and red``, ``2 white``."""
        names = [
            f"{n} {self.colour(TOKEN_COLOURS[k])}" if n > 1 else self.colour(TOKEN_COLOURS[k])
            for k, n in enumerate(counts)
            if n
        ]
        return self.listed(names, "series")

    def move(self, body: Mapping[str, Any]) -> str:
        """A move, in the notation players write."""
        from referee.notation import format_move  # the notation sits above the words

        return format_move(move_from_json(body))

    # -- numbers and time ---------------------------------------------------------------------

    def number(self, value: int, spec: str = "") -> str:
        """A whole number; ``spec`` is Python's (``,`` thousands, ``>3`` a column)."""
        return format(value, spec)

    def when(self, at: datetime | str) -> str:
        """A time for people: ``Tue 8 Dec 2026, 14:00 UTC``."""
        moment = datetime.fromisoformat(at) if isinstance(at, str) else at
        moment = moment.astimezone(UTC)
        return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M} UTC"

    def duration(self, seconds: float | timedelta) -> str:
        """The shortest exact way to write a length of time: ``7d``, ``36h``, ``90m``."""
        whole = int(seconds.total_seconds() if isinstance(seconds, timedelta) else seconds)
        for unit, size in (("w", 7 * 86400), ("d", 86400), ("h", 3600)):
            if whole % size == 0:
                return f"{whole // size}{unit}"
        return f"{whole // 60}m"

    def capital(self, text: str) -> str:
        """``text`` with its first letter a capital, as a sentence begins."""
        return text[:1].upper() + text[1:]

    # -- a parameter of a kind ------------------------------------------------------------------

    def word(self, kind: str, value: Any, spec: str = "") -> str:
        """One parameter of ``kind`` in words; ``spec`` is its field's format spec."""
        match kind:
            case "text" | "name" | "card" | "noble":
                return str(value)
            case "quoted":
                return repr(str(value))
            case "number":
                return self.number(int(value), spec)
            case "percent":
                return format(float(value), spec or ".0%")
            case "names" | "cards" | "nobles":
                return self.listed([str(v) for v in value], spec)
            case "colour":
                return self.colour(str(value))
            case "colours":
                return self.listed([self.colour(str(v)) for v in value], spec)
            case "tokens":
                return self.tokens(_counts(value), spec)
            case "taken":
                return self.taken(_counts(value))
            case "move":
                return self.move(value)
            case "moves":
                return self.listed([self.move(v) for v in value], spec)
            case "when":
                return self.when(value)
            case "duration":
                return self.duration(value)
            case "message":
                return self.say(_message(value))
            case "messages":
                said = [self.say(_message(v)) for v in value]
                return self.listed(said, spec) if spec else " ".join(said)
        raise ValueError(f"no kind {kind!r}")


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
