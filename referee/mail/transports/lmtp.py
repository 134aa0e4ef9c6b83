"""The lmtp transport: the mail server hands each mail straight to the service (LMTP, RFC
2033), as Postfix hands mail to Dovecot or to Mailman 3; letters go out by SMTP.

Nothing polls a mailbox: a reply is in the intake as soon as Postfix has it. A mail is
answered ``250`` for each recipient only once it is on disk (written and flushed, in the
lmtp folder's ``inbox/``), so a crash after ``250`` loses nothing; a mail that cannot be
kept now (a full disk) is answered ``451`` and Postfix keeps it and tries again. From the
inbox on it is the dir transport's mail: read, judged once (by Message-ID), filed in
``done/``, ``refused/`` or ``quarantine/``, handed back by ``referee inbox retry``. Letters
go out by SMTP, or (``--mail-dir DIR`` beside ``--lmtp``, no ``[smtp]``) into
``DIR/outbox/``.

Only the referee's address and its plus-addresses are taken (``550`` for any other); a mail
larger than the service reads is refused at DATA with ``552`` (Postfix bounces it to its
sender). Each accepted recipient gets its own reply after DATA, as LMTP asks; aiosmtpd
sends one line of its own for its errors, which :class:`_PerRecipient` repeats.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import time
import uuid
from pathlib import Path
from typing import Any, Required, TypedDict, Unpack

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import Envelope, Session

from referee.errors import ConfigurationError
from referee.mail.transports.base import FOLDERS, Finding, Trial
from referee.mail.transports.directory import DirTransport
from referee.mail.transports.sharding import Door, hand_on
from referee.mail.transports.smtp import SmtpSender
from referee.settings import Lmtp
from referee.shards import Shards
from referee.store import Store, write_new

log = logging.getLogger("referee.lmtp")

#: Seconds a connection may stay silent (a whole DATA included) before it is closed.
IDLE_TIMEOUT = 300
#: Bytes left for the envelope headers put in front of a mail kept (Return-Path,
#: Delivered-To): a mail taken is never larger on disk than the service reads.
ENVELOPE_ROOM = 2048


class FolderSender:
    """Letters written into ``mail_dir/outbox/`` as the dir transport writes them, for the
    lmtp transport with no SMTP server (``referee serve --lmtp … --mail-dir DIR``)."""

    def __init__(self, mail_dir: Path) -> None:
        self.folder = DirTransport(mail_dir, lock=False)

    @property
    def where(self) -> str:
        return str(self.folder.mail_dir / "outbox")

    async def check(self) -> str:
        (self.folder.mail_dir / "outbox").mkdir(parents=True, exist_ok=True)
        return f"letters written to {self.where}"

    async def send(self, sender: str, recipient: str, message: bytes) -> None:
        await self.folder.send(sender, recipient, message)

    async def close(self) -> None:
        return None


class Taking(TypedDict, total=False):
    """What the lmtp transport takes: mail to ``referee`` (the service's own address: it and
    its plus-addresses) of at most ``max_bytes`` (larger mail is refused at DATA); ``lock``:
    hold the folder against a second service, from :meth:`LmtpTransport.check` on;
    ``games``: the games folder, where a worker of several looks for a game moved to it
    (docs/scaling.md)."""

    referee: Required[str]
    max_bytes: Required[int]
    lock: bool
    games: Path | None


class LmtpTransport(DirTransport):
    """Mail in over LMTP, kept in ``folder`` as the dir transport keeps it (so read, filed
    and handed back as that transport does); out through an SMTP server (or, with a
    :class:`FolderSender`, into a folder's outbox)."""

    def __init__(
        self,
        settings: Lmtp,
        folder: Path,
        sender: SmtpSender | FolderSender,
        **taking: Unpack[Taking],
    ) -> None:
        """Mail handed over by LMTP as ``settings`` say, kept in ``folder``; letters out by
        ``sender``; what it takes as :class:`Taking` says."""
        super().__init__(folder, lock=taking.get("lock", True))
        referee, games = taking["referee"], taking.get("games")
        self.settings = settings
        self.sender = sender
        holds = Store(games).has if games is not None else lambda _: True
        door = Door(referee, settings.shards(), holds)
        self.handover = Handover(self.inbox, referee, door)
        self.max_bytes = taking["max_bytes"]
        self._server: asyncio.Server | None = None
        self._socket: tuple[int, int] | None = None  # the unix socket made: (device, inode)

    @property
    def server_names(self) -> dict[str, str]:
        if isinstance(self.sender, FolderSender):
            return {}  # no server to reach: letters go into a folder
        return {"smtp": f"SMTP server {self.sender.where}"}

    @property
    def listening(self) -> str:
        """Where the listener is (or is to be), for the log."""
        where = self.settings.where()
        if isinstance(where, str):
            return f"unix:{where}"
        host, port = where
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    async def listen(self) -> None:
        """Start listening (once); ConfigurationError when the address cannot be had."""
        if self._server is not None:
            return
        loop = asyncio.get_running_loop()
        hostname = self.handover.referee.partition("@")[2] or "localhost"

        def session() -> LMTP:
            return _PerRecipient(
                self.handover,
                hostname=hostname,
                data_size_limit=max(self.max_bytes - ENVELOPE_ROOM, 1),
                enable_SMTPUTF8=True,
                timeout=IDLE_TIMEOUT,
            )

        where = self.settings.where()
        try:
            if isinstance(where, str):
                # (asyncio would unlink any socket there: one left by a service that stopped
                # may go, not one where something listens)
                if Path(where).is_socket() and await answered(where):
                    raise OSError(errno.EADDRINUSE, os.strerror(errno.EADDRINUSE), where)
                self._server = await loop.create_unix_server(session, path=where)
                os.chmod(where, 0o660)
                info = os.stat(where)
                self._socket = (info.st_dev, info.st_ino)
            else:
                self._server = await loop.create_server(session, host=where[0], port=where[1])
        except OSError as err:
            said = err.strerror or str(err)
            raise ConfigurationError(
                f"the service cannot listen for LMTP on {self.settings.listen} ({said}): is "
                "another service there? (lmtp.listen)"
            ) from None
        log.info("listening for mail handed over by LMTP on %s", self.listening)

    # -- the mail handed over: the dir transport's, but for waiting --------------------------

    async def wait_for_mail(self, timeout: float) -> None:
        """Until a mail is handed over (or ``timeout`` seconds): at once when one waits."""
        self.handover.arrived.clear()  # (before looking: a mail coming meanwhile sets it)
        if await self.incoming():
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):  # (asyncio.wait_for may lose a cancel)
                await self.handover.arrived.wait()

    # -- the servers ----------------------------------------------------------------------------

    async def check(self) -> list[str]:
        """Hold the folder, listen, and reach the SMTP server: a line each."""
        await super().check()
        await self.listen()
        waiting = len(await self.incoming())
        return [
            f"LMTP: listening on {self.listening}; mail handed over is kept in "
            f"{self.mail_dir} ({waiting} waiting)",
            await self.sender.check(),
        ]

    async def examine(self, trial: Trial | None) -> list[Finding]:
        """The SMTP login, the workers' map, and the LMTP listener: a running service's, or
        the doctor's own while it checks; with a ``trial``, whether the test mail is handed
        over (not tried when letters go into a folder: no server to send it through)."""
        found = [Finding("ok", await self.sender.check())]
        listen = self.settings.listen
        shards = self.settings.shards()
        if shards.sharded:
            found.append(
                Finding(
                    "ok",
                    f"LMTP: worker {shards.this} of {shards.count}, keeping the games whose id "
                    f"ends in one of {shards.letters(shards.this)!r}"
                    + (f", and {len(shards.moved)} moved game(s)" if shards.moved else ""),
                )
            )
        if await answered(self.settings.where()):
            found.append(Finding("ok", f"LMTP: a running service listens on {listen}"))
        else:
            await self.listen()
            found.append(Finding("ok", f"LMTP: {listen} can be listened on (no service there now)"))
        if trial is None:
            return found
        if isinstance(self.sender, FolderSender):
            return [
                *found,
                Finding(
                    "note",
                    "the route from the mail server is not tried: letters go into "
                    f"{self.sender.where}, not to a mail server",
                    f"send a mail to {trial.sender} yourself; it is kept in "
                    f"{self.inbox} until it is handled",
                ),
            ]
        return [*found, await self._handed_over(trial)]

    async def _handed_over(self, trial: Trial) -> Finding:
        """Send the test mail and wait for it to be handed over by LMTP."""

        async def find(message_id: str) -> str | None:
            return _take_handed_over(self.mail_dir, message_id)

        where, took = await trial.sent_and_found(self, find, 0.5)
        if where is not None:
            return Finding("ok", f"a mail to {trial.to} was handed over by LMTP in {took:.1f} s")
        return Finding(
            "problem",
            f"a mail sent to {trial.to} was not handed over on {self.settings.listen} within "
            f"{trial.wait:g} s",
            "mail to the referee's plus-addresses must reach the listener: a transport_maps "
            "entry for the referee's address, and recipient_delimiter = + "
            "(docs/mail-server.md, LMTP)",
        )

    async def check_receiving(self) -> None:
        await self.listen()

    async def check_sending(self) -> str:
        return await self.sender.check()

    async def send(self, sender: str, recipient: str, message: bytes) -> None:
        await self.sender.send(sender, recipient, message)

    async def close(self) -> None:
        """Stop listening (Postfix keeps what comes meanwhile), let go of the folder, and
        close the SMTP connection."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), timeout=5)
            self._server = None
            where = self.settings.where()
            if isinstance(where, str) and self._socket is not None:
                with contextlib.suppress(OSError):
                    info = os.stat(where)
                    if (info.st_dev, info.st_ino) == self._socket:  # ours, not a successor's
                        os.unlink(where)
                self._socket = None
        await super().close()
        await self.sender.close()


def _take_handed_over(folder: Path, message_id: str) -> str | None:
    """Where in the lmtp folder the mail ``message_id`` is (a running service may have
    filed it), deleting it; None while it is nowhere."""
    wanted = f"Message-ID: {message_id}".encode()
    for name in ("inbox", *FOLDERS):
        for path in (folder / name).glob("*.eml"):
            try:
                if wanted in path.read_bytes()[:65536]:
                    path.unlink()
                    return name
            except OSError:
                continue
    return None


class Handover:
    """The LMTP session's handler: which recipients are taken, and each mail kept on disk
    before it is answered."""

    def __init__(self, inbox: Path, referee: str, door: Door | None = None) -> None:
        self.inbox = inbox
        self.referee = referee
        self.door = door or Door(referee, Shards(), lambda _: True)
        self.local, _, self.domain = referee.lower().partition("@")
        self.arrived = asyncio.Event()

    def ours(self, address: str) -> bool:
        """Whether ``address`` is the referee's own or one of its plus-addresses."""
        local, _, domain = address.lower().strip("<>").rpartition("@")
        return domain == self.domain and local.partition("+")[0] == self.local

    async def handle_RCPT(  # noqa: N802 (aiosmtpd's hook names)
        self,
        server: LMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if not self.ours(address):
            return f"550 5.1.1 <{address}>: no such address here; the referee is {self.referee}"
        elsewhere = self.door.refusal(address)
        if elsewhere is not None:
            return f"451 4.3.0 <{address}>: {elsewhere}"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(  # noqa: N802 (aiosmtpd's hook names)
        self, server: LMTP, session: Session, envelope: Envelope
    ) -> str:
        """Keep the mail (once, whatever the number of recipients), then answer each
        recipient: 250 once it is on disk, 451 (try again) when it cannot be kept now."""
        recipients = list(envelope.rcpt_tos)
        content = envelope.original_content or b""
        if isinstance(content, str):  # (never: decode_data is off)
            content = content.encode("utf-8", "surrogateescape")
        onward = self.door.onward(recipients, content)
        if onward is not None:  # a reply to another worker's game, by the bare address
            hostname = self.referee.partition("@")[2] or "localhost"
            said = await asyncio.to_thread(
                hand_on, onward, envelope.mail_from or "", content, hostname
            )
            return _each(recipients, said.replace("{", "{{").replace("}", "}}"))
        try:
            name = await asyncio.to_thread(self.keep, envelope.mail_from or "", recipients, content)
        except Exception as err:  # whatever it is, Postfix must keep the mail, not bounce it
            log.warning("a mail handed over could not be kept (%s): answered 451", err)
            return _each(recipients, "451 4.3.0 <{}> cannot be kept now; try again later")
        self.arrived.set()
        log.debug("mail handed over by LMTP kept as %s", name)
        return _each(recipients, "250 2.0.0 <{}> taken")

    def keep(self, sender: str, recipients: list[str], content: bytes) -> str:
        """Write the mail into the inbox whole and flushed to disk, with its envelope in
        front (Return-Path, a Delivered-To for each recipient), as a delivery agent does; its
        name in the inbox."""
        head = [f"Return-Path: <{sender}>"]
        head += [f"Delivered-To: {rcpt}" for rcpt in recipients]
        data = ("\r\n".join(head) + "\r\n").encode("utf-8", "replace") + content
        name = f"{time.time_ns():020d}-{uuid.uuid4().hex[:12]}.eml"
        write_new(self.inbox / name, data, unique_name=True)
        return name


async def answered(where: tuple[str, int] | str) -> bool:
    """Whether something accepts connections at ``where`` (as :meth:`Lmtp.where` gives it:
    host and port, or a unix socket's path): another service listening there."""
    try:
        if isinstance(where, str):
            _, writer = await asyncio.wait_for(asyncio.open_unix_connection(where), 5)
        else:
            _, writer = await asyncio.wait_for(asyncio.open_connection(*where), 5)
    except (OSError, TimeoutError):
        return False
    writer.close()
    return True


def _each(recipients: list[str], reply: str) -> str:
    """One reply for each recipient, as LMTP answers DATA."""
    return "\r\n".join(reply.format(r) for r in recipients) or reply.format("")


class _PerRecipient(LMTP):
    """aiosmtpd's LMTP, whose own errors at DATA (too much data, a line too long) are said
    once for each recipient, as LMTP asks: a single line would leave Postfix waiting for the
    others, and then sending the mail again."""

    _in_data = False

    async def smtp_DATA(self, arg: str) -> None:  # noqa: N802 (aiosmtpd's names)
        self._in_data = True
        try:
            await super().smtp_DATA(arg)
        finally:
            self._in_data = False

    async def push(self, status: Any) -> None:
        if (
            self._in_data
            and isinstance(status, str)
            and status[:3] in ("552", "500")
            and self.envelope is not None
            and len(self.envelope.rcpt_tos) > 1
        ):
            status = "\r\n".join([status] * len(self.envelope.rcpt_tos))
        await super().push(status)
