"""What a worker of several does at its LMTP door (docs/scaling.md): it takes only mail for
the games it keeps, and hands on to the right worker a reply that reached it by the bare
address.

A reply to a plus address of a game (or a confirmation) another worker keeps is refused at
RCPT with ``451``: Postfix keeps it and tries again where its ``transport_maps`` then point,
so a worker never judges another's game, even while the map is being changed. So is a reply
to a game moved to this worker whose folder is not here yet.

A reply written to the bare address (a mail program that drops the plus part of Reply-To)
is routed by the Message-IDs it answers, which only its headers say: when those name a game
another worker keeps, the mail is handed on to that worker over LMTP, to the game's plus
address, and Postfix is answered as that worker answers.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable
from dataclasses import dataclass
from email.parser import BytesHeaderParser
from email.policy import compat32

from referee.mail.reading.routing import (
    confirmation_address,
    find_confirmation,
    find_route,
    reply_address,
    routed_name,
)
from referee.shards import Shards, listener_address

log = logging.getLogger("referee.lmtp")

#: Seconds to wait for another worker while handing a mail on.
HAND_ON_TIMEOUT = 60


@dataclass(frozen=True)
class Onward:
    """Where a mail goes instead: the plus address of its game at the worker keeping it."""

    recipient: str
    worker: int
    listener: str


class Door:
    """Which recipients this worker takes, and which mail it hands on; ``holds`` tells
    whether a game's folder is here."""

    def __init__(self, referee: str, shards: Shards, holds: Callable[[str], bool]) -> None:
        self.referee = referee
        self.shards = shards
        self.holds = holds

    def refusal(self, address: str) -> str | None:
        """Why the plus address ``address`` is not taken now (for a 451 at RCPT), or None."""
        local = address.lower().strip("<>").rpartition("@")[0]
        name = routed_name(local.partition("+")[2])
        if name is None or not self.shards.sharded:
            return None
        owner = self.shards.owner(name)
        if owner != self.shards.this:
            why = (
                f"{name} is kept by worker {owner} ({self.shards.workers[owner - 1]}), not by "
                f"this one ({self.shards.this}); try again where transport_maps point "
                "(referee shard)"
            )
        elif name in self.shards.moved and not self.holds(name):
            why = (
                f"game {name} is moved to worker {owner} but its folder is not here yet; "
                "try again later"
            )
        else:
            return None
        log.warning("mail for %s refused for now (451): %s", address, why)
        return why

    def onward(self, recipients: list[str], content: bytes) -> Onward | None:
        """Where a mail to the bare address goes instead, when the mail it answers is of a
        game another worker keeps; None to take it here."""
        if not self.shards.sharded or any("+" in r.partition("@")[0] for r in recipients):
            return None
        head = BytesHeaderParser(policy=compat32).parsebytes(content)
        in_reply_to = str(head.get("In-Reply-To") or "").split()
        references = str(head.get("References") or "").split()
        route = find_route([], in_reply_to, references, self.referee)
        if route is not None:
            name = route.game
            recipient = reply_address(self.referee, route.game, route.seat, route.key)
        else:
            token = find_confirmation([], in_reply_to, references, self.referee)
            if token is None:
                return None
            name, recipient = token, confirmation_address(self.referee, token)
        owner = self.shards.owner(name)
        if owner == self.shards.this:
            return None
        return Onward(recipient, owner, self.shards.workers[owner - 1])


def hand_on(onward: Onward, sender: str, content: bytes, hostname: str) -> str:
    """Hand a mail on to the worker keeping its game, over LMTP: that worker's answer (a
    ``451`` when it cannot be reached, so that the mail server tries again)."""
    try:
        where = listener_address(onward.listener)
        if isinstance(where, str):
            session = smtplib.LMTP(where)
        else:
            session = smtplib.LMTP(*where, timeout=HAND_ON_TIMEOUT)
        with session:
            session.ehlo(hostname)
            session.sendmail(sender, [onward.recipient], content)
    except smtplib.SMTPRecipientsRefused as err:
        code, said = next(iter(err.recipients.values()))
        return f"{code} {_one_line(said)}"
    except smtplib.SMTPResponseException as err:
        return f"{err.smtp_code} {_one_line(err.smtp_error)}"
    except (OSError, smtplib.SMTPException) as err:
        log.warning("worker %d (%s) cannot be reached: %s", onward.worker, onward.listener, err)
        return f"451 4.4.1 worker {onward.worker} cannot be reached now; try again later"
    log.info("mail handed on to worker %d as %s", onward.worker, onward.recipient)
    return f"250 2.1.5 handed on to worker {onward.worker}"


def _one_line(said: bytes | str) -> str:
    """A server's answer (several lines, maybe) as one line of ours."""
    text = said.decode("utf-8", "replace") if isinstance(said, bytes) else said
    return " ".join(text.split())
