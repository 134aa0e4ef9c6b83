"""What a finished game came to: when it ended, who won, and each seat's place (a
:class:`Finish`). The games folder notes it once a game is over (:mod:`referee.store`); the
standings count it (:mod:`referee.standings`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from referee.engine import outcome
from referee.record import Replayed

#: The prefix of a computer player's identity in the standings: ``bot:LEVEL``.
BOT = "bot:"


@dataclass(frozen=True)
class Place:
    """One player's result in one finished game: ``rank`` 1 is best (winners share it)."""

    player: str  # an address (lower-case), or bot:LEVEL
    name: str  # the name they played under
    rank: int
    points: int
    won: bool
    shared: bool
    resigned: bool


@dataclass(frozen=True)
class Finish:
    """A finished game, as the standings count it: when it ended, after how many turns,
    who won (names, in seat order) and every seat's place."""

    game: str
    ended: datetime
    places: tuple[Place, ...]
    turns: int = 0
    winners: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "ended": self.ended.isoformat(),
            "turns": self.turns,
            "winners": list(self.winners),
            "places": [asdict(p) for p in self.places],
        }

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Finish:
        """A Finish written by :meth:`to_json`; KeyError, TypeError or ValueError if not."""
        return cls(
            game=str(body["game"]),
            ended=datetime.fromisoformat(body["ended"]),
            places=tuple(Place(**p) for p in body["places"]),
            turns=int(body["turns"]),
            winners=tuple(str(w) for w in body["winners"]),
        )


def identity(email: str, bot: str | None) -> str:
    """Who a seat is in the standings: its address, or ``bot:LEVEL`` for a computer player."""
    return f"{BOT}{bot}" if bot else email.lower()


def finish_of(game: Replayed) -> Finish | None:
    """A game's result, or None while it is not finished."""
    state = game.state
    if state.status != "finished":
        return None
    winners = outcome(state)
    ended = game.turns[-1].at if game.turns else game.record.created

    def order(seat: int) -> tuple[int, int, int]:
        p = state.players[seat]
        if p.name in winners:
            return (0, 0, 0)
        return (2 if seat in state.resigned else 1, -p.points, len(p.cards))

    seats = sorted(range(len(state.players)), key=order)
    places: list[Place] = []
    rank, previous = 0, None
    for index, seat in enumerate(seats):
        if order(seat) != previous:
            rank, previous = index + 1, order(seat)
        entry, player = game.record.players[seat], state.players[seat]
        if any(p.player == identity(entry.email, entry.bot) for p in places):
            continue  # two bots of one level: counted once, at the better place
        places.append(
            Place(
                player=identity(entry.email, entry.bot),
                name=entry.name,
                rank=rank,
                points=player.points,
                won=player.name in winners,
                shared=player.name in winners and len(winners) > 1,
                resigned=seat in state.resigned,
            )
        )
    return Finish(game.record.id, ended, tuple(places), state.turn, tuple(winners))
