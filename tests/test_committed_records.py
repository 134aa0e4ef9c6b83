"""Records committed to the repository still load: the example game of the README, and a
game of every record format this referee has written (older formats must keep loading)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from referee.store import Store

ROOT = Path(__file__).resolve().parents[1]


def test_the_example_game_is_a_finished_4_player_game_that_verifies() -> None:
    replayed = Store(ROOT / "games").load("example")
    assert replayed.state.status == "finished"
    assert [p.name for p in replayed.record.players] == ["ana", "bo", "cy", "dee"]
    assert all(t.source.kind == "moves-file" for t in replayed.turns)


@pytest.mark.parametrize(("version", "players"), [(1, 3), (2, 4)])
def test_a_record_of_each_format_still_loads(version: int, players: int) -> None:
    store = Store(ROOT / "tests" / "fixtures" / f"format-{version}")
    replayed = store.load("fixture")
    assert replayed.record.format == version
    assert replayed.state.turn == 12 and len(replayed.record.players) == players


def test_a_format_1_game_reads_with_the_default_time_options() -> None:
    record = Store(ROOT / "tests" / "fixtures" / "format-1").load("fixture").record
    assert record.time_per_move == timedelta(days=7)
    assert record.timeout == "wait" and record.spectators is False


def test_the_format_2_fixture_holds_its_options_and_two_resignations() -> None:
    """Written with FORMAT 2: a 3-day deadline, forfeit, spectators; alice resigned out of
    turn holding two reserved cards (one blind), and bob was forfeited at his deadline."""
    replayed = Store(ROOT / "tests" / "fixtures" / "format-2").load("fixture")
    record, state = replayed.record, replayed.state
    assert (record.deadline, record.timeout, record.spectators) == ("3d", "forfeit", True)
    resigns = [t for t in replayed.turns if t.move.text == "resign"]
    assert [(t.turn, t.player, t.source.kind) for t in resigns] == [
        (6, "alice", "command-line"),
        (10, "bob", "timeout"),
    ]
    assert state.resigned == (0, 1) and len(state.left) == 2 and state.status == "playing"
