"""Positions for the bots' tests: seeded games of random bots (which take many tokens and
reserve often, blind too), with resignations in games of 3 and 4, and positions built by
hand for token returns, noble choices and blind reserved cards."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from referee.bots import choose
from referee.engine import GameState, Reserve, Resign, apply, view
from referee.engine.cards import NOBLES
from tests.positions import bank, bonuses_for, holding, new_game, without_cards


def random_positions(games: int, every: int = 7) -> Iterator[GameState]:
    """Every ``every``-th position of ``games`` seeded games of random bots, 2 to 4 players;
    in games of 3 and 4 a player resigns now and then (their turn or not)."""
    for seed in range(games):
        players = 2 + seed % 3
        state = new_game(players, seed)
        rng = random.Random(seed)
        while state.status != "finished" and state.turn < 300:
            if state.turn % every == every - 1:
                yield state
            if players > 2 and len(state.resigned) < players - 2 and rng.random() < 0.01:
                state = apply(state, Resign(rng.choice(state.still_in())))
                continue
            seen = view(state, state.player.name)
            state = apply(state, choose("random", seen, rng).move)


def returning() -> GameState:
    """Alice holds 9 tokens: most takes make her give some back."""
    return holding(new_game(2, 3), tokens_=bank(white=2, blue=2, green=2, red=2, black=1))


def at_ten_with_gold_left() -> GameState:
    """Alice holds 10 tokens: a reserve (which brings a gold) makes her give one back."""
    return holding(new_game(2, 4), tokens_=bank(white=3, blue=3, green=2, red=2))


def two_nobles() -> GameState:
    """Alice's bonuses meet two nobles' requirements: every move names which one visits."""
    state = new_game(3, 5)
    first, second = state.nobles[:2]
    cards = sorted(set(bonuses_for(first)) | set(bonuses_for(second)))
    state = holding(without_cards(state, cards), cards=cards)
    assert all(
        b >= r
        for n in (first, second)
        for b, r in zip(state.player.bonuses, NOBLES[n].requires, strict=True)
    )
    return state


def blind_cards() -> GameState:
    """Alice and bob each hold blind reserved cards; carol reserved face up and resigned
    (her card left the game face down); the bank is short of some colours. Alice to move."""
    state = new_game(3, 6)
    state = apply(state, Reserve(deck=2))  # alice, blind
    state = apply(state, Reserve(deck=3))  # bob, blind
    state = apply(state, Reserve(card=state.board[0][1]))  # carol, face up
    state = apply(state, Reserve(deck=1))  # alice, blind
    state = apply(state, Resign(2))  # carol leaves: her reserved card leaves face down
    state = apply(state, Reserve(deck=1))  # bob, blind
    return replace(state, bank=bank(white=4, blue=1, green=0, red=2, black=3, gold=1))


HAND_MADE = (returning, at_ten_with_gold_left, two_nobles, blind_cards)
