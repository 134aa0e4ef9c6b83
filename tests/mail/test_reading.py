"""Reading what a person wrote: the move is what they wrote first; signatures, mail programs'
footers and later chit-chat never change what a reply means."""

from __future__ import annotations

import pytest

from referee.mail.reading.footers import FOOTERS
from referee.mail.reading.inbound import reply_text
from referee.mail.reading.reply import read_reply
from referee.notation import parse_request
from referee.wording import ENGLISH


def move_of(text: str) -> list[str]:
    """The move lines of a reply body, read as the service reads it."""
    return read_reply(reply_text(text)).move


@pytest.mark.parametrize("footer", [f[2] for f in FOOTERS], ids=[f"{f[0]}-{f[1]}" for f in FOOTERS])
@pytest.mark.parametrize("gap", ["\n\n", "\n"], ids=["own-paragraph", "same-paragraph"])
def test_a_mail_programs_footer_under_the_move_is_never_read(footer: str, gap: str) -> None:
    assert move_of(f"take red green blue{gap}{footer}\n") == ["take red green blue"]
    assert move_of(f"buy 1-12{gap}{footer}\n\nOn Tue, Referee wrote:\n> reserve deck 3") == [
        "buy 1-12"
    ]


@pytest.mark.parametrize(
    "footer",
    [
        "Get Outlook for Android<https://aka.ms/AAb9ysg>",
        "Get Outlook for iOS<https://aka.ms/o0ukef>",
        "Sent from my iPhone",
        "Sent from Yahoo Mail on Android",
        "Sent with Proton Mail secure email.",
        "Securely sent with Tuta.",
        "Sent from my Galaxy",
    ],
)
def test_the_common_footers_leave_the_move_alone(footer: str) -> None:
    assert move_of(f"take 2 red\n\n{footer}") == ["take 2 red"]
    assert move_of(f"Hi all,\n\ntake 2 red\n\n{footer}\n") == ["take 2 red"]


@pytest.mark.parametrize(
    "line",
    ["take red green blue Sent from my iPhone", "take red green blue Get Outlook for Android"],
)
def test_a_footer_glued_onto_the_moves_line_is_cut_off(line: str) -> None:
    assert move_of(line) == ["take red green blue"]


def test_a_footer_above_the_move_is_passed_over() -> None:
    # a phone that puts its signature at the top, the player writing below the quote
    assert move_of("Sent from my iPhone\n\n> quoted board\n\nreserve deck 3") == ["reserve deck 3"]


def test_a_move_below_the_quote_is_read_whatever_stands_above_the_attribution() -> None:
    attribution = (
        "On 2 Dec 2026, at 09:00, Splendor referee <referee+g1.0.abcdefghijklmnop@example.net> "
        "wrote:"
    )
    for above in ("Sent from my iPhone", "Hi all,"):
        text = f"{above}\n\n{attribution}\n> Splendor · game g1\n> buy 1-12\n\nreserve deck 3\n"
        assert move_of(text) == ["reserve deck 3"], above


@pytest.mark.parametrize(
    "block",
    [
        "From: Splendor referee <referee+g1.0.abcdefghijklmnop@example.net>\nSent: Tuesday",
        "Frá: Splendor referee <referee+g1.0.abcdefghijklmnop@example.net>\nSent: 1. des.",
        "Oddi: 1 Rhag 2026\nOddi wrth: Splendor referee\nAt: alice",
        "От: Splendor referee\nДата: 1 декабря",  # noqa: RUF001
    ],
)
def test_an_unquoted_copy_of_our_mail_under_a_header_block_in_any_language_is_not_read(
    block: str,
) -> None:
    copy = "Hello alice,\n\nWhat you may do now:\n  buy 1-12\n"
    assert move_of(f"board\n\n{block}\nTo: alice\n\n{copy}") == []
    assert read_reply(reply_text(f"board\n\n{block}\n\n{copy}")).requests == ["board"]
    assert move_of(f"take 2 red\n\n{block}\n\n{copy}") == ["take 2 red"]


@pytest.mark.parametrize(
    "block",
    [
        "Oddi wrth: Dyfarnwr <dyfarnwr@example.net>\nDyddiad: 08/12/2026 21:14\nPwnc: eich tro",
        "Frá: Dómari <domari@example.net>\nSent: 8. desember 2026\nEfni: þú átt leik",
        "De: Ludestro <ludestro@example.net>\nDato: 2026-12-08\nTemo: via vico",
        "প্রেরক: রেফারি <referee@example.net>\nতারিখ: ৮ ডিসেম্বর\nবিষয়: আপনার চাল",
    ],
)
def test_a_header_block_in_a_players_language_ends_the_reply(block: str) -> None:
    copy = "ann, it's your move. You could take 2 green or 2 black, or buy 1-23."
    assert reply_text(f"glas gwyrdd a du diolch\n\n{block}\n\n{copy}").startswith("glas")
    assert "take 2 green" not in reply_text(f"glas gwyrdd a du diolch\n\n{block}\n\n{copy}")


def test_a_lone_line_naming_the_referee_is_not_a_copy() -> None:
    assert move_of("To: Splendor referee\ntake red green blue") == ["take red green blue"]
    assert move_of("Dear Splendor referee:\ntake red green blue") == ["take red green blue"]


def test_a_move_word_with_a_typo_is_told_why_it_was_not_read() -> None:
    reading = read_reply("Hi!\ntake bleu vert rouge")
    assert reading.move == []
    near = reading.near_miss()
    assert near is not None and ENGLISH.say(near) == (
        "'take bleu vert rouge' was not read as a move: 'bleu' is not a colour after 'take': "
        "use white, blue, green, red, black, gold, their stones (diamond, sapphire, emerald, "
        "ruby, onyx) or letters w u g r k *"
    )


def test_a_signature_after_the_delimiter_is_never_read() -> None:
    text = "reserve 2-07\n\n-- \nAlice Jones\nTake the 9:15 to Cardiff\nBuy my book: 2 for 1\n"
    assert move_of(text) == ["reserve 2-07"]


@pytest.mark.parametrize(
    "later",
    [
        "Take care!",
        "Take care, see you on Tuesday",
        "Buy me a coffee at the next meetup",
        "Get well soon, Bob",
        "Pass my regards to everyone",
        "Buy 2 get 1 free at our shop this week",
        "Return to sender",
        "Get 2 more friends for the next one!",
        "Take 5 minutes to think about it",
    ],
)
def test_a_later_paragraph_that_is_not_part_of_the_move_is_passed_over(later: str) -> None:
    reading = read_reply(f"take red green blue\n\n{later}\n")
    assert reading.move == ["take red green blue"]
    assert later in reading.passed


def test_chit_chat_that_starts_with_a_move_word_is_passed_over_in_the_moves_paragraph() -> None:
    assert move_of("Take care everyone!\ntake red green blue\nThanks") == ["take red green blue"]


@pytest.mark.parametrize("text", ["take green red black?", "buy 1-23 ?", "*take 2 green?*"])
def test_a_move_line_that_asks_is_no_move_line_but_a_question_asked_back(text: str) -> None:
    reading = read_reply(reply_text(text))
    assert reading.move == []
    assert reading.sentences.request is not None and not reading.sentences.sure


def test_a_later_paragraph_that_completes_the_move_joins_it() -> None:
    assert move_of("take 2 red\n\nreturn white\n\nnoble N4") == [
        "take 2 red",
        "return white",
        "noble N4",
    ]


@pytest.mark.parametrize(
    "text",
    ["take red green blue\n\nbuy 1-12", "take 2 red\nbuy 1-01", "buy 1-12\n\nreserve deck 3"],
)
def test_two_moves_are_both_read_so_that_the_reply_is_refused(text: str) -> None:
    move = move_of(text)
    assert len(move) == 2
    with pytest.raises(ValueError, match="one move at a time"):
        parse_request("\n".join(move))


@pytest.mark.parametrize(
    "written",
    [
        "\ufefftake red green blue",
        "take\u00a0red\u00a0green\u00a0blue",
        "take red\u200b green\u200b blue",
        "\u201ctake red green blue\u201d",
        "\u2018take red green blue\u2019",
        '"take red green blue"',
        "\u201etake red green blue\u201c",
        "\u00abtake red green blue\u00bb",
        "*take red green blue*",
        "\u2060take\u202fred green blue\u00a0",
    ],
)
def test_invisible_characters_no_break_spaces_and_smart_quotes_are_ignored(written: str) -> None:
    move = move_of(f"{written}\n\nSent from my iPhone")
    assert len(move) == 1
    assert parse_request(move[0]).gems == (0, 1, 1, 1, 0, 0)


def test_a_json_move_is_read_like_the_notation() -> None:
    one_line = '{"type": "take", "gems": {"red": 1, "green": 1, "blue": 1}}'
    assert move_of(f"{one_line}\n\nGet Outlook for Android") == [one_line]
    pretty = '{\n  "type": "buy",\n  "card": "1-12",\n  "pay": {"red": 2}\n}'
    (move,) = move_of(f"Here it is:\n{pretty}\n\nCheers")
    assert parse_request(move).card == "1-12"
    curly = "{\u201ctype\u201d: \u201creserve\u201d, \u201cdeck\u201d: 3}"
    (move,) = move_of(curly)
    assert parse_request(move).deck == 3


def test_requests_are_read_when_there_is_no_move() -> None:
    reading = read_reply("Board\n\nSent from my iPhone")
    assert reading.move == [] and reading.requests == ["board"]
    reading = read_reply("Hello!\nmoves please\nhelp")
    assert reading.requests == ["help"]
    assert read_reply("take 2 red\nhelp").requests == []
