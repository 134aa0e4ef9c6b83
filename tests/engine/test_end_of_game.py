"""The end of the game and the winners (docs/rules.md: End of the game)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.engine import GameState, Pass, Rules, Take, apply, legal_moves, outcome
from referee.errors import IllegalMoveError
from tests.positions import bank, holding, new_game

T = bank
TAKE = Take(T(white=1, blue=1, green=1))
# Level-3 cards worth 5 points: enough prestige in three cards to pass 15.
FIFTEEN = ["3-04", "3-08", "3-12"]


def with_points(state: GameState, seat: int, cards: list[str]) -> GameState:
    return holding(state, seat, cards=cards)


def test_reaching_the_target_starts_the_last_round_and_play_goes_on_to_the_last_seat() -> None:
    state = with_points(new_game(3), 0, FIFTEEN)
    assert state.players[0].points >= 15
    after = apply(state, TAKE)
    assert after.status == "last_round" and after.to_move == 1
    after = apply(after, TAKE)
    assert after.status == "last_round" and after.to_move == 2
    after = apply(after, TAKE)
    assert after.status == "finished" and after.turn == 3
    assert legal_moves(after) == [] and outcome(after) == ["alice"]
    with pytest.raises(IllegalMoveError, match="the game is over"):
        apply(after, TAKE)


def test_the_last_seat_reaching_the_target_ends_the_game_at_once() -> None:
    state = apply(new_game(2), TAKE)
    state = with_points(state, 1, FIFTEEN)
    after = apply(state, TAKE)
    assert after.status == "finished" and outcome(after) == ["bob"]


def test_points_are_only_checked_at_the_end_of_a_turn_of_the_player_who_moved() -> None:
    # bob holds 15 points already, but the last round starts only when a turn ends there.
    state = with_points(new_game(2), 1, FIFTEEN)
    assert apply(state, TAKE).status == "playing"


def test_points_to_win_is_a_rule_option() -> None:
    state = with_points(new_game(2, rules=Rules(points_to_win=5)), 0, ["3-04"])
    assert apply(state, TAKE).status == "last_round"
    state = with_points(new_game(2, rules=Rules(points_to_win=21)), 0, FIFTEEN)
    assert apply(state, TAKE).status == "playing"


def test_every_player_passing_one_after_another_ends_the_game() -> None:
    state = replace(new_game(3), bank=T(gold=0), board=((None,) * 4,) * 3, decks=((), (), ()))
    reserved = [("3-01", False), ("3-02", False), ("3-03", False)]
    for seat in range(3):
        state = holding(state, seat, reserved=reserved)
    state = apply(state, Pass())
    state = apply(state, Pass())
    assert state.status == "playing" and state.passes == 2
    state = apply(state, Pass())
    assert state.status == "finished"
    assert outcome(state) == ["alice", "bob", "carol"]


def test_a_move_between_passes_starts_the_count_again() -> None:
    state = replace(new_game(2), bank=T(gold=0), board=((None,) * 4,) * 3, decks=((), (), ()))
    state = holding(state, 0, reserved=[("3-01", False), ("3-02", False), ("3-03", False)])
    state = holding(state, 1, reserved=[("3-04", False), ("3-05", False)])
    state = apply(state, Pass())
    state = replace(state, bank=T(red=1))
    state = apply(state, Take(T(red=1)))  # bob can take the last red
    assert state.passes == 0 and state.status == "playing"


def finished(points_and_cards: list[tuple[int, int]]) -> GameState:
    """A finished game whose players have the given (points, cards bought)."""
    state = new_game(len(points_and_cards))
    players = tuple(
        replace(p, points=points, cards=tuple(f"1-{i + 1:02d}" for i in range(cards)))
        for p, (points, cards) in zip(state.players, points_and_cards, strict=True)
    )
    return replace(state, players=players, status="finished")


def test_winner_has_the_most_points() -> None:
    assert outcome(finished([(15, 9), (16, 12), (14, 3)])) == ["bob"]


def test_tie_on_points_goes_to_fewest_purchased_cards() -> None:
    assert outcome(finished([(16, 9), (16, 8), (14, 3)])) == ["bob"]


def test_tie_on_points_and_cards_shares_the_win() -> None:
    assert outcome(finished([(16, 8), (12, 2), (16, 8), (16, 9)])) == ["alice", "carol"]


def test_there_are_no_winners_before_the_end() -> None:
    assert outcome(with_points(new_game(2), 0, FIFTEEN)) == []
