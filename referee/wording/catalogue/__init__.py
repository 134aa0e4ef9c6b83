"""The catalogue of messages: every code a reader may be told, its English, the kinds of its
parameters, and when it is said. One module per area registers its entries (the engine's
refusals, notation's, the letters', the commands', the notices'); docs/messages.md is
written from here (``python -m referee.wording.catalogue > docs/messages.md``), and a test
keeps the two equal.

An entry's English is a ``str.format`` text whose fields are its parameters, each worded by
its kind (:data:`KINDS`): ``"you cannot afford {card}: it costs {cost}"``. A field's format
spec says how an empty list or count reads (``{bonus:none}``); an entry with a ``plural``
chooses between its two English forms by the number (or list) named by ``count``. This
English is the source text a translation starts from: the code is its context.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

#: Each kind of parameter, and what its value is (docs/messages.md lists them).
KINDS: dict[str, str] = {
    "text": "text shown as it is (an address, a game id, what someone wrote)",
    "quoted": "text shown in quotes, as it was written",
    "number": "a whole number (spec: Python's, like , or >3)",
    "percent": "a share from 0 to 1, shown as a percentage",
    "name": "a player's name",
    "names": "a list of names (spec: and, or, comma)",
    "card": "a card id, like 1-12",
    "cards": "a list of card ids (spec: and, or, comma)",
    "noble": "a noble id, like N4",
    "nobles": "a list of noble ids (spec: and, or, comma)",
    "colour": "a colour: white, blue, green, red, black or gold",
    "colours": "a list of colours (spec: and, or, comma)",
    "tokens": "a count per colour, like 2 red, 1 gold (spec: what none reads as)",
    "taken": "a count per colour as a take is told: blue, green and red",
    "move": "a move, as its JSON object (docs/interface.md)",
    "moves": "a list of moves (spec: and, or, comma, semicolon; then ,quoted: each in quotes)",
    "when": "a time, ISO 8601",
    "duration": "a length of time, in seconds",
    "word": "a word players write, in the reader's language: a move word (take), a colour, "
    "commands.WORD or options.WORD (words.toml); any other value as it is written",
    "words": "a list of such words (spec: and, or, comma)",
    "message": "another message, said within this one",
    "english": "text only in English (a library's own): a translation keeps it, saying so",
    "messages": "a list of messages, said one after the other",
}


@dataclass(frozen=True)
class Entry:
    """One message: its English (and English plural), its parameters' kinds, when it is
    said."""

    code: str
    text: str
    params: Mapping[str, str] = field(default_factory=dict)
    when: str = ""
    plural: str | None = None
    count: str | None = None
    #: where the entry is written: its module and line (for ``pybabel extract``)
    origin: tuple[str, int] = ("", 0)


CATALOGUE: dict[str, Entry] = {}


def entry(
    code: str,
    text: str,
    params: Mapping[str, str] | None = None,
    *,
    when: str,
    plural: str | None = None,
    count: str | None = None,
) -> None:
    """Register the message ``code``: its English ``text`` with ``params`` (name -> kind)."""
    given = dict(params or {})
    unknown = {k for k in given.values() if k not in KINDS}
    if unknown:
        raise ValueError(f"message {code}: unknown kinds {sorted(unknown)}")
    if code in CATALOGUE:
        raise ValueError(f"message {code} is in the catalogue twice")
    if (plural is None) != (count is None):
        raise ValueError(f"message {code}: a plural needs the count that chooses it")
    caller = sys._getframe(1)
    origin = (str(caller.f_globals.get("__name__", "")), caller.f_lineno)
    CATALOGUE[code] = Entry(code, text, given, when, plural, count, origin)


def lookup(code: str) -> Entry:
    """The entry of ``code``; KeyError naming it when the catalogue has none."""
    _load()
    try:
        return CATALOGUE[code]
    except KeyError:
        raise KeyError(f"no message {code!r} in the catalogue") from None


def entries() -> list[Entry]:
    """Every entry, by code."""
    _load()
    return sorted(CATALOGUE.values(), key=lambda e: e.code)


_loaded: list[bool] = []


def _load() -> None:
    """Import every area module of this package (each registers its entries)."""
    if _loaded:
        return
    _loaded.append(True)
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")
