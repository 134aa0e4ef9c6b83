"""Gmail: the web client and the Android and iOS apps.

All three top-post: the cursor is above a ``gmail_quote`` block whose attribution line is
``On <date> <name> <address> wrote:``; the plain alternative is Gmail's own rendering of the
HTML it composed, hard-wrapped at 78 columns, the quote behind ``> `` (``>`` alone on an empty
line), with the attribution wrapped too (Gmail may break right after the ``<``).
"""

from __future__ import annotations

import random
from datetime import datetime
from email.message import EmailMessage

from ._mime import (
    B64URL,
    DAYS,
    MONTHS,
    NNBSP,
    Original,
    assemble,
    clock12,
    encoded_words,
    escape,
    hexdigits,
    html_lines,
    html_to_text,
    leaf,
    local,
    mailbox,
    multipart,
    quote,
    read_original,
    reply_subject,
    rewrap,
    rfc_date,
    wrap,
    zone,
)
from ._model import Client, Sender

WIDTH = 78
QUOTE_STYLE_WEB = "margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex"
QUOTE_STYLE_MOBILE = "margin:0 0 0 .8ex;border-left:1px #ccc solid;padding-left:1ex"


def message_id(rng: random.Random) -> str:
    """``<CA…@mail.gmail.com>``: ``CA``, then some 45 characters of base64url and ``=``."""
    body = "".join(rng.choice(B64URL + "+=") for _ in range(45))
    return f"<CA{rng.choice('ABDEFGHJKLMNOP')}{body}@mail.gmail.com>"


def attribution_wrap(line: str, width: int = WIDTH) -> list[str]:
    """Gmail wraps the attribution like any line, but may break just after ``<``."""
    if len(line) <= width:
        return [line]
    head, angle, tail = line.partition("<")
    if angle and len(head) + 1 <= width and len(tail) <= width:
        return [head + angle, tail]
    return wrap(line, width)


def web_attribution(original: Original, tz_minutes: int) -> str:
    """``On Tue, Dec 1, 2026 at 11:01 PM Splendor referee <referee+…> wrote:`` (en-US)."""
    when = local(original.date, zone(tz_minutes))
    date = f"{DAYS[when.weekday()]}, {MONTHS[when.month - 1]} {when.day}, {when.year}"
    return f"On {date} at {clock12(when, sep=NNBSP)} {original.reply_name} <{original.reply_addr}>"


def android_attribution(original: Original, tz_minutes: int) -> str:
    """``On Wed, 2 Dec 2026, 04:01 Splendor referee, <referee+…> wrote:`` (en-GB; the comma
    after the name is the Android app's)."""
    when = local(original.date, zone(tz_minutes))
    date = f"{DAYS[when.weekday()]}, {when.day} {MONTHS[when.month - 1]} {when.year}"
    return f"On {date}, {when:%H:%M} {original.reply_name}, <{original.reply_addr}>"


def _write(
    original_message: EmailMessage,
    move: str,
    sender: Sender,
    when: datetime,
    rng: random.Random,
    *,
    mobile: bool,
    attribution: str,
    tz_minutes: int,
    greeting: str = "",
) -> bytes:
    original = read_original(original_message)
    typed = f"{greeting}\n\n{move}" if greeting else move
    # the HTML Gmail composes
    div = '<div dir="auto">{}</div>' if mobile else "<div>{}</div>"
    empty = '<div dir="auto"><br></div>' if mobile else "<div><br></div>"
    if mobile:
        typed_html = html_lines(typed, div, empty)
    elif "\n" in typed:
        typed_html = f'<div dir="ltr">{html_lines(typed, div, empty)}</div>'
    else:
        typed_html = f'<div dir="ltr">{escape(typed)}</div>'
    address = escape(original.reply_addr)
    attribution_html = escape(attribution).replace(
        escape(f"<{original.reply_addr}>"),
        f'&lt;<a href="mailto:{address}">{address}</a>&gt;',
    )
    style = QUOTE_STYLE_MOBILE if mobile else QUOTE_STYLE_WEB
    markup = (
        f'{typed_html}<br><div class="gmail_quote gmail_quote_container">'
        f'<div dir="ltr" class="gmail_attr">{attribution_html} wrote:<br></div>'
        f'<blockquote class="gmail_quote" style="{style}">{original.html_body}</blockquote></div>\n'
    )
    # ... and its plain rendering of it
    quoted = html_to_text(original.html_body, bullet="   - ", strong="*", cell="  ")
    attribution_lines = attribution_wrap(f"{attribution} wrote:")
    plain = (
        rewrap(typed, WIDTH)
        + "\n\n"
        + "\n".join(attribution_lines)
        + "\n\n"
        + rewrap(quote(quoted), WIDTH)
        + "\n"
    )
    boundary = "000000000000" + hexdigits(rng, 16)
    text_part = leaf(
        'text/plain; charset="UTF-8"',
        plain,
        "utf-8",
        None if plain.isascii() else "quoted-printable",
    )
    html_part = leaf('text/html; charset="UTF-8"', markup, "utf-8", "quoted-printable")
    body = multipart(
        f'multipart/alternative; boundary="{boundary}"', boundary, [text_part, html_part]
    )
    sent = local(when, zone(tz_minutes))
    headers = [
        ("MIME-Version", "1.0"),
        ("References", " ".join(original.chain)),
        ("In-Reply-To", original.message_id),
        ("From", mailbox(sender.name, sender.address, "UTF-8")),
        ("Date", rfc_date(sent)),
        ("Message-ID", message_id(rng)),
        ("Subject", encoded_words(reply_subject(original), "UTF-8", "Q")
         if not reply_subject(original).isascii() else reply_subject(original)),
        ("To", mailbox(original.reply_name, original.reply_addr, "UTF-8")),
        ("Content-Type", body.header("Content-Type")),
    ]  # fmt: skip
    return assemble(headers, body.body, indent=" ")


def write_web(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    parsed = read_original(original)
    return _write(
        original, move, sender, when, rng,
        mobile=False, attribution=web_attribution(parsed, -300), tz_minutes=-300,
        greeting="Hi,",
    )  # fmt: skip


def write_android(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    parsed = read_original(original)
    return _write(
        original, move, sender, when, rng,
        mobile=True, attribution=android_attribution(parsed, 0), tz_minutes=0,
    )  # fmt: skip


def write_ios(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    parsed = read_original(original)
    return _write(
        original, move, sender, when, rng,
        mobile=True, attribution=web_attribution(parsed, -480), tz_minutes=-480,
    )  # fmt: skip


CLIENTS = [
    Client(
        "gmail-web",
        "Gmail in a browser (en-US, New York): multipart/alternative, top-posted under a "
        "'Hi,' line, plain part wrapped at 78 with the attribution broken after '<'",
        write_web,
    ),
    Client(
        "gmail-android",
        'Gmail app for Android (en-GB): <div dir="auto">, \'On Wed, 2 Dec 2026, 04:01 Name, '
        "<addr> wrote:' (comma after the name), no signature",
        write_android,
    ),
    Client(
        "gmail-ios",
        "Gmail app for iPhone (en-US, Pacific time): like the web client's attribution, "
        "mobile markup, no signature",
        write_ios,
    ),
]
