"""The intake: mail in, each judged once and filed.

Each mail is handled once: its Message-ID (or, lacking one, a hash of its bytes) is checked
against the turns of its game (and those a rollback undid) and the service's notes of handled
mail before it is judged; the clerk records the ruling. A mail the service cannot handle now
is set aside in quarantine, its sender and the game master told, until the game master hands
it back (``referee inbox retry``). Judging runs on the service's one judging thread, so that
letters keep going out on the event loop meanwhile.

A games folder that takes no more writes (a full disk, a quota, a read-only mount: see
:func:`~referee.store.no_room_on_disk`) is not a fault of one mail: a mail that cannot be
recorded stays in the inbox, unanswered, with every mail after it, and is read again at each
look until there is room, when the service carries on by itself (:mod:`referee.mail.room`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import uuid
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import replace
from datetime import datetime
from typing import Required, TypedDict, Unpack

from referee.errors import ConflictError, RecordError, StoreError
from referee.failpoints import failpoint
from referee.mail.clerk import Clerk, Handling
from referee.mail.desk import Desk
from referee.mail.judging.facts import Snapshot
from referee.mail.judging.judge import Received, Ruling, judge, oversized, read, read_confirmation
from referee.mail.judging.notices import not_handled, set_aside_for_game_master
from referee.mail.judging.ruling import Scope
from referee.mail.postman import notice_envelope
from referee.mail.reading.inbound import Inbound, read_message
from referee.mail.reading.routing import Route, find_confirmation, find_route
from referee.mail.room import RETRY_WHEN_NO_ROOM, NoRoom, Room
from referee.mail.state.spool import Spool
from referee.mail.transports.base import (
    Inbox,
    Incoming,
    Mailroom,
    MessageGoneError,
    Outlet,
    SendError,
    TransportError,
)
from referee.mail.transports.compose import to_bytes
from referee.store import no_room_on_disk
from referee.wording.letter import Letter, Written
from referee.wording.writer import Writer

log = logging.getLogger("referee.service")


class SetAside(Exception):  # noqa: N818 (not an error of the mail: what is done with it)
    """A mail the service cannot handle now (its game cannot be read): set aside, its sender
    and the game master told."""

    def __init__(self, reason: str, game: str | None) -> None:
        super().__init__(reason)
        self.game = game


class Looking(TypedDict, total=False):
    """How the intake looks at mail, beside what it reads: mail larger than ``max_bytes``
    is not read (always given); ``word`` words a letter sent straight to the game master
    (by default, in English with the shipped templates); ``retry_every``: seconds between
    two looks while the games folder takes no writes."""

    max_bytes: Required[int]
    word: Callable[[Letter], Written] | None
    retry_every: float


class Intake:
    """Reads the mail of a transport's inbox, judges each once, and hands the rulings to the
    clerk; a notice to the game master that cannot wait for the outbox (a full disk) goes
    straight out by its outlet (``mail``: both sides).

    ``known`` is what every judging knows (the referee's address and secret, who may play);
    ``loop_id`` the service's own mark on what it sends; the clerk's ``woken`` is called when
    letters may be waiting to go out."""

    def __init__(
        self,
        mail: Mailroom,
        clerk: Clerk,
        known: Snapshot,
        loop_id: str,
        **looking: Unpack[Looking],
    ) -> None:
        self.inbox: Inbox = mail
        self.outlet: Outlet = mail  # (a notice that cannot wait for the outbox)
        self.clerk = clerk
        self.desk: Desk = clerk.desk
        self.store = clerk.store
        self.spool: Spool = clerk.spool
        self.known = known
        self.loop_id = loop_id
        self.max_bytes = looking["max_bytes"]
        self.woken = clerk.woken
        self.word = looking.get("word") or _in_english
        self.judging: Executor | None = None  # the service's judging thread, while it runs
        self.room = Room(
            self.store.root, self.clerk.clock, clerk.status, known.game_master, self._tell_now,
            looking.get("retry_every", RETRY_WHEN_NO_ROOM),
        )  # fmt: skip

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.clerk.clock

    async def receive(self) -> int:
        """Handle every mail waiting (and those a game master handed back); how many were
        looked at. While the games folder takes no writes, wait ``retry_every`` between two
        looks, and stop at the first mail that cannot be recorded: every later one would
        fail too, and must not overtake it."""
        await self.room.wait()
        await self._hand_back()
        items = await self.inbox.incoming()
        recorded = False
        try:
            for item in items:
                recorded = await self._handle_one(item) or recorded
        except NoRoom as full:
            await self.room.full(item.id, full.error)
        else:
            if recorded:
                self.room.recorded()
        finally:
            if items:
                await self.inbox.flush()
        return len(items)

    async def _tell_now(self, letter: Letter) -> None:
        """Send a notice straight through the transport, not through the outbox: for what
        cannot wait for the disk the outbox is on. A failure is said in the log."""
        referee, key = self.known.referee, uuid.uuid4().hex[:12]
        envelope = notice_envelope(referee, letter, key, self.loop_id, self.clock())
        try:
            message = to_bytes(self.word(letter), envelope)
            await self.outlet.send(referee, letter.to, message)
        except (SendError, TransportError, OSError) as err:
            log.warning("the game master %s could not be told by mail: %s", letter.to, err)
            return
        log.info("the game master %s was told by mail: %s", letter.to, letter.kind)

    async def _hand_back(self) -> None:
        """Move the mails a game master asked to have read again (`referee inbox retry`)
        back into the inbox: their "seen" note goes first, the request last, so that a
        crash in between leaves the request to be carried out again."""
        notes = self.spool.notes
        for asked in notes.retries():
            mail, folder = str(asked["mail"]), str(asked.get("folder", "quarantine"))
            notes.forget_seen(mail)
            if await self.inbox.restore(folder, mail, str(asked.get("item", ""))):
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
            notes.forget(mail)

    async def _handle_one(self, item: Incoming) -> bool:
        """Handle one mail, whatever befalls it; whether it was recorded (handled, or set
        aside), not left for another reader or the next look. NoRoom: the games folder
        takes no writes."""
        try:
            await self.handle(item)
            self.woken()  # its letters may go out while the next mail is judged
        except MessageGoneError as gone:
            log.info("%s", gone)
            return False
        except TransportError:
            raise
        except ConflictError as busy:  # the game is busy: the mail waits for the next look
            log.warning("mail %s stays in the inbox for now: %s", item.id, busy)
            return False
        except SetAside as aside:
            await self._set_aside(item, str(aside), aside.game)
        except OSError as err:  # the disk, or a file's permissions: said in one line
            if no_room_on_disk(err):
                raise NoRoom(err) from err
            await self._set_aside(item, f"{type(err).__name__}: {err}", None)
        except Exception as err:  # a fault of the referee's own: its traceback helps
            log.exception("mail %s could not be handled", item.id)
            await self._set_aside(item, f"{type(err).__name__}: {err}", None)
        return True

    async def handle(self, item: Incoming) -> Ruling | None:
        """Judge one mail, carry out the ruling, file the mail. None: handled before."""
        loop = asyncio.get_running_loop()
        if item.size > self.max_bytes:
            head = await self.inbox.headers(item)
            ruling, folder = await loop.run_in_executor(
                self.judging, self._judge_oversized, item, head
            )
        else:
            raw = await self.inbox.fetch(item)
            ruling, folder = await loop.run_in_executor(self.judging, self._judge, item, raw)
        await self.inbox.file(item, folder, self.clock())
        failpoint("filed")
        return ruling

    def _judge_oversized(self, item: Incoming, head: bytes) -> tuple[Ruling | None, str]:
        """A mail too large to read, by its headers: its sender is told (once)."""
        inbound = read_message(head, self.loop_id)
        key = inbound.message_id or _hash_key(head)
        if self.spool.notes.seen(key):
            return None, "quarantine"
        ruling = oversized(inbound, item.size, self.max_bytes)
        route = None if inbound.automatic or inbound.unreadable else self.route(inbound)
        game = route.game if route is not None and self.store.has(route.game) else None
        handling = Handling(item, key, inbound, self.clock(), raw=head)
        return self.clerk.carry_out(handling, ruling, game)

    def _judge(self, item: Incoming, raw: bytes) -> tuple[Ruling | None, str]:
        """A whole mail: the ruling, carried out, and the folder the mail goes to."""
        inbound = read_message(raw, self.loop_id)
        key = inbound.message_id or _hash_key(raw)
        inbound = replace(inbound, message_id=key)
        if self.spool.notes.seen(key):
            log.info("mail %s (%s) was handled before; filed again", item.id, key)
            return None, "done"
        handling = Handling(item, key, inbound, self.clock(), raw=raw)
        route = None
        if not inbound.automatic:  # an unreadable mail's headers may route it: see judge
            route = self.route(inbound)
        if route is None and not inbound.automatic:
            token = self.confirmation(inbound)
            if token is not None:  # a reply to a confirmation: what it confirms was kept
                pending = self.desk.ledger.pending(token)
                return self._judged(handling, read_confirmation(inbound, token, pending))
        if route is None or not self.store.has(route.game):
            scope: Scope = "referee" if route is None else "invitation"
            return self._judged(handling, read(inbound, route, scope))
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
                return self.clerk.finish_rollback(handling, route.game, rollback)
            else:
                voided = self.spool.outbox.void_unsent(
                    key, "its mail was judged again after a crash"
                )
                if voided:
                    log.info("mail %s: %d letter(s) of a judging cut short set aside", key, voided)
                mail = read(inbound, route, "game")
                handling = replace(handling, lines=mail.lines, answers_turn=route.turn)
                seen = self.desk.snapshot(mail, self.known, handling.now, game)
                ruling = judge(mail, seen, handling.now)
                failpoint("judged")
            return self.clerk.carry_out(handling, ruling, route.game, game)

    def _judged(self, handling: Handling, mail: Received) -> tuple[Ruling, str]:
        """A mail to the referee's own address or to an invitation: judged and carried out."""
        ruling = judge(mail, self.desk.snapshot(mail, self.known, handling.now), handling.now)
        failpoint("judged")
        return self.clerk.carry_out(handling, ruling, None)

    def route(self, inbound: Inbound) -> Route | None:
        """Where a mail goes: the game, the seat and the turn it answers."""
        return find_route(
            inbound.recipients, inbound.in_reply_to, inbound.references, self.known.referee
        )

    def confirmation(self, inbound: Inbound) -> str | None:
        """The token of the confirmation a mail answers, if it answers one of ours."""
        return find_confirmation(
            inbound.recipients, inbound.in_reply_to, inbound.references, self.known.referee
        )

    async def _set_aside(self, item: Incoming, reason: str, game: str | None) -> None:
        """File a mail the service could not handle in quarantine, note it for `referee
        inbox`, and tell its sender (it is not lost) and the game master (how to retry). The
        log says so in one line, naming the mail by its `referee inbox` id. NoRoom when the
        games folder takes no writes: the mail stays in the inbox."""
        try:
            head = await self.inbox.headers(item)
        except (MessageGoneError, TransportError):
            head = b""
        inbound = read_message(head, self.loop_id)
        key = inbound.message_id or f"<aside.{item.id}@referee.invalid>"
        handling = Handling(item, key, inbound, self.clock())
        try:
            if game is None and not inbound.unreadable:
                route = self.route(inbound)
                game = route.game if route else None
            short = self.clerk.note_aside(handling, "set aside", reason, "quarantine", game)
            if game is not None:
                aside = Ruling("ignored", "quarantine", reason)
                handling = replace(handling, raw=head)
                self.clerk.note_trail(handling, aside, game, None, said="set aside")
            log.error(
                "mail %s from %s is set aside: %s; once that is mended: referee inbox retry %s",
                short,
                inbound.sender or "(no sender)",
                reason,
                short,
            )
            self._tell_of_set_aside(handling, short, reason, game)
        except OSError as err:  # the disk itself may be what failed: the log is all there is
            if no_room_on_disk(err):
                raise NoRoom(err) from err
            log.error(
                "mail %s (%s) could not be handled (%s), nor noted for referee inbox (%s): it "
                "stays in quarantine",
                item.id,
                key,
                reason,
                err,
            )
        with contextlib.suppress(MessageGoneError):
            await self.inbox.file(item, "quarantine", self.clock())

    def _tell_of_set_aside(
        self, handling: Handling, short: str, reason: str, game: str | None
    ) -> None:
        inbound, day, notes = handling.inbound, handling.now.date(), self.spool.notes
        letters = []
        master = self.known.game_master
        if master and notes.allow_error_reply(master, f"set-aside:{reason[:200]}", day, short):
            letters.append(set_aside_for_game_master(master, inbound, short, reason, game))
        if (
            inbound.sender
            and not inbound.automatic
            and notes.allow_error_reply(inbound.sender, "set-aside", day, short)
        ):
            letters.append(not_handled(inbound, told_game_master=bool(master)))
        if letters:
            self.spool.outbox.queue(letters)
            self.woken()


def _in_english(letter: Letter) -> Written:
    """A letter worded in English with the shipped templates (made once in a while: for a
    notice sent straight, when the service gave no writer of its own)."""
    return Writer().write(letter)


def _hash_key(raw: bytes) -> str:
    """The key of a mail with no Message-ID: a hash of its bytes."""
    return f"<sha256.{hashlib.sha256(raw).hexdigest()}@referee.invalid>"
