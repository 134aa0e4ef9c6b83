"""Mail programs' footers: every catalogued wording and its usual disguises are recognised;
no move, and no everyday sentence, is ever taken for one."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mailparser_reply.constants import MAIL_LANGUAGES

from referee.mail.reading.footers import FOOTERS, is_footer
from referee.notation import ACTIONS, CLAUSES, COLOUR_WORDS, FILLERS, NOTHING, says_a_move


@pytest.mark.parametrize(
    "footer",
    FOOTERS,
    ids=[f"{n:03d} {f.program} ({f.language})" for n, f in enumerate(FOOTERS)],
)
def test_every_catalogued_footer_is_a_footer(footer: tuple[str, str, str]) -> None:
    assert is_footer(footer[2])


def test_the_catalogue_covers_the_players_languages_and_the_common_programs() -> None:
    languages = {f.language for f in FOOTERS}
    assert {"Welsh", "Icelandic", "Esperanto", "Bengali"} <= languages
    assert {"English", "French", "German", "Spanish", "Italian", "Dutch", "Portuguese"} <= (
        languages
    )
    programs = " ".join(f.program for f in FOOTERS)
    for program in (
        "Apple Mail",
        "Outlook for iOS",
        "Outlook for Android",
        "Windows Mail",
        "Gmail",
        "BlackBerry",
        "Samsung Email",
        "Yahoo Mail",
        "Proton Mail",
        "Tuta",
        "K-9 Mail",
        "Spark",
        "Airmail",
        "BlueMail",
        "Edison Mail",
        "Huawei",
        "Xiaomi",
        "Motorola",
    ):
        assert program in programs


def test_the_catalogue_has_no_entry_twice_and_no_empty_field() -> None:
    assert len(set(FOOTERS)) == len(FOOTERS)
    assert all(all(field.strip() for field in footer) for footer in FOOTERS)


@pytest.mark.parametrize(
    "line",
    [
        # links glued on, in angle brackets, in parentheses, bare, in the middle
        "Get Outlook for Android<https://aka.ms/AAb9ysg>",
        "Get Outlook for Android <https://aka.ms/AAb9ysg>",
        "Get Outlook for Android ( https://aka.ms/AAb9ysg )",
        "Get Outlook for Android (https://aka.ms/AAb9ysg)",
        "Get Outlook for Android [https://aka.ms/AAb9ysg]",
        "Get Outlook for Android https://aka.ms/AAb9ysg",
        "Get Outlook for Androidhttps://aka.ms/AAb9ysg",
        "Get Outlook for Androidaka.ms/AAb9ysg",
        "Get [Outlook for Android](https://aka.ms/AAb9ysg)",
        "Sent with [Proton Mail](https://proton.me/) secure email.",
        "Sent from Mail<https://go.microsoft.com/fwlink/?LinkId=550986> for Windows 10",
        "Sent from my Windows 8 PC <http://windows.microsoft.com/consumer-preview>",
        # full stops, bold and italic marks, quotes, brackets, dashes
        "Sent from my iPhone.",
        "Sent from my iPhone…",
        "*Get Outlook for Android*",
        "**Sent with Proton Mail secure email.**",
        "_Sent from my iPhone_",
        '"Sent from my iPhone"',
        "(sent from a phone)",
        "<<sent by galaxy>>",
        "[Sent from my iPad]",
        "— Sent from my iPhone",
        "-- Sent from my iPhone",
        # odd spaces and invisible characters
        "Sent\u00a0from\u00a0my\u00a0iPhone",
        "Get\u202fOutlook for\u2009iOS",
        "\u200bSent from my iPhone\u200b",
        "\ufeffVon meinem iPhone gesendet",
        "\u2063Get BlueMail for Android \u200b",
        "  Sent from my iPhone  ",
        "Sent  from   my\tiPhone",
        # model names and what follows them on the line
        "Sent from my iPhone 15 Pro",
        "Sent from my iPhone 15 Pro Max, please excuse typos",
        "Sent from my Samsung Galaxy S21 5G",
        "Sent from my Galaxy Tab S8",
        "Sent via the Samsung Galaxy S7, an AT&T 4G LTE smartphone",
        "Sent from my Verizon, Samsung Galaxy smartphone",
        "Sent from my Android device with K-9 Mail. Please excuse my brevity and top posting.",
        "Sent from my BlackBerry® smartphone on the Verizon Wireless 4G LTE network.",
        "Sent from my Pixel 8",
        "Sent from my HUAWEI P30 Pro",
        "Yahoo Mail: Search, Organize, Conquer On Tue, May 12, 2026 at 5:58 PM, Ann wrote:",
        "Von meinem Huawei-Telefon gesendet",
        "Envoyé de mon iPad",
        "Enviado desde mi iPad",
        "iPhoneから送信されました",
        # upper and lower case
        "SENT FROM MY IPHONE",
        "sent from my iphone",
        "GET OUTLOOK FOR ANDROID",
        "get outlook for ios",
        "ENVOYÉ DE MON IPHONE",
        # accents written as two characters (as some Macs send them), or left off
        "Envoye\u0301 de mon iPhone",
        "Envoye de mon iPhone",
        "Telecharger Outlook pour Android",
        # curly apostrophes
        "Wysłane z iPhone\u2019a",
        "Anfonwyd o\u2019m iPhone",
    ],
)
def test_footers_with_links_marks_odd_spaces_model_names_and_any_case_are_footers(
    line: str,
) -> None:
    assert is_footer(line)


def _reply_parser_phrases() -> list[str]:
    phrases = []
    for language in MAIL_LANGUAGES.values():
        pattern = language.get("sent_from") or ""
        phrases += [p for p in pattern.split("|") if p and not re.search(r"[\\.*+?()\[\]]", p)]
    return phrases


@pytest.mark.parametrize("phrase", _reply_parser_phrases())
def test_the_reply_parsers_sent_from_phrases_are_footers(phrase: str) -> None:
    assert is_footer(f"{phrase} iPhone")


MOVES = [
    "take red green blue",
    "get 2 red",
    "get red green blue",
    "Get white blue green",
    "take 2 white",
    "buy 1-12",
    "buy 2-07 pay 2 red 1 gold",
    "reserve deck 3",
    "reserve 2-07",
    "pass",
    "Pass.",
    "return white",
    "noble N4",
    "take ruby emerald sapphire",
    "take r g u",
    "take w u g",
    "purchase 3-01",
    "discard 1 black",
    "Take red, green and blue.",
    "TAKE RED GREEN BLUE",
    "get two diamonds",
    "take 2 onyx",
    "get rubies",
    "get sapphire, emerald, ruby",
    "get 1 red 1 blue 1 white",
    "reserve the top of deck 2",
    "reserve level 1",
    "reserve 3-15 return 1 green",
    "take diamond sapphire onyx return gold",
    "buy 1-12 noble N4",
    "pay 2 red 1 gold",
    "return nothing",
    "*take red green blue*",
]
#: A footer glued onto the move's line (HTML turned into text): the line is no footer (the
#: reader cuts the footer off: tests/mail/test_reading.py).
GLUED = ["take red green blue Sent from my iPhone", "get 2 red Get Outlook for Android"]


@pytest.mark.parametrize("move", MOVES)
def test_moves_are_not_footers(move: str) -> None:
    assert says_a_move(move)  # the list holds real move lines
    assert not is_footer(move)


@pytest.mark.parametrize("line", GLUED)
def test_a_move_with_a_footer_glued_on_is_not_a_footer(line: str) -> None:
    assert not is_footer(line)


@pytest.mark.parametrize(
    "line",
    [
        "Sent you my move below",
        "Thanks, sent from the train",
        "Sent from the train, sorry for the delay",
        "Sent it before breakfast",
        "I sent it from my phone",
        "Sent with love",
        "Take care",
        "Buy me a coffee",
        "Get well soon!",
        "Get ready: I am after the rubies",
        "Getting the hang of it now",
        "Outlook for my rubies is grim",
        "Yahoo! I finally got a noble",
        "From my point of view that was a good move",
        "On my way home now",
        "Someone from mobile",
        "Good luck everyone",
        "Hi all,",
        "Cheers",
        "This email was sent from our automated system",
        "The notification was sent from my iPhone app to all users.",
        "Diolch yn fawr",
        "Takk fyrir",
        "Dankon",
        "ধন্যবাদ",
        "Merci, à bientôt",
        "Danke schön",
        "Gracias",
    ],
)
def test_everyday_sentences_are_not_footers(line: str) -> None:
    assert not is_footer(line)


@pytest.mark.parametrize("line", ["", " ", "\u00a0", "\u200b", "*", "-- ", "—", "________"])
def test_blank_lines_and_bare_marks_are_not_footers(line: str) -> None:
    assert not is_footer(line)


_MOVE_WORDS = sorted({*ACTIONS, *CLAUSES})
_ARGUMENT_WORDS = sorted(
    {
        *COLOUR_WORDS,
        *FILLERS,
        *NOTHING,
        "one",
        "two",
        "three",
        "1",
        "2",
        "3",
        "1-12",
        "2-07",
        "3-15",
        "deck",
        "level",
        "top",
        "n4",
        "N10",
    }
)


@given(
    head=st.sampled_from(_MOVE_WORDS).flatmap(
        lambda word: st.sampled_from([word, word.upper(), word.capitalize()])
    ),
    rest=st.lists(st.sampled_from(_ARGUMENT_WORDS), max_size=8),
    joiner=st.sampled_from([" ", ", ", "  ", "\u00a0"]),
    end=st.sampled_from(["", ".", "!", "*"]),
)
def test_no_line_of_move_words_is_a_footer(
    head: str, rest: list[str], joiner: str, end: str
) -> None:
    assert not is_footer(joiner.join([head, *rest]) + end)
