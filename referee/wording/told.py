"""A move as the others are told it, as a message: ``alice took blue, green and red``.

Which message to say, not its words: a move made by the reader is told as theirs ("you
took …"), and a blind reservation names its card only to the player who made it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from referee.engine import CARDS, Buy, Move, Pass, Reserve, Resign, Take
from referee.wording.messages import Message, say


class Source(Protocol):
    """Where a turn came from, as its record keeps it (``referee.record.SourceEntry``)."""

    @property
    def kind(self) -> str: ...

    @property
    def as_of(self) -> datetime | None: ...

    @property
    def reason(self) -> str | None: ...


class Turn(Protocol):
    """A turn as its record keeps it (``referee.record.TurnRecord``): what the wording of a
    ruling reads of it."""

    @property
    def player(self) -> str: ...

    @property
    def source(self) -> Source: ...


def told(move: Move, player: str, viewer: str | None = None) -> Message:
    """``move``, made by ``player``, as ``viewer`` (a player's name, or None: anyone else)
    is told it."""
    you = ".you" if player == viewer else ""
    who = {} if you else {"player": player}
    said: Message
    match move:
        case Take(gems=gems):
            said = say(f"told.take{you}", gems=list(gems), **who)
        case Reserve(card=card, deck=deck):
            if card:
                said = say(f"told.reserve{you}", card=card, **who)
            else:
                said = say(f"told.reserve_blind{you}", level=deck, **who)
        case Buy(card=card, pay=pay):
            colour = CARDS[card].bonus_colour
            said = say(f"told.buy{you}", card=card, colour=colour, paid=list(pay), **who)
        case Pass():
            said = say(f"told.pass{you}", **who)
        case Resign():
            said = say(f"told.resign{you}", **who)
    if any(move.returned):
        said = say("told.returning", move=said, tokens=list(move.returned))
    if move.noble:
        said = say(f"told.noble{you}", move=said, noble=move.noble, **who)
    return said


def ruled(turn: Turn, viewer: str | None = None) -> Message | None:
    """What is said of a game master's ruling that played ``turn`` (None: it was no ruling),
    to ``viewer`` (the player whose move it was reads "your move"): in the letters that
    announce it and on the replay page."""
    source = turn.source
    if source.kind != "ruling" or source.as_of is None:
        return None
    sent, reason = source.as_of.isoformat(), source.reason or ""
    if viewer == turn.player:
        return say("letter.ruling.you", sent=sent, reason=reason)
    return say("letter.ruling", player=turn.player, sent=sent, reason=reason)
