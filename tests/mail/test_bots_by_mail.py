"""Computer players in games by mail: a seat played by a bot (its turns played by the
service as soon as they come, recorded with source bot), a game against a bot started by
mail, and a bot standing in for one overdue turn under the ``bot`` timeout policy."""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.engine import Buy, legal_moves
from referee.invitations import Invitations
from referee.mail.state.spool import Spool
from referee.mail.state.trail import Trail
from referee.mail.transports.directory import DirTransport
from referee.notation import format_move
from referee.service import Service, system_clock
from referee.settings import Settings
from referee.store import Store
from tests.mail.club import RECEIVING_SERVER, REFEREE, Club, address
from tests.mail.players import mails_to, reply, text_of, write

#: A routing secret and a proposal's Message-ID that seat the bot first: the seats are drawn
#: from the game's seed, which is made from both.
SECRET = bytes(range(32))
BOT_FIRST = "<bot-first-3@example.org>"


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
    other = next(p.email.split("@")[0] for p in replayed.record.players if p.name != late)
    # the late player is told in the second person, the other of them by name
    assert "Your move was not made by its deadline, so a bot (greedy) played this one turn " \
        "for you" in club.words(who)  # fmt: skip
    assert f"{late}'s move was not made by its deadline, so a bot (greedy) played this one " \
        "turn for them" in club.words(other)  # fmt: skip


def test_against_a_bot_each_round_brings_one_letter_covering_both_turns(club: Club) -> None:
    club.write("ann", "new splendor with bot:greedy", display="Ann")
    club.serve()
    (game,) = Invitations(club.games).ids()
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
    assert [e["turn"] for e in out if e["ruling"] == "merged" and e["turn"] > turn] == [turn + 1]


def seat_the_bot_first(games: Path) -> None:
    """Give a games folder the routing secret that, with BOT_FIRST, seats the bot first (the
    service reads it when it starts)."""
    kept = Spool(games).lock.root / "secret"
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text(SECRET.hex() + "\n")


def propose_to_a_bot(mail: Path) -> None:
    """ann writes `new splendor with bot:search` to the referee."""
    write(
        mail,
        address("ann"),
        REFEREE,
        "new splendor with bot:search",
        message_id=BOT_FIRST,
        name="Ann",
        checked_by=RECEIVING_SERVER,
    )


def the_one_letter_of_the_start(games: Path, mail: Path) -> EmailMessage:
    """The one letter ann got for the start of a game whose bot moved first: the welcome,
    the bot's first move, the board and that it is her turn (not "Bot to move", then "Your
    move" a moment later)."""
    (game,) = Invitations(games).ids()
    replayed = Store(games).load(game)
    assert replayed.record.players[0].bot == "search"  # SECRET and BOT_FIRST seat it first
    assert replayed.state.turn == 1
    letters = mails_to(mail, address("ann"))
    assert len(letters) == 1, [str(m["Subject"]) for m in letters]
    (letter,) = letters
    assert str(letter["Subject"]) == f"Your move · Splendor {game} · turn 1"
    text = text_of(letter)
    words = " ".join(text.split())
    assert f"Welcome to Splendor game {game}. The players, in turn order: Bot (seat 0)" in words
    assert "Turn 1: Bot " in words and "It is your turn" in words
    assert "moves first" not in words  # the welcome's "Bot moves first": turn 1 says it
    assert "HOW TO MOVE" in text and "Ann to move" in text
    out = [e for e in Trail(games).entries(game) if e["direction"] == "out"]
    assert [(e["turn"], e["ruling"]) for e in out] == [(0, "merged"), (1, "sent")]
    return letter


def test_a_game_whose_bot_moves_first_starts_with_one_letter(club: Club) -> None:
    seat_the_bot_first(club.games)
    propose_to_a_bot(club.mail)
    club.serve()  # serve --mail-dir --once
    the_one_letter_of_the_start(club.games, club.mail)


def test_over_the_running_service_a_bot_game_brings_one_letter_at_the_start_and_a_round(
    tmp_path: Path,
) -> None:
    """`referee serve --mail-dir` running: ann proposes a game to a bot that moves first,
    and gets one letter; she replies with a move, and gets one letter with the bot's reply.
    Waits for the service only as long as it needs: until the turns are written and the
    outbox is empty (a turn's letters are queued before it is written) and the letters are
    in the game's trail (written when the service's look ends, after the outbox)."""
    games, mail = tmp_path / "games", tmp_path / "mail"
    settings = Settings(
        games_dir=games, mail_dir=mail, address=REFEREE, trusted_authserv_id=RECEIVING_SERVER
    )
    store, outbox = Store(games), games / ".mail" / "outbox"

    def played_and_mailed(turn: int) -> bool:
        started = Invitations(games).ids()
        return (
            bool(started)
            and store.has(started[0])
            and store.load(started[0]).state.turn >= turn
            and not list(outbox.glob("*.json"))
            and any(  # (a look writes its letters to the trail when it ends)
                e["direction"] == "out" and e["ruling"] == "sent" and e["turn"] >= turn
                for e in Trail(games).entries(started[0])
            )
        )

    async def settled(turn: int) -> None:
        deadline = time.monotonic() + 60
        while not played_and_mailed(turn):
            assert time.monotonic() < deadline, f"turn {turn} not played and mailed in 60 s"
            await asyncio.sleep(0.05)

    async def play() -> None:
        seat_the_bot_first(games)
        service = Service(settings, DirTransport(mail), system_clock)
        running = asyncio.create_task(service.run())
        try:
            propose_to_a_bot(mail)
            await settled(1)
            start = the_one_letter_of_the_start(games, mail)
            (game,) = Invitations(games).ids()
            move = format_move(legal_moves(store.load(game).state)[0])
            reply(mail, start, address("ann"), move, message_id="<round-1@example.org>")
            await settled(3)
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running

    asyncio.run(play())
    letters = mails_to(mail, address("ann"))
    assert [str(m["Subject"]).split(" · ")[::2] for m in letters] == [
        ["Your move", "turn 1"],
        ["Your move", "turn 3"],
    ]
    words = " ".join(text_of(letters[1]).split())
    assert "Turn 2: you " in words and "Turn 3: Bot " in words
