"""Webmail services and their apps: Yahoo Mail for Android, Proton Mail, Tuta, and Yandex
Mail, whose web client sends HTML only (no text/plain part: ``Content-Type: text/html``,
base64).

* Yahoo Mail for Android: ``Sent from Yahoo Mail on Android`` under the move; in the plain
  part the attribution follows on the same block and the original comes after it UNQUOTED.
* Proton Mail (web): ``Sent with Proton Mail secure email.``; ``On Wednesday, December 2nd,
  2026 at 4:01 AM, … wrote:``; the HTML part base64 inside multipart/related.
* Tuta: the signature (``-- `` / `` Securely sent with Tuta.``) goes ABOVE the quote; the
  attribution is ``2 Dec 2026, 04:01 by <address>:`` over a ``tutanota_quote`` blockquote.
* Yandex Mail (web): HTML only, ``02.12.2026, 07:01, "Name" <address>:`` over a bare
  blockquote.
"""

from __future__ import annotations

import random
from datetime import datetime
from email.message import EmailMessage

from ._mime import (
    B64URL,
    DAYS,
    DAYS_LONG,
    MONTHS,
    MONTHS_LONG,
    assemble,
    chars,
    clock12,
    escape,
    fold,
    hexdigits,
    html_lines,
    html_to_text,
    leaf,
    local,
    longest_line,
    mailbox,
    multipart,
    phrase,
    quote,
    read_original,
    reply_subject,
    rfc_date,
    zone,
)
from ._model import Client, Sender

# --- Yahoo Mail for Android -------------------------------------------------------------------

YAHOO_SIGNATURE_LINK = (
    "https://go.onelink.me/107872968?pid=InProduct&amp;c=Global_Internal_YGrowth_"
    "AndroidEmailSig__AndroidUsers&amp;af_wl=ym&amp;af_sub1=Internal&amp;af_sub2=Global_YGrowth"
    "&amp;af_sub3=EmailSignature"
)
YAHOO_MAILER = (
    "WebService/1.1.24818 YahooMailAndroidMobile YMobile/1.0 "
    "(com.yahoo.mobile.client.android.mail/7.63.1; Android/15; AP3A.240905.015.A2; komodo; "
    "Google; Pixel 9 Pro XL; 3.69; 2868x1280; )"
)


def write_yahoo(
    original_message: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    original = read_original(original_message)
    tz = zone(0)
    shown = local(original.date, tz)
    date = f"{DAYS[shown.weekday()]}, {MONTHS[shown.month - 1]} {shown.day}, {shown.year}"
    on = f"On {date} at {clock12(shown)}, {original.reply_name}"
    text = html_to_text(original.html_body, bullet="", cell=" ")
    plain = (
        f"{move}\n\nSent from Yahoo Mail on Android \n \n  {on}<{original.reply_addr}> wrote:   "
        f"{text}\n  \n"
    )
    cursor = f'<br id="yMail_cursorElementTracker_{int(when.timestamp() * 1000)}">'
    markup = (
        f"{'<br>'.join(escape(line) for line in move.split(chr(10)))}{cursor}<br>"
        '<div id="ymail_android_signature"><a id="ymail_android_signature_link" '
        f'href="{YAHOO_SIGNATURE_LINK}">Sent from Yahoo Mail on Android</a></div> <br> '
        '<blockquote style="margin: 0 0 20px 0;"> <div style="font-family:Roboto, sans-serif; '
        f'color:#6D00F6;"> <div>{escape(on)}</div><div>&lt;{escape(original.reply_addr)}&gt; '
        'wrote:</div> </div> <div style="padding: 10px 0 0 20px; margin: 10px 0 0 0; '
        f'border-left: 1px solid #6D00F6;"> {original.html_body} </div> </blockquote>'
    )
    part_id = rng.randrange(10**6, 10**7)
    millis = int(when.timestamp() * 1000)
    boundary = f"----=_Part_{part_id}_{rng.randrange(10**9, 2 * 10**9)}.{millis}"
    parts = [
        leaf("text/plain; charset=UTF-8", plain, "utf-8", "quoted-printable"),
        leaf("text/html; charset=UTF-8", markup, "utf-8", "quoted-printable"),
    ]
    body = multipart(f'multipart/alternative; \r\n boundary="{boundary}"', boundary, parts)
    headers = [
        ("Date", rfc_date(local(when, tz), comment="UTC")),
        ("From", mailbox(sender.name, sender.address, "UTF-8")),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        (
            "Message-ID",
            f"<{rng.randrange(10**9, 2 * 10**9)}.{part_id + 1}.{millis + 1}@mail.yahoo.com>",
        ),
        ("In-Reply-To", original.message_id),
        ("References", fold("References", " ".join(original.chain), each=True)[12:]),
        ("Subject", phrase(reply_subject(original), "UTF-8")),
        ("MIME-Version", "1.0"),
        ("Content-Type", body.header("Content-Type")),
        ("X-Mailer", YAHOO_MAILER),
    ]
    return assemble(headers, body.body)


# --- Proton Mail ------------------------------------------------------------------------------


def ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


PROTON_FONT = 'style="font-family: Arial, sans-serif; font-size: 14px;"'


def write_proton(
    original_message: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    original = read_original(original_message)
    tz = zone(0)
    shown = local(original.date, tz)
    attribution = (
        f"On {DAYS_LONG[shown.weekday()]}, {MONTHS_LONG[shown.month - 1]} {ordinal(shown.day)}, "
        f"{shown.year} at {clock12(shown)}, {original.reply_name} <{original.reply_addr}> wrote:"
    )
    quoted = html_to_text(original.html_body, bullet="- ", cell=" ")
    plain = (
        f"{move}\n\n\nSent with Proton Mail secure email.\n\n{attribution}\n\n"
        + quote(quoted, "> ", ">")
        + "\n"
    )
    typed = html_lines(move, f"<div {PROTON_FONT}>{{}}</div>", f"<div {PROTON_FONT}><br></div>")
    markup = (
        f"{typed}<div {PROTON_FONT}><br></div>\n"
        f'<div {PROTON_FONT} class="protonmail_signature_block">\n'
        '    <div class="protonmail_signature_block-user protonmail_signature_block-empty">\n'
        "        \n            </div>\n    \n"
        '            <div class="protonmail_signature_block-proton">\n'
        '        Sent with <a href="https://proton.me/mail/home" target="_blank" '
        'rel="noreferrer nofollow noopener">Proton Mail</a> secure email.\n    </div>\n</div>\n'
        f'<div {PROTON_FONT}><br></div><div class="protonmail_quote">\n'
        f"        {escape(attribution)}<br>\n"
        '        <blockquote class="protonmail_quote" type="cite">\n'
        f"            {original.html_body}\n        </blockquote><br>\n    </div>"
    )
    outer = "-" * 21 + hexdigits(rng, 32)
    inner = "-" * 21 + hexdigits(rng, 32)
    html_part = leaf("text/html;charset=utf-8", markup, "utf-8", "base64")
    related = multipart(f"multipart/related;boundary={inner}", inner, [html_part])
    text_part = leaf("text/plain;charset=utf-8", plain, "utf-8", "quoted-printable", cte_first=True)
    body = multipart(f"multipart/alternative;boundary={outer}", outer, [text_part, related])
    message_id = f"<{chars(rng, 86, B64URL)}=@proton.me>"
    headers = [
        ("Date", rfc_date(local(when, tz), pad_day=True)),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        ("From", mailbox(sender.name, sender.address)),
        ("Subject", phrase(reply_subject(original))),
        ("Message-ID", message_id),
        ("In-Reply-To", original.message_id),
        ("References", " ".join(original.chain)),
        ("Feedback-ID", f"{rng.randrange(10**8, 10**9)}:user:proton"),
        ("X-Pm-Message-ID", hexdigits(rng, 40)),
        ("MIME-Version", "1.0"),
        ("Content-Type", body.header("Content-Type")),
    ]
    return assemble(headers, body.body)


# --- Tuta -------------------------------------------------------------------------------------


def write_tuta(
    original_message: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    original = read_original(original_message)
    tz = zone(60)
    shown = local(original.date, tz)
    date = f"{shown.day} {MONTHS[shown.month - 1]} {shown.year}"
    info = f"{date}, {shown:%H:%M} by {original.reply_addr}:"
    quoted = html_to_text(original.html_body, bullet="- ", cell=" ")
    plain = (
        f"{move}\n\n-- \n Securely sent with Tuta.\n\n{info}\n\n" + quote(quoted, "> ", ">") + "\n"
    )
    typed = html_lines(move, '<div dir="auto">{}<br></div>', '<div dir="auto"><br></div>')
    markup = (
        '<html>\n  <head>\n    <meta http-equiv="content-type" content="text/html; '
        'charset=UTF-8">\n  </head>\n  <body>\n'
        f'{typed}<div dir="auto"><br></div><div dir="auto">-- <br></div>'
        '<div dir="auto"> Securely sent with Tuta.<br></div><div dir="auto"><br></div>'
        f'<div dir="auto">{escape(info)}<br></div>'
        f'<blockquote class="tutanota_quote">{original.html_body}</blockquote>'
        '<div dir="auto"><br></div>  </body>\n</html>\n'
    )
    html_cte = (
        "7bit"
        if markup.isascii() and longest_line(markup, "utf-8") <= 998
        else ("quoted-printable")
    )
    stamp = int(when.timestamp() * 1000)
    boundary = f"----=_Part_{rng.randrange(10**5)}_{rng.randrange(10**9, 2 * 10**9)}.{stamp}"
    parts = [
        leaf("text/plain; charset=UTF-8", plain, "utf-8", "quoted-printable"),
        leaf("text/html; charset=UTF-8", markup, "utf-8", html_cte),
    ]
    body = multipart(f'multipart/alternative; \r\n boundary="{boundary}"', boundary, parts)
    headers = [
        ("Date", rfc_date(local(when, tz), comment="CET")),
        ("From", mailbox(sender.name, sender.address, "UTF-8")),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        (
            "Message-ID",
            f"<{chars(rng, 7, B64URL)}--{rng.randrange(1, 10)}-{rng.randrange(1, 10)}"
            "@tutanota.com>",
        ),
        ("In-Reply-To", original.message_id),
        ("References", " ".join(original.chain)),
        ("Subject", phrase(reply_subject(original), "UTF-8")),
        ("MIME-Version", "1.0"),
        ("Content-Type", body.header("Content-Type")),
    ]
    return assemble(headers, body.body)


# --- Yandex Mail: HTML only -------------------------------------------------------------------


def write_yandex(
    original_message: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    original = read_original(original_message)
    tz = zone(180)
    shown = local(original.date, tz)
    attribution = (
        f'{shown:%d.%m.%Y}, {shown:%H:%M}, "{original.reply_name}" <{original.reply_addr}>:'
    )
    typed = f"Привет!\n{move}"
    markup = (
        html_lines(typed, "<div>{}</div>", "<div>\u00a0</div>")
        + f"<div>\u00a0</div><div>{escape(attribution)}</div>"
        + f"<blockquote>{original.html_body}</blockquote>"
    )
    part = leaf("text/html; charset=utf-8", markup, "utf-8", "base64", cte_first=True)
    headers = [
        ("From", mailbox(sender.name, sender.address, style="whole-b")),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        ("In-Reply-To", original.message_id),
        ("References", " ".join(original.chain)),
        ("Subject", phrase(reply_subject(original), style="whole-b")),
        ("MIME-Version", "1.0"),
        ("X-Mailer", "Yamail [ http://yandex.ru ] 5.0"),
        ("Date", rfc_date(local(when, tz), pad_day=True)),
        ("Message-Id", f"<{rng.randrange(10**14, 10**15)}@mail.yandex.ru>"),
        ("Content-Transfer-Encoding", "base64"),
        ("Content-Type", part.header("Content-Type")),
    ]
    return assemble(headers, part.body)


CLIENTS = [
    Client(
        "yahoo-android",
        "Yahoo Mail for Android: 'Sent from Yahoo Mail on Android' under the move, the "
        "original UNQUOTED in the plain part after 'On …, Name<addr> wrote:', JavaMail boundary",
        write_yahoo,
    ),
    Client(
        "proton",
        "Proton Mail (web): 'Sent with Proton Mail secure email.', 'On Wednesday, December "
        "2nd, 2026 at 4:01 AM, … wrote:', text quoted-printable + HTML base64 in "
        "multipart/related",
        write_proton,
    ),
    Client(
        "tuta",
        "Tuta (web): '-- ' / ' Securely sent with Tuta.' between the move and the quote, "
        "'2 Dec 2026, 05:01 by <address>:', tutanota_quote blockquote",
        write_tuta,
    ),
    Client(
        "yandex",
        "Yandex Mail web (Yamail 5.0): HTML only, base64, no text/plain part; 'Привет!' above "
        "the move; '02.12.2026, 07:01, \"Name\" <addr>:' over a bare blockquote",
        write_yandex,
    ),
]
