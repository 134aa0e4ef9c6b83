"""How much mail a player gets: ``mail every-turn`` (a board after every turn), ``mail
my-turn`` (only at their move, telling what happened since their last move), ``mail digest``
(that, and once a day what happened meanwhile); by mail and by ``referee player --mail``."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.mail.state.ledger import Ledger
from tests.mail.club import Club, address, play_one, start, to_move
from tests.mail.players import mails_to

runner = CliRunner()


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return Club(tmp_path)


def letters_to(club: Club, name: str) -> int:
    return len(mails_to(club.mail, address(name)))


def play_round(club: Club, game: str, turns: int) -> list[str]:
    """``turns`` turns, each by the player to move taking tokens; who moved, in order."""
    return [play_one(club, game, take_only=True) for _ in range(turns)]


def test_my_turn_mail_comes_only_at_the_players_move_telling_every_turn_since(
    club: Club,
) -> None:
    game = start(club, "new splendor with bob@example.org cat@example.org")
    first = to_move(club, game)
    quiet = next(n for n in ("ann", "bob", "cat") if n != first)
    club.reply(quiet, "mail my-turn")
    club.serve()
    assert "only when it is your move" in club.words(quiet)
    assert Ledger(club.games / ".mail").mail_choice(address(quiet)) == "my-turn"
    before = letters_to(club, quiet)
    moved: list[str] = []
    while to_move(club, game) != quiet:
        moved += play_round(club, game, 1)
    assert letters_to(club, quiet) == before + 1  # none for the turns between
    words = club.words(quiet)
    assert "Your move" in str(club.latest(quiet)["Subject"])
    for turn, _who in enumerate(moved, 1):
        assert f"Turn {turn}:" in words
    # after their own move they hear nothing until it is their move again
    play_round(club, game, 1)
    assert letters_to(club, quiet) == before + 1


def test_the_game_master_chooses_digest_and_it_comes_once_a_day(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org cat@example.org")
    players = club.store.load(game).record.players
    last = players[-1].email.split("@")[0]  # moves last: two turns happen before theirs
    name = players[-1].name
    result = runner.invoke(app, ["player", game, name, "--mail", "digest", "--games-dir",
                                 str(club.games)])  # fmt: skip
    assert result.exit_code == 0 and "gets mail: digest" in result.output
    play_round(club, game, 2)
    play_round(club, game, 1)  # their own move
    before = letters_to(club, last)
    play_round(club, game, 1)  # the first player moves again: not their move
    assert letters_to(club, last) == before
    club.serve(timedelta(hours=12))
    assert letters_to(club, last) == before  # a digest tells a day's moves
    club.serve(timedelta(hours=12))
    digest = club.words(last)
    assert "what happened in your games" in str(club.latest(last)["Subject"])
    assert f"game {game}, turn 4:" in digest and f"game {game}, turn 3:" not in digest
    club.serve(timedelta(hours=23))
    assert letters_to(club, last) == before + 1  # told once
    play_round(club, game, 1)  # now it is their move: the board comes at once
    assert letters_to(club, last) == before + 2
    assert "Your move" in str(club.latest(last)["Subject"])


def test_mail_with_an_unknown_choice_says_the_three_choices(club: Club) -> None:
    club.write("ann", "mail sometimes")
    club.serve()
    words = club.words("ann")
    assert "'mail every-turn'" in words and "'mail digest'" in words


def test_every_turn_is_the_default_and_can_be_chosen_again(club: Club) -> None:
    club.write("ann", "mail digest")
    club.serve()
    club.write("ann", "mail every turn")
    club.serve()
    assert Ledger(club.games / ".mail").mail_choice(address("ann")) == "every-turn"


def test_a_my_turn_player_is_told_when_a_turn_of_theirs_is_played_for_them(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org cat@example.org deadline 1d "
                 "timeout forfeit")  # fmt: skip
    players = club.store.load(game).record.players
    last = players[-1].email.split("@")[0]
    club.reply(last, "mail my-turn")
    club.serve()
    play_round(club, game, 2)  # now it is their move: they are told
    before = letters_to(club, last)
    club.serve(timedelta(days=1, minutes=5))  # they let it pass: resigned by the clock
    assert letters_to(club, last) == before + 1
    assert "resign" in club.words(last).lower() or "forfeit" in club.words(last).lower()
