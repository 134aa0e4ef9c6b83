"""When a move is due: the game's time per move from when the move came, paused while its
player is away. Pure but for the ledger it is given to read."""

from __future__ import annotations

from datetime import datetime, timedelta

from referee.mail.ledger import Ledger, paused
from referee.record import GameRecord, Replayed
from referee.timing import when


def time_per_move(record: GameRecord) -> timedelta:
    """The game's deadline per move (``deadline`` in game.toml; 7 days when not set)."""
    return record.time_per_move


def timeout_policy(record: GameRecord) -> str:
    """What happens at the deadline: ``wait`` (the default) or ``forfeit``."""
    return record.timeout


def move_came(game: Replayed) -> datetime:
    """When the move now to be made became due: the last turn's time, or the game's start."""
    return game.turns[-1].at if game.turns else game.record.created


def due_at(game: Replayed, ledger: Ledger) -> datetime | None:
    """When the player to move must have moved (None: the game is over)."""
    state = game.state
    if state.status == "finished":
        return None
    email = game.record.players[state.to_move].email
    since = move_came(game)
    restarted = ledger.restarted(game.record.id)
    if restarted is not None and restarted > since:
        since = restarted  # rolled back since: the move came again then
    return paused(since, time_per_move(game.record), ledger.aways(email))


def due_words(game: Replayed, ledger: Ledger) -> str:
    """``Tue 8 Dec 2026, 14:00 UTC``, or "" when the game is over."""
    due = due_at(game, ledger)
    return when(due) if due is not None else ""
