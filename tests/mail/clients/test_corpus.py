"""The corpus of replies is well-formed mail: for every program, every original (a first
turn and a late turn with ten References) and a few senders and moves, the reply parses,
threads as that program threads, is sent by the sender, keeps to the line rules of RFC 5322,
is 7-bit unless the program sends 8bit, decodes in its declared charset, and holds the move."""

from __future__ import annotations

import asyncio
import copy
import email
import email.policy
import random
import re
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import parseaddr

import pytest

from referee.games import create_game
from referee.mail.herald import MailHerald
from referee.mail.transports.directory import DirTransport
from referee.service import Service
from referee.settings import Settings
from referee.store import Store
from tests.mail.clients import CLIENTS, Sender
from tests.mail.clients._mime import html_to_text

#: programs whose References holds the parent's Message-ID alone, not the chain
PARENT_ONLY = {name for name in CLIENTS if name == "ipad" or name.startswith("iphone")}
SENDERS = [
    Sender("Alice Jones", "alice@example.org"),
    Sender("Siân Ellis", "sian@example.cymru"),
    Sender("Jones, Bob", "bob@example.org"),
    Sender("অনিক রায়", "anik@example.com.bd"),
]
MOVES = ["take red green blue", "take 2 red\nreturn white", "buy 1-13 pay 2 red 1 gold"]
WHEN = datetime(2026, 12, 2, 9, 30, 5, tzinfo=UTC)


def _parse(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


@pytest.fixture(scope="module")
def first_turn(tmp_path_factory: pytest.TempPathFactory) -> EmailMessage:
    """A real welcome board, as the referee sends it."""
    root = tmp_path_factory.mktemp("referee")
    settings = Settings(
        games_dir=root / "games", mail_dir=root / "mail", address="referee@example.net"
    )
    players = [("alice", "alice@example.org"), ("bob", "bob@example.org")]
    create_game(
        Store(settings.games_dir), "g1", players, seed=5, herald=MailHerald.of(settings.games_dir)
    )
    asyncio.run(Service(settings, DirTransport(root / "mail")).run(once=True))
    outbox = sorted((root / "mail" / "outbox").glob("*alice*.eml"))
    return _parse(outbox[0].read_bytes())


@pytest.fixture(scope="module")
def late_turn(first_turn: EmailMessage) -> EmailMessage:
    """The same board as a late turn's mail: its References holds ten earlier ids."""
    late = copy.deepcopy(first_turn)
    stem, _, tail = str(first_turn["Message-ID"]).strip("<>").partition(".t0000.")
    ids = [
        f"<{stem}.t{turn:04d}.{tail.split('@')[0][:6]}{turn:06x}@example.net>"
        for turn in range(2, 12)
    ]
    del late["Message-ID"], late["Subject"]
    late["Message-ID"] = f"<{stem}.t0012.{tail}"
    late["References"] = " ".join(ids)
    late["Subject"] = "Splendor g1 · turn 12 · your move"
    return late


@pytest.fixture(params=["first", "late"])
def original(
    request: pytest.FixtureRequest, first_turn: EmailMessage, late_turn: EmailMessage
) -> EmailMessage:
    return first_turn if request.param == "first" else late_turn


def _text_of(message: EmailMessage) -> str:
    """The reply's text part, or its HTML part turned into text."""
    plain = message.get_body(("plain",))
    if plain is not None:
        return str(plain.get_content())
    rich = message.get_body(("html",))
    assert rich is not None, "a reply with neither a text nor an HTML part"
    return html_to_text(str(rich.get_content()))


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_the_late_turn_original_has_ten_references(late_turn: EmailMessage, name: str) -> None:
    assert len(str(late_turn["References"]).split()) == 10


@pytest.mark.parametrize("name", sorted(CLIENTS))
@pytest.mark.parametrize("sender", SENDERS, ids=lambda s: s.address)
def test_reply_is_well_formed(original: EmailMessage, name: str, sender: Sender) -> None:
    rng = random.Random(f"{name}/{sender.address}")
    move = MOVES[rng.randrange(len(MOVES))]
    raw = CLIENTS[name].write(original, move, sender, WHEN, rng)

    # CRLF everywhere, no line over 998 octets (RFC 5322 2.1.1), no bare CR or LF
    assert raw.endswith(b"\r\n")
    lines = raw.split(b"\r\n")
    assert all(b"\n" not in line and b"\r" not in line for line in lines)
    assert max(len(line) for line in lines) <= 998

    reply = _parse(raw)
    assert not reply.defects, reply.defects
    parent = str(original["Message-ID"]).strip()

    # threading as the program threads
    assert str(reply["In-Reply-To"]).strip() == parent
    references = re.findall(r"<[^<>\s]+>", str(reply["References"]))
    assert references[-1] == parent
    chain = [*re.findall(r"<[^<>\s]+>", str(original.get("References", ""))), parent]
    assert references == ([parent] if name in PARENT_ONLY else chain)

    # from the sender, to the referee's Reply-To
    assert parseaddr(str(reply["From"])) == (sender.name, sender.address)
    assert parseaddr(str(reply["To"]))[1] == parseaddr(str(original["Reply-To"]))[1]
    assert str(reply["Subject"]).endswith(str(original["Subject"]))
    assert reply["Message-ID"] and reply["Date"]

    # 7-bit clean unless the part says 8bit; each part decodes in its declared charset
    head, _, _ = raw.partition(b"\r\n\r\n")
    assert head.isascii()
    for part in reply.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True)
        assert isinstance(payload, bytes)
        charset = part.get_content_charset() or "us-ascii"
        payload.decode(charset)  # strict: raises if the charset does not fit
        encoding = str(part.get("Content-Transfer-Encoding", "7bit")).lower()
        if encoding != "8bit":
            assert str(part.get_payload()).isascii(), f"8-bit bytes in a {encoding} part"
    if not raw.isascii():
        assert any(
            str(p.get("Content-Transfer-Encoding", "")).lower() == "8bit" for p in reply.walk()
        )

    # the move is there, and so is the referee's mail (quoted or not, as the program does)
    text = _text_of(reply)
    for line in move.split("\n"):
        assert line in text
    assert "alice" in text and "take white blue green" in text


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_replies_differ_by_rng_but_not_by_chance(first_turn: EmailMessage, name: str) -> None:
    """The same seed writes the same bytes (the corpus is reproducible)."""
    sender = SENDERS[0]
    one = CLIENTS[name].write(first_turn, "pass", sender, WHEN, random.Random(7))
    two = CLIENTS[name].write(first_turn, "pass", sender, WHEN, random.Random(7))
    assert one == two


def test_every_client_is_described() -> None:
    assert len(CLIENTS) >= 30
    for name, client in CLIENTS.items():
        assert client.name == name and name == name.lower() and client.description


def test_the_corpus_covers_charsets_and_encodings(first_turn: EmailMessage) -> None:
    charsets: set[str] = set()
    encodings: set[str] = set()
    for name, client in CLIENTS.items():
        raw = client.write(first_turn, "pass", SENDERS[1], WHEN, random.Random(name))
        for part in _parse(raw).walk():
            if not part.is_multipart():
                charsets.add((part.get_content_charset() or "").lower())
                encodings.add(str(part.get("Content-Transfer-Encoding", "7bit")).lower())
    assert {"utf-8", "iso-8859-1", "windows-1252"} <= charsets
    assert {"base64", "quoted-printable", "8bit"} <= encodings
