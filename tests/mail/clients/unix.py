"""mutt (2.x) in a terminal: it quotes the text/plain part of the referee's mail behind
``> `` under ``On Wed, Dec 02, 2026 at 04:01:53AM +0000, Splendor referee wrote:`` (its
default $attribution and $date_format, in the author's time zone), and its user writes the
move below the quote, then a ``-- `` signature. The charset is the first of $send_charset
(us-ascii, iso-8859-1, utf-8) that holds the text, sent 8bit; header words are encoded one
run at a time; mutt 2 sends no User-Agent by default.
"""

from __future__ import annotations

import base64
import random
from datetime import datetime
from email.message import EmailMessage

from ._mime import (
    B64,
    DAYS,
    MONTHS,
    assemble,
    chars,
    fits,
    leaf,
    local,
    mailbox,
    offset,
    phrase,
    quote,
    read_original,
    reply_subject,
    rfc_date,
    zone,
)
from ._model import Client, Sender

SIGNATURE = "Buy the ticket, take the ride.\nTake care, and may the nobles smile on you."


def message_id(rng: random.Random, when: datetime, host: str) -> str:
    """mutt 2: base64 of the time's low 32 bits, then 12 random base64 characters."""
    stamp = int(when.timestamp()).to_bytes(8, "big")[-3:]
    return f"<{base64.b64encode(stamp).decode()}{chars(rng, 12, B64)}@{host}>"


def write_mutt(
    original_message: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    original = read_original(original_message)
    shown = original.date  # %d: the date in the author's own zone
    hour = shown.hour % 12 or 12
    attribution = (
        f"On {DAYS[shown.weekday()]}, {MONTHS[shown.month - 1]} {shown.day:02d}, {shown.year} at "
        f"{hour:02d}:{shown:%M:%S}{'AM' if shown.hour < 12 else 'PM'} {offset(shown)}, "
        f"{original.reply_name} wrote:"
    )
    first_name = sender.name.split(" ")[0] or sender.address
    text = (
        f"{attribution}\n{quote(original.text.rstrip(chr(10)), '> ', '> ')}\n\n{move}\n\n"
        f"-- \n{SIGNATURE}\n{first_name}\n"
    )
    charset = next(c for c in ("us-ascii", "iso-8859-1", "utf-8") if fits(text, c))
    cte = "7bit" if charset == "us-ascii" else "8bit"
    part = leaf(
        f"text/plain; charset={charset}",
        text,
        charset,
        cte,
        extra=[("Content-Disposition", "inline")],
    )
    header_charset = "iso-8859-1" if fits(sender.name + original.subject, "iso-8859-1") else "utf-8"
    tz = zone(60)
    headers = [
        ("Date", rfc_date(local(when, tz))),
        ("From", mailbox(sender.name, sender.address, header_charset, style="words-q")),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        ("Subject", phrase(reply_subject(original), header_charset, style="words-q")),
        ("Message-ID", message_id(rng, when, "tuxedo")),
        ("References", " ".join(original.chain)),
        ("MIME-Version", "1.0"),
        ("Content-Type", part.header("Content-Type")),
        ("Content-Disposition", "inline"),
        ("Content-Transfer-Encoding", cte),
        ("In-Reply-To", original.message_id),
    ]
    return assemble(headers, part.body)


CLIENTS = [
    Client(
        "mutt",
        "mutt 2.x: text/plain iso-8859-1 8bit, the move below the quote, a '-- ' signature "
        "whose lines begin 'Buy' and 'Take', <base64@host> Message-ID, no User-Agent",
        write_mutt,
    ),
]
