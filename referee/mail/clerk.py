"""Carrying a ruling out: its turn and the letters that announce it committed together, or
the letters that answer the mail, the effects a command asked for, and the note that the mail
was handled, in an order that a crash at any instant cannot turn into a move lost or played
twice, or an answer lost (see :mod:`referee.mail.state.outbox`)."""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from referee.errors import ConflictError, RecordError, StoreError
from referee.failpoints import failpoint
from referee.games import Played, commit_turn
from referee.mail.desk import Desk
from referee.mail.judging.judge import Ruling
from referee.mail.judging.ruling import (
    AnswerInvitation,
    AskConfirmation,
    AskReading,
    Choose,
    CreateGame,
    Effect,
    EndAway,
    EndConfirmation,
    EndInvitation,
    Propose,
    RollBack,
    SetAway,
    SetUndo,
    Unwatch,
    Watch,
)
from referee.mail.reading.inbound import Inbound
from referee.mail.state.outbox import Answer, Commit
from referee.mail.state.spool import Spool
from referee.mail.state.status import StatusBoard
from referee.mail.state.trail import MailRead
from referee.mail.transports.base import Incoming
from referee.record import Replayed, dump
from referee.store import no_room_on_disk
from referee.wording.letter import Letter

log = logging.getLogger("referee.service")


@dataclass(frozen=True)
class Handling:
    """One mail being handled: the transport's handle of it, its key (Message-ID, or a hash
    of its bytes), what was read of it, and when it is handled."""

    item: Incoming
    key: str
    inbound: Inbound
    now: datetime
    #: The mail as it arrived (for its game's trail), and the lines read of it.
    raw: bytes | None = None
    lines: tuple[str, ...] = ()
    answers_turn: int | None = None


class Clerk:
    """Records what rulings decide, in the games folder and its mail state."""

    def __init__(
        self,
        desk: Desk,
        spool: Spool,
        status: StatusBoard,
        clock: Callable[[], datetime],
        woken: Callable[[], None] = lambda: None,
    ) -> None:
        """``woken`` is called when letters the clerk queued may be waiting to go out (the
        service's postman then looks)."""
        self.desk = desk
        self.store = desk.store
        self.spool = spool
        self.status = status
        self.clock = clock
        self.woken = woken

    def carry_out(
        self, mail: Handling, ruling: Ruling, game: str | None, seen: Replayed | None = None
    ) -> tuple[Ruling, str]:
        """Record a ruling: its turn or its letters, then the game's trail (``seen``: the
        game as it was judged) and the note for `referee inbox` of a mail not played, then
        the note that the mail was handled, last.

        Letters of a turn are committed with the turn (see :func:`commit_turn`); any other
        letters wait for the mail's note, which names their batch. A once-a-day limit's note
        names the mail, so that the same mail judged again after a crash is still answered.
        Should a write fail (a full disk), every letter not committed is set aside, and the
        mail, judged again, is recorded whole: a failure is a crash the service lives
        through."""
        key, outbox, notes = mail.key, self.spool.outbox, self.spool.notes
        letters = [replace(letter, origin=key) for letter in ruling.letters]
        if ruling.limit and letters:
            if not notes.allow_error_reply(letters[0].to, ruling.limit, mail.now.date(), key):
                log.info("no reply to %s: already told today (%s)", letters[0].to, ruling.limit)
                letters = []
            failpoint("limit-noted")
        batch = None
        try:
            if ruling.played is not None and game is not None:
                commit_turn(
                    self.store, game, ruling.played, self.announce(game, ruling.played, letters)
                )
                failpoint("turn-written")
            elif letters:
                batch = uuid.uuid4().hex[:12]
                outbox.queue(letters, answer=Answer(key, batch))
                failpoint("queued")
            self.apply(ruling.effects)
            failpoint("effects-done")
            if game is not None:
                self.note_trail(mail, ruling, game, seen)
            if ruling.outcome in ("refused", "ignored") and ruling.listed:
                self.note_aside(mail, ruling.outcome, ruling.note, ruling.folder, game)
            # a move is recorded in its game's turns (or archive), which are checked too:
            # its note here need not be flushed to disk; every other outcome's must
            notes.mark_seen(
                key,
                f"{ruling.outcome}: {ruling.note} (as {mail.item.id})",
                game=game,
                batch=batch,
                at=mail.now,
                durable=ruling.outcome != "played",
            )
            failpoint("seen-noted")
        except Exception:
            self._void_letters_of(key)
            raise
        log.info("mail %s: %s: %s", key, ruling.outcome, ruling.note)
        self.status.set(  # at once, before the mail is filed: `referee status` is never behind
            mail.now,
            force=True,
            last_mail={"at": mail.now.isoformat(), "mail": key, "outcome": ruling.outcome,
                       "note": ruling.note},
        )  # fmt: skip
        return ruling, ruling.folder

    def _void_letters_of(self, key: str) -> None:
        """Set aside the letters queued for mail ``key`` whose ruling could not be recorded
        whole (those of a turn written go out). On a full disk the note of why cannot be
        written, so they are moved as they are: a letter left waiting could go out beside
        the ones the mail is answered with when it is judged again."""
        outbox, why = self.spool.outbox, "its mail could not be recorded"
        try:
            outbox.void_letters_of(key, why)
            return
        except OSError:
            pass  # (the intake tells of the full disk, once)
        for queued in outbox.pending():
            if queued.letter.origin == key and outbox.committed(queued) is not True:
                try:
                    outbox.settle(queued, "void")
                except OSError as err:
                    log.error(
                        "letter %s of mail %s could not be set aside (%s): if it is still in "
                        ".mail/outbox/ when the mail has been answered, remove it by hand",
                        queued.path.name,
                        key,
                        err,
                    )

    def finish_rollback(
        self, mail: Handling, game: str, rollback: dict[str, object]
    ) -> tuple[Ruling, str]:
        """A mail whose rollback (an undo all agreed to) was begun before a crash: judged
        again it would find no undo waiting, so its rollback is finished instead, and the
        letters queued with it, which tell every player, are the answer that goes out."""
        to, reason = rollback["to"], rollback["reason"]
        assert isinstance(to, int) and isinstance(reason, str)
        self.store.resume_rollback(game, rollback)
        self.apply([RollBack(game, to, reason, mail.key), SetUndo(game, None)])
        failpoint("effects-done")
        ruling = Ruling("answered", "done", f"back at turn {to}, finished after a crash")
        self.spool.notes.mark_seen(
            mail.key,
            f"{ruling.outcome}: {ruling.note} (as {mail.item.id})",
            game=game,
            batch=self.spool.outbox.batch_of(mail.key),
            at=mail.now,
        )
        failpoint("seen-noted")
        log.info("mail %s: %s", mail.key, ruling.note)
        return ruling, ruling.folder

    def note_trail(
        self,
        mail: Handling,
        ruling: Ruling,
        game: str,
        seen: Replayed | None,
        said: str | None = None,
    ) -> None:
        """Keep the mail and its ruling in its game's trail (bounded: see Trail); ``said``:
        the ruling's name there, when it is not the outcome's (a mail set aside)."""
        if ruling.played is not None:
            turn: int | None = ruling.played.turn.turn
        else:
            turn = seen.state.turn if seen is not None else None
        if said is None:
            stale = any(letter.kind == "stale" for letter in ruling.letters)
            said = "stale" if stale else ruling.outcome
        if seen is None:  # a mail set aside, or too large to read: the game, if it reads
            with contextlib.suppress(RecordError, StoreError, OSError):
                seen = self.store.load(game)
        players = [p.email for p in seen.record.players] if seen is not None else []
        read = MailRead(
            at=mail.now,
            sender=mail.inbound.sender,
            message_id=mail.key,
            subject=mail.inbound.subject,
            lines=mail.lines,
            ruling=said,
            why=ruling.note,
            turn=turn,
            answers_turn=mail.answers_turn,
            handled_as=mail.item.id,
            dated=mail.inbound.dated,
            received=mail.inbound.received,
        )
        try:
            self.spool.trail.note_mail(game, read, players, mail.raw)
        except OSError as err:  # the trail is worth a line, never a move or an answer
            if no_room_on_disk(err):
                raise  # the mail waits for room (see Intake), and its entry is not lost
            log.warning("the trail of game %s could not note mail %s: %s", game, mail.key, err)

    def note_aside(
        self, mail: Handling, kind: str, reason: str, folder: str, game: str | None
    ) -> str:
        """Note a mail not played for `referee inbox` (``kind``: set aside, refused or
        ignored), filed in ``folder``; its short id."""
        record = {
            "kind": kind,
            "reason": reason,
            "folder": folder,
            "item": mail.item.id,
            "sender": mail.inbound.sender,
            "subject": mail.inbound.subject,
            "game": game,
            "at": mail.now.isoformat(),
        }
        return self.spool.notes.note_aside(mail.key, record)

    def announce(
        self, game: str, played: Played, letters: list[Letter]
    ) -> Callable[[str], None] | None:
        """How a turn's letters are queued before its file is written (see commit_turn)."""
        if not letters:
            return None

        def queue(sha256: str) -> None:
            self.spool.outbox.queue(letters, Commit(game, played.turn.turn, sha256))
            failpoint("queued")

        return queue

    def apply(self, effects: list[Effect]) -> None:
        """Carry out what a command asked for. Each effect is idempotent: a mail judged again
        after a crash changes nothing twice."""
        ledger, invitations = self.desk.ledger, self.desk.invitations
        for effect in effects:
            match effect:
                case SetAway(address, since, until):
                    ledger.set_away(address, since, until)
                case Choose(address, language, timezone, mail):
                    ledger.choose(address, language=language, timezone=timezone, mail=mail)
                case AskConfirmation(pending):
                    ledger.ask_confirmation(pending)
                case EndConfirmation(token):
                    ledger.end_confirmation(token)
                case EndAway(address, at):
                    ledger.end_away(address, at)
                case Watch(game, address):
                    ledger.watch(game, address)
                case Unwatch(game, address):
                    ledger.unwatch(game, address)
                case SetUndo(game, request):
                    ledger.set_undo_request(request, game)
                case AskReading(game, seat, reading):
                    ledger.set_reading(game, seat, reading)
                case RollBack(game, to, reason, mail):
                    last = len(self.store.load(game).turns)
                    if last > to:  # the game's lock is held: see Intake.judge
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
