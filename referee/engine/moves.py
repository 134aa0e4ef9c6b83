"""The moves a player can make: take, reserve, buy or pass, each with its token returns and
the noble that visits at its end.

A move is complete: ``returned`` lists every token given back (empty unless the player would
hold more than 10) and ``noble`` names the noble that visits (``None`` when none qualifies).
Filling in what a player left out is the notation layer's job; the engine judges whole moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.cards import NO_TOKENS, Tokens, token_dict


@dataclass(frozen=True, slots=True)
class Take:
    """Take gem tokens: 3 of different colours (fewer when the bank lacks colours), or 2 of one."""

    gems: Tokens
    returned: Tokens = NO_TOKENS
    noble: str | None = None


@dataclass(frozen=True, slots=True)
class Reserve:
    """Reserve a face-up ``card``, or the top card of the level-``deck`` deck (blind)."""

    card: str | None = None
    deck: int | None = None
    returned: Tokens = NO_TOKENS
    noble: str | None = None


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy ``card`` (face up, or reserved by the buyer), paying the tokens in ``pay``."""

    card: str
    pay: Tokens
    returned: Tokens = NO_TOKENS
    noble: str | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing: legal only when no other action is."""

    returned: Tokens = NO_TOKENS
    noble: str | None = None


Move = Take | Reserve | Buy | Pass


def move_json(move: Move) -> dict[str, Any]:
    """The JSON object of a move, as INTERFACE.md shows it."""
    body: dict[str, Any]
    match move:
        case Take(gems=gems):
            body = {"type": "take", "gems": token_dict(gems)}
        case Reserve(card=card, deck=deck):
            body = {"type": "reserve", "card": card} if card else {"type": "reserve", "deck": deck}
        case Buy(card=card, pay=pay):
            body = {"type": "buy", "card": card, "pay": token_dict(pay)}
        case Pass():
            body = {"type": "pass"}
    body["return"] = token_dict(move.returned)
    body["noble"] = move.noble
    return body
