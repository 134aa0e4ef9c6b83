"""The service's durable mail state, in ``<games>/.mail/``: nothing is kept only in memory.

::

    .mail/secret              the key behind every player's routing key (made once, 0600)
    .mail/service.lock        held by the one service serving this games folder
    .mail/outbox/ sent/ failed/ void/    letters (:mod:`referee.mail.state.outbox`)
    .mail/seen/ limits/ aside/ retry/    notes about mails (:mod:`referee.mail.state.notes`)
    .mail/threads/<game>.<seat>          players' threads (:mod:`referee.mail.state.threads`)
    .mail/overdue/ restarted/ watchers/ undo/   the ledger's notes about each game
                                         (:mod:`referee.mail.state.ledger`), named by the game
    <game>/trail/                        each game's mail trail (:mod:`referee.mail.state.trail`)
    .invitations/<game>/                 games proposed by mail (:mod:`referee.invitations`)

A :class:`Spool` is the four parts of one games folder's mail state together: the outbox
(the commit protocol of letters), the notes, the threads and the service lock (with the
service's keys), and what can no longer matter cleared away from all of them, and from the
ledger's notes about games and the invitations (:meth:`Spool.expire`): else a service that
runs for years keeps a file or a folder for every game ever proposed, and reads every
invitation ever made each minute. Nothing that keeps a move from being played twice is ever
cleared: that is the game's own turn files and archive.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from referee.invitations import Invitations
from referee.mail.state.mailfiles import Ages, files, mtime, remove
from referee.mail.state.notes import Notes
from referee.mail.state.outbox import Outbox
from referee.mail.state.service_lock import ServiceLock
from referee.mail.state.threads import Threads
from referee.mail.state.trail import Trail

#: The ledger's folders of notes about one game each, every file named by its game's id
#: (``overdue/<game>.<turn>``, ``restarted/<game>``, ``watchers/<game>.json``,
#: ``undo/<game>.json``): nothing reads them once the game is over.
GAME_NOTES = ("overdue", "restarted", "watchers", "undo")
#: What an invitation's folder is renamed to before it is removed (no game id starts so).
GONE = ".expired-"


class Spool:
    """The mail state beside the games in ``games_dir``. ``create``: make its folders when
    first used (False: only look, for a command that reads what the service holds)."""

    def __init__(self, games_dir: Path, create: bool = True) -> None:
        self.games_dir = games_dir
        self.root = games_dir / ".mail"
        self.notes = Notes(games_dir, create)
        self.outbox = Outbox(games_dir, self.notes, create)
        self.threads = Threads(games_dir, create)
        self.trail = Trail(games_dir)
        self.lock = ServiceLock(games_dir)

    def expire(self, now: datetime, finished: Callable[[str], datetime | None]) -> int:
        """Remove what can no longer matter; how many files. ``finished(game)`` is when the
        game ended (or went away), None while it runs."""
        ages = Ages(now, finished)
        removed = self.notes.expire(now, ages, self.outbox.awaited_notes())
        removed += self.outbox.expire(ages) + self.threads.expire(ages)
        return removed + self._expire_game_notes(ages) + self._expire_invitations(ages)

    def _expire_game_notes(self, ages: Ages) -> int:
        """Remove the ledger's notes about games that ended long enough ago (a stuck move
        told to the game master, the last rollback, the watchers, an undo asked for); how
        many."""
        removed = 0
        for folder in GAME_NOTES:
            for path in files(self.root / folder):
                if ages.over(path.name.split(".", 1)[0], mtime(path)):
                    removed += remove(path)
        return removed

    def _expire_invitations(self, ages: Ages) -> int:
        """Remove the invitations that are over (their game started, or they were called
        off) long enough ago: a started game's once the game ended that long ago. An answer
        coming after that is told there is no such game. Each folder is first renamed out of
        sight (no invitation has that name), then removed, so that a crash in between
        leaves no half invitation; how many."""
        invitations = Invitations(self.games_dir)
        removed = 0
        for invitation in invitations.all():  # (an unreadable one: the game master's)
            game = invitation.game
            if invitation.ended is None:
                continue  # still open
            if ages.over(game, invitation.ended.timestamp()):
                try:
                    os.rename(invitations.root / game, invitations.root / f"{GONE}{game}")
                except OSError:
                    continue  # not ours to move: left for the game master
                removed += 1
        for path in invitations.root.glob(f"{GONE}*") if invitations.root.is_dir() else []:
            shutil.rmtree(path, ignore_errors=True)
        return removed
