"""Mails to players: what to say (a :class:`Letter`, from one player's view), and the
envelope that carries it (headers, threading, text and HTML as multipart/alternative).

Letters are built from :class:`~referee.engine.view.GameView` only, never from a state, so a
mail cannot show a player another player's blind reserved card or any deck order.
"""

from __future__ import annotations

import binascii
import email.policy
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email.header import Header
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.utils import format_datetime, formataddr
from typing import Any

from referee.engine.view import GameView
from referee.mail.inbound import LOOP_HEADER
from referee.render import board_context, render

#: The longest list of moves a mail shows before saying how many more there are.
OPTIONS_SHOWN = 30
SENDER_NAME = "Splendor referee"
_POLICY = email.policy.compat32.clone(linesep="\r\n", max_line_length=998)


@dataclass(frozen=True)
class Letter:
    """One mail to one person, before it has an envelope."""

    game: str
    seat: int | None
    to: str
    name: str
    turn: int
    kind: str
    subject: str
    text: str
    html: str | None = None
    answers: str | None = None


@dataclass(frozen=True)
class Envelope:
    """What the service adds: our address, the player's reply address, ids and threading."""

    sender: str
    message_id: str
    reply_to: str | None = None
    in_reply_to: str | None = None
    references: list[str] = field(default_factory=list)
    loop_id: str = ""
    date: datetime | None = None


def letter(
    kind: str,
    shown: GameView | None,
    game: str,
    *,
    to: str,
    name: str,
    seat: int | None,
    turn: int,
    subject: str,
    paragraphs: Sequence[str],
    quoted: Sequence[str] = (),
    reason: str | None = None,
    options: Sequence[str] = (),
    options_title: str = "",
    help_: bool = False,
    answers: str | None = None,
    all_options: bool = False,
) -> Letter:
    """A letter of ``kind``; ``shown`` is the recipient's own view (None: no board at all).
    Lists of moves are cut at OPTIONS_SHOWN unless ``all_options``."""
    shown_options = list(options) if all_options else list(options[:OPTIONS_SHOWN])
    context: dict[str, Any] = {
        "name": name,
        "subject": subject,
        "paragraphs": list(paragraphs),
        "quoted": list(quoted),
        "reason": reason,
        "options": shown_options,
        "options_more": len(options) - len(shown_options),
        "options_title": options_title,
        "help": help_,
        "board": shown is not None,
    }
    if shown is not None:
        context |= board_context(shown, game)
    return Letter(
        game=game,
        seat=seat,
        to=to,
        name=name,
        turn=turn,
        kind=kind,
        subject=subject,
        text=render("mail.txt.j2", context),
        html=render("mail.html.j2", context) if shown is not None else None,
        answers=answers,
    )


def to_bytes(mail: Letter, envelope: Envelope) -> bytes:
    """The RFC 5322 bytes of a letter in its envelope (CRLF line ends, as .eml files have).

    Built with the classic ``email.mime`` classes: our headers are known to be well formed,
    so they are encoded (RFC 2047 for anything not ASCII) rather than parsed again, which is
    several times faster than ``EmailMessage``; bodies are UTF-8, quoted-printable."""
    text = _part(mail.text, "plain")
    message: MIMEBase
    if mail.html is None:
        message = text
    else:
        message = MIMEMultipart("alternative", _subparts=[text, _part(mail.html, "html")])
    headers = [
        ("From", formataddr((SENDER_NAME, envelope.sender), charset="utf-8")),
        ("To", formataddr((mail.name, mail.to), charset="utf-8")),
    ]
    if envelope.reply_to:
        headers.append(("Reply-To", formataddr((SENDER_NAME, envelope.reply_to))))
    headers.append(("Subject", _encoded(mail.subject)))
    headers.append(("Message-ID", envelope.message_id))
    if envelope.date is not None:
        headers.append(("Date", format_datetime(envelope.date)))
    if envelope.in_reply_to:
        headers.append(("In-Reply-To", envelope.in_reply_to))
    if envelope.references:
        headers.append(("References", "\r\n ".join(envelope.references)))
    headers += [("Auto-Submitted", "auto-replied"), ("X-Auto-Response-Suppress", "All")]
    if envelope.loop_id:
        headers.append((LOOP_HEADER, envelope.loop_id))
    mime = message.items()  # Content-Type …: after ours, as mail programs write them
    for name in dict(mime):
        del message[name]
    for name, value in [*headers, *mime]:
        message[name] = value
    return message.as_bytes(policy=_POLICY)


def _part(body: str, subtype: str) -> MIMENonMultipart:
    """A UTF-8 text part, quoted-printable (encoded by binascii, in C: the HTML is large)."""
    part = MIMENonMultipart("text", subtype, charset="utf-8")
    del part["MIME-Version"]  # said once, at the top
    part["Content-Transfer-Encoding"] = "quoted-printable"
    encoded = binascii.b2a_qp(body.replace("\r\n", "\n").encode(), istext=True)
    part.set_payload(encoded.decode("ascii"))
    return part


def _encoded(value: str) -> str:
    """A header value, RFC 2047-encoded if it is not plain ASCII."""
    if value.isascii():
        return value
    return Header(value, "utf-8", maxlinelen=998).encode()
