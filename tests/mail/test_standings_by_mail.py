"""The ``standings`` command by mail: the sender's standing among those they finished games
with, by name (never an address, never a stranger's results)."""

from __future__ import annotations

from pathlib import Path

from referee.games import create_game, resign
from referee.mail.herald import MailHerald
from referee.record import SourceEntry
from tests.mail.club import Club, address

CLI = SourceEntry(kind="command-line")


def finished(club: Club, game: str, names: list[str], leave: list[str]) -> None:
    create_game(club.store, game, [(n, address(n)) for n in names], seed=3,
                herald=MailHerald.of(club.games))  # fmt: skip
    for name in leave:
        resign(club.store, game, name, CLI)


def test_standings_by_mail_list_the_senders_circle_by_name_best_first(tmp_path: Path) -> None:
    club = Club(tmp_path)
    finished(club, "a", ["ann", "bob"], ["bob"])  # ann wins
    finished(club, "b", ["ann", "bob"], ["ann"])  # bob wins
    finished(club, "c", ["bob", "cyd"], ["cyd"])  # bob wins (counted in his line)
    finished(club, "d", ["dee", "eve"], ["eve"])
    club.serve()
    club.write("ann", "standings")
    club.serve()
    words = club.words("ann")
    assert "over your 2 finished games" in words
    assert "1. bob · played 3 · won 2 · shared 0 · resigned 1" in words
    assert "2. you · played 2 · won 1 · shared 0 · resigned 1" in words
    # cyd played bob, not ann; dee and eve played nobody ann knows: none of them is shown
    assert "cyd" not in words and "dee" not in words and "eve" not in words
    assert address("bob") not in words


def test_standings_as_a_reply_in_a_game_and_from_someone_with_none(tmp_path: Path) -> None:
    club = Club(tmp_path)
    finished(club, "a", ["ann", "bob"], ["bob"])
    club.serve()
    club.reply("ann", "standings")
    club.serve()
    assert "1. you · played 1 · won 1" in club.words("ann")
    club.write("zed", "standings")
    club.serve()
    assert "You have not finished a game here yet" in club.words("zed")
