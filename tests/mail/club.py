"""A referee service over the dir transport with people writing to it: new mails to the
referee's own address and replies to its mails, with a clock the test sets (as
``serve --once --now`` does)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from referee.engine import Take, legal_moves
from referee.invitations import Invitations
from referee.mail.state.ledger import Ledger
from referee.mail.transports.directory import DirTransport
from referee.notation import format_move
from referee.service import Service
from referee.settings import Settings
from referee.store import Store
from tests.mail.players import latest, mails_to, reply, text_of, write

REFEREE = "referee@example.net"
GAME_MASTER = "gm@example.net"
#: The receiving server, which checks DMARC and which the referee trusts (see vouched).
RECEIVING_SERVER = "mx.example.net"
START = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)


def address(name: str) -> str:
    return f"{name}@example.org"


class Club:
    """A games folder, a mail folder, a clock, and people writing mail."""

    def __init__(self, root: Path) -> None:
        self.games = root / "games"
        self.mail = root / "mail"
        self.settings = Settings(
            games_dir=self.games,
            mail_dir=self.mail,
            address=REFEREE,
            game_master=GAME_MASTER,
            trusted_authserv_id=RECEIVING_SERVER,
        )
        self.store = Store(self.games)
        self.now = START
        self.sequence = 0
        self.serve()

    def serve(self, after: timedelta = timedelta(0)) -> None:
        """Move the clock on by ``after``, then handle what waits and send what is queued."""
        self.now += after
        now = self.now
        asyncio.run(Service(self.settings, DirTransport(self.mail), lambda: now).run(once=True))

    def _id(self, name: str) -> str:
        self.sequence += 1
        return f"<c{self.sequence}.{name}@example.org>"

    def write(
        self, name: str, text: str, display: str = "", vouched: bool = True, **options: str
    ) -> str:
        """``name`` writes a new mail to the referee; its Message-ID. ``vouched``: the
        receiving server found DMARC passed (else it did not check: the mail may be forged,
        and a command that changes the sender's standing waits for a confirmation)."""
        message_id = self._id(name)
        write(
            self.mail,
            address(name),
            REFEREE,
            text,
            message_id=message_id,
            name=display,
            checked_by=RECEIVING_SERVER if vouched else None,
            **options,
        )
        return message_id

    def reply(self, name: str, text: str, to: EmailMessage | None = None, **options: object) -> str:
        """``name`` replies to the latest mail they got (or ``to``); its Message-ID."""
        message_id = self._id(name)
        sender = str(options.pop("sender", address(name)))
        reply(
            self.mail,
            to if to is not None else self.latest(name),
            sender,
            text,
            message_id=message_id,
            **options,
        )
        return message_id

    def desk_ledger(self) -> Ledger:
        return Ledger(self.games / ".mail")

    def latest(self, name: str) -> EmailMessage:
        return latest(self.mail, address(name))

    def text(self, name: str) -> str:
        return text_of(self.latest(name))

    def words(self, name: str) -> str:
        """The text of the latest mail to ``name``, its lines joined (text mails are wrapped
        at 76 columns)."""
        return " ".join(self.text(name).split())

    def mails(self, name: str) -> list[EmailMessage]:
        return mails_to(self.mail, address(name))

    def count(self, name: str) -> int:
        return len(self.mails(name))


# -- games by mail, for the tests that need one running -------------------------------------


def propose(club: Club, text: str = "new splendor with bob@example.org cat@example.org") -> str:
    """ann proposes a game; its id."""
    before = set(Invitations(club.games).ids())
    club.write("ann", text, display="Ann Lee")
    club.serve()
    (made,) = set(Invitations(club.games).ids()) - before
    return made


def start(club: Club, text: str = "new splendor with bob@example.org cat@example.org") -> str:
    """A game proposed by ann and accepted by everyone invited; its id."""
    game = propose(club, text)
    invitation = Invitations(club.games).get(game)
    assert invitation is not None
    for seat in invitation.seats:
        if not seat.proposer:
            club.reply(seat.address.split("@")[0], "accept")
    club.serve()
    assert club.store.has(game)
    return game


def to_move(club: Club, game: str) -> str:
    """The local part of the address of the player to move."""
    replayed = club.store.load(game)
    return replayed.record.players[replayed.state.to_move].email.split("@")[0]


def play_one(club: Club, game: str, take_only: bool = False) -> str:
    """The player to move replies to their latest board with a legal move; who moved."""
    state = club.store.load(game).state
    moves = legal_moves(state)
    if take_only:
        moves = [m for m in moves if isinstance(m, Take)] or moves
    who = to_move(club, game)
    club.reply(who, format_move(moves[0]))
    club.serve(timedelta(minutes=1))
    return who
