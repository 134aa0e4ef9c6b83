"""The envelope of a letter: our headers, its threading, and its text and HTML as one
RFC 5322 message (multipart/alternative). What the letter says is the letter writer's
(:mod:`referee.wording.writer`): this module only carries it.
"""

from __future__ import annotations

import base64
import binascii
import re
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import format_datetime, formataddr

from referee.mail.reading.inbound import LOOP_HEADER
from referee.wording.letter import Written


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


def to_bytes(mail: Written, envelope: Envelope) -> bytes:
    """The RFC 5322 bytes of a letter in its envelope (CRLF line ends, as .eml files have).

    The message has one fixed shape — our headers, then a UTF-8 text part and, for a board,
    an HTML alternative — so it is written out directly: header values RFC 2047-encoded
    when they are not ASCII, bodies by binascii's quoted-printable (in C; the HTML is
    large). This is several times faster than building an ``EmailMessage`` and matters at
    every turn. The boundary starts with "=_", which quoted-printable text
    never contains."""
    headers = [
        ("From", _address(mail.sender, envelope.sender)),
        ("To", _address(mail.name, mail.to)),
    ]
    if envelope.reply_to:
        headers.append(("Reply-To", _address(mail.sender, envelope.reply_to)))
    headers.append(("Subject", _encoded(mail.subject)))
    headers.append(("Message-ID", envelope.message_id))
    if envelope.date is not None:
        headers.append(("Date", format_datetime(envelope.date)))
    if envelope.in_reply_to:
        headers.append(("In-Reply-To", envelope.in_reply_to))
    if envelope.references:
        headers.append(("References", " ".join(envelope.references)))  # ten ids at most
    headers += [("Auto-Submitted", "auto-replied"), ("X-Auto-Response-Suppress", "All")]
    if envelope.loop_id:
        headers.append((LOOP_HEADER, envelope.loop_id))
    headers.append(("Content-Language", mail.language))
    headers.append(("MIME-Version", "1.0"))
    lines = [f"{name}: {_one_line(value)}" for name, value in headers]
    if mail.html is None:
        lines += [*_part_headers("plain"), "", _qp(mail.text)]
    else:
        boundary = f"=_referee_{uuid.uuid4().hex}"
        lines += [
            f'Content-Type: multipart/alternative; boundary="{boundary}"',
            "",
            f"--{boundary}",
            *_part_headers("plain"),
            "",
            _qp(mail.text),
            f"--{boundary}",
            *_part_headers("html"),
            "",
            _qp(mail.html),
            f"--{boundary}--",
        ]
    written = "\r\n".join(lines)
    return (written if written.endswith("\r\n") else written + "\r\n").encode()


def _part_headers(subtype: str) -> list[str]:
    return [
        f'Content-Type: text/{subtype}; charset="utf-8"',
        "Content-Transfer-Encoding: quoted-printable",
    ]


def _qp(body: str) -> str:
    """``body`` as quoted-printable UTF-8, CRLF line ends, no line over 76 characters."""
    encoded = binascii.b2a_qp(body.replace("\r\n", "\n").encode(), istext=True).decode()
    return encoded.replace("\n", "\r\n")


def _one_line(value: str) -> str:
    """A header value never breaks its header (values from inbound mail included)."""
    return re.sub(r"[\r\n]+", " ", value)


def _encoded(value: str) -> str:
    """A header value, RFC 2047-encoded if it is not plain ASCII: UTF-8 base64 words of at
    most 75 characters, split between characters, one space apart (which readers drop)."""
    if value.isascii():
        return value
    words, chunk = [], b""
    for char in value:
        data = char.encode()
        if len(chunk) + len(data) > _WORD_BYTES:
            words.append(chunk)
            chunk = b""
        chunk += data
    words.append(chunk)
    return " ".join(f"=?utf-8?b?{base64.b64encode(w).decode()}?=" for w in words)


#: The most bytes one encoded word carries: 45 bytes are 60 base64 characters, 72 with the
#: "=?utf-8?b?" and "?=" around them (RFC 2047 allows 75).
_WORD_BYTES = 45


def _address(name: str, address: str) -> str:
    """``Name <address>``, the name in one encoded word when it is not ASCII (as the email
    package's ``formataddr`` writes it: some readers, Python's among them, keep the space
    between two encoded words of a name)."""
    if name.isascii():
        return formataddr((name, address))
    return f"=?utf-8?b?{base64.b64encode(name.encode()).decode()}?= <{address}>"
