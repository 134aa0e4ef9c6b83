"""What a mail command is given (a :class:`Context`) and what it gives back (a ruling with
:class:`Effect` s): commands read, never write; the service carries their effects out.

Effects are the few changes a command can ask for, each idempotent, so that a mail judged
again after a crash changes nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from referee.addresses import Addresses
from referee.games import Played
from referee.invitations import Invitation, Invitations, Status
from referee.mail.compose import Letter
from referee.mail.deadlines import due_words
from referee.mail.inbound import Inbound
from referee.mail.ledger import Ledger, UndoRequest
from referee.record import GameRecord, Replayed
from referee.store import Store

if TYPE_CHECKING:
    from referee.mail.commands import Scope


@dataclass(frozen=True)
class Desk:
    """What the service knows beyond one game, to read: the games, the invitations, the
    ledger of who is away and who watches, its own address and game master, and which
    addresses may play."""

    store: Store
    invitations: Invitations
    ledger: Ledger
    address: str
    game_master: str | None = None
    addresses: Addresses = field(default_factory=Addresses)


@dataclass(frozen=True)
class Context:
    """One mail, read, and everything known where it was sent.

    ``scope`` is where the mail was written: to the referee's own address (``referee``), as a
    reply in a game (``game``: ``game`` and ``seat`` set, the sender proven to be that
    player), or as a reply to an invitation (``invitation``: ``invitation`` and ``seat``)."""

    scope: Scope
    inbound: Inbound
    now: datetime
    desk: Desk
    secret: bytes
    game: Replayed | None = None
    seat: int | None = None
    route_turn: int | None = None
    invitation: Invitation | None = None
    lines: tuple[str, ...] = ()  # what the person wrote, read (quotes and footers left out)

    @property
    def sender(self) -> str:
        return self.inbound.sender

    @property
    def record(self) -> GameRecord:
        assert self.game is not None
        return self.game.record

    @property
    def due(self) -> str:
        """When the move now awaited in the game is due, in words ("" when none is)."""
        if self.game is None:
            return ""
        return due_words(self.game, self.desk.ledger)

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


Effect = (
    SetAway
    | EndAway
    | Watch
    | Unwatch
    | SetUndo
    | RollBack
    | Propose
    | AnswerInvitation
    | EndInvitation
    | CreateGame
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
