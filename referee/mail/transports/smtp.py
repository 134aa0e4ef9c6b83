"""Sending by SMTP (aiosmtplib): TLS or STARTTLS, login, and one connection kept open.

A server's answer decides what a failure means: a 5xx refusal is permanent (the letter is
kept for the game master, never retried; on a connection kept from earlier, only once a new
connection says it too); a 4xx answer is temporary, and the letter is tried again later. A
login refused with a 4xx (454: the server cannot check passwords now) is the server's
trouble, waited out like a server away; only a 535 points at the user and password. No
answer at all — a refused or dropped connection, a timeout, a failed TLS handshake — means
the server cannot be reached: the letter is not to blame, and waits for the server (see
:mod:`referee.mail.postman`). A certificate this machine does not trust is said so, with
``ca_file``, the setting that mends it for a private or self-signed one.
"""

from __future__ import annotations

import logging
import ssl
import time
from pathlib import Path

import aiosmtplib

from referee.errors import ConfigurationError
from referee.mail.transports.base import SendError, TransportError
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


def untrusted_certificate(err: BaseException, section: str) -> str | None:
    """What to say when ``err`` is (or was caused by) a server's certificate that this machine
    does not trust, naming what mends it (``ca_file`` in ``[section]``); None otherwise."""
    seen: BaseException | None = err
    for _ in range(6):  # the error, and what caused it, a few deep
        if seen is None:
            break
        if isinstance(seen, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in str(
            seen
        ):
            why = getattr(seen, "verify_message", None) or "certificate verify failed"
            return (
                f"its certificate is not trusted here ({why}): for a private or self-signed "
                f"certificate, give the file of that certificate (or of the CA that signed "
                f"it) as ca_file in [{section}] (docs/mail-server.md)"
            )
        seen = seen.__cause__ or seen.__context__
    return None


def login_refused(err: aiosmtplib.SMTPAuthenticationError, where: str, user: str | None) -> str:
    """What a refused SMTP login means, by its code: 535 is the user or the password; other
    codes are not (a 4xx is the server's trouble, for now: Postfix answers 454 while the
    Dovecot behind it that checks passwords is down)."""
    said = f"SMTP server {where} refused the login of {user!r} ({err.code} {err.message})"
    if err.code < 500:
        return (
            f"{said}: a temporary failure on the server's side (its password check may be "
            "down): tried again, at growing intervals"
        )
    if err.code == 535:
        return f"{said}: check smtp.user and the password (REFEREE_SMTP__PASSWORD)"
    return f"{said}: the server will not take this login; its log says why (smtp.security?)"


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
            refused = login_refused(err, self.where, self.server.user)
            if err.code < 500:  # the server's trouble, not the settings': tried again
                raise TransportError(refused, server="smtp") from None
            raise ConfigurationError(refused) from None
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
                raise SendError(  # the letter is not to blame: it waits for the server
                    login_refused(err, self.where, self.server.user),
                    permanent=False,
                    unreachable=err.code < 500,
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
    """What went wrong, in words: a timeout says how long it waited; a certificate not
    trusted says what mends it."""
    untrusted = untrusted_certificate(err, "smtp")
    if untrusted is not None:
        return untrusted
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
