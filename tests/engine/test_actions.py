"""The five actions of a turn (docs/rules.md: A turn)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.engine import Buy, GameState, Move, Pass, Reserve, Take, apply, legal_moves
from referee.engine.rules import default_payment, payments
from referee.errors import IllegalMoveError
from tests.positions import bank, cards_of_colour, dealt, holding, new_game

T = bank  # token counts by colour name


# -- 1. Take 3 gem tokens of 3 different colours ------------------------------------------------


def test_take_three_different_colours_moves_them_from_bank_to_player() -> None:
    state = new_game(2)
    after = apply(state, Take(T(red=1, green=1, blue=1)))
    assert after.players[0].tokens == T(red=1, green=1, blue=1)
    assert after.bank == T(white=4, blue=3, green=3, red=3, black=4, gold=5)
    assert after.to_move == 1 and after.turn == 1


@pytest.mark.parametrize(
    ("gems", "message"),
    [
        (T(red=1, green=1), "too few: the bank has white, blue, green, red, black"),
        (T(red=1), "too few"),
        (T(red=1, green=1, blue=1, white=1), "too many"),
        (T(red=2, green=1), "not a take"),
        (T(red=3), "not a take"),
        (T(), "too few"),
    ],
)
def test_take_must_be_three_different_colours_when_the_bank_has_three(
    gems: tuple[int, ...], message: str
) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        apply(new_game(2), Take(gems))  # type: ignore[arg-type]


def test_take_one_of_each_colour_left_when_fewer_than_three_colours_have_tokens() -> None:
    state = replace(new_game(2), bank=T(red=3, green=1, gold=5))
    takes = {m.gems for m in legal_moves(state) if isinstance(m, Take)}
    assert takes == {T(red=1, green=1)}
    with pytest.raises(
        IllegalMoveError, match=r"take one of each colour the bank has \(green, red\)"
    ):
        apply(state, Take(T(red=1)))
    lone = replace(new_game(2), bank=T(blue=2, gold=5))
    assert {m.gems for m in legal_moves(lone) if isinstance(m, Take)} == {T(blue=1)}


def test_take_never_gold() -> None:
    with pytest.raises(IllegalMoveError, match="gold cannot be taken"):
        apply(new_game(2), Take(T(red=1, green=1, gold=1)))
    assert all(m.gems[5] == 0 for m in legal_moves(new_game(2)) if isinstance(m, Take))


def test_take_a_colour_the_bank_has_none_of_is_refused() -> None:
    state = replace(new_game(2), bank=T(white=4, blue=4, green=4, red=0, black=4, gold=5))
    with pytest.raises(IllegalMoveError, match="the bank has none red left"):
        apply(state, Take(T(red=1, green=1, blue=1)))


# -- 2. Take 2 gem tokens of one colour ---------------------------------------------------------


def test_take_two_of_a_colour_when_the_bank_has_at_least_four() -> None:
    after = apply(new_game(2), Take(T(red=2)))
    assert after.players[0].tokens == T(red=2) and after.bank[3] == 2


def test_take_two_of_a_colour_is_refused_with_three_in_the_bank() -> None:
    state = replace(new_game(2), bank=T(white=4, blue=4, green=4, red=3, black=4, gold=5))
    with pytest.raises(
        IllegalMoveError, match="at least 4 red in the bank before taking; it has 3"
    ):
        apply(state, Take(T(red=2)))
    assert T(red=2) not in {m.gems for m in legal_moves(state) if isinstance(m, Take)}


# -- 3. Reserve ---------------------------------------------------------------------------------


def test_reserve_a_face_up_card_gives_one_gold_and_refills_the_slot_from_its_deck() -> None:
    state = dealt(2, top={2: ["2-01", "2-02", "2-03", "2-04", "2-05"]})
    after = apply(state, Reserve(card="2-02"))
    me = after.players[0]
    assert [(r.card, r.blind) for r in me.reserved] == [("2-02", False)]
    assert me.tokens == T(gold=1) and after.bank[5] == 4
    assert after.board[1] == ("2-01", "2-05", "2-03", "2-04")
    assert len(after.decks[1]) == len(state.decks[1]) - 1


def test_reserve_the_top_card_of_a_deck_blind() -> None:
    state = new_game(2)
    top = state.decks[2][0]
    after = apply(state, Reserve(deck=3))
    assert [(r.card, r.blind) for r in after.players[0].reserved] == [(top, True)]
    assert after.decks[2] == state.decks[2][1:] and after.board == state.board


def test_reserve_with_no_gold_left_is_allowed_and_gives_nothing() -> None:
    state = replace(new_game(2), bank=T(white=4, blue=4, green=4, red=4, black=4))
    after = apply(state, Reserve(deck=1))
    assert after.players[0].tokens == T() and len(after.players[0].reserved) == 1


def test_reserve_is_refused_holding_three_reserved_cards() -> None:
    state = new_game(2)
    for _ in range(3):
        state = apply(state, Reserve(deck=1))
        state = apply(state, Take(T(white=1, blue=1, green=1)))
    assert len(state.players[0].reserved) == 3
    with pytest.raises(IllegalMoveError, match="already hold 3 reserved cards"):
        apply(state, Reserve(deck=2))
    assert not any(isinstance(m, Reserve) for m in legal_moves(state))


def test_reserve_from_an_empty_deck_is_refused() -> None:
    state = replace(new_game(2), decks=((), new_game(2).decks[1], ()))
    with pytest.raises(IllegalMoveError, match="the level 3 deck is empty"):
        apply(state, Reserve(deck=3))
    assert {m.deck for m in legal_moves(state) if isinstance(m, Reserve) and m.deck} == {2}


def test_reserve_a_card_that_is_not_face_up_is_refused() -> None:
    state = new_game(2)
    hidden = state.decks[0][0]
    with pytest.raises(IllegalMoveError, match=f"{hidden} is not face up on the board"):
        apply(state, Reserve(card=hidden))


def test_reserved_cards_cannot_be_discarded_or_returned() -> None:
    state = holding(new_game(2), tokens_=T(white=4, blue=3, green=3), reserved=[("1-01", False)])
    moves = legal_moves(state)
    kept = [m for m in moves if not (isinstance(m, Buy) and m.card == "1-01")]
    for move in kept:
        assert [r.card for r in apply(state, move).players[0].reserved][:1] == ["1-01"]


# -- 4. Buy ---------------------------------------------------------------------------------------


def test_buy_pays_the_cost_less_bonuses_and_spent_tokens_go_back_to_the_bank() -> None:
    # 1-12 costs 1 white and 2 black; a white bonus makes it 2 black.
    state = dealt(2, top={1: ["1-12", "1-02", "1-03", "1-04", "1-05"]})
    state = holding(state, tokens_=T(black=3), cards=["1-01"])
    before_bank = state.bank
    after = apply(state, Buy("1-12", T(black=2)))
    me = after.players[0]
    assert me.tokens == T(black=1) and me.cards == ("1-01", "1-12")
    assert me.bonuses == (1, 1, 0, 0, 0) and after.bank[4] == before_bank[4] + 2
    assert after.board[0] == ("1-05", "1-02", "1-03", "1-04")


def test_buy_bonuses_never_make_a_cost_below_zero() -> None:
    # 1-06 costs 3 blue; five blue bonuses leave nothing to pay, not a credit.
    state = dealt(2, top={1: ["1-06", "1-02", "1-03", "1-04"]})
    state = holding(state, cards=["1-09", "1-10", "1-11", "1-12", "1-13"])
    assert [m.pay for m in legal_moves(state) if isinstance(m, Buy) and m.card == "1-06"] == [T()]
    assert apply(state, Buy("1-06", T())).players[0].tokens == T()


def test_buy_gold_stands_in_for_missing_tokens() -> None:
    state = dealt(2, top={1: ["1-12", "1-02", "1-03", "1-04"]})
    state = holding(state, tokens_=T(white=1, black=1, gold=1))
    after = apply(state, Buy("1-12", T(white=1, black=1, gold=1)))
    assert after.players[0].tokens == T() and after.bank[5] == 6


def test_buy_gold_may_stand_in_for_a_colour_the_player_holds() -> None:
    state = dealt(2, top={1: ["1-12", "1-02", "1-03", "1-04"]})
    state = holding(state, tokens_=T(white=1, black=2, gold=2))
    pays = {m.pay for m in legal_moves(state) if isinstance(m, Buy) and m.card == "1-12"}
    assert pays == {
        T(white=1, black=2),
        T(black=2, gold=1),
        T(white=1, black=1, gold=1),
        T(black=1, gold=2),
        T(white=1, gold=2),
    }
    assert apply(state, Buy("1-12", T(white=1, gold=2))).players[0].tokens == T(black=2)


def test_buy_each_distinct_payment_is_listed_once() -> None:
    pays = payments((1, 0, 0, 0, 2), T(white=1, black=2, gold=2))
    assert len(pays) == len(set(pays)) == 5


def test_buy_without_a_payment_pays_coloured_tokens_first_then_gold() -> None:
    assert default_payment((1, 0, 0, 0, 2), T(white=1, black=1, gold=2)) == T(
        white=1, black=1, gold=1
    )


def test_buy_unaffordable_names_the_shortfall_per_colour_after_bonuses_tokens_and_gold() -> None:
    # 1-17 costs 3 red; with one red bonus and one red token the player is 1 red short.
    state = dealt(2, top={1: ["1-17", "1-02", "1-03", "1-04"]})
    state = holding(state, tokens_=T(red=1), cards=cards_of_colour("red", 1))
    with pytest.raises(IllegalMoveError) as err:
        apply(state, Buy("1-17", T(red=1)))
    assert str(err.value) == (
        "you cannot afford 1-17: it costs 3 red; after your bonuses (1 red) you need 2 red and "
        "hold 1 red and 0 gold, short by 1 red: 1 gold would be needed"
    )


@pytest.mark.parametrize(
    ("pay", "message"),
    [
        (T(white=1, black=2, gold=1), "leaves 0 to pay in gold, not 1"),
        (T(white=2, black=2), "needs only 1 white"),
        (T(black=2, gold=1, red=1), "needs only 0 red"),
        (T(white=1, black=1), "leaves 1 to pay in gold, not 0"),
    ],
)
def test_buy_with_a_payment_that_does_not_match_the_cost_is_refused(
    pay: tuple[int, ...], message: str
) -> None:
    state = dealt(2, top={1: ["1-12", "1-02", "1-03", "1-04"]})
    state = holding(state, tokens_=T(white=2, black=2, red=1, gold=1))
    with pytest.raises(IllegalMoveError, match=message):
        apply(state, Buy("1-12", pay))  # type: ignore[arg-type]


def test_buy_a_reserved_card_takes_it_from_the_hand_and_leaves_the_board_alone() -> None:
    state = holding(new_game(2), tokens_=T(white=1, black=2), reserved=[("1-12", True)])
    after = apply(state, Buy("1-12", T(white=1, black=2)))
    assert after.players[0].reserved == () and after.players[0].cards == ("1-12",)
    assert after.board == state.board and after.decks == state.decks


def test_buy_another_players_reserved_card_is_refused() -> None:
    state = holding(new_game(2), 1, reserved=[("1-12", False)])
    state = holding(state, 0, tokens_=T(white=1, black=2))
    with pytest.raises(IllegalMoveError, match="1-12 is not face up on the board nor among"):
        apply(state, Buy("1-12", T(white=1, black=2)))


def test_buy_from_a_slot_whose_deck_is_empty_leaves_the_slot_empty() -> None:
    state = dealt(2, top={1: ["1-12", "1-02", "1-03", "1-04"]})
    state = holding(
        replace(state, decks=((), state.decks[1], state.decks[2])), tokens_=T(white=1, black=2)
    )
    after = apply(state, Buy("1-12", T(white=1, black=2)))
    assert after.board[0] == (None, "1-02", "1-03", "1-04")
    assert not any(isinstance(m, Reserve) and m.deck == 1 for m in legal_moves(after))


# -- 5. Pass ---------------------------------------------------------------------------------------


def test_pass_is_refused_while_another_action_is_possible() -> None:
    with pytest.raises(IllegalMoveError, match="cannot pass while another action is possible"):
        apply(new_game(2), Pass())
    assert not any(isinstance(m, Pass) for m in legal_moves(new_game(2)))


def stuck() -> tuple[GameState, list[Move]]:
    """A position where the player to move can do nothing: no gems in the bank, three reserved
    cards they cannot afford, no affordable face-up card."""
    state = new_game(2)
    state = replace(state, bank=T(gold=5))
    state = holding(state, reserved=[("3-01", False), ("3-02", False), ("3-03", False)])
    return state, legal_moves(state)


def test_pass_is_the_only_move_when_nothing_else_is_possible() -> None:
    state, moves = stuck()
    assert moves == [Pass()]
    after = apply(state, Pass())
    assert after.to_move == 1 and after.passes == 1 and after.status == "playing"
