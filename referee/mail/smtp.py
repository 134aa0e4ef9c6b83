"""Sending by SMTP (aiosmtplib): TLS or STARTTLS, login, and one connection kept open.

A server's answer decides what a failure means: a 5xx refusal is permanent (the letter is
kept for the game master, never retried), anything else — 4xx, a dropped or refused
connection, a timeout, a failed login — is temporary and the letter is tried again later.
"""

from __future__ import annotations

import logging
import ssl
from pathlib import Path

import aiosmtplib

from referee.errors import ConfigurationError
from referee.mail.transport import SendError, TransportError
from referee.settings import Smtp

log = logging.getLogger("referee.smtp")


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
        self._idle: list[aiosmtplib.SMTP] = []

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
                f"SMTP server {self.where} cannot be reached: {err or type(err).__name__}"
            ) from None
        self._idle.append(client)
        who = f"logged in as {self.server.user}" if self.server.user else "no login"
        return f"SMTP server {self.where} ({self.server.security}): {who}"

    async def send(self, sender: str, recipient: str, message: bytes) -> None:
        """Send one message; a kept connection that has gone stale is replaced once."""
        for attempt in (1, 2):
            client = self._idle.pop() if self._idle else None
            reused = client is not None
            try:
                if client is None:
                    client = await self._connect()
                await client.sendmail(sender, [recipient], message)
                self._idle.append(client)
                return
            except aiosmtplib.SMTPRecipientsRefused as err:
                await _close(client)
                codes = [r.code for r in err.recipients]
                raise SendError(
                    f"{self.server.host} refused {recipient}: "
                    + "; ".join(f"{r.code} {r.message}" for r in err.recipients),
                    permanent=all(code >= 500 for code in codes),
                ) from None
            except aiosmtplib.SMTPAuthenticationError as err:
                await _close(client)
                raise SendError(
                    f"{self.server.host} refused the login of {self.server.user!r} "
                    f"({err.code} {err.message}): check smtp.user and smtp.password",
                    permanent=False,
                ) from None
            except aiosmtplib.SMTPResponseException as err:
                await _close(client)
                raise SendError(
                    f"{self.server.host} answered {err.code} {err.message}",
                    permanent=err.code >= 500,
                ) from None
            except (aiosmtplib.SMTPException, OSError, TimeoutError) as err:
                await _close(client)
                if reused and attempt == 1:
                    log.info("SMTP connection to %s went stale; connecting again", self.server.host)
                    continue
                raise SendError(
                    f"cannot send through {self.server.host}: {err or type(err).__name__}",
                    permanent=False,
                ) from None

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for client in idle:
            await _close(client)


async def _close(client: aiosmtplib.SMTP | None) -> None:
    """Say goodbye if the server still listens; drop the connection either way."""
    if client is None:
        return
    try:
        if client.is_connected:
            await client.quit()
    except (aiosmtplib.SMTPException, OSError, TimeoutError):
        client.close()
