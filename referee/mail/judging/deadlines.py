"""When a move is due: the game's time per move from when the move came, paused while its
player is away (:meth:`referee.mail.judging.facts.GameFacts.due`); the service's side, which reads
the ledger to know that, is :func:`facts_of`."""

from __future__ import annotations

from datetime import datetime, timedelta

from referee.mail.judging.facts import GameFacts
from referee.mail.state.ledger import Ledger
from referee.record import GameRecord, Replayed


def time_per_move(record: GameRecord) -> timedelta:
    """The game's deadline per move (``deadline`` in game.toml; 7 days when not set)."""
    return record.time_per_move


def timeout_policy(record: GameRecord) -> str:
    """What happens at the deadline: ``wait`` (the default) or ``forfeit``."""
    return record.timeout


def move_came(game: Replayed) -> datetime:
    """When the move now to be made became due: the last turn's time, or the game's start."""
    return game.turns[-1].at if game.turns else game.record.created


def facts_of(game: Replayed, ledger: Ledger) -> GameFacts:
    """What the ledger knows of ``game``: its watchers, its last rollback, its players' times
    away, an undo asked for, the readings asked about, and how much mail each player gets."""
    game_id = game.record.id
    return GameFacts(
        game=game,
        watchers=tuple(ledger.watchers(game_id)),
        restarted=ledger.restarted(game_id),
        aways={
            p.email.lower(): tuple(ledger.aways(p.email))
            for p in game.record.players
            if p.bot is None
        },
        undo=ledger.undo_request(game_id),
        readings=ledger.readings(game_id),
        mail={
            p.email.lower(): ledger.mail_choice(p.email)
            for p in game.record.players
            if p.bot is None
        },
    )


def due_at(game: Replayed, ledger: Ledger) -> datetime | None:
    """When the player to move must have moved (None: the game is over)."""
    return facts_of(game, ledger).due()
