"""The postman: letters out, each worded by the letter writer when it is sent, in order per
address and side by side across addresses, tried again with growing delays, and kept for the
game master when a server refuses it for good.

A server that does not answer at all (it is down, or the way to it) is not the letters'
fault: they wait for it without counting a try, and only the server is tried again, after 1 s,
2 s, 4 s … at most a minute (one connection, see :class:`~referee.mail.state.status.Reach`). Once
it answers, every letter due goes, in order per address. A letter that has waited
QUEUE_LIFETIME for a server that does not answer fails for good, as an MTA gives up on mail
it could not deliver in days.

A letter goes only once what it depends on is written (its turn, or its mail's note: see
:mod:`referee.mail.state.outbox`). Its Message-ID is noted in the player's thread before it is
sent, so that a reply to it is understood even if the service dies the moment it has gone
out; sent again after a crash, it is the same message.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from referee.errors import ConfigurationError, ConflictError, RecordError, StoreError
from referee.failpoints import failpoint
from referee.mail.clerk import Clerk
from referee.mail.reading.routing import (
    confirmation_address,
    confirmation_id,
    message_id,
    player_key,
    reply_address,
)
from referee.mail.state.outbox import Queued, queued_at
from referee.mail.state.status import Reach
from referee.mail.state.trail import LetterLeft
from referee.mail.transports.base import Outlet, SendError, TransportError
from referee.mail.transports.compose import Envelope, to_bytes
from referee.record import load_game
from referee.wording.letter import Letter, Written

log = logging.getLogger("referee.service")

#: A letter still failing after this many tries is kept in failed/ for the game master.
MAX_ATTEMPTS = 8
#: How many letters (to different addresses) are sent at the same time.
SEND_AT_ONCE = 4
#: How long (seconds) a board letter waits for a bot that moves next, so that both turns go
#: in one letter.
HOLD_FOR_BOTS = 60.0
#: The letters that show a player the board of a game as it stands: the welcome (turn 0) and
#: the board after each turn. One still waiting when a later one of its game comes to the
#: same reader is merged into it (see :func:`merged`).
BOARD_KINDS = frozenset({"welcome", "turn"})
#: A letter still waiting this long after it was queued, for a server that does not answer,
#: fails for good (Postfix's maximal_queue_lifetime is 5 days too).
QUEUE_LIFETIME = timedelta(days=5)


def retry_delay(attempts: int, first: float = 5.0) -> float:
    """Seconds to wait before try number ``attempts + 1``: ``first`` (smtp.retry_seconds),
    doubling, at most an hour."""
    return float(min(first * 2**attempts, 3600))


@dataclass(frozen=True)
class Sender:
    """Who the letters come from: the referee's address, the routing secret behind each
    player's reply address, and the loop id our own mail carries."""

    address: str
    secret: bytes
    loop_id: str


class Postman:
    """Sends the letters of one games folder's outbox through a transport's outlet."""

    def __init__(
        self,
        outlet: Outlet,
        clerk: Clerk,
        word: Callable[[Letter], Written],
        sender: Sender,
        sending: Reach,
        retry_seconds: float = 5.0,
    ) -> None:
        """``clerk``: whose games folder, mail state, status and clock these are; ``word``:
        a letter in words, for its reader (when it is sent); ``sending``: the SMTP server's
        state, shared with the service, which found it at the start; ``retry_seconds``: the
        first wait before a letter a server put off is tried again."""
        self.outlet = outlet
        self.sending = sending
        self.retry_seconds = retry_seconds
        self.spool = clerk.spool
        self.store = clerk.store
        self.word = word
        self.status = clerk.status
        self.clock = clerk.clock
        self.address, self.secret, self.loop_id = sender.address, sender.secret, sender.loop_id
        self._left: dict[str, list[LetterLeft]] = {}  # letters of this look, for the trails
        self._bot_names: dict[str, frozenset[str]] = {}  # by game

    async def send_pending(self) -> int:
        """Send every letter that is due; how many went out. Letters to one address go in
        the order they were queued; letters to different addresses go side by side, over up
        to SEND_AT_ONCE connections. While the server cannot be reached, none is tried (see
        :meth:`_can_send`)."""
        try:
            if not await self._can_send():
                return 0
            return await self._send_due()
        finally:
            self._note_letters_left()

    async def _can_send(self) -> bool:
        """Whether to send now: yes, unless the server could not be reached at the last try;
        then not before the next try is due, and only if the server answers it (one
        connection and login, kept for the letters). Each try that fails fails for good the
        letters that have waited QUEUE_LIFETIME."""
        if not self.sending.unreachable:
            return True
        if self.sending.wait() > 0:
            return False
        try:
            await self.outlet.check_sending()
        except TransportError as err:
            self.sending.lost(str(err))
            self._give_up_on_old(str(err))
            return False
        except ConfigurationError:
            pass  # it answers, refusing the login: each letter says so, and counts a try
        self.sending.reached()
        return True

    async def _send_due(self) -> int:
        now = time.time()
        pending = self.spool.outbox.pending()
        latest: dict[tuple[str, int], int] = {}  # the latest board queued, by game and seat
        for queued in pending:
            if queued.letter.kind in BOARD_KINDS and queued.letter.seat is not None:
                key = (queued.letter.game, queued.letter.seat)
                latest[key] = max(latest.get(key, 0), queued.letter.turn)
        due: dict[str, list[Queued]] = {}
        waiting: set[str] = set()  # addresses whose earlier letter waits to be tried again
        for queued in pending:
            address = queued.letter.to.lower()
            if queued.not_before > now or address in waiting:
                waiting.add(address)
                continue
            committed = self.spool.outbox.committed(queued)
            if committed is None and self._never_written(queued):
                committed = False
            if committed is None:
                waiting.add(address)  # its turn (or its mail's note) is being written
                continue
            if committed is False:
                self.spool.outbox.settle(queued, "void", error=_why_void(queued))
                continue
            if self._bot_moves_next(queued, now, latest):
                waiting.add(address)  # the bot's turn follows at once: one letter for both
                continue
            due.setdefault(address, []).append(queued)
        at_once = asyncio.Semaphore(SEND_AT_ONCE)

        async def send_in_order(letters: list[Queued]) -> int:
            async with at_once:
                sent = 0
                for queued, overtaken in merged(letters):
                    if self.sending.unreachable:
                        break  # the server went away: every letter waits for it
                    if await self.send(queued, overtaken):
                        sent += 1
                    elif queued.path.exists():
                        break  # to be tried again: the letters after it wait their turn
                return sent

        return sum(await asyncio.gather(*(send_in_order(group) for group in due.values())))

    def _give_up_on_old(self, error: str) -> None:
        """Fail for good every letter due that has waited QUEUE_LIFETIME since it was
        queued, for a server that still does not answer (``error``)."""
        for queued in self.spool.outbox.pending():
            if not _outlived(queued) or self.spool.outbox.committed(queued) is not True:
                continue  # (a letter never to go, or not yet, is not this look's to settle)
            subject = queued.written.subject if queued.written else ""
            own_id = self.envelope(queued).message_id
            self._fail(queued, (), own_id, subject, _too_late(error), queued.attempts)

    def _bot_moves_next(
        self, queued: Queued, now: float, latest: dict[tuple[str, int], int]
    ) -> bool:
        """Whether a board letter (the welcome too: a game whose bot moves first) should wait
        a moment: it is the latest board of its game to its reader, and a bot is to move
        there, whose turn will overtake it (merged into one, see :func:`merged`). Never
        longer than HOLD_FOR_BOTS after it was queued."""
        letter = queued.letter
        if letter.kind not in BOARD_KINDS or letter.seat is None or letter.board is None:
            return False
        if latest.get((letter.game, letter.seat), letter.turn) > letter.turn:
            return False  # overtaken already: it goes now, merged
        stamp = queued_at(queued.path)
        if stamp is None or now - stamp.timestamp() > HOLD_FOR_BOTS:
            return False
        shown = letter.board.view
        return shown.status != "finished" and shown.to_move in self._bots(letter.game)

    def _bots(self, game: str) -> frozenset[str]:
        """The names of a game's seats played by bots (read once: a game's seats never
        change hands between a bot and a person)."""
        known = self._bot_names.get(game)
        if known is None:
            try:
                record = load_game((self.store.folder(game) / "game.toml").read_bytes())
                known = frozenset(p.name for p in record.players if p.bot)
            except (OSError, RecordError, StoreError):
                known = frozenset()
            self._bot_names[game] = known
        return known

    def _settle_merged(self, earlier: Queued, into: Queued) -> None:
        """A letter overtaken by a later one to the same reader, which told what it said."""
        message_id = self.envelope(into).message_id
        self.spool.outbox.settle(earlier, "sent", merged_into=message_id)
        told = f"told in the letter of turn {into.letter.turn}"
        self._note_trail(earlier, message_id, "", "merged", told, tries=0)

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
                return self.spool.outbox.committed(queued) is None
        except ConflictError:
            return False  # being written now

    async def send(self, queued: Queued, overtaken: Sequence[Queued] = ()) -> bool:
        """Send one letter (which tells for the ``overtaken`` letters too: see merged). Its
        Message-ID is noted in the player's thread first, so that a reply to it is understood
        even if the service dies the moment it has gone out. The overtaken letters are settled
        before it, whether it went or failed for good: a crash in between sends it again,
        never an overtaken board alone."""
        mail = queued.letter
        written = queued.written or self.word(mail)
        envelope = self.envelope(queued)
        if mail.seat is not None:
            self.spool.threads.extend_thread(mail.game, mail.seat, envelope.message_id)
            failpoint("thread-noted")
        try:
            await self.outlet.send(self.address, mail.to, to_bytes(written, envelope))
        except SendError as err:
            if err.unreachable:
                self.sending.lost(str(err))
                if not _outlived(queued):
                    return False  # not the letter's fault: it waits for the server, untried
            tries = queued.attempts + (0 if err.unreachable else 1)
            why = _too_late(str(err)) if err.unreachable else str(err)
            if err.unreachable or err.permanent or tries >= MAX_ATTEMPTS:
                self._fail(queued, overtaken, envelope.message_id, written.subject, why, tries)
            else:
                delay = retry_delay(queued.attempts, self.retry_seconds)
                self.spool.outbox.retry_later(queued, str(err), delay)
                log.warning("letter to %s not sent yet (%s); will try again", mail.to, err)
            return False
        failpoint("sent")
        for earlier in overtaken:
            self._settle_merged(earlier, queued)
        self._note_trail(queued, envelope.message_id, written.subject, "sent")
        self.spool.outbox.settle(queued, "sent")
        log.info("letter to %s sent: %s", mail.to, written.subject)
        self.status.set(
            self.clock(),
            last_sent={"at": self.clock().isoformat(), "to": mail.to, "subject": written.subject},
        )
        return True

    def _fail(
        self,
        queued: Queued,
        overtaken: Sequence[Queued],
        own_id: str,
        subject: str,
        error: str,
        tries: int,
    ) -> None:
        """A letter failed for good (and the letters it told for): kept in failed/ for the
        game master, with ``error`` and its ``tries``; in its game's trail (with its
        Message-ID ``own_id``); and in the log."""
        for earlier in overtaken:
            self.spool.outbox.settle(earlier, "failed", error=f"merged: {error}")
        self.spool.outbox.settle(queued, "failed", error=error, attempts=tries)
        self._note_trail(queued, own_id, subject, "failed", error, tries=tries)
        log.error("letter to %s failed for good: %s", queued.letter.to, error)

    def _note_trail(
        self,
        queued: Queued,
        message_id: str,
        subject: str,
        ruling: str,
        error: str | None = None,
        tries: int | None = None,
    ) -> None:
        """Keep a letter of a game in its trail: when it was queued and left (``ruling``:
        sent, failed, merged), its Message-ID and subject, to whom, after how many tries."""
        mail = queued.letter
        left = LetterLeft(
            at=self.clock(),
            queued_at=queued_at(queued.path),
            to=mail.to,
            message_id=message_id,
            subject=subject,
            kind=mail.kind,
            turn=mail.turn,
            tries=queued.attempts + 1 if tries is None else tries,
            ruling=ruling,
            error=error,
        )
        self._left.setdefault(mail.game, []).append(left)

    def _note_letters_left(self) -> None:
        """Keep in each game's trail the letters of this look (one file a game)."""
        left, self._left = self._left, {}
        for game, letters in left.items():
            try:
                self.spool.trail.note_letters(game, letters)
            except OSError as err:  # the trail is worth a line, never a letter
                log.warning("the trail of game %s could not be written: %s", game, err)

    def envelope(self, queued: Queued) -> Envelope:
        """Our address, the player's reply address, a Message-ID carrying their route (the
        same each time this letter is sent), and the threading of their conversation."""
        mail = queued.letter
        address = self.address
        now = self.clock()
        if mail.seat is None:
            return notice_envelope(address, mail, queued.key, self.loop_id, now)
        key = player_key(self.secret, mail.game, mail.seat, mail.to)
        own = message_id(address, mail.game, mail.seat, key, mail.turn, unique=queued.key)
        thread = [m for m in self.spool.threads.thread(mail.game, mail.seat) if m != own]
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


def notice_envelope(
    address: str, letter: Letter, key: str, loop_id: str, date: datetime
) -> Envelope:
    """The envelope of a letter to someone outside a game (an answer, a notice to the game
    master), from ``address``: a Message-ID of its own made from ``key`` (a confirmation's
    carries its token, and its Reply-To brings the reply back with it), answering the mail
    it answers."""
    token = letter.confirms
    return Envelope(
        sender=address,
        message_id=confirmation_id(address, token, key)
        if token
        else f"<notice.{key}@{address.partition('@')[2]}>",
        reply_to=confirmation_address(address, token) if token else None,
        in_reply_to=letter.answers,
        references=[letter.answers] if letter.answers else [],
        loop_id=loop_id,
        date=date,
    )


def merged(letters: list[Queued]) -> list[tuple[Queued, list[Queued]]]:
    """Letters to one reader in the order queued, each board letter of a game that a later
    board letter of the same game and seat overtakes before it leaves merged into that one:
    it tells what happened at every turn since, then the board (after the welcome and how
    to move, when the welcome is overtaken). Each letter to send, with the letters it tells
    for."""
    out: list[tuple[Queued, list[Queued]]] = []
    for queued in letters:
        if out and _overtakes(queued, out[-1][0]):
            earlier, before = out.pop()
            said = tuple(m for m in earlier.letter.says if m.code in TOLD_AGAIN)
            letter = replace(
                queued.letter,
                says=said + queued.letter.says,
                help=queued.letter.help or earlier.letter.help,
                answers=queued.letter.answers or earlier.letter.answers,
            )
            out.append((replace(queued, letter=letter), [*before, earlier]))
        else:
            out.append((queued, []))
    return out


#: What a board letter overtaken by a later one still tells, in the later one: each turn,
#: and the welcome (who plays, in what order, to how many points; not who moves first: the
#: turns since say it).
TOLD_AGAIN = frozenset({"letter.welcome", "letter.turn", "letter.ruling"})


def _overtakes(later: Queued, earlier: Queued) -> bool:
    a, b = later.letter, earlier.letter
    return (
        a.kind == "turn"
        and b.kind in BOARD_KINDS
        and a.game == b.game
        and a.seat == b.seat
        and a.seat is not None
        and a.turn > b.turn
        and later.written is None
        and earlier.written is None
    )


def _outlived(queued: Queued) -> bool:
    """Whether a letter was queued more than QUEUE_LIFETIME ago."""
    stamp = queued_at(queued.path)
    return stamp is not None and time.time() - stamp.timestamp() > QUEUE_LIFETIME.total_seconds()


def _too_late(error: str) -> str:
    """Why a letter that waited QUEUE_LIFETIME for a server fails for good."""
    return f"not sent in {QUEUE_LIFETIME.days} days, the server not answering: {error}"


def _why_void(queued: Queued) -> str:
    """Why a letter will never go out (see Outbox.committed)."""
    if queued.commit is not None:
        return "its turn was never written, or its turn file is another's"
    return "its mail was judged again after a crash, and answered by other letters"
