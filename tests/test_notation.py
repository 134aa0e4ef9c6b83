"""Move notation: every form, the three errors, the canonical round trip, arbitrary text."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import (
    Buy,
    GameState,
    Pass,
    Reserve,
    Resign,
    Take,
    apply,
    legal_moves,
    move_json,
)
from referee.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, MoveError
from referee.notation import format_move, parse, parse_request, request_from_json
from tests.positions import bank, cards_of_colour, dealt, holding, new_game, playout

T = bank
LEVEL_ONE = ["1-12", "1-02", "1-03", "1-04", "1-05"]


def board() -> GameState:
    return dealt(2, top={1: LEVEL_ONE, 2: ["2-07", "2-01", "2-02", "2-03"]})


@pytest.mark.parametrize(
    "text",
    [
        "take red green blue",
        "TAKE Red, Green, Blue",
        "take ruby emerald sapphire",
        "take r g u",
        "take rgu",
        "take red\ngreen\nblue",
        "take rubies, emeralds and sapphires.",
        "Take: red, green, blue!",
        "take red + green + blue",
        "take red & green & blue",
    ],
)
def test_take_three_written_any_way_is_one_move(text: str) -> None:
    assert parse(board(), text) == Take(T(red=1, green=1, blue=1))


def test_a_plus_alone_between_colours_returned_is_and() -> None:
    request = parse_request("prenas w u k, redonas g + r")
    assert request.returned == (0, 0, 1, 1, 0, 0)


@pytest.mark.parametrize("text", ["take 2 red", "take red red", "take two rubies", "take 2 r"])
def test_take_two_of_a_colour(text: str) -> None:
    assert parse(board(), text) == Take(T(red=2))


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("reserve 2-07", Reserve(card="2-07")),
        ("reserve 2-7", Reserve(card="2-07")),
        ("Reserve card 2-07", Reserve(card="2-07")),
        ("reserve deck 3", Reserve(deck=3)),
        ("reserve level 3", Reserve(deck=3)),
        ("reserve the top of deck 1", Reserve(deck=1)),
    ],
)
def test_reserve_a_face_up_card_or_from_a_deck(text: str, move: Reserve) -> None:
    assert parse(board(), text) == move


def test_buy_names_the_card_and_optionally_the_payment() -> None:
    state = holding(board(), tokens_=T(white=1, black=2, gold=1))
    assert parse(state, "buy 1-12") == Buy("1-12", T(white=1, black=2))
    assert parse(state, "buy 1-12 pay 1 black 1 white 1 gold") == Buy(
        "1-12", T(white=1, black=1, gold=1)
    )
    assert parse(state, "buy 1-12 pay w k *") == Buy("1-12", T(white=1, black=1, gold=1))
    assert parse(state, "Purchase card 1-12") == Buy("1-12", T(white=1, black=2))


def test_buy_without_payment_pays_coloured_tokens_first_and_gold_for_the_rest() -> None:
    state = holding(board(), tokens_=T(black=1, gold=2))
    assert parse(state, "buy 1-12") == Buy("1-12", T(black=1, gold=2))


def test_a_move_may_span_lines_with_its_return_and_noble() -> None:
    state = holding(board(), tokens_=T(white=3, blue=3, black=3))
    move = parse(state, "take red green blue\nreturn 2 white")
    assert move == Take(T(red=1, green=1, blue=1), returned=T(white=2))
    assert parse(state, "take red green blue\n\nreturn white\nreturn white") == move


def test_return_and_noble_may_be_left_out_where_only_one_choice_fits() -> None:
    # Holding 9 red and taking 2 more, the only return is 1 red (a hand built for the test).
    state = holding(board(), tokens_=T(red=9))
    assert parse(state, "take 2 red") == Take(T(red=2), T(red=1))
    cards = cards_of_colour("white", 4) + cards_of_colour("black", 4)
    nobles = holding(dealt(2, nobles=["N4", "N1", "N2"]), cards=cards)
    assert parse(nobles, "take red green blue") == Take(T(red=1, green=1, blue=1), noble="N4")
    assert parse(nobles, "take red green blue noble 4") == Take(
        T(red=1, green=1, blue=1), noble="N4"
    )


def test_gold_is_written_gold_or_star() -> None:
    state = holding(board(), tokens_=T(white=4, black=3, red=3))
    assert parse(state, "reserve deck 2 return *") == Reserve(deck=2, returned=T(gold=1))
    assert parse(state, "reserve deck 2 return gold") == Reserve(deck=2, returned=T(gold=1))


def test_pass_is_written_pass() -> None:
    state = replace(new_game(2), bank=T(gold=5))
    state = holding(state, reserved=[("3-01", False), ("3-02", False), ("3-03", False)])
    assert parse(state, "Pass.") == Pass()


def test_json_moves_are_read_as_interface_md_writes_them() -> None:
    state = holding(board(), tokens_=T(white=1, black=2, gold=1))
    assert parse(state, '{"type": "buy", "card": "1-12"}') == Buy("1-12", T(white=1, black=2))
    for move in legal_moves(state):
        assert parse(state, json.dumps(move_json(move))) == move


# -- the three errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "no move found"),
        ("hello there", "a move starts with take, reserve, buy or pass, not 'hello'"),
        ("take", "'take' needs colours"),
        ("take purple", "'purple' is not a colour"),
        ("take b g r", "'b' could be blue or black"),
        ("take red buy 1-12", "one move at a time: found take and buy"),
        ("buy", "buy names one card"),
        ("buy 1-99", "there is no card 1-99"),
        ("buy 4-01", "'4-01' is not a card id"),
        ("reserve 3", "write 'reserve deck 3'"),
        ("reserve deck 4", "names its level"),
        ("take red pay 1 red", "'pay' goes with buy"),
        ("pass now", "pass takes nothing after it"),
        ("take red noble N11", "noble names one noble"),
        ("take 2", "2 of what?"),
        ("return red", "a move needs an action"),
        ('{"type": "fly"}', '"type" must be take, reserve, buy, pass or resign'),
        ("{not json", "not valid JSON"),
    ],
)
def test_text_that_is_not_notation_is_invalid_and_says_what_was_expected(
    text: str, expected: str
) -> None:
    with pytest.raises(InvalidMoveError, match=expected.replace("?", r"\?")) as err:
        parse(board(), text)
    assert err.value.text == text


def test_a_well_formed_move_the_rules_forbid_is_illegal_with_the_engines_reason() -> None:
    state = holding(board(), tokens_=T(black=1))
    with pytest.raises(IllegalMoveError, match=r"you cannot afford 1-12: .*short by") as err:
        parse(state, "buy 1-12")
    assert err.value.text == "buy 1-12"
    with pytest.raises(IllegalMoveError, match="taking 2 red needs at least 4 red"):
        parse(replace(state, bank=T(red=3, white=4, blue=4, green=4, black=4)), "take 2 red")


def test_a_move_for_the_wrong_player_is_illegal() -> None:
    with pytest.raises(IllegalMoveError, match="it is alice's turn, not bob's"):
        parse(board(), "take red green blue", player="bob")
    with pytest.raises(IllegalMoveError, match="no player called 'zed'"):
        parse(board(), "take red green blue", player="zed")
    assert parse(board(), "take red green blue", player="Alice")


def test_a_needed_return_left_out_is_ambiguous_and_lists_the_candidates() -> None:
    state = holding(board(), tokens_=T(white=3, blue=3, black=3))
    with pytest.raises(AmbiguousMoveError, match="you would hold 12 tokens: say which 2") as err:
        parse(state, "take red green blue")
    assert "take blue green red, return 2 white" in err.value.candidates
    assert all(parse(state, c).returned != T() for c in err.value.candidates)


def test_a_noble_choice_left_out_is_ambiguous() -> None:
    cards = cards_of_colour("white", 4) + cards_of_colour("black", 4) + cards_of_colour("blue", 3)
    state = holding(dealt(2, nobles=["N4", "N9", "N1"]), cards=cards)
    with pytest.raises(AmbiguousMoveError, match="choose one: noble N4 or noble N9") as err:
        parse(state, "take red green white")
    assert err.value.candidates == [
        "take white green red, noble N4",
        "take white green red, noble N9",
    ]


def test_a_return_given_when_none_is_needed_is_illegal() -> None:
    with pytest.raises(IllegalMoveError, match="returning tokens is only for a player above 10"):
        parse(board(), "take red green blue return red")


# -- canonical text ---------------------------------------------------------------------------


def test_canonical_text_examples() -> None:
    assert format_move(Take(T(red=1, green=1, blue=1))) == "take blue green red"
    assert format_move(Take(T(white=2), returned=T(gold=1))) == "take 2 white, return gold"
    assert format_move(Reserve(card="2-07")) == "reserve 2-07"
    assert format_move(Reserve(deck=3, returned=T(red=1))) == "reserve deck 3, return red"
    assert format_move(Buy("1-12", T(red=2, gold=1), noble="N4")) == (
        "buy 1-12 pay 2 red 1 gold, noble N4"
    )
    assert format_move(Buy("1-06", T())) == "buy 1-06 pay nothing"
    assert format_move(Pass()) == "pass"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_canonical_text_of_every_legal_move_parses_back_to_the_same_move(players: int) -> None:
    checked = 0
    for seed in range(3):
        for state, _, _ in playout(players, 500 + seed):
            for move in legal_moves(state):
                text = format_move(move)
                assert parse(state, text) == move, text
                assert parse_request(text).text == text
                checked += 1
    assert checked > 1000


# -- arbitrary input --------------------------------------------------------------------------

WORDS = st.sampled_from(
    [
        "take",
        "reserve",
        "buy",
        "pass",
        "return",
        "noble",
        "pay",
        "deck",
        "red",
        "gold",
        "*",
        "2",
        "3",
        "1-12",
        "2-07",
        "N4",
        "w",
        "u",
        "rgu",
        "and",
        ",",
        "\n",
        "{",
        "}",
        "b",
        "0",
    ]
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_the_three_move_errors(text: str) -> None:
    state = board()
    try:
        parse(state, text)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as err:
        assert str(err)


@settings(max_examples=600, deadline=None)
@given(st.lists(WORDS, max_size=12).map(" ".join))
def test_arbitrary_notation_like_text_raises_only_the_three_move_errors(text: str) -> None:
    state = holding(board(), tokens_=T(white=3, blue=3, black=3, gold=1))
    try:
        move = parse(state, text)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as err:
        assert str(err)
    else:
        assert move in legal_moves(state)


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=6),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(
                    ["type", "gems", "card", "deck", "pay", "return", "noble", "red", "x"]
                ),
                inner,
                max_size=4,
            )
        ),
        max_leaves=10,
    )
)
def test_arbitrary_json_raises_only_invalid_or_resolves(obj: object) -> None:
    try:
        request_from_json(obj)
    except InvalidMoveError as err:
        assert str(err)


def test_overlong_text_is_refused_before_it_is_read() -> None:
    with pytest.raises(MoveError, match="at most 2000 characters"):
        parse_request("take red " * 500)


# -- resigning --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "resign",
        "Resign.",
        "RESIGN",
        "I resign",
        "i resign!",
        '{"type": "resign"}',
        '{"type": "resign", "return": {}, "noble": null}',
    ],
)
def test_resign_is_the_writer_s_own_move_whoever_is_to_move(text: str) -> None:
    state = new_game(3)
    assert state.to_move == 0
    assert parse(state, text, "bob") == Resign(1)
    assert parse(state, text, "Carol") == Resign(2)
    assert parse(state, text) == Resign(0), "with no player named: the player to move"


def test_resign_has_one_canonical_text_and_a_bare_json_object() -> None:
    assert format_move(Resign(2)) == "resign"
    assert move_json(Resign(2)) == {"type": "resign"}
    state = new_game(3)
    assert parse(state, format_move(Resign(2)), "carol") == Resign(2)
    assert parse(state, json.dumps(move_json(Resign(2))), "carol") == Resign(2)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("resign now", "resign stands alone"),
        ("resign return red", "resign stands alone"),
        ("take red resign", "one move at a time: found take and resign"),
        ('{"type": "resign", "card": "1-01"}', "a resignation is just"),
    ],
)
def test_resign_stands_alone(text: str, expected: str) -> None:
    with pytest.raises(InvalidMoveError, match=expected):
        parse(new_game(2), text, "alice")


def test_other_moves_are_still_refused_when_it_is_not_your_turn() -> None:
    state = new_game(3)
    with pytest.raises(IllegalMoveError, match="it is alice's turn, not bob's"):
        parse(state, "take red green blue", "bob")


def test_a_resigned_player_can_neither_move_nor_resign_again() -> None:
    state = apply(new_game(3), Resign(1))
    with pytest.raises(IllegalMoveError, match="bob has resigned: they are out of the game"):
        parse(state, "take red green blue", "bob")
    with pytest.raises(IllegalMoveError, match="bob has resigned already") as err:
        parse(state, "resign", "bob")
    assert err.value.text == "resign"


def test_resigning_after_the_end_or_as_a_stranger_is_refused() -> None:
    over = apply(new_game(2), Resign(1))
    with pytest.raises(IllegalMoveError, match="the game is over: alice cannot resign"):
        parse(over, "resign", "alice")
    with pytest.raises(IllegalMoveError, match="no player called 'zed'"):
        parse(new_game(2), "resign", "zed")
