"""The games folder: tampering is detected and named; writes are atomic, append-only and
serialised; a writer killed mid-write leaves the game readable at its last whole turn."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing import Queue
from pathlib import Path

import pytest

from referee.engine import legal_moves, move_json
from referee.errors import ConflictError, ReplayError, StoreError
from referee.games import create_game, play_move, rollback
from referee.notation import format_move
from referee.record import dump, load_turn
from referee.store import Store, write_new
from tests.recorded import CLI, players, recorded_game

TURNS = 8


@pytest.fixture(params=["fresh", "remembering"])
def store(tmp_path: Path, request: pytest.FixtureRequest) -> Store:
    """The recorded game, in a store that reads it afresh at every load, or in one that
    remembers it (as the mail service's does) and has loaded it once already: both must see
    every change made to the files since."""
    recorded_game(tmp_path, turns=TURNS)
    if request.param == "fresh":
        return Store(tmp_path)
    remembering = Store(tmp_path, remember=True)
    assert remembering.load("g1").state.turn == TURNS
    return remembering


def turn_file(store: Store, n: int) -> Path:
    return store.root / "g1" / "turns" / f"{n:04d}.toml"


def first_bad_turn(store: Store) -> tuple[int, str]:
    with pytest.raises(ReplayError) as err:
        store.load("g1")
    return err.value.turn, str(err.value)


def test_an_untouched_game_replays(store: Store) -> None:
    assert store.load("g1").state.turn == TURNS


def test_tampering_an_edited_turn_file_is_detected_and_named(store: Store) -> None:
    path = turn_file(store, 3)
    path.write_bytes(path.read_bytes().replace(b'player = "alice"', b'player = "bob"'))
    assert first_bad_turn(store) == (
        3,
        "turn 3: turns/0003.toml does not match its seal: it was edited after it was written",
    )


def test_tampering_an_edited_and_resealed_turn_file_is_caught_by_the_chain(store: Store) -> None:
    path = turn_file(store, 3)
    turn = load_turn(path.read_bytes(), "0003.toml")
    forged = turn.model_copy(update={"at": turn.at.replace(year=2020)})
    path.write_bytes(dump(forged))  # a forger who re-seals the file
    number, message = first_bad_turn(store)
    assert number == 4 and "turn 4 does not follow turn 3" in message


def test_tampering_a_changed_move_resealed_is_caught_by_the_position(store: Store) -> None:
    last = turn_file(store, TURNS)
    turn = load_turn(last.read_bytes(), "last")
    replayed = store.load("g1")
    other = next(
        m for m in legal_moves(replayed.states[TURNS - 1]) if format_move(m) != turn.move.text
    )
    move = turn.move.model_copy(
        update={
            "text": format_move(other),
            "json_": {k: v for k, v in move_json(other).items() if v is not None},
        }
    )
    last.write_bytes(dump(turn.model_copy(update={"move": move})))
    number, message = first_bad_turn(store)
    assert number == TURNS and "does not lead to the recorded position" in message


def test_tampering_a_deleted_turn_file_is_detected_and_named(store: Store) -> None:
    turn_file(store, 5).unlink()
    assert first_bad_turn(store) == (5, "turn 5 is missing: turns/0006.toml comes after turn 4")


def test_tampering_two_swapped_turn_files_is_detected_and_named(store: Store) -> None:
    a, b = turn_file(store, 4), turn_file(store, 5)
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(data_b)
    b.write_bytes(data_a)
    number, message = first_bad_turn(store)
    assert number == 4 and "says it is turn 5: files were renamed or swapped" in message


def test_tampering_a_truncated_turn_file_is_detected_and_named(store: Store) -> None:
    path = turn_file(store, 6)
    path.write_bytes(path.read_bytes()[:70])
    number, message = first_bad_turn(store)
    assert number == 6 and "turns/0006.toml" in message


def test_tampering_an_added_turn_file_is_detected_and_named(store: Store) -> None:
    turn_file(store, TURNS + 2).write_bytes(turn_file(store, TURNS).read_bytes())
    number, message = first_bad_turn(store)
    assert number == TURNS + 1 and f"turn {TURNS + 1} is missing" in message
    turn_file(store, TURNS + 2).rename(turn_file(store, TURNS + 1))
    number, message = first_bad_turn(store)
    assert number == TURNS + 1 and "says it is turn" in message


def test_stray_temporary_files_from_an_interrupted_write_are_ignored(store: Store) -> None:
    (store.root / "g1" / "turns" / ".0009.toml.abc.tmp").write_bytes(b"format = 1\nturn = ")
    assert store.load("g1").state.turn == TURNS


def test_a_turn_is_never_overwritten(store: Store) -> None:
    before = turn_file(store, 2).read_bytes()
    with pytest.raises(ConflictError, match="turn 2 of game 'g1' is written already"):
        store.write_turn("g1", 2, b"anything")
    assert turn_file(store, 2).read_bytes() == before
    with pytest.raises(FileExistsError):
        write_new(turn_file(store, 2), b"anything")


def test_creating_a_game_that_exists_is_refused(store: Store) -> None:
    with pytest.raises(ConflictError, match="game 'g1' exists already"):
        create_game(store, "g1", players(2), seed=3)


def test_an_unknown_game_or_bad_id_is_refused_with_the_games_there(store: Store) -> None:
    with pytest.raises(StoreError, match=r"no game 'g2' .*\(games: g1\)"):
        store.load("g2")
    with pytest.raises(StoreError, match="is not a game id"):
        store.load("../etc")


def race(target: Callable[..., str], *argument_sets: tuple[object, ...]) -> list[str]:
    """Run ``target`` in one process per argument set, all starting at the same instant;
    their results, sorted."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    start = time.time() + 1.5
    procs = [ctx.Process(target=_at, args=(start, queue, target, *a)) for a in argument_sets]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    return sorted(queue.get(timeout=5) for _ in procs)


def _at(start: float, queue: Queue[str], target: Callable[..., str], *args: object) -> None:
    while time.time() < start:
        pass
    try:
        queue.put(target(*args))
    except Exception as err:
        queue.put(f"refused: {type(err).__name__}: {err}")


def _write_turn(root: str, data: bytes) -> str:
    Store(Path(root)).write_turn("g1", TURNS + 1, data)
    return "won"


def _play(root: str, player: str, text: str) -> str:
    play_move(Store(Path(root)), "g1", player, text, CLI)
    return "won"


def test_two_processes_racing_to_write_the_same_turn_one_wins_one_is_refused(store: Store) -> None:
    results = race(_write_turn, (str(store.root), b"writer 1"), (str(store.root), b"writer 2"))
    assert results[1] == "won"
    assert results[0].startswith(
        f"refused: ConflictError: turn {TURNS + 1} of game 'g1' is written already"
    )


def test_two_game_masters_playing_the_same_turn_one_wins_the_other_is_told_why(
    store: Store,
) -> None:
    to_move = store.load("g1").state.player.name
    root = str(store.root)
    results = race(_play, (root, to_move, "reserve deck 1"), (root, to_move, "reserve deck 2"))
    assert results[1] == "won"
    assert results[0].startswith("refused: IllegalMoveError") and "turn, not" in results[0]
    assert store.load("g1").state.turn == TURNS + 1


WRITER = """
import random, sys
from pathlib import Path
from referee.engine import legal_moves
from referee.games import play_move
from referee.notation import format_move
from referee.record import SourceEntry
from referee.store import Store
store = Store(Path(sys.argv[1]))
rng = random.Random(int(sys.argv[2]))
print("ready", flush=True)
while True:
    state = store.load("g1").state
    if state.status == "finished":
        break
    move = rng.choice(legal_moves(state))
    play_move(store, "g1", state.player.name, format_move(move), SourceEntry(kind="command-line"))
"""


@pytest.mark.parametrize("delay", [0.05, 0.2, 0.4, 0.7])
def test_a_writer_killed_mid_write_leaves_the_game_readable_at_its_last_whole_turn(
    tmp_path: Path, delay: float
) -> None:
    store = recorded_game(tmp_path, turns=0, seed=11)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path), str(int(delay * 100))],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
    )
    assert writer.stdout is not None and writer.stdout.readline() == b"ready\n"
    time.sleep(delay)
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    replayed = store.load("g1")  # every turn on disk is whole and chained
    written = sorted(p.name for p in (tmp_path / "g1" / "turns").iterdir() if p.name[0] != ".")
    assert len(written) == replayed.state.turn
    # and the game goes on from there
    if replayed.state.status != "finished":
        move = format_move(legal_moves(replayed.state)[0])
        after = play_move(store, "g1", replayed.state.player.name, move, CLI)
        assert after.turn.turn == replayed.state.turn + 1


def test_rollback_moves_undone_turns_to_the_archive_with_the_reason(store: Store) -> None:
    replayed, archive = rollback(store, "g1", 5, "bob's reply was misread")
    assert replayed.state.turn == 5
    assert sorted(p.name for p in archive.iterdir()) == [
        "0006.toml",
        "0007.toml",
        "0008.toml",
        "rollback.toml",
    ]
    assert "bob's reply was misread" in (archive / "rollback.toml").read_text()
    assert store.rollbacks("g1")[0]["undone"] == 3
    # the game goes on from turn 5, chained to the kept turn
    move = format_move(legal_moves(replayed.state)[0])
    assert play_move(store, "g1", replayed.state.player.name, move, CLI).turn.turn == 6
    assert store.load("g1").state.turn == 6


def test_rollback_needs_a_reason_and_a_turn_in_the_game(store: Store) -> None:
    with pytest.raises(StoreError, match="needs a reason"):
        rollback(store, "g1", 2, " ")
    with pytest.raises(StoreError, match="--to must be 0 to 7"):
        rollback(store, "g1", 8, "nothing to undo")


def files_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files read whole from now on (a list that fills as they are read)."""
    read: list[str] = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda p: read.append(p.name) or real(p))
    return read


def test_a_remembering_store_replays_only_the_turns_written_since(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded_game(tmp_path, turns=TURNS)
    remembering = Store(tmp_path, remember=True)
    first = remembering.load("g1")
    other = Store(tmp_path)  # another writer: the command line, say
    to_move = first.state.player.name
    play_move(other, "g1", to_move, format_move(legal_moves(first.state)[0]), CLI)
    read = files_read(monkeypatch)
    again = remembering.load("g1")
    assert read == [f"{TURNS + 1:04d}.toml"]
    assert again.state == other.load("g1").state and again.states[:-1] == first.states
    read.clear()
    assert remembering.load("g1").state == again.state and read == []


def test_a_remembering_store_sees_a_rollback_and_the_turns_played_after_it(
    tmp_path: Path,
) -> None:
    recorded_game(tmp_path, turns=TURNS)
    remembering = Store(tmp_path, remember=True)
    remembering.load("g1")
    replayed, _ = rollback(Store(tmp_path), "g1", 5, "misread")
    assert remembering.load("g1").state.turn == 5
    move = next(m for m in legal_moves(replayed.state) if format_move(m).startswith("reserve"))
    play_move(Store(tmp_path), "g1", replayed.state.player.name, format_move(move), CLI)
    assert remembering.load("g1").state == Store(tmp_path).load("g1").state


def test_a_remembering_store_notices_a_file_edited_with_its_old_time_put_back(
    tmp_path: Path,
) -> None:
    recorded_game(tmp_path, turns=TURNS)
    remembering = Store(tmp_path, remember=True)
    remembering.load("g1")
    path = tmp_path / "g1" / "turns" / "0003.toml"
    info = path.stat()
    data = path.read_bytes()
    time.sleep(0.05)  # past the file system's clock tick, so the new ctime differs
    with open(path, "r+b") as out:  # same size, same inode, same mtime: only ctime moves
        out.write(data.replace(b'player = "alice"', b'player = "bobby"'))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    with pytest.raises(ReplayError, match="turn 3"):
        remembering.load("g1")


def test_a_remembering_store_keeps_the_turns_it_writes_without_reading_them_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded_game(tmp_path, turns=TURNS)
    remembering = Store(tmp_path, remember=True)
    state = remembering.load("g1").state
    move = format_move(legal_moves(state)[0])
    play_move(remembering, "g1", state.player.name, move, CLI)
    read = files_read(monkeypatch)
    kept = remembering.load("g1")
    assert read == []
    monkeypatch.undo()
    fresh = Store(tmp_path).load("g1")
    assert kept.states == fresh.states and kept.turns == fresh.turns
    assert kept.last_file == fresh.last_file
