"""One service per mailbox: a lock kept in the mailbox itself, since two machines may share it.

Each running service keeps one heartbeat message in the folder ``referee-service`` of the
mailbox it reads (after ``folder_prefix``), replaced every BEAT_EVERY seconds: who it is
(host, process, games folder, an instance id) and when it last beat. A service starting
appends its own heartbeat, then looks at every fresh one (beaten within STALE_AFTER
seconds): the one the server numbered first (the lowest UID) holds the mailbox. If that is
not this service, it takes its heartbeat away and refuses to start, naming the holder; a
service that finds, at a heartbeat, that another holds the mailbox stops the same way. A
service that died leaves a heartbeat that goes stale, and the next one to start clears it;
on the same machine, a heartbeat whose process is gone counts as stale at once, so that a
service killed and started again (systemd's Restart=) takes the mailbox back straight away.

Pure where it can be: the message a heartbeat is, and which of the heartbeats found holds
the mailbox. The IMAP side is in :mod:`referee.mail.transports.imap`.
"""

from __future__ import annotations

import email
import email.policy
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import format_datetime

from referee.errors import ConfigurationError

#: The folder of heartbeats, after the folder prefix.
LOCK_FOLDER = "referee-service"
#: How often a running service beats (the IMAP transport's IDLE is no longer than this).
BEAT_EVERY = 30.0
#: A heartbeat older than this is a service that is gone.
STALE_AFTER = 100.0


@dataclass(frozen=True)
class Heartbeat:
    """One service's heartbeat, as found in the lock folder."""

    uid: int
    instance: str
    host: str
    pid: str
    games: str
    at: datetime

    def fresh(self, now: datetime) -> bool:
        """Beaten within STALE_AFTER seconds, by a process that (on this machine) lives."""
        if (now - self.at).total_seconds() >= STALE_AFTER:
            return False
        return not (self.host == socket.gethostname() and not _alive(self.pid))

    def describe(self) -> str:
        return (
            f"host {self.host}, pid {self.pid}, games folder {self.games}, last heard from "
            f"{self.at.isoformat(timespec='seconds')}"
        )


def _alive(pid: str) -> bool:
    """Whether a process of this machine lives (one we may not signal lives too)."""
    try:
        os.kill(int(pid), 0)
    except ValueError:
        return True  # not a number: take it at its word
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def heartbeat_message(instance: str, games: str, pid: int, now: datetime) -> bytes:
    """The message one heartbeat is."""
    host = socket.gethostname()
    return (
        f"From: Splendor referee <referee@{host}>\r\n"
        f"Subject: referee service on {host} (pid {pid}): this mailbox is served\r\n"
        f"Date: {format_datetime(now)}\r\n"
        f"X-Referee-Instance: {instance}\r\nX-Referee-Host: {host}\r\n"
        f"X-Referee-Pid: {pid}\r\nX-Referee-Games: {games}\r\n"
        f"X-Referee-Beat: {now.isoformat()}\r\nMIME-Version: 1.0\r\n"
        'Content-Type: text/plain; charset="utf-8"\r\n\r\n'
        "The Splendor referee service that reads this mailbox keeps this message up to date "
        "so that a second service does not start on it. Do not delete it while it runs.\r\n"
    ).encode()


def read_heartbeat(uid: int, head: bytes) -> Heartbeat | None:
    """A heartbeat from a message's header block, or None if it is not one."""
    message = email.message_from_bytes(head, policy=email.policy.compat32)
    instance = message.get("X-Referee-Instance")
    if not instance:
        return None
    try:
        at = datetime.fromisoformat(str(message.get("X-Referee-Beat", "")).strip())
    except ValueError:
        at = datetime.fromtimestamp(0, UTC)
    return Heartbeat(
        uid,
        str(instance).strip(),
        str(message.get("X-Referee-Host", "?")).strip(),
        str(message.get("X-Referee-Pid", "?")).strip(),
        str(message.get("X-Referee-Games", "?")).strip(),
        at if at.tzinfo else at.replace(tzinfo=UTC),
    )


def holder(beats: list[Heartbeat], now: datetime) -> Heartbeat | None:
    """The service that holds the mailbox: the fresh heartbeat the server numbered first."""
    fresh = [b for b in beats if b.fresh(now)]
    return min(fresh, key=lambda b: b.uid) if fresh else None


def taken(by: Heartbeat, mailbox: str) -> ConfigurationError:
    """The refusal of a service that finds the mailbox served by another."""
    return ConfigurationError(
        f"another referee service ({by.describe()}) is serving the mailbox {mailbox}: one "
        "service per mailbox; stop that one first, or give this one a mailbox of its own "
        "(a service that died is forgotten 100 s after its last heartbeat)"
    )
