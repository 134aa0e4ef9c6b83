"""`referee doctor`: is everything the service needs in place? A line per check, and for each
problem what to do about it.

It checks the settings, the games folder (there, whose, writable, nothing in it of another
user), the game master's address, the mail servers (the IMAP login and folder, the SMTP
login) and, for a real mailbox, that a mail sent to one of the referee's own plus-addresses
arrives in the mailbox. That test mail carries the referee's loop header, so a running
service files it in quarantine without answering; the doctor finds it there or in the inbox
and deletes it.
"""

from __future__ import annotations

import base64
import os
import secrets
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path

from referee.addresses import special_use
from referee.errors import ConfigurationError
from referee.mail.reading.inbound import DOCTOR_MAIL_PREFIX, LOOP_HEADER
from referee.mail.startup import make_transport
from referee.mail.state.service_lock import ServiceLock
from referee.mail.state.status import read_status
from referee.mail.transports.base import Finding, Level, SendError, TransportError, Trial
from referee.owner import hand_over, strangers, user_name
from referee.settings import Server, Settings


async def examine(
    settings: Settings, config: Path | None, round_trip: bool = True, wait: float = 60.0
) -> list[Finding]:
    """Every check, in order; a problem with the settings or folder stops the rest."""
    found = [
        _settings(settings, config),
        *_secrets(settings),
        *_domain(settings),
        *_folder(settings.games_dir),
        *_service(settings.games_dir),
    ]
    found.append(
        Finding("ok", f"game master: {settings.game_master} (told of mail set aside)")
        if settings.game_master
        else Finding(
            "note",
            "no game master: nobody is told of mail the service sets aside",
            'set game_master = "you@example.org" in the config file',
        )
    )
    try:
        transport = make_transport(settings, lock=False)
    except ConfigurationError as err:
        return [*found, Finding("problem", f"mail transport: {err}", "see docs/mail.md")]
    try:  # each transport answers for itself: what it reaches, and the test mail's way
        found += await transport.examine(_trial(settings, wait) if round_trip else None)
    except ConfigurationError as err:
        found.append(Finding("problem", str(err), "mend the setting named, then run again"))
    except (TransportError, SendError) as err:
        found.append(Finding("problem", str(err), _fix_for(str(err))))
    finally:
        await transport.close()
    return found


def _fix_for(error: str) -> str:
    """What to do about a server that could not be used, by what went wrong."""
    if "temporary failure" in error:
        return (
            "the server's own trouble, for now: see its log (Postfix checking passwords with "
            "Dovecot: is Dovecot running?); the service waits for it, then run this again"
        )
    if "ca_file" in error:
        return "mend ca_file (or the server's certificate), then run this again"
    return (
        "check the server's host, port and security in the config file, and that it runs and "
        "can be reached from here"
    )


def _settings(settings: Settings, config: Path | None) -> Finding:
    where = f"from {config}" if config else "no config file (defaults and environment)"
    kind = settings.transport or "none"
    return Finding(
        "ok" if settings.transport else "problem",
        f"settings {where}: address {settings.address}, transport {kind}",
        "" if settings.transport else "give mail_dir, or [imap] and [smtp] (docs/mail.md)",
    )


def _secrets(settings: Settings) -> list[Finding]:
    """Where the passwords come from, what in the secrets file looks like a mistake, and a
    server login without a password."""
    found: list[Finding] = []
    secrets = settings.secrets
    if secrets is not None:
        names = ", ".join(f"{s.name} (line {s.line})" for s in secrets.values)
        found.append(Finding("ok", f"secrets from {secrets.source}: {names}"))
        for secret in secrets.values:
            found.extend(
                Finding(
                    "note",
                    f"the value of {secret.name} (line {secret.line}) {odd}",
                    "it is taken exactly as written after the '=': if that is not the "
                    "password, mend the line",
                )
                for odd in secret.oddities
            )
        sections = [n for n in ("imap", "smtp") if getattr(settings, n) is not None]
        found.extend(
            Finding(
                "note",
                f"{s.name} (line {s.line}) is for [{s.setting[0]}], which the settings do not "
                "have: it is not used",
            )
            for s in secrets.unused(sections)
        )
    for name in ("imap", "smtp"):
        server: Server | None = getattr(settings, name)
        if server is not None and server.user and server.password is None:
            found.append(
                Finding(
                    "problem",
                    f"[{name}] logs in as {server.user} but no password is given",
                    f"put REFEREE_{name.upper()}__PASSWORD=the password in the secrets file "
                    "(/etc/referee/secrets.env, read when the referee command runs as root), "
                    "or give secrets_file",
                )
            )
    return found


def _domain(settings: Settings) -> list[Finding]:
    """A referee whose own address is in a special-use domain: fine for a private mail
    system, which the players' addresses must then share."""
    domain = settings.address.rpartition("@")[2]
    special = special_use(domain)
    if special is None:
        return []
    allowed = ", ".join([domain, *settings.private_domains])
    return [
        Finding(
            "note",
            f"the referee's address is in .{special}, a special-use domain that mail from "
            f"the internet never reaches; players' addresses may be in {allowed}",
            "fine for a private mail system; to allow other such domains, list them in "
            "private_domains",
        )
    ]


def _folder(games: Path) -> list[Finding]:
    me = user_name(os.geteuid())
    if not games.is_dir():
        return [
            Finding(
                "problem",
                f"games folder {games} does not exist",
                f"create it as the service's user (mkdir {games}), or mend games_dir",
            )
        ]
    owner = user_name(games.stat().st_uid)
    if owner != me:
        return [
            Finding(
                "note",
                f"games folder {games} belongs to {owner}; this runs as {me}",
                f"run the doctor and game-master commands as {owner} (runuser -u {owner} -- "
                "referee doctor), or as root through the installed referee command",
            )
        ]
    if not os.access(games, os.W_OK):
        return [Finding("problem", f"games folder {games} cannot be written", f"chmod u+w {games}")]
    odd = next(strangers(games), None)
    if odd is not None:
        return [
            Finding(
                "problem",
                f"{odd} belongs to {user_name(odd.stat().st_uid)}, not to {me}",
                f"{hand_over(games)} (as root)",
            )
        ]
    return [Finding("ok", f"games folder {games}: {me}'s, writable")]


def _service(games: Path) -> list[Finding]:
    """Whether a service runs on the games folder (as `referee status` tells it): a warning
    when none does, for mail then waits unanswered. Nothing when its status cannot be read
    here (the folder's owner is another user: the folder's finding says so)."""
    path = games / ".mail" / "status.json"
    if path.exists() and not os.access(path, os.R_OK):
        return []
    told = read_status(path, datetime.now(UTC), ServiceLock(games).held())
    if told.get("running"):
        since, pid = told.get("since"), told.get("pid")
        return [Finding("ok", f"service: running since {since} (pid {pid})")]
    if not told:
        last = "it has never run on it"
    else:
        how = "stopped" if told.get("state") == "stopped" else "gone without stopping"
        last = f"last seen {told.get('heartbeat')}, {how}"
    return [
        Finding(
            "warning",
            f"no referee service is running on the games folder {games} ({last}): mail to "
            "the referee waits, unanswered, until one does",
            "start it: systemctl start referee (or, without systemd, referee serve); "
            "referee status says more",
        )
    ]


def _trial(settings: Settings, wait: float) -> Trial:
    """A mail to a new plus-address of the referee, carrying its loop header (a running
    service files it unanswered), looked for ``wait`` seconds. A worker of several sends it
    to an address Postfix routes to that worker: a game's, in its letters."""
    local, _, domain = settings.address.partition("@")
    token = secrets.token_hex(6)
    to = f"{local}+doctor.{token}@{domain}"
    shards = settings.shards()
    if shards.sharded:  # routed to this worker (docs/scaling.md)
        key = base64.b32encode(secrets.token_bytes(10)).decode().lower()
        to = f"{local}+{shards.settle(f'doctor-{token}')}.0.{key}@{domain}"
    message_id = f"{DOCTOR_MAIL_PREFIX}{token}@{domain or 'referee.invalid'}>"
    # our own loop id, when this user may read the service's secret: a running service then
    # knows the mail for the doctor's test, files it unanswered and lists it nowhere
    loop = ServiceLock(settings.games_dir).known_loop_id() or "doctor"
    raw = (
        f"From: Splendor referee <{settings.address}>\r\nTo: {to}\r\n"
        f"Subject: referee doctor: does mail to {to} arrive?\r\nMessage-ID: {message_id}\r\n"
        f"Date: {format_datetime(datetime.now(UTC))}\r\n{LOOP_HEADER}: {loop}\r\n"
        "Auto-Submitted: auto-generated\r\nMIME-Version: 1.0\r\n"
        'Content-Type: text/plain; charset="utf-8"\r\n\r\n'
        "A test of the referee doctor: it deletes this mail when it has found it.\r\n"
    ).encode()
    return Trial(settings.address, to, message_id, raw, wait)


def report(found: list[Finding]) -> tuple[str, bool]:
    """The findings as text, and whether all is well (no problem)."""
    lines = []
    for f in found:
        lines.append(f"{_LABELS[f.level]:<8} {f.what}")
        if f.fix:
            lines.append(f"{'':<8} -> {f.fix}")
    ok = not any(f.level == "problem" for f in found)
    lines.append(
        "All is well." if ok else "Mend the problems above, then run referee doctor again."
    )
    return "\n".join(lines) + "\n", ok


_LABELS: dict[Level, str] = {"ok": "ok", "note": "note", "warning": "WARNING", "problem": "PROBLEM"}
