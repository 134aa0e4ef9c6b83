"""A game moved from one worker's games folder to another's (`referee relocate`): the game,
its players' threads and the notes kept about it arrive whole, the folder it left is set
aside, and the game goes on at its new place where it stopped, in the same threads."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.errors import RequestError
from referee.mail.relocating import relocate
from referee.mail.state.service_lock import ServiceLock
from referee.store import Store
from tests.mail.dirtable import Table, address
from tests.mail.players import latest

NOW = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)


def played(tmp_path: Path) -> Table:
    """A game two turns in, over the dir transport."""
    table = Table(tmp_path / "first")
    table.reply("alice", "take red green blue")
    table.serve()
    table.reply("bob", "take white blue green")
    table.serve()
    assert table.state.turn == 2
    return table


def test_a_relocated_game_goes_on_at_its_new_place_in_the_same_threads(tmp_path: Path) -> None:
    table = played(tmp_path)
    other = tmp_path / "second" / "games"
    (other / ".mail").mkdir(parents=True)
    shutil.copy2(table.games / ".mail" / "secret", other / ".mail" / "secret")  # shared
    threads = sorted(p.name for p in (table.games / ".mail" / "threads").iterdir())
    done = relocate("g1", table.games, other, None, NOW)
    assert done.files >= 3 and done.notes == len(threads) == 2
    assert not (table.games / "g1").exists() and (table.games / ".relocated" / "g1").is_dir()
    assert not Store(table.games).has("g1")
    assert Store(other).load("g1").state.turn == 2
    assert sorted(p.name for p in (other / ".mail" / "threads").iterdir()) == threads
    assert [p.name for p in other.iterdir() if p.name.startswith(".relocating")] == []
    # the game goes on at the second worker: alice answers the board the first one sent
    moved = Table.__new__(Table)
    moved.games, moved.mail, moved.store, moved.sequence = other, table.mail, Store(other), 10
    moved.settings = table.settings.model_copy(update={"games_dir": other})
    board = latest(table.mail, address("alice"))
    moved.reply("alice", "take red green white")
    moved.serve()
    assert moved.state.turn == 3
    answer = latest(table.mail, address("alice"))
    assert str(board["Message-ID"]) in str(answer["References"])  # the same thread


def test_a_game_is_not_relocated_while_a_service_serves_the_folder_it_leaves(
    tmp_path: Path,
) -> None:
    table = played(tmp_path)
    running = ServiceLock(table.games)
    running.hold(NOW)
    try:
        with pytest.raises(RequestError, match=r"another referee service .* stopped"):
            relocate("g1", table.games, tmp_path / "other", None, NOW)
    finally:
        running.release()
    assert Store(table.games).has("g1") and not (tmp_path / "other" / "g1").exists()


def test_a_game_is_not_relocated_while_mail_handed_over_waits_to_be_judged(
    tmp_path: Path,
) -> None:
    table = played(tmp_path)
    intake = table.games / ".lmtp"
    (intake / "inbox").mkdir(parents=True)
    (intake / "inbox" / "1.eml").write_bytes(b"Subject: a reply\r\n\r\ntake red\r\n")
    with pytest.raises(RequestError, match=r"1 mail.* wait in .* to be judged"):
        relocate("g1", table.games, tmp_path / "other", intake, NOW)
    assert Store(table.games).has("g1")


@pytest.mark.parametrize(
    ("game", "there", "said"),
    [
        ("g9", False, "no game 'g9' in"),
        ("g1", True, "is there already: the game is not moved"),
    ],
)
def test_relocate_refuses_what_cannot_be_moved_and_moves_nothing(
    tmp_path: Path, game: str, there: bool, said: str
) -> None:
    table = played(tmp_path)
    other = tmp_path / "other"
    if there:
        (other / "g1").mkdir(parents=True)
    with pytest.raises(RequestError, match=said):
        relocate(game, table.games, other, None, NOW)
    assert Store(table.games).has("g1")


def test_referee_relocate_moves_a_game_there_and_back_by_the_command_line(
    tmp_path: Path,
) -> None:
    table = played(tmp_path)
    carried = tmp_path / "carried"
    runner = CliRunner()
    out = runner.invoke(
        app, ["relocate", "g1", "--to", str(carried), "--games-dir", str(table.games)]
    )
    assert out.exit_code == 0, out.output
    assert f"Moved game g1 from {table.games} to {carried}" in out.output
    other = tmp_path / "third"
    back = runner.invoke(
        app, ["relocate", "g1", "--from", str(carried), "--games-dir", str(other), "--json"]
    )
    assert back.exit_code == 0, back.output
    told = json.loads(back.output)
    assert told["to"] == str(other) and told["notes"] == 2
    assert Store(other).load("g1").state.turn == 2
    both = runner.invoke(app, ["relocate", "g1", "--to", "a", "--from", "b"])
    assert both.exit_code != 0 and "give --to DIR" in both.output
