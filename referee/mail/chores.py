"""The service's chores between looks at the mailbox, each on the judging thread (never beside
a mail being judged): clearing away what can no longer matter, and the mail handled long ago
(once a day), what time has made due (reminders, deadlines, invitations: at most once a
minute), and the bots' turns.

A chore that fails is tried again at the next look; a fault met at every look (a disk that
takes no writes, a file's permissions) is said once in the log, and again only when it
changes (see :meth:`Chores.warn`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from datetime import UTC, datetime, timedelta

from referee.errors import RecordError, StoreError
from referee.mail.clerk import Clerk
from referee.mail.runner import Runner
from referee.mail.transports.base import Inbox
from referee.store import no_room_on_disk

log = logging.getLogger("referee.service")

#: How often what can no longer matter is cleared away (see Spool.expire).
SWEEP_EVERY = timedelta(hours=24)
#: How often reminders, deadlines and invitations are looked at.
DUTIES_EVERY = timedelta(minutes=1)


class Chores:
    """The chores of one games folder (the clerk's ``woken`` is called when letters may be
    waiting)."""

    def __init__(
        self,
        clerk: Clerk,
        game_master: str | None,
        inbox: Inbox,
        keep_filed: timedelta | None,
    ) -> None:
        """``keep_filed``: how long the inbox keeps the mail it filed (None: for ever)."""
        self.clerk = clerk
        self.inbox = inbox
        self.keep_filed = keep_filed
        self.store = clerk.store
        self.spool = clerk.spool
        self.clock = clerk.clock
        self.woken = clerk.woken
        self.runner = Runner(clerk, game_master, self.warn)
        self.judging: Executor | None = None  # the service's judging thread, while it runs
        self._swept: datetime | None = None
        self._dutied: datetime | None = None
        self._warned: dict[str, str] = {}  # what was last said of each fault met at every look

    async def sweep_if_due(self) -> None:
        """Clear away notes and letters that can no longer matter, once a day."""
        now = self.clock()
        if self._swept is not None and now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        loop = asyncio.get_running_loop()
        try:
            removed = await loop.run_in_executor(self.judging, self.spool.expire, now, self.ended)
        except Exception:  # clearing away is never worth stopping the service for
            log.exception("clearing away old notes failed; trying again tomorrow")
            return
        if removed:
            log.info("cleared %d note(s) and letter(s) that can no longer matter", removed)
        if self.keep_filed is not None:
            await self._clear_filed(now - self.keep_filed)

    async def _clear_filed(self, before: datetime) -> None:
        """Remove the mail filed before ``before``, but what is set aside for the game
        master."""
        loop = asyncio.get_running_loop()
        try:
            keep = await loop.run_in_executor(
                self.judging, self.spool.notes.set_aside_before, before
            )
            removed = await self.inbox.clear_filed(before, keep)
        except Exception:  # as for the notes: tried again tomorrow
            log.exception("clearing away mail handled long ago failed; trying again tomorrow")
            return
        if removed:
            log.info("cleared %d mail(s) handled before %s", removed, before.isoformat())

    async def duties_if_due(self) -> None:
        """Carry out what time has made due (at most every DUTIES_EVERY)."""
        now = self.clock()
        if self._dutied is not None and now - self._dutied < DUTIES_EVERY:
            return
        self._dutied = now
        failed = "carrying out reminders and deadlines failed; trying again"
        await self._on_judging_thread(self.runner.do_duties, now, failed)

    async def bots_if_waiting(self) -> None:
        """Play every bot whose turn it is."""
        failed = "playing the bots' turns failed; trying again"
        await self._on_judging_thread(self.runner.play_bots, self.clock(), failed)

    async def _on_judging_thread(
        self, work: Callable[[datetime], int], now: datetime, failed: str
    ) -> None:
        """Run ``work(now)`` on the judging thread and wake the postman if it did anything. A
        failure is logged with ``failed`` and tried again at the next look."""
        loop = asyncio.get_running_loop()
        try:
            done = await loop.run_in_executor(self.judging, work, now)
        except OSError as err:  # the disk, or a file's permissions: one line, once
            if no_room_on_disk(err):  # the same fault, whichever new file it met it at
                self.warn(failed, f"{failed}: the games folder takes no writes ({err.strerror})")
            else:
                self.warn(failed, f"{failed}: {type(err).__name__}: {err}")
            return
        except Exception:
            log.exception(failed)
            return
        self.warn(failed, None)
        if done:
            self.woken()

    def warn(self, about: str, said: str | None) -> None:
        """Log ``said`` unless it is what was last said ``about`` the same thing: a fault met
        at every look is told once, and again only when it changes (None: it is mended)."""
        if said is None:
            self._warned.pop(about, None)
        elif self._warned.get(about) != said:
            self._warned[about] = said
            log.warning("%s", said)

    def ended(self, game: str) -> datetime | None:
        """When ``game`` ended (or that it is gone: the epoch); None while it runs."""
        if not self.store.has(game):
            return datetime.fromtimestamp(0, UTC)
        try:
            finish = self.store.finish(game)
        except (RecordError, StoreError, OSError):
            return None  # kept: a game master may mend it
        return None if finish is None else finish.ended
