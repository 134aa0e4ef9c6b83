"""Games recorded in a temporary store, for the record, store and command-line tests."""

from __future__ import annotations

import random
from pathlib import Path

from referee.engine import legal_moves
from referee.games import create_game, play_move
from referee.notation import format_move
from referee.record import SourceEntry
from referee.store import Store
from tests.positions import NAMES, choose

CLI = SourceEntry(kind="command-line")


def players(n: int) -> list[tuple[str, str]]:
    return [(name, f"{name}@example.org") for name in NAMES[:n]]


def recorded_game(
    root: Path, game_id: str = "g1", players_: int = 2, seed: int = 1, turns: int | None = None
) -> Store:
    """A game in a store under ``root``, played by the benchmark's random policy for ``turns``
    turns (to the end when None)."""
    store = Store(root)
    replayed = create_game(store, game_id, players(players_), seed=seed)
    rng = random.Random(seed)
    state = replayed.state
    while state.status != "finished" and (turns is None or state.turn < turns):
        move = choose(rng, legal_moves(state))
        state = play_move(store, game_id, state.player.name, format_move(move), CLI).after
    return store
