"""Games over, seen by the service: its looks (bots, reminders, deadlines, digests) read only
the games in play, so what a look costs does not grow with the games played long ago; the
``games`` command still lists what the sender's games over came to, without replaying them."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

import referee.mail.runner as runner_module
from referee.engine import legal_moves
from referee.games import change_address, create_game, play_move, resign, rollback
from referee.mail.desk import Desk
from referee.mail.herald import MailHerald
from referee.mail.transports.directory import DirTransport
from referee.notation import format_move
from referee.record import SourceEntry
from referee.service import Service
from referee.store import Store
from tests.mail.club import Club, address, start

CLI = SourceEntry(kind="command-line")


def finished(club: Club, game: str, names: list[str], leave: list[str]) -> None:
    create_game(club.store, game, [(n, address(n)) for n in names], seed=3,
                herald=MailHerald.of(club.games))  # fmt: skip
    for name in leave:
        resign(club.store, game, name, CLI, at=club.now)


def games_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every game any store reads whole (its turn files) from here on."""
    read: list[str] = []
    original = Store.read

    def reading(store: Store, game_id: str) -> tuple[bytes, list[tuple[str, bytes]]]:
        read.append(game_id)
        return original(store, game_id)

    monkeypatch.setattr(Store, "read", reading)
    return read


def test_a_look_reads_the_games_in_play_and_not_the_games_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = Club(tmp_path)
    for n in range(3):
        finished(club, f"over{n}", ["ann", "bob"], ["bob"])
    running = start(club, "new splendor with bob@example.org")
    club.serve()  # (the first look finds them over)
    read = games_read(monkeypatch)
    club.serve(after=timedelta(hours=1))  # a new service: it believes the notes
    club.serve(after=timedelta(days=1))  # (the day's duties too)
    assert set(read) == {running}


def test_games_lists_the_senders_games_over_with_their_winners_and_in_play_in_id_order(
    tmp_path: Path,
) -> None:
    club = Club(tmp_path)
    finished(club, "aa-old", ["ann", "bob"], ["ann"])
    club.serve(after=timedelta(days=31))  # aa-old ended 31 days ago: no longer listed
    club.serve()
    finished(club, "bb-won", ["ann", "bob"], ["bob"])
    finished(club, "dd-lost", ["ann", "cyd"], ["ann"])
    finished(club, "ee-other", ["bob", "cyd"], ["cyd"])
    create_game(club.store, "cc-on", [("ann", address("ann")), ("dee", address("dee"))], seed=3,
                herald=MailHerald.of(club.games))  # fmt: skip
    club.serve()
    club.write("ann", "games")
    club.serve()
    lines = [line for line in club.text("ann").splitlines() if " · turn " in line]
    assert [line.split(" · ")[0].strip("- ") for line in lines] == ["bb-won", "cc-on", "dd-lost"]
    assert "bb-won · finished · turn 1 · won by ann" in lines[0]
    assert "dd-lost · finished · turn 1 · won by cyd" in lines[2]


def test_the_bots_look_reads_only_the_games_where_a_bot_has_a_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = Club(tmp_path)
    for game, bots in (("people", None), ("with-bot", {"bob": "greedy"})):
        create_game(club.store, game, [("ann", address("ann")), ("bob", address("bob"))],
                    seed=3, herald=MailHerald.of(club.games), bots=bots)  # fmt: skip
    looked: list[str] = []
    original = runner_module.bot_to_move
    monkeypatch.setattr(
        runner_module, "bot_to_move", lambda game: looked.append(game.record.id) or original(game)
    )
    club.serve()
    club.serve(after=timedelta(hours=1))
    assert looked and set(looked) == {"with-bot"}


def test_the_bots_look_loads_a_game_again_only_once_a_turn_has_come_or_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = Club(tmp_path)
    create_game(club.store, "with-bot", [("ann", address("ann")), ("bob", address("bob"))],
                seed=3, herald=MailHerald.of(club.games), bots={"bob": "greedy"})  # fmt: skip
    runner = Service(club.settings, DirTransport(club.mail), lambda: club.now).runner
    looked: list[int] = []
    original = runner_module.bot_to_move
    monkeypatch.setattr(
        runner_module, "bot_to_move", lambda game: looked.append(game.state.turn) or original(game)
    )
    assert runner.play_bots(club.now) == 0 and looked == [0]  # ann's move: no bot to move
    assert runner.play_bots(club.now) == 0 and looked == [0]  # nothing changed: not loaded
    state = Store(club.games).load("with-bot").state  # another process plays ann's move
    play_move(Store(club.games), "with-bot", "ann", format_move(legal_moves(state)[0]), CLI)
    assert runner.play_bots(club.now) == 1 and looked == [0, 1]  # seen: bob, the bot, moves
    runner.play_bots(club.now)
    runner.play_bots(club.now)
    assert looked == [0, 1, 2] and Store(club.games).load("with-bot").state.turn == 2
    rollback(Store(club.games), "with-bot", 1, "ann asked")  # a turn gone: bob's move again
    assert runner.play_bots(club.now) == 1 and looked == [0, 1, 2, 1]


def test_finding_the_senders_games_loads_only_the_games_they_play_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = Club(tmp_path)
    for game, names in (("g-ann", ["ann", "bob"]), ("g-cyd", ["cyd", "bob"]),
                        ("g-moved", ["dee", "bob"])):  # fmt: skip
        create_game(club.store, game, [(n, address(n)) for n in names], seed=3,
                    herald=MailHerald.of(club.games))  # fmt: skip
    change_address(Store(club.games), "g-moved", "dee", address("ann"), "same person", by="gm")
    club.serve()
    loaded: list[str] = []
    original = Desk._load
    monkeypatch.setattr(Desk, "_load", lambda desk, g: loaded.append(g) or original(desk, g))
    club.write("ann", "games")
    club.serve()
    assert sorted(loaded) == ["g-ann", "g-moved"]
    assert "g-moved" in club.text("ann") and "g-cyd" not in club.text("ann")
