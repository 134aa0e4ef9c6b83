"""Colours, development cards and nobles: the game's fixed components.

Token counts are kept as 6-tuples indexed by colour (``WHITE`` … ``GOLD``); card costs and
noble requirements as 5-tuples over the gem colours. The tables come from the package data
``referee/data/cards.csv`` and ``nobles.csv`` (copied from the project's shared card data, ids
kept), read once at import.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib.resources import files
from types import MappingProxyType
from typing import Final

WHITE: Final = 0
BLUE: Final = 1
GREEN: Final = 2
RED: Final = 3
BLACK: Final = 4
GOLD: Final = 5

#: The five gem colours, in the order used everywhere (data, JSON, notation, display).
GEM_COLOURS: Final = ("white", "blue", "green", "red", "black")
#: The six token kinds: the gem colours, then gold.
TOKEN_COLOURS: Final = (*GEM_COLOURS, "gold")
#: Display names of the gems (and gold), also accepted in notation.
STONE_NAMES: Final = ("diamond", "sapphire", "emerald", "ruby", "onyx", "gold")

GEMS: Final = range(5)
KINDS: Final = range(6)

#: A count per token kind (white, blue, green, red, black, gold).
Tokens = tuple[int, int, int, int, int, int]
#: A count per gem colour (white, blue, green, red, black): costs, bonuses, requirements.
Gems = tuple[int, int, int, int, int]

NO_TOKENS: Final[Tokens] = (0, 0, 0, 0, 0, 0)
NO_GEMS: Final[Gems] = (0, 0, 0, 0, 0)

LEVELS: Final = (1, 2, 3)
CARDS_PER_LEVEL: Final = {1: 40, 2: 30, 3: 20}
NOBLE_POINTS: Final = 3


@dataclass(frozen=True, slots=True)
class Card:
    """A development card: its level, the bonus colour it gives, its prestige and its cost."""

    id: str
    level: int
    bonus: int
    points: int
    cost: Gems

    @property
    def bonus_colour(self) -> str:
        return GEM_COLOURS[self.bonus]


@dataclass(frozen=True, slots=True)
class Noble:
    """A noble tile: its prestige and the bonuses (cards) of each colour it requires."""

    id: str
    points: int
    requires: Gems


def tokens(**counts: int) -> Tokens:
    """Build a token count from colour names: ``tokens(red=2, gold=1)``."""
    unknown = set(counts) - set(TOKEN_COLOURS)
    if unknown:
        raise ValueError(f"unknown token colours {sorted(unknown)}; use {', '.join(TOKEN_COLOURS)}")
    w, u, g, r, k, o = (counts.get(colour, 0) for colour in TOKEN_COLOURS)
    return (w, u, g, r, k, o)


def token_dict(counts: tuple[int, ...]) -> dict[str, int]:
    """Colour name -> count, leaving out zeros (the JSON form of a token count)."""
    return {TOKEN_COLOURS[kind]: n for kind, n in enumerate(counts) if n}


def _read(name: str) -> list[dict[str, str]]:
    text = files("referee").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def _gems(row: dict[str, str]) -> Gems:
    w, u, g, r, k = (int(row[colour]) for colour in GEM_COLOURS)
    return (w, u, g, r, k)


def _load_cards() -> dict[str, Card]:
    cards = {}
    for row in _read("cards.csv"):
        card = Card(
            id=row["id"],
            level=int(row["level"]),
            bonus=GEM_COLOURS.index(row["bonus"]),
            points=int(row["points"]),
            cost=_gems(row),
        )
        cards[card.id] = card
    return cards


def _load_nobles() -> dict[str, Noble]:
    return {
        row["id"]: Noble(id=row["id"], points=int(row["points"]), requires=_gems(row))
        for row in _read("nobles.csv")
    }


#: Every development card by id (``1-01`` … ``3-20``), in id order.
CARDS: Final = MappingProxyType(_load_cards())
#: Every noble by id (``N1`` … ``N10``), in id order.
NOBLES: Final = MappingProxyType(_load_nobles())
#: The card ids of each level, in id order.
LEVEL_CARDS: Final = MappingProxyType(
    {level: tuple(c.id for c in CARDS.values() if c.level == level) for level in LEVELS}
)
