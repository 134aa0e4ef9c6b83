"""Transports: where mail comes from and where letters go, as two sides.

The service sees messages, not games. Its **inbox** side (:class:`Inbox`: the intake's and
the chores') lists what is waiting, looks at a message's size and headers before reading
it, reads it, files it in a folder (done, refused, quarantine) once it is handled, and hands
one back to be read again. Its **outlet** side (:class:`Outlet`: the postman's) sends a
letter. A :class:`Mailroom` is both sides (the intake's); a :class:`Transport` is both
sides, started, checked and closed as one, and answers the doctor's questions about itself
(:meth:`Transport.examine`).

The transports: ``dir`` (:mod:`~referee.mail.transports.directory`: a directory of ``.eml``
files, no server: the embedded default, which tests and offline play use), ``imap``
(:mod:`~referee.mail.transports.imap`: an IMAP mailbox, letters by SMTP) and ``lmtp``
(:mod:`~referee.mail.transports.lmtp`: the mail server hands mail over, letters by SMTP).
Which one a service uses is one table: :data:`referee.mail.startup.TRANSPORTS`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

FOLDERS = ("done", "refused", "quarantine")
#: The folders of a Maildir inbox that hold delivered messages (``tmp/`` holds unfinished ones).
MAILDIR = ("new", "cur")


class TransportError(Exception):
    """The mail server cannot be reached or dropped the connection: try again later.
    ``server``: which one, "imap" or "smtp" (its field in the status)."""

    def __init__(self, message: str, server: str = "imap") -> None:
        super().__init__(message)
        self.server = server


class MessageGoneError(Exception):
    """A listed message is no longer there (another reader took it): nothing to do."""


class SendError(Exception):
    """Sending failed. ``permanent``: the server refused for good (do not retry).
    ``unreachable``: no server answered (it is down, or the way to it): the letter is not to
    blame, and waits for the server without counting a try."""

    def __init__(self, message: str, permanent: bool, unreachable: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent
        self.unreachable = unreachable


@dataclass(frozen=True)
class Incoming:
    """A message waiting in the inbox: the transport's handle for it, and its size."""

    id: str
    size: int


class Inbox(Protocol):
    """Where mail comes from: what the intake and the chores ask of a transport."""

    async def incoming(self) -> list[Incoming]:
        """The messages waiting, oldest first."""
        ...

    async def headers(self, item: Incoming) -> bytes:
        """The message's header block alone (for a message too large to read)."""
        ...

    async def fetch(self, item: Incoming) -> bytes:
        """The whole message."""
        ...

    async def file(self, item: Incoming, folder: str, at: datetime) -> None:
        """Move a handled message out of the inbox into ``folder`` (filed ``at`` that time);
        never delete it. A transport may hold the move back until :meth:`flush`."""
        ...

    async def flush(self) -> None:
        """Carry out every move held back by :meth:`file`."""
        ...

    async def restore(self, folder: str, message_id: str, handle: str) -> bool:
        """Move a message filed in ``folder`` back into the inbox, to be read again: the one
        with this Message-ID (``handle``, the id it had when listed, may help find it).
        False when it is not there."""
        ...

    async def clear_filed(self, before: datetime, keep: frozenset[str]) -> int:
        """Remove the messages this transport filed itself before ``before`` (a folder of
        mail: the dir and lmtp transports), but those whose handles are in ``keep``; how
        many. A mailbox's folders are its server's: the imap transport removes nothing."""
        ...

    async def wait_for_mail(self, timeout: float) -> None:
        """Return when new mail may have arrived, or after ``timeout`` seconds."""
        ...

    async def check_receiving(self) -> None:
        """Reach (and log in to) where mail comes from, alone: TransportError when it
        cannot be reached."""
        ...


class Outlet(Protocol):
    """Where letters go: what the postman asks of a transport."""

    async def send(self, sender: str, recipient: str, message: bytes) -> None:
        """Send one message; SendError says whether trying again may help."""
        ...

    async def check_sending(self) -> str:
        """Reach (and log in to) what sends mail, alone: a line to tell the game master.
        ConfigurationError for a refused login; TransportError when it cannot be reached."""
        ...


class Mailroom(Inbox, Outlet, Protocol):
    """Both sides and nothing else: what the intake asks (it reads by the inbox, and tells
    the game master of a full disk straight by the outlet)."""


class Transport(Mailroom, Protocol):
    """Both sides, as the service starts, checks and closes them, and the doctor examines
    them."""

    @property
    def server_names(self) -> dict[str, str]:
        """The mail servers it talks to, by kind ("imap", "smtp"), each with its name for
        the log ("IMAP server mail.example.org:993"); none for a folder of files."""
        ...

    async def check(self) -> list[str]:
        """Reach (and log in to) what the transport uses: a line for each, to tell the game
        master. ConfigurationError for a refused login; TransportError when a server cannot
        be reached now."""
        ...

    async def examine(self, trial: Trial | None) -> list[Finding]:
        """What the doctor finds of it: what it reaches (as :meth:`check`), and with a
        ``trial``, whether the test mail sent to the referee comes back in."""
        ...

    async def close(self) -> None: ...


Level = Literal["ok", "note", "warning", "problem"]


@dataclass(frozen=True)
class Finding:
    """One check of the doctor's: how it went, what was found, and (for a problem) what to
    do."""

    level: Level
    what: str
    fix: str = ""


@dataclass(frozen=True)
class Trial:
    """The doctor's test mail: sent ``to`` one of the referee's own addresses, from
    ``sender``; found by its ``message_id``; looked for ``wait`` seconds."""

    sender: str
    to: str
    message_id: str
    raw: bytes
    wait: float

    async def sent_and_found(
        self, outlet: Outlet, find: Callable[[str], Awaitable[str | None]], pause: float
    ) -> tuple[str | None, float]:
        """Send the test mail through ``outlet`` and look for it (``find`` by its
        Message-ID, every ``pause`` seconds, for :attr:`wait`): where it was found (None:
        nowhere), and after how many seconds."""
        started = time.monotonic()
        await outlet.send(self.sender, self.to, self.raw)
        while time.monotonic() - started < self.wait:
            where = await find(self.message_id)
            if where is not None:
                return where, time.monotonic() - started
            await asyncio.sleep(pause)
        return None, self.wait
