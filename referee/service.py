"""The referee service: the units that play games by mail, and the loop that runs them.

- the intake (:mod:`referee.mail.intake`): mail in, each judged once and filed;
- the clerk (:mod:`referee.mail.clerk`): a ruling carried out: its turn and letters
  committed together, the effects a command asked for, the mail noted as handled;
- the postman (:mod:`referee.mail.postman`): letters out, worded when sent, tried again
  with growing delays;
- the runner (:mod:`referee.mail.runner`): reminders, deadlines and bots.

A :class:`Service` owns them, their lifetime and their loops: receiving and sending run side
by side, judging on one thread of its own. Killed at any instant and started again, the
service plays no move twice, loses none, and sends every letter (a letter may go out twice if
it dies between sending it and noting that it did).
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
from referee.errors import ConfigurationError, RecordError, StoreError
from referee.invitations import Invitations
from referee.mail.clerk import Clerk
from referee.mail.desk import Desk
from referee.mail.facts import Snapshot
from referee.mail.intake import Intake
from referee.mail.ledger import Ledger
from referee.mail.postman import Postman, Sender
from referee.mail.readers import Readers
from referee.mail.runner import Runner
from referee.mail.samples import checked_writer
from referee.mail.spool import Spool
from referee.mail.startup import check_folder_owner, check_strangers, make_transport, usable
from referee.mail.status import StatusBoard
from referee.mail.transport import Transport, TransportError
from referee.settings import Settings
from referee.store import Store
from referee.wording.writer import Writer

__all__ = ["Clock", "Service", "make_transport", "system_clock"]

log = logging.getLogger("referee.service")

#: The longest wait before trying an unreachable mail server again.
LONGEST_RECONNECT_WAIT = 60.0
#: How often what can no longer matter is cleared away (see Spool.expire).
SWEEP_EVERY = timedelta(hours=24)
#: How often reminders, deadlines and invitations are looked at.
DUTIES_EVERY = timedelta(minutes=1)

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
        )
        self.clerk = Clerk(desk, self.spool, self.status, clock)
        self.intake = Intake(
            transport, self.clerk, known, loop_id, settings.max_message_bytes, self._wake
        )
        sender = Sender(settings.address, secret, loop_id)
        self.postman = Postman(
            transport, self.spool, self.store, writer, self.status, clock, sender, readers
        )
        self.runner = Runner(self.clerk, settings.game_master, self._warn)
        self._queued = asyncio.Event()  # set when letters may be waiting to go out
        self._judging: ThreadPoolExecutor | None = None  # the judging thread, while running
        self._swept: datetime | None = None
        self._dutied: datetime | None = None
        self._warned: dict[str, str] = {}  # what was last said of each fault met at every look

    async def run(self, once: bool = False) -> None:
        """Handle mail as it comes until stopped; with ``once``, what is waiting, then stop.

        Receiving and sending run side by side: letters go out while the next mails are
        judged. A mail server that cannot be reached is tried again after 1 s, 2 s, 4 s …
        (at most a minute); with ``once`` its error is raised. A second service on the same
        games folder refuses to start (ConfigurationError: exit 78)."""
        try:
            with usable(self.settings.games_dir):
                check_strangers(self.settings.games_dir)
                self.spool.lock.hold(self.clock())
                self.spool.outbox.begin()
        except ConfigurationError:
            await self.transport.close()
            raise
        self._judging = self.intake.judging = ThreadPoolExecutor(1, thread_name_prefix="judge")
        try:
            await self._start(once)
            await self._sweep_if_due()
            if once:
                await self._once()
                return
            sending = asyncio.create_task(self._keep_sending())
            try:
                await self._keep_receiving()
            finally:
                sending.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sending
        finally:
            self._judging.shutdown(wait=True)  # a mail being judged is recorded whole
            self._judging = self.intake.judging = None
            try:
                await self.transport.close()
            finally:
                self.status.set(self.clock(), force=True, state="stopped")
                self.spool.lock.release()

    async def _once(self) -> None:
        """What is waiting, once: letters, mail, bots, what time has made due."""
        await self.postman.send_pending()
        await self.intake.receive()
        await self._bots_if_waiting()
        await self._duties_if_due()
        await self._bots_if_waiting()  # a game made by a deadline's turn
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
            lines = await self.transport.check()
        except TransportError as err:
            self.status.set(now, force=True, connection=f"unreachable: {err}")
            if once:
                raise
            log.warning("%s; trying again", err)
            return
        for line in lines:
            log.info("%s", line)
        self.status.set(now, force=True, connection="connected", servers=lines)

    async def _keep_receiving(self) -> None:
        failures = 0
        while True:
            try:
                await self.intake.receive()
                if failures:
                    log.info("the mail server can be reached again")
                    self.status.set(self.clock(), force=True, connection="connected")
                failures = 0
                await self._sweep_if_due()
                await self._bots_if_waiting()
                await self._duties_if_due()
                await self.transport.wait_for_mail(self.settings.poll_seconds)
            except TransportError as err:
                delay = min(2.0**failures, LONGEST_RECONNECT_WAIT)
                failures += 1
                log.warning("%s; trying again in %g s", err, delay)
                self.status.set(self.clock(), force=True, connection=f"unreachable: {err}")
                await asyncio.sleep(delay)

    async def _keep_sending(self) -> None:
        """Send what is due whenever mail has been handled, and at least every second (for
        letters queued by the command line, and retries coming due)."""
        while True:
            self._queued.clear()
            self.status.set(self.clock())  # the heartbeat
            try:
                await self.postman.send_pending()
            except Exception:
                log.exception("sending failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._queued.wait(), timeout=1.0)

    def _wake(self) -> None:
        """Letters may be waiting: the postman looks now."""
        self._queued.set()

    async def _sweep_if_due(self) -> None:
        """Clear away notes and letters that can no longer matter, once a day (on the judging
        thread, so never beside a mail being judged)."""
        now = self.clock()
        if self._swept is not None and now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        loop = asyncio.get_running_loop()
        try:
            removed = await loop.run_in_executor(self._judging, self.spool.expire, now, self._ended)
        except Exception:  # clearing away is never worth stopping the service for
            log.exception("clearing away old notes failed; trying again tomorrow")
            return
        if removed:
            log.info("cleared %d note(s) and letter(s) that can no longer matter", removed)

    async def _duties_if_due(self) -> None:
        """Carry out what time has made due (at most every DUTIES_EVERY)."""
        now = self.clock()
        if self._dutied is not None and now - self._dutied < DUTIES_EVERY:
            return
        self._dutied = now
        failed = "carrying out reminders and deadlines failed; trying again"
        await self._on_judging_thread(self.runner.do_duties, now, failed)

    async def _bots_if_waiting(self) -> None:
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
            done = await loop.run_in_executor(self._judging, work, now)
        except OSError as err:  # the disk, or a file's permissions: one line, once
            self._warn(failed, f"{failed}: {type(err).__name__}: {err}")
            return
        except Exception:
            log.exception(failed)
            return
        self._warn(failed, None)
        if done:
            self._wake()

    def _warn(self, about: str, said: str | None) -> None:
        """Log ``said`` unless it is what was last said ``about`` the same thing: a fault met
        at every look is told once, and again only when it changes (None: it is mended)."""
        if said is None:
            self._warned.pop(about, None)
        elif self._warned.get(about) != said:
            self._warned[about] = said
            log.warning("%s", said)

    def _ended(self, game: str) -> datetime | None:
        """When ``game`` ended (or that it is gone: the epoch); None while it runs."""
        if not self.store.has(game):
            return datetime.fromtimestamp(0, UTC)
        try:
            replayed = self.store.load(game)
        except (RecordError, StoreError, OSError):
            return None  # kept: a game master may mend it
        if replayed.state.status != "finished":
            return None
        return replayed.turns[-1].at if replayed.turns else replayed.record.created
