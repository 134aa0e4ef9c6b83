"""The service's durable mail state, in ``<games>/.mail/``: nothing is kept only in memory.

::

    .mail/secret              the key behind every player's routing key (made once, 0600)
    .mail/service.lock        held by the one service serving this games folder
    .mail/outbox/ sent/ failed/ void/    letters (:mod:`referee.mail.outbox`)
    .mail/seen/ limits/ aside/ retry/    notes about mails (:mod:`referee.mail.notes`)
    .mail/threads/<game>.<seat>          players' threads (:mod:`referee.mail.threads`)
    <game>/trail/                        each game's mail trail (:mod:`referee.mail.trail`)

A :class:`Spool` is the four parts of one games folder's mail state together: the outbox
(the commit protocol of letters), the notes, the threads and the service lock (with the
service's keys), and what can no longer matter cleared away from all of them
(:meth:`Spool.expire`). Nothing that keeps a move from being played twice is ever cleared:
that is the game's own turn files and archive.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from referee.mail.mailfiles import Ages
from referee.mail.notes import Notes
from referee.mail.outbox import Outbox
from referee.mail.service_lock import ServiceLock
from referee.mail.threads import Threads
from referee.mail.trail import Trail


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
        return removed + self.outbox.expire(ages) + self.threads.expire(ages)
