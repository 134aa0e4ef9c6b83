"""Apple Mail on the Mac, and Mail on iPhone and iPad (in several languages).

Both top-post. The Mac quotes the attribution line and the text with ``> ``; the iPhone puts
its footer (``Sent from my iPhone``) under the move, then ``> On …, at …, … wrote:``, then
``> `` and the quoted text, whose first line begins with a U+FEFF (iOS 16 and later). The
plain part is Apple's rendering of the HTML it composed (links lose their address). The
iPhone's References holds the parent's Message-ID only, not the chain; the Mac's holds the
chain.

The iPhone's attribution line and footer in French and German are confirmed from real mail;
the Spanish ones are as remembered from real mail, not confirmed from a source found here.
iOS is not known to ship Welsh, Icelandic, Esperanto or Bengali as a system language (an
iPhone set to one of them runs Mail in English); the strings used for those four are
UNCONFIRMED renderings of Apple's pattern in the language, marked so below.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage

from ._mime import (
    MONTHS,
    Original,
    assemble,
    escape,
    html_to_text,
    leaf,
    local,
    mailbox,
    multipart,
    phrase,
    quote,
    read_original,
    reply_subject,
    rfc_date,
    uuid4,
    zone,
)
from ._model import Client, Sender

BOM = "\ufeff"
MAC_MIME_VERSION = "1.0 (Mac OS X Mail 16.0 \\(3774.600.62\\))"
IOS_BUILD = "23C54"


def _apple_text(markup: str) -> str:
    return html_to_text(markup, bullet="\t•\t", link="{text}", cell="\t")


def _ident(rng: random.Random, address: str) -> str:
    return f"<{str(uuid4(rng)).upper()}@{address.rpartition('@')[2]}>"


# --- attribution lines and footers, by language ------------------------------------------------


def _en(when: datetime, who: str) -> str:
    return f"On {when.day} {MONTHS[when.month - 1]} {when.year}, at {when:%H:%M}, {who} wrote:"


FR_MONTHS = ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.",
             "nov.", "déc.")  # fmt: skip
ES_MONTHS = ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic")
CY_MONTHS = ("Ion", "Chwef", "Maw", "Ebr", "Mai", "Meh", "Gorff", "Awst", "Medi", "Hyd", "Tach",
             "Rhag")  # fmt: skip
IS_MONTHS = ("jan.", "feb.", "mar.", "apr.", "maí", "jún.", "júl.", "ágú.", "sep.", "okt.", "nóv.",
             "des.")  # fmt: skip
EO_MONTHS = ("jan.", "feb.", "mar.", "apr.", "maj.", "jun.", "jul.", "aŭg.", "sep.", "okt.",
             "nov.", "dec.")  # fmt: skip
BN_MONTHS = ("জানু", "ফেব", "মার্চ", "এপ্রি", "মে", "জুন", "জুলাই", "আগ", "সেপ", "অক্টো", "নভে", "ডিসে")
BN_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")


def _fr(when: datetime, who: str) -> str:
    # confirmed: "Le 25 sept. 2026 à 14:19, Junio C Hamano <gitster@pobox.com> a écrit :"
    return f"Le {when.day} {FR_MONTHS[when.month - 1]} {when.year} à {when:%H:%M}, {who} a écrit :"


def _de(when: datetime, who: str) -> str:
    # confirmed: "Am 27.08.2022 um 19:18 schrieb K0LNY_Glenn <glenn@ervin.email>:"
    return f"Am {when:%d.%m.%Y} um {when:%H:%M} schrieb {who}:"


def _es(when: datetime, who: str) -> str:
    # as remembered from real iOS mail, not confirmed from a source found here
    return (
        f"El {when.day} {ES_MONTHS[when.month - 1]} {when.year}, a las {when.hour}:{when:%M}, "
        f"{who} escribió:"
    )


def _cy(when: datetime, who: str) -> str:
    # UNCONFIRMED (see the module docstring): Apple's pattern in Welsh
    date = f"{when.day} {CY_MONTHS[when.month - 1]} {when.year}"
    return f"Ar {date}, am {when:%H:%M}, {who} ysgrifennodd:"


def _is(when: datetime, who: str) -> str:
    # UNCONFIRMED: Apple's pattern in Icelandic
    date = f"{when.day}. {IS_MONTHS[when.month - 1]} {when.year}"
    return f"Þann {date}, kl. {when:%H:%M}, skrifaði {who}:"


def _eo(when: datetime, who: str) -> str:
    # UNCONFIRMED: Apple's pattern in Esperanto
    return f"Je {when.day} {EO_MONTHS[when.month - 1]} {when.year}, je {when:%H:%M}, {who} skribis:"


def _bn(when: datetime, who: str) -> str:
    # UNCONFIRMED: Apple's pattern in Bengali, with Bengali digits as the bn locale writes them
    date = f"{when.day} {BN_MONTHS[when.month - 1]}, {when.year}".translate(BN_DIGITS)
    return f"{date} তারিখে {when:%H:%M}".translate(BN_DIGITS) + f" এ, {who} লিখেছেন:"


@dataclass(frozen=True)
class Locale:
    code: str
    footer: str
    attribution: Callable[[datetime, str], str]
    tz_minutes: int
    greeting: str = ""
    confirmed: bool = True


LOCALES = {
    "en": Locale("en", "Sent from my iPhone", _en, 0),
    "fr": Locale("fr", "Envoyé de mon iPhone", _fr, 60, "Salut,"),
    "de": Locale("de", "Von meinem iPhone gesendet", _de, 60, "Hallo,"),
    "es": Locale("es", "Enviado desde mi iPhone", _es, 60, "¡Hola!"),
    "cy": Locale("cy", "Anfonwyd o fy iPhone", _cy, 0, "Shwmae,", confirmed=False),
    "is": Locale("is", "Sent úr iPhone", _is, 0, "Hæ,", confirmed=False),
    "eo": Locale("eo", "Sendita de mia iPhone", _eo, 60, "Saluton,", confirmed=False),
    "bn": Locale("bn", "আমার iPhone থেকে পাঠানো", _bn, 360, "নমস্কার,", confirmed=False),
}


def _who(original: Original) -> str:
    return f"{original.reply_name} <{original.reply_addr}>"


# --- the Mac ----------------------------------------------------------------------------------


def write_mac(
    original_message: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    original = read_original(original_message)
    tz = zone(0)
    attribution = _en(local(original.date, tz), _who(original))
    quoted = _apple_text(original.html_body)
    plain = f"{move}\n\n" + quote(f"{attribution}\n\n{quoted}", "> ", "> ") + "\n\n"
    lines = move.split("\n")
    typed_html = escape(lines[0]) + "".join(
        f"<div>{escape(line) or '<br>'}</div>" for line in lines[1:]
    )
    markup = (
        '<html aria-label="message body"><head><meta http-equiv="content-type" '
        'content="text/html; charset=utf-8"></head><body style="overflow-wrap: break-word; '
        '-webkit-nbsp-mode: space; line-break: after-white-space;">'
        f'{typed_html}<br id="lineBreakAtBeginningOfMessage"><div><br><blockquote type="cite">'
        f'<div>{escape(attribution)}</div><br class="Apple-interchange-newline">'
        f"<div>{original.html_body}</div></blockquote></div><br></body></html>"
    )
    boundary = f"Apple-Mail=_{str(uuid4(rng)).upper()}"
    parts = [
        leaf("text/plain;\r\n\tcharset=utf-8", plain, "utf-8", "quoted-printable",
             cte_first=True, at_spaces=True),
        leaf("text/html;\r\n\tcharset=utf-8", markup, "utf-8", "quoted-printable",
             cte_first=True, at_spaces=True),
    ]  # fmt: skip
    body = multipart(f'multipart/alternative;\r\n\tboundary="{boundary}"', boundary, parts)
    headers = [
        ("Content-Type", body.header("Content-Type")),
        ("Mime-Version", MAC_MIME_VERSION),
        ("Subject", phrase(reply_subject(original), style="tail-q")),
        ("From", mailbox(sender.name, sender.address)),
        ("In-Reply-To", original.message_id),
        ("Date", rfc_date(local(when, tz))),
        ("Message-Id", _ident(rng, sender.address)),
        ("References", " ".join(original.chain)),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        ("X-Mailer", "Apple Mail (2.3774.600.62)"),
    ]
    return assemble(headers, body.body)


# --- iPhone and iPad --------------------------------------------------------------------------


def _ios(
    original_message: EmailMessage,
    move: str,
    sender: Sender,
    when: datetime,
    rng: random.Random,
    *,
    locale: Locale,
    device: str = "iPhone",
) -> bytes:
    original = read_original(original_message)
    tz = zone(locale.tz_minutes)
    footer = locale.footer.replace("iPhone", device)
    attribution = locale.attribution(local(original.date, tz), _who(original))
    typed = f"{locale.greeting}\n\n{move}" if locale.greeting else move
    quoted = _apple_text(original.html_body)
    plain = f"{typed}\n\n{footer}\n\n" + quote(f"{attribution}\n\n{BOM}{quoted}", "> ", "> ") + "\n"
    typed_html = "".join(
        f'<div dir="ltr">{escape(line) or "<br>"}</div>' for line in typed.split("\n")
    )
    markup = (
        '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
        f'<body dir="auto">{typed_html}<div dir="ltr"><br id="lineBreakAtBeginningOfSignature">'
        f'<div dir="ltr">{escape(footer)}</div><div dir="ltr"><br><blockquote type="cite">'
        f'{escape(attribution)}<br><br></blockquote></div><blockquote type="cite">'
        f'<div dir="ltr">{BOM}{original.html_body}</div></blockquote></div></body></html>'
    )
    boundary = f"Apple-Mail-{str(uuid4(rng)).upper()}"
    parts = [
        leaf("text/plain;\r\n\tcharset=utf-8", plain, "utf-8", "quoted-printable",
             at_spaces=True),
        leaf("text/html;\r\n\tcharset=utf-8", markup, "utf-8", "quoted-printable",
             at_spaces=True),
    ]  # fmt: skip
    body = multipart(f"multipart/alternative; boundary={boundary}", boundary, parts)
    headers = [
        ("Content-Type", body.header("Content-Type")),
        ("Content-Transfer-Encoding", "7bit"),
        ("From", mailbox(sender.name, sender.address)),
        ("Mime-Version", "1.0 (1.0)"),
        ("Subject", phrase(reply_subject(original), style="tail-q")),
        ("Date", rfc_date(local(when, tz))),
        ("Message-Id", _ident(rng, sender.address)),
        # iOS: the parent's Message-ID only, not the chain
        ("References", original.message_id),
        ("In-Reply-To", original.message_id),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        ("X-Mailer", f"{device} Mail ({IOS_BUILD})"),
    ]
    return assemble(headers, body.body)


def _iphone_writer(code: str, device: str = "iPhone") -> Callable[..., bytes]:
    def write(
        original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
    ) -> bytes:
        return _ios(original, move, sender, when, rng, locale=LOCALES[code], device=device)

    return write


_LANGUAGES = {"cy": "Welsh", "is": "Icelandic", "eo": "Esperanto", "bn": "Bengali",
              "fr": "French", "de": "German", "es": "Spanish"}  # fmt: skip

CLIENTS = [
    Client(
        "apple-mail",
        "Apple Mail on macOS (en-GB): multipart/alternative, Apple-Mail=_ boundary, "
        "'Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.600.62\\))', quoted '> On 2 Dec 2026, "
        "at 04:01, … wrote:', quoted-printable broken at spaces, full References chain",
        write_mac,
    ),
    Client(
        "iphone",
        "Mail on iPhone (en-GB): 'Sent from my iPhone' under the move, '> On …, at …, … "
        "wrote:', U+FEFF before the quoted text, 'Mime-Version: 1.0 (1.0)', References = the "
        "parent only",
        _iphone_writer("en"),
    ),
    Client(
        "ipad",
        "Mail on iPad (en-GB): as the iPhone, 'Sent from my iPad', X-Mailer iPad Mail",
        _iphone_writer("en", "iPad"),
    ),
    *(
        Client(
            f"iphone-{code}",
            f"Mail on iPhone in {_LANGUAGES[code]}: '{LOCALES[code].greeting}' above the move, "
            f"'{LOCALES[code].footer}' under it, the attribution in {_LANGUAGES[code]}"
            + ("" if LOCALES[code].confirmed or code == "es" else " (strings UNCONFIRMED)"),
            _iphone_writer(code),
        )
        for code in ("cy", "is", "eo", "bn", "fr", "de", "es")
    ),
]
