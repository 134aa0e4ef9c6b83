"""Finding the move in a sentence (referee.sentences): verb first or verb last, politeness
and all; sure only when every word is placed and the reading is one; never a move from a
sentence that says not or leaves a choice; grammar is data (a made-up language reads
without a line of code)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine import GameState
from referee.engine.cards import tokens
from referee.notation import MoveRequest, as_move, format_move
from referee.sentences import read_move, sentences_of
from referee.wording.vocabulary import languages_in, locale_folder
from tests.positions import new_game


def T(**counts: int) -> tuple[int, int, int, int, int, int]:  # noqa: N802 (as tests/ write it)
    return tokens(**counts)


def read(text: str) -> tuple[MoveRequest | None, bool]:
    found = read_move(text)
    return found.request, found.sure


@pytest.mark.parametrize(
    ("text", "action", "gems", "card", "deck"),
    [
        ("Hi all, I'll take a white, a blue and a green, please.", "take", T(white=1, blue=1,
                                                                              green=1), None, None),
        ("I'm taking 2 green thanks", "take", T(green=2), None, None),
        ("I would like to reserve the level 2 card 2-05", "reserve", None, "2-05", None),
        ("Reserve the top card of the level 3 deck pls", "reserve", None, None, 3),
        ("I'll take 3: white, red, black", "take", T(white=1, red=1, black=1), None, None),
        ("I'd like to reserve card 3-13, and take one gold token.", "reserve", None, "3-13", None),
        ("Buying 1-23 with one white, one blue and the gold", "buy", None, "1-23", None),
    ],
)  # fmt: skip
def test_a_sentence_as_people_write_it_reads_as_its_move_and_is_sure(
    text: str, action: str, gems: object, card: str | None, deck: int | None
) -> None:
    request, sure = read(text)
    assert request is not None and sure, text
    assert (request.action, request.gems, request.card, request.deck) == (action, gems, card, deck)


def test_the_payment_said_after_with_is_the_payment() -> None:
    request, _ = read("Buy 1-23 with 1 white, 1 blue and 1 gold.")
    assert request is not None and request.pay == T(white=1, blue=1, gold=1)


def test_a_return_said_in_a_sentence_of_its_own_joins_the_move() -> None:
    request, sure = read("I'll take white, blue and black. Then I'll give back two greens.")
    assert request is not None and sure
    assert request.gems == T(white=1, blue=1, black=1) and request.returned == T(green=2)


def test_give_back_and_put_back_are_a_return_wherever_back_stands() -> None:
    said = ("take red blue white, put 2 greens back", "take red blue white, give back 2 green")
    for text in said:
        request, _ = read(text)
        assert request is not None and request.returned == T(green=2), text


def test_a_list_of_colours_alone_is_a_take_never_sure() -> None:
    for text in ("Blue, green and red for me please.", "Double black!", "2x green"):
        request, sure = read(text)
        assert request is not None and request.action == "take" and not sure, text


def test_words_the_reader_does_not_know_beside_a_move_make_it_unsure() -> None:
    found = read_move("Howdy partner, I fancy a white, a blue and a green")
    assert found.request is not None and not found.sure
    assert found.unplaced == ("howdy", "partner", "fancy")


def test_a_sentence_naming_colours_beside_the_move_makes_it_unsure() -> None:
    # the second sentence may give back in words the reader does not know
    request, sure = read("Take green, red and black; I'll chuck out a white and a black.")
    assert request is not None and not sure


@pytest.mark.parametrize(
    "text",
    [
        "I won't take red, green and blue",
        "I'm not taking 2 green",
        "Take red or blue",
        "Maybe reserve 3-12",
        "Never buy 1-23",
    ],
)
def test_a_sentence_that_says_not_or_leaves_a_choice_reads_as_no_move(text: str) -> None:
    found = read_move(text)
    assert found.request is None and found.trouble is not None
    assert found.trouble.code == "notation.not_sure"


@pytest.mark.parametrize(
    "text", ["Good luck everyone!", "Well played Bo", "Sorry I'm late, I'll reply tonight"]
)
def test_chat_reads_as_no_move(text: str) -> None:
    found = read_move(text)
    assert found.request is None and found.trouble is None and not found.moving


def test_two_moves_are_refused_not_chosen_between() -> None:
    found = read_move("I'll take 2 green. Actually, I'll reserve 3-12.")
    assert found.request is None and found.trouble is not None


def test_sentences_end_at_stops_lines_and_dandas_not_inside_a_card_id() -> None:
    assert sentences_of("Take 1-23. Thanks!\nbuy 2-05।ok") == [
        "Take 1-23", "Thanks", "buy 2-05", "ok"
    ]  # fmt: skip


WORDS = st.sampled_from(
    ["take", "reserve", "buy", "return", "give", "back", "put", "red", "green", "blue", "white",
     "black", "gold", "2", "two", "a", "the", "please", "not", "or", "maybe", "1-23", "deck",
     "level", "I'll", "and", "hello", "frobnicate", "zork"]
)  # fmt: skip


@given(st.lists(WORDS, max_size=12))
def test_a_sure_reading_never_has_a_word_it_could_not_place_nor_a_not_or_a_choice(
    words: list[str],
) -> None:
    found = read_move(" ".join(words))
    if found.sure:
        assert found.request is not None
        assert not {"frobnicate", "zork", "not", "or", "maybe"} & set(words)


# -- grammar is data --------------------------------------------------------------------------

#: A made-up language, verb last, with its own pronoun, polite word, negation and ending:
#: "mi ruĝo blua verdo tomas, plis" is "I take red, blue and green, please".
MADE_UP = """
[moves]
take = ["tomu", "tomas"]
return = ["redu", "redas"]
[colours]
white = ["blanko"]
blue = ["blua"]
green = ["verdo"]
red = ["ruĝo"]
black = ["nigro"]
gold = ["oro"]
[numbers]
2 = ["du"]
[grammar]
order = "verb last"
pronouns = ["mi"]
polite = ["plis"]
negations = ["ne"]
endings = [["jn", ""]]
"""


@pytest.fixture
def made_up(tmp_path: Path) -> Iterator[Path]:
    shutil.copytree(locale_folder() / "en", tmp_path / "en")
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx" / "words.toml").write_text(MADE_UP, encoding="utf-8")
    with languages_in(tmp_path):
        yield tmp_path


def test_a_language_added_as_data_is_read_verb_last_with_its_grammar(made_up: Path) -> None:
    request, sure = read("mi ruĝo blua verdo tomas, plis")
    assert request is not None and sure and request.gems == T(red=1, blue=1, green=1)
    request, sure = read("mi du verdojn tomas")  # with its ending
    assert request is not None and sure and request.gems == T(green=2)
    request, _ = read("mi nigro blanko blua tomas. du verdo redas")
    assert request is not None and request.returned == T(green=2)
    assert read_move("mi ne tomas ruĝo blua verdo").request is None


def test_a_question_is_never_sure() -> None:
    for text in ("Could I reserve 3-01 please?", "Should I take 2 green?"):
        request, sure = read(text)
        assert request is not None and not sure, text


def test_the_sentences_docs_languages_md_shows_read_as_it_says() -> None:
    text = (Path(__file__).parents[1] / "docs" / "languages.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| [^|]+ \| (.+?) \| `(.+?)` \|$", text, re.MULTILINE)
    rows = [(said, move) for said, move in rows if not said.startswith("`")]
    assert len(rows) >= 9
    for said, move in rows:
        found = read_move(said)
        assert found.request is not None and found.sure, said
        read = format_move(as_move(board_of(), found.request))
        assert read == move or read.startswith(f"{move} pay "), said  # (a buy: the usual pay)


def board_of() -> GameState:
    """A board where every move the docs show may be written (it need not be legal)."""
    return new_game(2, seed=1)


def test_a_doubt_in_a_clause_of_its_own_leaves_the_move_to_be_asked_about() -> None:
    for text in ("Take red, green and blue, if nobody minds", "Mi prenus blankan, ruĝan kaj "
                 "nigran, se tio eblas."):  # fmt: skip
        request, sure = read(text)
        assert request is not None and not sure, text
    for text in ("Reserve 3-12, or maybe not", "Take white, blue and green - no, 2 green",
                 "take 3-12, not 3-13"):  # fmt: skip
        assert read_move(text).request is None, text


@pytest.mark.parametrize(
    "text",
    [
        "Take red green blue. Just kidding!",  # taken back in a sentence after it
        "Take red green blue. Actually no.",
        "I concede that you are right",  # a resign read from a sentence is asked about
        "I'll pass on that",
        "You should take red green blue",  # another player's move, or advice
        "They'll take red green blue for sure",
        "Ti'n cymryd dau goch",
        "Mi prenis du ruĝajn",  # a move told of, made already or that might be
        "Ég var búinn að taka tvo rauða",
        "I could take red green blue",
        "Can I take red green blue",  # a question without its mark
        "Má ég taka tvo græna",
        "ও লাল নিল, আমি সবুজ নিচ্ছি",  # (নিল: he took, not blue)
        "Take red, just red",  # two of it, or one said again?
    ],
)
def test_what_a_sentence_tells_rather_than_makes_is_never_sure(text: str) -> None:
    assert not read_move(text).sure, text


@pytest.mark.parametrize(
    "text",
    [
        "Ég kaupi 1-05 án gulls",  # án (without) is no English "an" counting one
        "২-০৫ রিজার্ভ করবো না, দেখে নিচ্ছি",  # a "না" before a comma is no "না দেখে" (blind)
    ],
)
def test_a_not_is_never_taken_for_another_word(text: str) -> None:
    found = read_move(text)
    assert found.request is None or not found.sure, text


def test_two_of_one_colour_and_one_of_another_is_read_as_said() -> None:
    request, _ = read("I'll take two reds and one green")
    assert request is not None and request.gems == T(red=2, green=1)
    request, _ = read("return 2 red and 1 gold, take white blue black")
    assert request is not None and request.returned == T(red=2, gold=1)
