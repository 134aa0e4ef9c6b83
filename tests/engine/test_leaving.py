"""Leaving a game (docs/rules.md: Leaving a game; docs/interface.md: Time): resigning, their
turn or not."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from referee.engine import (
    GameState,
    Pass,
    Reserve,
    Resign,
    Take,
    apply,
    legal_moves,
    outcome,
    view,
)
from referee.errors import IllegalMoveError, MoveError
from tests.positions import bank, holding, new_game

T = bank
TAKE = Take(T(white=1, blue=1, green=1))
# Level-3 cards worth 5 points: enough prestige in three cards to pass 15.
FIFTEEN = ["3-04", "3-08", "3-12"]
ALICE, BOB, CAROL, DAVE = range(4)


def stuck(players: int) -> GameState:
    """A position where nobody can do anything but pass: no tokens, no cards to buy or
    reserve, every hand of reserved cards full and unaffordable."""
    state = replace(new_game(players), bank=T(gold=0), board=((None,) * 4,) * 3, decks=((), (), ()))
    for seat in range(players):
        first = 3 * seat + 1
        reserved = [(f"3-{n:02d}", False) for n in range(first, first + 3)]
        state = holding(state, seat, reserved=reserved)
    return state


def test_resigning_out_of_turn_keeps_the_player_to_move_and_counts_as_a_turn() -> None:
    state = new_game(3)
    after = apply(state, Resign(BOB))
    assert after.to_move == ALICE and after.turn == 1 and after.resigned == (BOB,)
    assert after.status == "playing"


def test_resigning_on_your_turn_passes_the_turn_to_the_next_player_still_in() -> None:
    state = apply(new_game(3), Resign(ALICE))
    assert state.to_move == BOB and state.turn == 1
    state = apply(new_game(4), Resign(CAROL))
    state = apply(state, TAKE)  # alice
    state = apply(state, TAKE)  # bob: carol is passed over
    assert state.to_move == DAVE
    state = apply(state, Resign(DAVE))
    assert state.to_move == ALICE and state.still_in() == [ALICE, BOB]


def test_turns_pass_over_resigned_players_going_round() -> None:
    state = apply(new_game(4), Resign(ALICE))
    state = apply(state, Resign(DAVE))
    assert state.to_move == BOB
    state = apply(apply(state, TAKE), TAKE)
    assert state.to_move == BOB, "after carol the turn goes round past dave and alice to bob"


def test_a_resigning_player_s_tokens_gold_included_go_back_to_the_bank() -> None:
    state = holding(new_game(2), BOB, tokens_=T(red=2, black=1, gold=1))
    state = replace(state, bank=T(white=4, blue=4, green=4, red=2, black=3, gold=4))
    after = apply(state, Resign(BOB))
    assert after.players[BOB].tokens == T()
    assert after.bank == T(white=4, blue=4, green=4, red=4, black=4, gold=5)


def test_reserved_cards_leave_the_game_face_down_and_no_view_ever_shows_them() -> None:
    state = new_game(3)
    secret = state.decks[2][0]
    face_up = state.board[0][0]
    state = apply(state, Reserve(deck=3))  # alice, blind
    state = apply(state, Reserve(card=face_up))  # bob, face up
    assert face_up is not None
    state = apply(state, Resign(ALICE))  # out of turn: carol is to move
    assert state.players[ALICE].reserved == () and state.left == (secret,)
    assert state.to_move == CAROL
    for viewer in (None, "alice", "bob", "carol"):
        shown = view(state, viewer)
        assert shown.players[ALICE].reserved == ()
        assert f'"{secret}"' not in json.dumps(shown.to_json("g1"))
    state = apply(state, Resign(BOB))  # the last player standing: the game ends
    assert state.left == (secret, face_up) and state.status == "finished"
    assert outcome(state) == ["carol"]


def test_bought_cards_and_nobles_stay_with_a_resigned_player() -> None:
    state = holding(new_game(3), BOB, cards=FIFTEEN, nobles=["N1"])
    after = apply(state, Resign(BOB))
    assert after.players[BOB].cards == tuple(FIFTEEN) and after.players[BOB].nobles == ("N1",)
    assert view(after).players[BOB].resigned and not view(after).players[ALICE].resigned
    assert view(after).to_json()["players"][BOB]["resigned"] is True


def test_a_resigned_player_never_wins_even_with_the_most_points() -> None:
    state = holding(new_game(3), ALICE, cards=FIFTEEN)
    state = apply(state, TAKE)  # alice reaches 15: the last round
    assert state.status == "last_round"
    state = apply(state, Resign(ALICE))
    state = apply(apply(state, TAKE), TAKE)
    assert state.status == "finished"
    assert "alice" not in outcome(state) and outcome(state) == ["bob", "carol"]


def test_the_last_player_standing_wins_at_once() -> None:
    state = holding(new_game(2), BOB, cards=FIFTEEN)
    after = apply(state, Resign(BOB))
    assert after.status == "finished" and outcome(after) == ["alice"]
    assert legal_moves(after) == [] and view(after).to_move is None
    state = apply(apply(new_game(4), Resign(BOB)), Resign(ALICE))
    assert state.status == "playing" and state.to_move == CAROL
    state = apply(state, Resign(CAROL))
    assert state.status == "finished" and outcome(state) == ["dave"] and state.turn == 3


def test_the_last_round_ends_after_the_last_seat_still_in_has_moved() -> None:
    state = holding(new_game(4), ALICE, cards=FIFTEEN)
    state = apply(state, TAKE)  # alice reaches 15
    state = apply(state, Resign(DAVE))  # dave leaves while bob is to move
    assert state.status == "last_round" and state.to_move == BOB
    state = apply(state, TAKE)  # bob
    assert state.status == "last_round"
    state = apply(state, TAKE)  # carol, the last seat still in
    assert state.status == "finished" and outcome(state) == ["alice"]


def test_the_last_seat_resigning_on_its_turn_in_the_last_round_ends_the_game() -> None:
    state = apply(new_game(3), TAKE)  # alice
    state = holding(state, BOB, cards=FIFTEEN)
    state = apply(state, TAKE)  # bob reaches 15; carol is the last to move
    assert state.status == "last_round" and state.to_move == CAROL
    after = apply(state, Resign(CAROL))
    assert after.status == "finished" and outcome(after) == ["bob"]


def test_resigning_on_your_turn_in_the_last_round_leaves_the_round_to_the_others() -> None:
    state = holding(new_game(4), ALICE, cards=FIFTEEN)
    state = apply(state, TAKE)
    state = apply(state, Resign(BOB))
    assert state.status == "last_round" and state.to_move == CAROL
    state = apply(state, TAKE)  # carol
    assert state.status == "last_round" and state.to_move == DAVE
    assert apply(state, TAKE).status == "finished"


def test_the_player_who_reached_the_target_may_resign_and_the_round_still_ends() -> None:
    state = holding(new_game(3), BOB, cards=FIFTEEN)
    state = apply(apply(state, TAKE), TAKE)  # alice; bob reaches 15
    state = apply(state, Resign(BOB))
    assert state.status == "last_round" and state.to_move == CAROL
    state = apply(state, TAKE)
    assert state.status == "finished" and "bob" not in outcome(state)


def test_passes_in_a_row_end_the_game_when_every_player_still_in_has_passed() -> None:
    state = apply(stuck(3), Resign(CAROL))
    state = apply(state, Pass())
    assert state.status == "playing" and state.passes == 1
    state = apply(state, Pass())
    assert state.status == "finished" and outcome(state) == ["alice", "bob"]


def test_the_passes_of_the_others_end_the_game_when_the_player_to_move_resigns() -> None:
    state = apply(apply(stuck(3), Pass()), Pass())
    state = apply(state, Resign(CAROL))
    assert state.status == "finished" and outcome(state) == ["alice", "bob"]


def test_a_resigned_player_s_own_pass_no_longer_counts_in_the_passes_in_a_row() -> None:
    state = apply(apply(stuck(3), Pass()), Pass())  # alice and bob pass; carol to move
    state = apply(state, Resign(ALICE))
    assert state.status == "playing" and state.passes == 1 and state.to_move == CAROL
    state = apply(state, Pass())  # carol: now bob and carol, both still in, have passed
    assert state.status == "finished"


def test_a_resignation_neither_is_a_pass_nor_breaks_the_passes_in_a_row() -> None:
    state = apply(stuck(4), Pass())  # alice
    state = apply(state, Resign(DAVE))  # dave leaves while bob is to move
    assert state.passes == 1
    state = apply(apply(state, Pass()), Pass())  # bob, carol
    assert state.status == "finished"


def test_resigning_twice_is_refused_naming_the_player() -> None:
    state = apply(new_game(3), Resign(BOB))
    with pytest.raises(IllegalMoveError, match=r"bob has resigned already.*alice, carol"):
        apply(state, Resign(BOB))


def test_resigning_after_the_end_is_refused() -> None:
    state = apply(new_game(2), Resign(BOB))
    with pytest.raises(IllegalMoveError, match="the game is over: alice cannot resign"):
        apply(state, Resign(ALICE))


def test_a_seat_that_is_not_in_the_game_cannot_resign() -> None:
    with pytest.raises(IllegalMoveError, match="there is no seat 5: the seats are 0 to 2"):
        apply(new_game(3), Resign(5))


def test_resigning_is_never_listed_as_a_legal_move_but_always_applies() -> None:
    state = new_game(2)
    assert not any(isinstance(m, Resign) for m in legal_moves(state))
    assert apply(state, Resign(ALICE)).status == "finished"
    assert issubclass(IllegalMoveError, MoveError)
