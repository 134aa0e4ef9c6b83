"""The moves a player may make, grouped as a player thinks of them: "any three of white,
blue, green, red, black", "two of white, blue or green", each card they can afford with what
it would cost, reserving any face-up card or a deck, passing. Each group shows one move
written out in full that can be sent back as it is; ``moves`` still lists every legal move.

Pure: legal moves (as their JSON objects) in, groups of messages and example moves out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.engine import TOKEN_COLOURS
from referee.wording.messages import Message, say

Move = Mapping[str, Any]


@dataclass(frozen=True)
class Choice:
    """One kind of move: what it is (``title``), one move of it written in full
    (``example``), and, for buying, every card with the move that buys it (``moves``)."""

    title: Message
    example: Move
    moves: tuple[Move, ...] = ()
    note: Message | None = None


def choices(options: Sequence[Move]) -> list[Choice]:
    """The groups of ``options`` (every legal move of the player to move, as JSON)."""
    takes = [m for m in options if m.get("type") == "take"]
    different = [m for m in takes if all(n == 1 for n in m["gems"].values())]
    doubles = [m for m in takes if any(n == 2 for n in m["gems"].values())]
    buys = [m for m in options if m.get("type") == "buy"]
    reserves = [m for m in options if m.get("type") == "reserve"]
    passes = [m for m in options if m.get("type") == "pass"]
    found: list[Choice] = []
    if buys:
        first: dict[str, Move] = {}
        for move in buys:
            first.setdefault(str(move["card"]), move)
        found.append(Choice(say("choices.buy", count=len(first)), buys[0], tuple(first.values())))
    if different:
        most = max(len(m["gems"]) for m in different)
        colours = _colours(different)
        example = _simplest([m for m in different if len(m["gems"]) == most])
        title = say("choices.take_different", count=most, colours=colours)
        found.append(Choice(title, example, note=_give_back(different)))
    if doubles:
        colours = _colours(doubles)
        title = say("choices.take_two", colours=colours)
        found.append(Choice(title, _simplest(doubles), note=_give_back(doubles)))
    if reserves:
        cards = sorted({str(m["card"]) for m in reserves if m.get("card")})
        levels = sorted({int(m["deck"]) for m in reserves if m.get("deck")})
        face_up = [m for m in reserves if m.get("card")]
        example = _simplest(face_up or reserves)
        decks = [str(level) for level in levels]
        if cards and decks:
            title = say("choices.reserve", levels=decks)
        elif cards:
            title = say("choices.reserve.face_up")
        else:
            title = say("choices.reserve.deck", levels=decks)
        found.append(Choice(title, example, note=_give_back(reserves)))
    if passes:
        found.append(Choice(say("choices.pass"), passes[0]))
    return found


def _colours(moves: Sequence[Move]) -> list[str]:
    """The colours the moves take, in the bank's order."""
    taken = {c for m in moves for c in m["gems"]}
    return [c for c in TOKEN_COLOURS if c in taken]


def _simplest(moves: Sequence[Move]) -> Move:
    """The move to show as an example: the first that gives nothing back, else the first."""
    return next((m for m in moves if not m.get("return")), moves[0])


def _give_back(moves: Sequence[Move]) -> Message | None:
    """When every such move must give tokens back (more than 10 held): how many, at least."""
    if not moves or not all(m.get("return") for m in moves):
        return None
    return say("choices.give_back", count=min(sum(m["return"].values()) for m in moves))
