"""Game records: sealed, versioned TOML; replay rebuilds every position."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine import apply, legal_moves
from referee.errors import RecordError
from referee.record import FORMAT, dump, load_game, load_turn, replay, state_digest
from tests.positions import choose, playout
from tests.recorded import recorded_game


def test_a_game_record_round_trips_through_toml(tmp_path: Path) -> None:
    store = recorded_game(tmp_path, turns=3)
    data = (tmp_path / "g1" / "game.toml").read_bytes()
    record = load_game(data)
    assert dump(record) == data
    assert record.format == FORMAT and record.id == "g1" and record.seed == 1
    assert [p.name for p in record.players] == ["alice", "bob"]
    assert sorted(record.setup.decks) == ["1", "2", "3"]
    assert len(record.setup.decks["1"]) == 40 and len(record.setup.nobles) == 3
    assert store.load("g1").state.turn == 3


def test_a_turn_record_holds_the_move_its_source_and_the_hash_chain(tmp_path: Path) -> None:
    store = recorded_game(tmp_path, turns=2)
    first = (tmp_path / "g1" / "turns" / "0001.toml").read_bytes()
    turn = load_turn(first, "0001.toml")
    replayed = store.load("g1")
    assert turn.turn == 1 and turn.player == "alice" and turn.source.kind == "command-line"
    assert turn.state_before == state_digest(replayed.states[0])
    assert turn.state_after == state_digest(replayed.states[1])
    assert dump(turn) == first
    assert turn.move.json_["type"] in ("take", "reserve", "buy")


def test_replay_rebuilds_the_same_positions_as_the_moves_played(tmp_path: Path) -> None:
    store = recorded_game(tmp_path, players_=3, seed=4)
    replayed = store.load("g1")
    states = [s for s, _, _ in playout(3, 4)]
    assert replayed.states[: len(states)] == states
    assert replayed.state.status == "finished"


def test_a_newer_format_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    recorded_game(tmp_path, turns=0)
    data = (tmp_path / "g1" / "game.toml").read_bytes()
    newer = data.replace(b"format = 1\n", f"format = {FORMAT + 1}\n".encode(), 1)
    with pytest.raises(RecordError, match=f"format {FORMAT + 1}, newer than this referee reads"):
        load_game(newer)


def test_a_record_without_its_seal_or_with_a_broken_one_is_refused(tmp_path: Path) -> None:
    recorded_game(tmp_path, turns=0)
    data = (tmp_path / "g1" / "game.toml").read_bytes()
    with pytest.raises(RecordError, match="has no \\[seal\\]"):
        load_game(data[: data.index(b"[seal]")])
    with pytest.raises(RecordError, match="does not match its seal"):
        load_game(data.replace(b'"alice"', b'"alicia"'))
    with pytest.raises(RecordError, match="not readable TOML"):
        load_game(b"format = \x00")


def test_replay_of_a_game_with_no_turns_is_its_set_up(tmp_path: Path) -> None:
    store = recorded_game(tmp_path, turns=0)
    game, turns = store.read("g1")
    replayed = replay(load_game(game), game, turns)
    assert replayed.state.turn == 0 and replayed.last_file == game
    state = replayed.state
    assert apply(state, choose(__import__("random").Random(1), legal_moves(state)))
