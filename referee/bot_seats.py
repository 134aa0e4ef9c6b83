"""Seats played by computer players (:mod:`referee.bots`), and bots standing in for absent
players: choosing their moves from their own view, and recording them like any turn.

A bot's move depends only on its view, its level, the game's bot seed and the turn number,
and is recorded with source ``bot`` (its level and seed), so a replay needs no bot. This
module decides and records; like :mod:`referee.games` it knows no mail, and tells a herald.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from referee.bots import LEVELS, choose
from referee.engine import view
from referee.errors import RequestError
from referee.games import Herald, Played, commit_turn, judge_move
from referee.notation import format_move
from referee.record import BOT_DOMAIN, GameRecord, Replayed, SourceEntry, bot_address, now
from referee.store import Store
from referee.wording.messages import Message
from referee.wording.words import ENGLISH

__all__ = ["bot_address", "bot_move", "bot_to_move", "check_level", "play_bots", "turn_seed"]

#: The level that stands in for an absent player under the ``bot`` timeout policy.
STAND_IN_LEVEL = "greedy"
#: The most bot turns played in one go (a game of bots only ends well before).
MOST_BOT_TURNS = 2000


def is_bot_address(address: str) -> bool:
    return address.lower().endswith("@" + BOT_DOMAIN)


def check_level(level: str) -> str:
    """``level`` if it is a bot level; RequestError saying which are."""
    if level not in LEVELS:
        raise RequestError.of("bot.no_level", level=level, levels=list(LEVELS))
    return level


def turn_seed(record: GameRecord, turn: int) -> int:
    """The seed of a bot's choice at ``turn``: from the game's bot seed (else its seed)."""
    base = record.bot_seed if record.bot_seed is not None else (record.seed or 0)
    digest = hashlib.sha256(f"{base}:{turn}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


@dataclass(frozen=True)
class BotMove:
    """What a bot would play: the move in notation, why (a message), and the source to
    record."""

    text: str
    why: Message
    source: SourceEntry

    @property
    def reason(self) -> str:
        """Why, in English: a line."""
        return ENGLISH.say(self.why)


def bot_move(game: Replayed, name: str, level: str, stand_in: bool = False) -> BotMove:
    """The move the ``level`` bot plays for ``name`` (the player to move) now, from their
    view alone."""
    state = game.state
    seed = turn_seed(game.record, state.turn)
    choice = choose(level, view(state, name), random.Random(seed))
    source = SourceEntry(kind="bot", level=level, seed=seed, stand_in=stand_in or None)
    return BotMove(format_move(choice.move), choice.why, source)


def bot_to_move(game: Replayed) -> str | None:
    """The level of the bot whose turn it is, or None (a person's turn, or the game over)."""
    state = game.state
    if state.status == "finished":
        return None
    return game.record.players[state.to_move].bot


def play_bots(
    store: Store,
    game_id: str,
    herald: Herald | None = None,
    at: datetime | None = None,
    most: int = MOST_BOT_TURNS,
) -> list[Played]:
    """Play the bots' turns of ``game_id`` until a person is to move or the game ends (at
    most ``most``): each recorded with source ``bot``, announced by the ``herald``."""
    played: list[Played] = []
    with store.locked(game_id):
        game = store.load(game_id)
        while len(played) < most and (level := bot_to_move(game)) is not None:
            name = game.state.player.name
            chosen = bot_move(game, name, level)
            turn = judge_move(game, name, chosen.text, chosen.source, at or now())
            commit_turn(store, game_id, turn, _announcing(herald, game, turn))
            played.append(turn)
            game = store.load(game_id)
    return played


def _announcing(
    herald: Herald | None, game: Replayed, turn: Played
) -> Callable[[str], None] | None:
    """How the herald is told of a bot's turn before it is written (see commit_turn)."""
    if herald is None:
        return None

    def announce(sha256: str) -> None:
        herald.turn_played(game, turn, sha256)

    return announce
