"""The referee service: the units that play games by mail, and the loop that runs them.

- the intake (:mod:`referee.mail.intake`): mail in, each judged once and filed;
- the clerk (:mod:`referee.mail.clerk`): a ruling carried out: its turn and letters
  committed together, the effects a command asked for, the mail noted as handled;
- the postman (:mod:`referee.mail.postman`): letters out, worded when sent, tried again
  with growing delays, or waiting for an SMTP server that cannot be reached;
- the runner (:mod:`referee.mail.runner`): reminders, deadlines and bots.

A :class:`Service` owns them, their lifetime and their loops: receiving and sending run side
by side, judging on one thread of its own. Killed at any instant and started again, the
service plays no move twice, loses none, and sends every letter (a letter may go out twice if
it dies between sending it and noting that it did). A mail server that goes away is told of
once in the log and in the status (see :class:`~referee.mail.state.status.Reach`) and tried again
with growing delays, at most a minute apart, while the rest goes on: mail waits in the
mailbox and letters in the outbox until it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from referee.addresses import Addresses
from referee.errors import ConfigurationError
from referee.invitations import Invitations
from referee.mail.chores import DUTIES_EVERY, SWEEP_EVERY, Chores
from referee.mail.clerk import Clerk
from referee.mail.desk import Desk
from referee.mail.intake import Intake
from referee.mail.judging.facts import Snapshot
from referee.mail.postman import Postman, Sender
from referee.mail.readers import Readers
from referee.mail.samples import checked_writer
from referee.mail.startup import check_folder_owner, check_strangers, make_transport, usable
from referee.mail.state.ledger import Ledger
from referee.mail.state.spool import Spool
from referee.mail.state.status import Reach, StatusBoard
from referee.mail.transports.base import Transport, TransportError
from referee.settings import Settings
from referee.store import Store
from referee.wording.letter import Letter, Written
from referee.wording.writer import Writer

__all__ = ["DUTIES_EVERY", "SWEEP_EVERY", "Clock", "Service", "make_transport", "system_clock"]

log = logging.getLogger("referee.service")

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The time now, in UTC: the service's clock unless one is given (``serve --now``)."""
    return datetime.now(UTC)


class Service:
    """One referee service over one transport and one games folder."""

    def __init__(
        self, settings: Settings, transport: Transport, clock: Clock = system_clock
    ) -> None:
        self.settings = settings
        self.transport = transport
        self.clock = clock
        # a game master's templates must word every kind of letter before it starts
        writer = checked_writer(settings.templates_dir) if settings.templates_dir else Writer()
        self.store = Store(settings.games_dir, remember=True)
        self.spool = Spool(settings.games_dir)
        with usable(settings.games_dir):
            settings.games_dir.mkdir(parents=True, exist_ok=True)
            check_folder_owner(settings.games_dir)
            secret, loop_id = self.spool.lock.secret(), self.spool.lock.loop_id()
        self.status = StatusBoard(self.spool.root / "status.json")
        invitations, ledger = Invitations(settings.games_dir), Ledger(self.spool.root)
        desk = Desk(self.store, invitations, ledger)
        readers = Readers(ledger, self.store, invitations, settings.language)
        known = Snapshot(
            referee=settings.address,
            secret=secret,
            addresses=Addresses.of(settings.address, settings.private_domains),
            game_master=settings.game_master,
            trusted_authserv_id=settings.trusted_authserv_id,
            shards=settings.shards(),
        )
        self.clerk = Clerk(desk, self.spool, self.status, clock, self._wake)

        def word(letter: Letter) -> Written:  # for its reader, when it is sent
            return writer.reading(readers.of(letter)).write(letter)

        self.intake = Intake(
            transport,
            self.clerk,
            known,
            loop_id,
            max_bytes=settings.max_message_bytes,
            word=word,
            retry_every=settings.poll_seconds,
        )
        names = transport.server_names
        self.imap, self.smtp = (
            Reach(kind, names.get(kind, f"{kind.upper()} server"), self.status, clock,
                  shown=kind in names)
            for kind in ("imap", "smtp")
        )
        sender = Sender(settings.address, secret, loop_id)
        retry = settings.smtp.retry_seconds if settings.smtp else 5.0
        self.postman = Postman(
            transport, self.clerk, word, sender, sending=self.smtp, retry_seconds=retry
        )
        keep_filed = timedelta(days=settings.keep_filed_days) if settings.keep_filed_days else None
        self.chores = Chores(self.clerk, settings.game_master, transport, keep_filed)
        self.runner = self.chores.runner
        self._queued = asyncio.Event()  # set when letters may be waiting to go out
        self._stopping = False  # set when receiving has ended: the postman stops too
        self._judging: ThreadPoolExecutor | None = None  # the judging thread, while running
        self._checked = False  # whether the mail servers were reached (and the mailbox held)

    async def run(self, once: bool = False) -> None:
        """Handle mail as it comes until stopped; with ``once``, what is waiting, then stop.

        Receiving and sending run side by side: letters go out while the next mails are
        judged. A mail server that cannot be reached is tried again after 1 s, 2 s, 4 s …
        (at most a minute), each apart: the IMAP server by receiving, the SMTP server by the
        postman; with ``once`` its error is raised. A second service on the same
        games folder refuses to start (ConfigurationError: exit 78)."""
        try:
            with usable(self.settings.games_dir):
                check_strangers(self.settings.games_dir)
                self.spool.lock.hold(self.clock())
                self.spool.outbox.begin()
        except ConfigurationError:
            await self.transport.close()
            raise
        judging = ThreadPoolExecutor(1, thread_name_prefix="judge")
        self._judging = self.intake.judging = self.chores.judging = judging
        try:
            await self._start(once)
            await self.chores.sweep_if_due()
            if once:
                await self._once()
                return
            sending = asyncio.create_task(self._keep_sending())
            try:
                await self._keep_receiving()
            finally:
                self._stopping = True  # ends the postman's loop even if the cancel is lost
                sending.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sending
        finally:
            self._judging.shutdown(wait=True)  # a mail being judged is recorded whole
            self._judging = self.intake.judging = self.chores.judging = None
            try:
                await self.transport.close()
            finally:
                self.status.set(self.clock(), force=True, state="stopped")
                self.spool.lock.release()

    async def _once(self) -> None:
        """What is waiting, once: letters, mail, bots, what time has made due."""
        await self.postman.send_pending()
        await self.intake.receive()
        await self.chores.bots_if_waiting()
        await self.chores.duties_if_due()
        await self.chores.bots_if_waiting()  # a game made by a deadline's turn
        await self.postman.send_pending()

    async def _start(self, once: bool) -> None:
        """Say what this service is, and reach its mail servers: a line each in the log,
        and the same in the status `referee status` shows."""
        settings = self.settings
        now = self.clock()
        master = settings.game_master or "none (set game_master to be told of mail set aside)"
        log.info("referee service for %s (pid %d)", settings.address, os.getpid())
        games = settings.games_dir.resolve()
        log.info("games folder %s: %d game(s)", games, len(self.store.game_ids()))
        log.info("game master: %s", master)
        self.status.body = {
            "state": "running",
            "pid": os.getpid(),
            "since": now.isoformat(),
            "address": settings.address,
            "games_dir": str(games),
            "game_master": settings.game_master,
        }
        try:
            await self._check(once)
        except TransportError as err:
            if once:
                self.status.set(now, force=True, connection=f"unreachable: {err}")
                raise
            self.imap.lost(str(err))  # tried again by _keep_receiving

    async def _check(self, once: bool = False) -> None:
        """Reach and log in to the mail servers, and hold the mailbox: a line each in the log
        and the status. TransportError when the IMAP server cannot be reached; an SMTP
        server that cannot be reached (checked after the IMAP server) is the postman's to
        try again (and with ``once``, raised too)."""
        try:
            lines = await self.transport.check()
        except TransportError as err:
            if err.server != "smtp" or once:
                raise
            self._checked = True
            self.imap.reached()
            self.smtp.lost(str(err))
            return
        self._checked = True
        for line in lines:
            log.info("%s", line)
        self.status.set(self.clock(), force=True, servers=lines)
        for kind in self.transport.server_names:
            (self.imap if kind == "imap" else self.smtp).reached()
        if not self.transport.server_names:
            self.status.set(self.clock(), force=True, connection="connected")

    async def _keep_receiving(self) -> None:
        """Receive, and carry out what is due, until stopped. While the IMAP server cannot
        be reached, it is tried again after growing waits; bots, deadlines and reminders
        go on meanwhile."""
        while True:
            await self._receive()
            await self.chores.sweep_if_due()
            await self.chores.bots_if_waiting()
            await self.chores.duties_if_due()
            await self._wait_for_mail()

    async def _receive(self) -> None:
        """Handle the mail waiting (reaching the servers first if that never worked), unless
        the IMAP server could not be reached and its next try is not due yet."""
        if self.imap.wait() > 0:
            return
        try:
            if not self._checked:
                await self._check()
            elif self.imap.unreachable:
                await self.transport.check_receiving()
            self.imap.reached()
            await self.intake.receive()
        except TransportError as err:
            self.imap.lost(str(err))

    async def _wait_for_mail(self) -> None:
        """Until mail may have come (at most poll_seconds); or, while the IMAP server cannot
        be reached, until it is time to try it again."""
        if self.imap.unreachable:
            await asyncio.sleep(self.imap.wait())
            return
        try:
            await self.transport.wait_for_mail(self.settings.poll_seconds)
        except TransportError as err:
            self.imap.lost(str(err))

    async def _keep_sending(self) -> None:
        """Send what is due whenever mail has been handled, and at least every second (for
        letters queued by the command line, and retries coming due)."""
        while not self._stopping:
            self._queued.clear()
            self.status.set(self.clock())  # the heartbeat
            failed = "sending failed; trying again"
            try:
                await self.postman.send_pending()
                self.chores.warn(failed, None)
            except OSError as err:  # the disk: said once, not every second
                self.chores.warn(failed, f"{failed}: {type(err).__name__}: {err}")
            except Exception:
                log.exception(failed)
            with contextlib.suppress(TimeoutError):
                # not asyncio.wait_for: on Python 3.11 it loses a cancellation that comes
                # as the letters are woken for, and the service never stops
                async with asyncio.timeout(1.0):
                    await self._queued.wait()

    def _wake(self) -> None:
        """Letters may be waiting: the postman looks now."""
        self._queued.set()
