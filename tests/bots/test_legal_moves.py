"""Every bot plays a legal move, in any position: the move is among the engine's legal moves
of the real game, though the bot only ever saw its seat's view."""

from __future__ import annotations

import random

import pytest

from referee.bots import LEVELS, choose
from referee.bots.actions import action_of, actions
from referee.engine import GameState, apply, legal_moves, view
from tests.bots.positions import HAND_MADE, random_positions

POSITIONS = list(random_positions(9))


def test_the_random_positions_cover_returns_blind_cards_and_resignations() -> None:
    assert len(POSITIONS) > 60
    assert any(p.resigned for p in POSITIONS)
    assert any(r.blind for p in POSITIONS for pl in p.players for r in pl.reserved)
    assert any(any(m.returned) for p in POSITIONS for m in legal_moves(p))


@pytest.mark.parametrize("level", LEVELS)
def test_each_bot_plays_a_legal_move_in_seeded_random_positions(level: str) -> None:
    for i, state in enumerate(POSITIONS):
        seen = view(state, state.player.name)
        move = choose(level, seen, random.Random(i), budget=12).move
        assert move in legal_moves(state), (i, move)
        apply(state, move)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("make", HAND_MADE, ids=lambda f: f.__name__)
def test_each_bot_plays_a_legal_move_with_returns_nobles_and_blind_cards(
    level: str, make: object
) -> None:
    state: GameState = make()  # type: ignore[operator]
    for seed in range(3):
        move = choose(level, view(state, state.player.name), random.Random(seed), 40).move
        assert move in legal_moves(state)


def test_a_noble_choice_and_returns_are_made_when_the_rules_call_for_them() -> None:
    from tests.bots.positions import returning, two_nobles

    state = two_nobles()
    assert choose("greedy", view(state, "alice"), 1).move.noble in state.nobles[:2]
    state = returning()
    for seed in range(5):
        move = choose("search", view(state, "alice"), seed, 30).move
        held = sum(state.player.tokens) + sum(getattr(move, "gems", (0,)))
        assert sum(move.returned) == max(held - 10, 0)


def test_actions_are_legal_moves_one_for_each_action_the_engine_lists() -> None:
    for state in [*POSITIONS, *(make() for make in HAND_MADE)]:
        legal = legal_moves(state)
        found = actions(state)
        for key, move in found.items():
            assert move in legal and action_of(move) == key
        left_out = {action_of(m) for m in legal} - set(found)
        assert all(key[0] == "take" for key in left_out)  # idle takes: see actions()
