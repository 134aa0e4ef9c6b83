"""Game records: sealed, versioned TOML; replay rebuilds every position."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from referee.engine import apply, legal_moves
from referee.errors import RecordError, ReplayError, RequestError
from referee.games import create_game, play_move, resign
from referee.record import FORMAT, SourceEntry, dump, load_game, load_turn, replay, state_digest
from referee.store import Store
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
    assert f"format = {FORMAT}\n".encode() in data
    newer = data.replace(f"format = {FORMAT}\n".encode(), f"format = {FORMAT + 1}\n".encode(), 1)
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


def test_positions_without_a_resignation_keep_the_digest_of_format_1() -> None:
    """The digest is part of the record format: the position after 20 turns of the seeded
    3-player playout hashed to this under format 1, before resigning existed."""
    after = [after for _, _, after in playout(3, 4)][19]
    assert after.turn == 20 and not after.resigned
    assert state_digest(after) == (
        "sha256:5034e25c4521b2dfabc00dff93a9c491f819ece0bf32a98e608616cb78e4ecf2"
    )
    left = replace(after, resigned=(1,))
    assert state_digest(left) != state_digest(after)
    assert state_digest(replace(left, left=("1-01",))) != state_digest(left)


def test_a_game_with_resignations_round_trips_and_replays(tmp_path: Path) -> None:
    store = Store(tmp_path)
    players = [(n, f"{n}@example.org") for n in ("alice", "bob", "carol")]
    create_game(store, "g1", players, seed=3)
    cli = SourceEntry(kind="command-line")
    play_move(store, "g1", "alice", "reserve deck 2", cli)
    played = resign(store, "g1", "alice", cli)  # out of turn: bob is to move
    assert played.turn.player == "alice" and played.after.to_move == 1
    play_move(store, "g1", "bob", "take red green blue", cli)
    forfeit = resign(store, "g1", "carol", SourceEntry(kind="timeout"))  # carol was to move
    assert forfeit.after.status == "finished" and forfeit.turn.turn == 4
    turn = load_turn((tmp_path / "g1" / "turns" / "0002.toml").read_bytes(), "0002.toml")
    assert turn.move.text == "resign" and turn.move.json_ == {"type": "resign"}
    assert (
        turn.player == "alice"
        and dump(turn) == (tmp_path / "g1" / "turns" / "0002.toml").read_bytes()
    )
    game, turns = store.read("g1")
    replayed = replay(load_game(game), game, turns)
    assert replayed.state == forfeit.after and replayed.state.resigned == (0, 2)
    assert [type(m).__name__ for m in replayed.moves()] == ["Reserve", "Resign", "Take", "Resign"]
    assert replayed.turns[-1].source.describe() == "deadline passed (forfeit)"


def test_a_resignation_recorded_for_someone_not_in_the_game_does_not_replay(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path)
    create_game(store, "g1", [(n, f"{n}@example.org") for n in ("alice", "bob")], seed=3)
    resign(store, "g1", "bob", SourceEntry(kind="command-line"))
    path = tmp_path / "g1" / "turns" / "0001.toml"
    turn = load_turn(path.read_bytes(), "0001.toml")
    path.write_bytes(dump(turn.model_copy(update={"player": "zed"})))
    game, turns = store.read("g1")
    with pytest.raises(ReplayError, match=r"turn 1: its move cannot be read: .*no player called"):
        replay(load_game(game), game, turns)


def test_a_game_s_time_options_round_trip_and_default(tmp_path: Path) -> None:
    store = Store(tmp_path)
    players = [(n, f"{n}@example.org") for n in ("alice", "bob")]
    create_game(
        store, "g1", players, deadline=timedelta(hours=36), timeout="forfeit", spectators=True
    )
    data = (tmp_path / "g1" / "game.toml").read_bytes()
    record = load_game(data)
    assert dump(record) == data
    assert (record.deadline, record.timeout, record.spectators) == ("36h", "forfeit", True)
    assert record.time_per_move == timedelta(hours=36)
    create_game(store, "g2", players)
    record = load_game((tmp_path / "g2" / "game.toml").read_bytes())
    assert record.time_per_move == timedelta(days=7) and record.timeout == "wait"
    assert record.spectators is False


def test_a_deadline_out_of_range_or_not_in_whole_minutes_is_refused(tmp_path: Path) -> None:
    players = [(n, f"{n}@example.org") for n in ("alice", "bob")]
    with pytest.raises(RequestError, match="out of range"):
        create_game(Store(tmp_path), "g1", players, deadline=timedelta(days=90))
    with pytest.raises(RequestError, match="whole number of minutes"):
        create_game(Store(tmp_path), "g1", players, deadline=timedelta(hours=2, seconds=5))
    assert not (tmp_path / "g1").exists()
