"""Outlook: classic Outlook for Windows (an IMAP/SMTP account, English and German), Outlook on
the web (Microsoft 365), and the iOS and Android apps (an Outlook.com mailbox, so their MIME
is Exchange's).

Every Outlook top-posts and does NOT quote the original with ``>``: below the cursor comes a
header block (``From:``/``Sent:``/``To:``/``Subject:``; in German ``Von:``/``Gesendet:``/
``An:``/``Betreff:``), after a line of 32 underscores in the Exchange-made plain parts, and
then the original, unquoted, as Outlook renders the HTML it quotes.
"""

from __future__ import annotations

import base64
import random
from datetime import datetime
from email.message import EmailMessage

from ._mime import (
    DAYS_LONG,
    MONTHS_LONG,
    Original,
    assemble,
    clock12,
    escape,
    fits,
    fold,
    hexdigits,
    html_to_text,
    leaf,
    local,
    mailbox,
    multipart,
    phrase,
    read_original,
    reply_subject,
    rfc_date,
    zone,
)
from ._model import Client, Sender

EASTERN = -300  # the English-speaking Outlook users below live in New York
BERLIN = 60
GERMAN_DAYS = ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag")
GERMAN_MONTHS = (
    "Januar", "Februar", "März", "April", "Mai", "Juni",
    "Juli", "August", "September", "Oktober", "November", "Dezember",
)  # fmt: skip
UNDERSCORES = "_" * 32


def thread_index(rng: random.Random, when: datetime) -> str:
    """Thread-Index: a 22-byte header (a 0x01, five bytes of the FILETIME, a GUID) and one
    5-byte child block, base64 (``AQH…``)."""
    filetime = int((when.timestamp() + 11644473600) * 10_000_000)
    head = bytes([0x01]) + filetime.to_bytes(8, "big")[1:6] + rng.randbytes(16)
    child = rng.randbytes(5)
    return base64.b64encode(head + child).decode()


def sent_line_en(when: datetime, *, seconds: bool = False) -> str:
    """``Tuesday, December 1, 2026 11:01 PM`` (the apps add seconds: ``11:01:53 PM``)."""
    return (
        f"{DAYS_LONG[when.weekday()]}, {MONTHS_LONG[when.month - 1]} {when.day}, {when.year} "
        f"{clock12(when, seconds=seconds)}"
    )


def sent_line_de(when: datetime) -> str:
    """``Mittwoch, 2. Dezember 2026 05:01``."""
    return (
        f"{GERMAN_DAYS[when.weekday()]}, {when.day}. {GERMAN_MONTHS[when.month - 1]} "
        f"{when.year} {when:%H:%M}"
    )


def _original_to(original: Original) -> str:
    return f"{original.to_name} <{original.to_addr}>" if original.to_name else original.to_addr


def _outlook_text(markup: str) -> str:
    return html_to_text(markup, bullet="  *   ", link="{text}<{href}>", cell="\t")


# --- classic Outlook for Windows --------------------------------------------------------------

WORD_HEAD = """<html xmlns:v="urn:schemas-microsoft-com:vml" \
xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word" \
xmlns:m="http://schemas.microsoft.com/office/2004/12/omml" xmlns="http://www.w3.org/TR/REC-html40">\
<head><meta http-equiv=Content-Type content="text/html; charset={charset}">\
<meta name=Generator content="Microsoft Word 15 (filtered medium)"><style><!--
/* Font Definitions */
@font-face
\t{{font-family:"Cambria Math";
\tpanose-1:2 4 5 3 5 4 6 3 2 4;}}
@font-face
\t{{font-family:Aptos;}}
/* Style Definitions */
p.MsoNormal, li.MsoNormal, div.MsoNormal
\t{{margin:0cm;
\tfont-size:12.0pt;
\tfont-family:"Aptos",sans-serif;
\tmso-ligatures:standardcontextual;
\tmso-fareast-language:EN-US;}}
a:link, span.MsoHyperlink
\t{{mso-style-priority:99;
\tcolor:#467886;
\ttext-decoration:underline;}}
span.EmailStyle19
\t{{mso-style-type:personal-reply;
\tfont-family:"Aptos",sans-serif;
\tcolor:windowtext;}}
.MsoChpDefault
\t{{mso-style-type:export-only;
\tfont-size:10.0pt;
\tmso-ligatures:none;}}
@page WordSection1
\t{{size:612.0pt 792.0pt;
\tmargin:72.0pt 72.0pt 72.0pt 72.0pt;}}
div.WordSection1
\t{{page:WordSection1;}}
--></style><!--[if gte mso 9]><xml>
<o:shapedefaults v:ext="edit" spidmax="1026" />
</xml><![endif]--><!--[if gte mso 9]><xml>
<o:shapelayout v:ext="edit">
<o:idmap v:ext="edit" data="1" />
</o:shapelayout></xml><![endif]--></head>"""


def _desktop(
    original_message: EmailMessage,
    move: str,
    sender: Sender,
    when: datetime,
    rng: random.Random,
    *,
    german: bool,
) -> bytes:
    original = read_original(original_message)
    tz = zone(BERLIN if german else EASTERN)
    shown = local(original.date, tz)
    labels = ("Von", "Gesendet", "An", "Betreff") if german else ("From", "Sent", "To", "Subject")
    sent = sent_line_de(shown) if german else sent_line_en(shown)
    greeting = "Hallo zusammen," if german else ""
    typed = f"{greeting}\n\n{move}" if greeting else move
    from_line = f"{original.from_name} <{original.from_addr}>"
    quoted_text = _outlook_text(original.html_body)
    # Word's plain rendering: an &nbsp; paragraph becomes a line holding one space
    plain = (
        f"{typed}\n\n \n\n"
        f"{labels[0]}: {from_line} \n{labels[1]}: {sent}\n{labels[2]}: {_original_to(original)}\n"
        f"{labels[3]}: {original.subject}\n\n \n\n{quoted_text}\n\n"
    )
    charset = "windows-1252" if fits(plain + original.html, "windows-1252") else "utf-8"
    lang = "DE" if german else "EN-US"
    span = "<span style='font-size:11.0pt'>"
    typed_html = "".join(
        f"<p class=MsoNormal>{span}{escape(line)}<o:p></o:p></span></p>"
        if line
        else f"<p class=MsoNormal>{span}<o:p>&nbsp;</o:p></span></p>"
        for line in typed.split("\n")
    )
    label_style = "style='font-size:11.0pt;font-family:\"Calibri\",sans-serif'"
    block = (
        "<div><div style='border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm'>"
        f"<p class=MsoNormal><b><span lang={lang} {label_style}>{labels[0]}:</span></b>"
        f"<span lang={lang} {label_style}> {escape(from_line)} <br>"
        f"<b>{labels[1]}:</b> {sent}<br><b>{labels[2]}:</b> {escape(_original_to(original))}<br>"
        f"<b>{labels[3]}:</b> {escape(original.subject)}<o:p></o:p></span></p></div></div>"
    )
    markup = (
        WORD_HEAD.format(charset=charset)
        + f'<body lang={lang} link="#467886" vlink="#96607D" style=\'word-wrap:break-word\'>'
        + f"<div class=WordSection1>{typed_html}<p class=MsoNormal>{span}<o:p>&nbsp;</o:p></span>"
        + f"</p>{block}<p class=MsoNormal><o:p>&nbsp;</o:p></p>{original.html_body}</div>"
        + "</body></html>"
    )
    stamp = hexdigits(rng, 8, upper=True)
    boundary = f"----=_NextPart_000_{hexdigits(rng, 4, upper=True)}_01DC{stamp[:4]}.{stamp}"
    parts = [
        leaf(f'text/plain;\r\n\tcharset="{charset}"', plain, charset, "quoted-printable"),
        leaf(f'text/html;\r\n\tcharset="{charset}"', markup, charset, "quoted-printable"),
    ]
    body = multipart(
        f'multipart/alternative;\r\n\tboundary="{boundary}"',
        boundary,
        parts,
        preamble="This is a multipart message in MIME format.\r\n\r\n",
    )
    local_when = local(when, tz)
    name_charset = charset if fits(sender.name, charset) else "utf-8"
    subject = reply_subject(original, "AW: " if german else "RE: ")
    message_id = (
        f"<{rng.randrange(0x40):04x}01dc{hexdigits(rng, 4)}${hexdigits(rng, 8)}"
        f"${hexdigits(rng, 8)}$@{sender.address.rpartition('@')[2]}>"
    )
    headers = [
        ("From", mailbox(sender.name, sender.address, name_charset, style="tail-q", quote=True)),
        ("To", f"\"'{original.reply_name}'\" <{original.reply_addr}>"),
        ("References", fold("References", " ".join(original.chain), indent="\t")[12:]),
        ("In-Reply-To", original.message_id),
        ("Subject", phrase(subject, charset, style="tail-q")),
        ("Date", rfc_date(local_when)),
        ("Message-ID", message_id),
        ("MIME-Version", "1.0"),
        ("Content-Type", body.header("Content-Type")),
        ("X-Mailer", "Microsoft Outlook 16.0"),
        ("Thread-Index", thread_index(rng, when)),
        ("Content-Language", "de" if german else "en-us"),
    ]
    return assemble(headers, body.body, indent="\t")


def write_desktop(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    return _desktop(original, move, sender, when, rng, german=False)


def write_desktop_de(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    return _desktop(original, move, sender, when, rng, german=True)


# --- Exchange-made mail: Outlook on the web and the mobile apps -------------------------------


def exchange_id(rng: random.Random, upper_domain: bool) -> tuple[str, str]:
    """An Exchange Online Message-ID and the multipart boundary Exchange derives from it."""
    prefix = rng.choice(["AM9", "DB9", "PA4", "VI1"])
    server = f"{prefix}PR0{rng.randrange(1, 9)}MB{rng.randrange(1000, 9999)}"
    local_part = server + hexdigits(rng, 25, upper=True)
    region = "eurprd0" + server[5]
    host = f"{server}.{region}.prod.outlook.com"
    domain = host.upper() if upper_domain else host
    return f"<{local_part}@{domain}>", f"_000_{local_part}{server}{region[:4]}_"


def _exchange_mailbox(name: str, address: str) -> str:
    if name.isascii() or not fits(name, "iso-8859-1"):
        return mailbox(name, address, style="whole-b")
    return mailbox(name, address, "iso-8859-1", style="whole-q")


def _exchange(
    original_message: EmailMessage,
    move: str,
    sender: Sender,
    when: datetime,
    rng: random.Random,
    *,
    app: str,
) -> bytes:
    original = read_original(original_message)
    tz = zone(EASTERN)
    shown = local(original.date, tz)
    mobile = app in ("ios", "android")
    sent = sent_line_en(shown, seconds=mobile)
    quoted_text = _outlook_text(original.html_body)
    to_line = _original_to(original)
    from_line = f"{original.from_name} <{original.from_addr}>"
    link = {"ios": "https://aka.ms/o0ukef", "android": "https://aka.ms/AAb9ysg"}.get(app, "")
    footer = f"\n\nGet Outlook for {'iOS' if app == 'ios' else 'Android'}<{link}>" if link else "\n"
    plain = (
        f"{move}{footer}\n{UNDERSCORES}\nFrom: {from_line}\nSent: {sent}\nTo: {to_line}\n"
        f"Subject: {original.subject}\n\n{quoted_text}\n"
    )
    header_block = (
        '<hr style="display:inline-block;width:98%" tabindex="-1">\n'
        '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" '
        f'color="#000000"><b>From:</b> {escape(from_line)}<br>\n<b>Sent:</b> {sent}<br>\n'
        f"<b>To:</b> {escape(to_line)}<br>\n<b>Subject:</b> {escape(original.subject)}</font>\n"
        "<div>&nbsp;</div>\n</div>\n"
    )
    # Exchange rewrites the quoted mail's class names and ids with an x_ prefix
    quoted_html = original.html_body.replace(' id="', ' id="x_').replace(' class="', ' class="x_')
    if mobile:
        lines = "".join(
            f'<div dir="auto">{escape(line) or "<br>"}</div>\n' for line in move.split("\n")
        )
        platform = "iOS" if app == "ios" else "Android"
        typed_html = (
            f'{lines}<div id="ms-outlook-mobile-signature" dir="auto">\n<div><br>\n</div>\n'
            f'Get <a href="{link}">Outlook for {platform}</a></div>\n'
        )
    else:
        typed_html = (
            '<div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont, '
            "Aptos_MSFontService, Calibri, Helvetica, sans-serif; font-size: 12pt; "
            'color: rgb(0, 0, 0);">\n'
            + "<br>\n".join(escape(line) for line in move.split("\n"))
            + '</div>\n<div id="appendonsend"></div>\n'
        )
    markup = (
        "<html>\n<head>\n"
        '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\n'
        '<style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style>\n'
        f'</head>\n<body dir="ltr">\n{typed_html}{header_block}<div>{quoted_html}</div>\n'
        "</body>\n</html>\n"
    )
    message_id, boundary = exchange_id(rng, upper_domain=mobile)
    parts = [
        leaf('text/plain; charset="utf-8"', plain, "utf-8", "base64"),
        leaf('text/html; charset="utf-8"', markup, "utf-8", "base64"),
    ]
    body = multipart(f'multipart/alternative;\r\n\tboundary="{boundary}"', boundary, parts)
    subject = reply_subject(original)
    headers = [
        ("From", _exchange_mailbox(sender.name, sender.address)),
        ("To", mailbox(original.reply_name, original.reply_addr)),
        ("Subject", phrase(subject, style="whole-b")),
        ("Thread-Topic", phrase(original.subject, style="whole-b")),
        ("Thread-Index", thread_index(rng, when)),
        ("Date", rfc_date(local(when, zone(0)))),
        ("Message-ID", message_id),
        ("References", fold("References", " ".join(original.chain), each=True)[12:]),
        ("In-Reply-To", original.message_id),
        ("Accept-Language", "en-US"),
        ("Content-Language", "en-US"),
        ("X-MS-Has-Attach", ""),
        ("X-MS-TNEF-Correlator", ""),
        ("Content-Type", body.header("Content-Type")),
        ("MIME-Version", "1.0"),
    ]
    return assemble(headers, body.body)


def write_web(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    return _exchange(original, move, sender, when, rng, app="web")


def write_ios(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    return _exchange(original, move, sender, when, rng, app="ios")


def write_android(
    original: EmailMessage, move: str, sender: Sender, when: datetime, rng: random.Random
) -> bytes:
    return _exchange(original, move, sender, when, rng, app="android")


CLIENTS = [
    Client(
        "outlook-desktop",
        "classic Outlook for Windows (Microsoft 365 apps, IMAP/SMTP account, en-US): 'RE: ', "
        "Word HTML + plain, windows-1252 quoted-printable, unquoted From:/Sent:/To:/Subject: "
        "block, To: \"'Name'\" <addr>, <…$…$…$@domain> Message-ID, Thread-Index",
        write_desktop,
    ),
    Client(
        "outlook-desktop-de",
        "classic Outlook for Windows in German: 'AW: ', 'Hallo zusammen,' above the move, "
        "Von:/Gesendet:/An:/Betreff: block, windows-1252 quoted-printable",
        write_desktop_de,
    ),
    Client(
        "outlook-web",
        "Outlook on the web (Microsoft 365): appendonsend/divRplyFwdMsg HTML, plain part with "
        "a line of underscores and the original unquoted, utf-8 base64, Thread-Topic/-Index, "
        "References one id a line",
        write_web,
    ),
    Client(
        "outlook-ios",
        "Outlook for iOS (Outlook.com): 'Get Outlook for iOS<https://aka.ms/o0ukef>' under "
        "the move, Sent: with seconds, Exchange MIME (utf-8 base64)",
        write_ios,
    ),
    Client(
        "outlook-android",
        "Outlook for Android (Outlook.com): 'Get Outlook for Android<https://aka.ms/AAb9ysg>' "
        "under the move, then underscores and the unquoted original",
        write_android,
    ),
]
