"""Moves, requests and commands written in any language's words (and English's, always), read
with the words of every language at once, whatever the writer's language.

The sentences are built from each language's words file as its translator wrote it (every
form it lists), so these tests hold whatever words they chose; a word that two languages give
two meanings is tried in each (a fixture of made-up languages pins how: the legal readings
decide, several are refused with the candidates, none is refused as the first reading is).
"""

# ruff: noqa: RUF001 (Bengali digits are written here on purpose)
from __future__ import annotations

import functools
import shutil
import tomllib
import unicodedata
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import Buy, GameState, Move, Pass, Reserve, Resign, Take, legal_moves
from referee.engine.cards import GEM_COLOURS, NO_TOKENS
from referee.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    RequestError,
)
from referee.mail.judging.commands import SCOPES, lookup, read_command
from referee.mail.judging.commands.inviting import _name_wanted
from referee.mail.judging.commands.proposing import _parse
from referee.mail.reading.reply import REQUESTS, read_reply
from referee.notation import format_move, parse, parse_request, reading_words, says_a_move
from referee.wording.vocabulary import (
    fold,
    languages,
    languages_in,
    locale_folder,
    reading_vocabulary,
    vocabulary,
)
from tests.positions import bank, cards_of_colour, dealt, holding, new_game, playout

T = bank
LANGUAGES = languages()
LEVEL_ONE = ["1-12", "1-02", "1-03", "1-04", "1-05"]


def board() -> GameState:
    return dealt(2, top={1: LEVEL_ONE, 2: ["2-07", "2-01", "2-02", "2-03"]})


def words_file(language: str) -> dict[str, Any]:
    """A language's words file, as its translator wrote it."""
    return _words_file(locale_folder() / language / "words.toml")


@functools.cache
def _words_file(path: Path) -> dict[str, Any]:
    with path.open("rb") as file:
        return tomllib.load(file)


def forms(language: str, group: str, concept: str) -> list[str]:
    """Every word ``language`` lists for ``concept`` in ``group`` (its first: how it is
    written)."""
    return [str(w) for w in words_file(language).get(group, {}).get(concept, [])]


def w(language: str, concept: str) -> str:
    """How the referee writes ``concept`` in ``language``."""
    return vocabulary(language).word(concept)


def colour(language: str, name: str) -> str:
    return vocabulary(language).word(name)


def others(name: str) -> tuple[str, str]:
    """Two gem colours other than ``name``."""
    rest = [c for c in GEM_COLOURS if c != name]
    return rest[0], rest[1]


def take_three(language: str) -> str:
    return f"{w(language, 'take')} " + " ".join(
        colour(language, c) for c in ("red", "green", "blue")
    )


RGU = Take(T(red=1, green=1, blue=1))


# -- the moves, in every language's words --------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_take_of_three_colours_is_read_in_each_languages_words(language: str) -> None:
    assert parse(board(), take_three(language)) == RGU
    for verb in forms(language, "moves", "take"):
        red, green, blue = (colour(language, c) for c in ("red", "green", "blue"))
        assert parse(board(), f"{verb} {red} {green} {blue}") == RGU, verb


@pytest.mark.parametrize(
    ("language", "name"), [(lang, c) for lang in LANGUAGES for c in GEM_COLOURS]
)
def test_every_form_of_a_gem_colour_is_read_as_that_colour(language: str, name: str) -> None:
    one, two = others(name)
    take = w(language, "take")
    expected = Take(T(**{name: 1, one: 1, two: 1}))
    for form in forms(language, "colours", name):
        text = f"{take} {form} {colour(language, one)} {colour(language, two)}"
        assert parse(board(), text) == expected, text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_of_gold_is_read_as_gold(language: str) -> None:
    state = holding(board(), tokens_=T(white=4, black=3, red=3))
    reserve, deck, back = w(language, "reserve"), w(language, "deck"), w(language, "return")
    for form in forms(language, "colours", "gold"):
        text = f"{reserve} {deck} 2 {back} {form}"
        assert parse(state, text) == Reserve(deck=2, returned=T(gold=1)), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_take_of_two_is_counted_in_digits_or_in_each_number_word(language: str) -> None:
    take, red = w(language, "take"), colour(language, "red")
    assert parse(board(), f"{take} 2 {red}") == Take(T(red=2))
    assert parse(board(), f"{take} {red} {red}") == Take(T(red=2))
    for two in forms(language, "numbers", "2"):
        assert parse(board(), f"{take} {two} {red}") == Take(T(red=2)), two


@pytest.mark.parametrize("language", LANGUAGES)
def test_reserve_a_face_up_card_or_from_a_deck_in_each_languages_words(language: str) -> None:
    for verb in forms(language, "moves", "reserve"):
        assert parse(board(), f"{verb} 2-07") == Reserve(card="2-07"), verb
        assert parse(board(), f"{verb} {w(language, 'deck')} 3") == Reserve(deck=3), verb
    for deck in forms(language, "moves", "deck"):
        text = f"{w(language, 'reserve')} {deck} 1"
        assert parse(board(), text) == Reserve(deck=1), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_buy_with_or_without_saying_the_payment(language: str) -> None:
    state = holding(board(), tokens_=T(white=1, black=2, gold=1))
    paid = " ".join(f"1 {colour(language, c)}" for c in ("black", "white", "gold"))
    for verb in forms(language, "moves", "buy"):
        assert parse(state, f"{verb} 1-12") == Buy("1-12", T(white=1, black=2)), verb
    for pay in forms(language, "moves", "pay"):
        text = f"{w(language, 'buy')} 1-12 {pay} {paid}"
        assert parse(state, text) == Buy("1-12", T(white=1, black=1, gold=1)), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_return_and_its_nothing_in_each_languages_words(language: str) -> None:
    state = holding(board(), tokens_=T(white=3, blue=3, black=3))
    white = colour(language, "white")
    for back in forms(language, "moves", "return"):
        text = f"{take_three(language)}, {back} 2 {white}"
        assert parse(state, text) == replace(RGU, returned=T(white=2)), text
    for nothing in forms(language, "moves", "nothing"):
        text = f"{take_three(language)} {w(language, 'return')} {nothing}"
        assert parse(board(), text) == replace(RGU, returned=NO_TOKENS), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_noble_is_named_in_each_languages_words(language: str) -> None:
    cards = cards_of_colour("white", 4) + cards_of_colour("black", 4)
    nobles = holding(dealt(2, nobles=["N4", "N1", "N2"]), cards=cards)
    for noble in forms(language, "moves", "noble"):
        text = f"{take_three(language)} {noble} N4"
        assert parse(nobles, text) == replace(RGU, noble="N4"), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_pass_in_each_languages_words(language: str) -> None:
    state = replace(new_game(2), bank=T(gold=5))
    state = holding(state, reserved=[("3-01", False), ("3-02", False), ("3-03", False)])
    for word in forms(language, "moves", "pass"):
        assert parse(state, word) == Pass(), word
        assert parse(state, word.upper() + ".") == Pass(), word


@pytest.mark.parametrize("language", LANGUAGES)
def test_resign_alone_or_after_the_words_said_before_it(language: str) -> None:
    for word in forms(language, "moves", "resign"):
        assert parse(new_game(3), word, "bob") == Resign(1), word
    resign = w(language, "resign")
    for before in forms(language, "moves", "before_resign"):
        assert parse(new_game(3), f"{before} {resign}", "carol") == Resign(2), before


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_little_words_are_passed_over_between_the_others(language: str) -> None:
    red, green, blue = (colour(language, c) for c in ("red", "green", "blue"))
    for filler in forms(language, "moves", "fillers"):
        text = f"{w(language, 'take')} {filler} {red} {green} {filler} {blue}"
        assert parse(board(), text) == RGU, text


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_a_languages_little_words_are_passed_over_in_its_own_move_lines_only(
    language: str,
) -> None:
    for filler in forms(language, "moves", "fillers"):
        senses = reading_words().senses_of(filler)
        if any(s.group != "filler" or "en" in s.languages for s in senses):
            continue  # a word of English too, or one that says more than a filler
        if set(fold(filler)) <= set("wugrk*0123456789"):
            continue  # colour letters or digits
        assert says_a_move(f"{w(language, 'pass')} {filler}"), filler
        assert not says_a_move(f"Get {filler} 2 for 1 deal"), filler


@pytest.mark.parametrize("language", LANGUAGES)
def test_i_resign_in_a_language_is_a_move_line_as_resign_is(language: str) -> None:
    """What a language says before resign (``I resign``, ``Rwy'n ymddiswyddo``) makes no
    less a move line of it; other words after it still do not."""
    for before in forms(language, "moves", "before_resign"):
        line = f"{before} {w(language, 'resign')}"
        assert says_a_move(line) and parse_request(line).action == "resign", line
        assert not says_a_move(f"{before} think so"), before


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_move_in_a_language_is_a_move_line_of_a_reply(language: str) -> None:
    reply = f"Hi!\n\n{take_three(language)}\n\nSent from my iPhone"
    assert read_reply(reply).move == [take_three(language)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_moves_the_referee_writes_in_a_language_read_back_as_the_same_moves(
    language: str,
) -> None:
    words = vocabulary(language)
    for state, _, _ in list(playout(3, seed=11))[:40:4]:
        for move in legal_moves(state):
            text = format_move(move, words)
            try:
                assert parse(state, text) == move, text
            except AmbiguousMoveError as err:
                # the words mean another legal move in another language: the choice is asked
                assert format_move(move) in err.candidates, text
                assert parse_request(text).others, text


# -- numbers: Bengali digits wherever a number is written -----------------------------------------


@pytest.mark.parametrize(
    ("hand", "text", "move"),
    [
        (None, "take ২ red", Take(T(red=2))),
        (None, "take ২ লাল", Take(T(red=2))),
        (T(white=3, blue=3, black=3), "take red green blue, return ২ white",
         replace(RGU, returned=T(white=2))),
        (None, "reserve ২-০৭", Reserve(card="2-07")),
        (None, "reserve ২-৭", Reserve(card="2-07")),
        (None, "reserve deck ৩", Reserve(deck=3)),
        (T(white=1, black=2, gold=1), "buy ১-১২ pay ১ black ১ white ১ gold",
         Buy("1-12", T(white=1, black=1, gold=1))),
    ],
)  # fmt: skip
def test_bengali_digits_are_read_in_counts_card_ids_and_decks(
    hand: tuple[int, ...] | None, text: str, move: Move
) -> None:
    state = board() if hand is None else holding(board(), tokens_=hand)  # type: ignore[arg-type]
    assert parse(state, text) == move


def test_bengali_digits_are_read_in_a_noble_and_in_the_options_of_new() -> None:
    cards = cards_of_colour("white", 4) + cards_of_colour("black", 4)
    nobles = holding(dealt(2, nobles=["N4", "N1", "N2"]), cards=cards)
    assert parse(nobles, "take red green blue noble N৪") == replace(RGU, noble="N4")
    assert parse(nobles, "take red green blue noble ৪") == replace(RGU, noble="N4")
    _, options = _parse("splendor with bob@example.org points ১৫ gold ৩ deadline ৩d")
    assert options == {"points": "15", "gold": "3", "deadline": "3d"}


@pytest.mark.parametrize(
    ("said", "deadline"),
    [
        ("deadline 2 weeks spectators", "14d"),
        ("সময়সীমা ৩ দিন", "3d"),
        ("সময়সীমা ৩দিন", "3d"),
        ("terfyn 5 diwrnod", "5d"),
        ("terfyn amser 5 diwrnod", "5d"),  # (the option in two of its words)
        ("frestur 1 dagur", "1d"),
        ("frestur 2 dagar", "2d"),
        ("templimo 3 tagoj", "3d"),
        ("deadline 12h", "12h"),  # (as the notation writes it)
        ("templimo tri tagoj", "3d"),  # the number in words
        ("সময়সীমা তিন দিন", "3d"),
        ("terfyn dau ddiwrnod", "2d"),
        ("৩ দিনের সময়সীমা", "3d"),  # the number and its unit before the option
        ("তিন দিনের সময়সীমা", "3d"),
        ("a 5 day deadline", "5d"),
    ],
)
def test_a_deadline_is_read_in_days_or_weeks_said_in_words_of_any_language(
    said: str, deadline: str
) -> None:
    addresses, options = _parse(f"splendor with bob@example.org {said}")
    assert addresses == ["bob@example.org"] and options["deadline"] == deadline


def test_bengali_digits_in_a_commands_argument_are_digits_but_what_is_said_is_kept() -> None:
    away = read_command("referee", "away ৫d")
    assert away is not None and (away.command.word, away.argument) == ("away", "5d")
    history = read_command("game", "history ৩.")
    assert history is not None and history.argument == "3"
    said = read_command("game", "say ৩ টোকেন বাকি")
    assert said is not None and said.argument == "৩ টোকেন বাকি"


def test_a_bengali_digit_that_names_no_card_is_refused_quoting_it_as_written() -> None:
    with pytest.raises(InvalidMoveError) as err:
        parse_request("buy ৪-০১")
    assert err.value.code == "notation.not_a_card"
    assert err.value.params == {"word": "৪-০১"}


# -- folded: no accents, Esperanto's x-system ------------------------------------------------------

_X = {"ĉ": "cx", "ĝ": "gx", "ĥ": "hx", "ĵ": "jx", "ŝ": "sx", "ŭ": "ux"}


def x_system(word: str) -> str:
    return "".join(_X.get(ch, ch) for ch in word)


def unaccented(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def _accented(language: str) -> Iterator[tuple[str, str]]:
    """(colour, form) for each colour form of ``language`` with an accented Latin letter."""
    for name in GEM_COLOURS:
        for form in forms(language, "colours", name):
            latin = all(c.isascii() or "LATIN" in unicodedata.name(c, "") for c in form)
            if latin and fold(form) != form.lower():
                yield name, form


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang in ("cy", "is", "eo")])
def test_latin_letters_are_read_without_their_accents_and_in_either_case(language: str) -> None:
    take = w(language, "take")
    for name, form in _accented(language):
        one, two = others(name)
        expected = Take(T(**{name: 1, one: 1, two: 1}))
        rest = f"{colour(language, one)} {colour(language, two)}"
        for written in (fold(form), form.upper(), unaccented(form)):
            assert parse(board(), f"{take} {written} {rest}") == expected, written


@pytest.mark.skipif("eo" not in LANGUAGES, reason="no Esperanto words file")
def test_esperanto_is_read_in_its_x_system_and_without_its_diacritics() -> None:
    words = [
        (group, concept, form)
        for group in ("moves", "colours", "commands")
        for concept, listed in words_file("eo").get(group, {}).items()
        for form in listed
        if any(ch in _X for ch in form)
    ]
    assert words, "Esperanto's words have letters with a circumflex or breve"
    meant = reading_words()
    for _, _, form in words:
        for written in (x_system(form), x_system(form).upper(), unaccented(form)):
            assert meant.senses_of(written) == meant.senses_of(form), written
            assert reading_vocabulary().commands_of(written) == (
                reading_vocabulary().commands_of(form)
            ), written
    red = next(f for f in forms("eo", "colours", "red") if "ĝ" in f)
    buy = next((f for f in forms("eo", "moves", "buy") if "ĉ" in f), w("eo", "buy"))
    state = holding(board(), tokens_=T(white=1, black=2, gold=1))
    paid = " ".join(f"1 {colour('eo', c)}" for c in ("black", "white", "gold"))
    for written in (x_system(buy), unaccented(buy), x_system(buy).upper()):
        text = f"{written} 1-12 {w('eo', 'pay')} {paid}"
        assert parse(state, text) == Buy("1-12", T(white=1, black=1, gold=1)), text
    for written in (x_system(red), unaccented(red), x_system(red).upper()):
        assert parse(board(), f"{w('eo', 'take')} 2 {written}") == Take(T(red=2)), written


# -- requests and commands -------------------------------------------------------------------------


def _meanings(group: str, word: str) -> set[str]:
    """Every concept any language's file (or English's command word) gives ``word`` in
    ``group``: what it may be read as."""
    key = fold(word)
    found = {
        concept
        for lang in LANGUAGES
        for concept, listed in words_file(lang).get(group, {}).items()
        if any(fold(x, lang) == fold(word, lang) for x in listed)
    }
    return found | ({key} if group == "commands" else set())


def _command_lines() -> list[tuple[str, str, str, str]]:
    """(language, scope, concept, line) for each command word of each language, written where
    the command may be written, with an argument when it needs one."""
    lines = []
    for lang in LANGUAGES:
        for concept, listed in words_file(lang).get("commands", {}).items():
            scope = next((s for s in SCOPES if lookup(s, concept) is not None), None)
            if scope is None:
                continue
            found = lookup(scope, concept)
            assert found is not None
            argument = ""
            if found.argument == "required":
                argument = " " + found.example.partition(" ")[2]
            elif found.argument == "text":
                argument = " hello"
            lines += [(lang, scope, concept, f"{word}{argument}") for word in listed]
    return lines


COMMAND_LINES = _command_lines()


@pytest.mark.parametrize(
    ("language", "scope", "concept", "line"),
    COMMAND_LINES,
    ids=[f"{lang}-{line}" for lang, _, _, line in COMMAND_LINES],
)
def test_every_command_word_of_every_language_is_read_as_its_command(
    language: str, scope: str, concept: str, line: str
) -> None:
    found = read_command(scope, line)  # type: ignore[arg-type]
    assert found is not None, line
    word = line.partition(" ")[0]
    assert found.command.word in _meanings("commands", word), line
    assert concept in _meanings("commands", word)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_requests_help_board_and_moves_in_each_languages_words(language: str) -> None:
    for concept in REQUESTS:
        for word in forms(language, "commands", concept):
            for line in (word, word.upper() + "!", f"*{word}*"):
                requests = read_reply(f"Hello,\n\n{line}\n\nThanks").requests
                assert len(requests) == 1, line
                assert requests[0] in _meanings("commands", word), line


def _option(language: str, option: str) -> str:
    return vocabulary(language).word(f"options.{option}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_new_is_written_with_each_languages_option_words(language: str) -> None:
    o = {key: _option(language, key) for key in words_file(language).get("options", {})}
    line = (
        f"{o['splendor']} {o['with']} bob@example.org {o['and']} carol@example.org "
        f"{o['points']} 10 {o['gold']} 3 {o['deadline']} 3d {o['timeout']} {o['forfeit']} "
        f"{o['spectators']} {o['language']} eo"
    )
    addresses, options = _parse(line)
    assert addresses == ["bob@example.org", "carol@example.org"]
    assert options == {
        "points": "10", "gold": "3", "deadline": "3d", "timeout": "forfeit",
        "spectators": "yes", "language": "eo",
    }  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_of_an_option_word_is_read_as_that_option(language: str) -> None:
    start = f"{_option(language, 'splendor')} {_option(language, 'with')} bob@example.org"
    values = {"points": "12", "gold": "4", "deadline": "2d", "language": "cy"}
    for option, value in values.items():
        for form in forms(language, "options", option):
            assert _parse(f"{start} {form} {value}")[1] == {option: value}, form
    for form in forms(language, "options", "spectators"):
        assert _parse(f"{start} {form}")[1] == {"spectators": "yes"}, form
    timeout = _option(language, "timeout")
    for policy in ("wait", "forfeit", "bot"):
        for form in forms(language, "options", policy):
            assert _parse(f"{start} {timeout} {form}")[1] == {"timeout": policy}, form
    for form in forms(language, "options", "bot"):
        assert _parse(f"{start} {form}:search")[0] == ["bob@example.org", "bot:search"], form
        assert _parse(f"{start} {form}")[0] == ["bob@example.org", "bot"], form
    for form in forms(language, "options", "splendor"):
        assert _parse(f"{form} {_option(language, 'with')} bob@example.org")[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_accept_as_a_name_in_each_languages_words(language: str) -> None:
    for form in forms(language, "options", "as"):
        assert _name_wanted(f"{form} Bob") == "Bob", form
        assert _name_wanted(f"{form.upper()}  Zeta") == "Zeta", form
    with pytest.raises(RequestError) as err:
        _name_wanted(f"{_option(language, 'with')}-not-as Bob")
    assert err.value.code == "invite.accept_unclear"


def test_english_words_are_read_as_they_always_were_among_every_languages_words() -> None:
    assert parse(board(), "take rgu") == RGU
    assert parse(board(), "Take: rubies, emeralds and sapphires!") == RGU
    assert parse_request("I resign").action == "resign"
    assert read_reply("board").requests == ["board"]
    assert read_command("referee", "Games night was fun!") is None
    assert _parse("splendor with bob@example.org and bot")[0] == ["bob@example.org", "bot"]


# -- a word two languages give two meanings (made-up languages) ------------------------------------

EXTRA = {
    # xa: "vo" is white, "zu" black, "bi" two; "ajuto" asks for help
    "xa": """
[moves]
take = ["prendi"]
[colours]
white = ["vo"]
black = ["zu"]
[numbers]
2 = ["bi"]
[commands]
help = ["ajuto"]
[options]
with = ["kon"]
points = ["punto"]
""",
    # xb: "vo" is red (a colour of another colour), "zu" two (a number); "ajuto" is the board
    "xb": """
[moves]
take = ["preni"]
[colours]
red = ["vo"]
[numbers]
2 = ["zu"]
[commands]
board = ["ajuto"]
[options]
gold = ["punto"]
""",
}


@pytest.fixture
def made_up(tmp_path: Path) -> Iterator[Path]:
    """English and two made-up languages whose words clash, read instead of the real ones."""
    shutil.copytree(locale_folder() / "en", tmp_path / "en")
    for code, text in EXTRA.items():
        (tmp_path / code).mkdir()
        (tmp_path / code / "words.toml").write_text(text, encoding="utf-8")
    with languages_in(tmp_path):
        yield tmp_path


def test_a_colour_two_languages_give_two_colours_is_refused_with_both_candidates(
    made_up: Path,
) -> None:
    assert languages() == ("en", "xa", "xb")
    request = parse_request("take vo green blue")
    assert len(request.readings) == 2
    with pytest.raises(AmbiguousMoveError) as err:
        parse(board(), "take vo green blue")
    assert err.value.code == "notation.ambiguous"
    assert sorted(err.value.candidates) == ["take blue green red", "take white blue green"]
    assert str(err.value).startswith("'take vo green blue': this fits more than one legal move.")


def test_the_one_legal_reading_of_a_word_with_two_meanings_is_the_move(made_up: Path) -> None:
    # xa: take black red (not legal: every colour is in the bank); xb: take 2 red
    assert parse(board(), "take zu red") == Take(T(red=2))
    assert parse(board(), "preni zu red") == Take(T(red=2))
    # the same word means the same thing throughout: never white once and red once
    assert [r.gems for r in parse_request("take vo vo").readings] == [T(white=2), T(red=2)]


def test_a_word_with_two_meanings_no_reading_of_which_is_legal_is_refused_as_the_first(
    made_up: Path,
) -> None:
    with pytest.raises(IllegalMoveError) as err:
        parse(board(), "take vo")  # one white, or one red: neither is legal with all colours
    with pytest.raises(IllegalMoveError) as white:
        parse(board(), "take white")
    assert (err.value.code, err.value.params) == (white.value.code, white.value.params)


def test_a_text_none_of_whose_readings_is_a_move_is_refused_as_its_first_reading(
    made_up: Path,
) -> None:
    # xa: black then a count with no colour; xb: two numbers in a row
    with pytest.raises(InvalidMoveError) as err:
        parse_request("take zu bi")
    assert err.value.code == "notation.count_without_colour"
    assert parse_request("take zu").others == ()  # xb's "take 2" is no move


def test_a_request_or_an_option_two_languages_give_two_meanings_is_the_first_languages(
    made_up: Path,
) -> None:
    assert read_reply("ajuto").requests == ["help"]
    found = read_command("game", "ajuto")
    assert found is not None and found.command.word == "help"
    assert _parse("splendor kon bob@example.org punto 9")[1] == {"points": "9"}


def test_the_words_of_every_language_are_read_once_for_the_folder_they_come_from(
    made_up: Path,
) -> None:
    assert reading_words() is reading_words()
    assert reading_vocabulary() is reading_vocabulary()
    assert reading_words().languages == ("en", "xa", "xb")
    assert reading_words().senses_of("VO") == reading_words().senses_of("vo")


def test_a_folder_of_languages_is_read_for_a_while_and_then_the_real_ones_again(
    tmp_path: Path,
) -> None:
    real = reading_words()
    shutil.copytree(locale_folder() / "en", tmp_path / "en")
    with languages_in(tmp_path):
        assert languages() == ("en",)
        assert reading_words().languages == ("en",)
        with pytest.raises(InvalidMoveError):
            parse_request(take_three("en").replace("red", "du"))
    assert reading_words() is real
    assert reading_words().languages == LANGUAGES


def test_a_word_of_two_real_languages_with_two_meanings_is_read_both_ways() -> None:
    clashes = [
        (word, senses)
        for word, senses in reading_words().senses.plain.items()
        if {(s.group, s.value) for s in senses} >= {("colour", 4), ("number", 2)}
    ]
    if not clashes:
        pytest.skip("no word of the languages is both black and two")
    word = clashes[0][0]
    assert parse(board(), f"take {word} red") == Take(T(red=2))  # "2 red": the legal one
    assert parse(board(), f"take 2 {word}") == Take(T(black=2))  # "2 2": no move


# -- any text --------------------------------------------------------------------------------------


def _every_word() -> list[str]:
    words = {"1-12", "2-07", "N4", "4", "৪", "১-১২", "rgu", "b", "0", "{", "}", ",", "'"}
    for lang in LANGUAGES:
        for group in ("moves", "colours", "numbers", "commands", "options"):
            for listed in words_file(lang).get(group, {}).values():
                words.update(str(x) for x in listed)
    return sorted(words)


WORDS = _every_word()
TEXT = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join),
    st.text(max_size=60),
    st.lists(st.sampled_from(WORDS) | st.text(max_size=6), max_size=6).map("\n".join),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
def test_any_text_is_read_or_refused_with_a_move_error_and_never_breaks(text: str) -> None:
    for state, player in ((board(), None), (board(), "bob"), (new_game(3), "carol")):
        try:
            parse(state, text, player)
        except MoveError as err:
            assert isinstance(err, InvalidMoveError | IllegalMoveError | AmbiguousMoveError)
            assert err.code is not None
    read_reply(text).near_miss()
    for scope in SCOPES:
        read_command(scope, text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
def test_any_words_after_new_or_accept_are_read_or_refused_with_a_request_error(
    text: str,
) -> None:
    for reading in (_parse, _name_wanted):
        try:
            reading(text.strip())  # type: ignore[operator]
        except RequestError as err:
            assert err.code is not None


def test_every_language_is_read_in_every_other_languages_tokens() -> None:
    # a colour of one language after the verb of another: words are not tied to a language
    for verb_language in LANGUAGES:
        for colour_language in LANGUAGES:
            verb = w(verb_language, "take")
            text = f"{verb} 2 {colour(colour_language, 'green')}"
            assert parse(board(), text) == Take(T(green=2)), text


def test_a_reading_in_one_language_is_preferred_to_one_that_mixes_two() -> None:
    # only black and red left in the bank, red 4 or more: both "take black red" and "take 2
    # red" are legal; Welsh "cymryd du coch" is the first (du: black in Welsh, two only in
    # Esperanto), Esperanto "prenu du ruĝa" the second
    state = replace(board(), bank=bank(red=5, black=4, gold=5))
    black_red, two_red = Take(T(red=1, black=1)), Take(T(red=2))
    assert {black_red, two_red} <= set(legal_moves(state))
    assert parse(state, "cymryd du coch") == black_red
    assert parse(state, "prenu du ruĝa") == two_red
    assert parse(state, format_move(black_red, vocabulary("cy"))) == black_red


def test_the_words_docs_languages_md_shows_are_the_first_of_their_lists() -> None:
    """The table of docs/languages.md shows how the referee writes each word: the first of
    its list in each language's words file (a word added to a list goes after it)."""
    text = (Path(__file__).parents[1] / "docs" / "languages.md").read_text(encoding="utf-8")
    header = "| | English | Cymraeg (cy) | Íslenska (is) | Esperanto (eo) | বাংলা (bn) |"
    rows = text.split(header, 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    assert len(rows) > 30
    wrong = []
    for row in rows:
        concept, *shown = [cell.strip().strip("`") for cell in row.strip("|").split("|")]
        for language, word in zip(("en", "cy", "is", "eo", "bn"), shown, strict=True):
            table = words_file(language)
            firsts = {
                str(table[group][concept][0])
                for group in ("moves", "colours", "commands", "options")
                if table.get(group, {}).get(concept)
            }
            if word not in firsts:
                wrong.append((language, concept, word, firsts))
    assert not wrong
