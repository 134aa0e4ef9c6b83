"""Thunderbird (128 and later): a reply with no formatting goes out as text/plain;
format=flowed (RFC 3676, wrapped at 72, soft breaks ending in a space, space-stuffing), 8bit
when it is not ASCII. The attribution is ``On <short date> <time>, <name> wrote:`` (German:
``Am 02.12.26 um 05:01 schrieb <name>:``), the quote ``> ``. Thunderbird bottom-posts by
default; the top-posted variants are the "start my reply above the quote" setting.
"""

from __future__ import annotations

import random
from datetime import datetime
from email.message import EmailMessage

from ._mime import (
    Original,
    assemble,
    flowed,
    leaf,
    local,
    mailbox,
    phrase,
    quote,
    read_original,
    reply_subject,
    rfc_date,
    uuid4,
    zone,
)
from ._model import Client, Sender


def _attribution(original: Original, style: str, tz_minutes: int) -> str:
    when = local(original.date, zone(tz_minutes))
    name = original.reply_name or original.reply_addr
    if style == "en-GB":
        return f"On {when:%d/%m/%Y %H:%M}, {name} wrote:"
    if style == "en-US":
        hour = when.hour % 12 or 12
        return (
            f"On {when.month}/{when.day}/{when:%y} {hour}:{when:%M} "
            f"{'AM' if when.hour < 12 else 'PM'}, {name} wrote:"
        )
    return f"Am {when:%d.%m.%y} um {when:%H:%M} schrieb {name}:"


def _write(
    original_message: EmailMessage,
    move: str,
    sender: Sender,
    when: datetime,
    rng: random.Random,
    *,
    style: str,
    tz_minutes: int,
    bottom: bool,
    chatter: str = "",
) -> bytes:
    original = read_original(original_message)
    attribution = _attribution(original, style, tz_minutes)
    quoted = quote(original.text.rstrip("\n"), "> ", "> ")
    typed = f"{chatter}\n\n{move}" if chatter else move
    if bottom:
        text = f"{attribution}\n{quoted}\n\n{typed}\n\n"
    else:
        text = f"{typed}\n\n{attribution}\n{quoted}\n\n"
    body_text = flowed(text, 72)
    cte = "7bit" if body_text.isascii() else "8bit"
    part = leaf("text/plain; charset=UTF-8; format=flowed", body_text, "utf-8", cte)
    language = {"en-GB": "en-GB", "en-US": "en-US"}.get(style, "de-DE")
    headers = [
        ("Message-ID", f"<{uuid4(rng)}@{sender.address.rpartition('@')[2]}>"),
        ("Date", rfc_date(local(when, zone(tz_minutes)))),
        ("MIME-Version", "1.0"),
        ("User-Agent", "Mozilla Thunderbird"),
        ("Subject", phrase(reply_subject(original), "UTF-8", lower_hex=True)),
        ("Content-Language", language),
        ("To", mailbox(original.reply_name, original.reply_addr, "UTF-8", lower_hex=True)),
        ("References", " ".join(original.chain)),
        ("From", mailbox(sender.name, sender.address, "UTF-8", lower_hex=True)),
        ("In-Reply-To", original.message_id),
        ("Content-Type", part.header("Content-Type")),
        ("Content-Transfer-Encoding", cte),
    ]
    return assemble(headers, part.body)


def write_top(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    return _write(original, move, sender, when, rng, style="en-GB", tz_minutes=0, bottom=False)


def write_bottom(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    return _write(original, move, sender, when, rng, style="en-US", tz_minutes=-300, bottom=True)


CHATTER = (
    "Entschuldigt die späte Antwort, ich war das ganze Wochenende mit dem Rad unterwegs und "
    "habe mir das Brett erst heute Abend in Ruhe angesehen \N{EN DASH} schöner "
    "Eröffnungszug übrigens!"
)


def write_flowed(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    return _write(
        original, move, sender, when, rng,
        style="de", tz_minutes=60, bottom=False, chatter=CHATTER,
    )  # fmt: skip


CLIENTS = [
    Client(
        "thunderbird",
        "Thunderbird (en-GB), set to reply above the quote: text/plain format=flowed, 8bit "
        "UTF-8, 'On 02/12/2026 04:01, Splendor referee wrote:', lowercase-hex encoded words",
        write_top,
    ),
    Client(
        "thunderbird-bottom",
        "Thunderbird (en-US) as it comes: the move below the quote, "
        "'On 12/1/26 11:01 PM, Splendor referee wrote:'",
        write_bottom,
    ),
    Client(
        "thunderbird-flowed",
        "Thunderbird (de-DE), top-posted: a long German chatty line above the move that "
        "format=flowed soft-wraps, 'Am 02.12.26 um 05:01 schrieb Splendor referee:'",
        write_flowed,
    ),
]
