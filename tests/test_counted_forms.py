# ruff: noqa: RUF001 (Bengali digits are the point here)
"""Counted forms (docs/translating.md, "Counted forms"): a colour after a number is written
as each language's grammar wants it, from the ``[counted]`` data of its words.toml, by the
number's CLDR plural category and the case its message asks for. One table per language
pins the forms for 1, 2, 3, 4, 6 and 11 in each use: a card's cost, a payment, what a
player holds, the bank, what a noble needs; and the nouns counted by the catalogue's plural
forms (tokens, cards, points)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.engine import CARDS, view
from referee.engine.moves import Buy, Reserve, Take
from referee.notation import format_move, parse_request
from referee.wording.board import board_context, gems
from referee.wording.messages import say
from referee.wording.translations import _as_english
from referee.wording.vocabulary import languages_in, vocabulary
from referee.wording.words import Words, words_for
from tests.positions import new_game
from tests.wording_checks import a_language

COUNTS = (1, 2, 3, 4, 6, 11)


def red(n: int) -> list[int]:
    return [0, 0, 0, n, 0, 0]


#: per language and use, the words of "n red" for each of COUNTS
FORMS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "nominative": ("1 red", "2 red", "3 red", "4 red", "6 red", "11 red"),
        "accusative": ("1 red", "2 red", "3 red", "4 red", "6 red", "11 red"),
        "tokens": ("1 token", "2 tokens", "3 tokens", "4 tokens", "6 tokens", "11 tokens"),
        "cards": ("1 card", "2 cards", "3 cards", "4 cards", "6 cards", "11 cards"),
        "points": ("1 point", "2 points", "3 points", "4 points", "6 points", "11 points"),
    },
    # Welsh mutates after the numeral, whatever the case: soft after 2, aspirate after 3, 6
    "cy": {
        "nominative": ("1 coch", "2 goch", "3 choch", "4 coch", "6 choch", "11 coch"),
        "accusative": ("1 coch", "2 goch", "3 choch", "4 coch", "6 choch", "11 coch"),
        "tokens": ("1 tocyn", "2 docyn", "3 thocyn", "4 tocyn", "6 thocyn", "11 tocyn"),
        "cards": ("1 cerdyn", "2 gerdyn", "3 cherdyn", "4 cerdyn", "6 cherdyn", "11 cerdyn"),
        "points": ("1 pwynt", "2 bwynt", "3 phwynt", "4 pwynt", "6 phwynt", "11 pwynt"),
    },
    # Icelandic: the neuter, singular after 1 (and 21), plural after 11
    "is": {
        "nominative": ("1 rautt", "2 rauð", "3 rauð", "4 rauð", "6 rauð", "11 rauð"),
        "accusative": ("1 rautt", "2 rauð", "3 rauð", "4 rauð", "6 rauð", "11 rauð"),
        "tokens": ("1 tákn", "2 tákn", "3 tákn", "4 tákn", "6 tákn", "11 tákn"),
        "cards": ("1 spil", "2 spil", "3 spil", "4 spil", "6 spil", "11 spil"),
        "points": ("1 stig", "2 stig", "3 stig", "4 stig", "6 stig", "11 stig"),
    },
    # Esperanto: the adjective agrees in number, and takes -n as an object
    "eo": {
        "nominative": ("1 ruĝa", "2 ruĝaj", "3 ruĝaj", "4 ruĝaj", "6 ruĝaj", "11 ruĝaj"),
        "accusative": ("1 ruĝan", "2 ruĝajn", "3 ruĝajn", "4 ruĝajn", "6 ruĝajn", "11 ruĝajn"),
        "tokens": ("1 ĵetono", "2 ĵetonoj", "3 ĵetonoj", "4 ĵetonoj", "6 ĵetonoj", "11 ĵetonoj"),
        "cards": ("1 karto", "2 kartoj", "3 kartoj", "4 kartoj", "6 kartoj", "11 kartoj"),
        "points": ("1 poento", "2 poentoj", "3 poentoj", "4 poentoj", "6 poentoj", "11 poentoj"),
    },
    # Bengali: Bengali digits; the colour does not change; in prose a count takes the
    # classifier টি, as the nouns do
    "bn": {
        "nominative": ("১টি লাল", "২টি লাল", "৩টি লাল", "৪টি লাল", "৬টি লাল", "১১টি লাল"),
        "accusative": ("১টি লাল", "২টি লাল", "৩টি লাল", "৪টি লাল", "৬টি লাল", "১১টি লাল"),
        "tokens": ("১টি টোকেন", "২টি টোকেন", "৩টি টোকেন", "৪টি টোকেন", "৬টি টোকেন", "১১টি টোকেন"),
        "cards": ("১টি কার্ড", "২টি কার্ড", "৩টি কার্ড", "৪টি কার্ড", "৬টি কার্ড", "১১টি কার্ড"),
        "points": ("১ পয়েন্ট", "২ পয়েন্ট", "৩ পয়েন্ট", "৪ পয়েন্ট", "৬ পয়েন্ট", "১১ পয়েন্ট"),
    },
}
LANGUAGES = tuple(FORMS)


def said(language: str, code: str, **params: Any) -> str:
    return words_for(language).say(say(code, **params))


#: each use: how "n red" is said in it, and the case the language's message asks for there
USES: dict[str, tuple[Callable[[str, int], str], str]] = {
    "cost": (lambda lang, n: said(lang, "board.costs", cost=red(n)), "nominative"),
    "payment": (
        lambda lang, n: said(
            lang, "told.buy", player="ann", card="1-12", colour="red", paid=red(n)
        ),
        "accusative",
    ),
    "holding": (lambda lang, n: said(lang, "board.tokens", tokens=red(n), count=n), "nominative"),
    "bank": (lambda lang, n: gems(tuple(red(n)), words_for(lang))[0]["counted"], "nominative"),
    "noble needs": (lambda lang, n: words_for(lang).tokens(red(n), "none"), "nominative"),
}


@pytest.mark.parametrize("use", USES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_colour_after_a_number_takes_the_form_its_language_and_use_want(
    language: str, use: str
) -> None:
    wording, case = USES[use]
    for n, form in zip(COUNTS, FORMS[language][case], strict=True):
        text = wording(language, n)
        assert re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text), (language, use, n, text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_tokens_cards_and_points_are_counted_by_the_catalogues_plural_forms(
    language: str,
) -> None:
    for n, token, card, point in zip(
        COUNTS, *(FORMS[language][k] for k in ("tokens", "cards", "points")), strict=True
    ):
        assert said(language, "board.token_count", tokens=n) == token
        assert said(language, "board.cards", cards=n) == card
        assert said(language, "board.player_points", points=n) == point


def test_icelandic_counts_21_as_it_counts_1_but_11_as_many() -> None:
    words = words_for("is")
    assert [words.counted(n, "white") for n in (1, 11, 21, 31, 111)] == [
        "1 hvítt", "11 hvít", "21 hvítt", "31 hvítt", "111 hvít",
    ]  # fmt: skip
    assert words.counted(2, "black", "dative") == "2 svörtum"


def test_welsh_mutates_every_colour_after_two_and_only_c_p_t_after_three_and_six() -> None:
    words = words_for("cy")
    colours = ("white", "blue", "green", "red", "black", "gold")
    assert [words.counted(2, c) for c in colours] == [
        "2 wyn", "2 las", "2 wyrdd", "2 goch", "2 ddu", "2 aur",
    ]  # fmt: skip
    assert [words.counted(3, c) for c in colours] == [
        "3 gwyn", "3 glas", "3 gwyrdd", "3 choch", "3 du", "3 aur",
    ]  # fmt: skip
    assert words.counted(6, "red") == "6 choch" and words.counted(12, "red") == "12 coch"


def test_a_take_of_one_of_each_tells_each_colour_as_one_token_of_it() -> None:
    assert said("is", "told.take", player="ann", gems=[1, 0, 0, 1, 1, 0]) == (
        "ann tók hvítt, rautt og svart"
    )
    assert said("eo", "told.take", player="ann", gems=[0, 0, 0, 2, 0, 0]) == ("ann prenis 2 ruĝajn")
    assert said("cy", "told.take", player="ann", gems=[0, 0, 0, 2, 0, 0]) == (
        "cymerodd ann docynnau (2 goch)"
    )


def test_a_number_counted_in_a_colour_field_agrees_with_it() -> None:
    # "{paid} {colour}" in English; "{paid:colour,accusative}" in Esperanto
    params = {"paid": 2, "colour": "red", "card": "1-12", "needed": 1, "suggested": red(1)}
    assert said("eo", "buy.overpay", **params).startswith("vi pagas 2 ruĝajn, sed 1-12 postulas "
                                                          "nur 1 ruĝan")  # fmt: skip
    assert said("cy", "buy.overpay", **params).startswith("rydych yn talu 2 goch ond")
    assert "2 ruĝajn" in said("eo", "take.two_needs_four", colour="red", left=3)
    assert "i gymryd 2 goch" in said("cy", "take.two_needs_four", colour="red", left=3)


def test_a_cards_colour_agrees_with_the_one_card() -> None:
    card = next(c for c in CARDS.values() if c.bonus_colour == "black")
    assert said("is", "told.buy", player="ann", card=card.id, colour="black", paid=red(2)) == (
        f"ann keypti {card.id} (svart) og borgaði 2 rauð"
    )


@pytest.mark.parametrize(
    ("language", "take", "buy"),
    [
        ("en", "take 2 red", "buy 1-01 pay 2 blue 1 gold"),
        ("cy", "cymryd 2 goch", "prynu 1-01 talu 2 las 1 aur"),
        ("is", "taka 2 rauð", "kaupa 1-01 borga 2 blá 1 gull"),
        ("eo", "prenu 2 ruĝajn", "aĉetu 1-01 pagu 2 bluajn 1 oran"),
        ("bn", "নিন ২ লাল", "কিনুন 1-01 দাম ২ নীল ১ সোনা"),  # (no classifier: as players write)
    ],
)
def test_the_notation_writes_a_moves_counts_as_its_language_does(
    language: str, take: str, buy: str
) -> None:
    words = vocabulary(language)
    assert format_move(Take(gems=(0, 0, 0, 2, 0, 0)), words) == take
    assert format_move(Buy(card="1-01", pay=(0, 2, 0, 0, 0, 1)), words) == buy


def test_a_translation_may_add_a_case_or_a_counted_colour_and_nothing_else() -> None:
    kinds = {"paid": "number", "colour": "colour", "gems": "tokens"}
    plain, named = _as_english([("paid", "colour,accusative")], kinds)
    assert plain == {("paid", "")} and named == {"colour"}
    plain, _ = _as_english([("gems", "none of those,accusative")], kinds)
    assert plain == {("gems", "none of those")}
    plain, _ = _as_english([("colour", "two")], kinds)
    assert plain == {("colour", "")}
    plain, _ = _as_english([("gems", "akuzativo")], kinds)  # no such case: kept, so refused
    assert plain == {("gems", "akuzativo")}


def test_a_words_file_that_names_no_plural_category_is_refused_with_what_is_wrong(
    tmp_path: Path,
) -> None:
    a_language(
        tmp_path, '[colours]\nred = ["rot"]\n\n[counted.nominative]\nred = { plural = "rote" }\n'
    )
    with languages_in(tmp_path), pytest.raises(ValueError, match=r"\['plural'\].*CLDR"):
        vocabulary("xx")


def test_a_language_with_no_counted_forms_writes_the_colour_as_it_is() -> None:
    words = Words("en")
    assert words.counted(3, "gold", "dative") == "3 gold"


@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", "take white blue green, return 2 red"),
        ("is", "taka hvítt blátt grænt, skila 2 rauðum"),  # skila takes the dative
        ("eo", "prenu blankan bluan verdan, redonu 2 ruĝajn"),
        ("cy", "cymryd gwyn glas gwyrdd, dychwelyd 2 goch"),
    ],
)
def test_a_moves_colours_take_the_case_of_its_verb_and_are_read_back(
    language: str, written: str
) -> None:
    move = Take(gems=(1, 1, 1, 0, 0, 0), returned=(0, 0, 0, 2, 0, 0))
    assert format_move(move, vocabulary(language)) == written
    request = parse_request(written)
    assert (request.gems, request.returned) == (move.gems, move.returned)


@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", "reserve deck 3"),
        ("eo", "rezervu stakon 3"),  # the deck is the verb's object
        ("is", "panta stokk 3"),
        ("cy", "cadw dec 3"),
    ],
)
def test_a_blind_reserve_names_its_deck_in_the_case_of_its_verb_and_is_read_back(
    language: str, written: str
) -> None:
    assert format_move(Reserve(card=None, deck=3), vocabulary(language)) == written
    request = parse_request(written)
    assert (request.action, request.deck) == ("reserve", 3)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("eo", ["blankaj", "bluaj", "verdaj", "ruĝaj", "nigraj", "oraj"]),  # 4 of each, 5 gold
        ("is", ["hvít", "blá", "græn", "rauð", "svört", "gull"]),
        ("cy", ["gwyn", "glas", "gwyrdd", "coch", "du", "aur"]),
    ],
)
def test_the_banks_colour_words_agree_with_the_counts_on_their_chips(
    language: str, words: list[str]
) -> None:
    state = new_game(2)
    shown = board_context(view(state, state.players[0].name), "g1", words_for(language))
    assert [gem["word"] for gem in shown["bank_gems"]] == words
    bank = list(state.bank)
    bank[0] = 1
    one = replace(state, bank=tuple(bank))
    shown = board_context(view(one, one.players[0].name), "g1", words_for(language))
    assert shown["bank_gems"][0]["word"] == {"eo": "blanka", "is": "hvítt", "cy": "gwyn"}[language]


def test_a_bengali_buy_paid_by_bonuses_alone_says_no_token_was_given() -> None:
    # the word its [zero] gives as "free", named by the translation's spec {paid:free}
    assert said("bn", "told.buy", player="রহিম", card="1-12", colour="red", paid=[0] * 6) == (
        "রহিম কোনো টোকেন না দিয়ে 1-12 (লাল) কিনলেন"
    )


def test_a_translation_may_name_its_own_zero_word_where_the_english_names_none() -> None:
    kinds = {"paid": "tokens"}
    plain, _ = _as_english([("paid", "free")], kinds, frozenset({"free"}), {"paid": ""})
    assert plain == {("paid", "")}
    plain, _ = _as_english([("paid", "gratis")], kinds, frozenset({"free"}), {"paid": ""})
    assert plain == {("paid", "gratis")}  # (a word its [zero] has not: refused)
