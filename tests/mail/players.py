"""Players' mail programs, for the mail tests: read the referee's mail, write replies as a
person would (Reply, the board quoted below, the move in everyday words)."""

from __future__ import annotations

import binascii
import email
import email.policy
import random
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.utils import formatdate, parseaddr
from pathlib import Path
from typing import Any

from referee.engine import CARDS, Buy, Move, Pass, Reserve, Take
from referee.engine.cards import STONE_NAMES, TOKEN_COLOURS
from referee.engine.rules import default_payment
from referee.engine.state import GameState, need

LETTERS = ("w", "u", "g", "r", "k", "*")


_PARSED: dict[Path, EmailMessage] = {}


def _parsed(path: Path) -> EmailMessage:
    """A mail file parsed once (outbox files never change once written)."""
    if path not in _PARSED:
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        _PARSED[path] = message
    return _PARSED[path]


def mails_to(mail_dir: Path, address: str) -> list[EmailMessage]:
    """Every mail in the outbox addressed to ``address``, oldest first."""
    paths = sorted((mail_dir / "outbox").glob("*.eml"))
    return [_parsed(p) for p in paths if address in _recipient(p)]


_RECIPIENTS: dict[Path, str] = {}


def _recipient(path: Path) -> str:
    """The To header of a mail file, read once."""
    if path not in _RECIPIENTS:
        _RECIPIENTS[path] = str(_parsed(path)["To"])
    return _RECIPIENTS[path]


def latest(mail_dir: Path, address: str) -> EmailMessage:
    mails = mails_to(mail_dir, address)
    assert mails, f"no mail to {address}"
    return mails[-1]


def text_of(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    content = part.get_content()
    assert isinstance(content, str)
    return content


def reply_message(
    to_mail: EmailMessage,
    sender: str,
    text: str,
    *,
    message_id: str,
    quote: bool = True,
    extra_headers: dict[str, str] | None = None,
    to: str | None = None,
    name: str = "",
) -> EmailMessage:
    """A reply to ``to_mail`` as a mail program's Reply makes it: the move on top, the
    referee's mail quoted below an attribution line."""
    message = EmailMessage()
    message["From"] = f"{name or sender.split('@')[0]} <{sender}>"
    message["To"] = to or str(to_mail["Reply-To"] or to_mail["From"])
    message["Subject"] = "Re: " + str(to_mail["Subject"])
    message["Message-ID"] = message_id
    message["In-Reply-To"] = str(to_mail["Message-ID"])
    message["References"] = references(to_mail)
    for key, value in (extra_headers or {}).items():
        message[key] = value
    body = text
    if quote:
        quoted = "\n".join("> " + line for line in text_of(to_mail).splitlines())
        body += f"\n\nOn Tue, 1 Dec 2026 at 09:00, Splendor referee wrote:\n{quoted}\n"
    message.set_content(body)
    return message


def references(parent: EmailMessage | Message) -> str:
    """The References of a reply to ``parent``, as every mail program builds it: the parent's
    own References (the thread so far, oldest first), then the parent's Message-ID."""
    chain = " ".join(str(parent["References"] or "").split())
    return f"{chain} {parent['Message-ID']}".strip()


def deliver(mail_dir: Path, name: str, raw: bytes) -> Path:
    """Put a message into the dir transport's inbox as a mail server would: written under a
    dot-name, then renamed, so that the service never reads half of it."""
    path = mail_dir / "inbox" / name
    hidden = path.with_name(f".{name}.tmp")
    hidden.write_bytes(raw)
    hidden.rename(path)
    return path


def reply(
    mail_dir: Path,
    to_mail: EmailMessage,
    sender: str,
    text: str,
    *,
    message_id: str,
    **options: Any,
) -> Path:
    """Write a reply to ``to_mail`` into the dir transport's inbox."""
    message = reply_message(to_mail, sender, text, message_id=message_id, **options)
    return deliver(mail_dir, f"{message_id.strip('<>').replace('@', '_')}.eml", bytes(message))


def humanise(move: Move, state: GameState, rng: random.Random) -> str:
    """A move as a person might write it: any case, colour, stone or letter names, card ids
    with or without the zero, the payment only when it is not the usual one."""

    def colour(kind: int) -> str:
        word = rng.choice([TOKEN_COLOURS[kind], STONE_NAMES[kind], LETTERS[kind]])
        return word.upper() if rng.random() < 0.2 else word

    def tokens(counts: tuple[int, ...]) -> str:
        parts = []
        for kind, n in enumerate(counts):
            if n == 1:
                parts.append(colour(kind))
            elif n > 1:
                parts.append(rng.choice([f"{n} {colour(kind)}", " ".join([colour(kind)] * n)]))
        return rng.choice([" ", ", "]).join(parts)

    def card(card_id: str) -> str:
        level, number = card_id.split("-")
        return rng.choice([card_id, f"{level}-{int(number)}"])

    lines: list[str] = []
    match move:
        case Take(gems=gems):
            lines.append(f"{rng.choice(['take', 'Take', 'TAKE'])} {tokens(gems)}")
        case Reserve(card=card_id, deck=deck):
            lines.append(f"reserve {card(card_id)}" if card_id else f"Reserve deck {deck}")
        case Buy(card=card_id, pay=pay):
            player = state.player
            usual = default_payment(need(CARDS[card_id], player.bonuses), player.tokens)
            text = f"buy {card(card_id)}"
            if pay != usual:
                text += f" pay {tokens(pay) if any(pay) else 'nothing'}"
            lines.append(text)
        case Pass():
            lines.append("pass")
    if any(move.returned):
        lines.append(f"return {tokens(move.returned)}")
    if move.noble:
        lines.append(f"noble {move.noble}")
    return "\n".join(lines)


_HEADERS = BytesHeaderParser(policy=email.policy.compat32)


def quick_reply(board: bytes, sender: str, text: str, message_id: str) -> tuple[str, bytes]:
    """A reply to one of the referee's boards (its bytes, as sent or as a maildir keeps
    them), as a mail program's Reply writes it (the move on top, the board's text quoted
    below), and where it goes. Written out directly, for the benchmarks: their players run on
    the same cores as the referee and the mail servers, so they had better be light."""
    head, _, body = board.replace(b"\r\n", b"\n").partition(b"\n\n")  # (maildir: LF)
    message = _HEADERS.parsebytes(head)
    # the referee's text part comes first, quoted-printable, up to the next boundary
    start = body.index(b"Content-Transfer-Encoding: quoted-printable\n\n") + 45
    board_text = binascii.a2b_qp(body[start : body.index(b"\n--", start)]).decode()
    quoted = "\n".join("> " + line for line in board_text.splitlines())
    written = f"{text}\n\nOn Tue, 1 Dec 2026 at 09:00, Splendor referee wrote:\n{quoted}\n"
    to = parseaddr(str(message["Reply-To"]))[1]
    headers = [
        f"From: {sender.partition('@')[0]} <{sender}>",
        f"To: {to}",
        f"Subject: Re: {message['Subject']}",
        f"Message-ID: {message_id}",
        f"In-Reply-To: {message['Message-ID']}",
        f"References: {references(message)}",
        f"Date: {formatdate()}",
        "MIME-Version: 1.0",
        'Content-Type: text/plain; charset="utf-8"',
        "Content-Transfer-Encoding: quoted-printable",
    ]
    encoded = binascii.b2a_qp(written.encode(), istext=True).decode().replace("\n", "\r\n")
    return to, ("\r\n".join(headers) + "\r\n\r\n" + encoded).encode()


def write(
    mail_dir: Path,
    sender: str,
    to: str,
    text: str,
    *,
    message_id: str,
    name: str = "",
    subject: str = "Splendor",
    footer: str = "Sent from my iPhone",
    checked_by: str | None = None,
) -> Path:
    """A new mail (not a reply) from ``sender`` to ``to``, as a phone's mail program writes
    it: the text, then its default footer; delivered to the dir transport's inbox.
    ``checked_by``: the receiving server of that name checked it, and DMARC passed, as its
    Authentication-Results header says."""
    message = EmailMessage()
    if checked_by:
        domain = sender.rpartition("@")[2]
        message["Authentication-Results"] = (
            f"{checked_by}; dkim=pass header.d={domain} header.s=s1; "
            f"spf=pass smtp.mailfrom={sender}; dmarc=pass (p=reject) header.from={domain}"
        )
    message["From"] = f"{name or sender.split('@')[0]} <{sender}>"
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = message_id
    message["Date"] = formatdate(localtime=True)
    message.set_content(f"{text}\n\n{footer}\n" if footer else f"{text}\n")
    return deliver(mail_dir, f"{message_id.strip('<>').replace('@', '_')}.eml", bytes(message))
