"""Mail as it really comes, broken: unknown or impossible charsets, MIME nested thousands
deep, broken headers, random multipart trees. Every mail gets a ruling and nothing raises;
a player's reply whose text cannot be read is answered (how to send it again), never
dropped in silence, and `referee inbox` names its sender and game."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli import app
from referee.mail.judging.facts import Snapshot
from referee.mail.judging.judge import judge, read
from referee.mail.reading.inbound import read_message
from tests.mail.dirtable import Table, address
from tests.mail.players import deliver, latest, mails_to, references, text_of

runner = CliRunner()
NOW = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)


def head(to_mail: object, sender: str, message_id: str) -> bytes:
    """The headers of a reply to ``to_mail`` (its Reply-To, its thread), as bytes."""
    mail = to_mail  # an EmailMessage
    return (
        f"From: {sender.split('@')[0]} <{sender}>\r\n"
        f"To: {mail['Reply-To']}\r\n"  # type: ignore[index]
        f"Subject: Re: move\r\nMessage-ID: {message_id}\r\n"
        f"In-Reply-To: {mail['Message-ID']}\r\n"  # type: ignore[index]
        f"References: {references(mail)}\r\nMIME-Version: 1.0\r\n"  # type: ignore[arg-type]
    ).encode()


def nested(depth: int, text: bytes) -> bytes:
    """A multipart body nested ``depth`` deep, the move in its innermost part."""
    body = b"Content-Type: multipart/mixed; boundary=b0\r\n\r\n"
    for n in range(depth):
        body += f"--b{n}\r\nContent-Type: multipart/mixed; boundary=b{n + 1}\r\n\r\n".encode()
    return body + f"--b{depth}\r\nContent-Type: text/plain\r\n\r\n".encode() + text + b"\r\n"


@pytest.mark.parametrize("charset", ["idna", "punycode", "x-no-such-charset", "utf-8\x00"])
def test_a_reply_in_a_charset_no_one_can_decode_is_still_read_or_answered(
    tmp_path: Path, charset: str
) -> None:
    table = Table(tmp_path)
    welcome = latest(table.mail, address("alice"))
    before = len(mails_to(table.mail, address("alice")))
    raw = head(welcome, address("alice"), "<cs@example.org>") + (
        f"Content-Type: text/plain; charset=\"{charset}\"\r\n"
        "Content-Transfer-Encoding: 8bit\r\n\r\ntake red green blue\r\n"
    ).encode()
    deliver(table.mail, "cs.eml", raw)
    table.serve()
    assert len(mails_to(table.mail, address("alice"))) == before + 1  # answered, once
    played = table.state.turn == 1
    assert played or "take" in text_of(latest(table.mail, address("alice")))


def test_a_players_reply_nested_5000_deep_is_answered_and_named_in_the_inbox(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    welcome = latest(table.mail, address("alice"))
    raw = head(welcome, address("alice"), "<deep@example.org>") + nested(5000, b"take 2 red")
    deliver(table.mail, "deep.eml", raw)
    table.serve()
    assert table.state.turn == 0
    words = " ".join(text_of(latest(table.mail, address("alice"))).split())
    assert "could not read your mail" in words and "send your move again" in words
    listed = runner.invoke(app, ["inbox", "--json", "--games-dir", str(table.games)])
    (mail,) = json.loads(listed.output)["mails"]
    assert (mail["sender"], mail["game"]) == (address("alice"), "g1")
    # the same mail from a stranger, with no key of theirs: ignored, never answered
    stranger = head(welcome, "eve@example.org", "<eve@example.org>") + nested(5000, b"x")
    deliver(table.mail, "eve.eml", stranger)
    table.serve()
    assert mails_to(table.mail, "eve@example.org") == []


CHARSETS = ["utf-8", "latin-1", "utf-16", "idna", "punycode", "x-unknown", "ascii", "koi8-r",
            "utf-7", "bad\x00name", ""]  # fmt: skip
ENCODINGS = ["7bit", "8bit", "base64", "quoted-printable", "x-uuencode", "binary", "bogus"]
LEAVES = ["text/plain", "text/html", "application/octet-stream", "message/rfc822",
          "text/plain; format=flowed; delsp=yes"]  # fmt: skip


@st.composite
def parts(draw: st.DrawFn, depth: int = 0) -> bytes:
    """A random MIME part: a leaf of any type, charset and encoding, or a multipart."""
    if depth < 4 and draw(st.booleans()):
        boundary = draw(st.sampled_from(["b", "==x==", "", "b b"]))
        kids = draw(st.lists(parts(depth + 1), max_size=3))
        body = b"".join(f"--{boundary}\r\n".encode() + k for k in kids)
        body += f"--{boundary}--\r\n".encode() if draw(st.booleans()) else b""
        kind = draw(st.sampled_from(["mixed", "alternative", "related", "digest"]))
        return f"Content-Type: multipart/{kind}; boundary=\"{boundary}\"\r\n\r\n".encode() + body
    kind = draw(st.sampled_from(LEAVES))
    charset = draw(st.sampled_from(CHARSETS))
    encoding = draw(st.sampled_from(ENCODINGS))
    payload = draw(st.binary(max_size=300) | st.just(b"take red green blue"))
    return (
        f"Content-Type: {kind}; charset=\"{charset}\"\r\n"
        f"Content-Transfer-Encoding: {encoding}\r\n\r\n"
    ).encode() + payload + b"\r\n"


HEADERS = st.lists(
    st.sampled_from([
        b"From: Ann <ann@example.org>", b"From: =?bogus?Q?x?= <>", b"From:", b"To: ref+g1.0.k@x",
        b"Message-ID: <m@x>", b"Message-ID:", b"Subject: =?utf-8?B?!!!?=", b"In-Reply-To: <<<",
        b"References: " + b"<a@b> " * 50, b"Auto-Submitted: auto-replied", b"MIME-Version: 1.0",
        b"\xff\xfe: \x00", b"Content-Type: multipart/mixed", b" folded continuation",
    ]),
    max_size=8,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(headers=HEADERS, body=parts())
def test_any_mail_at_all_gets_a_ruling_and_nothing_raises(
    headers: list[bytes], body: bytes
) -> None:
    raw = b"\r\n".join(headers) + b"\r\n" + body
    inbound = read_message(raw, "loop")
    for scope in ("referee", "invitation"):
        mail = read(inbound, None, scope)  # type: ignore[arg-type]
        ruling = judge(mail, Snapshot(referee="referee@example.net", secret=b"s"), NOW)
        assert ruling.outcome in ("played", "answered", "refused", "ignored")
        assert len({letter.to for letter in ruling.letters}) == len(ruling.letters)
