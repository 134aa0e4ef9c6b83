"""Reading mail: any charset, encoding and format; only what the player wrote; automatic
mail recognised; any bytes survived."""

from __future__ import annotations

from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import view
from referee.mail.reading.inbound import html_text, read_message, reply_text, unflow
from referee.mail.reading.reply import read_reply
from referee.wording.writer import Reader, Writer
from tests.positions import new_game


def mail(body: str = "take red green blue", **headers: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Alice <Alice@Example.org>"
    message["To"] = "referee+g1.0.abc@example.net"
    message["Subject"] = "Re: Splendor g1"
    message["Message-ID"] = "<m1@example.org>"
    for key, value in headers.items():
        message[key.replace("_", "-")] = value
    message.set_content(body)
    return message


def test_the_sender_recipients_and_answered_ids_are_read() -> None:
    inbound = read_message(bytes(mail(In_Reply_To="<a@x>", References="<z@x> <a@x>")))
    assert inbound.sender == "alice@example.org"
    assert inbound.recipients == ["referee+g1.0.abc@example.net"]
    assert inbound.in_reply_to == ["<a@x>"] and inbound.references == ["<z@x>", "<a@x>"]
    assert inbound.message_id == "<m1@example.org>"
    assert inbound.automatic is None and inbound.text.strip() == "take red green blue"


def test_folded_encoded_and_eight_bit_headers_are_read() -> None:
    raw = (
        b"From: =?iso-8859-1?q?Si=E2n?= <Sian@Example.org>\r\n"
        b"To: referee+g1.0.abc@example.net,\r\n  Other <other@example.net>\r\n"
        b"Subject: =?utf-8?b?UmU6IFNwbGVuZG9yIMK3IGcx?=\r\n"
        b"Message-ID:\r\n <m1@example.org>\r\n"
        b"References: <a@x>\r\n\t<b@x>\r\n\r\n"
        b"take red green blue\r\n"
    )
    inbound = read_message(raw)
    assert inbound.sender == "sian@example.org" and inbound.message_id == "<m1@example.org>"
    assert inbound.recipients == ["referee+g1.0.abc@example.net", "other@example.net"]
    assert inbound.subject == "Re: Splendor · g1" and inbound.references == ["<a@x>", "<b@x>"]
    eight_bit = read_message(raw.replace(b"Subject: =?utf-8?b?UmU6IFNwbGVuZG9yIMK3IGcx?=",
                                         "Subject: Re: Splendor · café".encode()))  # fmt: skip
    assert eight_bit.subject == "Re: Splendor · café"


@pytest.mark.parametrize("charset", ["utf-8", "iso-8859-1", "windows-1252", "utf-16"])
@pytest.mark.parametrize("cte", ["base64", "quoted-printable", "8bit"])
def test_any_charset_and_transfer_encoding_is_decoded(charset: str, cte: str) -> None:
    message = mail()
    if cte == "8bit" and charset == "utf-16":
        cte = "base64"
    message.set_content("Prenez: take red green blue, señor", charset=charset, cte=cte)
    assert "take red green blue" in read_message(bytes(message)).text


def test_the_html_part_is_turned_into_text_when_there_is_no_plain_part() -> None:
    message = EmailMessage()
    message["From"] = "bob@example.org"
    message.set_content(
        "<html><body><p><b>take</b> 2 red</p><blockquote>buy 1-12</blockquote></body></html>",
        subtype="html",
    )
    assert "take 2 red" in read_message(bytes(message)).text


def test_every_blockquote_of_an_html_reply_is_dropped_nested_or_not() -> None:
    html = (
        "<div>board</div><blockquote>q<blockquote>take 2 red</blockquote>r</blockquote>"
        "<div>thanks</div><blockquote>What you may do now:<br>&nbsp; buy 1-12</blockquote>"
    )
    assert html_text(html).split() == ["board", "thanks"]


@pytest.mark.parametrize(
    "text",
    [
        "a" * 300_000,
        "On " + "a " * 150_000,
        "[" * 100_000 + ":",
        "Splendor referee 1:\n> x\n" * 40_000,
        ("x " * 300 + "\n") * 400,
        ("On " + "a " * 300 + "\n") * 400,
        ("On Tue " + "b " * 240 + " wrote\n") * 400,
        "take " * 100_000,
        "{" * 50_000,
    ],
    ids=["one-long-line", "on-a-a", "brackets", "names", "spaces", "on-lines", "wrote", "takes",
         "braces"],
)  # fmt: skip
def test_huge_and_pathological_replies_are_read(text: str) -> None:
    """Each of these took minutes to hours before lines and text were capped (the reply
    parser's patterns are quadratic in a line's length); no timing is asserted, but a
    return of that would be seen in the suite's running time."""
    read_reply(reply_text(text))


def test_the_plain_part_of_multipart_alternative_wins() -> None:
    message = mail("take 2 red")
    message.add_alternative("<p>take 2 white</p>", subtype="html")
    assert read_message(bytes(message)).text.strip() == "take 2 red"


def test_format_flowed_lines_are_joined() -> None:
    assert (
        unflow("take red \ngreen blue\n> quoted \n> more") == "take red green blue\n> quoted more"
    )
    assert unflow("take red gre\nen", delsp=False) == "take red gre\nen"
    assert unflow("take red gre \nen", delsp=True) == "take red green"


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("take 2 red\n\nOn Tue, 1 Dec 2026, Referee <r@x> wrote:\n> buy 1-12\n", "take 2 red"),
        (
            "take 2 red\n\nAm Di., 1. Dez. 2026 um 08:00 schrieb Referee <r@x>:\n> buy 1-12",
            "take 2 red",
        ),
        (
            "take 2 red\n\nLe mar. 1 déc. 2026 à 08:00, Referee <r@x> a écrit :\n> buy 1-12",
            "take 2 red",
        ),
        (
            "take 2 red\n\nAr Maw, 1 Rhag 2026 am 08:00, Referee <r@x> ysgrifennodd:\n> buy 1-12",
            "take 2 red",
        ),
        (
            "take 2 red\n\nÞann þri. 1. des. 2026 kl. 08:00 skrifaði Referee <r@x>:\n> buy 1-12",
            "take 2 red",
        ),
        (
            "take 2 red\n\nJe mar, 1 dec 2026 je 08:00, Referee <r@x> skribis:\n> buy 1-12",
            "take 2 red",
        ),
        ("take 2 red\n\n১ ডিসেম্বর ২০২৬ এ Referee <r@x> লিখেছেন:\n> buy 1-12", "take 2 red"),
        (
            "take 2 red\n\n-----Original Message-----\nFrom: Referee\nSent: Tuesday\nTo: alice\n"
            "Subject: Splendor\n\nbuy 1-12",
            "take 2 red",
        ),
        (
            "take 2 red\n________________________________\nFrom: Referee <r@x>\nSent: Tuesday\n"
            "To: alice\nSubject: g1\n\nbuy 1-12",
            "take 2 red",
        ),
        ("reserve deck 3\n-- \nAlice\nbuy 1-12", "reserve deck 3"),
        ("Hi!\ntake red green blue\nTak\n", "Hi!\ntake red green blue\nTak"),
        ("buy 1-12\n\nSplendor · game g1 · turn 3\n  take red green blue  (help)", "buy 1-12"),
        # (a line that starts "Do:", Esperanto "so:", is no Polish "Do:" header alone)
        ("Saluton!\n\nDo: mi prenas du verdajn.", "Saluton!\n\nDo: mi prenas du verdajn."),
        ("take 2 red\n\nOd: Referee\nDo: alice\nTemat: g1\n\nbuy 1-12", "take 2 red"),
    ],
)
def test_only_what_the_player_wrote_is_kept(text: str, written: str) -> None:
    assert reply_text(text) == written


@pytest.mark.parametrize("language", ["cy", "is", "eo", "bn"])
def test_a_copy_of_a_board_in_any_language_ends_what_the_player_wrote(language: str) -> None:
    board = Writer().reading(Reader(language)).board_text(view(new_game()), "g1")
    assert not board.startswith("Splendor · game ")
    assert reply_text(f"take 2 red\n\n{board}") == "take 2 red"


def test_a_move_written_below_the_quoted_board_is_kept() -> None:
    text = "On Tue, Referee wrote:\n> Splendor · game g1 · turn 3\n> buy 1-12\n\ntake 2 white\n"
    kept = reply_text(text)
    assert "take 2 white" in kept and "buy 1-12" not in kept


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({"Auto_Submitted": "auto-replied"}, "Auto-Submitted"),
        ({"Auto_Submitted": "auto-generated"}, "Auto-Submitted"),
        ({"Precedence": "junk"}, "Precedence"),
        ({"X_Autorespond": "1"}, "X-Autorespond"),
        ({"List_Unsubscribe": "<mailto:u@x>"}, "mailing list"),
        ({"Return_Path": "<>"}, "bounce"),
        ({"Subject": "Out of Office: back Monday"}, "subject"),
    ],
)
def test_automatic_mail_is_recognised(headers: dict[str, str], why: str) -> None:
    message = mail()
    if "Subject" in headers:
        del message["Subject"]
    inbound = read_message(
        bytes(mail(**headers))
        if "Subject" not in headers
        else bytes(_with_subject(headers["Subject"]))
    )
    assert inbound.automatic is not None and why.lower() in inbound.automatic.lower()


def _with_subject(subject: str) -> EmailMessage:
    message = mail()
    del message["Subject"]
    message["Subject"] = subject
    return message


def test_auto_submitted_no_is_a_person() -> None:
    assert read_message(bytes(mail(Auto_Submitted="no"))).automatic is None


def test_our_own_loop_header_marks_our_mail() -> None:
    message = mail(X_Referee_Loop="abc123")
    assert read_message(bytes(message), "abc123").automatic == "our own mail"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000))
def test_any_bytes_are_read_without_an_exception(raw: bytes) -> None:
    inbound = read_message(raw)
    reply_text(inbound.text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_any_text_body_is_read_without_an_exception(body: str) -> None:
    message = EmailMessage()
    message["From"] = "a@b.c"
    message.set_content(body)
    reply_text(read_message(bytes(message)).text)
