"""The engine's refusals as data: every error it raises is a code of the catalogue and its
parameters (plain JSON), and says the English sentence it always said."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import referee.engine
from referee.engine import Buy, GameState, Pass, Reserve, Resign, Rules, Take, apply, make_setup
from referee.engine.cards import LEVEL_CARDS
from referee.engine.setup import start
from referee.errors import IllegalMoveError, RefereeError, SetupError
from referee.wording import english
from referee.wording.catalogue import CATALOGUE, lookup
from referee.wording.words import fields
from tests.positions import bank, cards_of_colour, dealt, holding, new_game

T = bank  # token counts by colour name
ENGINE = Path(referee.engine.__file__).parent
CODED = {"IllegalMoveError", "SetupError", "InvalidMoveError"}

# A small board, so that the sentences listing the face-up cards stay short.
BOARD = (("1-01", "1-02", None, None), (None,) * 4, (None,) * 4)


def game() -> GameState:
    return new_game(2)


def with_bank(**counts: int) -> GameState:
    return replace(game(), bank=T(**counts))


def small_board() -> GameState:
    return replace(game(), board=BOARD)


def resigned(seat: int) -> GameState:
    return apply(new_game(3), Resign(seat))


def finished() -> GameState:
    return replace(game(), status="finished")


def nobles_due(*nobles: str) -> GameState:
    """alice's bonuses meet N4 (4 white, 4 black), and N9 too (3 white, 3 blue, 3 black)
    when it is named: the nobles named are on the table, then N1 and N2 (3 in all)."""
    cards = cards_of_colour("white", 4) + cards_of_colour("black", 4)
    if "N9" in nobles:
        cards += cards_of_colour("blue", 3)
    return holding(dealt(2, nobles=[*nobles, "N1", "N2"][:3]), cards=cards)


def setup(players: int = 2, **parts: Any) -> Callable[[], object]:
    return lambda: make_setup(players, 1, Rules(), **parts)


def starting(*names: str, rules: Rules | None = None) -> Callable[[], object]:
    return lambda: start(names, make_setup(2, 1, Rules()), rules or Rules())


def move(state: Callable[[], GameState], played: object) -> Callable[[], object]:
    return lambda: apply(state(), played)  # type: ignore[arg-type]


def malformed(value: object) -> Any:
    """``value`` where the engine expects another type (a count of six, a seat number)."""
    return value


LEVEL_1 = list(LEVEL_CARDS[1])

#: (code, what raises it, the English it says): one or more for every rule.
REFUSALS: list[tuple[str, Callable[[], object], str]] = [
    # taking tokens
    (
        "take.not_a_count",
        move(game, Take(malformed((1, 1)))),
        "a take needs a count per colour, got (1, 1)",
    ),
    (
        "take.gold",
        move(game, Take(T(red=1, green=1, gold=1))),
        "gold cannot be taken: a player gets gold only by reserving a card",
    ),
    (
        "take.bank_short",
        move(lambda: with_bank(red=1, gold=5), Take(T(red=2))),
        "the bank has only 1 red left: you cannot take 2",
    ),
    (
        "take.bank_none",
        move(lambda: with_bank(blue=4, gold=5), Take(T(red=1, blue=1))),
        "the bank has none red left: you cannot take 1",
    ),
    (
        "take.two_needs_four",
        move(lambda: with_bank(red=3, blue=4), Take(T(red=2))),
        (
            "taking 2 red needs at least 4 red in the bank before taking; it has 3: take 3 "
            "different colours instead"
        ),
    ),
    (
        "take.not_a_take",
        move(game, Take(T(red=2, green=1))),
        (
            "take 1 green, 2 red is not a take: take 3 tokens of different colours, or 2 of one "
            "colour"
        ),
    ),
    (
        "take.too_many",
        move(game, Take(T(red=1, green=1, blue=1, white=1))),
        (
            "take 1 white, 1 blue, 1 green, 1 red is too many: take at most 3 tokens of "
            "different colours"
        ),
    ),
    (
        "take.too_few",
        move(game, Take(T(red=1, green=1))),
        (
            "take 1 green, 1 red is too few: the bank has white, blue, green, red, black, so "
            "take 3 different colours"
        ),
    ),
    (
        "take.too_few",
        move(game, Take(T())),
        (
            "take nothing is too few: the bank has white, blue, green, red, black, so take 3 "
            "different colours"
        ),
    ),
    (
        "take.too_few_left",
        move(lambda: with_bank(red=3, green=1), Take(T(red=1))),
        "take 1 red is too few: take one of each colour the bank has (green, red)",
    ),
    (
        "take.nothing",
        move(lambda: with_bank(gold=5), Take(T())),
        "a take must take at least one token",
    ),
    # reserving
    (
        "reserve.card_or_deck",
        move(game, Reserve("1-01", 1)),
        "a reserve names either a face-up card or a deck level, not both",
    ),
    (
        "reserve.limit",
        move(
            lambda: holding(game(), reserved=[("3-01", False), ("3-02", True), ("3-03", False)]),
            Reserve(None, 1),
        ),
        (
            "you already hold 3 reserved cards, the most allowed: buy one of them before "
            "reserving another"
        ),
    ),
    (
        "reserve.not_face_up",
        move(small_board, Reserve("1-03")),
        "1-03 is not face up on the board: you can reserve a face-up card (1-01, 1-02)",
    ),
    (
        "reserve.not_face_up_board_empty",
        move(lambda: replace(game(), board=((None,) * 4,) * 3), Reserve("1-03")),
        "1-03 is not face up on the board: you can reserve a face-up card (none)",
    ),
    (
        "reserve.no_such_deck",
        move(game, Reserve(None, 4)),
        "there is no level 4 deck: the levels are 1, 2 and 3",
    ),
    (
        "reserve.deck_empty",
        move(lambda: replace(game(), decks=((), (), ())), Reserve(None, 2)),
        "the level 2 deck is empty: reserve a face-up card or another level",
    ),
    (
        "card.unknown",
        move(game, Reserve("4-01")),
        "there is no card '4-01': card ids run 1-01 … 3-20",
    ),
    # buying
    (
        "card.unknown",
        move(game, Buy("1-41", T())),
        "there is no card '1-41': card ids run 1-01 … 3-20",
    ),
    (
        "buy.not_available",
        move(small_board, Buy("1-03", T(white=1))),
        (
            "1-03 is not face up on the board nor among your reserved cards: you can buy a "
            "face-up card (1-01, 1-02) or one you reserved"
        ),
    ),
    (
        "buy.not_available_board_empty",
        move(lambda: replace(game(), board=((None,) * 4,) * 3), Buy("1-03", T())),
        (
            "1-03 is not face up on the board nor among your reserved cards: you can buy a "
            "face-up card (none) or one you reserved"
        ),
    ),
    (
        "buy.pay_not_a_count",
        move(small_board, Buy("1-01", malformed((1, 2, 3)))),
        "a payment needs a count per colour, got (1, 2, 3)",
    ),
    (
        "buy.cannot_afford",
        move(small_board, Buy("1-01", T())),
        (
            "you cannot afford 1-01: it costs 2 red, 1 black; after your bonuses (none) you need "
            "2 red, 1 black and hold none of those and 0 gold, short by 2 red, 1 black: 3 gold "
            "would be needed"
        ),
    ),
    (
        "buy.cannot_afford",
        move(
            lambda: holding(small_board(), tokens_=T(black=1), cards=cards_of_colour("red", 1)),
            Buy("1-01", T()),
        ),
        (
            "you cannot afford 1-01: it costs 2 red, 1 black; after your bonuses (1 red) you "
            "need 1 red, 1 black and hold 1 black and 0 gold, short by 1 red: 1 gold would be "
            "needed"
        ),
    ),
    (
        "buy.overpay",
        move(
            lambda: holding(small_board(), tokens_=T(red=2, black=5)),
            Buy("1-01", T(red=2, black=3)),
        ),
        "you pay 3 black but 1-01 needs only 1 black after your bonuses: pay 2 red, 1 black",
    ),
    (
        "buy.pay_more_than_held",
        move(lambda: holding(small_board(), tokens_=T(red=1, gold=3)), Buy("1-01", T(red=2))),
        "you pay 2 red but hold only 1: pay 1 red, 2 gold",
    ),
    (
        "buy.gold_mismatch",
        move(
            lambda: holding(small_board(), tokens_=T(red=2, black=1, gold=1)),
            Buy("1-01", T(red=2)),
        ),
        (
            "1-01 needs 2 red, 1 black after your bonuses; paying 2 red leaves 1 to pay in gold, "
            "not 0: pay 2 red, 1 black"
        ),
    ),
    (
        "buy.gold_more_than_held",
        move(
            lambda: holding(small_board(), tokens_=T(red=2, black=1, gold=1)),
            Buy("1-01", T(black=1, gold=2)),
        ),
        "you pay 2 gold but hold only 1: pay 2 red, 1 black",
    ),
    # passing
    (
        "pass.not_allowed",
        move(game, Pass()),
        (
            "you cannot pass while another action is possible: you can still reserve or take "
            "(legal moves: 30; ask for the list of moves)"
        ),
    ),
    # returning tokens
    (
        "return.not_a_count",
        move(game, Take(T(red=1, green=1, blue=1), malformed((1, 2)))),
        "a return needs a count per colour, got (1, 2)",
    ),
    (
        "return.not_needed",
        move(game, Take(T(red=1, green=1, blue=1), T(red=1))),
        (
            "returning tokens is only for a player above 10; after this move you hold 3: leave "
            "out the return"
        ),
    ),
    (
        "return.wrong_count",
        move(
            lambda: holding(game(), tokens_=T(white=3, black=3, gold=3)),
            Take(T(red=1, green=1, blue=1), T(red=1)),
        ),
        (
            "after this move you hold 12 tokens (3 white, 1 blue, 1 green, 1 red, 3 black, 3 "
            "gold): return exactly 2 to keep 10, not 1"
        ),
    ),
    (
        "return.more_than_held",
        move(
            lambda: holding(game(), tokens_=T(white=3, black=3, gold=3)),
            Take(T(red=1, green=1, blue=1), T(red=2)),
        ),
        (
            "you cannot return 2 red: after this move you hold 1 (3 white, 1 blue, 1 green, 1 "
            "red, 3 black, 3 gold)"
        ),
    ),
    # nobles
    (
        "noble.must_choose",
        move(lambda: nobles_due("N4"), Take(T(red=1, green=1, blue=1))),
        "N4 visits at the end of this move and cannot be refused; add noble N4",
    ),
    (
        "noble.must_choose",
        move(lambda: nobles_due("N4", "N9"), Take(T(red=1, green=1, blue=1))),
        "one of N4 and N9 visits at the end of this move and cannot be refused; add noble N4 "
        "or noble N9",
    ),
    (
        "noble.not_on_table",
        move(lambda: nobles_due("N4"), Take(T(red=1, green=1, blue=1), noble="N7")),
        "N7 is not on the table (nobles there: N4, N1, N2)",
    ),
    (
        "noble.not_on_table_none",
        move(lambda: replace(game(), nobles=()), Take(T(red=1, green=1, blue=1), noble="N7")),
        "N7 is not on the table (nobles there: none)",
    ),
    (
        "noble.not_qualified",
        move(
            lambda: dealt(2, nobles=["N4", "N9", "N1"]), Take(T(red=1, green=1, blue=1), noble="N1")
        ),
        "N1 requires bonuses of 4 red, 4 black; after this move yours are none",
    ),
    (
        "noble.not_qualified_others",
        move(lambda: nobles_due("N4"), Take(T(red=1, green=1, blue=1), noble="N1")),
        (
            "N1 requires bonuses of 4 red, 4 black; after this move yours are 4 white, 4 black: "
            "only N4 can visit"
        ),
    ),
    # resigning
    ("resign.no_such_seat", move(game, Resign(2)), "there is no seat 2: the seats are 0 to 1"),
    (
        "resign.no_such_seat",
        move(game, Resign(malformed("bob"))),
        "there is no seat 'bob': the seats are 0 to 1",
    ),
    (
        "resign.already",
        move(lambda: resigned(1), Resign(1)),
        (
            "bob has resigned already and is out of the game: only a player still in (alice, "
            "carol) can resign"
        ),
    ),
    # the game over, and what is not a move
    (
        "game.over",
        move(finished, Take(T(red=1, green=1, blue=1))),
        "the game is over: no more moves can be played",
    ),
    (
        "game.over_resign",
        move(finished, Resign(1)),
        "the game is over: bob cannot resign from a finished game",
    ),
    (
        "move.unknown",
        move(game, "take red"),
        "'take red' is not a move: expected take, reserve, buy, pass or resign",
    ),
    # setting up
    ("setup.players", setup(5), "Splendor is played by 2 to 4 players, not 5"),
    ("setup.players", starting("alice"), "Splendor is played by 2 to 4 players, not 1"),
    (
        "setup.name",
        starting("alice", "bob smith"),
        "player name 'bob smith' must be one word of printable characters (no spaces)",
    ),
    (
        "setup.name_twice",
        starting("alice", "Alice"),
        "two players are called 'Alice': each player needs their own name",
    ),
    (
        "setup.points_to_win",
        starting("alice", "bob", rules=Rules(points_to_win=0)),
        "points_to_win = 0: it must be 1 or more",
    ),
    (
        "setup.gold",
        starting("alice", "bob", rules=Rules(gold=-1)),
        "gold = -1: it must be 0 or more",
    ),
    (
        "setup.deck_levels",
        setup(decks={4: [], 0: []}),
        "decks lists level [0, 4]: the levels are 1, 2, 3",
    ),
    (
        "setup.deck_wrong_cards",
        setup(decks={1: [*LEVEL_1[:39], "2-01"]}),
        "the level 1 deck lists cards that are not level 1: 2-01 (level 2)",
    ),
    (
        "setup.deck_wrong_cards",
        setup(decks={1: ["9-99", *LEVEL_1[:38], "3-04"]}),
        "the level 1 deck lists cards that are not level 1: 9-99 (no such card), 3-04 (level 3)",
    ),
    (
        "setup.deck_twice",
        setup(decks={1: [*LEVEL_1, LEVEL_1[3], LEVEL_1[1]]}),
        "the level 1 deck lists 1-02, 1-04 more than once",
    ),
    (
        "setup.deck_missing",
        setup(decks={1: LEVEL_1[:37]}),
        "the level 1 deck must list all 40 level 1 cards; missing: 1-38, 1-39, 1-40",
    ),
    (
        "setup.noble_unknown",
        setup(nobles=["N1", "N11", "Q"]),
        "no such noble: N11, Q (nobles are N1 … N10)",
    ),
    (
        "setup.noble_twice",
        setup(nobles=["N1", "N2", "N1"]),
        "nobles ['N1', 'N2', 'N1'] name a noble more than once",
    ),
    (
        "setup.noble_count",
        setup(nobles=["N1", "N2"]),
        "2 players play with 3 nobles revealed, not 2",
    ),
    (
        "setup.bank_colour",
        setup(bank={"purple": 2}),
        "bank lists 'purple': the colours are white, blue, green, red, black, gold",
    ),
    (
        "setup.bank_count",
        setup(bank={"red": -1}),
        "bank red = -1: a token count is a whole number, 0 or more",
    ),
    (
        "setup.bank_count",
        setup(bank={"red": "4"}),
        "bank red = '4': a token count is a whole number, 0 or more",
    ),
    (
        "setup.bank_gold",
        setup(bank={"gold": 3}),
        (
            "the bank has 3 gold but the rule option gold is 5: set the gold option to 3 or "
            "leave gold out of the bank"
        ),
    ),
]


def refusal(raises: Callable[[], object]) -> RefereeError:
    with pytest.raises(RefereeError) as caught:
        raises()
    return caught.value


CASES = [pytest.param(code, raises, said, id=code) for code, raises, said in REFUSALS]


@pytest.mark.parametrize(("code", "raises", "said"), CASES)
def test_each_refusal_is_a_code_of_the_catalogue_and_says_todays_sentence(
    code: str, raises: Callable[[], object], said: str
) -> None:
    err = refusal(raises)
    assert isinstance(err, IllegalMoveError | SetupError)
    assert err.code == code
    assert lookup(code).code == code
    assert str(err) == err.message == said


@pytest.mark.parametrize(("code", "raises", "said"), CASES)
def test_each_refusals_parameters_are_json_and_say_the_same_after_a_round_trip(
    code: str, raises: Callable[[], object], said: str
) -> None:
    err = refusal(raises)
    sent = json.loads(json.dumps(err.params))
    assert set(sent) == set(lookup(code).params)
    assert english(code, sent) == said


def _codes_said(params: Mapping[str, Any]) -> Iterator[str]:
    """The codes of the messages within ``params`` (a message's JSON: code and params)."""
    for value in params.values():
        if isinstance(value, Mapping) and set(value) == {"code", "params"}:
            yield str(value["code"])
            yield from _codes_said(value["params"])


def _codes_in_the_engine() -> set[str]:
    """Every code the engine's source names: each string that is a catalogue-shaped code
    given to ``.of(`` or as a message's ``"code"``."""
    codes: set[str] = set()
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "of"
                and node.args
            ):
                first = node.args[0]
                assert isinstance(first, ast.Constant), f"{path.name}: a code not written out"
                codes.add(str(first.value))
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "code":
                        assert isinstance(value, ast.Constant), f"{path.name}: a code not written"
                        codes.add(str(value.value))
    return codes


def test_every_code_the_engine_says_is_in_the_catalogue_and_pinned_here() -> None:
    named = _codes_in_the_engine()
    assert all(re.fullmatch(r"[a-z]+(\.[a-z_]+)+", code) for code in named), named
    assert named <= set(CATALOGUE), sorted(named - set(CATALOGUE))
    pinned = {code for code, _raises, _said in REFUSALS}
    for _code, raises, _said in REFUSALS:
        pinned |= set(_codes_said(refusal(raises).params))
    assert named == pinned, sorted(named ^ pinned)


def test_every_engine_entry_says_exactly_its_parameters_in_each_form() -> None:
    for code in _codes_in_the_engine():
        found = lookup(code)
        assert found.when, code
        for text in (found.text, found.plural):
            if text is not None:
                assert fields(text) == set(found.params), code


def test_a_noble_that_cannot_be_refused_visits_and_two_visit() -> None:
    one = refusal(move(lambda: nobles_due("N4"), Take(T(red=1, green=1, blue=1))))
    two = refusal(move(lambda: nobles_due("N4", "N9"), Take(T(red=1, green=1, blue=1))))
    assert str(one).startswith("N4 visits at the end")
    assert str(two).startswith("one of N4 and N9 visits at the end")
    assert str(two).endswith("add noble N4 or noble N9")


def test_every_raise_in_the_engine_is_coded() -> None:
    """Each of the engine's refusals is made with ``.of(code, ...)``, never from a sentence:
    raised at once (``raise IllegalMoveError.of(...)``), or made so by a helper that says it
    returns one (``raise _over(state, move)``). Other errors (KeyError, ValueError) are
    mistakes of the calling code, not refusals, and may stay sentences."""
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        helpers = {
            node.name: ast.unparse(node.returns) if node.returns else ""
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef)
        }
        for node in ast.walk(tree):
            where = f"{path.name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call):
                func = node.func
                assert not (isinstance(func, ast.Name) and func.id in CODED), f"{where}: a sentence"
                if (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.value.id in CODED
                ):
                    assert func.attr == "of", f"{where}: {func.value.id}.{func.attr}"
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                if isinstance(func, ast.Name) and func.id in helpers:
                    assert helpers[func.id] in CODED, f"{where}: {func.id} makes no coded error"
