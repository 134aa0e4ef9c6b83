"""A bot cannot peek: it is handed its seat's view, never the referee's state, and what the
view does not show (deck order, another player's blind card) cannot change its move."""

from __future__ import annotations

import ast
import inspect
import random
from dataclasses import replace
from pathlib import Path
from typing import get_type_hints

import pytest

import referee.bots
from referee.bots import LEVELS, ViewError, choose
from referee.bots.actions import actions
from referee.bots.sight import Dealer
from referee.engine import CARDS, GameState, GameView, Reservation, legal_moves, view
from tests.bots.positions import blind_cards
from tests.positions import holding, new_game

BOTS = Path(referee.bots.__file__).parent


def test_choose_takes_a_view_and_no_type_that_holds_a_game_state() -> None:
    hints = get_type_hints(choose)
    assert hints["seen"] is GameView
    shown = " ".join(str(h) for h in hints.values())
    for secret in ("GameState", "Player", "Reservation", "Setup"):
        assert secret not in shown


def test_choose_refuses_a_game_state_even_when_the_type_checker_is_bypassed() -> None:
    state = new_game(2)
    with pytest.raises(TypeError, match="GameView"):
        choose("greedy", state, 1)  # type: ignore[arg-type]


def test_choose_refuses_the_public_view_another_players_turn_and_a_finished_game() -> None:
    state = new_game(2)
    with pytest.raises(ViewError, match="public"):
        choose("greedy", view(state), 1)
    with pytest.raises(ViewError, match="alice's turn"):
        choose("greedy", view(state, "bob"), 1)
    with pytest.raises(ValueError, match="levels"):
        choose("perfect", view(state, "alice"), 1)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_bots_import_only_the_engine_and_never_make_a_view_of_a_state() -> None:
    """Nothing that holds a real game (records, the store, games, the service) and not the
    engine's ``view`` function, which only the holder of the real state can call. (What a
    bot says of its move is a message: data, which the letter writer words.)"""
    for path in sorted(BOTS.glob("*.py")):
        for name in _imports(path):
            if not name.startswith("referee."):
                continue
            allowed = (
                "referee.engine", "referee.bots", "referee.errors", "referee.wording.messages"
            )  # fmt: skip
            assert name.startswith(allowed), (
                f"{path.name} imports {name}"
            )
            assert not name.endswith((".view", ".engine.view.view")), f"{path.name}: {name}"


def test_only_the_dealer_builds_positions_and_only_from_a_view() -> None:
    for path in sorted(BOTS.glob("*.py")):
        calls = {
            n.func.id
            for n in ast.walk(ast.parse(path.read_text()))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        if "GameState" in calls:
            assert path.name == "sight.py", path.name
    source = inspect.getsource(referee.bots.sight.Dealer.__init__)
    assert "seen: GameView" in source


def _with_hidden_information_changed(state: GameState, seat: int) -> GameState:
    """``state`` with every deck reshuffled and each other player's blind cards swapped for
    cards from the decks of their levels: the same view for ``seat``, another game."""
    rng = random.Random(99)
    decks = [list(deck) for deck in state.decks]
    players = list(state.players)
    for s, player in enumerate(players):
        if s == seat:
            continue
        reserved = []
        for r in player.reserved:
            if r.blind and decks[r.level - 1]:
                deck = decks[r.level - 1]
                swap = rng.randrange(len(deck))
                deck[swap], card = r.card, deck[swap]
                reserved.append(Reservation(card, True))
            else:
                reserved.append(r)
        players[s] = replace(player, reserved=tuple(reserved))
    for deck in decks:
        rng.shuffle(deck)
    return replace(state, players=tuple(players), decks=tuple(tuple(d) for d in decks))


@pytest.mark.parametrize("level", LEVELS)
def test_states_differing_only_in_hidden_information_give_the_same_move(level: str) -> None:
    state = blind_cards()
    other = _with_hidden_information_changed(state, 0)
    assert other.decks != state.decks
    assert other.players[1].reserved != state.players[1].reserved
    assert view(other, "alice") == view(state, "alice")
    for seed in range(3):
        mine = choose(level, view(state, "alice"), seed, 60)
        theirs = choose(level, view(other, "alice"), seed, 60)
        assert mine == theirs


def test_a_bot_sees_its_own_blind_cards_and_can_buy_them() -> None:
    state = blind_cards()
    own = [r.card for r in state.players[0].reserved]
    seen = view(state, "alice")
    assert [r.card for r in seen.players[0].reserved] == own
    assert all(r.card is None for r in seen.players[1].reserved)
    w, u, g, r, k = CARDS[own[0]].cost
    rich = holding(state, 0, tokens_=(w, u, g, r, k, 0))
    options = actions(Dealer(view(rich, "alice")).deal(None))
    assert ("buy", own[0]) in options
    for level in LEVELS:
        move = choose(level, view(rich, "alice"), 1, 50).move
        assert move in legal_moves(rich)
