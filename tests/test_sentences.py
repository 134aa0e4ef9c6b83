"""Finding the move in a sentence (referee.sentences): verb first or verb last, politeness
and all; sure only when every word is placed and the reading is one; never a move from a
sentence that says not or leaves a choice; grammar is data (a made-up language reads
without a line of code)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine import Buy, GameState
from referee.engine.cards import tokens
from referee.notation import MoveRequest, as_move, format_move, resolve
from referee.sentence_text import as_read
from referee.sentences import read_move, sentences_of
from referee.wording.vocabulary import languages_in, locale_folder
from tests.positions import holding, new_game


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
    for text in ("Reserve 3-12, or maybe not", "take 3-12, not 3-13"):
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
        "I needed to buy 2-14.",  # (what was wanted)
        "Take red, blue and green. Bob discards white, I think.",
    ],
)
def test_what_a_sentence_tells_rather_than_makes_is_never_sure(text: str) -> None:
    assert not read_move(text).sure, text


@pytest.mark.parametrize(
    "text",
    [
        "Ég kaupi 1-05 án gulls",  # án (without) is no English "an" counting one
        "২-০৫ রিজার্ভ করবো না, দেখে নিচ্ছি",  # a "না" before a comma is no "না দেখে" (blind)
        "২-১৪ কিনতে পারমু না।",  # (I can't buy 2-14: no away phrase swallows its "না")
        "দুটো নীল নিতে পারমু না।",
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


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        ("tkae blue, gren and black", T(blue=1, green=1, black=1)),  # swapped, left out
        ("নীল, সবুজ আর কলো নিচ্ছি", T(blue=1, green=1, black=1)),  # a vowel sign left out
    ],
)
def test_a_word_a_letter_away_from_a_move_word_is_read_as_it_never_sure(
    text: str, gems: tuple[int, ...]
) -> None:
    request, sure = read(text)
    assert request is not None and request.gems == gems and not sure


def test_a_word_that_is_a_word_of_the_language_is_no_typo() -> None:
    request, sure = read("gonna reserve 3-12 and grab the gold while I'm at it")
    assert request is not None and request.card == "3-12" and sure  # "while", not "white"


@pytest.mark.parametrize(
    ("text", "pay"),
    [
        ("I'll buy 1-36 paying white, blue, green and the gold instead of red",
         T(white=1, blue=1, green=1, gold=1)),
        ("Mi aĉetas 1-36, pagante per blanka, blua, verda kaj la ora anstataŭ ruĝa",
         T(white=1, blue=1, green=1, gold=1)),
        ("1-36 কিনছি — ১টা সাদা, ১টা নীল, ১টা সবুজ আর লালের বদলে ১টা সোনা দিয়ে",
         T(white=1, blue=1, green=1, gold=1)),
    ],
)  # fmt: skip
def test_what_instead_of_puts_aside_is_left_out_and_the_move_asked_about(
    text: str, pay: tuple[int, ...]
) -> None:
    request, sure = read(text)
    assert request is not None and request.card == "1-36" and request.pay == pay and not sure


def test_instead_of_another_move_leaves_that_move_out() -> None:
    request, sure = read("take red, blue and green instead of reserving 3-12")
    assert request is not None and request.gems == T(red=1, blue=1, green=1) and not sure
    request, _ = read("৩-১২ রিজার্ভ করার বদলে লাল, নীল, সবুজ নিচ্ছি")
    assert request is not None and request.gems == T(red=1, blue=1, green=1)


@pytest.mark.parametrize(
    "text",
    [
        "I'll buy card 23 on level 1",
        "Dw i am brynu cerdyn 23 ar lefel 1",
        "Ég kaupi spil 23 á stigi 1",
        "Mi aĉetos la karton 23 de nivelo 1",
        "লেভেল ১-এর ২৩ নম্বর কার্ডটা কিনব",
    ],
)
def test_a_card_said_by_its_number_and_level_is_that_card_asked_about(text: str) -> None:
    request, sure = read(text)
    assert request is not None and request.card == "1-23" and not sure


def test_a_small_number_beside_a_level_is_no_card() -> None:
    request, _ = read("I'll take 2 green from level 1")
    assert request is None or request.card is None


@pytest.mark.parametrize(
    ("text", "bonus", "held"),
    [
        ("Gonna buy the black card I've been hanging onto in my hand.", 4, True),
        ("I'll buy the black card", 4, False),
        ("Reit, mi bryna i'r cerdyn du sy'n fy llaw.", 4, True),
        ("Jæja, kaupi svarta spilið sem ég er með á hendi.", 4, True),
        ("Mi aĉetos la nigran karton en mia mano.", 4, True),
        ("Can I buy the card I reserved?", None, True),
        ("Dw i'n prynu'r cerdyn wnes i ei gadw.", None, True),
        ("Loksins kaupi ég spilið sem ég tók frá!", None, True),
        ("Fine mi aĉetas la karton, kiun mi rezervis!", None, True),
        ("অবশেষে রিজার্ভ করা কার্ডটা কিনে ফেললাম!", None, True),
    ],
)
def test_a_card_named_by_its_colour_or_as_the_one_held_is_asked_about(
    text: str, bonus: int | None, held: bool
) -> None:
    request, sure = read(text)
    assert request is not None and request.action == "buy" and request.card is None
    assert (request.bonus, request.held) == (bonus, held) and not sure


@pytest.mark.parametrize(
    ("text", "action", "described"),
    [
        ("Reserve the red level 3 card", "reserve", {"bonus": 3, "level": 3}),
        ("I'll reserve the white two-pointer that costs 5 red.", "reserve",
         {"bonus": 0, "points": 2, "cost": ((3, 5),)}),
        ("I'll buy the green tier-1 card", "buy", {"bonus": 2, "level": 1}),
        ("Cadw'r cerdyn gwyn tri phwynt o'r lefel uchaf.", "reserve",
         {"bonus": 0, "points": 3, "level": 3}),
        ("Dw i am gadw'r cerdyn glas sy'n werth pwynt", "reserve", {"bonus": 1, "points": 1}),
        ("Tek frá græna 5 stiga spilið í efstu röðinni.", "reserve",
         {"bonus": 2, "points": 5, "level": 3}),
        ("ég kaupi græna spilið á fyrsta stigi, það sem kostar 2 hvít og 1 blátt.", "buy",
         {"bonus": 2, "level": 1, "cost": ((0, 2), (1, 1))}),
        ("Mi aĉetas la verdan karton de la unua nivelo.", "buy", {"bonus": 2, "level": 1}),
        ("Mi rezervu la blankan karton de nivelo du, tiun kiu kostas kvin ruĝajn.", "reserve",
         {"bonus": 0, "level": 2, "cost": ((3, 5),)}),
        ("তিন নম্বর সারির সবুজ ৫ পয়েন্টের কার্ডটা রিজার্ভ করছি, সাথে একটা সোনা নিচ্ছি।", "reserve",
         {"bonus": 2, "level": 3, "points": 5}),
        ("লেভেল ২ এর সাদা কার্ডটা, যেটার দাম ১ সবুজ 4 লাল ২ কালো, ওটা রিজার্ভ করছি।", "reserve",
         {"bonus": 0, "level": 2, "cost": ((2, 1), (3, 4), (4, 2))}),
        ("সবচেয়ে উপরের লেভেলের লাল কার্ডটা রিজার্ভ করছি", "reserve", {"bonus": 3, "level": 3}),
    ],
)  # fmt: skip
def test_a_card_described_by_colour_level_points_or_cost_is_that_card_asked_about(
    text: str, action: str, described: dict[str, object]
) -> None:
    request, sure = read(text)
    assert request is not None and request.action == action and request.card is None
    assert request.deck is None  # (a colour said is never a deck's reserve)
    said = {k: getattr(request, k) for k in ("bonus", "level", "points", "cost")}
    assert said == {"bonus": None, "level": None, "points": None, "cost": ()} | described
    assert not sure


@pytest.mark.parametrize(
    "text",
    [
        "Gad i mi gadw 2-28, yr un du 2 bwynt sydd angen pedwar gwyrdd.",
        "Ég ætla að taka frá 2-28, svarta 2 stiga spilið sem kostar fjögur græn.",
    ],
)
def test_a_card_id_with_a_description_that_fits_it_is_that_card(text: str) -> None:
    request, _ = read(text)
    assert request is not None and request.card == "2-28"


@pytest.mark.parametrize(
    "text", ["reserve 2-28 from level 1", "reserve 2-28, the red one", "buy 2-28 worth 5 points"]
)
def test_a_card_id_with_a_description_that_does_not_fit_it_is_refused(text: str) -> None:
    found = read_move(text)
    assert found.request is None and found.trouble is not None


@pytest.mark.parametrize(
    "text",
    [
        "Was going to take two greens but I've changed my mind - I'll reserve 1-35 instead.",
        "Ro'n i'n mynd i gymryd dau wyrdd ond dw i wedi newid fy meddwl - mi gadwa i 1-35 yn "
        "lle hynny.",
        "Ætlaði að taka tvö græn en hætti við - tek frekar frá 1-35.",
    ],
)
def test_the_move_said_instead_of_an_earlier_one_is_the_one_asked_about(text: str) -> None:
    request, sure = read(text)
    assert request is not None and request.action == "reserve" and request.card == "1-35"
    assert not sure


@pytest.mark.parametrize(
    ("text", "deck"),
    [("Ég ætla að taka frá blint úr fyrsta bunkanum.", 1), ("reserve from the second deck", 2)],
)
def test_a_deck_named_by_its_ordinal_is_that_deck(text: str, deck: int) -> None:
    request, _ = read(text)
    assert request is not None and request.action == "reserve" and request.deck == deck


def test_a_top_deck_without_a_level_is_no_deck() -> None:
    request, _ = read("reserve from the top deck")
    assert request is None or request.deck is None


def test_a_count_joined_to_w_or_u_after_a_move_word_is_that_colour() -> None:
    request, _ = read("take u r k, ret 2w")
    assert request is not None and request.returned == T(white=2)
    assert as_read("back in 2w")[0] == "back in 2w"  # (two weeks: no move word before it)


@pytest.mark.parametrize(
    "text",
    ["I'll reserve the first card in the top row", "reserve the second card of the third row"],
)
def test_an_ordinal_beside_a_row_is_a_face_up_card_not_a_deck(text: str) -> None:
    request, _ = read(text)
    assert request is None or request.deck is None


def test_colours_alone_before_so_are_no_reason_for_the_move_after_it() -> None:
    request, _ = read("White, blue, black - so next turn I buy 1-23 with 2 white")
    assert request is None or request.action != "buy"  # (the take, then its purpose)


def test_a_deck_of_a_row_named_by_its_ordinal_is_that_deck() -> None:
    request, _ = read("reserve blind from the second row deck")
    assert request is not None and request.deck == 2


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        ("ami ekta sada, ekta nil ar ekta lal nibo", T(white=1, blue=1, red=1)),
        ("sada, sobuj, lal nilam", T(white=1, green=1, red=1)),
    ],
)
def test_romanised_bengali_is_read(text: str, gems: tuple[int, ...]) -> None:
    request, _ = read(text)
    assert request is not None and request.action == "take" and request.gems == gems


@pytest.mark.parametrize(
    "text",
    [
        "Mi aĉetas la verdan karton de nivelo 1, la oro anstataŭ blanka.",
        "Dw i'n prynu 1-23. Bydd yr aur yn cymryd lle'r ail docyn gwyn.",
        "buying the green one on level 1, gold covers the white I'm missing",  # (one sentence)
        "Prynu'r cerdyn gwyrdd ar lefel 1, aur am y gwyn.",
    ],
)
def test_tokens_with_gold_beside_a_buy_say_the_payment_uses_gold_asked_about(text: str) -> None:
    """The tokens may be the payment whole or what the gold stands in for: the payment is
    the one that uses the gold (written out when asked), not the tokens as said."""
    request, sure = read(text)
    assert request is not None and request.action == "buy"
    assert request.card == "1-23" or (request.bonus, request.level) == (2, 1)
    assert request.pay is None and request.gold_paying is not None and not sure


def test_the_gold_said_of_a_payment_chooses_the_payment_that_uses_it() -> None:
    """She holds a red, so the usual payment of her reserved 1-36 spends it; said that the
    gold covers the red, the payment is the gold's."""
    state = holding(
        new_game(), tokens_=T(white=1, blue=1, green=1, red=1, gold=1), reserved=[("1-36", False)]
    )
    usual = resolve(state, MoveRequest("buy", card="1-36"))
    request, _ = read("buying the card I reserved, the gold covers the red")
    assert request is not None
    assert isinstance(usual, Buy) and usual.pay == T(white=1, blue=1, green=1, red=1)
    assert resolve(state, request) == Buy("1-36", T(white=1, blue=1, green=1, gold=1))


def test_reserve_and_buy_said_in_that_order_stay_two_moves() -> None:
    assert read("reserve and buy")[0] is None


@pytest.mark.parametrize(
    ("text", "deck"),
    [
        ("Taking a blind one off the level 3 deck (face down obviously).", 3),
        ("Tek frá eitt spil blint úr bunka 2 takk.", 2),
        ("reserve the top card from deck one", 1),
    ],
)
def test_one_card_from_a_deck_is_a_reserve_of_that_deck(text: str, deck: int) -> None:
    request, _ = read(text)
    assert request is not None and request.action == "reserve" and request.deck == deck


def test_a_count_of_cards_other_than_one_is_no_level() -> None:
    assert read("reserve 2 cards from deck 1")[0] is None


@pytest.mark.parametrize(
    "text", ["নীল, সবুজ, লাল — এই তিনটা নিলাম", "take blue, green, red: those three"]
)
def test_a_count_after_a_list_that_counts_it_is_left_out(text: str) -> None:
    request, _ = read(text)
    assert request is not None and request.gems == T(blue=1, green=1, red=1)


def test_one_each_after_a_list_pays_one_of_each() -> None:
    request, _ = read("1-36 কিনছি: সাদা, নীল, সবুজ, লাল একটা করে দিয়ে।")
    assert request is not None and request.pay == T(white=1, blue=1, green=1, red=1)


def test_nothing_to_give_back_is_no_move_of_its_own() -> None:
    text = "Na i reservio 2-07. Fydd gen i 10 wedyn efo'r aur, felly dim byd i'w roi'n ôl."
    request, _ = read(text)
    assert request is not None and request.card == "2-07"
    text = "Ga i neilltuo 2-07 plis? Bydd gen i 10 tocyn wedyn felly does dim rhaid rhoi dim byd."
    request, _ = read(text)
    assert request is not None and request.card == "2-07"  # (its "does" says no move's not)


def test_an_accented_word_is_not_another_languages_unaccented_doubt() -> None:
    request, _ = read("Tek bláan, rauðan og svartan og skila tveimur grænum svo ég sé með 10.")
    assert request is not None and request.returned == T(green=2)  # "sé" is not Esperanto "se"


def test_colours_alone_then_a_return_that_says_its_own_colours_is_a_take() -> None:
    request, sure = read("hvítur grænn rauður / skila: svörtum og grænum")
    assert request is not None and request.gems == T(white=1, green=1, red=1) and not sure
    assert request.returned == T(black=1, green=1)
    request, _ = read("svörtum og grænum skila ég")  # a return alone is no take
    assert request is None or request.action != "take"


def test_what_a_bracket_says_follows_its_sentence_which_stays_whole() -> None:
    found = sentences_of("Tek frá 1-35 (svarta spilið, 0 stig). Takk")
    assert found == ["Tek frá 1-35", "svarta spilið, 0 stig", "Takk"]
    found = sentences_of("লেভেল ৩-এর লাল কার্ডটা (এটাই আমার পছন্দ) রিজার্ভ করছি, সাথে একটা সোনা।")
    assert found == ["লেভেল ৩-এর লাল কার্ডটা রিজার্ভ করছি, সাথে একটা সোনা", "এটাই আমার পছন্দ"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("লেভেল ২-এর সাদা কার্ডটা (২ পয়েন্ট) রিজার্ভ করছি।", (0, 2, 2, ())),
        ("Tek frá bláa spilið á fyrsta stigi (kostar 4 rauða).", (1, 1, None, ((3, 4),))),
        (
            "Mi rezervas la nigran sur la dua nivelo (tiun, kiu kostas 4 verdajn).",
            (4, 2, None, ((2, 4),)),
        ),
    ],
)
def test_a_bracket_that_says_what_a_card_costs_or_is_worth_stays_in_its_sentence(
    text: str, said: tuple[object, ...]
) -> None:
    request, _ = read(text)
    assert request is not None and request.action == "reserve"
    assert (request.bonus, request.level, request.points, request.cost) == said


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        ("Estas ankoraŭ kvar verdaj en la banko, do mi prenas du verdajn ĵetonojn.", T(green=2)),
        ("ব্যাংকে এখনো চারটে সবুজ আছে, তাই আমি দুটো সবুজ নিচ্ছি।", T(green=2)),
        ("There are four greens left, so I'll take two greens.", T(green=2)),
        ("Það eru fjórir grænir eftir þannig að ég tek tvo græna.", T(green=2)),  # (a phrase)
    ],
)
def test_the_reason_before_so_is_not_the_move(text: str, gems: tuple[int, ...]) -> None:
    request, sure = read(text)
    assert request is not None and request.gems == gems and not sure


@pytest.mark.parametrize(
    "text",
    [
        "Take 2 green. No wait, scratch that, I can afford the green card with my gold. "
        "Buy 1-23 instead please, NOT the two greens.",
        "Dau wyrdd. Na, arhoswch, dw i'n gallu fforddio'r cerdyn gwyrdd efo'r aur! Prynu 1-23 "
        "yn lle, NID y ddau wyrdd.",
        "Tvo græna. Nei bíddu, ég hef efni á græna spilinu með gullinu! Kaupi 1-23 í staðinn, "
        "EKKI tvo græna.",
    ],
)
def test_a_move_taken_back_gives_way_to_the_one_after_asked_about(text: str) -> None:
    request, sure = read(text)
    assert request is not None and (request.action, request.card) == ("buy", "1-23")
    assert not sure


@pytest.mark.parametrize(
    ("text", "read_as"),
    [
        ("take red, blue and black instead, not green", T(blue=1, red=1, black=1)),
        ("take red, blue, black, not green", None),  # (no "instead": it says not of the move)
        ("take red, blue and green instead, not green", None),  # (it denies what it takes)
        ("Take 2 green. Buy 1-23, NOT the two greens.", None),  # (two moves, none taken back)
    ],
)
def test_a_clause_that_only_denies_beside_instead_is_left_out(
    text: str, read_as: tuple[int, ...] | None
) -> None:
    request, sure = read(text)
    assert (request.gems if request is not None else None) == read_as and not sure


def test_a_sentence_that_tells_of_a_move_gives_way_to_the_move_made() -> None:
    text = (
        "Bluan + ruĝan + nigran. Poste mi redonas unu blankan kaj unu nigran (jes, nigran, "
        "mi scias ke mi ĵus prenis ĝin)."
    )
    request, sure = read(text)
    assert request is not None and request.gems == T(blue=1, red=1, black=1)
    assert request.returned == T(white=1, black=1) and not sure


@pytest.mark.parametrize(
    "text",
    [
        "Tek frá 2-07. Þá er ég með akkúrat 10 með gullinu, þarf ekki að skila neinu.",
        "৩-১২ রিজার্ভ করছি। সোনাটা নিয়ে ঠিক ১০টা হবে, কিছু ফেরত দিতে হবে না।",
        "Reserve 2-07. That's 10 with the gold so I don't need to discard anything.",
    ],
)
def test_a_return_said_not_with_nothing_of_its_own_is_no_return(text: str) -> None:
    request, _ = read(text)
    assert request is not None and request.action == "reserve" and request.returned is None


@pytest.mark.parametrize(
    ("text", "reads"),
    [
        ("I'd like to reserve the white two-point card on the second level, the one which "
         "costs five red.", True),
        ("Mi volas aĉeti la karton, kiun mi rezervis.", True),
        ("Which should I take, red green blue", False),
        ("Kiun mi prenu: ruĝan, verdan, bluan", False),
    ],
)  # fmt: skip
def test_which_asks_only_first_in_a_sentence(text: str, reads: bool) -> None:
    request, _ = read(text)
    assert (request is not None) == reads


@pytest.mark.parametrize(
    ("text", "bonus"),
    [
        ("Bo reckons I should be going for the red 3-pointer on the top row. Nice try, Bo. "
         "No, I'm reserving the green 5 point card (the 7 blue 3 green one).", 2),
        ("Mae Bo yn dweud y dylwn i gadw'r cerdyn coch 3 phwynt ar lefel 3. Na, dw i'n cadw'r "
         "un gwyrdd 5 pwynt (7 glas, 3 gwyrdd).", 2),
    ],
)  # fmt: skip
def test_a_move_said_or_asked_of_before_the_one_made_is_left_out(text: str, bonus: int) -> None:
    request, sure = read(text)
    assert request is not None and request.action == "reserve" and request.bonus == bonus
    assert not sure


def test_a_no_of_its_own_after_the_move_still_takes_it_back() -> None:
    assert read("Take red, green and blue, no.")[0] is None


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("কেনার মতো কিছু নেই রে। ওই সাদা কার্ডটা, যেটায় ৫টা লাল লাগে, ওটা রিজার্ভ করে রাখছি।",
         "2-03"),  # the cost before its word; 3-01 costs 5 red and more
        ("লেভেল ১-এর কালো কার্ডটা কিনছি — যেটার দাম সাদা, নীল, সবুজ, লাল একটা করে।", "1-36"),
        ("Buying the green card on level 1 - the one that costs 2 white and a blue.", "1-23"),
        ("Hoffwn gadw'r cerdyn du 5 pwynt ar y lefel uchaf, yr un sy'n costio 7 coch a 3 du.",
         "3-20"),
    ],
)  # fmt: skip
def test_a_card_described_by_its_cost_is_the_one_that_costs_just_that(text: str, card: str) -> None:
    request, _ = read(text)
    assert request is not None
    state = holding(
        new_game(), tokens_=T(white=1, blue=1, green=1, gold=1), reserved=[("1-36", False)]
    )
    board = ((None,) * 4, ("2-03", None, None, None), ("3-01", "3-20", None, None))
    board = (("1-23", "1-35", None, None), *board[1:])
    state = replace(state, board=board)
    assert getattr(resolve(state, request), "card", None) == card


def test_a_payment_in_a_sentence_of_its_own_goes_with_a_buy_only() -> None:
    request, _ = read("আমি ১-২৩ কিনছি। পেমেন্ট: ২টো হোয়াইট + ১টা ব্লু।")
    assert request is not None and request.pay == T(white=2, blue=1)
    assert read("Take red blue green. Paying 2 white.")[0] is None


@pytest.mark.parametrize(
    "text",
    [
        "Dwi'n rhoi'r ffidil yn y to - dwi'n ildio.",
        "I'm going to concede this one, work has gone mad.",
    ],
)
def test_resigning_said_twice_or_of_this_game_is_resigning(text: str) -> None:
    request, _ = read(text)
    assert request is not None and request.action == "resign"


@pytest.mark.parametrize(
    ("text", "deck"),
    [
        ("Rezervas blinde la supran karton de la dua-nivela stako.", 2),
        ("লেভেল থ্রি-র ডেক থেকে উপরের কার্ডটা রিজার্ভ করছি।", 3),
    ],
)
def test_a_deck_level_joined_to_its_word_or_as_english_in_bengali(text: str, deck: int) -> None:
    request, _ = read(text)
    assert request is not None and request.deck == deck


@pytest.mark.parametrize(
    ("text", "described"),
    [
        ("So I can afford the green level 1 card. So yeah, I'll buy that one.", (2, 1)),
        ("Felly dw i'n gallu fforddio'r cerdyn gwyrdd ar lefel 1 (2 gwyn, 1 glas). Dw i am "
         "brynu hwnnw.", (2, 1)),
        ("Þannig að ég hef efni á græna spilinu á fyrsta stigi (2 hvítir, 1 blár). Ég kaupi það.",
         (2, 1)),
    ],
)  # fmt: skip
def test_that_one_is_the_card_described_just_before_asked_about(
    text: str, described: tuple[int, int]
) -> None:
    request, sure = read(text)
    assert request is not None and request.action == "buy"
    assert (request.bonus, request.level) == described and not sure


@pytest.mark.parametrize(
    "text",
    [
        "I love the red level 3 card. Buy it?",  # (a question)
        "The red one is nice. I'll buy that one.",  # (a colour alone says too little)
        "I love the red level 3 card. Never buying it.",  # (not)
    ],
)
def test_that_one_is_not_read_from_a_sentence_before_that_says_too_little(text: str) -> None:
    request, _ = read(text)
    assert request is None or request.bonus is None


@pytest.mark.parametrize(
    "text",
    [
        "Take red, green and blue, return 2 (white, black)",  # (two of one, or one of each?)
        "Reserve anything from level 1.",  # (vague)
        "Take 2 green and anything",
        "The green card on level 1, not the red one on level 2. Buy that one.",
        "Reserve 1-23. No idea what Bo is planning. Next turn I'll take 2 green.",
    ],
)
def test_what_a_careful_reader_would_not_be_sure_of_is_never_played(text: str) -> None:
    request, sure = read(text)
    assert request is None or not sure


@pytest.mark.parametrize(
    ("text", "action", "card"),
    [
        ("রিজার্ভ করছি ১-২০, বাই", "reserve", "1-20"),  # ("বাই" is bye, never a buy)
        ("Reserve 1-23. Still wondering which is better.", "reserve", "1-23"),
    ],
)
def test_a_goodbye_or_a_musing_after_the_move_never_changes_it(
    text: str, action: str, card: str
) -> None:
    request, _ = read(text)
    assert request is not None and (request.action, request.card) == (action, card)


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        ("Two greens, so I can buy 1-23 next turn.", None),  # (no reason: the move, unread)
        ("Two greens please, so I'll give back a red.", T(green=2)),
        (
            "There are two red left, so I'm taking white, blue and green.",
            T(white=1, blue=1, green=1),
        ),
        ("Rauðan og grænan, svo tek ég bláan líka.", T(blue=1, green=1, red=1)),  # "and then"
    ],
)
def test_a_reason_before_so_counts_the_colours_the_move_takes(
    text: str, gems: tuple[int, ...] | None
) -> None:
    request, _ = read(text)
    assert (request.gems if request is not None and request.action == "take" else None) == gems


def test_a_mark_of_a_brackets_place_written_in_a_reply_is_only_a_space() -> None:
    assert sentences_of("take red \x015\x01 green blue (and so on)") == [
        "take red  5  green blue", "and so on",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        (
            "Hoffwn gymryd dau docyn du o'r banc, gan fod pedwar ohonynt ar gael.",
            T(black=2),
        ),
        ("I'll take 2 green because there are four left.", T(green=2)),
        ("mi prenas du verdajn, ĉar restas kvar en la banko", T(green=2)),
        ("Ég tek tvo græna, af því að fjórir eru eftir.", T(green=2)),
        ("দুটো সবুজ নিচ্ছি, কারণ ব্যাংকে চারটে আছে।", T(green=2)),
    ],
)
def test_a_reason_given_after_because_is_not_the_move(text: str, gems: tuple[int, ...]) -> None:
    request, sure = read(text)
    assert request is not None and request.gems == gems and not sure


def test_a_reason_beside_a_move_said_not_leaves_it_said_not() -> None:
    request, _ = read("Du ruĝajn mi ne rajtas preni, ĉar estas nur tri en la banko.")
    assert read_move("Du ruĝajn mi ne rajtas preni, ĉar estas nur tri.").trouble is not None
    assert request is None


@pytest.mark.parametrize(
    ("text", "points", "level"),
    [
        ("Mi rezervas la verdan kvinpoentan karton.", 5, None),
        ("Mi rezervas la ruĝan kvarpoentan karton el la tria nivelo.", 4, 3),
        ("Mi rezervas la nigran dupoentan sur la dua nivelo.", 2, 2),
    ],
)
def test_a_count_written_as_one_word_with_points_is_read(
    text: str, points: int, level: int | None
) -> None:
    request, sure = read(text)
    assert request is not None and (request.points, request.level) == (points, level)
    assert not sure


def test_a_deck_of_a_level_written_as_one_word_is_read() -> None:
    request, _ = read("Mi rezervas la supran karton de la unuanivela kartaro.")
    assert request is not None and request.action == "reserve"


@pytest.mark.parametrize(
    "text",
    [
        "I'll buy the black card on level one, the one that costs one of each except black.",
        "Prynu'r cerdyn du ar lefel un, yr un sy'n costio un o bob lliw heblaw du.",
        "Kaupi svarta spilið á fyrsta stigi, það sem kostar einn af hverjum lit nema svörtum.",
        "Mi aĉetas la nigran karton, kiu kostas po unu el ĉiu koloro krom nigra.",
        "লেভেল ওয়ানের কালো কার্ডটা কিনব — যেটায় সাদা, নীল, সবুজ, লাল একটা করে লাগে।",
        "কালো ছাড়া সব রঙের একটা করে লাগে এমন কালো কার্ডটা কিনছি।",
    ],
)
def test_a_cost_of_one_of_each_colour_but_one_is_read(text: str) -> None:
    request, sure = read(text)
    assert request is not None and request.action == "buy" and request.bonus == 4
    assert sorted(request.cost) == [(0, 1), (1, 1), (2, 1), (3, 1)] and not sure


def test_a_word_with_an_accent_its_language_lacks_is_not_that_languages_word() -> None:
    """Icelandic "pásu" (pause) is not Esperanto's "pasu" (pass)."""
    assert read("settu mig á pásu")[0] is None
    request, _ = read("pasu")
    assert request is not None and request.action == "pass"


def test_a_sentence_telling_another_player_not_to_is_no_move() -> None:
    text = "I'm taking a sapphire, an emerald and a ruby. Bo, don't you dare nick the last blues!"
    request, sure = read(text)
    assert request is not None and request.gems == T(blue=1, green=1, red=1) and not sure
    assert read("Bo, don't you take the last blue!")[0] is None


def test_a_mistyped_move_word_is_read_only_beside_arguments_of_its_language() -> None:
    """Esperanto "afero" (matter) is a letter from a Bengali return word in Latin letters;
    beside Esperanto's "du" (two, and Welsh black) it is no move."""
    assert read("mi forestos du semajnojn pro familia afero")[0] is None
    request, _ = read("tkae 2 green")
    assert request is not None and request.gems == T(green=2)


def test_a_move_and_a_return_side_by_side_take_the_words_before_and_after_them() -> None:
    request, _ = read("সাদা সবুজ কালো নিলাম ফেরত ১টা সবুজ ১টা কালো")
    assert request is not None and request.gems == T(white=1, green=1, black=1)
    assert request.returned == T(green=1, black=1)


def test_what_the_writer_holds_beside_nothing_returned_is_no_move() -> None:
    text = (
        "Tek frá rauða fjögurra stiga spilið á efsta stigi. Þá er ég með nákvæmlega tíu "
        "tákn með gullinu og þarf ekki að skila neinu."
    )
    request, _ = read(text)
    assert request is not None and (request.action, request.points, request.level) == (
        "reserve", 4, 3,
    )  # fmt: skip


@pytest.mark.parametrize(
    "text",
    ["Buy the one I reserved", "Prynu'r un dwi 'di gadw plis", "prynu'r un wnes i gadw"],
)
def test_the_one_reserved_is_the_held_card_not_a_count(text: str) -> None:
    request, _ = read(text)
    assert request is not None and request.action == "buy" and request.held


def test_a_move_taken_back_by_the_sentence_after_it_gives_way_to_what_that_one_says() -> None:
    text = "Take 2 green. Actually no, scratch that, I'd rather spread out: white, green and black."
    request, sure = read(text)
    assert request is not None and request.gems == T(white=1, green=1, black=1) and not sure


@pytest.mark.parametrize(
    ("text", "gems", "returned"),
    [
        ("2k pls", T(black=2), None),
        ("2g, dankon", T(green=2), None),
        ("w/g/k ✔️", T(white=1, green=1, black=1), None),
        ("Tek g + r + k takk", T(green=1, red=1, black=1), None),
        ("+blank +verd +nigr, -2 verd", T(white=1, green=1, black=1), T(green=2)),
        ("+u +r +k / -w -g", T(blue=1, red=1, black=1), T(white=1, green=1)),
    ],
)
def test_shorthand_of_counts_letters_and_signs_is_read(
    text: str, gems: tuple[int, ...], returned: tuple[int, ...] | None
) -> None:
    request, _ = read(text)
    assert request is not None and request.gems == gems and request.returned == returned


@pytest.mark.parametrize("text", ["rsv L3 blind", "res deck3", "cadw: dec L3, ar ddall"])
def test_a_level_joined_to_its_number_is_read(text: str) -> None:
    request, _ = read(text)
    assert request is not None and (request.action, request.deck) == ("reserve", 3)


@pytest.mark.parametrize("text", ["w/b/r", "b/r/k নিলাম → ২g ফেরত", "tk w b g, ret 2g"])
def test_a_b_among_colour_letters_is_never_guessed(text: str) -> None:
    found = read_move(text)
    assert found.request is None and found.trouble is not None
    assert found.trouble.args[0] == "notation.b_is_ambiguous"


def test_a_lone_letter_is_no_colour() -> None:
    assert read("r u there?")[0] is None


def test_an_emoji_ends_a_sentence() -> None:
    assert sentences_of("ég segi ekki neitt 😄 Ég tek hvítan") == [
        "ég segi ekki neitt",
        "Ég tek hvítan",
    ]


def test_a_question_of_the_rules_beside_a_move_is_not_part_of_it() -> None:
    text = "Ég ætla að kaupa 1-23. Fer gullið þá aftur í bankann eftir að ég nota það?"
    request, _ = read(text)
    assert request is not None and (request.action, request.card) == ("buy", "1-23")


@pytest.mark.parametrize(
    "text",
    [
        "Take white blue green. Perhaps later, I'll reserve 2-28.",
        "Take white blue green. Maybe, Bo will buy 2-28.",
        "Take red blue green. Ignore my last mail, it said 2 red.",
    ],
)
def test_a_maybe_or_a_plan_after_a_move_takes_nothing_back(text: str) -> None:
    """Only a word that takes back ("scratch that": [grammar] withdrawing) withdraws the move
    before it; never a plan, a maybe, or what an old mail said."""
    request, _ = read(text)
    if request is not None:  # (the move before it, or nothing: never the plan)
        assert request.card is None and request.gems != T(red=2), request


@pytest.mark.parametrize(
    "text",
    ["Take 2 red, back in 2w.", "Take white green black, thx 4u", "Reserve deck 2 — I'm away 1w"],
)
def test_a_count_joined_to_w_or_u_is_no_colour(text: str) -> None:
    request, _ = read(text)
    assert request is not None
    white, blue = (request.gems or T())[:2]
    assert white <= 1 and blue <= 1, request  # ("2w": two weeks; "4u": for you)


def test_a_bracket_of_the_other_card_says_nothing_of_the_one_named() -> None:
    request, _ = read("Buy the blue 2-pointer (the other one costs 5 white 3 blue, too much).")
    assert request is None or request.cost == ()


def test_a_plain_word_before_a_dot_is_not_cut_short() -> None:
    assert sentences_of("Reserve from the top. 2 more turns and I win.") == [
        "Reserve from the top",
        "2 more turns and I win",
    ]
    assert sentences_of("rez. 2-28") == ["rez 2-28"]


def test_a_line_of_returns_below_a_line_of_takes_is_their_return() -> None:
    request, _ = read("+w +u +g\n-1 r")
    assert request is not None and request.gems == T(white=1, blue=1, green=1)
    assert request.returned == T(red=1)


def test_a_question_beside_a_move_leaves_it_to_be_asked_about() -> None:
    request, sure = read("Buy 1-23. Do I pay with 2 blue and 1 white?")
    assert request is not None and request.card == "1-23" and not sure


@pytest.mark.parametrize(
    ("text", "action", "gems", "returned", "card"),
    [
        ("take white red black - sorry, blue not white. So blue, red, black.",
         "take", T(blue=1, red=1, black=1), None, None),
        ("Take white, blue and green - no, 2 green", "take", T(green=2), None, None),
        ("Buy 1-35. Wait, no - that's three green. Make it 1-23 instead, sorry!",
         "buy", None, None, "1-23"),
        ("Taking blue, green and red, and putting back 2 black - sorry, I mean putting back"
         " 2 white, I want to keep the blacks.",
         "take", T(blue=1, green=1, red=1), T(white=2), None),
        ("Tek frá 3-13... nei afsakið, 3-12, græna fimm stiga spilið.",
         "reserve", None, None, "3-12"),
        ("Cadw'r cerdyn glas lefel 1 - o na, lefel 2 dwi'n feddwl, y 2-07.",
         "reserve", None, None, "2-07"),
        ("Mi rezervas 2-28... ne, atendu, mi volis diri 2-25. Do rezervu 2-25 bonvolu.",
         "reserve", None, None, "2-25"),
        ("সাদা, নীল, লাল নিচ্ছি — না না দাঁড়াও, নীল না, সবুজ। মানে সাদা, সবুজ আর লাল।",
         "take", T(white=1, green=1, red=1), None, None),
    ],
)  # fmt: skip
def test_a_move_put_right_after_a_clause_that_says_so_is_asked_as_put_right(
    text: str, action: str, gems: object, returned: object, card: str | None
) -> None:
    """A move, then "sorry", "wait, no", "nei afsakið", "o na", "না না দাঁড়াও" ([grammar]
    correcting, withdrawing or a "no" in a clause of its own), then a move, a return or a
    card: the move as put right, never played without asking."""
    request, sure = read(text)
    assert request is not None and not sure
    assert (request.action, request.gems, request.returned, request.card) == (
        action, gems, returned, card,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        ("Take white blue green. Sorry Bo, I know you wanted the blue!",
         T(white=1, blue=1, green=1)),
        ("Take white blue green - sorry, green.", "not a take of green alone"),
        ("Take 2 green. Actually no, scratch that, I'd rather spread out: white, green and black.",
         T(white=1, green=1, black=1)),
        ("Take white blue green, or maybe red black white.", None),
    ],
)  # fmt: skip
def test_what_follows_a_sorry_puts_a_move_right_only_when_it_says_a_move_whole(
    text: str, gems: object
) -> None:
    """A "sorry" to another player takes nothing back; one colour alone after it is part of
    a move, not a move (never read); a "maybe" leaves a choice, not a correction."""
    request, _ = read(text)
    found = request.gems if request is not None else None
    if isinstance(gems, str):
        assert found != T(green=1)
    else:
        assert found == gems


@pytest.mark.parametrize(
    ("text", "gems", "card"),
    [
        ("O bo llongyfarchiadau ar y babi!! am newyddion hyfryd, gobeithio bod pawb yn cysgu"
         " rywfaint (ha ha dim gobaith) a di, welais i'r lluniau o Tenerife ar Facebook, mae'n"
         " edrych yn ffab, dwi mor genfigennus, mae hi wedi bod yn bwrw glaw yma ers pythefnos"
         " heb stop a'r ci'n drewi fel hen hosan, beth bynnag dwi'n cymryd gwyn gwyrdd a coch"
         " tro 'ma a wedyn dwi'n mynd i neud paned, siaradwn yn fuan xx",
         T(white=1, green=1, red=1), None),
        ("Æðislegt að heyra með nýju íbúðina Cy, til hamingju, og já ég skil vel að þú sért"
         " þreyttur eftir flutningana og svo er jólaboðið hjá tengdó á laugardaginn þannig að"
         " það er engin hvíld í sjónmáli haha en allavega ég tek frá rauða fjögurra stiga"
         " spilið efst, 3-15, og Di ég sendi þér uppskriftina í kvöld ég lofa!!",
         None, "3-15"),
    ],
)  # fmt: skip
def test_a_move_in_a_long_run_of_chat_is_read_in_pieces_and_asked_about(
    text: str, gems: object, card: str | None
) -> None:
    """A sentence too long to read whole, or long and saying not whole, is read in pieces:
    clauses with a move word, or naming and with no word unknown, together; the others
    apart; an "anyway" ("beth bynnag", "allavega") begins a clause."""
    request, sure = read(text)
    assert request is not None and not sure
    assert (request.gems, request.card) == (gems, card)


def test_a_count_before_a_word_of_time_is_no_count_of_tokens() -> None:
    """("সাত দিন": seven days; "দিন", give, is no move word there.)"""
    assert read_move("এই সাত দিন আমাকে away ধরে রেখো প্লিজ।").request is None
    request, _ = read("Take 2 green, I'm off for 3 days after that")
    assert request is not None and request.gems == T(green=2)


def test_colours_alone_that_no_one_language_writes_with_their_words_are_no_take() -> None:
    assert read_move("verd i burtu i 3 daga, tharf ad fara austur.").request is None


@pytest.mark.parametrize(
    ("text", "gems", "returned"),
    [
        ("Blue, green, red I am taking; white and black I am giving back.",
         T(blue=1, green=1, red=1), T(white=1, black=1)),
        ("Bluan, ruĝan kaj nigran mi prenas; blankan kaj verdan mi redonas.",
         T(blue=1, red=1, black=1), T(white=1, green=1)),
        ("Take white blue red, two greens back", T(white=1, blue=1, red=1), T(green=2)),
        ("gwyn, gwyrdd, coch. 2 ddu yn ôl.", T(white=1, green=1, red=1), T(black=2)),
        ("gwyn, gwyrdd, coch, 2 ddu yn ôl", T(white=1, green=1, red=1), T(black=2)),
    ],
)  # fmt: skip
def test_a_return_said_colours_first_or_with_back_alone_is_the_return(
    text: str, gems: object, returned: object
) -> None:
    """The colours before a return's verb are what it returns ("white and black I am giving
    back"); "back" ([grammar] back_alone: "yn ôl", "ফেরত") right after colours, with no verb
    of return, is a return of them."""
    request, _ = read(text)
    assert request is not None and (request.gems, request.returned) == (gems, returned)


def test_back_alone_is_no_return_before_more_words_or_beside_its_verb() -> None:
    request, _ = read("Take 2 red, back in 2w")
    assert request is not None and request.returned is None
    request, _ = read("নীল, লাল, কালো নিয়ে ২টা সবুজ ফেরত দিচ্ছি।")
    assert request is not None and request.gems == T(blue=1, red=1, black=1)


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        ("prenas blankan rugxan kaj ngran", T(white=1, red=1, black=1)),  # eo, not is "græn"
        ("gwyn gwyrd a du diolch x", T(white=1, green=1, black=1)),  # a list of colours
    ],
)
def test_a_colour_mistyped_is_read_in_the_language_of_the_words_beside_it(
    text: str, gems: object
) -> None:
    request, sure = read(text)
    assert request is not None and request.gems == gems and not sure


def test_a_word_with_an_ending_after_a_hyphen_is_the_word() -> None:
    request, _ = read("Hæ, ég ætla að reserve-a 2-03, hvíta tveggja stiga kortið.")
    assert request is not None and (request.action, request.card) == ("reserve", "2-03")


def test_a_question_that_says_not_of_the_move_beside_it_is_a_question_of_the_rules() -> None:
    request, sure = read("Ég tek frá bláa spilið á stigi tvö (2-07). Fæ ég ekki gull með því?")
    assert request is not None and request.card == "2-07" and not sure
    assert read_move("Take 2 green. Or should I take 2 black?").request is None


@pytest.mark.parametrize(
    ("text", "level", "points"),
    [
        ("mi rezervas la nigran karton de la dua nivelo, tiun kun du poentoj", 2, 2),
        ("I'll reserve the blue card on level 1 that's worth a point", 1, 1),
        ("I'll reserve the white one worth 2", None, 2),
    ],
)
def test_a_count_beside_a_level_and_a_points_word_goes_with_the_one_it_stands_by(
    text: str, level: int | None, points: int
) -> None:
    request, _ = read(text)
    assert request is not None and (request.level, request.points) == (level, points)


def test_a_days_number_before_its_month_does_not_end_a_sentence() -> None:
    assert sentences_of("Ég get ekki sinnt leiknum fyrr en 20. desember. Takk") == [
        "Ég get ekki sinnt leiknum fyrr en 20 desember",
        "Takk",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "take 2 red, Bob has 2-03",
        "take white blue red, anyway Bob reserved 2-03",
        "take blue green black, since 1-05 costs too much",
        "Mi prenas blankan, bluan kaj ruĝan, ĉiuokaze Bob havas 1-05.",
        "সাদা নীল লাল নেব, ববের কাছে ১-০৫ আছে",
    ],
)
def test_a_card_named_in_chat_beside_a_take_of_tokens_never_makes_it_a_buy(text: str) -> None:
    """("take 1-23" alone, or "grab the green card, 1-23", is a buy of that card.)"""
    request, _ = read(text)
    assert request is None or request.action == "take", request


@pytest.mark.parametrize(
    "text",
    [
        "take red blue - sorry, green",
        "take white blue green. Sorry, wrong game!",
        "Cymera i wyn, glas a choch - o na, gwyrdd",
        "সাদা নীল লাল নেব — দুঃখিত, সবুজ",
    ],
)
def test_a_move_with_a_sorry_or_a_no_and_more_after_it_is_never_sure(text: str) -> None:
    request, sure = read(text)
    assert not sure, request


def test_a_take_of_one_card_and_its_colour_is_a_buy() -> None:
    request, _ = read("Let me grab the cheap green card, 1-23.")
    assert request is not None and (request.action, request.card) == ("buy", "1-23")


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        ('The rules say: "Take 2 gem tokens of one colour, only if that colour has at least 4'
         ' tokens in the bank". There are 4 green, so I take 2 green.', T(green=2)),
        ("Reglurnar: „tekið 2 gimsteina af sömu gerð (en spilarar mega aðeins gera þetta ef það"
         " eru að minnsta kosti 4 gimsteinar af þessari tegund í boði)“. Það eru 4 svartir í"
         " bankanum, þannig að ég tek 2 svarta.", T(black=2)),
        ('Bo wrote "take 2 red" but I am taking white blue green', T(white=1, blue=1, green=1)),
    ],
)  # fmt: skip
def test_a_quotation_beside_a_move_word_of_the_writers_own_is_not_the_move(
    text: str, gems: object
) -> None:
    """What a quotation says (the rules, another player) is not the writer's move, when the
    writer says a move of their own beside it; asked about."""
    request, sure = read(text)
    assert request is not None and request.gems == gems and not sure


def test_a_move_written_only_in_quotation_marks_is_the_move() -> None:
    request, _ = read('My move: "take white blue green"')
    assert request is not None and request.gems == T(white=1, blue=1, green=1)


def test_the_items_of_a_list_under_a_line_that_ends_in_a_colon_are_read_with_it() -> None:
    request, _ = read("Cymryd:\n1. glas\n2. coch\n3. du\nDim dychwelyd.")
    assert request is not None and request.gems == T(blue=1, red=1, black=1)


@pytest.mark.parametrize(
    "text",
    [
        "take 2 red. wait, I mean blue",
        "Take 1 red, 1 blue, 1 white. Wait, I mean 1 black not white.",
        "Tek tvo svarta. Afsakið, tvo hvíta meina ég... nei, bíddu, bara hvíta",
    ],
)
def test_a_correction_that_names_colours_but_no_whole_move_plays_nothing(text: str) -> None:
    """Neither the move taken back nor a guess at the one meant: the reply is refused."""
    request, _ = read(text)
    assert request is None, request


def test_an_apology_to_another_player_after_a_move_takes_nothing_back() -> None:
    request, _ = read("Buy 1-23. Sorry, I know you wanted the green one.")
    assert request is not None and request.card == "1-23"


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        ("I'll take:\n2. green", T(green=2)),
        ("নিচ্ছি:\n২. সবুজ", T(green=2)),
        ("Take:\n- white\n- blue\n- green", T(white=1, blue=1, green=1)),
    ],
)
def test_a_number_and_dot_at_a_line_start_is_a_count_unless_the_lines_are_numbered(
    text: str, gems: object
) -> None:
    request, _ = read(text)
    assert request is not None and request.gems == gems


@pytest.mark.parametrize(
    "text",
    [
        "Dwi am brynu'r cerdyn bach gwyrdd 'na ar y gwaelod, yr un sy'n costio dau wyn ac un glas.",
        "Fi'n mynd i brynu'r garden werdd 'na, 1-23.",
    ],
)
def test_a_word_written_short_after_an_apostrophe_is_chat_not_a_no(text: str) -> None:
    """Welsh "'na" (there, for "yna", `[grammar] elided`) is never "na" (not)."""
    found = read_move(text)
    assert found.request is not None and found.request.action == "buy", found.trouble


def test_a_no_written_whole_still_says_not() -> None:
    found = read_move("Prynu 1-23? Na, dim eto.")
    assert found.request is None or not found.sure


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("reserving the 4 point red one at the top (3-15)", "3-15"),
        ("I'll reserve the red one at the top, 3-15", "3-15"),
    ],
)
def test_the_one_beside_the_top_is_the_card_not_a_level(text: str, card: str) -> None:
    request, _ = read(text)
    assert request is not None and (request.action, request.card) == ("reserve", card)


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        ("হোয়াইট, গ্রিন আর ব্ল্যাক — একটা করে তিনটে টোকেন নিচ্ছি।", T(white=1, green=1, black=1)),
        ("নীল, লাল ও কালো — একটি করে তিনটি টোকেন নিলাম।", T(blue=1, red=1, black=1)),
        ("red, green and blue, one each, three tokens: I take them", T(red=1, green=1, blue=1)),
    ],
)  # fmt: skip
def test_one_each_and_the_total_after_the_colours_of_a_take_count_nothing_more(
    text: str, gems: object
) -> None:
    request, _ = read(text)
    assert request is not None and request.gems == gems


def test_a_total_that_is_not_the_number_of_colours_is_not_passed_over() -> None:
    request, _ = read("নীল, লাল ও কালো — একটি করে দুটি টোকেন নিলাম।")
    assert request is None or request.gems != T(blue=1, red=1, black=1)


def test_a_no_in_quotation_marks_still_says_not() -> None:
    found = read_move("Cymera i un coch \u2018na\u2019 un du")
    assert found.request is None


def test_a_players_name_is_no_colour_of_another_language() -> None:
    """(Banglish "kala", black, is a name in English and a verb in Icelandic.)"""
    request, _ = read("Kala, take white and blue")
    assert request is None or request.gems == T(white=1, blue=1)


@pytest.mark.parametrize(
    "text",
    ["I'll take that green card", "Cymera i'r cerdyn gwyrdd", "Ég tek græna kortið",
     "Mi prenas la verdan karton", "সবুজ কার্ডটা নিচ্ছি"],
)  # fmt: skip
def test_a_card_taken_is_a_buy_of_the_card_of_that_colour_asked_about(text: str) -> None:
    """(`[grammar] card`: a card is bought, never taken as a token.)"""
    request, sure = read(text)
    assert request is not None and (request.action, request.bonus) == ("buy", 2) and not sure


@pytest.mark.parametrize(
    ("text", "gems"),
    [("take w g k", T(white=1, green=1, black=1)), ("u r k", T(blue=1, red=1, black=1))],
)
def test_three_colour_letters_written_apart_are_those_colours(text: str, gems: object) -> None:
    request, _ = read(text)
    assert request is not None and request.gems == gems


def test_a_reserve_told_as_done_names_the_card_bought_beside_its_id() -> None:
    """("…'r cerdyn du 'na wnes i gadw (1-36)": the black card I reserved, one move.)"""
    request, sure = read("galla i brynu'r cerdyn du 'na wnes i gadw sbel nôl (1-36)")
    assert request is not None and (request.action, request.card) == ("buy", "1-36")
    assert not sure


def test_a_reserve_not_told_as_done_beside_a_buy_is_two_moves() -> None:
    assert read_move("prynu 1-23 a chadw 1-36").request is None


def test_a_levels_ordinal_with_its_dot_does_not_end_the_sentence() -> None:
    request, _ = read("ég tek frá rúbínspilið á 3. stigi, þetta sem gefur 4 stig (3-15).")
    assert request is not None and (request.action, request.card) == ("reserve", "3-15")


def test_a_resignation_after_a_reason_that_says_not_is_read() -> None:
    text = "Kun nur du jhetonoj en la banko mi ne plu vidas shancon, do mi cedas la ludon."
    request, sure = read(text)
    assert request is not None and request.action == "resign" and not sure


def test_a_condition_after_the_move_is_asked_about() -> None:
    """("…, se mi rajtas": if I may; a condition, not a second choice.)"""
    request, sure = read("Mi rezervas 2-03, se mi rajtas.")
    assert request is not None and request.card == "2-03" and not sure


@pytest.mark.parametrize("text", ["Take 2 green, maybe", "Take 2 green, or maybe not"])
def test_a_doubt_said_of_the_move_itself_is_never_read(text: str) -> None:
    assert read_move(text).request is None


def test_a_reserved_card_said_by_a_phrase_of_held_is_bought_beside_its_id() -> None:
    """("আমার রিজার্ভ করা কার্ডটি, অর্থাৎ ১-৩৬, কিনছি": my reserved card, that is 1-36, I buy.)"""
    request, _ = read("আমার রিজার্ভ করা কার্ডটি, অর্থাৎ ১-৩৬, কিনছি")
    assert request is not None and (request.action, request.card) == ("buy", "1-36")
    request, _ = read("রিজার্ভে রাখা কার্ডটা এবার কিনে নিলাম।")
    assert request is not None and request.action == "buy" and request.held


def test_two_colour_letters_after_a_move_word_are_those_colours() -> None:
    request, _ = read("cymryd u r k\nrhoi nôl w g")
    assert request is not None and request.returned == T(white=1, green=1)
    request, _ = read("u r k, return g g")
    assert request is not None and request.returned == T(green=2)


@pytest.mark.parametrize(
    "text",
    [
        "I take one token each of three colours: white, blue and green",
        "Ĉi-foje mi prenas po unu ĵetono el tri koloroj: diamanton, safiron kaj smeraldon.",
        "fe gymeraf ddiemwnt, saffir ac emrallt \u2013 un o bob un \u2013 o'r banc.",
        "সাদা নীল সবুজ - তিন কালারের তিনটা টোকেন নিলাম।",
    ],
)
def test_a_one_each_and_the_number_of_colours_before_them_count_nothing_more(text: str) -> None:
    request, _ = read(text)
    assert request is not None and request.gems == T(white=1, blue=1, green=1)


def test_a_card_named_with_its_colour_then_reserved_as_it_is_that_card() -> None:
    request, sure = read("Ooo la ruĝa 3-15 estas tiel bela!! Mi rezervas ĝin, kaj prenas oron")
    assert request is not None and (request.action, request.card) == ("reserve", "3-15")
    assert not sure


def test_the_gold_held_beside_no_discards_is_no_return_of_gold() -> None:
    assert read_move("With the gold I have 10, no discards needed").request is None


@pytest.mark.parametrize(
    "text", ["I must withdraw from the game.", "Please accept my resignation, effective now."]
)
def test_a_resignation_said_formally_is_read(text: str) -> None:
    request, _ = read(text)
    assert request is not None and request.action == "resign"


def test_colour_letters_asked_after_a_move_word_are_read_and_asked_back() -> None:
    request, sure = read("take g r k?")
    assert request is not None and request.gems == T(green=1, red=1, black=1) and not sure


@pytest.mark.parametrize(
    "text",
    ["r u k?", "r u there?", "ok w g", "hey r u k?", "Thinking I'd reserve. u k?",
     "sorry did I take u r turn"],
)  # fmt: skip
def test_letters_that_ask_or_stand_in_chat_are_no_colours(text: str) -> None:
    assert read_move(text).request is None


def test_a_count_after_a_word_of_points_is_not_counted_again_by_the_next() -> None:
    """("sy werth dau bwynt": worth two points, one count for both words.)"""
    request, _ = read("Dwi am gadw'r garden wen sy werth dau bwynt, yr un sy'n costio pump coch.")
    assert request is not None and (request.bonus, request.points) == (0, 2)


def test_a_count_before_a_colour_after_a_word_of_points_is_the_cost() -> None:
    request, _ = read("আমি ওই নীল কার্ডটা রেখে দিলুম — যেটার এক পয়েন্ট, চারটে লাল লাগে।")
    assert request is not None and (request.points, request.cost) == (1, ((3, 4),))


def test_a_reason_that_says_not_after_a_move_takes_nothing_back() -> None:
    found = read_move("Mi aĉetas la karton 1-23. Kial? Ĉar mi ne volas atendi.")
    assert found.request is not None and found.request.card == "1-23", found.trouble


def test_a_card_alone_then_this_one_reserved_is_that_card_asked_about() -> None:
    request, sure = read("3-15\n\nউপরের কার্ডটা রিজার্ভ করলাম, সোনা একটা দিয়েন।")
    assert request is not None and (request.action, request.card) == ("reserve", "3-15")
    assert not sure


@pytest.mark.parametrize(
    "text",
    ["take red blue for the black card", "Cymeraf goch a glas am y cerdyn du",
     "Ég tek rauðan og bláan fyrir svarta kortið"],
)  # fmt: skip
def test_the_colour_of_a_card_named_beside_a_take_is_no_token_of_it(text: str) -> None:
    request, sure = read(text)
    assert request is not None and request.gems == T(blue=1, red=1) and not sure


def test_a_line_of_initials_under_a_move_is_no_colours() -> None:
    request, _ = read("take white blue red, return 2\n\nG K")
    assert request is None or request.gems == T(white=1, blue=1, red=1)


def test_words_that_put_right_then_a_move_in_one_clause_put_it_right() -> None:
    request, sure = read("Take 2 green. I mean 2 black.")
    assert request is not None and request.gems == T(black=2) and not sure


def test_hereby_is_no_payment() -> None:
    """(Icelandic "hér með", hereby, is no "með", with: the card is the buy's.)"""
    request, _ = read("Undirrituð kaupir hér með spil 1-23 og greiðir fyrir það með einu gulli.")
    assert request is not None and (request.action, request.card) == ("buy", "1-23")


def test_might_as_well_leaves_no_doubt() -> None:
    request, _ = read("reserving 3-15, might as well get the gold")
    assert request is not None and (request.action, request.card) == ("reserve", "3-15")


@pytest.mark.parametrize(
    "text",
    ["শুভেচ্ছা নিও। এই দানে আমি পান্না, চুনি আর অনিক্স — এই তিনটি রত্ন একটি করে নিচ্ছি।",
     "Blue, red and black, three tokens, one each: I take them"],
)  # fmt: skip
def test_the_total_then_one_each_after_the_colours_counts_nothing_more(text: str) -> None:
    """(And a greeting of "take my wishes", "শুভেচ্ছা নিও", is no take.)"""
    request, _ = read(text)
    assert request is not None and request.action == "take"
    assert request.gems in (T(green=1, red=1, black=1), T(blue=1, red=1, black=1))
