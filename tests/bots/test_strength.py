"""The bots play to win: greedy beats random, and search finds a winning buy."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from referee.bots import choose
from referee.engine import Buy, apply, outcome, view
from referee.wording import ENGLISH
from tests.positions import bank, dealt, holding, new_game, without_cards

NAMES = ("alice", "bob")


def test_greedy_beats_random_in_nearly_every_game() -> None:
    """Greedy won 197 of 200 benchmark games against random: with p = 0.98, 15 or more wins
    in 20 fails about once in 10**6 runs (and random cannot reach it by luck)."""
    wins = 0
    for game in range(20):
        state = new_game(2, 1000 + game)
        levels = ("greedy", "random") if game % 2 == 0 else ("random", "greedy")
        while state.status != "finished" and state.turn < 300:
            seat = state.to_move
            rng = random.Random(f"{game}/{state.turn}")
            state = apply(state, choose(levels[seat], view(state, NAMES[seat]), rng).move)
        greedy = NAMES[levels.index("greedy")]
        wins += outcome(state) == [greedy]
    assert wins >= 15


def test_search_finds_the_buy_that_wins_the_game() -> None:
    """Bob, last to move in the round, has 13 points and can buy 2-03 (2 points, 5 red):
    that ends the game with him ahead of alice's 14. Anything else most likely loses, as
    alice needs a single point."""
    alice_cards, bob_cards = ["3-04", "3-08", "3-07"], ["3-12", "3-10", "3-02"]
    state = without_cards(dealt(2, top={2: ["2-03"]}, seed=8), alice_cards + bob_cards)
    state = holding(state, 0, cards=alice_cards)
    state = holding(state, 1, cards=bob_cards, tokens_=bank(white=1, blue=1, red=5, black=1))
    state = replace(state, to_move=1, turn=1)
    assert (state.players[0].points, state.players[1].points) == (14, 13)
    choice = choose("search", view(state, "bob"), 3, 300)
    assert choice.move == Buy("2-03", bank(red=5))
    assert ENGLISH.say(choice.why).startswith("buys 2-03: 2 points")
    after = apply(state, choice.move)
    assert after.status == "finished" and outcome(after) == ["bob"]


def test_search_stops_when_its_time_is_up_and_still_plays_a_legal_move() -> None:
    state = new_game(4, 9)
    began = time.perf_counter()
    choice = choose("search", view(state, "alice"), 1, 10**9, seconds=0.2)
    assert time.perf_counter() - began < 2
    apply(state, choice.move)


def test_a_search_budget_is_a_positive_number_of_playouts() -> None:
    with pytest.raises(ValueError, match="playouts"):
        choose("search", view(new_game(2), "alice"), 1, 0)
