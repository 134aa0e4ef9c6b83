"""Games played by mail through real servers: Postfix takes every mail by SMTP and delivers
it to Dovecot, `referee serve` reads its IMAP mailbox and sends through Postfix, and players
read and reply with their own IMAP and SMTP logins. Also what the service does there with
bad, automatic, repeated and oversized mail, a dropped IMAP connection, a server's permanent
refusal, and being killed mid-game."""

from __future__ import annotations

import email
import email.policy
import itertools
import json
import random
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import parseaddr
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.engine import Buy, legal_moves
from referee.engine.state import GameState
from referee.mail.state.spool import Spool
from referee.notation import format_move
from tests.mail.clients import CLIENTS, Client, Sender
from tests.mail.players import humanise, reply_message, text_of
from tests.mail.servers import MailProgram, Referee, folder_count, turn_of, wait_until
from tests.mailservers import MailServers

NAMES = ("alice", "bob", "carol", "dave")
REFEREES = [f"referee{n}" for n in range(40)]
_referees = iter(REFEREES)


@pytest.fixture(scope="module")
def servers() -> Iterator[MailServers]:
    with MailServers([*REFEREES, *NAMES, "mallory", "postmaster"]) as running:
        yield running


class Table:
    """A game on the servers: its referee service and its players' mail programs."""

    def __init__(
        self,
        servers: MailServers,
        root: Path,
        players: tuple[str, ...] = NAMES[:2],
        seed: int = 5,
        **settings: object,
    ) -> None:
        self.servers = servers
        self.referee = Referee(servers, next(_referees), root, **settings)  # type: ignore[arg-type]
        self.programs = {name: MailProgram(servers, name) for name in (*NAMES, "mallory")}
        for program in self.programs.values():
            program.empty()
        self.referee.new_game("g1", list(players), seed)
        self.referee.start()
        self.sent = 0

    @property
    def state(self) -> GameState:
        return self.referee.store.load("g1").state

    def reply(self, name: str, text: str, by: str | None = None, **options: object) -> EmailMessage:
        """``name`` answers their latest mail (sent by ``by``'s mail program if given)."""
        self.sent += 1
        program = self.programs[name]
        sender = self.programs[by or name]
        message = reply_message(
            program.latest(),
            sender.address,
            text,
            message_id=f"<r{self.sent}.{time.time_ns()}@{sender.user}.example.org>",
            **options,  # type: ignore[arg-type]
        )
        sender.send(message)
        return message

    def handled(self, folder: str, count: int) -> None:
        """Wait until the referee has filed ``count`` mails in ``folder`` and sent its mail."""
        wait_until(
            lambda: (
                folder_count(self.servers, self.referee.user, folder) >= count
                and self.referee.quiet()
            ),
            f"{count} mails in the referee's {folder}\n{self.referee.log_text()[-3000:]}",
        )

    def sent_to(self, name: str) -> int:
        """How many letters the service has sent to ``name``."""
        sent = Spool(self.referee.games).root / "sent"
        address = self.servers.address(name)
        return sum(
            json.loads(p.read_text())["letter"]["to"].lower() == address.lower()
            for p in sent.glob("*.json")
        )

    def close(self) -> None:
        self.referee.stop()
        for program in self.programs.values():
            program.close()
        print(self.referee.log_text()[-5000:])  # shown when a test fails


@pytest.fixture
def table_factory(servers: MailServers, tmp_path: Path) -> Iterator[type[Table]]:
    tables: list[Table] = []

    class Made(Table):
        def __init__(self, **options: object) -> None:
            super().__init__(servers, tmp_path, **options)  # type: ignore[arg-type]
            tables.append(self)

    yield Made
    for table in tables:
        table.close()


def wait_for_turn(table: Table, turn: int, timeout: float = 30.0) -> None:
    wait_until(
        lambda: table.state.turn >= turn,
        f"turn {turn}\n{table.referee.log_text()[-3000:]}",
        timeout,
    )


def play(table: Table, players: tuple[str, ...], rng: random.Random, turns: int) -> None:
    """``turns`` moves, each written by the player to move as a reply to the board of the
    turn, once every player has that board."""
    for _ in range(turns):
        state = table.state
        if state.status == "finished":
            return
        for name in players:
            table.programs[name].wait_for(f"turn {state.turn}")
        moves = legal_moves(state)
        move = rng.choice([m for m in moves if isinstance(m, Buy)] or moves)
        table.reply(state.player.name, humanise(move, state, rng))
        wait_for_turn(table, state.turn + 1)


@pytest.mark.parametrize(
    ("players", "imap", "smtp"), [(2, "tls", "starttls"), (4, "starttls", "tls")]
)
def test_a_whole_game_is_played_by_mail_through_real_servers(
    table_factory: type[Table], players: int, imap: str, smtp: str
) -> None:
    names = NAMES[:players]
    table = table_factory(players=names, seed=players, imap_security=imap, smtp_security=smtp)
    play(table, names, random.Random(players), turns=1000)
    final = table.state
    assert final.status == "finished"
    for name in names:
        table.programs[name].wait_for(f"turn {final.turn}")
    wait_until(table.referee.quiet, "the last letters to go out")
    for name in names:
        mails = table.programs[name].mails()
        assert [turn_of(m) for m in mails] == list(range(final.turn + 1)), name
        assert "Welcome to Splendor game g1" in text_of(mails[0])
        assert "The game is over" in text_of(mails[-1])
        for previous, mail in itertools.pairwise(mails):
            assert previous["Message-ID"] in mail["References"]  # one thread per player
        for mail in mails:
            assert mail["Auto-Submitted"] == "auto-replied"
            assert mail.get_body(("html",)) is not None
            assert re.fullmatch(
                rf"Splendor referee <{table.referee.user}\+g1\.\d\.[a-z2-7]{{16}}@example\.org>",
                str(mail["Reply-To"]),
            )
    user = table.referee.user
    assert folder_count(table.servers, user, "done") == final.turn
    assert folder_count(table.servers, user, "INBOX") == 0
    assert folder_count(table.servers, user, "refused") == 0


def client_reply(table: Table, client: Client, rng: random.Random) -> str:
    """The player to move answers the board of this turn with ``client``, once every player
    has it; the service plays it. The move meant, in canonical notation."""
    state = table.state
    for name in NAMES[:2]:
        table.programs[name].wait_for(f"turn {state.turn}")
    name = state.player.name
    program = table.programs[name]
    moves = legal_moves(state)
    move = rng.choice([m for m in moves if isinstance(m, Buy)] or moves)
    board = program.latest()
    sender = Sender(name.title() + " Jones", program.address)
    raw = client.write(board, humanise(move, state, rng), sender, datetime.now(UTC), rng)
    program.send_raw(raw, parseaddr(str(board["Reply-To"]))[1])
    wait_for_turn(table, state.turn + 1)
    return format_move(move)


def test_a_game_whose_every_reply_comes_from_the_next_mail_program_is_played_to_the_end(
    table_factory: type[Table],
) -> None:
    table = table_factory(seed=9)
    rng = random.Random(9)
    programs = itertools.cycle(sorted(CLIENTS))
    used = []
    while table.state.status != "finished":
        client = CLIENTS[next(programs)]
        meant = client_reply(table, client, rng)
        turn = table.referee.store.load("g1").turns[-1]
        assert turn.move.text == meant, client.name
        used.append((client.name, turn.turn))
    assert {name for name, turn in used if turn > 5} == set(CLIENTS)  # each deep in a thread
    user = table.referee.user
    wait_until(table.referee.quiet, "the last letters to go out")
    assert folder_count(table.servers, user, "refused") == 0
    assert folder_count(table.servers, user, "done") == table.state.turn


@pytest.mark.parametrize("name", ["outlook-android", "iphone", "yandex"])
def test_a_mail_programs_reply_is_played_at_turn_0_and_deep_in_the_thread(
    table_factory: type[Table], name: str
) -> None:
    table = table_factory(seed=3)
    rng = random.Random(name)
    client_reply(table, CLIENTS[name], rng)
    play(table, NAMES[:2], rng, turns=5)
    assert table.state.turn == 6
    client_reply(table, CLIENTS[name], rng)
    assert table.state.turn == 7


def test_refused_moves_questions_and_stale_replies_are_answered_by_mail(
    table_factory: type[Table],
) -> None:
    table = table_factory()
    alice, bob = table.programs["alice"], table.programs["bob"]
    welcome = alice.wait_for("turn 0")
    bob.wait_for("turn 0")
    table.reply("alice", "buy 1-99")
    text = text_of(alice.wait_for("Move not played"))
    assert "| buy 1-99" in text and "There is no card 1-99" in text
    assert "What you may do now:" in text and "Splendor · game g1 · turn 0" in text
    table.reply("bob", "moves")
    wait_until(lambda: len(bob.mails()) == 2, "bob's list of moves")
    assert "It is alice's turn" in text_of(bob.latest())
    table.reply("alice", "take red green blue")
    wait_for_turn(table, 1)
    bob.wait_for("turn 1")
    table.reply("bob", "take white blue black")
    wait_for_turn(table, 2)
    old = reply_message(welcome, alice.address, "take 2 white", message_id="<old@example.org>")
    alice.send(old)
    wait_until(
        lambda: any("answered the mail of turn 0" in text_of(m) for m in alice.mails()),
        "the answer to a stale reply",
    )
    assert table.state.turn == 2
    assert folder_count(table.servers, table.referee.user, "refused") == 2


def test_a_sender_who_is_not_the_player_never_moves_and_is_told_once(
    table_factory: type[Table],
) -> None:
    table = table_factory()
    table.programs["alice"].wait_for("turn 0")
    for _ in range(2):
        table.reply("alice", "take red green blue", by="mallory")
    table.handled("refused", 2)
    mallory = table.programs["mallory"].mails()
    assert len(mallory) == 1
    assert "not read it as a move" in text_of(mallory[0])
    assert "Splendor · game" not in text_of(mallory[0]) and mallory[0].get_body(("html",)) is None
    assert table.state.turn == 0


def test_auto_replies_and_bounces_are_never_answered(table_factory: type[Table]) -> None:
    table = table_factory()
    alice = table.programs["alice"]
    alice.wait_for("turn 0")
    table.reply("alice", "I am out of the office until Monday.", quote=False,
                extra_headers={"Auto-Submitted": "auto-replied"})  # fmt: skip
    raw = (
        "From: Mail Delivery System <MAILER-DAEMON@example.org>\r\n"
        f"To: {table.referee.address}\r\n"
        "Subject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: <bounce.{time.time_ns()}@example.org>\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\n"
        "--x\r\nContent-Type: text/plain\r\n\r\ntake red green blue\r\n"
        "--x\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mail.example.org\r\n\r\n"
        "Final-Recipient: rfc822; alice@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n"
        "--x--\r\n"
    )
    bounce = email.message_from_string(raw, policy=email.policy.default)
    assert isinstance(bounce, EmailMessage)
    table.programs["mallory"].send(bounce, envelope_from="")  # a bounce's empty Return-Path
    table.handled("quarantine", 2)
    assert table.state.turn == 0
    assert table.sent_to("alice") == 1 and table.sent_to("mallory") == 0


def test_a_duplicate_delivery_is_played_once(table_factory: type[Table]) -> None:
    table = table_factory()
    table.programs["alice"].wait_for("turn 0")
    message = table.reply("alice", "take red green blue")
    table.programs["alice"].send(message)
    table.handled("done", 2)
    assert table.state.turn == 1
    assert table.sent_to("alice") == 2  # the welcome and the board of turn 1


def test_oversized_mail_is_set_aside_unread_and_its_sender_told_once(
    table_factory: type[Table],
) -> None:
    table = table_factory(max_message_bytes=20_000)
    table.programs["alice"].wait_for("turn 0")
    for _ in range(2):
        table.reply("alice", "take red green blue\n" + "x" * 30_000)
    table.handled("quarantine", 2)
    assert table.state.turn == 0
    table.programs["alice"].wait_for("too large")
    assert table.sent_to("alice") == 2  # the welcome, and one notice


def test_a_dropped_imap_connection_is_made_again(
    table_factory: type[Table], servers: MailServers
) -> None:
    table = table_factory()
    rng = random.Random(3)
    play(table, NAMES[:2], rng, turns=1)
    servers.kick(table.referee.user)
    play(table, NAMES[:2], rng, turns=1)
    servers.stop_dovecot()
    wait_until(lambda: "trying again" in table.referee.log_text(), "the service to back off")
    servers.start_dovecot()
    play(table, NAMES[:2], rng, turns=1)
    assert table.state.turn == 3
    assert table.referee.process is not None and table.referee.process.poll() is None


def test_a_letter_refused_for_good_is_kept_for_the_game_master_and_resent_once_mended(
    table_factory: type[Table],
) -> None:
    table = table_factory(players=("alice", "ghost"))
    table.programs["alice"].wait_for("turn 0")
    spool = Spool(table.referee.games)
    wait_until(lambda: spool.outbox.failed(), "the letter to ghost to fail")
    (failed,) = spool.outbox.failed()
    assert failed["letter"]["to"] == "ghost@example.org"
    assert "550" in failed["error"] and "ghost@example.org" in failed["error"]
    shown = CliRunner().invoke(app, ["outbox", "--games-dir", str(table.referee.games)])
    assert "1 refused for good" in shown.stdout and "to ghost@example.org" in shown.stdout
    assert "tried 1 time(s): 127.0.0.1 refused ghost@example.org: 550" in shown.stdout
    # the game master mends the server and sends it again: the service's connections made
    # before the reload still talk to Postfix's old processes, which would refuse it again
    table.servers.accept_mail_for("ghost")
    resent = CliRunner().invoke(
        app, ["outbox", "resend", failed["id"], "--games-dir", str(table.referee.games)]
    )
    assert resent.exit_code == 0, resent.stderr
    inbox = table.servers.maildir("ghost") / "new"
    wait_until(lambda: inbox.is_dir() and any(inbox.iterdir()), "the letter to reach ghost")
    assert spool.outbox.failed() == []


def test_the_service_killed_mid_game_and_restarted_loses_and_repeats_nothing(
    table_factory: type[Table],
) -> None:
    table = table_factory(seed=8)
    rng = random.Random(8)
    names = NAMES[:2]
    replies = 0
    for _ in range(6):
        state = table.state
        if state.status == "finished":
            break
        for name in names:
            table.programs[name].wait_for(f"turn {state.turn}")
        table.reply(state.player.name, humanise(rng.choice(legal_moves(state)), state, rng))
        replies += 1
        time.sleep(rng.uniform(0.0, 0.3))
        table.referee.kill()
        table.referee.start()
        wait_for_turn(table, replies)
    wait_until(table.referee.quiet, "every letter to go out")
    game = table.referee.store.load("g1")
    played = [t.source.message_id for t in game.turns]
    assert len(played) == len(set(played)) == game.state.turn == replies
    for name in names:
        table.programs[name].wait_for(f"turn {replies}")
        turns = {turn_of(m) for m in table.programs[name].mails()}
        assert turns == set(range(replies + 1))
    assert folder_count(table.servers, table.referee.user, "INBOX") == 0


def test_a_mail_set_aside_is_told_of_and_handed_back_through_the_mailbox(
    table_factory: type[Table],
) -> None:
    table = table_factory(game_master="postmaster@example.org", poll_seconds=2)
    master = MailProgram(table.servers, "postmaster")
    master.empty()
    rng = random.Random(4)
    play(table, NAMES[:2], rng, turns=1)
    table.programs["bob"].wait_for("turn 1")  # sent: its turn file may now be damaged
    turn = table.referee.games / "g1" / "turns" / "0001.toml"
    good = turn.read_bytes()
    turn.write_bytes(good + b"# edited\n")
    table.reply("bob", "take 2 white")
    told = table.programs["bob"].wait_for("could not be read yet")
    assert "you need not send it again" in text_of(told)
    try:
        notice = master.wait_for("was set aside")
        short = re.search(r"referee inbox retry (\w+)", text_of(notice))
        assert short, text_of(notice)
        assert folder_count(table.servers, table.referee.user, "quarantine") == 1
        turn.write_bytes(good)
        shown = CliRunner().invoke(
            app, ["inbox", "retry", short.group(1), "--games-dir", str(table.referee.games)]
        )
        assert shown.exit_code == 0, shown.stderr
        wait_for_turn(table, 2)
        assert folder_count(table.servers, table.referee.user, "quarantine") == 0
    finally:
        master.close()


def test_a_second_service_on_the_same_mailbox_refuses_to_start_naming_the_first(
    table_factory: type[Table], tmp_path: Path
) -> None:
    table = table_factory()
    table.programs["alice"].wait_for("turn 0")
    (tmp_path / "elsewhere").mkdir()
    second = Referee(table.servers, table.referee.user, tmp_path / "elsewhere")
    second.start()
    assert second.process is not None
    code = second.process.wait(timeout=30)
    second.process = None
    assert code == 78
    said = second.log_text()
    assert "another referee service (host" in said
    assert f"games folder {table.referee.games.resolve()}" in said
    assert "one service per mailbox" in said and "Traceback" not in said
    table.reply("alice", "take red green blue")  # the first one still serves
    wait_for_turn(table, 1)
    # once the first has stopped, the mailbox is free at once
    assert table.referee.stop() == 0
    second.start()
    try:
        wait_until(lambda: "this service holds the mailbox" in second.log_text(), "the second")
    finally:
        second.stop()


def test_status_and_doctor_tell_what_is_going_on(table_factory: type[Table]) -> None:
    table = table_factory(game_master="postmaster@example.org")
    table.programs["alice"].wait_for("turn 0")
    table.programs["bob"].wait_for("turn 0")
    wait_until(table.referee.quiet, "the welcomes to go out")
    time.sleep(1.5)  # the status is written at most once a second
    log = table.referee.log_text()
    address = table.referee.address
    assert f"referee service for {address} (pid " in log
    assert f"games folder {table.referee.games.resolve()}: 1 game(s)" in log
    assert "game master: postmaster@example.org" in log
    assert f"IMAP server 127.0.0.1:{table.servers.imaps_port} (tls): logged in as {address}" in log
    assert f"SMTP server 127.0.0.1:{table.servers.smtp_port} (starttls): logged in as" in log
    assert "letter to alice@example.org sent: Your move · Splendor g1 · turn 0" in log
    runner = CliRunner()
    shown = runner.invoke(app, ["status", "--config", str(table.referee.config)])
    assert shown.exit_code == 0, shown.stderr
    assert "Service: running since" in shown.stdout and "Mail servers: connected." in (shown.stdout)
    assert "Last letter sent:" in shown.stdout and "Letters: 0 waiting" in shown.stdout
    env = {"REFEREE_IMAP__PASSWORD": table.servers.password(table.referee.user),
           "REFEREE_SMTP__PASSWORD": table.servers.password(table.referee.user)}  # fmt: skip
    checked = runner.invoke(
        app, ["doctor", "--config", str(table.referee.config), "--wait", "30"], env=env
    )
    assert checked.exit_code == 0, checked.stdout
    assert "ok       games folder" in checked.stdout
    assert "ok       game master: postmaster@example.org" in checked.stdout
    assert "(a running service filed it)" in checked.stdout or "arrived in INBOX" in (
        checked.stdout
    )
    assert "All is well." in checked.stdout
    assert "ok       service: running since" in checked.stdout
    if "(a running service filed it)" in checked.stdout:  # and did not list it as another's
        inbox = runner.invoke(app, ["inbox", "--json", "--config", str(table.referee.config)])
        assert json.loads(inbox.stdout)["mails"] == [], inbox.stdout
    env["REFEREE_SMTP__PASSWORD"] = "wrong"
    checked = runner.invoke(app, ["doctor", "--config", str(table.referee.config)], env=env)
    assert checked.exit_code == 1
    assert "refused the login" in checked.stdout and "REFEREE_SMTP__PASSWORD" in checked.stdout


@pytest.mark.parametrize("server", ["imap", "smtp"])
def test_a_refused_login_stops_the_service_in_one_line_without_a_restart_loop(
    servers: MailServers, tmp_path: Path, server: str
) -> None:
    referee = Referee(servers, next(_referees), tmp_path)
    referee.start(**{server: "not the password"})
    assert referee.process is not None
    assert referee.process.wait(timeout=30) == 78  # RestartPreventExitStatus=78
    referee.process = None
    said = referee.log_text()
    assert "refused the login" in said or "AUTHENTICATIONFAILED" in said
    assert f"REFEREE_{server.upper()}__PASSWORD" in said and "Traceback" not in said


def test_a_game_proposed_by_mail_is_confirmed_accepted_played_and_resigned_on_real_servers(
    table_factory: type[Table],
) -> None:
    table = table_factory()
    alice, bob = table.programs["alice"], table.programs["bob"]
    proposal = EmailMessage()
    proposal["From"] = f"Alice Smith <{alice.address}>"
    proposal["To"] = table.referee.address
    proposal["Subject"] = "a game?"
    proposal["Message-ID"] = f"<new.{time.time_ns()}@alice.example.org>"
    proposal.set_content(f"new splendor with {bob.address} deadline 2d\n\nSent from my iPhone\n")
    alice.send(proposal)
    # Postfix here checks no DMARC: the referee asks alice's address to confirm first
    asked = alice.wait_for("please confirm")
    assert f"<{table.referee.address.split('@')[0]}+confirm." in str(asked["Reply-To"])
    alice.send(reply_message(asked, alice.address, "Yes", message_id=f"<y.{time.time_ns()}@a.x>"))
    invitation = bob.wait_for("invites you")
    assert "Alice Smith" in text_of(invitation)
    game = re.search(r"Splendor (\S+) ·", str(invitation["Subject"])).group(1)  # type: ignore[union-attr]
    answer = reply_message(
        invitation, bob.address, "accept as Bobby", message_id=f"<a.{time.time_ns()}@bob.x>"
    )
    bob.send(answer)
    for program in (alice, bob):
        program.wait_for(f"Splendor {game} · turn 0")
    rng = random.Random(7)
    for turn in range(4):
        state = table.referee.store.load(game).state
        mover = state.player.name
        program = alice if mover == "Alice" else bob
        board = program.wait_for(f"Splendor {game} · turn {turn}")
        move = rng.choice(legal_moves(state))
        program.send(
            reply_message(
                board,
                program.address,
                humanise(move, state, rng),
                message_id=f"<t{turn}.{time.time_ns()}@{program.user}.x>",
            )
        )
        wait_until(
            lambda t=turn: table.referee.store.load(game).state.turn > t,  # type: ignore[misc]
            f"turn {turn + 1} of {game}\n{table.referee.log_text()[-3000:]}",
        )
    state = table.referee.store.load(game).state
    quitter = bob if state.player.name == "Alice" else alice  # not their turn
    quitter.send(
        reply_message(
            quitter.wait_for(f"Splendor {game} · turn 4"),
            quitter.address,
            "resign",
            message_id=f"<quit.{time.time_ns()}@{quitter.user}.x>",
        )
    )
    for program in (alice, bob):
        over = program.wait_for(f"Splendor {game} · turn 5")
        assert "resigned" in text_of(over)
    final = table.referee.store.load(game)
    assert final.state.status == "finished" and final.turns[-1].move.text == "resign"
    assert sorted(p.name for p in final.record.players) == ["Alice", "Bobby"]
