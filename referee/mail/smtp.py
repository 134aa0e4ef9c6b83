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

from referee.mail.transport import SendError
from referee.settings import Smtp

log = logging.getLogger("referee.smtp")


def tls_context(ca_file: Path | None) -> ssl.SSLContext:
    """The system's trusted certificates, and ``ca_file``'s when one is given."""
    context = ssl.create_default_context()
    if ca_file is not None:
        context.load_verify_locations(cafile=str(ca_file))
    return context


class SmtpSender:
    """Sends through one SMTP server, reusing its connection while it lasts."""

    def __init__(self, server: Smtp) -> None:
        self.server = server
        self._client: aiosmtplib.SMTP | None = None

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

    async def send(self, sender: str, recipient: str, message: bytes) -> None:
        """Send one message; a kept connection that has gone stale is replaced once."""
        for attempt in (1, 2):
            reused = self._client is not None
            try:
                if self._client is None:
                    self._client = await self._connect()
                await self._client.sendmail(sender, [recipient], message)
                return
            except aiosmtplib.SMTPRecipientsRefused as err:
                await self.close()
                codes = [r.code for r in err.recipients]
                raise SendError(
                    f"{self.server.host} refused {recipient}: "
                    + "; ".join(f"{r.code} {r.message}" for r in err.recipients),
                    permanent=all(code >= 500 for code in codes),
                ) from None
            except aiosmtplib.SMTPAuthenticationError as err:
                await self.close()
                raise SendError(
                    f"{self.server.host} refused the login of {self.server.user!r} "
                    f"({err.code} {err.message}): check smtp.user and smtp.password",
                    permanent=False,
                ) from None
            except aiosmtplib.SMTPResponseException as err:
                await self.close()
                raise SendError(
                    f"{self.server.host} answered {err.code} {err.message}",
                    permanent=err.code >= 500,
                ) from None
            except (aiosmtplib.SMTPException, OSError, TimeoutError) as err:
                await self.close()
                if reused and attempt == 1:
                    log.info("SMTP connection to %s went stale; connecting again", self.server.host)
                    continue
                raise SendError(
                    f"cannot send through {self.server.host}: {err or type(err).__name__}",
                    permanent=False,
                ) from None

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        try:
            if client.is_connected:
                await client.quit()
        except (aiosmtplib.SMTPException, OSError, TimeoutError):
            client.close()
