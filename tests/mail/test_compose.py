"""The bytes of a letter: what any mail program reads back from them."""

from __future__ import annotations

import email
import email.policy
import re
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest

from referee.mail.transports.compose import Envelope, to_bytes
from referee.wording.letter import Written

TEXT = "Hello Siân,\n\nIt is your turn: take red green blue.\n" + "x" * 200 + "\n"
HTML = "<p>Hello Siân — <b>your</b> turn</p>\n" * 50
ENVELOPE = Envelope(
    sender="referee@example.org",
    message_id="<g1.0.key.t0001.ab@example.org>",
    reply_to="referee+g1.0.key@example.org",
    in_reply_to="<theirs@example.net>",
    references=["<a@example.org>", "<theirs@example.net>"],
    loop_id="0123456789abcdef",
    date=datetime(2026, 12, 1, 9, 0, tzinfo=UTC),
)


def letter(html: str | None) -> Written:
    return Written(
        to="sian@example.net", name="Siân Ó Ceallaigh", kind="turn",
        subject="Splendor g1 · turn 1 · your move", text=TEXT, html=html,
    )  # fmt: skip


def parsed(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


@pytest.mark.parametrize("html", [HTML, None])
def test_a_letter_reads_back_as_written(html: str | None) -> None:
    raw = to_bytes(letter(html), ENVELOPE)
    message = parsed(raw)
    body = message.get_body(("plain",))
    assert body is not None and body.get_content().replace("\r\n", "\n") == TEXT
    if html is not None:
        alternative = message.get_body(("html",))
        assert alternative is not None and alternative.get_content().replace("\r\n", "\n") == html
    assert message["Subject"] == "Splendor g1 · turn 1 · your move"
    assert message["To"].addresses[0].display_name == "Siân Ó Ceallaigh"
    assert message["Reply-To"].addresses[0].addr_spec == "referee+g1.0.key@example.org"
    assert message["References"].split() == ["<a@example.org>", "<theirs@example.net>"]
    assert message["Auto-Submitted"] == "auto-replied"
    assert all(not part.defects for part in message.walk())


def test_a_letter_is_seven_bit_with_crlf_lines_of_legal_length() -> None:
    raw = to_bytes(letter(HTML), ENVELOPE)
    assert raw.isascii()
    assert not re.search(rb"(?<!\r)\n", raw)
    assert max(len(line) for line in raw.split(b"\r\n")) <= 998


def test_a_header_value_from_inbound_mail_cannot_add_headers() -> None:
    hostile = Envelope(sender="referee@example.org", message_id="<m@example.org>",
                       in_reply_to="<x@example.net>\r\nBcc: everyone@example.com")  # fmt: skip
    message = parsed(to_bytes(letter(None), hostile))
    assert message["Bcc"] is None
    assert "Bcc" in message["In-Reply-To"]


def test_long_names_and_subjects_in_any_script_read_back_and_subjects_use_legal_words() -> None:
    name = "অমর্ত্য সেন ও সঙ্গীরা " * 3
    subject = "Splendor g1 · turn 12 · ráðgáta · দান " * 4
    mail = Written(
        to="amartya@example.net", name=name, kind="turn", subject=subject, text=TEXT, html=None
    )
    raw = to_bytes(mail, ENVELOPE)
    message = parsed(raw)
    assert message["Subject"] == subject
    assert message["To"].addresses[0].display_name == name
    subject_line = next(line for line in raw.split(b"\r\n") if line.startswith(b"Subject:"))
    words = re.findall(rb"=\?utf-8\?b\?[^?]*\?=", subject_line)
    assert len(words) > 1 and max(len(w) for w in words) <= 75


def test_every_kind_of_letter_keeps_its_text_within_76_columns() -> None:
    from referee.mail.samples import sample_letters
    from referee.wording.writer import Writer

    writer = Writer()
    for mail in map(writer.write, sample_letters()):
        too_long = [line for line in mail.text.splitlines() if len(line) > 76]
        assert not too_long, (mail.kind, too_long)
