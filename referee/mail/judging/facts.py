"""What the judge knows beyond a mail, as data: a snapshot taken by the service before it
judges, so that judging reads no disk.

:class:`GameFacts` is what the service keeps about one game beside its record (who watches
it, when it was last rolled back, its players' times away, an undo asked for);
:class:`Snapshot` is all the judge may need for one mail: the game it is routed to, the
invitation it answers, and, for the commands that ask for them, the sender's games and
invitations and a game named in the command.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from referee.addresses import Addresses
from referee.finish import Finish
from referee.invitations import Invitation
from referee.mail.state.ledger import AskedReading, Away, Pending, UndoRequest, paused
from referee.record import Replayed
from referee.shards import Shards


@dataclass(frozen=True)
class GameFacts:
    """One game with what the service keeps about it beside its record."""

    game: Replayed
    watchers: tuple[str, ...] = ()
    restarted: datetime | None = None
    aways: Mapping[str, tuple[Away, ...]] = field(default_factory=dict)  # by address, lower
    undo: UndoRequest | None = None
    #: The moves read in a player's reply and asked about, by seat (``yes`` plays one)
    readings: Mapping[int, AskedReading] = field(default_factory=dict)
    #: How much mail each player chose (by address, lower): every-turn when not given.
    mail: Mapping[str, str] = field(default_factory=dict)

    def mail_of(self, address: str) -> str:
        """How much mail ``address`` gets: every-turn, my-turn or digest."""
        return self.mail.get(address.lower(), "every-turn")

    def due(self, game: Replayed | None = None) -> datetime | None:
        """When the move awaited in ``game`` (this game, or this game after more turns) is
        due: the time per move from when the move came (or from the last rollback), paused
        while its player is away; None when the game is over."""
        shown = self.game if game is None else game
        state = shown.state
        if state.status == "finished":
            return None
        since = shown.turns[-1].at if shown.turns else shown.record.created
        if self.restarted is not None and self.restarted > since:
            since = self.restarted
        email = shown.record.players[state.to_move].email.lower()
        return paused(since, shown.record.time_per_move, list(self.aways.get(email, ())))

    def asked(self, seat: int) -> AskedReading | None:
        """The reading asked of ``seat`` at the game's turn now (None: none, or one of an
        earlier turn, which lapsed when the game moved on)."""
        reading = self.readings.get(seat)
        if reading is None or reading.turn != self.game.state.turn:
            return None
        return reading

    def away_until(self, address: str, now: datetime) -> datetime | None:
        """When ``address`` comes back, if they are away at ``now``."""
        for a in self.aways.get(address.lower(), ()):
            if a.since <= now < a.until:
                return a.until
        return None


@dataclass(frozen=True)
class Snapshot:
    """Everything judging one mail may read, taken before it is judged.

    ``referee`` is the referee's own address; ``secret`` the routing secret; ``addresses``
    who may play; ``game`` the game the mail is routed to (with its facts), ``invitation``
    the invitation it answers; ``sender_away`` when the sender comes back, if away. The
    rest is filled in only for a command that asks for it (see
    :attr:`referee.mail.judging.commands.Command.needs`): ``games`` the sender's games in play,
    ``finished`` what the sender's games over came to, ``invitations`` every invitation
    still open or recently ended, ``named`` the game a
    command names, ``started`` the game an invitation became, ``finishes`` every finished game
    (for the standings). ``trusted_authserv_id`` names the receiving server whose
    Authentication-Results vouch for a sender; ``pending`` is the command a reply to a
    confirmation confirms (see :mod:`referee.mail.judging.confirming`); ``shards`` which games this
    worker keeps when several share them (the names it makes end in its own letters)."""

    referee: str
    secret: bytes
    addresses: Addresses = field(default_factory=Addresses)
    game_master: str | None = None
    game: GameFacts | None = None
    invitation: Invitation | None = None
    sender_away: datetime | None = None
    games: Sequence[GameFacts] = ()
    finished: Sequence[Finish] = ()
    invitations: Sequence[Invitation] = ()
    named: GameFacts | None = None
    named_unreadable: bool = False
    started: Replayed | None = None
    finishes: Sequence[Finish] = ()
    trusted_authserv_id: str | None = None
    pending: Pending | None = None
    shards: Shards = field(default_factory=Shards)
