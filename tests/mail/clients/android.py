"""Android mail apps: K-9 Mail, FairEmail and Samsung Email.

* K-9 Mail (5.x/6.x, now Thunderbird for Android): text/plain, quoted-printable with every
  ``.`` written ``=2E``; top-posts by default with ``On <long date>, <name> <addr> wrote:``
  and ``>`` quotes (no space); the default signature goes after the quoted text
  (``signatureBeforeQuotedText`` is false by default), behind ``-- ``.
* FairEmail: HTML with a plain alternative, top-posted, a blockquote (largely ASSUMED: no
  real FairEmail reply was found to compare with).
* Samsung Email: HTML and plain, both base64; ``Sent from my Galaxy`` (older versions:
  ``Sent from my Samsung Galaxy smartphone.``) under the move, then
  ``-------- Original message --------`` and the original unquoted.
"""

from __future__ import annotations

import random
from datetime import datetime
from email.message import EmailMessage

from ._mime import (
    MONTHS_LONG,
    assemble,
    clock12,
    escape,
    hexdigits,
    html_lines,
    html_to_text,
    leaf,
    local,
    mailbox,
    multipart,
    offset,
    phrase,
    quote,
    read_original,
    reply_subject,
    rfc_date,
    uuid4,
    zone,
)
from ._model import Client, Sender

AUTO_DIV = '<div dir="auto">{}</div>'
AUTO_EMPTY = '<div dir="auto"><br></div>'
K9_SIGNATURE = "Sent from my Android device with K-9 Mail. Please excuse my brevity."


def _gmt(when: datetime) -> str:
    text = offset(when)
    return "GMT" if text == "+0000" else f"GMT{text[:3]}:{text[3:]}"


def write_k9(
    original_message: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    original = read_original(original_message)
    tz = zone(60)
    shown = local(original.date, tz)
    attribution = (
        f"On {MONTHS_LONG[shown.month - 1]} {shown.day}, {shown.year} "
        f"{clock12(shown, seconds=True)} {_gmt(shown)}, "
        f"{original.reply_name} <{original.reply_addr}> wrote:"
    )
    text = (
        f"{move}\n\n{attribution}\n{quote(original.text.rstrip(chr(10)), '>', '>')}\n\n"
        f"-- \n{K9_SIGNATURE}\n"
    )
    part = leaf("text/plain;\r\n charset=utf-8", text, "utf-8", "quoted-printable", dots=True)
    headers = [
        ("Date", rfc_date(local(when, tz))),
        ("User-Agent", "K-9 Mail for Android"),
        ("In-Reply-To", original.message_id),
        ("References", " ".join(original.chain)),
        ("MIME-Version", "1.0"),
        ("Content-Type", part.header("Content-Type")),
        ("Content-Transfer-Encoding", "quoted-printable"),
        ("Subject", phrase(reply_subject(original), "UTF-8")),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        ("From", mailbox(sender.name, sender.address, "UTF-8")),
        ("Message-ID", f"<{str(uuid4(rng)).upper()}@{sender.address.rpartition('@')[2]}>"),
    ]
    return assemble(headers, part.body)


def write_fairemail(
    original_message: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    original = read_original(original_message)
    tz = zone(60)
    shown = local(original.date, tz)
    attribution = (
        f"{shown.day} {MONTHS_LONG[shown.month - 1][:3]} {shown.year} {shown:%H:%M:%S} "
        f"{original.reply_name} <{original.reply_addr}>:"
    )
    markup = (
        '<!DOCTYPE html>\n<html><head><meta name="viewport" content="width=device-width, '
        'initial-scale=1.0"><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">'
        f"</head><body>{html_lines(move, '<p>{}</p>', '<p><br></p>')}<p><br></p>"
        f"<div>{escape(attribution)}<br>"
        '<blockquote style="margin:0 0 0 3px;border-left:3px solid #ccc;padding-left:6px;">'
        f"{original.html_body}</blockquote></div></body></html>\n"
    )
    quoted = html_to_text(original.html_body, bullet="* ", cell=" ")
    plain = f"{move}\n\n{attribution}\n{quote(quoted, '> ', '>')}\n"
    boundary = f"----=_Part_{rng.randrange(10**6)}_{rng.randrange(10**9)}.{rng.randrange(10**13)}"
    parts = [
        leaf("text/plain; charset=UTF-8", plain, "utf-8", "quoted-printable", cte_first=False),
        leaf("text/html; charset=UTF-8", markup, "utf-8", "quoted-printable"),
    ]
    body = multipart(f'multipart/alternative; \r\n\tboundary="{boundary}"', boundary, parts)
    headers = [
        ("Date", rfc_date(local(when, tz))),
        ("From", mailbox(sender.name, sender.address, "UTF-8")),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        ("Message-ID", f"<{uuid4(rng)}@{sender.address.rpartition('@')[2]}>"),
        ("In-Reply-To", original.message_id),
        ("References", " ".join(original.chain)),
        ("Subject", phrase(reply_subject(original), "UTF-8")),
        ("MIME-Version", "1.0"),
        ("Content-Type", body.header("Content-Type")),
    ]
    return assemble(headers, body.body)


def _samsung(
    original_message: EmailMessage,
    move: str,
    sender: Sender,
    when: datetime,
    rng: random.Random,
    *,
    footer: str,
) -> bytes:
    original = read_original(original_message)
    tz = zone(0)
    shown = local(original.date, tz)
    zone_text = offset(shown)
    stamp = (
        f"{shown.month}/{shown.day}/{shown:%y} {shown:%H:%M} (GMT{zone_text[:3]}:{zone_text[3:]})"
    )
    to_line = f"{original.to_name} <{original.to_addr}>" if original.to_name else original.to_addr
    header_lines = [
        "-------- Original message --------",
        f"From: {original.from_name} <{original.from_addr}> ",
        f"Date: {stamp} ",
        f"To: {to_line} ",
        f"Subject: {original.subject} ",
    ]
    quoted = html_to_text(original.html_body, bullet="", cell=" ")
    plain = f"{move}\n\n\n\n{footer}\n\n\n\n" + "\n".join(header_lines) + f"\n\n{quoted}\n"
    block = "".join(f"<div>{escape(line)}</div>" for line in header_lines)
    markup = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"></head>'
        f'<body dir="auto">{html_lines(move, AUTO_DIV, AUTO_EMPTY)}'
        '<div dir="auto"><br></div><div dir="auto"><br></div>'
        '<div id="composer_signature" dir="auto"><div style="font-size:12px;color:#575757" '
        f'dir="auto">{escape(footer)}</div></div><div dir="auto"><br></div><div><br></div>'
        f'<div align="left" dir="auto" style="font-size:100%;color:#000000">{block}<div><br></div>'
        f"</div>{original.html_body}</body></html>"
    )
    boundary = f"--_com.samsung.android.email_{rng.randrange(10**15, 10**16)}"
    parts = [
        leaf("text/plain; charset=utf-8", plain, "utf-8", "base64"),
        leaf("text/html; charset=utf-8", markup, "utf-8", "base64"),
    ]
    body = multipart(f'multipart/alternative; boundary="{boundary}"', boundary, parts)
    headers = [
        ("Message-ID", f"<{hexdigits(rng, 24)}.{int(when.timestamp() * 1000)}@email.android.com>"),
        ("Date", rfc_date(local(when, tz))),
        ("Subject", phrase(reply_subject(original), "UTF-8", style="whole-b")),
        ("In-Reply-To", original.message_id),
        ("References", " ".join(original.chain)),
        ("From", mailbox(sender.name, sender.address, "UTF-8", style="whole-b")),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        ("MIME-Version", "1.0"),
        ("Content-Type", body.header("Content-Type")),
    ]
    return assemble(headers, body.body)


def write_samsung(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    return _samsung(original, move, sender, when, rng, footer="Sent from my Galaxy")


def write_samsung_legacy(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    return _samsung(
        original, move, sender, when, rng, footer="Sent from my Samsung Galaxy smartphone."
    )


CLIENTS = [
    Client(
        "k9",
        "K-9 Mail for Android: text/plain quoted-printable with '.' as =2E, top-posted, "
        "'>' quotes, 'On December 2, 2026 5:01:53 AM GMT+01:00, … wrote:', the K-9 signature "
        "behind '-- ' after the quote",
        write_k9,
    ),
    Client(
        "fairemail",
        "FairEmail (Android): HTML + plain quoted-printable, top-posted, blockquote quote "
        "(shape largely assumed), no signature, no User-Agent",
        write_fairemail,
    ),
    Client(
        "samsung",
        "Samsung Email (One UI): HTML + plain, both base64, 'Sent from my Galaxy', then "
        "'-------- Original message --------' and the original unquoted",
        write_samsung,
    ),
    Client(
        "samsung-legacy",
        "older Samsung Email: as samsung, signed 'Sent from my Samsung Galaxy smartphone.'",
        write_samsung_legacy,
    ),
]
