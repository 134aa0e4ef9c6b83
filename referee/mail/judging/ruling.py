"""What a mail command is given (a :class:`Context`) and what it gives back (a ruling with
:class:`Effect` s): commands read, never write; the service carries their effects out.

Effects are the few changes a command can ask for, each idempotent, so that a mail judged
again after a crash changes nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from referee.games import Played
from referee.invitations import Invitation, Status
from referee.mail.judging.facts import GameFacts, Snapshot
from referee.mail.reading.inbound import Inbound
from referee.mail.state.ledger import AskedReading, Pending, UndoRequest
from referee.record import GameRecord, Replayed
from referee.wording.letter import Letter

#: Where a mail was written: to the referee's own address, as a reply in a game, or as a
#: reply to an invitation.
Scope = Literal["referee", "game", "invitation"]
SCOPES: tuple[Scope, ...] = ("referee", "game", "invitation")


@dataclass(frozen=True)
class Context:
    """One mail, read, and what was known when it was judged.

    ``scope`` is where the mail was written: to the referee's own address (``referee``), as a
    reply in a game (``game``: ``seen.game`` and ``seat`` set, the sender proven to be that
    player), or as a reply to an invitation (``invitation``: ``seen.invitation`` and
    ``seat``). ``seen`` is the snapshot of everything a command may read; a command reads
    nothing else."""

    scope: Scope
    inbound: Inbound
    now: datetime
    seen: Snapshot
    seat: int | None = None
    route_turn: int | None = None
    lines: tuple[str, ...] = ()  # what the person wrote, read (quotes and footers left out)

    @property
    def sender(self) -> str:
        return self.inbound.sender

    @property
    def facts(self) -> GameFacts | None:
        """The game the mail was written in, with what the service keeps about it."""
        return self.seen.game

    @property
    def game(self) -> Replayed | None:
        return self.seen.game.game if self.seen.game is not None else None

    @property
    def invitation(self) -> Invitation | None:
        return self.seen.invitation

    @property
    def secret(self) -> bytes:
        return self.seen.secret

    @property
    def record(self) -> GameRecord:
        assert self.game is not None
        return self.game.record

    @property
    def due(self) -> str | None:
        """When the move now awaited in the game is due (ISO 8601; None when none is)."""
        if self.seen.game is None:
            return None
        due = self.seen.game.due()
        return due.isoformat() if due is not None else None

    @property
    def name(self) -> str:
        """The sender's name in their game."""
        assert self.game is not None and self.seat is not None
        return self.game.record.players[self.seat].name


# -- effects ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetAway:
    address: str
    since: datetime
    until: datetime


@dataclass(frozen=True)
class EndAway:
    address: str
    at: datetime


@dataclass(frozen=True)
class Watch:
    game: str
    address: str


@dataclass(frozen=True)
class Unwatch:
    game: str
    address: str


@dataclass(frozen=True)
class SetUndo:
    """Open (or, with ``request`` None, close) a game's undo request."""

    game: str
    request: UndoRequest | None


@dataclass(frozen=True)
class AskReading:
    """Keep the move read in the reply of ``seat`` in ``game`` and asked about (None:
    forget it, once it is played)."""

    game: str
    seat: int
    reading: AskedReading | None


@dataclass(frozen=True)
class RollBack:
    """Take back every turn after ``to`` (the game's lock is held by the service), at the
    request of the mail ``mail`` (its Message-ID), named in the rollback's note."""

    game: str
    to: int
    reason: str
    mail: str | None = None


@dataclass(frozen=True)
class Propose:
    invitation: Invitation


@dataclass(frozen=True)
class AnswerInvitation:
    game: str
    seat: int
    accepted: bool
    name: str
    mail: str
    at: datetime


@dataclass(frozen=True)
class EndInvitation:
    game: str
    status: Status
    why: str
    at: datetime


@dataclass(frozen=True)
class CreateGame:
    """Write a new game's record (a game proposed by mail, all its players agreed)."""

    record: GameRecord


@dataclass(frozen=True)
class Choose:
    """``address`` chose the language of their letters, their time zone, or how much mail
    they get."""

    address: str
    language: str | None = None
    timezone: str | None = None
    mail: str | None = None


@dataclass(frozen=True)
class AskConfirmation:
    """Keep a command written to the referee's own address until its address confirms it."""

    pending: Pending


@dataclass(frozen=True)
class EndConfirmation:
    """A command was confirmed: its confirmation counts no more."""

    token: str


Effect = (
    SetAway
    | EndAway
    | Watch
    | Unwatch
    | SetUndo
    | AskReading
    | RollBack
    | Propose
    | AnswerInvitation
    | EndInvitation
    | CreateGame
    | Choose
    | AskConfirmation
    | EndConfirmation
)


Folder = Literal["done", "refused", "quarantine"]


@dataclass(frozen=True)
class Ruling:
    """What to do with one mail: the turn it plays (``played``), the letters that answer it,
    the effects to carry out, and the folder the mail is filed in. ``limit`` names the kind of
    error reply, when the letters are error replies that go out at most once a day per sender
    and kind."""

    outcome: Literal["played", "answered", "refused", "ignored"]
    folder: Folder
    note: str
    played: Played | None = None
    letters: list[Letter] = field(default_factory=list)
    limit: str | None = None
    effects: list[Effect] = field(default_factory=list)
    #: Whether a mail refused or ignored is listed by `referee inbox` (all are, but the
    #: doctor's own test mail: nothing for the game master to see there)
    listed: bool = True
