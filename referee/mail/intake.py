"""The intake: mail in, each judged once and filed.

Each mail is handled once: its Message-ID (or, lacking one, a hash of its bytes) is checked
against the turns of its game (and those a rollback undid) and the service's notes of handled
mail before it is judged; the clerk records the ruling. A mail the service cannot handle now
is set aside in quarantine, its sender and the game master told, until the game master hands
it back (``referee inbox retry``). Judging runs on the service's one judging thread, so that
letters keep going out on the event loop meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import replace
from datetime import datetime

from referee.errors import ConflictError, RecordError, StoreError
from referee.failpoints import failpoint
from referee.judge import Received, Ruling, judge, oversized, read
from referee.mail.clerk import Clerk, Handling
from referee.mail.commands import Scope
from referee.mail.desk import Desk
from referee.mail.facts import Snapshot
from referee.mail.inbound import Inbound, read_message
from referee.mail.notices import not_handled, set_aside_for_game_master
from referee.mail.routing import Route, find_route
from referee.mail.spool import Spool
from referee.mail.transport import Incoming, MessageGoneError, Transport, TransportError

log = logging.getLogger("referee.service")


class SetAside(Exception):  # noqa: N818 (not an error of the mail: what is done with it)
    """A mail the service cannot handle now (its game cannot be read): set aside, its sender
    and the game master told."""

    def __init__(self, reason: str, game: str | None) -> None:
        super().__init__(reason)
        self.game = game


class Intake:
    """Reads a transport's mail, judges each once, and hands the rulings to the clerk.

    ``known`` is what every judging knows (the referee's address and secret, who may play);
    ``woken`` is called when letters may be waiting to go out."""

    def __init__(
        self,
        transport: Transport,
        clerk: Clerk,
        known: Snapshot,
        loop_id: str,
        max_bytes: int,
        woken: Callable[[], None],
    ) -> None:
        self.transport = transport
        self.clerk = clerk
        self.desk: Desk = clerk.desk
        self.store = clerk.store
        self.spool: Spool = clerk.spool
        self.known = known
        self.loop_id = loop_id
        self.max_bytes = max_bytes
        self.woken = woken
        self.judging: Executor | None = None  # the service's judging thread, while it runs

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.clerk.clock

    async def receive(self) -> int:
        """Handle every mail waiting (and those a game master handed back); how many."""
        await self._hand_back()
        items = await self.transport.incoming()
        try:
            for item in items:
                await self._handle_one(item)
        finally:
            if items:
                await self.transport.flush()
        return len(items)

    async def _hand_back(self) -> None:
        """Move the mails a game master asked to have read again (`referee inbox retry`)
        back into the inbox: their "seen" note goes first, the request last, so that a
        crash in between leaves the request to be carried out again."""
        notes = self.spool.notes
        for asked in notes.retries():
            mail, folder = str(asked["mail"]), str(asked.get("folder", "quarantine"))
            notes.forget_seen(mail)
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
            notes.forget(mail)

    async def _handle_one(self, item: Incoming) -> None:
        try:
            await self.handle(item)
            self.woken()  # its letters may go out while the next mail is judged
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

    async def handle(self, item: Incoming) -> Ruling | None:
        """Judge one mail, carry out the ruling, file the mail. None: handled before."""
        loop = asyncio.get_running_loop()
        if item.size > self.max_bytes:
            head = await self.transport.headers(item)
            ruling, folder = await loop.run_in_executor(
                self.judging, self._judge_oversized, item, head
            )
        else:
            raw = await self.transport.fetch(item)
            ruling, folder = await loop.run_in_executor(self.judging, self._judge, item, raw)
        await self.transport.file(item, folder)
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


def _hash_key(raw: bytes) -> str:
    """The key of a mail with no Message-ID: a hash of its bytes."""
    return f"<sha256.{hashlib.sha256(raw).hexdigest()}@referee.invalid>"
