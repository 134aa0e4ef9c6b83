"""The mail service's herald: what a game master does on the command line (a game created, a
move played, a player resigned, an address changed), told to the players by mail.

:mod:`referee.games` decides and records; it knows no mail. It tells a :class:`Herald` (the
protocol it defines) what happened, and this one turns that into letters in the outbox: each
player's own view, the spectators' public board, and when the next move is due.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from referee.failpoints import failpoint
from referee.games import Played
from referee.mail.judging.deadlines import facts_of
from referee.mail.judging.telling import (
    address_letter,
    rollback_letters,
    turn_letters,
    welcome_letters,
)
from referee.mail.state.ledger import Ledger
from referee.mail.state.outbox import Commit
from referee.mail.state.spool import Spool
from referee.record import Replayed


class MailHerald:
    """Queues the letters that announce what happens to games in one games folder."""

    def __init__(self, spool: Spool, ledger: Ledger | None = None) -> None:
        self.spool = spool
        self.ledger = ledger if ledger is not None else Ledger(spool.root)

    @classmethod
    def of(cls, games_dir: Path) -> MailHerald:
        """The herald of the service that serves ``games_dir``."""
        return cls(Spool(games_dir))

    def game_created(self, game: Replayed) -> None:
        """The first board, to every player."""
        self.spool.outbox.queue(welcome_letters(game))

    def turn_played(self, game: Replayed, played: Played, sha256: str) -> None:
        """The new board, to every player and spectator, queued before the turn is written:
        it goes out once ``turns/NNNN.toml`` exists with this hash."""
        letters = turn_letters(game, played, facts_of(game, self.ledger))
        self.spool.outbox.queue(letters, Commit(game.record.id, played.turn.turn, sha256))
        failpoint("queued")

    def rolled_back(self, game: str, at: datetime) -> None:
        """``game`` was rolled back at ``at``: the move awaited now is due counting from
        then."""
        self.ledger.note_restarted(game, at)

    def told_rollback(self, game: Replayed, reason: str) -> None:
        """``game`` was rolled back by the game master (to the position it is now at): the
        players are told why, with the board."""
        self.spool.outbox.queue(rollback_letters(game, facts_of(game, self.ledger), reason))

    def address_changed(self, game: Replayed, seat: int, was: str) -> None:
        """The board, to a player at the new address a game master gave them."""
        self.spool.outbox.queue([address_letter(game, seat, was)])

