"""Every bot plays a legal move, in any position: the move is among the engine's legal moves
of the real game, though the bot only ever saw its seat's view."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from referee.bots import LEVELS, choose
from referee.bots.actions import action_of, actions, idle
from referee.engine import GameState, Take, apply, legal_moves, view
from tests.bots.positions import HAND_MADE, random_positions, returning, two_nobles

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
    level: str, make: Callable[[], GameState]
) -> None:
    state = make()
    for seed in range(3):
        move = choose(level, view(state, state.player.name), random.Random(seed), 40).move
        assert move in legal_moves(state)


def test_a_noble_is_named_and_tokens_given_back_when_the_rules_call_for_them() -> None:
    state = two_nobles()
    qualifying = {m.noble for m in legal_moves(state)}
    assert None not in qualifying and len(qualifying) >= 2
    for level in LEVELS:
        assert choose(level, view(state, "alice"), 1, 30).move.noble in qualifying
    state = returning()  # 9 tokens: a take of 2 or 3 must give some back
    for level in LEVELS:
        for seed in range(4):
            move = choose(level, view(state, "alice"), seed, 30).move
            after = apply(state, move)
            assert sum(after.players[0].tokens) <= 10
            if isinstance(move, Take) and sum(move.gems) >= 2:
                assert sum(move.returned) == sum(move.gems) - 1


def test_actions_are_legal_moves_one_for_each_action_the_engine_lists() -> None:
    for state in [*POSITIONS, *(make() for make in HAND_MADE)]:
        legal = legal_moves(state)
        found = actions(state)
        for key, move in found.items():
            assert move in legal and action_of(move) == key
        # Only idle takes are left out (see actions()): takes best played giving back
        # just what they take, which the engine lists too.
        for key in {action_of(m) for m in legal} - set(found):
            assert key[0] == "take" and any(idle(m) and action_of(m) == key for m in legal)
