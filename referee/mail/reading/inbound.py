"""Reading a mail that arrived: any bytes in, a plain description out, never an exception.

* :func:`read_message` parses raw RFC 5322 bytes: the sender, the addresses it was sent to,
  the message ids it answers (``In-Reply-To`` and ``References``, kept apart), whether it is
  automatic mail (auto-reply, bounce, mailing list, our own), and the text of its first
  text/plain part (or its HTML part turned into text), decoded from any charset, transfer
  encoding and format=flowed.
* :func:`reply_text` keeps only what the player wrote: quoted lines, attribution lines
  ("On … wrote:" in many languages, Outlook's header blocks), signatures, and anything from a
  copy of one of our own boards onwards are removed, so a quoted board never plays a move.
"""

from __future__ import annotations

import email
import email.policy
import functools
import re
from dataclasses import dataclass, field, replace
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses, parseaddr, parsedate_to_datetime

from inscriptis import get_text
from inscriptis.html_engine import Inscriptis
from lxml.html import document_fromstring
from mailparser_reply import EmailReplyParser
from mailparser_reply.constants import MAIL_LANGUAGES, QUOTED_MATCH_INCLUDE

from referee.notation import plain as without_invisibles
from referee.wording.translations import translations
from referee.wording.vocabulary import languages

#: The header our own mails carry, so that we never answer ourselves.
LOOP_HEADER = "X-Referee-Loop"
#: How `referee doctor`'s test mail's Message-ID begins; with our loop id (which only a holder
#: of the service's secret can give it), the service knows it for the doctor's test.
DOCTOR_MAIL_PREFIX = "<doctor."
#: Why the doctor's test mail is automatic: filed unanswered, and not listed by `referee inbox`.
DOCTOR_TEST = "referee doctor's test mail"
#: Every board we send starts its text with this (in English; "Splendor · gêm " in Welsh...);
#: a reply is cut where a copy of one begins.
BOARD_MARK = "Splendor · game "
#: The name our mails come from. A copy of one of our mails in a reply begins with a line
#: that names it (or a player's reply address of ours): an attribution, "… Splendor referee
#: <…> wrote:" in any language, or a header block, "From: Splendor referee …".
REFEREE_NAME = "Splendor referee"
_US = rf"(?:{re.escape(REFEREE_NAME)}|\+[a-z0-9][a-z0-9_-]*\.[0-3]\.[a-z2-7]{{16}}@)"
_ATTRIBUTION = re.compile(rf"{_US}[^:\n]*:(?=\s|$)")
_HEADER_LINE = re.compile(r"[^\W\d_][\w .'-]{0,24}:\s")
_HEADER_NAMING_US = re.compile(rf"[^\W\d_][\w .'-]{{0,24}}:\s*\"?'?{_US}")
#: The most of a reply's text that is read, and of each of its lines: a move is a short line
#: or a few, and what the regular expressions of reply parsing see stays small whatever a
#: mail holds.
READ_AT_MOST = 64_000
LINE_AT_MOST = 500

# Attribution lines in languages the reply parser does not know yet, registered beside its
# own: Welsh, Icelandic, Esperanto and Bengali, the languages of this project's players.
_MORE_LANGUAGES = {
    "cy": r"Ar\s(?:.+?\s?.+?)\s?ysgrifennodd\s?(?:.+?)?:",
    "is": r"(?:Þann|Þ\.)\s?(?:.+?\s?.+?)\s?skrifaði\s?(?:.+?)?:",
    "eo": r"(?:Je|En)\s(?:.+?\s?.+?)\s?skribis\s?(?:.+?)?:",
    "bn": r"[^\n]{1,200}?\s?(?:লিখেছেন|লিখেছে|লিখলেন)\s?:?",
}
#: The names of a quoted mail's header lines in those languages, as their mail programs
#: write them above a copy of the mail answered ("Oddi wrth:", "Frá:", "De:", "প্রেরক:").
_MORE_HEADERS = {
    "cy": "Oddi wrth|Anfonwyd|At|Pwnc|Dyddiad|Cc",
    "is": "Frá|Sent|Til|Efni|Dagsetning|Afrit",
    "eo": "De|Sendita|Al|Temo|Dato|Kopie",
    "bn": "প্রেরক|পাঠানো হয়েছে|প্রাপক|বিষয়|তারিখ|সিসি",
}
for _code, _pattern in _MORE_LANGUAGES.items():
    _names = f"From|Sent|To|Subject|Date|Cc|{_MORE_HEADERS[_code]}"
    MAIL_LANGUAGES.setdefault(
        _code,
        {
            "wrote_header": rf"^({QUOTED_MATCH_INCLUDE}{_pattern})$",
            "from_header": rf"((?:(?:^|\n|\n(?:> ?)*)[* ]*(?:{_names}):[ *]*(?:\s{{,2}}).*){{2,}}"
            rf"(?:\n.*){{,1}})",
        },
    )
# The parser takes one Polish header line ("{1,}") for a quoted header block, where every
# other language needs two: Esperanto's "Do: mi prenas…" (so: I take…) is no Polish "Do:" (to).
MAIL_LANGUAGES["pl"] = {
    **MAIL_LANGUAGES["pl"],
    "from_header": MAIL_LANGUAGES["pl"]["from_header"].replace("){1,}(", "){2,}("),
}
REPLY_LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "pl", "sv", "da", "cs", *_MORE_LANGUAGES]
_REPLY_PARSER = EmailReplyParser(languages=REPLY_LANGUAGES)

_SEPARATOR = re.compile(r"[_=-]{5,}")
_MESSAGE_ID = re.compile(r"<[^<>\s]+>")
_FOLD = re.compile(r"\r?\n(?=[ \t])")
_AUTO_PRECEDENCE = {"bulk", "junk", "list", "auto_reply", "auto-reply"}
_BOUNCE_SENDERS = re.compile(r"^(mailer-daemon|postmaster|mail-daemon)@", re.IGNORECASE)
_AUTO_SUBJECT = re.compile(
    r"^\s*(auto(matic)?[ -]?(reply|response)|out of (the )?office|autoreply|abwesenheit|"
    r"absence|undeliverable|delivery status notification|returned mail)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Inbound:
    """What the referee needs of a mail that arrived."""

    message_id: str | None
    sender: str
    recipients: list[str] = field(default_factory=list)
    in_reply_to: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    subject: str = ""
    automatic: str | None = None
    text: str = ""
    unreadable: str | None = None
    sender_name: str = ""  # the display name in From, decoded ("" when none)
    spoofed: str | None = None  # why the receiving server says From is forged
    #: When it says it was written (Date) and when the server that took it stamped it (the
    #: latest Received), ISO 8601: what "I sent it on Tuesday" is checked by (None: not said)
    dated: str | None = None
    received: str | None = None
    #: The Authentication-Results headers, topmost (the last server's) first: whether a
    #: trusted server vouches for the sender (see :mod:`referee.mail.reading.authentication`)
    authentication: tuple[str, ...] = ()


def read_message(raw: bytes, loop_id: str = "") -> Inbound:
    """Parse ``raw`` whatever it holds; ``unreadable`` says why when nothing could be read.

    Parsed with the classic ``compat32`` policy: header values come back as the text that was
    sent (8-bit bytes read as UTF-8), which is all most of them need (addresses, ids, flags),
    several times faster than the modern policy's header objects; the subject's encoded
    words are decoded here."""
    try:
        message = email.message_from_bytes(raw, policy=_POLICY)
        return _read(message, loop_id)
    except Exception as err:
        why = f"not a readable mail ({err})"
    try:  # its headers alone, then: who wrote it, and where it goes, are worth knowing
        head = BytesHeaderParser(policy=_POLICY).parsebytes(raw)
        return replace(_read(head, loop_id, with_text=False), unreadable=why)
    except Exception:
        return Inbound(message_id=None, sender="", unreadable=why)


def _read(message: Message, loop_id: str, with_text: bool = True) -> Inbound:
    message_id = _header(message, "Message-ID").strip() or None
    display, sender = parseaddr(_header(message, "From"))
    sender = sender.strip().lower()
    recipients = [
        address.strip().lower()
        for _, address in getaddresses(
            [_header(message, h) for h in ("To", "Cc", "Delivered-To", "X-Original-To")]
        )
        if address
    ]
    return Inbound(
        message_id=message_id,
        sender=sender,
        recipients=list(dict.fromkeys(recipients)),
        in_reply_to=_message_ids(_header(message, "In-Reply-To")),
        references=_message_ids(_header(message, "References")),
        subject=_decoded_header(_header(message, "Subject")),
        automatic=automatic(message, sender, loop_id),
        text=body_text(message) if with_text else "",
        sender_name=_decoded_header(display).strip(),
        spoofed=spoofed(message),
        dated=_when(_header(message, "Date")),
        received=_when(_header(message, "Received").rpartition(";")[2]),
        authentication=_headers(message, "Authentication-Results"),
    )


class _AsSent(type(email.policy.compat32)):  # type: ignore[misc]
    """The classic policy, but a header with 8-bit bytes in it is read as UTF-8 (RFC 6532)
    rather than turned into an opaque Header object."""

    def header_fetch_parse(self, name: str, value: str) -> str:
        if not value.isascii():
            value = value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        return value


_POLICY = _AsSent()


def _header(message: Message, name: str) -> str:
    """A header's value as sent, unfolded; '' when it is missing or unreadable."""
    try:
        value = message.get(name)
        text = "" if value is None else str(value)
    except Exception:
        return ""
    return _FOLD.sub(" ", text)


def _headers(message: Message, name: str) -> tuple[str, ...]:
    """Every value of a header, top first, unfolded; () when missing or unreadable."""
    try:
        values = message.get_all(name) or []
        return tuple(_FOLD.sub(" ", str(value)) for value in values)
    except Exception:
        return ()


def _when(text: str) -> str | None:
    """A mail date (RFC 5322) as ISO 8601, or None when there is none or it cannot be read."""
    try:
        return parsedate_to_datetime(text.strip()).isoformat() if text.strip() else None
    except (TypeError, ValueError, IndexError):
        return None


def _message_ids(value: str) -> list[str]:
    """The Message-IDs in a header (In-Reply-To, References), in order, each once."""
    return list(dict.fromkeys(_MESSAGE_ID.findall(value)))


def _decoded_header(value: str) -> str:
    """A header value with its RFC 2047 encoded words decoded (any charset)."""
    if "=?" not in value:
        return value
    try:
        return str(make_header(decode_header(value)))
    except Exception:
        return value


_AUTH_RESULT = re.compile(r"\b(dmarc|spf|dkim)\s*=\s*([a-z]+)", re.IGNORECASE)


def spoofed(message: Message) -> str | None:
    """Why the receiving mail server says this mail's sender is forged, or None.

    Read from the topmost ``Authentication-Results`` header, the one the last server (ours)
    added (RFC 8601): DMARC failed, or SPF failed with no DKIM signature passing. A mail
    without the header (a server that does not check) is not judged forged."""
    results: dict[str, set[str]] = {}
    for method, result in _AUTH_RESULT.findall(_header(message, "Authentication-Results")):
        results.setdefault(method.lower(), set()).add(result.lower())
    if "fail" in results.get("dmarc", set()):
        return "its sender's domain says it did not send it (DMARC fail)"
    if "fail" in results.get("spf", set()) and "pass" not in results.get("dkim", set()):
        return "it came from a server its sender's domain does not allow (SPF fail, no DKIM)"
    return None


def automatic(message: Message, sender: str, loop_id: str = "") -> str | None:
    """Why ``message`` is automatic mail that must never be answered, or None for a person's.

    RFC 3834 Auto-Submitted, Precedence, X-Autoreply / X-Autorespond, delivery reports
    (multipart/report, an empty Return-Path, mailer-daemon senders), mailing lists (List-Id,
    List-Unsubscribe), and our own mail (our loop header).
    """
    if loop_id and _header(message, LOOP_HEADER).strip() == loop_id:
        if _header(message, "Message-ID").strip().startswith(DOCTOR_MAIL_PREFIX):
            return DOCTOR_TEST
        return "our own mail"
    if _header(message, LOOP_HEADER):
        return "mail from another referee"
    submitted = _header(message, "Auto-Submitted").strip().lower()
    if submitted and submitted != "no":
        return f"Auto-Submitted: {submitted}"
    precedence = _header(message, "Precedence").strip().lower()
    if precedence in _AUTO_PRECEDENCE:
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder"):
        if _header(message, name):
            return f"{name} header"
    if message.get_content_type() == "multipart/report":
        return "a delivery report (bounce)"
    if "<>" in _header(message, "Return-Path").replace(" ", ""):
        return "an empty Return-Path (bounce)"
    if _BOUNCE_SENDERS.match(sender) or not sender:
        return "a mailer daemon or no sender"
    for name in ("List-Id", "List-Unsubscribe", "List-Post"):
        if _header(message, name):
            return f"a mailing list ({name})"
    if _AUTO_SUBJECT.match(_decoded_header(_header(message, "Subject"))):
        return "an automatic reply by its subject"
    return None


def body_text(message: Message) -> str:
    """The first text/plain part, else the first text/html part as text; '' if neither."""
    plain = html = None
    for part in message.walk():
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and plain is None:
            plain = part
        elif kind == "text/html" and html is None:
            html = part
    if plain is not None:
        text = _decoded(plain)
        params = {k.lower(): v.lower() for k, v in plain.get_params() or [] if isinstance(v, str)}
        if params.get("format") == "flowed":
            text = unflow(text, delsp=params.get("delsp") == "yes")
        return text
    if html is not None:
        return html_text(_decoded(html))
    return ""


def html_text(html: str) -> str:
    """The text of an HTML part without what it quotes: nearly every mail program quotes the
    mail it answers in a ``<blockquote>`` (Gmail, Apple Mail, Thunderbird, Yahoo, Proton,
    Tuta, Yandex …), which is dropped before the HTML is turned into text."""
    try:
        tree = document_fromstring(html.strip())
    except Exception:  # empty, or a declaration lxml refuses: inscriptis copes
        return str(get_text(html))
    for quote in tree.xpath("//blockquote[not(ancestor::blockquote)]"):
        quote.drop_tree()
    return str(Inscriptis(tree).get_text())


def _decoded(part: Message) -> str:
    """A part's text in any charset and transfer encoding; undecodable bytes are replaced."""
    if isinstance(part, EmailMessage):
        try:
            content = part.get_content()
            if isinstance(content, str):
                return content
        except (LookupError, UnicodeError, ValueError, AssertionError):
            pass
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except (LookupError, UnicodeError, ValueError):  # unknown, idna, a NUL in its name …
        return payload.decode("utf-8", errors="replace")


def unflow(text: str, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed: join soft-broken lines (ending in a space), unstuff."""
    lines: list[str] = []
    joining = False
    for line in text.split("\n"):
        line = line.removesuffix("\r")
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing
        soft = content.endswith(" ") and content.rstrip() != "--"
        if soft and delsp:
            content = content[:-1]
        if joining and lines:
            lines[-1] += content
        else:
            lines.append(">" * depth + (" " if depth and content else "") + content)
        joining = soft
    return "\n".join(lines)


def _without_copies_of_ours(text: str) -> str:
    """``text`` without what a mail program copied of one of our mails.

    Some programs (Outlook, Yahoo, Samsung, webmails) put the mail they answer below an
    attribution line or a header block without quoting it: the reply ends there. A quoting
    program's attribution line (followed by "> " lines) goes, so that what a player wrote
    below the quote is read with what they wrote above it."""
    if REFEREE_NAME not in text and "+" not in text:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    for n, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(">"):
            kept.append(line)
            continue
        if _HEADER_NAMING_US.match(stripped) and _in_header_block(lines, n):
            while kept and _HEADER_LINE.match(kept[-1].strip()):
                kept.pop()  # the block's lines above ours (Date:, Sent:)
            return "\n".join(kept)
        said = _ATTRIBUTION.search(stripped)
        if said and re.search(r"\d|@", stripped):
            # what follows: the rest of its line (Yahoo runs the copy on), else the next
            # line that is not blank
            after = stripped[said.end() :].strip()
            following = after or next((f.strip() for f in lines[n + 1 : n + 4] if f.strip()), "")
            if not following.startswith(">"):
                return "\n".join(kept)
            continue  # an attribution over a quote: the quote goes, and so does it
        kept.append(line)
    return "\n".join(kept)


#: A card's line of a text board ("  3-12  green  5 pts  costs 7 blue, 3 green", "reserved
#: 1-36  black  costs …"): the card id, with two spaces or more after it (the board's
#: columns), after at most a label, and its cost's last count and colour at its end
#: (nothing added after them: "<- this one").
_CARD_LINE = re.compile(r"^(?:\S+[ \t]{2,})?([123]-\d{2})[ \t]{2,}\S.*\d[ \t]+\S+$")
#: The most lines of a quotation that a card's line in it is the writer's own pick (more is
#: a copy of the mail answered).
QUOTED_PICK = 3


def _cards_pasted(text: str) -> str:
    """``text`` with each card's line the writer pasted from a board ("Cadw hwn plîs:" over
    "  1-16  blue   1 pt   costs 4 red"), or quoted alone ("> 3-12  green  5 pts …" over
    "Tek þessa frá"), as the card's id on a line of its own, or after the line above it that
    ends in a colon ("mi rezervas ĉi tiun karton: 2-28"): what the writer points at, without
    the board's words of colour and cost around it."""
    if not re.search(r"[123]-\d{2}[ \t]{2}", text):
        return text
    lines = text.split("\n")
    quoted = [line.lstrip().startswith(">") for line in lines]
    if len(re.findall(r"[123]-\d{2}[ \t]{2}", text)) > 1:
        return text  # (two cards' lines: which one is meant is not for the reader to guess)
    out: list[str] = []
    for n, line in enumerate(lines):
        found = _CARD_LINE.match(line.lstrip(" \t>").strip())
        if found and quoted[n]:
            start, end = n, n
            while start > 0 and quoted[start - 1]:
                start -= 1
            while end + 1 < len(lines) and quoted[end + 1]:
                end += 1
            found = found if end - start < QUOTED_PICK else None
        said = [k for k, kept in enumerate(out) if kept.strip()]
        if found and said and out[said[-1]].rstrip().endswith(":"):  # ("mi rezervas ĉi tiun
            out[said[-1]] = f"{out[said[-1]].rstrip()} {found.group(1)}"  # karton:" over it)
            del out[said[-1] + 1 :]
            continue
        out.append(found.group(1) if found else line)
    return "\n".join(out)


def _in_header_block(lines: list[str], n: int) -> bool:
    """Whether line ``n`` stands in a block of header lines (From:, Sent:, To: …), as mail
    programs write above a copy of the mail answered (a lone "To: Splendor referee" is
    not)."""
    near = [lines[i].strip() for i in (n - 1, n + 1) if 0 <= i < len(lines)]
    return any(_HEADER_LINE.match(line) for line in near)


@functools.cache
def _board_marks() -> re.Pattern[str]:
    """The first words of a text board in every language: ``Splendor · game `` and its
    translations (what ``game %(game)s`` begins with in each)."""
    marks = {BOARD_MARK}
    for language in languages():
        game = str(translations(language).gettext("game %(game)s")).partition("%(game)s")[0]
        if game:
            marks.add(f"Splendor · {game}")
    alternatives = "|".join(re.escape(m) for m in sorted(marks))
    return re.compile(rf"^(?:{alternatives})", re.MULTILINE)


def reply_text(text: str) -> str:
    """What the player wrote: without quotes, attributions, signatures or copies of boards.

    The reply parser splits off attribution lines and quoted header blocks; its signature
    heuristics are not used, as they take words like "Tak" (Danish thanks) for a sign-off and
    would eat "take red green blue". Signatures are cut at the standard "-- " line; other
    lines that are not commands are left for the command reader to pass over.
    """
    text = without_invisibles(text[:READ_AT_MOST]).replace("\r\n", "\n").replace("\r", "\n")
    if any(len(line) > LINE_AT_MOST for line in text.split("\n")):
        text = "\n".join(line[:LINE_AT_MOST] for line in text.split("\n"))
    board = _board_marks().search(text)
    if board:
        text = text[: board.start()]
    # quoted lines are never the player's own words: drop them before the parser, which
    # then has far less to read (a quoted board is most of a reply)
    text = _cards_pasted(_without_copies_of_ours(text))
    text = "\n".join(line for line in text.split("\n") if not line.lstrip().startswith(">"))
    try:
        parsed = _REPLY_PARSER.read(text)
        written = [r.content for r in parsed.replies if r.content.strip(" >\n")]
    except Exception:
        written = [text]
    latest = written[0] if written else ""
    kept = []
    for line in latest.split("\n"):
        if line.rstrip() == "--":
            break
        if not line.lstrip().startswith(">") and not _SEPARATOR.fullmatch(line.strip()):
            kept.append(line)
    return "\n".join(kept).strip()
