"""Games over: a long-running service neither keeps them in memory nor replays them at every
look. A game found over is noted so beside its record (``.over.json``: what it came to, and
the stamps of the files it was read from); the note is believed only while those files are
unchanged, and whatever changes a game over (turns undone, an address amended) removes it."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from referee.finish import finish_of
from referee.games import change_address, create_game, resign, rollback
from referee.invitations import Invitation, Invitations, Seat
from referee.record import SourceEntry
from referee.standings import finishes
from referee.store import OVER_NOTE, Store
from tests.recorded import players, recorded_game

CLI = SourceEntry(kind="command-line")


def over_and_running(root: Path) -> Store:
    """Game "over" (alice resigned: bob won at turn 0) and game "running" (turn 3)."""
    create_game(Store(root), "over", players(2), seed=1)
    resign(Store(root), "over", "alice", CLI)
    recorded_game(root, "running", turns=3)
    return Store(root, remember=True)


def look(store: Store) -> list[str]:
    """What a look at the games in play does (the bots', the duties'): load each one."""
    found = store.in_play()
    for game in found:
        store.load(game)
    return found


def replays(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games ``store`` reads whole from here on (every read of a game's turn files)."""
    read: list[str] = []
    original = store.read
    monkeypatch.setattr(store, "read", lambda g: read.append(g) or original(g))
    return read


def test_a_remembering_store_keeps_games_in_play_but_not_games_over(tmp_path: Path) -> None:
    store = over_and_running(tmp_path)
    store.load("over")
    store.load("running")
    assert list(store._remembered) == ["running"]


def test_the_remembering_store_forgets_the_least_recently_loaded_beyond_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("referee.store.REMEMBERED_AT_MOST", 2)
    for game in ("g1", "g2", "g3"):
        recorded_game(tmp_path, game, turns=2)
    store = Store(tmp_path, remember=True)
    for game in ("g1", "g2", "g1", "g3"):
        store.load(game)
    assert list(store._remembered) == ["g1", "g3"]


def test_a_game_found_over_is_noted_and_a_look_at_the_games_in_play_skips_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = over_and_running(tmp_path)
    assert not (tmp_path / "over" / OVER_NOTE).exists()
    assert look(store) == ["over", "running"]  # (found over by loading it, once)
    assert (tmp_path / "over" / OVER_NOTE).is_file()
    read = replays(store, monkeypatch)
    for _ in range(3):
        assert look(store) == ["running"]
    assert read == []
    restarted = Store(tmp_path, remember=True)  # a new process believes the note
    read = replays(restarted, monkeypatch)
    assert restarted.in_play() == ["running"]
    assert read == []


def test_what_a_game_over_came_to_is_read_from_its_note_as_replaying_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    look(over_and_running(tmp_path))
    store = Store(tmp_path)
    read = replays(store, monkeypatch)
    noted = store.finish("over")
    assert read == []
    assert noted == finish_of(Store(tmp_path).load("over"))
    assert noted is not None and noted.winners == ("bob",) and noted.turns == 1
    assert store.finish("running") is None


def test_a_game_over_rolled_back_is_in_play_again_and_its_note_is_gone(tmp_path: Path) -> None:
    store = over_and_running(tmp_path)
    look(store)
    assert store.in_play() == ["running"]
    rollback(Store(tmp_path), "over", 0, "alice resigned by mistake")  # another process
    assert not (tmp_path / "over" / OVER_NOTE).exists()
    assert store.in_play() == ["over", "running"]
    assert store.finish("over") is None
    assert [f.game for f in finishes(store)] == []


def test_a_note_is_not_believed_once_the_turns_it_was_read_from_change(tmp_path: Path) -> None:
    """A turn file put back by hand (no rollback to remove the note) changes ``turns/``."""
    store = over_and_running(tmp_path)
    look(store)
    assert store.in_play() == ["running"]
    last = tmp_path / "over" / "turns" / "0001.toml"
    kept = last.read_bytes()
    last.unlink()
    assert Store(tmp_path).in_play() == ["over", "running"]
    assert store.in_play() == ["over", "running"]
    last.write_bytes(kept)
    assert look(store) == ["over", "running"]  # (replayed, and noted again)
    assert store.in_play() == ["running"]


def test_a_note_copied_with_its_folder_is_not_believed_there(tmp_path: Path) -> None:
    """The stamps name the files' inodes: a copy has others, so it is replayed and noted."""
    import shutil

    look(over_and_running(tmp_path))
    shutil.copytree(tmp_path / "over", tmp_path / "copy")
    (tmp_path / "copy" / "game.toml").write_bytes(
        (tmp_path / "copy" / "game.toml").read_bytes().replace(b'id = "over"', b'id = "copy"')
    )
    store = Store(tmp_path)
    assert store.noted_finish("copy") is None
    assert store.noted_finish("over") is not None


def test_an_address_amended_in_a_game_over_moves_its_result_along(tmp_path: Path) -> None:
    store = over_and_running(tmp_path)
    assert store.finish("over") is not None
    change_address(Store(tmp_path), "over", "bob", "bob@new.example", "moved", by="gm")
    finish = store.finish("over")
    assert finish is not None
    assert "bob@new.example" in [p.player for p in finish.places]
    note = json.loads((tmp_path / "over" / OVER_NOTE).read_text())
    assert "bob@new.example" in [p["player"] for p in note["finish"]["places"]]


def test_a_false_or_unreadable_note_is_ignored_and_written_again(tmp_path: Path) -> None:
    look(over_and_running(tmp_path))
    note = tmp_path / "over" / OVER_NOTE
    for garbage in (b"\xff\x00 not json", b'{"stamps": [1, 2], "finish": {}}', b"[]"):
        note.write_bytes(garbage)
        store = Store(tmp_path)
        assert store.noted_finish("over") is None
        assert look(store) == ["over", "running"]
        assert store.in_play() == ["running"]
        assert json.loads(note.read_text())["finish"]["winners"] == ["bob"]


def test_invitations_over_are_read_once_and_open_ones_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime

    invitations = Invitations(tmp_path)
    at = datetime(2026, 12, 1, tzinfo=UTC)
    for game in ("open", "started"):
        seats = (Seat("ann@example.org", proposer=True, accepted=True), Seat("bo@example.org"))
        invitations.propose(Invitation(game, "ann@example.org", at, "<m@x>", 1, 15, 0, "7d",
                                       False, seats))  # fmt: skip
    invitations.end("started", "started", "", at)
    read: list[str] = []
    original = invitations.get
    monkeypatch.setattr(invitations, "get", lambda g: read.append(g) or original(g))
    for _ in range(3):
        assert [(i.game, i.status) for i in invitations.all()] == [
            ("open", "invited"),
            ("started", "started"),
        ]
    assert read == ["open", "started", "open", "open"]
    invitations.end("open", "cancelled", "nobody came", at)
    assert [i.status for i in invitations.all()] == ["cancelled", "started"]


def test_a_turn_undone_is_seen_even_where_the_folders_time_did_not_move(tmp_path: Path) -> None:
    """On a filesystem with coarse times, taking the last turn out may leave ``turns/``'s
    stamp as it was: the note names its last turn file too, and that one is gone."""
    store = over_and_running(tmp_path)
    look(store)
    last = tmp_path / "over" / "turns" / "0001.toml"
    last.rename(tmp_path / "over" / "0001.toml.away")
    note = tmp_path / "over" / OVER_NOTE
    body = json.loads(note.read_text())
    turns = (tmp_path / "over" / "turns").stat()
    body["stamps"][1] = [turns.st_ino, turns.st_size, turns.st_mtime_ns, turns.st_ctime_ns]
    note.write_text(json.dumps(body))  # as if turns/'s stamp had not moved
    assert Store(tmp_path).noted_finish("over") is None
    assert Store(tmp_path).in_play() == ["over", "running"]


def test_where_no_note_can_be_written_a_game_over_is_still_replayed_only_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = over_and_running(tmp_path)

    def read_only(path: Path, data: bytes) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr("referee.store.write_over", read_only)
    assert look(store) == ["over", "running"]
    assert not (tmp_path / "over" / OVER_NOTE).exists()
    read = replays(store, monkeypatch)
    assert look(store) == ["running"]
    finish = store.finish("over")
    assert read == [] and finish is not None and finish.winners == ("bob",)


def test_a_note_with_stamps_of_the_wrong_shape_is_ignored(tmp_path: Path) -> None:
    look(over_and_running(tmp_path))
    note = tmp_path / "over" / OVER_NOTE
    body = json.loads(note.read_text())
    body["stamps"][0] = [1, 2]
    note.write_text(json.dumps(body))
    store = Store(tmp_path)
    assert store.noted_finish("over") is None
    assert look(store) == ["over", "running"]  # replayed, and noted again
