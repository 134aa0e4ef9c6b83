"""The imap transport: read an IMAP mailbox (imap-tools), send by SMTP (aiosmtplib).

imap-tools blocks, so every IMAP command runs on one thread of its own, never on the event
loop, and one at a time (an IMAP connection is one conversation). New mail is awaited with
IDLE when the server offers it, else by polling. A connection that drops is opened again at
once, and the command given again; a server that cannot be reached raises
:class:`TransportError`, and the service tries again with growing delays.

A connection that goes silent without closing (a proxy or a NAT that lost it: no FIN, and
TCP keepalives may still be answered) is noticed by the application's own round trip: every
read waits at most ``imap.timeout``, and an IDLE is ended and begun again at least every
IDLE_RENEWED_EVERY seconds, its DONE to be answered like any command. So a silent connection
is noticed within IDLE_RENEWED_EVERY (or ``poll_seconds``, if less) plus ``imap.timeout``.

A message's handle is ``UIDVALIDITY:UID``: if the mailbox's UIDVALIDITY changes (the server
renumbered it), handles from before are refused rather than taken for other messages.
Handled mail is moved (IMAP MOVE, or copy and delete where the server lacks it) to the
folders ``done``, ``refused`` and ``quarantine``, made on first use.
"""

from __future__ import annotations

import asyncio
import contextlib
import imaplib
import logging
import os
import re
import socket
import ssl
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import TypeVar

from imap_tools import AND, BaseMailBox, H, MailBox, MailBoxStartTls, MailBoxUnencrypted
from imap_tools.errors import ImapToolsError

from referee.errors import ConfigurationError
from referee.mail.transports.base import (
    FOLDERS,
    Finding,
    Incoming,
    MessageGoneError,
    TransportError,
    Trial,
)
from referee.mail.transports.mailbox_lock import (
    BEAT_EVERY,
    LOCK_FOLDER,
    Heartbeat,
    heartbeat_message,
    holder,
    read_heartbeat,
    taken,
)
from referee.mail.transports.smtp import SmtpSender, tls_context, untrusted_certificate
from referee.settings import Imap

log = logging.getLogger("referee.imap")

T = TypeVar("T")

#: What a dropped connection or an unreachable server raises.
CONNECTION_ERRORS = (OSError, imaplib.IMAP4.error, ImapToolsError)

#: The most a listing downloads ahead of handling (messages under the size cap only).
READ_AHEAD_BYTES = 16_000_000

#: The longest an IDLE (or a wait without IDLE) lasts before the connection is used again:
#: a connection that went silent meanwhile is noticed this long plus ``imap.timeout`` after
#: (RFC 2177 asks for at most 29 minutes; a silent connection asks for much less).
IDLE_RENEWED_EVERY = 30.0


def login_refused(error: str, host: str, user: str | None) -> tuple[bool, str] | None:
    """Whether ``error`` (a TransportError's words) is a refused login, and if so whether it
    is temporary, and what to say. Only a refusal for the credentials points at them: one
    the server says is its own trouble (RFC 5530's [UNAVAILABLE], [INUSE]: Dovecot's
    "Temporary authentication failure" while its password database is away) is tried
    again. None: not a login refused."""
    if "LOGIN" not in error.upper() and "AUTHENTICAT" not in error.upper():
        return None
    answer = re.search(r"Data: \[b?['\"](.*?)['\"]\]", error)
    refused = f"IMAP server {host} refused the login of {user!r} ({answer[1] if answer else error})"
    if re.search(r"\[(UNAVAILABLE|INUSE)\]", error):
        return True, (
            f"{refused}: a temporary failure on the server's side (its password check may be "
            "down): tried again, at growing intervals"
        )
    return False, f"{refused}: check imap.user and the password (REFEREE_IMAP__PASSWORD)"


class ImapTransport:
    """Mail in from an IMAP folder, out through an SMTP server."""

    def __init__(
        self,
        server: Imap,
        sender: SmtpSender,
        read_ahead_below: int = 0,
        games: str = "",
        lock: bool = True,
    ) -> None:
        """``read_ahead_below``: with each listing, download every message smaller than this
        in one command (the service passes its size cap; larger ones are never read).
        ``lock``: hold the mailbox (see :mod:`referee.mail.transports.mailbox_lock`) from
        :meth:`check` on, for the games folder ``games``."""
        self.server = server
        self.sender = sender
        self.read_ahead_below = read_ahead_below
        self._read_ahead: dict[str, bytes] = {}
        self._to_file: dict[str, list[str]] = {}
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="imap")
        self._box: BaseMailBox | None = None
        self._uidvalidity = ""
        self._listed: set[str] = set()
        self._closing = False
        self._lock = lock
        self._games = games
        self._instance = uuid.uuid4().hex
        self._holding = False  # the mailbox, once claimed
        self._beaten = 0.0  # when this service last beat (monotonic)
        self._connected_before = False  # (said at info level once: later at debug level)

    # -- the connection (on the IMAP thread) ---------------------------------------------------

    async def _call(self, action: Callable[[BaseMailBox], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._on_thread, action)

    def _on_thread(self, action: Callable[[BaseMailBox], T]) -> T:
        """Run ``action`` on the connection, made first if there is none. A kept connection
        that dropped (or went silent) is made again at once and the action run again: one
        line in the log once it is back. A server that cannot be reached: TransportError."""
        dropped = ""  # why the kept connection was lost, if it was
        for attempt in (1, 2):
            reused = self._box is not None
            try:
                if self._box is None:
                    self._box = self._connect()
                    if dropped:
                        said = "IMAP connection to %s lost (%s); connected again"
                        log.info(said, self._host, dropped)
                return action(self._box)
            except CONNECTION_ERRORS as err:
                self._drop()
                if reused and attempt == 1 and not self._closing:
                    dropped = self._problem(err)
                    continue
                raise TransportError(
                    f"IMAP server {self._host}: {self._problem(err)}", server="imap"
                ) from None
        raise AssertionError("unreachable")

    def _problem(self, err: BaseException) -> str:
        """What went wrong with the connection, in words."""
        if isinstance(err, TimeoutError):
            return f"no answer within {self.server.timeout:g} s (imap.timeout)"
        return untrusted_certificate(err, "imap") or str(err) or type(err).__name__

    @property
    def server_names(self) -> dict[str, str]:
        return {"imap": f"IMAP server {self._host}", "smtp": f"SMTP server {self.sender.where}"}

    @property
    def _host(self) -> str:
        return f"{self.server.host}:{self.server.port_or_default(tls=993, starttls=143)}"

    def _connect(self) -> BaseMailBox:
        box = self._login()
        for name in FOLDERS:
            if not box.folder.exists(self._folder(name)):
                box.folder.create(self._folder(name))
        status = box.folder.status(self.server.folder, ["UIDVALIDITY"])
        self._uidvalidity = str(status["UIDVALIDITY"])
        level = logging.DEBUG if self._connected_before else logging.INFO
        log.log(level, "connected to IMAP server %s as %s", self._host, self.server.user)
        self._connected_before = True
        return box

    def _login(self) -> BaseMailBox:
        """A new connection, logged in, in the inbox folder."""
        server = self.server
        port = server.port_or_default(tls=993, starttls=143)
        box: BaseMailBox
        if server.security == "tls":
            context = tls_context(server.ca_file)
            box = MailBox(server.host, port, server.timeout, ssl_context=context)
        elif server.security == "starttls":
            box = MailBoxStartTls(
                server.host, port, server.timeout, ssl_context=tls_context(server.ca_file)
            )
        else:
            box = MailBoxUnencrypted(server.host, port, server.timeout)
        password = server.password.get_secret_value() if server.password else ""
        box.login(server.user or "", password, initial_folder=server.folder)
        return box

    def _drop(self) -> None:
        box, self._box = self._box, None
        if box is not None:
            with contextlib.suppress(*CONNECTION_ERRORS, AttributeError):
                box.client.shutdown()

    def _folder(self, name: str) -> str:
        return self.server.folder_prefix + name

    def _uid(self, item: Incoming) -> str:
        uidvalidity, _, uid = item.id.partition(":")
        if uidvalidity != self._uidvalidity:
            raise MessageGoneError(f"{item.id}: the mailbox was renumbered since it was listed")
        return uid

    # -- the transport ------------------------------------------------------------------------

    async def incoming(self) -> list[Incoming]:
        def listing(box: BaseMailBox) -> list[Incoming]:
            uids = box.uids("ALL")
            found: list[Incoming] = []
            for start in range(0, len(uids), 500):
                chunk = ",".join(uids[start : start + 500])
                _, data = box.client.uid("FETCH", chunk, "(UID RFC822.SIZE)")
                for line in data:
                    text = line[0] if isinstance(line, tuple) else line
                    uid = re.search(rb"UID (\d+)", text or b"")
                    size = re.search(rb"RFC822\.SIZE (\d+)", text or b"")
                    if uid and size:
                        found.append(
                            Incoming(f"{self._uidvalidity}:{uid[1].decode()}", int(size[1]))
                        )
            found.sort(key=lambda item: int(item.id.partition(":")[2]))
            self._listed = {item.id for item in found}
            self._read_ahead = self._download(box, found)
            return found

        return await self._call(listing)

    def _download(self, box: BaseMailBox, items: list[Incoming]) -> dict[str, bytes]:
        """The messages under the size cap, READ_AHEAD_BYTES at most, in one command."""
        chosen, total = [], 0
        for item in items:
            if item.size < self.read_ahead_below and total + item.size <= READ_AHEAD_BYTES:
                chosen.append(item.id.partition(":")[2])
                total += item.size
        if not chosen:
            return {}
        _, data = box.client.uid("FETCH", ",".join(chosen), "(UID BODY.PEEK[])")
        bodies = {}
        for line in data:
            if isinstance(line, tuple) and len(line) == 2:
                uid = re.search(rb"UID (\d+)", line[0])
                if uid:
                    bodies[f"{self._uidvalidity}:{uid[1].decode()}"] = bytes(line[1])
        return bodies

    async def _body(self, item: Incoming, part: str) -> bytes:
        def fetching(box: BaseMailBox) -> bytes:
            _, data = box.client.uid("FETCH", self._uid(item), f"(BODY.PEEK[{part}])")
            for line in data:
                if isinstance(line, tuple) and len(line) == 2:
                    return bytes(line[1])
            raise MessageGoneError(f"message {item.id} is no longer in {self.server.folder}")

        return await self._call(fetching)

    async def headers(self, item: Incoming) -> bytes:
        return await self._body(item, "HEADER")

    async def fetch(self, item: Incoming) -> bytes:
        ahead = self._read_ahead.pop(item.id, None)
        return ahead if ahead is not None else await self._body(item, "")

    async def file(self, item: Incoming, folder: str, at: datetime) -> None:
        """Note the move; :meth:`flush` moves every noted message, one command a folder."""
        if folder not in FOLDERS:
            raise ValueError(f"no folder {folder!r}: the folders are {', '.join(FOLDERS)}")
        self._to_file.setdefault(folder, []).append(item.id)

    async def flush(self) -> None:
        def moving(box: BaseMailBox) -> None:
            for folder, ids in list(self._to_file.items()):
                uids = [i.partition(":")[2] for i in ids if i.startswith(f"{self._uidvalidity}:")]
                if uids:  # (after a renumbering the old handles are void: they are listed anew)
                    box.move(uids, self._folder(folder))
                del self._to_file[folder]

        if self._to_file:
            await self._call(moving)

    async def check(self) -> list[str]:
        def checking(box: BaseMailBox) -> str:
            status = box.folder.status(self.server.folder, ["MESSAGES"])
            return (
                f"IMAP server {self._host} ({self.server.security}): logged in as "
                f"{self.server.user}, folder {self.server.folder} holds {status['MESSAGES']} "
                f"message(s); handled mail is filed in {', '.join(map(self._folder, FOLDERS))}"
            )

        try:
            imap = await self._call(checking)
            if self._lock:
                await self._call(self._beat)
                imap += f"; this service holds the mailbox ({self._folder(LOCK_FOLDER)})"
        except TransportError as err:
            refused = login_refused(str(err), self._host, self.server.user)
            if refused is None:
                raise
            temporary, said = refused
            if temporary:
                raise TransportError(said, server="imap") from None
            raise ConfigurationError(said) from None
        return [imap, await self.sender.check()]

    async def examine(self, trial: Trial | None) -> list[Finding]:
        """What it reaches (as :meth:`check`); with a ``trial``, whether the test mail sent
        by SMTP to one of the referee's plus-addresses arrives in the mailbox."""
        found = [Finding("ok", line) for line in await self.check()]
        if trial is None:
            return found
        where, took = await trial.sent_and_found(self, self.take, 1.0)
        if where is not None:
            how = "" if where == self.server.folder else " (a running service filed it)"
            return [
                *found,
                Finding("ok", f"a mail to {trial.to} arrived in {where} in {took:.1f} s{how}"),
            ]
        return [
            *found,
            Finding(
                "problem",
                f"a mail sent to {trial.to} did not arrive in the mailbox within {trial.wait:g} s",
                "mail to the referee's plus-addresses must reach this mailbox: check the mail "
                "server's recipient delimiter (Postfix: recipient_delimiter = +) and aliases",
            ),
        ]

    def _beat(self, box: BaseMailBox) -> None:
        """Put this service's heartbeat in the lock folder in place of its last one, clear
        stale ones, and make sure it holds the mailbox (ConfigurationError if not)."""
        folder = self._folder(LOCK_FOLDER)
        if not box.folder.exists(folder):
            box.folder.create(folder)
        now = datetime.now(UTC)
        box.append(heartbeat_message(self._instance, self._games, os.getpid(), now), folder)
        self._beaten = time.monotonic()
        try:
            beats = self._heartbeats(box)
            mine = sorted(b.uid for b in beats if b.instance == self._instance)
            gone = [b.uid for b in beats if b.instance != self._instance and not b.fresh(now)]
            first = holder(beats, now)
            if first is not None and first.instance != self._instance:
                box.delete([str(uid) for uid in mine])
                self._holding = False
                raise taken(first, f"{self.server.user} at {self._host}")
            old = [str(uid) for uid in [*mine[:-1], *gone]]
            if old:
                box.delete(old)
            self._holding = True
        finally:
            box.folder.set(self.server.folder)

    def _let_go_apart(self) -> None:
        box = self._login()
        try:
            self._let_go(box)
        finally:
            with contextlib.suppress(*CONNECTION_ERRORS):
                box.logout()

    def _let_go(self, box: BaseMailBox) -> None:
        """Take this service's heartbeats away: the mailbox is free at once."""
        try:
            uids = [str(b.uid) for b in self._heartbeats(box) if b.instance == self._instance]
            if uids:
                box.delete(uids)
        finally:
            box.folder.set(self.server.folder)

    def _heartbeats(self, box: BaseMailBox) -> list[Heartbeat]:
        """Every heartbeat in the lock folder, which is left selected."""
        box.folder.set(self._folder(LOCK_FOLDER))
        return [
            beat
            for message in box.fetch(headers_only=True, mark_seen=False, bulk=True)
            if message.uid and (beat := read_heartbeat(int(message.uid), message.obj.as_bytes()))
        ]

    def _uids_of(self, box: BaseMailBox, folder: str, message_id: str) -> list[str]:
        """The UIDs of the messages with this Message-ID in ``folder``, which is left
        selected."""
        box.folder.set(folder)
        return list(box.uids(AND(header=H("Message-ID", message_id))))

    async def take(self, message_id: str) -> str | None:
        """Find a message by its Message-ID in the inbox or the quarantine folder and delete
        it (the doctor's test mail); the folder it was in, or None."""

        def taking(box: BaseMailBox) -> str | None:
            try:
                for folder in (self.server.folder, self._folder("quarantine")):
                    if not box.folder.exists(folder):
                        continue
                    uids = self._uids_of(box, folder, message_id)
                    if uids:
                        box.delete(uids)
                        return folder
                return None
            finally:
                box.folder.set(self.server.folder)

        return await self._call(taking)

    async def clear_filed(self, before: datetime, keep: frozenset[str]) -> int:
        """Nothing: the mailbox's folders are its server's to keep (docs/mail.md)."""
        return 0

    async def restore(self, folder: str, message_id: str, handle: str) -> bool:
        """Find the message by its Message-ID in ``folder`` (its UID changed when it was
        moved there) and move it back to the inbox."""
        if folder not in FOLDERS or not message_id.startswith("<"):
            return False

        def restoring(box: BaseMailBox) -> bool:
            try:
                uids = self._uids_of(box, self._folder(folder), message_id)
                if uids:
                    box.move(uids[:1], self.server.folder)
            finally:
                box.folder.set(self.server.folder)
            return bool(uids)

        return await self._call(restoring)

    async def check_receiving(self) -> None:
        await self._call(lambda box: None)  # (connected first, if it is not)

    async def check_sending(self) -> str:
        return await self.sender.check()

    async def send(self, sender: str, recipient: str, message: bytes) -> None:
        await self.sender.send(sender, recipient, message)

    async def wait_for_mail(self, timeout: float) -> None:
        """IDLE until the server reports a change (or ``timeout``, at most
        IDLE_RENEWED_EVERY: see the module's notes); without IDLE, sleep. A service that
        holds the mailbox beats first when it is time, and waits no longer than BEAT_EVERY."""
        timeout = min(timeout, IDLE_RENEWED_EVERY)
        if self._holding:
            if time.monotonic() - self._beaten >= BEAT_EVERY * 0.9:
                await self._call(self._beat)
            timeout = min(timeout, BEAT_EVERY)

        def idling(box: BaseMailBox) -> bool:
            if "IDLE" not in box.client.capabilities or not self.server.idle:
                return False
            if set(box.uids("ALL")) - {i.partition(":")[2] for i in self._listed}:
                return True  # mail came between the listing and now
            client = box.client
            client.untagged_responses.clear()
            box.idle.start()  # type: ignore[no-untyped-call]
            try:
                # mail that came just before IDLE is reported at once, maybe in the same
                # packet as the server's "+ idling": then it is already read, or waiting in
                # a buffer where polling the socket would never see it
                if "EXISTS" not in client.untagged_responses and not _buffered(client):
                    box.idle.poll(timeout=timeout)
            finally:
                box.idle.stop()  # type: ignore[no-untyped-call]
            return True

        if not await self._call(idling):
            await asyncio.sleep(timeout)

    async def close(self) -> None:
        """Let go of the mailbox, log out (interrupting an IDLE) and close the SMTP
        connection."""
        if self._holding:  # over a connection of its own: the kept one may be in an IDLE
            self._holding = False
            with contextlib.suppress(Exception):  # else the heartbeat goes stale by itself
                await asyncio.wait_for(asyncio.to_thread(self._let_go_apart), timeout=10)
        self._closing = True
        box = self._box
        if box is not None:
            with contextlib.suppress(OSError, AttributeError):  # wake an IDLE on the IMAP thread
                box.client.sock.shutdown(socket.SHUT_RDWR)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._thread, self._drop)
        self._thread.shutdown(wait=False)
        await self.sender.close()


def _buffered(client: imaplib.IMAP4) -> bool:
    """Whether the server's words are already waiting to be read, in the TLS layer or in
    imaplib's reader, where polling the socket would not find them."""
    sock = client.sock
    if isinstance(sock, ssl.SSLSocket) and sock.pending():
        return True
    peek = getattr(client.file, "peek", None)
    if peek is None:
        return False
    before = sock.gettimeout()
    sock.settimeout(0)
    try:
        return bool(peek(1))
    except OSError:  # nothing there (the socket would block)
        return False
    finally:
        sock.settimeout(before)
