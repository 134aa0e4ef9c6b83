"""Sending by SMTP (aiosmtplib): TLS or STARTTLS, login, and one connection kept open.

A server's answer decides what a failure means: a 5xx refusal is permanent (the letter is
kept for the game master, never retried; on a connection kept from earlier, only once a new
connection says it too); a 4xx answer or a failed login is temporary, and the letter is tried
again later. No answer at all — a refused or dropped connection, a timeout, a failed TLS
handshake — means the server cannot be reached: the letter is not to blame, and waits for the
server (see :mod:`referee.mail.postman`).
"""

from __future__ import annotations

import logging
import ssl
import time
from pathlib import Path

import aiosmtplib

from referee.errors import ConfigurationError
from referee.mail.transport import SendError, TransportError
from referee.settings import Smtp

log = logging.getLogger("referee.smtp")

#: Seconds a connection is kept unused before it is closed rather than used again.
KEEP_IDLE = 60.0


def tls_context(ca_file: Path | None) -> ssl.SSLContext:
    """The system's trusted certificates, and ``ca_file``'s when one is given."""
    context = ssl.create_default_context()
    if ca_file is not None:
        context.load_verify_locations(cafile=str(ca_file))
    return context


class SmtpSender:
    """Sends through one SMTP server, keeping the connections it opened for the next letters
    (several at once when letters are sent side by side)."""

    def __init__(self, server: Smtp) -> None:
        self.server = server
        self._idle: list[tuple[aiosmtplib.SMTP, float]] = []  # kept, and when last used

    async def _connect(self) -> aiosmtplib.SMTP:
        server = self.server
        client = aiosmtplib.SMTP(
            hostname=server.host,
            port=server.port_or_default(tls=465, starttls=587),
            use_tls=server.security == "tls",
            start_tls=server.security == "starttls",
            tls_context=tls_context(server.ca_file) if server.security != "none" else None,
            timeout=server.timeout,
        )
        await client.connect()
        if server.user:
            password = server.password.get_secret_value() if server.password else ""
            await client.login(server.user, password)
        return client

    @property
    def where(self) -> str:
        return f"{self.server.host}:{self.server.port_or_default(tls=465, starttls=587)}"

    async def check(self) -> str:
        """Connect and log in once: what was found, in a line. ConfigurationError when the
        login is refused; TransportError when the server cannot be reached."""
        try:
            client = await self._connect()
        except aiosmtplib.SMTPAuthenticationError as err:
            raise ConfigurationError(
                f"SMTP server {self.where} refused the login of {self.server.user!r} "
                f"({err.code} {err.message}): check smtp.user and the password "
                "(REFEREE_SMTP__PASSWORD)"
            ) from None
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as err:
            raise TransportError(
                f"SMTP server {self.where} cannot be reached: {_said(err)}", server="smtp"
            ) from None
        self._keep(client)
        who = f"logged in as {self.server.user}" if self.server.user else "no login"
        return f"SMTP server {self.where} ({self.server.security}): {who}"

    def _kept(self) -> aiosmtplib.SMTP | None:
        """A kept connection used within KEEP_IDLE seconds, if there is one (older ones are
        dropped: a server closes idle connections, and keeps an old configuration on them)."""
        now = time.monotonic()
        while self._idle:
            client, since = self._idle.pop()
            if now - since < KEEP_IDLE:
                return client
            client.close()
        return None

    def _keep(self, client: aiosmtplib.SMTP) -> None:
        self._idle.append((client, time.monotonic()))

    async def _drop_kept(self) -> None:
        kept, self._idle = self._idle, []
        for client, _ in kept:
            await _close(client)

    async def send(self, sender: str, recipient: str, message: bytes) -> None:
        """Send one message. A kept connection that has gone stale is replaced once; so is
        one whose server refuses the letter for good (5xx): the server may have been
        reconfigured since that connection was made (after `postfix reload`, a connection
        made before still talks to a process with the old settings), so a refusal is final
        only when a new connection says it too."""
        for attempt in (1, 2):
            client = self._kept()
            reused = client is not None
            try:
                if client is None:
                    client = await self._connect()
                await client.sendmail(sender, [recipient], message)
                self._keep(client)
                return
            except aiosmtplib.SMTPRecipientsRefused as err:
                await _close(client)
                codes = [r.code for r in err.recipients]
                refusal = SendError(
                    f"{self.server.host} refused {recipient}: "
                    + "; ".join(f"{r.code} {r.message}" for r in err.recipients),
                    permanent=all(code >= 500 for code in codes),
                )
                if refusal.permanent and reused and attempt == 1:
                    await self._refused_on_kept(refusal)
                    continue
                raise refusal from None
            except aiosmtplib.SMTPAuthenticationError as err:
                await _close(client)
                raise SendError(
                    f"{self.server.host} refused the login of {self.server.user!r} "
                    f"({err.code} {err.message}): check smtp.user and smtp.password",
                    permanent=False,
                ) from None
            except aiosmtplib.SMTPResponseException as err:
                await _close(client)
                refusal = SendError(
                    f"{self.server.host} answered {err.code} {err.message}",
                    permanent=err.code >= 500,
                )
                if refusal.permanent and reused and attempt == 1:
                    await self._refused_on_kept(refusal)
                    continue
                raise refusal from None
            except (aiosmtplib.SMTPException, OSError, TimeoutError) as err:
                await _close(client)
                if reused and attempt == 1:  # and so did the others kept: made in the same era
                    log.debug("SMTP connection to %s went stale; connecting again", self.where)
                    await self._drop_kept()
                    continue
                if isinstance(err, OSError | TimeoutError):  # no answer: the server is away
                    raise SendError(
                        f"SMTP server {self.where} cannot be reached: {_said(err)}",
                        permanent=False,
                        unreachable=True,
                    ) from None
                raise SendError(
                    f"cannot send through {self.where}: {_said(err)}", permanent=False
                ) from None

    async def _refused_on_kept(self, refusal: SendError) -> None:
        """A refusal for good on a kept connection: ask again on a new one, and drop the
        other kept connections, made in the same era."""
        log.info("%s, on a connection kept from earlier: asking again on a new connection", refusal)
        await self._drop_kept()

    async def close(self) -> None:
        await self._drop_kept()


def _said(err: BaseException) -> str:
    """What went wrong, in words: a timeout says how long it waited."""
    if isinstance(err, TimeoutError) and not str(err):
        return "no answer in time"
    return str(err) or type(err).__name__


async def _close(client: aiosmtplib.SMTP | None) -> None:
    """Say goodbye if the server still listens; drop the connection either way."""
    if client is None:
        return
    try:
        if client.is_connected:
            await client.quit()
    except (aiosmtplib.SMTPException, OSError, TimeoutError):
        client.close()
