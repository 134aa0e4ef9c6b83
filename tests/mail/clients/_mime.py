"""Shared pieces for writing replies byte by byte, the way mail programs do.

Nothing here uses the ``email`` package's generator: each program folds, encodes and orders
its headers in its own way, and the corpus is only useful if those differences survive.
"""

from __future__ import annotations

import base64
import html
import random
import re
import string
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr, parsedate_to_datetime
from html.parser import HTMLParser

CRLF = "\r\n"
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
DAYS_LONG = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTHS_LONG = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
#: U+202F, which ICU (and so Gmail, iOS 17+, macOS 14+) puts between a time and AM/PM
NNBSP = "\u202f"


# --- the mail being answered -------------------------------------------------------------------


@dataclass(frozen=True)
class Original:
    """What a mail program reads from the referee's mail before it writes a reply."""

    message_id: str
    references: tuple[str, ...]
    reply_name: str
    reply_addr: str
    from_name: str
    from_addr: str
    to_name: str
    to_addr: str
    subject: str
    date: datetime
    text: str
    html: str

    @property
    def chain(self) -> tuple[str, ...]:
        """The parent's References followed by the parent's Message-ID (RFC 5322 3.6.4)."""
        return (*self.references, self.message_id)

    @property
    def html_body(self) -> str:
        """The inside of the HTML part's <body>, which is what a reply quotes."""
        match = re.search(r"<body[^>]*>(.*)</body>", self.html, re.DOTALL | re.IGNORECASE)
        return (match.group(1) if match else self.html).strip("\n")

    @property
    def reply_mailbox(self) -> tuple[str, str]:
        return (self.reply_name, self.reply_addr)


def read_original(message: EmailMessage) -> Original:
    """The referee's mail as a mail program sees it (parsed with email.policy.default)."""
    reply_name, reply_addr = parseaddr(str(message.get("Reply-To") or message["From"]))
    from_name, from_addr = parseaddr(str(message["From"]))
    to = getaddresses([str(message.get("To", ""))])
    to_name, to_addr = to[0] if to else ("", "")
    plain = message.get_body(("plain",))
    rich = message.get_body(("html",))
    text = plain.get_content() if isinstance(plain, EmailMessage) else ""
    markup = rich.get_content() if isinstance(rich, EmailMessage) else ""
    date = parsedate_to_datetime(str(message["Date"]))
    if date.tzinfo is None:
        date = date.replace(tzinfo=UTC)
    return Original(
        message_id=str(message["Message-ID"]).strip(),
        references=tuple(re.findall(r"<[^<>\s]+>", str(message.get("References", "")))),
        reply_name=reply_name,
        reply_addr=reply_addr,
        from_name=from_name,
        from_addr=from_addr,
        to_name=to_name,
        to_addr=to_addr,
        subject=str(message["Subject"]),
        date=date,
        text=str(text).replace("\r\n", "\n"),
        html=str(markup).replace("\r\n", "\n"),
    )


def reply_subject(original: Original, prefix: str = "Re: ") -> str:
    subject = original.subject
    if re.match(r"(?i)^(re|aw|sv|antw|r|rif)\s*:", subject):
        return subject
    return prefix + subject


# --- times ------------------------------------------------------------------------------------


def zone(minutes: int) -> timezone:
    return timezone(timedelta(minutes=minutes))


def local(when: datetime, tz: timezone) -> datetime:
    """``when`` in the mail program's time zone (a naive ``when`` is taken as UTC)."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(tz)


def offset(when: datetime) -> str:
    delta = when.utcoffset() or timedelta(0)
    minutes = int(delta.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"


def rfc_date(when: datetime, *, pad_day: bool = False, comment: str = "") -> str:
    """An RFC 5322 date: ``Tue, 1 Dec 2026 09:00:00 +0000`` (day padded by some programs)."""
    day = f"{when.day:02d}" if pad_day else str(when.day)
    text = (
        f"{DAYS[when.weekday()]}, {day} {MONTHS[when.month - 1]} {when.year} "
        f"{when:%H:%M:%S} {offset(when)}"
    )
    return f"{text} ({comment})" if comment else text


def clock12(when: datetime, *, sep: str = " ", seconds: bool = False) -> str:
    """``9:00 AM`` (``sep`` is a space or U+202F)."""
    hour = when.hour % 12 or 12
    text = f"{hour}:{when:%M}" + (f":{when:%S}" if seconds else "")
    return f"{text}{sep}{'AM' if when.hour < 12 else 'PM'}"


# --- ids --------------------------------------------------------------------------------------


def uuid4(rng: random.Random) -> uuid.UUID:
    return uuid.UUID(int=rng.getrandbits(128), version=4)


def hexdigits(rng: random.Random, count: int, *, upper: bool = False) -> str:
    text = "".join(rng.choice("0123456789abcdef") for _ in range(count))
    return text.upper() if upper else text


def chars(rng: random.Random, count: int, alphabet: str) -> str:
    return "".join(rng.choice(alphabet) for _ in range(count))


ALNUM = string.ascii_letters + string.digits
B64URL = ALNUM + "-_"
B64 = ALNUM + "+/"


def domain_of(address: str) -> str:
    return address.rpartition("@")[2]


# --- headers ----------------------------------------------------------------------------------

_Q_SAFE = set(string.ascii_letters + string.digits + "!*+-/")


def _q_char(char: str, charset: str, lower_hex: bool) -> str:
    if char == " ":
        return "_"
    if char in _Q_SAFE:
        return char
    hexed = "".join(f"={byte:02X}" for byte in char.encode(charset))
    return hexed.lower() if lower_hex else hexed


def encoded_words(
    text: str, charset: str = "utf-8", mode: str = "Q", *, lower_hex: bool = False
) -> str:
    """``text`` as RFC 2047 encoded words of at most 75 characters, joined by spaces."""
    head, tail = f"=?{charset}?{mode}?", "?="
    room = 75 - len(head) - len(tail)
    words: list[str] = []
    if mode.upper() == "B":
        chunk = b""
        for char in text:
            data = char.encode(charset)
            if len(chunk) + len(data) > room // 4 * 3:
                words.append(head + base64.b64encode(chunk).decode() + tail)
                chunk = b""
            chunk += data
        if chunk:
            words.append(head + base64.b64encode(chunk).decode() + tail)
    else:
        current = ""
        for char in text:
            piece = _q_char(char, charset, lower_hex)
            if len(current) + len(piece) > room:
                words.append(head + current + tail)
                current = ""
            current += piece
        if current:
            words.append(head + current + tail)
    return " ".join(words)


def phrase(
    text: str,
    charset: str = "utf-8",
    *,
    style: str = "whole-q",
    lower_hex: bool = False,
) -> str:
    """Header text as a program writes it: left alone when ASCII, else encoded ``style``:

    * ``whole-q`` / ``whole-b``: all of it as encoded words (Gmail, Exchange, Thunderbird);
    * ``tail-q``: the ASCII words before the first non-ASCII word kept, the rest encoded
      (Apple Mail, Outlook for Windows);
    * ``words-q``: only the runs of words that need it (mutt).
    """
    if text.isascii():
        return text
    if style == "whole-b":
        return encoded_words(text, charset, "B")
    if style == "whole-q":
        return _shorter(text, charset, lower_hex)
    words = text.split(" ")
    if style == "tail-q":
        first = next(i for i, word in enumerate(words) if not word.isascii())
        encoded = _shorter(" ".join(words[first:]), charset, lower_hex)
        return " ".join([*words[:first], encoded])
    out: list[str] = []
    run: list[str] = []
    for word in [*words, None]:
        if word is not None and not word.isascii():
            run.append(word)
            continue
        if run:
            out.append(_shorter(" ".join(run), charset, lower_hex))
            run = []
        if word is not None:
            out.append(word)
    return " ".join(out)


def _shorter(text: str, charset: str, lower_hex: bool) -> str:
    """Q for mostly-Latin text, B when that is shorter (non-Latin scripts), as most programs
    choose."""
    q = encoded_words(text, charset, "Q", lower_hex=lower_hex)
    b = encoded_words(text, charset, "B")
    return q if len(q) <= len(b) else b


_SPECIALS = re.compile(r'[()<>\[\]:;@\\,."]')


def mailbox(
    name: str,
    address: str,
    charset: str = "utf-8",
    *,
    style: str = "whole-q",
    quote: bool = False,
    lower_hex: bool = False,
) -> str:
    """``Name <address>``: quoted when it must be (or always, as Outlook does), encoded when
    it is not ASCII."""
    if not name:
        return f"<{address}>"
    if name.isascii():
        if quote or _SPECIALS.search(name):
            escaped = name.replace("\\", "\\\\").replace('"', '\\"')
            return f'"{escaped}" <{address}>'
        return f"{name} <{address}>"
    return f"{phrase(name, charset, style=style, lower_hex=lower_hex)} <{address}>"


def fold(name: str, value: str, *, width: int = 78, indent: str = " ", each: bool = False) -> str:
    """One header, folded at spaces so that its lines stay within ``width`` where they can
    (``each``: a new line for every space-separated item, as Exchange writes References)."""
    items = value.split(" ")
    lines = [f"{name}: {items[0]}"]
    for item in items[1:]:
        if each or len(lines[-1]) + 1 + len(item) > width:
            lines.append(indent + item)
        else:
            lines[-1] += " " + item
    return CRLF.join(lines)


Headers = list[tuple[str, str]]


def render_headers(headers: Headers, **options: int | str | bool) -> str:
    """Headers as ``name: value`` lines; values holding CRLF are taken as already folded."""
    out = []
    for name, value in headers:
        if "\r\n" in value:
            out.append(f"{name}: {value}")
        else:
            out.append(fold(name, value, **options))  # type: ignore[arg-type]
    return CRLF.join(out) + CRLF


# --- bodies -----------------------------------------------------------------------------------


def qp(
    text: str,
    charset: str,
    *,
    dots: bool = False,
    at_spaces: bool = False,
    width: int = 76,
) -> bytes:
    """Quoted-printable (RFC 2045 6.7) with CRLF line ends. ``dots``: every ``.`` written
    ``=2E``, as K-9 Mail does; ``at_spaces``: soft breaks put after a space where one is
    near, as Apple Mail does."""
    out: list[str] = []
    for line in text.split("\n"):
        tokens: list[str] = []
        data = line.encode(charset)
        for index, byte in enumerate(data):
            char = chr(byte)
            last = index == len(data) - 1
            if byte in (0x20, 0x09) and last:
                tokens.append(f"={byte:02X}")
            elif (33 <= byte <= 126 and char != "=" and not (dots and char == ".")) or (
                byte in (0x20, 0x09)
            ):
                tokens.append(char)
            else:
                tokens.append(f"={byte:02X}")
        current: list[str] = []
        length = 0
        for index, token in enumerate(tokens):
            remaining = len(tokens) - index
            if length + len(token) > width - 1 and not (
                remaining == 1 and length + len(token) <= width
            ):
                cut = len(current)
                if at_spaces:
                    spaces = [i for i, t in enumerate(current) if t == " "]
                    if spaces and spaces[-1] > len(current) // 2:
                        cut = spaces[-1] + 1
                out.append("".join(current[:cut]) + "=")
                current = current[cut:]
                length = sum(len(t) for t in current)
            current.append(token)
            length += len(token)
        out.append("".join(current))
    return CRLF.join(out).encode("ascii")


def b64(data: bytes, width: int = 76) -> bytes:
    encoded = base64.b64encode(data).decode("ascii")
    lines = [encoded[i : i + width] for i in range(0, len(encoded), width)]
    return (CRLF.join(lines) + CRLF).encode()


def encode_body(text: str, charset: str, cte: str, **qp_options: bool) -> bytes:
    """``text`` (``\\n`` line ends) in ``charset`` with transfer encoding ``cte``."""
    if cte == "quoted-printable":
        return qp(text, charset, **qp_options)
    if cte == "base64":
        return b64(text.replace("\n", CRLF).encode(charset))
    return text.replace("\n", CRLF).encode(charset)


def fits(text: str, charset: str) -> bool:
    try:
        text.encode(charset)
    except UnicodeEncodeError:
        return False
    return True


def longest_line(text: str, charset: str) -> int:
    return max((len(line.encode(charset)) for line in text.split("\n")), default=0)


@dataclass
class Part:
    """A MIME entity: its Content-* headers and its (already encoded) body."""

    headers: Headers
    body: bytes
    folded: dict[str, str] = field(default_factory=dict)

    def header(self, name: str) -> str:
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        raise KeyError(name)

    def render(self) -> bytes:
        return render_headers(self.headers).encode("ascii") + CRLF.encode() + self.body


def leaf(
    content_type: str,
    text: str,
    charset: str,
    cte: str | None,
    *,
    cte_first: bool = False,
    extra: Headers | None = None,
    **qp_options: bool,
) -> Part:
    """A text part. ``cte`` None: no Content-Transfer-Encoding header (7bit by default)."""
    body = encode_body(text, charset, cte or "7bit", **qp_options)
    headers: Headers = [("Content-Type", content_type)]
    if cte is not None:
        encoding = ("Content-Transfer-Encoding", cte)
        headers.insert(0 if cte_first else 1, encoding)
    headers.extend(extra or [])
    return Part(headers, body)


def multipart(
    content_type: str, boundary: str, parts: list[Part], *, preamble: str = "", tail: str = ""
) -> Part:
    """A multipart entity; ``content_type`` holds its full header value, boundary included."""
    chunks = [preamble.encode()] if preamble else []
    for part in parts:
        chunks.append(f"--{boundary}{CRLF}".encode() + part.render() + CRLF.encode())
    chunks.append(f"--{boundary}--{CRLF}{tail}".encode())
    body = b"".join(chunks)
    return Part([("Content-Type", content_type)], body)


def assemble(headers: Headers, body: bytes, **options: int | str | bool) -> bytes:
    """A whole message: headers (``options`` tell how to fold), a blank line, the body."""
    if not body.endswith(CRLF.encode()):
        body += CRLF.encode()
    return render_headers(headers, **options).encode("ascii") + CRLF.encode() + body


# --- text -------------------------------------------------------------------------------------


def wrap(line: str, width: int) -> list[str]:
    """Greedy wrapping at spaces; a word longer than ``width`` is left whole."""
    if len(line) <= width:
        return [line]
    lines: list[str] = []
    current = ""
    for word in line.split(" "):
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return lines


def quote(text: str, prefix: str = "> ", blank: str = ">") -> str:
    """Every line of ``text`` behind ``prefix`` (an empty line gets ``blank``)."""
    return "\n".join(prefix + line if line else blank for line in text.split("\n"))


def rewrap(text: str, width: int) -> str:
    """Each line wrapped to ``width``, a quoted line's pieces keeping its ``> `` marks."""
    out: list[str] = []
    for line in text.split("\n"):
        marks = re.match(r"^(?:> ?)*", line)
        prefix = marks.group(0) if marks else ""
        if prefix and not prefix.endswith(" "):
            prefix += " "
        body = line[len(marks.group(0) if marks else "") :]
        body = body[1:] if body.startswith(" ") and prefix else body
        if len(line) <= width:
            out.append(line)
            continue
        out.extend(prefix + piece for piece in wrap(body, width - len(prefix)))
    return "\n".join(out)


def flowed(text: str, width: int = 72) -> str:
    """RFC 3676 format=flowed (DelSp=no): long lines broken after a space, which stays at
    the end of the line; lines beginning with a space, ``From `` or (unquoted) ``>``
    space-stuffed; quoted lines written ``> `` + text at each depth; the ``-- `` signature
    line kept as it is. Trailing spaces of hard lines are removed first."""
    out: list[str] = []
    for raw in text.split("\n"):
        if raw == "-- ":
            out.append(raw)
            continue
        depth = len(raw) - len(raw.lstrip(">"))
        content = raw[depth:]
        if depth and content.startswith(" "):
            content = content[1:]
        content = content.rstrip(" ")
        prefix = ">" * depth + (" " if depth else "")
        pieces = _flow_pieces(content, width - len(prefix))
        for index, piece in enumerate(pieces):
            last = index == len(pieces) - 1
            line = piece if last else piece + " "
            if not depth and (line.startswith((" ", ">")) or line.startswith("From ")):
                line = " " + line
            out.append(prefix + line if (depth or line) else line)
    return "\n".join(out)


def _flow_pieces(content: str, width: int) -> list[str]:
    if len(content) <= width:
        return [content]
    pieces: list[str] = []
    rest = content
    while len(rest) > width:
        cut = rest.rfind(" ", 1, width)
        if cut <= 0:
            cut = rest.find(" ", width)
            if cut < 0:
                break
        pieces.append(rest[:cut])
        rest = rest[cut + 1 :]
    pieces.append(rest)
    return pieces


def escape(text: str) -> str:
    return html.escape(text, quote=False)


def html_lines(text: str, template: str = "<div>{}</div>", empty: str = "<div><br></div>") -> str:
    """Typed lines as a composer's HTML: one block per line, ``<br>`` for an empty one."""
    return "".join(template.format(escape(line)) if line else empty for line in text.split("\n"))


# --- HTML to text, as the programs that compose in HTML make their plain part -----------------

_BLOCKS = {"p", "div", "ul", "ol", "table", "tr", "blockquote", "h1", "h2", "h3", "h4", "h5"}
_PARAGRAPHS = {"p", "h1", "h2", "h3", "h4", "h5", "ul", "ol", "table"}
_SKIP = {"head", "style", "script", "title"}


class _TextRenderer(HTMLParser):
    def __init__(self, bullet: str, strong: str, link: str, cell: str, paragraph_gap: bool):
        super().__init__(convert_charrefs=True)
        self.bullet, self.strong, self.link, self.cell = bullet, strong, link, cell
        self.paragraph_gap = paragraph_gap
        self.lines: list[str] = []
        self.current = ""
        self.skip = 0
        self.first_cell = True
        self.href: list[str] = []
        self.link_start = 0

    def flush(self) -> None:
        line = self.current.rstrip()
        if line.strip() and line.strip() != self.bullet.strip():
            self.lines.append(line)
        self.current = ""

    def gap(self) -> None:
        self.flush()
        if self.paragraph_gap and self.lines and self.lines[-1] != "":
            self.lines.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skip += 1
        elif tag == "br":
            self.current = self.current.rstrip(" ")
            self.lines.append(self.current)
            self.current = ""
        elif tag == "li":
            self.flush()
            self.current = self.bullet
        elif tag in ("td", "th"):
            if not self.first_cell:
                self.current = self.current.rstrip(" ") + self.cell
            self.first_cell = False
        elif tag == "tr":
            self.flush()
            self.first_cell = True
        elif tag in _PARAGRAPHS:
            self.gap()
        elif tag in _BLOCKS:
            self.flush()
        elif tag in ("strong", "b"):
            self.current += self.strong
        elif tag == "a":
            self.href.append(dict(attrs).get("href") or "")
            self.link_start = len(self.current)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in _PARAGRAPHS:
            self.gap()
        elif tag in _BLOCKS or tag == "li":
            self.flush()
        elif tag in ("strong", "b"):
            self.current = self.current.rstrip(" ") + self.strong + " "
        elif tag == "a" and self.href:
            href = self.href.pop().removeprefix("mailto:")
            label = self.current[self.link_start :]
            if href and href != label.strip():
                self.current = self.current[: self.link_start] + self.link.format(
                    text=label.strip(), href=href
                )

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        text = re.sub(r"\s+", " ", data.replace("\xa0", " "))
        if not self.current.strip(" ") or self.current.endswith(" "):
            text = text.lstrip(" ")
        self.current += text


def html_to_text(
    markup: str,
    *,
    bullet: str = "* ",
    strong: str = "",
    link: str = "{text} <{href}>",
    cell: str = "\t",
    paragraph_gap: bool = True,
) -> str:
    """A program's plain-text rendering of HTML (approximate: each program has its own
    converter; the knobs cover the differences that show in replies)."""
    renderer = _TextRenderer(bullet, strong, link, cell, paragraph_gap)
    renderer.feed(markup)
    renderer.close()
    renderer.flush()
    text = "\n".join(line.rstrip() for line in renderer.lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")
