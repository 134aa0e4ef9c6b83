"""What a player, or the public, may see of a position.

A :class:`GameView` holds no deck order and no blind reserved card that its viewer may not
see, so anything built from views (the JSON of ``show``, boards in mails) cannot leak them.
Renderers take views, never states. A resigned player's reserved cards left the game face
down: no view shows them, not even their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.cards import GEM_COLOURS, TOKEN_COLOURS, Gems, Tokens, token_dict
from referee.engine.rules import outcome
from referee.engine.state import GameState, Rules, Status


@dataclass(frozen=True, slots=True)
class ReservedView:
    """A reserved card as the viewer sees it: ``card`` is None for another player's blind one."""

    card: str | None
    level: int
    blind: bool


@dataclass(frozen=True, slots=True)
class PlayerView:
    name: str
    tokens: Tokens
    bonuses: Gems
    cards: tuple[str, ...]
    nobles: tuple[str, ...]
    points: int
    reserved: tuple[ReservedView, ...]
    #: Out of the game: their cards and nobles count for nothing; they cannot win.
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class GameView:
    """A position as ``viewer`` may see it (``viewer`` None: the public view)."""

    viewer: str | None
    turn: int
    status: Status
    to_move: str | None
    winners: tuple[str, ...]
    rules: Rules
    bank: Tokens
    board: tuple[tuple[str | None, ...], ...]
    deck_sizes: tuple[int, ...]
    nobles: tuple[str, ...]
    players: tuple[PlayerView, ...]

    def to_json(self, game: str | None = None) -> dict[str, Any]:
        """The state JSON of docs/interface.md (``game`` first when given)."""
        body: dict[str, Any] = {} if game is None else {"game": game}
        body.update(
            turn=self.turn,
            status=self.status,
            to_move=self.to_move,
            winners=list(self.winners),
            rules={"points_to_win": self.rules.points_to_win, "gold": self.rules.gold},
            bank=dict(zip(TOKEN_COLOURS, self.bank, strict=True)),
            board={str(level): list(row) for level, row in enumerate(self.board, start=1)},
            decks={str(level): n for level, n in enumerate(self.deck_sizes, start=1)},
            nobles=list(self.nobles),
            players=[
                {
                    "name": p.name,
                    "tokens": token_dict(p.tokens),
                    "bonuses": {GEM_COLOURS[g]: n for g, n in enumerate(p.bonuses) if n},
                    "cards": list(p.cards),
                    "nobles": list(p.nobles),
                    "points": p.points,
                    "reserved": [
                        {"card": r.card, "level": r.level, "blind": r.blind} for r in p.reserved
                    ],
                    "resigned": p.resigned,
                }
                for p in self.players
            ],
        )
        return body


def view(state: GameState, player: str | None = None) -> GameView:
    """What ``player`` (a name), or the public when None, may see of ``state``."""
    seat = None if player is None else state.seat_of(player)
    finished = state.status == "finished"
    return GameView(
        viewer=None if seat is None else state.players[seat].name,
        turn=state.turn,
        status=state.status,
        to_move=None if finished else state.player.name,
        winners=tuple(outcome(state)),
        rules=state.rules,
        bank=state.bank,
        board=state.board,
        deck_sizes=tuple(len(deck) for deck in state.decks),
        nobles=state.nobles,
        players=tuple(
            PlayerView(
                name=p.name,
                tokens=p.tokens,
                bonuses=p.bonuses,
                cards=p.cards,
                nobles=p.nobles,
                points=p.points,
                reserved=tuple(
                    ReservedView(
                        card=r.card if (not r.blind or s == seat) else None,
                        level=r.level,
                        blind=r.blind,
                    )
                    for r in p.reserved
                ),
                resigned=s in state.resigned,
            )
            for s, p in enumerate(state.players)
        ),
    )
