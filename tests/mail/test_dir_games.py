"""Whole games played by mail over the dir transport, and what the service does with every
kind of bad, automatic, repeated or oversized mail, and with being killed mid-game."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.engine import Buy, legal_moves
from referee.games import rollback
from referee.mail.transports.directory import DirTransport
from referee.service import Service, system_clock
from tests.mail.dirtable import NAMES, Table, address
from tests.mail.players import humanise, latest, mails_to, quick_reply, reply, text_of


def play_to_the_end(table: Table, seed: int) -> int:
    """Every move written by the player to move, in everyday words, as a reply to their
    latest mail; the referee answering each. Returns the number of turns."""
    rng = random.Random(seed)
    while (state := table.state).status != "finished":
        moves = legal_moves(state)
        move = rng.choice([m for m in moves if isinstance(m, Buy)] or moves)
        before = len(mails_to(table.mail, address(state.player.name)))
        table.reply(state.player.name, humanise(move, state, rng))
        table.serve()
        after = table.state
        assert after.turn == state.turn + 1, table.folder("refused")
        for p in after.players:
            mail = latest(table.mail, address(p.name))
            assert f"turn {after.turn}" in str(mail["Subject"])
        assert len(mails_to(table.mail, address(state.player.name))) == before + 1
    return table.state.turn


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_game_is_played_by_mail_over_the_dir_transport(
    tmp_path: Path, players: int
) -> None:
    table = Table(tmp_path, players=players, seed=players)
    for name in NAMES[:players]:
        welcome = latest(table.mail, address(name))
        assert "turn 0" in str(welcome["Subject"]) and "Welcome to Splendor game g1" in text_of(
            welcome
        )
        assert re.fullmatch(
            r"Splendor referee <referee\+g1\.\d\.[a-z2-7]{16}@example\.net>",
            str(welcome["Reply-To"]),
        )
    turns = play_to_the_end(table, seed=players)
    assert table.state.status == "finished"
    assert len(table.folder("done")) == turns and table.folder("refused") == []
    final = text_of(latest(table.mail, address("alice")))
    assert "The game is over" in final
    every = [m for n in NAMES[:players] for m in mails_to(table.mail, address(n))]
    assert len(every) == players * (turns + 1)
    for message in every:
        assert message["Auto-Submitted"] == "auto-replied"
        assert message.get_body(("html",)) is not None


def test_the_benchmarks_quick_reply_is_read_as_the_move_on_top(tmp_path: Path) -> None:
    table = Table(tmp_path)
    board = sorted((table.mail / "outbox").glob("*alice*"))[-1].read_bytes()
    to, raw = quick_reply(board, address("alice"), "take red green blue", "<quick@example.org>")
    assert to.startswith("referee+g1.0.")
    (table.mail / "inbox" / "quick.eml").write_bytes(raw)
    table.serve()
    assert table.state.turn == 1 and table.folder("done") == ["quick.eml"]


def test_a_refused_move_gets_the_line_the_reason_what_is_legal_and_the_board(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    table.reply("alice", "buy 1-99")
    table.serve()
    assert table.state.turn == 0 and len(table.folder("refused")) == 1
    text = text_of(latest(table.mail, address("alice")))
    assert "| buy 1-99" in text and "There is no card 1-99" in text
    assert "What you may do now:" in text and "take white blue green" in text
    assert "Splendor · game g1 · turn 0" in text
    table.reply("alice", "take 2 red\nbuy 1-01")
    table.serve()
    assert "One move at a time" in text_of(latest(table.mail, address("alice")))
    table.reply("bob", "take red green blue")
    table.serve()
    bob = text_of(latest(table.mail, address("bob")))
    assert "It is alice's turn, not bob's" in bob


def test_an_ambiguous_move_lists_candidates_to_send_back(tmp_path: Path) -> None:
    table = Table(tmp_path)
    for name, text in [
        ("alice", "take w u g"),
        ("bob", "take r k w"),
        ("alice", "take r k w"),
        ("bob", "take u g k"),
        ("alice", "take u g r"),
        ("bob", "take w u g"),
    ]:
        table.reply(name, text)
        table.serve()
    table.reply("alice", "take red black")
    table.serve()
    text = text_of(latest(table.mail, address("alice")))
    assert "you would hold 11 tokens: say which 1 to return" in text
    assert "  take red black, return white" in text


def test_help_board_and_moves_are_answered_by_mail(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.reply("alice", "moves")
    table.serve()
    text = text_of(latest(table.mail, address("alice")))
    assert "Every move you may make now (30):" in text and "reserve deck 3" in text
    table.reply("bob", "help")
    table.serve()
    text = text_of(latest(table.mail, address("bob")))
    assert "HOW TO MOVE" in text and "It is alice's turn" in text
    assert table.state.turn == 0 and table.folder("refused") == []


def test_a_spoofed_sender_never_moves_and_gets_one_short_refusal_without_a_board(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    for n in range(2):
        table.reply(
            "alice",
            "take red green blue",
            sender="mallory@example.com",
            message_id=f"<spoof{n}@example.com>",
        )
        table.serve()
    assert table.state.turn == 0 and len(table.folder("refused")) == 2
    to_mallory = mails_to(table.mail, "mallory@example.com")
    assert len(to_mallory) == 1
    text = text_of(to_mallory[0])
    assert "not read it as a move" in text and "Splendor · game" not in text
    assert to_mallory[0].get_body(("html",)) is None


def test_a_reply_with_a_wrong_key_never_moves(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.reply("alice", "take red green blue", to="referee+g1.0.aaaaaaaaaaaaaaaa@example.net")
    path = table.mail / "inbox"
    for eml in path.iterdir():  # also drop the In-Reply-To route, so only the bad key is left
        eml.write_bytes(re.sub(rb"(In-Reply-To|References): [^\n]*\n", b"", eml.read_bytes()))
    table.serve()
    assert table.state.turn == 0 and len(table.folder("refused")) == 1


def test_a_reply_routes_by_in_reply_to_when_the_plus_address_is_lost(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.reply("alice", "take red green blue", to="referee@example.net")
    table.serve()
    assert table.state.turn == 1


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"X-Autoreply": "yes"},
        {"List-Id": "<players.example.org>"},
        {"Return-Path": "<>"},
    ],
)
def test_automatic_mail_is_never_answered_nor_played(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    table = Table(tmp_path)
    sent = len(list((table.mail / "outbox").iterdir()))
    table.reply("alice", "take red green blue", extra_headers=headers)
    table.serve()
    assert table.state.turn == 0 and len(table.folder("quarantine")) == 1
    assert len(list((table.mail / "outbox").iterdir())) == sent


def test_a_bounce_is_never_answered(tmp_path: Path) -> None:
    table = Table(tmp_path)
    bounce = (
        "From: MAILER-DAEMON@example.org\r\nTo: referee@example.net\r\n"
        "Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <b1@example.org>\r\n"
        "Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\n"
        "--x\r\nContent-Type: text/plain\r\n\r\ntake red green blue\r\n--x--\r\n"
    )
    (table.mail / "inbox" / "bounce.eml").write_text(bounce)
    sent = len(list((table.mail / "outbox").iterdir()))
    table.serve()
    assert table.folder("quarantine") == ["bounce.eml"]
    assert len(list((table.mail / "outbox").iterdir())) == sent


def test_our_own_mail_coming_back_is_never_answered(tmp_path: Path) -> None:
    table = Table(tmp_path)
    ours = sorted((table.mail / "outbox").iterdir())[0]
    (table.mail / "inbox" / "echo.eml").write_bytes(ours.read_bytes())
    table.serve()
    assert table.folder("quarantine") == ["echo.eml"]


def test_a_duplicate_delivery_is_played_once(tmp_path: Path) -> None:
    table = Table(tmp_path)
    first = table.reply("alice", "take red green blue", message_id="<twice@example.org>")
    raw = first.read_bytes()
    (table.mail / "inbox" / "copy.eml").write_bytes(raw)
    table.serve()
    assert table.state.turn == 1
    assert len(table.folder("done")) == 2 and table.folder("refused") == []
    (table.mail / "inbox" / "later-copy.eml").write_bytes(raw)
    table.serve()
    assert table.state.turn == 1 and len(mails_to(table.mail, address("alice"))) == 2


def test_a_move_is_played_once_even_when_the_note_that_its_mail_was_read_is_lost(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    raw = table.reply("alice", "take red green blue", message_id="<once@example.org>").read_bytes()
    table.serve()
    bob = table.reply("bob", "take 2 white", message_id="<bob@example.org>").read_bytes()
    table.serve()
    assert table.state.turn == 2
    for note in (table.games / ".mail" / "seen").iterdir():  # as if lost in a crash
        note.unlink()
    (table.mail / "inbox" / "again.eml").write_bytes(raw)
    table.serve()
    assert table.state.turn == 2  # found in the game's turns
    rollback(table.store, "g1", 1, "bob's move was misread")
    for note in (table.games / ".mail" / "seen").iterdir():
        note.unlink()
    (table.mail / "inbox" / "bob-again.eml").write_bytes(bob)
    table.serve()
    assert table.state.turn == 1  # an undone move is not played again by its mail
    assert "bob-again.eml" in table.folder("done")


def test_oversized_mail_is_set_aside_unread_and_its_sender_told_once(tmp_path: Path) -> None:
    table = Table(tmp_path, max_message_bytes=5_000)
    for n in range(2):
        table.reply("alice", "take red green blue\n" + "x" * 6_000, message_id=f"<big{n}@e.org>")
        table.serve()
    assert table.state.turn == 0 and len(table.folder("quarantine")) == 2
    told = [m for m in mails_to(table.mail, address("alice")) if "too large" in str(m["Subject"])]
    assert len(told) == 1


def test_a_stale_reply_to_an_old_turns_mail_is_refused_with_the_board_now(tmp_path: Path) -> None:
    table = Table(tmp_path)
    welcome = latest(table.mail, address("alice"))
    table.reply("alice", "take red green blue")
    table.serve()
    table.reply("bob", "take red green blue")
    table.serve()
    reply(table.mail, welcome, address("alice"), "take 2 white", message_id="<old@example.org>")
    table.serve()
    assert table.state.turn == 2
    text = text_of(latest(table.mail, address("alice")))
    assert "answered the mail of turn 0" in text and "moved on to turn 2" in text


def test_garbage_bytes_never_stop_the_service(tmp_path: Path) -> None:
    table = Table(tmp_path)
    (table.mail / "inbox" / "noise.eml").write_bytes(os.urandom(3000))
    (table.mail / "inbox" / "empty.eml").write_bytes(b"")
    table.reply("alice", "take red green blue")
    table.serve()
    assert table.state.turn == 1
    assert sorted(table.folder("quarantine")) == ["empty.eml", "noise.eml"]


def test_no_mail_ever_shows_another_players_blind_card_or_a_deck_order(tmp_path: Path) -> None:
    table = Table(tmp_path, players=3, seed=12)
    rng = random.Random(12)
    for _ in range(24):
        state = table.state
        if state.status == "finished":
            break
        moves = legal_moves(state)
        blind = [m for m in moves if getattr(m, "deck", None)]
        move = rng.choice(blind if blind and rng.random() < 0.5 else moves)
        table.reply(state.player.name, humanise(move, state, rng))
        table.serve()
        state = table.state
        decks = {c for deck in state.decks for c in deck}
        for p in state.players:
            secret = {
                r.card for q in state.players if q.name != p.name for r in q.reserved if r.blind
            }
            message = latest(table.mail, address(p.name))
            shown = text_of(message) + message.get_body(("html",)).get_content()  # type: ignore[union-attr]
            for card in secret | decks:
                assert not re.search(rf"\b{card}\b", shown), (p.name, card)
    assert any(r.blind for p in table.state.players for r in p.reserved)


KILLER = """
import asyncio, sys
from pathlib import Path
from referee.mail.transports.directory import DirTransport
from referee.service import Service
from referee.settings import Settings
root = Path(sys.argv[1])
settings = Settings(games_dir=root / "games", mail_dir=root / "mail", address="referee@example.net")
print("ready", flush=True)
asyncio.run(Service(settings, DirTransport(root / "mail")).run())
"""


def test_the_service_killed_mid_game_and_restarted_loses_and_repeats_nothing(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, seed=21)
    rng = random.Random(21)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    for _ in range(6):
        # queue several turns' worth of replies: only the player to move can move, so write
        # the next reply after each kill, from the state on disk
        state = table.state
        if state.status == "finished":
            break
        moves = legal_moves(state)
        table.reply(state.player.name, humanise(rng.choice(moves), state, rng))
        worker = subprocess.Popen(
            [sys.executable, "-c", KILLER, str(tmp_path)], stdout=subprocess.PIPE, env=env
        )
        assert worker.stdout is not None and worker.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0.0, 0.4))
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    table.serve()  # a clean restart finishes whatever was cut short
    game = table.store.load("g1")
    played = [t.source.message_id for t in game.turns]
    assert len(played) == len(set(played)) == game.state.turn
    assert not list((table.mail / "inbox").iterdir())
    for p in game.record.players:
        subjects = [str(m["Subject"]) for m in mails_to(table.mail, address(p.name))]
        turns_mailed = {int(re.search(r"turn (\d+)", s).group(1)) for s in subjects}  # type: ignore[union-attr]
        assert set(range(game.state.turn + 1)) <= turns_mailed
    pending = list((table.games / ".mail" / "outbox").glob("*.json"))
    assert pending == []
    sent = [json.loads(p.read_bytes()) for p in (table.games / ".mail" / "sent").glob("*.json")]
    assert len(sent) >= 2 * (game.state.turn + 1)


def test_the_service_stops_when_told_even_as_letters_are_woken_for(tmp_path: Path) -> None:
    """A stop (SIGTERM cancels the service) that comes in the same instant as a wake for
    letters still stops the postman: asyncio.wait_for on Python 3.11 lost such a cancel,
    and the service then never stopped (seen once in CI)."""
    table = Table(tmp_path)

    async def stop_as_woken() -> bool:
        service = Service(table.settings, DirTransport(table.mail), system_clock)
        sending = asyncio.create_task(service._keep_sending())
        await asyncio.sleep(0.3)  # the postman has looked, and waits to be woken
        service._wake()
        sending.cancel()
        try:
            await asyncio.wait_for(asyncio.shield(sending), timeout=5)
        except asyncio.CancelledError:
            return True
        except TimeoutError:
            sending.cancel()
            return False
        return False

    assert asyncio.run(stop_as_woken())
