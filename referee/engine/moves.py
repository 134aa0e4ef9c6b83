"""The moves a player can make: take, reserve, buy or pass, each with its token returns and
the noble that visits at its end; and resigning, which leaves the game.

A move is complete: ``returned`` lists every token given back (empty unless the player would
hold more than 10) and ``noble`` names the noble that visits (``None`` when none qualifies).
Filling in what a player left out is the notation layer's job; the engine judges whole moves.

:class:`Resign` is the one move not made by the player to move: it names its ``seat``, and
any player still in the game may make it at any time. It has no returns and no noble (its
``returned`` and ``noble`` are always empty, so code that reads them of any move works).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from referee.engine.cards import NO_TOKENS, TOKEN_COLOURS, Tokens, token_dict


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


@dataclass(frozen=True, slots=True)
class Resign:
    """The player at ``seat`` leaves the game (docs/rules.md, "Leaving a game"): their turn or not.

    Never listed by :func:`~referee.engine.rules.legal_moves`, being always open to every
    player still in (it would double every list and end random playouts early);
    :func:`~referee.engine.rules.apply` accepts it."""

    seat: int

    @property
    def returned(self) -> Tokens:
        return NO_TOKENS

    @property
    def noble(self) -> str | None:
        return None


Move = Take | Reserve | Buy | Pass | Resign

#: The fields of :class:`Buy`, in order (see :func:`new_buy`).
BUY_FIELDS: Final = ("card", "pay", "returned", "noble")
_new = object.__new__
_set_card, _set_pay, _set_returned, _set_noble = (Buy.__dict__[f].__set__ for f in BUY_FIELDS)


def new_buy(card: str, pay: Tokens, returned: Tokens, noble: str | None) -> Buy:
    """``Buy(card, pay, returned, noble)``, made without the frozen dataclass's ``__init__``
    (see :func:`referee.engine.state.new_state`): listing the legal moves makes many."""
    buy: Buy = _new(Buy)
    _set_card(buy, card)
    _set_pay(buy, pay)
    _set_returned(buy, returned)
    _set_noble(buy, noble)
    return buy


def move_json(move: Move) -> dict[str, Any]:
    """The JSON object of a move, as docs/interface.md shows it. A resignation is just
    ``{"type": "resign"}``: who resigned is the turn's player, not part of the move."""
    body: dict[str, Any]
    match move:
        case Resign():
            return {"type": "resign"}
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


def move_from_json(body: Mapping[str, Any], seat: int = 0) -> Move:
    """The move of a JSON object written by :func:`move_json` (a resignation is ``seat``'s)."""
    kind = body["type"]
    returned = tokens_of(body.get("return") or {})
    noble = body.get("noble")
    if kind == "resign":
        return Resign(seat)
    if kind == "take":
        return Take(tokens_of(body["gems"]), returned, noble)
    if kind == "reserve":
        return Reserve(body.get("card"), body.get("deck"), returned, noble)
    if kind == "buy":
        return Buy(body["card"], tokens_of(body.get("pay") or {}), returned, noble)
    if kind == "pass":
        return Pass(returned, noble)
    raise ValueError(f"{kind!r} is not a move")


def tokens_of(counts: Mapping[str, int]) -> Tokens:
    """``{"red": 2}`` -> the count per token colour."""
    w, u, g, r, k, o = (int(counts.get(colour, 0)) for colour in TOKEN_COLOURS)
    return (w, u, g, r, k, o)
