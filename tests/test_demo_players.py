"""The demo's players (scripts/mail_players.py, run by scripts/demo, the README's first
command) read a board mail as it is written now: their move when the subject says so, and
the whole moves the mail shows after the board, each one they may send."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from referee.engine import legal_moves
from referee.mail.judging.telling import letters_for_turn
from referee.notation import parse
from referee.store import Store
from referee.wording.writer import Writer

ROOT = Path(__file__).parents[1]


def players() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "mail_players", ROOT / "scripts" / "mail_players.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_demo_players_find_their_move_and_every_move_the_mail_shows() -> None:
    example = Store(ROOT / "games").load("example")
    letter = next(m for m in letters_for_turn(example, 57) if m.name == "bo")
    written = Writer().write(letter)
    assert written.subject.startswith("Your move")
    found = players().options(written.text)
    state = example.states[57]
    assert any(m.startswith("buy ") for m in found) and any(m.startswith("take ") for m in found)
    for move in found:
        assert parse(state, move) in legal_moves(state), move
