"""Mail servers that go away mid-game, on real servers: Dovecot stopped and started, Postfix
stopped for a while, and an IMAP connection that goes silent without closing (a proxy of the
test's own that stops forwarding). The service notices, says so once, keeps trying, and
afterwards every mail is judged once and every letter sent once, in order per player. And,
without servers, what becomes of a letter that waited five days for one that never answers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import select
import socket
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.engine import legal_moves
from referee.mail.state.spool import Spool
from referee.mail.transports.base import SendError, TransportError
from referee.mail.transports.directory import DirTransport
from referee.mail.transports.imap import IDLE_RENEWED_EVERY
from referee.service import Service
from tests.mail import dirtable
from tests.mail.players import humanise, reply_message
from tests.mail.servers import folder_count, turn_of, wait_until
from tests.mail.test_server_games import (  # noqa: F401 (servers, table_factory: fixtures)
    NAMES,
    Table,
    play,
    servers,
    table_factory,
    wait_for_turn,
)
from tests.mailservers import MailServers

PLAYERS = NAMES[:2]


class Proxy:
    """A TCP proxy to ``port`` that can stop forwarding on the connections it has, without
    closing them, as a proxy or a NAT that lost its state does: what either side sends is
    lost, and neither is told. Connections made after that are forwarded again."""

    def __init__(self, port: int) -> None:
        self.port_to = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self._links: list[tuple[socket.socket, socket.socket, threading.Event]] = []
        self._lock = threading.Lock()
        self._closed = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                near, _ = self.listener.accept()
            except OSError:
                continue  # (closed)
            try:
                far = socket.create_connection(("127.0.0.1", self.port_to))
            except OSError:
                near.close()
                continue
            silent = threading.Event()
            with self._lock:
                self._links.append((near, far, silent))
            for source, sink in ((near, far), (far, near)):
                pump = threading.Thread(target=self._pump, args=(source, sink, silent))
                pump.daemon = True
                pump.start()

    def _pump(self, source: socket.socket, sink: socket.socket, silent: threading.Event) -> None:
        with contextlib.suppress(OSError):
            while not self._closed.is_set():
                if not select.select([source], [], [], 0.05)[0]:
                    continue
                data = source.recv(65536)
                if silent.is_set():
                    continue  # lost on the way
                if not data:
                    sink.shutdown(socket.SHUT_WR)
                    return
                sink.sendall(data)

    def go_silent(self) -> int:
        """Stop forwarding on every connection made so far; how many there were."""
        with self._lock:
            for _, _, silent in self._links:
                silent.set()
            return len(self._links)

    def close(self) -> None:
        self._closed.set()
        self.listener.close()
        with self._lock:
            for near, far, _ in self._links:
                near.close()
                far.close()


@pytest.fixture
def proxy(servers: MailServers) -> Iterator[Proxy]:  # noqa: F811
    running = Proxy(servers.imaps_port)
    yield running
    running.close()


def status_of(table: Table) -> dict[str, Any]:
    """What `referee status --json` says of the running service."""
    shown = CliRunner().invoke(app, ["status", "--json", "--config", str(table.referee.config)])
    assert shown.exit_code == 0, shown.stderr
    service: dict[str, Any] = json.loads(shown.stdout)["service"]
    return service


def status_text(table: Table) -> str:
    shown = CliRunner().invoke(app, ["status", "--config", str(table.referee.config)])
    assert shown.exit_code == 0, shown.stderr
    return shown.stdout


def lines_with(text: str, *parts: str) -> list[str]:
    return [line for line in text.splitlines() if all(part in line for part in parts)]


def a_move(table: Table, game: str, rng: random.Random) -> tuple[str, str]:
    """The player to move in ``game``, and a move of theirs as they would write it."""
    state = table.referee.store.load(game).state
    return state.player.name, humanise(rng.choice(legal_moves(state)), state, rng)


def answer(table: Table, name: str, board: EmailMessage, text: str) -> EmailMessage:
    """``name``'s reply to ``board``, as their mail program writes it."""
    table.sent += 1
    program = table.programs[name]
    return reply_message(
        board, program.address, text, message_id=f"<w{table.sent}.{time.time_ns()}@{name}.x>"
    )


def every_letter_came_once_in_turn_order(table: Table, game: str = "g1") -> None:
    """Each player has every board of ``game`` once, in the order of its turns, and nothing
    twice; every mail was played once."""
    record = table.referee.store.load(game)
    turn = record.state.turn
    played = [t.source.message_id for t in record.turns]
    assert len(played) == len(set(played)) == turn
    for name in PLAYERS:
        mails = table.programs[name].mails()
        ids = [m["Message-ID"] for m in mails]
        assert len(ids) == len(set(ids)), name
        assert [turn_of(m) for m in mails] == list(range(turn + 1)), name


def the_game_goes_on(table: Table, rng: random.Random) -> None:
    """The move sent while a server was away is played (turn 2), one more after it, and
    every letter of the game came once, in turn order. (The move may wait in Postfix's
    queue for its next try at the server that was away: on a busy machine that took more
    than 30 s once.)"""
    wait_for_turn(table, 2, timeout=90)
    play(table, PLAYERS, rng, turns=1)
    for name in PLAYERS:
        table.programs[name].wait_for("turn 3")
    wait_until(table.referee.quiet, "the last letters to go out")
    every_letter_came_once_in_turn_order(table)


def test_dovecot_stopped_and_started_mid_game_is_told_once_and_the_game_goes_on(
    table_factory: type[Table],  # noqa: F811
    servers: MailServers,  # noqa: F811
) -> None:
    # (a short poll_seconds: on a busy machine IDLE's word of new mail may be late, Dovecot's
    # inotify instances being shared by every test's servers)
    table = table_factory(seed=12, poll_seconds=2)
    rng = random.Random(12)
    play(table, PLAYERS, rng, turns=1)
    mover, move = a_move(table, "g1", rng)
    board = table.programs[mover].wait_for("turn 1")
    table.programs["alice" if mover == "bob" else "bob"].wait_for("turn 1")
    imap = f"IMAP server 127.0.0.1:{servers.imaps_port}"

    with servers.dovecot_stopped():
        wait_until(
            lambda: status_of(table).get("imap", {}).get("state") == "unreachable",
            f"the status to say IMAP cannot be reached\n{table.referee.log_text()[-3000:]}",
        )
        shown = status_text(table)
        assert "Mail servers: IMAP cannot be reached; the service keeps trying" in shown
        assert re.search(r"  IMAP: UNREACHABLE since \S+ \(\d+ s ago\): IMAP server 127", shown)
        assert "  SMTP: connected since" in shown
        # the mover's provider hands the reply to the referee's MX, which keeps it for Dovecot
        table.programs[mover].hand_over(answer(table, mover, board, move))
        time.sleep(4)  # the service tries again meanwhile: after 1 s, 2 s, 4 s …
    the_game_goes_on(table, rng)
    said = table.referee.log_text()
    assert len(lines_with(said, imap, "trying again")) == 1, said
    (back,) = lines_with(said, imap, "can be reached again, after")
    assert re.search(r"after \d+ s away", back)
    assert status_of(table)["imap"]["state"] == "connected"
    user = table.referee.user
    assert folder_count(servers, user, "done") == 3
    assert folder_count(servers, user, "INBOX") == folder_count(servers, user, "refused") == 0


def test_letters_wait_for_a_stopped_postfix_and_each_goes_once_in_order(
    table_factory: type[Table],  # noqa: F811
    servers: MailServers,  # noqa: F811
) -> None:
    # a letter put off is tried again after 0.05 s, 0.1 s …: eight tries would be spent in
    # 6.35 s, were a server that does not answer to count them
    table = table_factory(seed=13, poll_seconds=2, smtp={"retry_seconds": 0.05})
    table.referee.new_game("g2", list(PLAYERS), seed=14)
    boards = {
        (name, game): table.programs[name].wait_for(f"{game} · turn 0")
        for name in PLAYERS
        for game in ("g1", "g2")
    }
    rng = random.Random(13)
    smtp = f"SMTP server 127.0.0.1:{servers.smtp_port}"
    said_before = len(table.referee.log_text())

    with servers.postfix_stopped():
        # moves and questions come meanwhile, through another way in (LMTP, past Postfix)
        mover, move = a_move(table, "g1", rng)
        other = "alice" if mover == "bob" else "bob"
        program = table.programs[mover]
        program.deliver(answer(table, mover, boards[mover, "g1"], "buy 1-99"))
        program.deliver(answer(table, mover, boards[mover, "g1"], move))
        wait_for_turn(table, 1)
        mover2, move2 = a_move(table, "g2", rng)
        other2 = "alice" if mover2 == "bob" else "bob"
        table.programs[mover2].deliver(answer(table, mover2, boards[mover2, "g2"], move2))
        table.programs[other2].deliver(answer(table, other2, boards[other2, "g2"], "moves"))
        wait_until(
            lambda: (
                table.referee.store.load("g2").state.turn == 1
                and folder_count(servers, table.referee.user, "INBOX") == 0
            ),
            "every mail to be judged",
        )
        wait_until(
            lambda: status_of(table).get("smtp", {}).get("state") == "unreachable",
            f"the status to say SMTP cannot be reached\n{table.referee.log_text()[-3000:]}",
        )
        assert re.search(
            r"  SMTP: UNREACHABLE since \S+ \(\d+ s ago\): SMTP server", status_text(table)
        )
        time.sleep(8)  # longer than eight tries would last

    wait_until(table.referee.quiet, f"every letter to go\n{table.referee.log_text()[-3000:]}")
    spool = Spool(table.referee.games)
    assert spool.outbox.failed() == []
    sent = [json.loads(p.read_text()) for p in (spool.root / "sent").glob("*.json")]
    assert all(letter["attempts"] == 0 for letter in sent)  # no try was counted
    said = table.referee.log_text()[said_before:]
    assert len(lines_with(said, smtp, "trying again")) == 1, said
    assert len(lines_with(said, smtp, "can be reached again, after")) == 1, said
    assert "not sent yet" not in said
    # in the order they were queued, per player
    expected = {
        mover: ["Move not played · Splendor g1", "g1 · turn 1"],
        other: ["g1 · turn 1"],
    }
    expected[mover2].append("g2 · turn 1")
    expected[other2].append("g2 · turn 1")
    expected[other2].append("Splendor g2")  # the list of moves
    # a letter leaves the outbox a moment before the log says it went
    wait_until(
        lambda: (
            len(lines_with(table.referee.log_text()[said_before:], "letter to", " sent: "))
            >= sum(len(subjects) for subjects in expected.values())
        ),
        "the log to say each letter went",
    )
    said = table.referee.log_text()[said_before:]
    for name, subjects in expected.items():
        address = table.servers.address(name)
        went = [
            line.split(" sent: ", 1)[1] for line in lines_with(said, f"letter to {address} sent")
        ]
        assert len(went) == len(subjects), (name, went)
        for subject, part in zip(went, subjects, strict=True):
            assert part in subject, (name, went)
        # and each came once
        program = table.programs[name]
        count = 2 + len(went)  # the welcomes, and these
        wait_until(lambda p=program, n=count: len(p.mails()) == n, f"{name}'s letters")
        ids = [m["Message-ID"] for m in program.mails()]
        assert len(ids) == len(set(ids))
    assert status_of(table)["smtp"]["state"] == "connected"


def test_a_silent_imap_connection_is_noticed_within_the_stated_bound_and_made_again(
    table_factory: type[Table],  # noqa: F811
    proxy: Proxy,
) -> None:
    poll, timeout = 2.0, 3.0
    table = table_factory(imap={"port": proxy.port, "timeout": timeout}, poll_seconds=poll)
    rng = random.Random(11)
    play(table, PLAYERS, rng, turns=1)
    mover, move = a_move(table, "g1", rng)
    board = table.programs[mover].wait_for("turn 1")
    said_before = len(table.referee.log_text())

    assert proxy.go_silent() >= 1
    table.programs[mover].send(answer(table, mover, board, move))  # meanwhile
    bound = min(poll, IDLE_RENEWED_EVERY) + timeout  # as docs/mail-server.md states it
    lost = f"IMAP connection to 127.0.0.1:{proxy.port} lost (no answer within 3 s"
    wait_until(
        lambda: lost in table.referee.log_text()[said_before:],
        f"the service to notice the silence\n{table.referee.log_text()[-3000:]}",
        timeout=bound + 10,  # (the margin: a busy machine)
    )
    the_game_goes_on(table, rng)
    said = table.referee.log_text()[said_before:]
    assert len(lines_with(said, "IMAP")) == 1, said  # lost and made again: one line


class Unreachable(DirTransport):
    """The dir transport, with an SMTP server that never answers."""

    said = "SMTP server smtp.example.net:587 cannot be reached: no answer in time"

    async def check_sending(self) -> str:
        raise TransportError(self.said, server="smtp")

    async def send(self, sender: str, recipient: str, message: bytes) -> None:
        raise SendError(self.said, permanent=False, unreachable=True)


def test_a_letter_that_waited_five_days_for_a_server_that_never_answers_fails_for_good(
    tmp_path: Path,
) -> None:
    table = dirtable.Table(tmp_path)  # alice and bob, the welcomes sent
    table.reply("alice", "take red green blue")
    asyncio.run(Service(table.settings, Unreachable(table.mail)).run(once=True))
    outbox = Spool(table.games).outbox
    waiting = outbox.waiting()
    assert [w["letter"]["turn"] for w in waiting] == [1, 1]
    assert [w["attempts"] for w in waiting] == [0, 0]  # the server's fault, not theirs
    outbox_dir = table.games / ".mail" / "outbox"
    to_bob = dirtable.address("bob")
    (path,) = [
        p for p in outbox_dir.glob("*.json") if to_bob in json.loads(p.read_text())["letter"]["to"]
    ]
    six_days_ago = time.time_ns() - 6 * 24 * 3600 * 10**9
    path.rename(path.with_name(f"{six_days_ago:020d}-{path.name.split('-', 1)[1]}"))

    asyncio.run(Service(table.settings, Unreachable(table.mail)).run(once=True))
    (failed,) = outbox.failed()
    assert failed["letter"]["to"] == to_bob
    assert failed["error"] == f"not sent in 5 days, the server not answering: {Unreachable.said}"
    (waits,) = outbox.waiting()
    assert waits["letter"]["to"] == dirtable.address("alice") and waits["attempts"] == 0
