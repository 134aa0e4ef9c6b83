"""Records committed to the repository still load: the example game of the README, and a
game of every record format this referee has written (older formats must keep loading)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.store import Store

ROOT = Path(__file__).resolve().parents[1]


def test_the_example_game_is_a_finished_4_player_game_that_verifies() -> None:
    replayed = Store(ROOT / "games").load("example")
    assert replayed.state.status == "finished"
    assert [p.name for p in replayed.record.players] == ["ana", "bo", "cy", "dee"]
    assert all(t.source.kind == "moves-file" for t in replayed.turns)


@pytest.mark.parametrize("version", [1])
def test_a_record_of_each_format_still_loads(version: int) -> None:
    store = Store(ROOT / "tests" / "fixtures" / f"format-{version}")
    replayed = store.load("fixture")
    assert replayed.record.format == version
    assert replayed.state.turn == 12 and len(replayed.record.players) == 3
