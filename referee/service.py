"""The referee service: receive -> judge -> commit -> send -> acknowledge, over a transport.

Each mail is handled once: its Message-ID (or, lacking one, a hash of its bytes) is checked
against the turns of its game and the service's record of handled mail before it is judged,
and recorded after. A move and the letters that announce it are committed together (see
:mod:`referee.mail.spool`); letters are sent after, and a letter whose sending failed is
tried again with growing delays until a server refuses it for good. Killed at any instant
and started again, the service plays no move twice, loses none, and sends every letter (a
letter may go out twice if the service dies between sending it and noting that it did).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee.addresses import Addresses
from referee.bot_seats import STAND_IN_LEVEL, bot_move, bot_to_move, play_bots
from referee.errors import ConfigurationError, ConflictError, RecordError, StoreError
from referee.failpoints import failpoint
from referee.games import Played, commit_turn
from referee.games import judge as judge_move
from referee.invitations import Invitations
from referee.judge import Ruling, judge, oversized, read
from referee.mail.commands import Scope
from referee.mail.commands.context import (
    AnswerInvitation,
    CreateGame,
    Effect,
    EndAway,
    EndInvitation,
    Propose,
    RollBack,
    SetAway,
    SetUndo,
    Unwatch,
    Watch,
)
from referee.mail.commands.inviting import cancelled_letters
from referee.mail.compose import Envelope, to_bytes
from referee.mail.desk import Desk
from referee.mail.duties import duties, reminders_to_send
from referee.mail.facts import Snapshot
from referee.mail.herald import MailHerald
from referee.mail.imap import ImapTransport
from referee.mail.inbound import Inbound, read_message
from referee.mail.ledger import Ledger
from referee.mail.letters import overdue_letter, reminder_letter, turn_letters
from referee.mail.notices import not_handled, set_aside_for_game_master
from referee.mail.routing import Route, find_route, message_id, player_key, reply_address
from referee.mail.samples import checked_writer
from referee.mail.smtp import SmtpSender
from referee.mail.spool import Answer, Commit, Queued, Spool
from referee.mail.status import StatusBoard
from referee.mail.transport import (
    DirTransport,
    Incoming,
    MessageGoneError,
    SendError,
    Transport,
    TransportError,
)
from referee.owner import strangers, user_name
from referee.record import SourceEntry, dump
from referee.settings import Settings
from referee.store import Store
from referee.wording.letter import Letter
from referee.wording.messages import say
from referee.wording.writer import Writer

log = logging.getLogger("referee.service")

#: A letter still failing after this many tries is kept in failed/ for the game master.
MAX_ATTEMPTS = 8
#: How many letters (to different addresses) are sent at the same time.
SEND_AT_ONCE = 4
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


def retry_delay(attempts: int) -> float:
    """Seconds to wait before try number ``attempts + 1``: 5 s, doubling, at most an hour."""
    return float(min(5 * 2**attempts, 3600))


class Service:
    """One referee service over one transport and one games folder."""

    def __init__(
        self, settings: Settings, transport: Transport, clock: Clock = system_clock
    ) -> None:
        self.settings = settings
        self.transport = transport
        self.clock = clock
        # a game master's templates must word every kind of letter
        self.writer = (
            checked_writer(settings.templates_dir)
            if settings.templates_dir is not None
            else Writer()
        )
        self._swept: datetime | None = None
        self._dutied: datetime | None = None
        self._warned: dict[str, str] = {}  # what was last said of each fault met at every look
        self.store = Store(settings.games_dir, remember=True)
        self.spool = Spool(settings.games_dir)
        with _usable(settings.games_dir):
            settings.games_dir.mkdir(parents=True, exist_ok=True)
            _check_folder_owner(settings.games_dir)
            self.secret = self.spool.secret()
            self.loop_id = self.spool.loop_id()
        self._queued = asyncio.Event()  # set when mail was handled: letters may be waiting
        self._judging: ThreadPoolExecutor | None = None  # the judging thread, while running
        self.status = StatusBoard(self.spool.root / "status.json")
        self.desk = Desk(self.store, Invitations(settings.games_dir), Ledger(self.spool.root))
        self.known = Snapshot(
            referee=settings.address,
            secret=self.secret,
            addresses=Addresses.of(settings.address, settings.private_domains),
            game_master=settings.game_master,
        )

    async def run(self, once: bool = False) -> None:
        """Handle mail as it comes until stopped; with ``once``, what is waiting, then stop.

        Receiving and sending run side by side: letters go out while the next mails are
        judged. A mail server that cannot be reached is tried again after 1 s, 2 s, 4 s …
        (at most a minute); with ``once`` its error is raised. A second service on the same
        games folder refuses to start (ConfigurationError: exit 78)."""
        try:
            with _usable(self.settings.games_dir):
                _check_strangers(self.settings.games_dir)
                self.spool.hold_service_lock(self.clock())
        except ConfigurationError:
            await self.transport.close()
            raise
        self._judging = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge")
        try:
            await self._start(once)
            await self._sweep_if_due()
            if once:
                await self.send_pending()
                await self.receive()
                await self._bots_if_waiting()
                await self._duties_if_due()
                await self._bots_if_waiting()  # a game made by a deadline's turn
                await self.send_pending()
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
            self._judging = None
            try:
                await self.transport.close()
            finally:
                self.status.set(self.clock(), force=True, state="stopped")
                self.spool.release_service_lock()

    async def _start(self, once: bool) -> None:
        """Say what this service is, and reach its mail servers: a line each in the log,
        and the same in the status `referee status` shows."""
        settings = self.settings
        now = self.clock()
        master = settings.game_master or "none (set game_master to be told of mail set aside)"
        log.info("referee service for %s (pid %d)", settings.address, os.getpid())
        log.info(
            "games folder %s: %d game(s)", settings.games_dir.resolve(), len(self.store.game_ids())
        )
        log.info("game master: %s", master)
        self.status.body = {
            "state": "running",
            "pid": os.getpid(),
            "since": now.isoformat(),
            "address": settings.address,
            "games_dir": str(settings.games_dir.resolve()),
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
                await self.receive()
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
                await self.send_pending()
            except Exception:
                log.exception("sending failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._queued.wait(), timeout=1.0)

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
        """Carry out what time has made due (at most every DUTIES_EVERY), on the judging
        thread."""
        now = self.clock()
        if self._dutied is not None and now - self._dutied < DUTIES_EVERY:
            return
        self._dutied = now
        await self._on_judging_thread(
            self.do_duties, now, "carrying out reminders and deadlines failed; trying again"
        )

    async def _on_judging_thread(
        self, work: Callable[[datetime], int], now: datetime, failed: str
    ) -> None:
        """Run ``work(now)`` on the judging thread and wake the sender if it did anything. A
        failure is logged with ``failed`` and tried again at the next look."""
        loop = asyncio.get_running_loop()
        try:
            done = await loop.run_in_executor(self._judging, work, now)
        except OSError as err:  # the disk, or a file's permissions: one line, once
            self._warn_once(failed, f"{failed}: {type(err).__name__}: {err}")
            return
        except Exception:
            log.exception(failed)
            return
        self._warned.pop(failed, None)
        if done:
            self._queued.set()

    def _warn_once(self, about: str, said: str) -> None:
        """Log ``said`` unless it is what was last said ``about`` the same thing: a fault
        met at every look is told once, and again only when it changes."""
        if self._warned.get(about) != said:
            self._warned[about] = said
            log.warning("%s", said)

    def do_duties(self, now: datetime) -> int:
        """Reminders, deadlines, invitations that ran out, undo requests that lapsed, at
        ``now``; how many things were done."""
        desk, ledger = self.desk, self.desk.ledger
        due = duties(desk, now)
        done = 0
        for invitation in due.expired:
            why = "not everyone invited answered within 7 days."
            if desk.invitations.end(invitation.game, "cancelled", why, now):
                self.spool.queue(cancelled_letters(invitation, say("cancel.expired")))
                log.info("invitation %s ran out: called off", invitation.game)
                done += 1
        for game_id in due.undo_ended:
            ledger.set_undo_request(None, game_id)
        for overdue in due.overdue:
            if overdue.policy in ("forfeit", "bot"):
                done += self._at_deadline(overdue.game, overdue.turn, overdue.name, now)
            elif not ledger.told_overdue(overdue.game, overdue.turn):
                if self.settings.game_master:
                    self.spool.queue(
                        [
                            overdue_letter(
                                self.settings.game_master,
                                overdue.game,
                                overdue.name,
                                overdue.turn,
                                overdue.due,
                            )
                        ]
                    )
                ledger.note_overdue(overdue.game, overdue.turn, now)
                log.info("game %s waits past %s's deadline", overdue.game, overdue.name)
                done += 1
        for address, reminders in reminders_to_send(desk, now, due).items():
            lines = [
                say(
                    "reminder.line.late" if r.late else "reminder.line",
                    game=r.game,
                    turn=r.turn + 1,
                    due=r.due.isoformat(),
                )
                for r in reminders
            ]
            late = any(r.late for r in reminders)
            one = reminders[0]  # about one game: a reply to it is a reply in that game
            about = (one.game, one.seat, one.turn) if len(reminders) == 1 else None
            mail = reminder_letter(address, lines, late, about)
            self.spool.queue([mail])
            ledger.note_reminded(address, now, [r.key for r in reminders])
            log.info("reminded %s of %d move(s)", address, len(reminders))
            done += 1
        return done

    def _at_deadline(self, game_id: str, turn: int, name: str, now: datetime) -> int:
        """``name``'s move is past its deadline in a game whose policy acts: ``forfeit``
        resigns them; ``bot`` has a bot play this one turn for them."""
        try:
            with self.store.locked(game_id, wait=0):
                game = self.store.load(game_id)
                if game.state.turn != turn or game.state.status == "finished":
                    return 0  # moved meanwhile
                if game.record.timeout == "bot":
                    chosen = bot_move(game, name, STAND_IN_LEVEL, stand_in=True)
                    text, source = chosen.text, chosen.source
                    extra = say(
                        "timeout.stand_in", player=name, level=STAND_IN_LEVEL, why=chosen.why
                    )
                else:
                    text, source = "resign", SourceEntry(kind="timeout")
                    extra = say("timeout.forfeit", player=name)
                played = judge_move(game, name, text, source, at=now)
                letters = turn_letters(game, played, self.desk.facts(game), None, extra)
                commit_turn(self.store, game_id, played, self._announce(game_id, played, letters))
        except ConflictError:
            return 0  # busy: the next look
        log.info("game %s: %s's deadline passed: %s (turn %d)", game_id, name, text, turn + 1)
        return 1

    async def _bots_if_waiting(self) -> None:
        """Play, on the judging thread, every bot whose turn it is."""
        await self._on_judging_thread(
            self.play_bots, self.clock(), "playing the bots' turns failed; trying again"
        )

    def play_bots(self, now: datetime) -> int:
        """Play the turns of seats played by bots, in every game where one is to move; how
        many were played. Each is recorded with source bot and announced like any turn."""
        count = 0
        herald = MailHerald(self.spool, self.desk.ledger)
        for game_id in self.store.game_ids():
            try:
                if bot_to_move(self.store.load(game_id)) is None:
                    self._warned.pop(f"bots of {game_id}", None)
                    continue
                played = play_bots(self.store, game_id, herald, at=now)
            except (RecordError, StoreError, OSError) as err:
                self._warn_once(
                    f"bots of {game_id}",
                    f"game {game_id} cannot be read ({err}): its mail is set aside, and "
                    "nothing in it moves until that is mended",
                )
                continue
            self._warned.pop(f"bots of {game_id}", None)
            for turn in played:
                log.info("game %s: turn %d: %s (bot)", game_id, turn.turn.turn, turn.turn.move.text)
            count += len(played)
        return count

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

    # -- receiving ----------------------------------------------------------------------------

    async def receive(self) -> int:
        """Handle every mail waiting (and those a game master handed back); how many."""
        await self._hand_back()
        items = await self.transport.incoming()
        try:
            await self._handle_all(items)
        finally:
            if items:
                await self.transport.flush()
        return len(items)

    async def _hand_back(self) -> None:
        """Move the mails a game master asked to have read again (`referee inbox retry`)
        back into the inbox: their "seen" note goes first, the request last, so that a
        crash in between leaves the request to be carried out again."""
        for asked in self.spool.retries():
            mail, folder = str(asked["mail"]), str(asked.get("folder", "quarantine"))
            self.spool.forget_seen(mail)
            if await self.transport.restore(folder, mail, str(asked.get("item", ""))):
                log.info(
                    "mail %s (%s) handed back by the game master: read again", asked["id"], mail
                )
            else:
                log.warning(
                    "mail %s (%s) asked for again is no longer in %s: if it was moved, put it "
                    "in the inbox by hand",
                    asked["id"],
                    mail,
                    folder,
                )
            self.spool.forget(mail)

    async def _handle_all(self, items: list[Incoming]) -> None:
        for item in items:
            try:
                await self.handle(item)
                self._queued.set()  # its letters may go out while the next mail is judged
            except MessageGoneError as gone:
                log.info("%s", gone)
            except TransportError:
                raise
            except ConflictError as busy:  # the game is busy: the mail waits for the next look
                log.warning("mail %s stays in the inbox for now: %s", item.id, busy)
            except SetAside as aside:
                await self._set_aside(item, str(aside), aside.game)
            except OSError as err:  # the disk, or a file's permissions: said in one line
                await self._set_aside(item, f"{type(err).__name__}: {err}", None)
            except Exception as err:  # a fault of the referee's own: its traceback helps
                log.exception("mail %s could not be handled", item.id)
                await self._set_aside(item, f"{type(err).__name__}: {err}", None)

    async def _set_aside(self, item: Incoming, reason: str, game: str | None) -> None:
        """File a mail the service could not handle in quarantine, note it for `referee
        inbox`, and tell its sender (it is not lost) and the game master (how to retry). The
        log says so in one line, naming the mail by its `referee inbox` id."""
        try:
            head = await self.transport.headers(item)
        except (MessageGoneError, TransportError):
            head = b""
        inbound = read_message(head, self.loop_id)
        key = inbound.message_id or f"<aside.{item.id}@referee.invalid>"
        now = self.clock()
        try:
            if game is None and not inbound.unreadable:
                route = self._route(inbound)
                game = route.game if route else None
            short = self._note_aside(
                key, item, inbound, "set aside", reason, "quarantine", game, now
            )
            log.error(
                "mail %s from %s is set aside: %s; once that is mended: referee inbox retry %s",
                short,
                inbound.sender or "(no sender)",
                reason,
                short,
            )
            self._tell_of_set_aside(inbound, short, reason, game, now)
        except OSError as err:  # the disk itself may be what failed: the log is all there is
            log.error(
                "mail %s (%s) could not be handled (%s), nor noted for referee inbox (%s): it "
                "stays in quarantine",
                item.id,
                key,
                reason,
                err,
            )
        with contextlib.suppress(MessageGoneError):
            await self.transport.file(item, "quarantine")

    def _route(self, inbound: Inbound) -> Route | None:
        """Where a mail goes: the game, the seat and the turn it answers."""
        return find_route(
            inbound.recipients, inbound.in_reply_to, inbound.references, self.settings.address
        )

    def _note_aside(
        self,
        key: str,
        item: Incoming,
        inbound: Inbound,
        kind: str,
        reason: str,
        folder: str,
        game: str | None,
        now: datetime,
    ) -> str:
        """Note a mail not played for `referee inbox` (``kind``: set aside, refused or
        ignored), filed in ``folder``; its short id."""
        record = {
            "kind": kind,
            "reason": reason,
            "folder": folder,
            "item": item.id,
            "sender": inbound.sender,
            "subject": inbound.subject,
            "game": game,
            "at": now.isoformat(),
        }
        return self.spool.note_aside(key, record)

    def _tell_of_set_aside(
        self, inbound: Inbound, short: str, reason: str, game: str | None, now: datetime
    ) -> None:
        letters = []
        master = self.settings.game_master
        if master and self.spool.allow_error_reply(
            master, f"set-aside:{reason[:200]}", now.date(), short
        ):
            letters.append(set_aside_for_game_master(master, inbound, short, reason, game))
        if (
            inbound.sender
            and not inbound.automatic
            and self.spool.allow_error_reply(inbound.sender, "set-aside", now.date(), short)
        ):
            letters.append(not_handled(inbound, told_game_master=bool(master)))
        if letters:
            self.spool.queue(letters)
            self._queued.set()

    async def handle(self, item: Incoming) -> Ruling | None:
        """Judge one mail, carry out the ruling, file the mail. None: handled before.

        The judging and recording (reading the mail, the game, the turn and letters written
        and flushed to disk) run on the service's judging thread, one mail at a time, so that
        letters keep going out on the event loop meanwhile."""
        loop = asyncio.get_running_loop()
        if item.size > self.settings.max_message_bytes:
            head = await self.transport.headers(item)
            ruling, folder = await loop.run_in_executor(
                self._judging, self._judge_oversized, item, head
            )
        else:
            raw = await self.transport.fetch(item)
            ruling, folder = await loop.run_in_executor(self._judging, self._judge, item, raw)
        await self.transport.file(item, folder)
        failpoint("filed")
        return ruling

    def _judge_oversized(self, item: Incoming, head: bytes) -> tuple[Ruling | None, str]:
        """A mail too large to read, by its headers: its sender is told (once)."""
        inbound = read_message(head, self.loop_id)
        key = inbound.message_id or _hash_key(head)
        if self.spool.seen(key):
            return None, "quarantine"
        ruling = oversized(inbound, item.size, self.settings.max_message_bytes)
        return self._carry_out(item, key, ruling, None, self.clock(), inbound)

    def _judge(self, item: Incoming, raw: bytes) -> tuple[Ruling | None, str]:
        """A whole mail: the ruling, carried out, and the folder the mail goes to."""
        inbound = read_message(raw, self.loop_id)
        key = inbound.message_id or _hash_key(raw)
        inbound = replace(inbound, message_id=key)
        if self.spool.seen(key):
            log.info("mail %s (%s) was handled before; filed again", item.id, key)
            return None, "done"
        now = self.clock()
        route = None
        if not inbound.automatic and not inbound.unreadable:
            route = self._route(inbound)
        if route is None or not self.store.has(route.game):
            scope: Scope = "referee" if route is None else "invitation"
            mail = read(inbound, route, scope)
            ruling = judge(mail, self.desk.snapshot(mail, self.known, now), now)
            failpoint("judged")
            return self._carry_out(item, key, ruling, None, now, inbound)
        with self.store.locked(route.game):
            try:
                game = self.store.load(route.game)
            except (RecordError, StoreError) as err:
                raise SetAside(f"game {route.game} cannot be read: {err}", route.game) from None
            if any(t.source.message_id == key for t in game.turns):
                ruling = Ruling("played", "done", "played before (found in the game's turns)")
            elif key in self.store.undone_mails(route.game):
                ruling = Ruling("played", "done", "played before, and undone by a rollback")
            elif (rollback := self.store.rollback_by(route.game, key)) is not None:
                return self._finish_rollback(item, key, route.game, rollback, now)
            else:
                voided = self.spool.void_unsent(key, "its mail was judged again after a crash")
                if voided:
                    log.info("mail %s: %d letter(s) of a judging cut short set aside", key, voided)
                mail = read(inbound, route, "game")
                ruling = judge(mail, self.desk.snapshot(mail, self.known, now, game), now)
                failpoint("judged")
            return self._carry_out(item, key, ruling, route.game, now, inbound)

    def _finish_rollback(
        self, item: Incoming, key: str, game: str, rollback: dict[str, object], now: datetime
    ) -> tuple[Ruling, str]:
        """A mail whose rollback (an undo all agreed to) was begun before a crash: judged
        again it would find no undo waiting, so its rollback is finished instead, and the
        letters queued with it, which tell every player, are the answer that goes out."""
        to, reason = rollback["to"], rollback["reason"]
        assert isinstance(to, int) and isinstance(reason, str)
        self.store.resume_rollback(game, rollback)
        self._apply([RollBack(game, to, reason, key), SetUndo(game, None)])
        failpoint("effects-done")
        ruling = Ruling("answered", "done", f"back at turn {to}, finished after a crash")
        self.spool.mark_seen(
            key,
            f"{ruling.outcome}: {ruling.note} (as {item.id})",
            game=game,
            batch=self.spool.batch_of(key),
            at=now,
        )
        failpoint("seen-noted")
        log.info("mail %s: %s", key, ruling.note)
        return ruling, ruling.folder

    def _carry_out(
        self,
        item: Incoming,
        key: str,
        ruling: Ruling,
        game: str | None,
        now: datetime,
        inbound: Inbound,
    ) -> tuple[Ruling, str]:
        """Record a ruling: its turn or its letters, then the note that the mail was handled.

        Letters of a turn are committed with the turn (see :func:`commit_turn`); any other
        letters wait for the mail's note, which names their batch. A once-a-day limit's note
        names the mail, so that the same mail judged again after a crash is still answered."""
        letters = [replace(mail, origin=key) for mail in ruling.letters]
        if ruling.limit and letters:
            if not self.spool.allow_error_reply(letters[0].to, ruling.limit, now.date(), key):
                log.info("no reply to %s: already told today (%s)", letters[0].to, ruling.limit)
                letters = []
            failpoint("limit-noted")
        batch = None
        try:
            if ruling.played is not None and game is not None:
                commit_turn(
                    self.store, game, ruling.played, self._announce(game, ruling.played, letters)
                )
                failpoint("turn-written")
            elif letters:
                batch = uuid.uuid4().hex[:12]
                self.spool.queue(letters, answer=Answer(key, batch))
                failpoint("queued")
            self._apply(ruling.effects)
            failpoint("effects-done")
        except Exception:
            self.spool.void_letters_of(key, "its mail could not be recorded")
            raise
        # a move is recorded in its game's turns (or archive), which are checked too: its
        # note here need not be flushed to disk; every other outcome's must
        self.spool.mark_seen(
            key,
            f"{ruling.outcome}: {ruling.note} (as {item.id})",
            game=game,
            batch=batch,
            at=now,
            durable=ruling.outcome != "played",
        )
        failpoint("seen-noted")
        if ruling.outcome in ("refused", "ignored"):
            self._note_aside(
                key, item, inbound, ruling.outcome, ruling.note, ruling.folder, game, now
            )
        log.info("mail %s: %s: %s", key, ruling.outcome, ruling.note)
        self.status.set(
            now,
            last_mail={"at": now.isoformat(), "mail": key, "outcome": ruling.outcome,
                       "note": ruling.note},
        )  # fmt: skip
        return ruling, ruling.folder

    def _announce(
        self, game: str, played: Played, letters: list[Letter]
    ) -> Callable[[str], None] | None:
        """How a turn's letters are queued before its file is written (see commit_turn)."""
        if not letters:
            return None

        def queue(sha256: str) -> None:
            self.spool.queue(letters, Commit(game, played.turn.turn, sha256))
            failpoint("queued")

        return queue

    def _apply(self, effects: list[Effect]) -> None:
        """Carry out what a command asked for. Each effect is idempotent: a mail judged again
        after a crash changes nothing twice."""
        ledger, invitations = self.desk.ledger, self.desk.invitations
        for effect in effects:
            match effect:
                case SetAway(address, since, until):
                    ledger.set_away(address, since, until)
                case EndAway(address, at):
                    ledger.end_away(address, at)
                case Watch(game, address):
                    ledger.watch(game, address)
                case Unwatch(game, address):
                    ledger.unwatch(game, address)
                case SetUndo(game, request):
                    ledger.set_undo_request(request, game)
                case RollBack(game, to, reason, mail):
                    last = len(self.store.load(game).turns)
                    if last > to:  # the game's lock is held: see _judge
                        self.store.archive_turns(game, to, reason, self.clock(), last - to, mail)
                    failpoint("rolled-back")
                    ledger.note_restarted(game, self.clock())
                case Propose(invitation):
                    invitations.propose(invitation)
                case AnswerInvitation(game, seat, accepted, name, mail, at):
                    invitations.answer(game, seat, accepted, name, mail, at)
                case EndInvitation(game, status, why, at):
                    invitations.end(game, status, why, at)
                case CreateGame(record):
                    if self.store.has(record.id):
                        existing = (self.store.folder(record.id) / "game.toml").read_bytes()
                        if existing != dump(record):
                            raise ConflictError(f"game {record.id} exists already")
                    else:
                        self.store.create(record)

    # -- sending ------------------------------------------------------------------------------

    async def send_pending(self) -> int:
        """Send every letter that is due; how many went out. Letters to one address go in
        the order they were queued; letters to different addresses go side by side, over up
        to SEND_AT_ONCE connections."""
        now = time.time()
        due: dict[str, list[Queued]] = {}
        waiting: set[str] = set()  # addresses whose earlier letter waits to be tried again
        for queued in self.spool.pending():
            address = queued.letter.to.lower()
            if queued.not_before > now or address in waiting:
                waiting.add(address)
                continue
            committed = self.spool.committed(queued)
            if committed is None and self._never_written(queued):
                committed = False
            if committed is None:
                waiting.add(address)  # its turn (or its mail's note) is being written
                continue
            if committed is False:
                self.spool.settle(queued, "void", error=_why_void(queued))
                continue
            due.setdefault(address, []).append(queued)
        at_once = asyncio.Semaphore(SEND_AT_ONCE)

        async def send_in_order(letters: list[Queued]) -> int:
            async with at_once:
                sent = 0
                for queued in letters:
                    if await self._send(queued):
                        sent += 1
                    elif queued.path.exists():
                        break  # to be tried again: the letters after it wait their turn
                return sent

        return sum(await asyncio.gather(*(send_in_order(group) for group in due.values())))

    def _never_written(self, queued: Queued) -> bool:
        """Whether a letter's turn will never be written: every writer (this service, the
        command line) queues a turn's letters and writes the turn holding the game's lock, so
        a free lock and a missing turn mean a writer that died or failed in between."""
        if queued.commit is None:
            return False  # a letter answering a mail: set aside when the mail is judged again
        game = queued.commit.game
        if not self.store.has(game):
            return True
        try:
            with self.store.locked(game, wait=0):
                return self.spool.committed(queued) is None
        except ConflictError:
            return False  # being written now

    async def _send(self, queued: Queued) -> bool:
        """Send one letter. Its Message-ID is noted in the player's thread first, so that a
        reply to it is understood even if the service dies the moment it has gone out."""
        mail = queued.letter
        written = queued.written or self.writer.write(mail)
        envelope = self.envelope(queued)
        if mail.seat is not None:
            self.spool.extend_thread(mail.game, mail.seat, envelope.message_id)
            failpoint("thread-noted")
        try:
            await self.transport.send(self.settings.address, mail.to, to_bytes(written, envelope))
        except SendError as err:
            if err.permanent or queued.attempts + 1 >= MAX_ATTEMPTS:
                self.spool.settle(queued, "failed", error=str(err), attempts=queued.attempts + 1)
                log.error("letter to %s failed for good: %s", mail.to, err)
            else:
                self.spool.retry_later(queued, str(err), retry_delay(queued.attempts))
                log.warning("letter to %s not sent yet (%s); will try again", mail.to, err)
            return False
        failpoint("sent")
        self.spool.settle(queued, "sent")
        log.info("letter to %s sent: %s", mail.to, written.subject)
        self.status.set(
            self.clock(),
            last_sent={"at": self.clock().isoformat(), "to": mail.to, "subject": written.subject},
        )
        return True

    def envelope(self, queued: Queued) -> Envelope:
        """Our address, the player's reply address, a Message-ID carrying their route (the
        same each time this letter is sent), and the threading of their conversation."""
        mail = queued.letter
        address = self.settings.address
        now = self.clock()
        if mail.seat is None:
            domain = address.partition("@")[2]
            return Envelope(
                sender=address,
                message_id=f"<notice.{queued.key}@{domain}>",
                in_reply_to=mail.answers,
                references=[mail.answers] if mail.answers else [],
                loop_id=self.loop_id,
                date=now,
            )
        key = player_key(self.secret, mail.game, mail.seat, mail.to)
        own = message_id(address, mail.game, mail.seat, key, mail.turn, unique=queued.key)
        thread = [m for m in self.spool.thread(mail.game, mail.seat) if m != own]
        references = [*thread, mail.answers] if mail.answers else thread
        return Envelope(
            sender=address,
            message_id=own,
            reply_to=reply_address(address, mail.game, mail.seat, key),
            in_reply_to=mail.answers or (thread[-1] if thread else None),
            references=list(dict.fromkeys(references)),
            loop_id=self.loop_id,
            date=now,
        )


class SetAside(Exception):  # noqa: N818 (not an error of the mail: what is done with it)
    """A mail the service cannot handle now (its game cannot be read): set aside, its sender
    and the game master told."""

    def __init__(self, reason: str, game: str | None) -> None:
        super().__init__(reason)
        self.game = game


def make_transport(settings: Settings, lock: bool = True) -> Transport:
    """The transport the settings ask for: dir (``mail_dir``) or imap (``imap`` and ``smtp``).
    ``lock``: it holds its mail folder or mailbox against a second service, once checked."""
    if settings.transport == "dir" and settings.mail_dir is not None:
        return DirTransport(settings.mail_dir, lock=lock)
    if settings.transport == "imap" and settings.imap is not None and settings.smtp is not None:
        return ImapTransport(
            settings.imap,
            SmtpSender(settings.smtp),
            read_ahead_below=settings.max_message_bytes,
            games=str(settings.games_dir.resolve()),
            lock=lock,
        )
    if settings.mail_dir is not None:
        raise ConfigurationError(
            "both a mail folder (mail_dir) and mail servers ([imap], [smtp]) are set: "
            "keep one, or give --mail-dir to use the folder this time"
        )
    if (settings.imap is None) != (settings.smtp is None):
        missing = "smtp" if settings.smtp is None else "imap"
        raise ConfigurationError(
            f"the imap transport needs both [imap] and [smtp] settings; [{missing}] is missing"
        )
    raise ConfigurationError(
        "no mail transport: give --mail-dir DIR for the dir transport (a folder of .eml "
        "files), or [imap] and [smtp] in the --config file (see docs/mail.md)"
    )


@contextlib.contextmanager
def _usable(games: Path) -> Iterator[None]:
    """Turn a permission error on the games folder into one line saying how to mend it."""
    try:
        yield
    except PermissionError as err:
        where = err.filename or games
        raise ConfigurationError(
            f"the service cannot write {where} ({err.strerror}), in the games folder {games}: "
            f"run it as the folder's owner, or give the folder to the service's user with "
            f"chown -R {user_name(os.geteuid())}: {games}"
        ) from None


def _check_folder_owner(games: Path) -> None:
    """ConfigurationError unless the service runs as the owner of its games folder."""
    owner, me = games.stat().st_uid, os.geteuid()
    if owner != me:
        raise ConfigurationError(
            f"the games folder {games} belongs to {user_name(owner)}, but the service runs "
            f"as {user_name(me)}: give the folder to the service's user with chown -R "
            f"{user_name(me)}: {games} (and run game-master commands as {user_name(me)})"
        )


def _check_strangers(games: Path) -> None:
    """ConfigurationError when something the service writes belongs to another user."""
    for path in strangers(games):
        them, me = user_name(path.stat().st_uid), user_name(os.geteuid())
        raise ConfigurationError(
            f"{path} belongs to {them}, not to {me}, who runs the service (a command was run "
            f"as {them}): give it back with chown -R {me}: {games}, and run game-master "
            f"commands as {me}"
        )


def _hash_key(raw: bytes) -> str:
    """The key of a mail with no Message-ID: a hash of its bytes."""
    return f"<sha256.{hashlib.sha256(raw).hexdigest()}@referee.invalid>"


def _why_void(queued: Queued) -> str:
    """Why a letter will never go out (see Spool.committed)."""
    if queued.commit is not None:
        return "its turn was never written, or its turn file is another's"
    return "its mail was judged again after a crash, and answered by other letters"
