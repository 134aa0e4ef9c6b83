"""Computer players in games by mail: a seat played by a bot (its turns played by the
service as soon as they come, recorded with source bot), a game against a bot started by
mail, and a bot standing in for one overdue turn under the ``bot`` timeout policy."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from referee.engine import Buy, legal_moves
from referee.invitations import Invitations
from referee.mail.trail import Trail
from referee.notation import format_move
from tests.mail.club import Club
from tests.mail.players import mails_to


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return Club(tmp_path)


def test_a_game_against_a_bot_started_by_mail_is_played_to_the_end(club: Club) -> None:
    club.write("ann", "new splendor with bot:greedy points 6", display="Ann")
    club.serve()
    (game,) = Invitations(club.games).ids()
    assert club.store.has(game)  # nobody to wait for
    for _ in range(150):
        replayed = club.store.load(game)
        state = replayed.state
        if state.status == "finished":
            break
        assert replayed.record.players[state.to_move].bot is None  # the bot never waits
        moves = legal_moves(state)
        buys = [m for m in moves if isinstance(m, Buy)]
        club.reply("ann", format_move((buys or moves)[0]))
        club.serve(timedelta(minutes=5))
    final = club.store.load(game)
    assert final.state.status == "finished"
    bot_turns = [t for t in final.turns if t.source.kind == "bot"]
    assert bot_turns and all(t.source.level == "greedy" for t in bot_turns)
    assert all(t.source.seed is not None for t in bot_turns)
    assert str(club.latest("ann")["Subject"]).startswith("Game over")
    assert not [m for m in (club.mail / "outbox").glob("*.eml") if "bots.invalid" in m.name]


def test_an_unknown_bot_level_is_refused_with_the_levels(club: Club) -> None:
    club.write("ann", "new splendor with bot:genius")
    club.serve()
    assert Invitations(club.games).ids() == []
    assert "random, greedy, search" in club.words("ann")


def test_a_bot_seat_among_people_accepts_at_once(club: Club) -> None:
    club.write("ann", "new splendor with bob@example.org bot")
    club.serve()
    (game,) = Invitations(club.games).ids()
    assert "Bot (a greedy bot)" in club.words("bob")
    club.reply("bob", "accept")
    club.serve()
    replayed = club.store.load(game)
    assert [p.bot for p in replayed.record.players].count("greedy") == 1
    assert replayed.record.players[replayed.state.to_move].bot is None


def test_under_the_bot_policy_a_bot_plays_one_overdue_turn_and_the_player_plays_on(
    club: Club,
) -> None:
    club.write("ann", "new splendor with bob@example.org deadline 1d timeout bot")
    club.serve()
    club.reply("bob", "accept")
    club.serve()
    (game,) = Invitations(club.games).ids()
    late = club.store.load(game).state.player.name
    club.serve(timedelta(days=1, minutes=1))
    replayed = club.store.load(game)
    turn = replayed.turns[-1]
    assert replayed.state.turn == 1 and turn.player == late
    assert turn.source.kind == "bot" and turn.source.stand_in
    assert replayed.state.players[replayed.state.seat_of(late)].name == late
    assert late not in [replayed.state.players[s].name for s in replayed.state.resigned]
    who = next(p.email.split("@")[0] for p in replayed.record.players if p.name == late)
    assert "a bot (greedy) played this one turn for them" in club.words(who)


def test_against_a_bot_each_round_brings_one_letter_covering_both_turns(club: Club) -> None:
    club.write("ann", "new splendor with bot:greedy", display="Ann")
    club.serve()
    (game,) = Invitations(club.games).ids()
    state = club.store.load(game).state
    if club.store.load(game).record.players[state.to_move].bot is not None:
        club.serve(timedelta(minutes=1))  # the bot moved first: ann has her board
    before = len(mails_to(club.mail, "ann@example.org"))
    turn = club.store.load(game).state.turn
    club.reply("ann", "take red green blue")
    club.serve(timedelta(minutes=1))
    assert club.store.load(game).state.turn == turn + 2  # ann's turn, then the bot's
    letters = mails_to(club.mail, "ann@example.org")[before:]
    assert len(letters) == 1
    words = club.words("ann")
    assert f"Turn {turn + 1}: you took" in words and f"Turn {turn + 2}: Bot" in words
    assert str(letters[0]["Subject"]).startswith("Your move")
    assert letters[0]["In-Reply-To"]  # it answers ann's mail, as her turn's letter would
    out = [e for e in Trail(club.games).entries(game) if e["direction"] == "out"]
    assert [e["turn"] for e in out if e["ruling"] == "merged"] == [turn + 1]
