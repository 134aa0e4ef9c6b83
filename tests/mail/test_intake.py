"""A sturdy intake over the dir transport: the service killed at any instant loses no move,
plays none twice and loses no answer; one service per games folder; a Maildir inbox; what
the service keeps per mail expires; JSON moves by mail; addresses checked at creation."""

from __future__ import annotations

import asyncio
import contextlib
import json
import mailbox
import multiprocessing
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee import failpoints
from referee.cli import app
from referee.engine import Buy, legal_moves
from referee.games import judge_move
from referee.invitations import Invitations
from referee.mail.judging.facts import GameFacts
from referee.mail.judging.telling import turn_letters
from referee.mail.state.outbox import Answer, Commit
from referee.mail.state.spool import Spool
from referee.mail.transports.directory import DirTransport
from referee.record import SourceEntry, digest, dump
from referee.service import Service
from referee.wording.letter import Letter
from referee.wording.messages import say
from tests.mail.club import Club, play_one, start
from tests.mail.dirtable import NAMES, Table, address
from tests.mail.players import deliver, humanise, latest, mails_to, reply_message, text_of
from tests.recorded import recorded_game

ROOT = Path(__file__).parents[2]
#: Every failpoint the intake passes, in the order a mail meets them.
POINTS = (
    "judged",
    "limit-noted",
    "queued",
    "turn-written",
    "seen-noted",
    "filed",
    "thread-noted",
    "sent",
)


def serve_and_die(table: Table, armed: dict[str, int], now: datetime | None = None) -> int:
    """Run the service once in a forked process with failpoints ``armed``; its exit status
    (failpoints.CRASH_STATUS when it died at one, 0 when it finished)."""

    def run() -> None:
        failpoints._ARMED.clear()
        failpoints._ARMED.update(armed)
        table.serve(now)

    child = multiprocessing.get_context("fork").Process(target=run)
    child.start()
    child.join()
    assert child.exitcode in (0, failpoints.CRASH_STATUS), child.exitcode
    return child.exitcode


def serve_club_and_die(club: Club, armed: dict[str, int]) -> int:
    """As :func:`serve_and_die`, for a club of people writing mail."""

    def run() -> None:
        failpoints._ARMED.clear()
        failpoints._ARMED.update(armed)
        club.serve()

    child = multiprocessing.get_context("fork").Process(target=run)
    child.start()
    child.join()
    assert child.exitcode in (0, failpoints.CRASH_STATUS), child.exitcode
    return child.exitcode


def every_letter(table: Table) -> list[EmailMessage]:
    return [m for n in NAMES for m in mails_to(table.mail, address(n))]


def answers_to(table: Table, message_id: str) -> set[str]:
    """The distinct Message-IDs of the letters answering one reply."""
    return {str(m["Message-ID"]) for m in every_letter(table) if m["In-Reply-To"] == message_id}


BAD_MOVES = ("buy 1-99", "take 2 purple", "reserve 4-01", "take red red red", "buy")


def test_the_service_killed_at_any_instant_through_a_whole_game_loses_and_doubles_nothing(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, seed=31)
    rng = random.Random(31)
    crashes: Counter[str] = Counter()
    runs = 0
    replies: list[tuple[str, str]] = []  # (Message-ID, "move" or "refused")

    def handle_with_crashes() -> None:
        nonlocal runs
        for attempt in range(4):
            runs += 1
            point = POINTS[runs % len(POINTS)]
            armed = {point: rng.randint(1, 2)} if attempt < 3 else {}
            if serve_and_die(table, armed) == failpoints.CRASH_STATUS:
                crashes[point] += 1
            else:
                break
        assert not [p for p in (table.mail / "inbox").iterdir() if not p.name.startswith(".")]

    while (state := table.state).status != "finished":
        name = state.player.name
        if rng.random() < 0.3:  # a refused move first, answered with why
            path = table.reply(name, rng.choice(BAD_MOVES))
            replies.append((_id_of(path), "refused"))
            handle_with_crashes()
            assert table.state.turn == state.turn
        moves = legal_moves(state)
        move = rng.choice([m for m in moves if isinstance(m, Buy)] or moves)
        path = table.reply(name, humanise(move, state, rng))
        replies.append((_id_of(path), "move"))
        handle_with_crashes()
        assert table.state.turn == state.turn + 1

    assert set(crashes) == set(POINTS), crashes  # died at every kind of instant
    game = table.store.load("g1")  # every turn file checked
    played = [t.source.message_id for t in game.turns]
    assert played == [m for m, kind in replies if kind == "move"]  # none lost, none twice
    for message_id, _ in replies:
        assert len(answers_to(table, message_id)) == 1, message_id  # answered, once
    for name in NAMES[:2]:
        boards: defaultdict[int, set[str]] = defaultdict(set)
        for mail in mails_to(table.mail, address(name)):
            subject = str(mail["Subject"])
            found = re.search(r"· turn (\d+)$", subject)
            if subject.startswith("Move not played"):
                found = None
            if found:
                boards[int(found.group(1))].add(str(mail["Message-ID"]))
        assert sorted(boards) == list(range(game.state.turn + 1)), name
        assert all(len(ids) == 1 for ids in boards.values()), name  # a board sent again is
        # the same message (a crash just after sending), never a second board
    assert not list((table.games / ".mail" / "outbox").glob("*.json"))


def _id_of(path: Path) -> str:
    found = re.search(rb"^Message-ID: (<[^>]+>)", path.read_bytes(), re.MULTILINE | re.I)
    assert found
    return found.group(1).decode()


def test_a_refusal_is_answered_though_the_service_died_after_noting_the_daily_limit(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    bad = _id_of(table.reply("alice", "buy 1-99"))
    assert serve_and_die(table, {"limit-noted": 1}) == failpoints.CRASH_STATUS
    assert answers_to(table, bad) == set()
    table.serve()
    assert len(answers_to(table, bad)) == 1
    again = _id_of(table.reply("alice", "buy 1-99"))  # the same refusal, the same day
    table.serve()
    assert answers_to(table, again) == set()  # the limit still holds for another mail


def test_a_letter_noted_in_the_thread_but_not_sent_goes_out_after_a_crash(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    move = _id_of(table.reply("alice", "take red green blue"))
    assert serve_and_die(table, {"thread-noted": 1}) == failpoints.CRASH_STATUS
    table.serve()
    (board,) = [m for m in mails_to(table.mail, address("alice")) if m["In-Reply-To"] == move]
    thread = Spool(table.games).threads.thread("g1", 0)
    assert thread.count(str(board["Message-ID"])) == 1
    table.reply("bob", "take 2 white")
    table.serve()
    table.reply("alice", "take white black red")  # answers the board of turn 2, threaded
    table.serve()
    assert table.state.turn == 3


def test_a_letter_sent_just_before_a_crash_goes_out_again_as_the_same_message(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    table.reply("alice", "take red green blue")
    assert serve_and_die(table, {"sent": 1}) == failpoints.CRASH_STATUS
    table.serve()
    ids = Counter(str(m["Message-ID"]) for m in every_letter(table))
    assert sorted(ids.values()) == [1, 1, 1, 2]  # welcomes, and the boards of turn 1
    assert table.state.turn == 1


def test_a_turns_letters_cut_short_are_set_aside_when_it_is_judged_again_within_the_second(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    moment = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    table.reply("alice", "take red green blue")
    # dies between queueing the turn's letters and writing its turn file; judged again at
    # the same instant, the turn file comes out byte for byte the same as the one that was
    # meant: the first letters must still not go out
    assert serve_and_die(table, {"queued": 1}, now=moment) == failpoints.CRASH_STATUS
    table.serve(now=moment)
    assert table.state.turn == 1
    assert table.store.load("g1").turns[0].at == moment
    for name in NAMES[:2]:
        mails = mails_to(table.mail, address(name))
        boards = [m for m in mails if str(m["Subject"]).endswith("turn 1")]
        assert len(boards) == 1, name
    void = [json.loads(p.read_text()) for p in (table.games / ".mail" / "void").glob("*.json")]
    assert len(void) == 2 and all(v["letter"]["turn"] == 1 for v in void)


@contextlib.contextmanager
def a_running_service(table: Table) -> Iterator[subprocess.Popen[bytes]]:
    """`referee serve` on the table's folders, running, until the block ends."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--mail-dir", str(table.mail),
         "--games-dir", str(table.games)],
        env=env, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        told = table.games / ".mail" / "status.json"  # written once it has checked its mail
        deadline = time.monotonic() + 20
        while not (told.exists() and f'"pid": {first.pid}' in told.read_text()):
            assert time.monotonic() < deadline, "the first service did not start"
            time.sleep(0.05)
        yield first
    finally:
        first.terminate()
        first.wait(timeout=20)


def test_a_second_service_on_the_same_games_folder_refuses_to_start_with_exit_78(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    with a_running_service(table) as first:
        result = CliRunner().invoke(
            app,
            ["serve", "--once", "--mail-dir", str(table.mail), "--games-dir", str(table.games)],
        )
        assert result.exit_code == 78  # EX_CONFIG: systemd does not restart it every 5 s
        assert f"another referee service (pid {first.pid}" in result.stderr
        assert "one service per games folder" in result.stderr
    table.serve()  # free again once it has stopped


def test_mail_delivered_into_a_maildir_inbox_is_read(tmp_path: Path) -> None:
    table = Table(tmp_path)
    for folder in ("tmp", "new", "cur"):  # made by the MTA on its first delivery
        (table.mail / "inbox" / folder).mkdir()
    box = mailbox.Maildir(table.mail / "inbox")  # delivers as an MTA does: tmp/, then new/
    message = reply_message(
        latest(table.mail, address("alice")),
        address("alice"),
        "take red green blue",
        message_id="<maildir@example.org>",
    )
    key = box.add(bytes(message))
    table.serve()
    assert table.state.turn == 1
    assert not list((table.mail / "inbox" / "new").iterdir())
    assert any(key in name for name in table.folder("done"))


def test_a_half_written_file_in_the_inbox_is_never_read(tmp_path: Path) -> None:
    table = Table(tmp_path)
    raw = bytes(
        reply_message(
            latest(table.mail, address("alice")),
            address("alice"),
            "take red green blue",
            message_id="<slow@example.org>",
        )
    )
    inbox = table.mail / "inbox"
    (inbox / ".slow.eml.tmp").write_bytes(raw[:200])
    (inbox / "slow.eml.part").write_bytes(raw[:300])
    table.serve()
    assert table.state.turn == 0 and table.folder("quarantine") == []
    (inbox / "slow.eml.part").unlink()
    (inbox / ".slow.eml.tmp").unlink()
    deliver(table.mail, "slow.eml", raw)
    table.serve()
    assert table.state.turn == 1


def test_a_json_move_in_a_mail_is_played(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.reply("alice", '{"type": "take", "gems": {"red": 1, "green": 1, "blue": 1}}')
    table.serve()
    assert table.state.turn == 1
    table.reply("bob", '{\n  "type": "reserve",\n  "deck": 3\n}\n\nSent from my iPhone')
    table.serve()
    assert table.state.turn == 2


def test_what_the_service_keeps_per_mail_expires_but_never_what_stops_a_move_twice(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    start = datetime.now(UTC)
    move = table.reply("alice", "take red green blue").read_bytes()
    table.reply("bob", "buy 1-99")  # refused: a note and a daily limit
    stranger = EmailMessage()
    stranger["From"], stranger["To"] = "someone@example.com", "referee@example.net"
    stranger["Message-ID"], stranger["Subject"] = "<stranger@example.com>", "hello"
    stranger.set_content("take red green blue")
    deliver(table.mail, "stranger.eml", bytes(stranger))
    table.serve(now=start)
    mail = table.games / ".mail"
    recorded_game(table.games, "g2")  # a game that has ended, with notes of its own
    spool = Spool(table.games)
    spool.notes.mark_seen("<old@example.org>", "played: …", game="g2")
    spool.threads.extend_thread("g2", 0, "<g2.0.x@example.net>")

    def games_of_notes() -> list[str]:
        return sorted(str(json.loads(p.read_text())["game"]) for p in (mail / "seen").iterdir())

    assert games_of_notes() == ["None", "g1", "g1", "g2"]
    assert list((mail / "limits").iterdir()) and list((mail / "sent").iterdir())

    table.serve(now=start + timedelta(days=10))
    assert not list((mail / "limits").iterdir())  # a day's limits: two days
    assert list((mail / "sent").iterdir())  # letters sent: four weeks
    assert games_of_notes() == ["None", "g1", "g1", "g2"]
    assert (mail / "threads" / "g2.0").exists()

    table.serve(now=start + timedelta(days=29))
    kept = [json.loads(p.read_text())["letter"]["kind"] for p in (mail / "sent").iterdir()]
    assert set(kept) <= {"reminder"}  # only today's reminder: g1's move is overdue
    assert games_of_notes() == ["g1", "g1"]  # g1 runs; g2 ended four weeks ago; no game
    assert not (mail / "threads" / "g2.0").exists()
    assert (mail / "threads" / "g1.0").exists() and (mail / "threads" / "g1.1").exists()

    for note in (mail / "seen").iterdir():  # even with every note gone
        note.unlink()
    deliver(table.mail, "again.eml", move)
    table.serve()
    assert table.state.turn == 1  # the move is in the game's turns: never played twice


def test_mail_handled_is_cleared_from_the_mail_folder_after_keep_filed_days_but_not_if_set_aside(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, game_master="gm@example.org")
    start = datetime.now(UTC)
    table.reply("bob", "take red green blue", message_id="<early@example.org>")  # refused
    table.reply("alice", "take red green blue", message_id="<move@example.org>")  # played
    table.reply(
        "alice", "I am away", message_id="<away@example.org>",
        extra_headers={"Auto-Submitted": "auto-replied"},
    )  # fmt: skip
    table.serve(now=start)
    turn = table.games / "g1" / "turns" / "0001.toml"
    good = turn.read_bytes()
    turn.write_bytes(good + b"# edited\n")  # the game cannot be read: bob's mail is set aside
    table.reply("bob", "take 2 white", message_id="<bob-move@example.org>")
    table.serve(now=start)
    turn.write_bytes(good)
    filed = {f: table.folder(f) for f in ("done", "refused", "quarantine")}
    assert filed == {
        "done": ["move_example.org.eml"],
        "refused": ["early_example.org.eml"],
        "quarantine": ["away_example.org.eml", "bob-move_example.org.eml"],
    }

    table.serve(now=start + timedelta(days=27))  # kept for 28 days (keep_filed_days)
    assert {f: table.folder(f) for f in filed} == filed
    table.serve(now=start + timedelta(days=29))
    assert table.folder("done") == [] and table.folder("refused") == []
    assert table.folder("quarantine") == ["bob-move_example.org.eml"]  # waits for the gm

    mails = json.loads(referee_json(table, "inbox"))["mails"]
    (noted,) = [m for m in mails if m["kind"] == "set aside"]
    assert (
        CliRunner()
        .invoke(app, ["inbox", "retry", noted["id"], "--games-dir", str(table.games)])
        .exit_code
        == 0
    )
    table.serve(now=start + timedelta(days=29))
    assert table.state.turn == 2  # handed back, and played


def test_mail_handled_is_kept_for_ever_with_keep_filed_days_0(tmp_path: Path) -> None:
    table = Table(tmp_path, keep_filed_days=0)
    start = datetime.now(UTC)
    table.reply("alice", "take red green blue", message_id="<move@example.org>")
    table.serve(now=start)
    table.serve(now=start + timedelta(days=400))
    assert table.folder("done") == ["move_example.org.eml"]


def referee_json(table: Table, *args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--json", "--games-dir", str(table.games)])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_players_address_is_checked_when_a_game_is_created(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["new", "g1", "--player", "alice=alice@example.org", "--player", "bob=bob@",
         "--games-dir", str(tmp_path)],
    )  # fmt: skip
    assert result.exit_code == 1
    assert (
        "player bob: 'bob@' is not a mail address: There must be something after the @-sign"
        in result.stderr
        and "bob=name@example.org" in result.stderr
    )
    assert not (tmp_path / "g1").exists()


def test_a_turns_letters_wait_while_its_writer_holds_the_game_and_go_once_it_is_written(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    game = table.store.load("g1")
    played = judge_move(game, "alice", "take red green blue", SourceEntry(kind="command-line"))
    data = dump(played.turn)
    letters = turn_letters(game, played, GameFacts(game))
    spool = Spool(table.games)
    with table.store.locked("g1"):  # a `referee move` stalled between queueing and writing
        spool.outbox.queue(letters, Commit("g1", 1, digest(data)))
        table.serve()
        assert len(list((table.games / ".mail" / "outbox").glob("*.json"))) == 2
        table.store.write_turn("g1", 1, data)
    table.serve()
    assert not list((table.games / ".mail" / "outbox").glob("*.json"))
    assert all(str(latest(table.mail, address(n))["Subject"]).endswith("turn 1") for n in NAMES[:2])


def test_a_turns_letters_whose_writer_died_before_writing_it_are_set_aside(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    game = table.store.load("g1")
    played = judge_move(game, "alice", "take red green blue", SourceEntry(kind="command-line"))
    letters = turn_letters(game, played, GameFacts(game))
    Spool(table.games).outbox.queue(letters, Commit("g1", 1, digest(dump(played.turn))))
    table.serve()  # the game's lock is free and its turn 1 missing: it never will be written
    assert not list((table.games / ".mail" / "outbox").glob("*.json"))
    assert len(list((table.games / ".mail" / "void").glob("*.json"))) == 2
    assert table.state.turn == 0


def test_a_mail_for_a_busy_game_waits_in_the_inbox_and_is_played_later(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.reply("alice", "take red green blue")
    service = Service(table.settings, DirTransport(table.mail))
    service.store.lock_timeout = 0.2
    with table.store.locked("g1"):  # a long `referee rollback`, say
        asyncio.run(service.run(once=True))
    assert table.folder("quarantine") == [] and len(table.folder("inbox")) == 1
    table.serve()
    assert table.state.turn == 1 and table.folder("inbox") == []


def test_a_damaged_file_in_the_outbox_is_set_aside_and_the_rest_go_out(tmp_path: Path) -> None:
    table = Table(tmp_path)
    outbox = table.games / ".mail" / "outbox"
    (outbox / "00000000000000000000-damaged.json").write_text('{"attempts": 0}')
    (outbox / "00000000000000000001-garbage.json").write_bytes(b"\xff\x00 not json")
    table.reply("alice", "take red green blue")
    table.serve()
    assert table.state.turn == 1 and not list(outbox.glob("*.json"))
    assert len(list((table.games / ".mail" / "void").glob("unreadable-*.json"))) == 2
    assert str(latest(table.mail, address("bob"))["Subject"]).endswith("turn 1")


def test_a_note_that_letters_still_wait_for_is_not_cleared_away(tmp_path: Path) -> None:
    spool = Spool(tmp_path)
    letter = Letter("", None, "x@example.org", "x", 0, "notice", say("notice.no_subject"),
                    origin="<k@x>")  # fmt: skip
    spool.outbox.queue([letter], answer=Answer("<k@x>", "b1"))
    spool.notes.mark_seen("<k@x>", "refused: …", batch="b1")
    spool.notes.mark_seen("<other@x>", "refused: …")
    later = datetime.now(UTC) + timedelta(days=90)
    spool.expire(later, lambda game: None)
    assert spool.notes.seen("<k@x>") is not None and spool.notes.seen("<other@x>") is None
    (queued,) = spool.outbox.pending()
    assert spool.outbox.committed(queued) is True


def test_a_second_service_on_the_same_mail_folder_refuses_to_start(tmp_path: Path) -> None:
    table = Table(tmp_path)
    with a_running_service(table):
        result = CliRunner().invoke(
            app,
            ["serve", "--once", "--mail-dir", str(table.mail),
             "--games-dir", str(tmp_path / "other-games")],
        )  # fmt: skip
        assert result.exit_code == 78
        assert f"another referee service reads the mail folder {table.mail}" in result.stderr


COMMAND_POINTS = ("judged", "queued", "effects-done", "seen-noted", "filed", "thread-noted", "sent")


@pytest.mark.parametrize("point", COMMAND_POINTS)
def test_a_game_started_by_mail_survives_a_crash_at_any_instant(tmp_path: Path, point: str) -> None:
    club = Club(tmp_path)
    crashed = []

    def serve_dying_once() -> None:
        crashed.append(serve_club_and_die(club, {point: 1}) == failpoints.CRASH_STATUS)
        club.serve()  # started again

    club.write("ann", "new splendor with bob@example.org cat@example.org")
    serve_dying_once()
    (game,) = Invitations(club.games).ids()
    for name in ("bob", "cat"):
        invitations = {
            str(m["Message-ID"]) for m in club.mails(name) if "invites" in str(m["Subject"])
        }
        assert len(invitations) == 1, name  # sent again after a crash: the same message
    club.reply("bob", "accept")
    club.reply("cat", "accept")
    serve_dying_once()
    assert club.store.has(game)
    for name in ("ann", "bob", "cat"):
        boards = {str(m["Message-ID"]) for m in club.mails(name) if "turn 0" in str(m["Subject"])}
        assert len(boards) == 1, name  # one first board each, never two
    assert all(crashed)  # it died while proposing, and while starting the game
    assert not list((club.games / ".mail" / "outbox").glob("*.json"))


UNDO_POINTS = (
    "judged", "queued", "rollback-noted", "rolled-back", "effects-done", "seen-noted", "filed",
    "thread-noted", "sent",
)  # fmt: skip


@pytest.mark.parametrize("point", UNDO_POINTS)
def test_an_undo_accepted_survives_a_crash_at_any_instant(tmp_path: Path, point: str) -> None:
    """The mail that completes an undo takes the move back and tells every player so, once,
    however the service dies while handling it; it is never answered as if no undo waited."""
    club = Club(tmp_path)
    game = start(club, "new splendor with bob@example.org")
    mover = play_one(club, game, take_only=True)
    other = "bob" if mover == "ann" else "ann"
    club.reply(mover, "undo")
    club.serve()
    club.reply(other, "accept")
    assert serve_club_and_die(club, {point: 1}) == failpoints.CRASH_STATUS  # it died there
    club.serve()  # started again

    replayed = club.store.load(game)
    assert replayed.state.turn == 0 and len(club.store.rollbacks(game)) == 1
    for name in ("ann", "bob"):
        told = {str(m["Message-ID"]) for m in club.mails(name) if "was taken back" in text_of(m)}
        assert len(told) == 1, name  # told once (a letter sent again is the same message)
        assert not any("nothing to accept" in text_of(m) for m in club.mails(name)), name
    assert club.desk_ledger().undo_request(game) is None
    assert not list((club.games / ".mail" / "outbox").glob("*.json"))
