"""The lmtp transport on real servers: Postfix hands the referee's mail (its address and its
plus-addresses, by transport_maps) straight to `referee serve`'s LMTP listener; letters go
out through Postfix. A mail is answered 250 only once it is on disk, a mail that cannot be
kept gets 451 (Postfix keeps it), and while the service is down Postfix keeps the replies
and hands them over, each played once and in order, when it is back."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import smtplib
import socket
import subprocess
import sys
import time
import tomllib
from email.message import EmailMessage
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from referee.cli import app
from referee.cli.mail_commands import with_lmtp
from referee.errors import ConfigurationError, RequestError
from referee.games import create_game
from referee.mail.herald import MailHerald
from referee.mail.startup import make_transport
from referee.mail.transports.lmtp import LmtpTransport
from referee.mail.transports.smtp import SmtpSender
from referee.settings import Lmtp, Smtp, load_settings
from referee.store import Store
from tests.mail.players import quick_reply
from tests.mail.servers import wait_until
from tests.mail.test_server_games import (  # noqa: F401 (servers, table_factory: fixtures)
    NAMES,
    Table,
    play,
    servers,
    table_factory,
    wait_for_turn,
)
from tests.mailservers import MailServers, free_port

PLAYERS = NAMES[:2]


def lmtp_table(factory: type[Table], servers: MailServers, **settings: object) -> Table:  # noqa: F811
    """A game whose referee takes its mail over LMTP, Postfix routed to it."""
    port = free_port()
    table = factory(lmtp={"listen": f"127.0.0.1:{port}"}, poll_seconds=30, **settings)
    servers.route_to_lmtp(table.referee.user, port)
    wait_until(
        lambda: f"listening on 127.0.0.1:{port}" in table.referee.log_text(),
        f"the service to listen\n{table.referee.log_text()[-3000:]}",
    )
    return table


def kept(table: Table, folder: str) -> list[Path]:
    return sorted((table.referee.games / ".lmtp" / folder).glob("*.eml"))


def test_a_game_is_played_over_lmtp_each_reply_taken_at_once(
    table_factory: type[Table],  # noqa: F811
    servers: MailServers,  # noqa: F811
) -> None:
    # (poll_seconds is 30: a reply played within seconds was handed over, not polled for)
    table = lmtp_table(table_factory, servers)
    play(table, PLAYERS, random.Random(3), turns=6)
    for name in PLAYERS:
        table.programs[name].wait_for("turn 6")
    wait_until(table.referee.quiet, "the last letters to go out")
    done = kept(table, "done")
    assert len(done) == 6 and kept(table, "inbox") == []
    head = done[0].read_bytes().split(b"\r\n\r\n", 1)[0]
    assert head.startswith(b"Return-Path: <alice@example.org>\r\nDelivered-To: ") or (
        head.startswith(b"Return-Path: <bob@example.org>\r\nDelivered-To: ")
    )
    assert f"{table.referee.user}+g1.".encode() in head  # the plus-address it came to
    assert b"Received: from" in head  # (Postfix's own)


#: The lines a service says per mail handled and per letter sent (docs/mail.md: the log).
PER_MAIL = re.compile(r"referee: mail \S+: (played|answered|refused|ignored): ")
PER_LETTER = re.compile(r"referee: letter to \S+ sent: ")


def test_the_log_says_one_line_per_mail_handled_and_per_letter_sent(
    table_factory: type[Table],  # noqa: F811
    servers: MailServers,  # noqa: F811
) -> None:
    """Over LMTP, at the default level: after the lines that say what the service is, a line
    for each mail handled and each letter sent, and nothing else (aiosmtpd told every
    session's end as "Connection lost during _handle_client()", about a dozen lines a
    mail in all)."""
    table = lmtp_table(table_factory, servers)
    started = len(table.referee.log_text().splitlines())
    play(table, PLAYERS, random.Random(6), turns=4)
    for name in PLAYERS:
        table.programs[name].wait_for("turn 4")
    wait_until(table.referee.quiet, "the last letters to go out")
    time.sleep(1)  # (anything said after the last letter)
    lines = table.referee.log_text().splitlines()[started:]
    mails = [line for line in lines if PER_MAIL.search(line)]
    letters = [line for line in lines if PER_LETTER.search(line)]
    others = [line for line in lines if line not in mails and line not in letters]
    assert len(mails) == 4 and len(letters) >= 8, "\n".join(lines)
    assert others == [], (
        f"{len(lines)} lines for {len(mails)} mails and {len(letters)} letters:\n"
        + "\n".join(lines)
    )


def test_replies_sent_while_the_service_is_down_wait_in_postfix_and_are_played_in_order(
    table_factory: type[Table],  # noqa: F811
    servers: MailServers,  # noqa: F811
) -> None:
    table = lmtp_table(table_factory, servers)
    rng = random.Random(5)
    play(table, PLAYERS, rng, turns=2)
    for name in PLAYERS:
        table.programs[name].wait_for("turn 2")
    assert table.referee.stop() == 0
    mover = table.state.player.name
    table.reply(mover, "take 1 white, 1 blue, 1 green")  # refused or played: a ruling each
    table.reply(mover, "moves")
    wait_until(  # Postfix finds nobody listening and keeps them (queue_run_delay 1 s)
        lambda: "status=deferred" in (servers.root / "postfix.log").read_text(),
        "Postfix to keep the replies (deferred)",
    )
    table.referee.start()
    wait_until(
        lambda: len(kept(table, "done")) + len(kept(table, "refused")) >= 4,
        f"the replies kept by Postfix handed over\n{table.referee.log_text()[-3000:]}",
    )
    wait_until(table.referee.quiet, "the answers to go out")
    handled = [p.read_bytes() for p in [*kept(table, "done"), *kept(table, "refused")]]
    ids = [m.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0] for m in handled]
    assert len(ids) == len(set(ids)) == 4  # each once
    assert table.state.turn in (2, 3)
    if table.state.turn == 3:  # the move was played, and then the question answered about it
        assert table.referee.store.load("g1").turns[-1].player == mover


def lmtp_session(port: int) -> smtplib.LMTP:
    session = smtplib.LMTP("127.0.0.1", port)
    session.ehlo("mx.example.org")
    return session


def raw_mail(size: int = 200) -> bytes:
    message = EmailMessage()
    message["From"] = "alice@example.org"
    message["To"] = "referee@example.org"
    message["Subject"] = "games"
    message["Message-ID"] = f"<{time.time_ns()}@example.org>"
    message.set_content("games\n" + "x" * size)
    return message.as_bytes()


def replies(session: smtplib.LMTP, recipients: int) -> list[tuple[int, bytes]]:
    """The reply to DATA for each accepted recipient, as LMTP gives them."""
    return [session.getreply() for _ in range(recipients)]


def test_only_the_referees_addresses_are_taken_and_each_recipient_gets_its_answer(
    table_factory: type[Table],  # noqa: F811
    servers: MailServers,  # noqa: F811
) -> None:
    port = free_port()
    table = table_factory(lmtp={"listen": f"127.0.0.1:{port}"}, max_message_bytes=50_000)
    wait_until(lambda: "listening on" in table.referee.log_text(), "the service to listen")
    me = table.referee.address
    local, domain = me.split("@")
    with lmtp_session(port) as session:
        session.mail("alice@example.org")
        assert session.rcpt("mallory@example.org")[0] == 550
        assert session.rcpt(f"{local}x@{domain}")[0] == 550  # a prefix is not the address
        assert session.rcpt(me)[0] == 250
        assert session.rcpt(f"{local}+g1.0.abc@{domain.upper()}")[0] == 250
        session.putcmd("data")
        assert session.getreply()[0] == 354
        session.send(smtplib.quotedata(raw_mail().decode()).encode() + b"\r\n.\r\n")
        assert [code for code, _ in replies(session, 2)] == [250, 250]
        # too large: 552 for each recipient, after the data
        session.mail("alice@example.org")
        session.rcpt(me)
        session.rcpt(f"{local}+g1.1.abc@{domain}")
        session.putcmd("data")
        session.getreply()
        session.send(smtplib.quotedata(raw_mail(60_000).decode()).encode() + b"\r\n.\r\n")
        assert [code for code, _ in replies(session, 2)] == [552, 552]
    wait_until(lambda: kept(table, "done") != [], "the mail taken to be handled")
    assert len(kept(table, "done")) + len(kept(table, "refused")) == 1  # kept once, not twice


def test_a_mail_that_cannot_be_kept_is_answered_451_and_nothing_is_lost(
    table_factory: type[Table],  # noqa: F811
    servers: MailServers,  # noqa: F811
) -> None:
    port = free_port()
    table = table_factory(lmtp={"listen": f"127.0.0.1:{port}"})
    wait_until(lambda: "listening on" in table.referee.log_text(), "the service to listen")
    inbox = table.referee.games / ".lmtp" / "inbox"
    inbox.rename(inbox.with_name("inbox.away"))
    inbox.write_text("not a folder: no mail can be written here")  # (root ignores modes)
    try:
        with lmtp_session(port) as session:
            session.mail("alice@example.org")
            session.rcpt(table.referee.address)
            session.putcmd("data")
            session.getreply()
            session.send(smtplib.quotedata(raw_mail().decode()).encode() + b"\r\n.\r\n")
            ((code, said),) = replies(session, 1)
        assert code == 451 and b"try again later" in said
    finally:
        inbox.unlink()
        inbox.with_name("inbox.away").rename(inbox)
    assert "could not be kept" in table.referee.log_text()
    assert list(inbox.iterdir()) == []


def test_serve_lmtp_on_the_command_line_takes_the_place_of_a_mailbox(tmp_path: Path) -> None:
    config = tmp_path / "referee.toml"
    config.write_text(
        'address = "referee@example.org"\n'
        '[imap]\nhost = "imap.example.org"\n[smtp]\nhost = "smtp.example.org"\n'
    )
    settings = load_settings(config)
    assert settings.transport == "imap"
    lmtp = with_lmtp(settings, "[::1]:2424")
    assert lmtp.transport == "lmtp" and lmtp.lmtp is not None
    assert lmtp.lmtp.where() == ("::1", 2424)
    assert lmtp.lmtp_folder == settings.games_dir / ".lmtp"
    on_socket = with_lmtp(settings, "unix:/run/referee/lmtp").lmtp
    assert on_socket is not None and on_socket.where() == "/run/referee/lmtp"
    with pytest.raises(RequestError, match="give HOST:PORT"):
        with_lmtp(settings, "2424")
    both = settings.model_copy(update={"lmtp": lmtp.lmtp})
    with pytest.raises(ConfigurationError, match=r"both \[imap\] and \[lmtp\]"):
        make_transport(both)
    alone = lmtp.model_copy(update={"smtp": None})
    with pytest.raises(ConfigurationError, match=r"needs \[smtp\] settings too"):
        make_transport(alone)


def test_doctor_checks_the_route_to_the_listener_with_the_service_running_and_stopped(
    table_factory: type[Table],  # noqa: F811
    servers: MailServers,  # noqa: F811
) -> None:
    table = lmtp_table(table_factory, servers)
    env = {"REFEREE_SMTP__PASSWORD": servers.password(table.referee.user)}
    doctor = ["doctor", "--config", str(table.referee.config), "--wait", "30"]
    running = CliRunner().invoke(app, doctor, env=env)
    assert running.exit_code == 0, running.stdout
    assert "LMTP: a running service listens on 127.0.0.1:" in running.stdout
    assert "was handed over by LMTP in" in running.stdout
    assert "ok       service: running since" in running.stdout
    # the running service took the doctor's test mail: filed, not listed as another's
    inbox = CliRunner().invoke(app, ["inbox", "--json", "--config", str(table.referee.config)])
    assert json.loads(inbox.stdout)["mails"] == [], inbox.stdout
    table.referee.stop()
    stopped = CliRunner().invoke(app, doctor, env=env)
    assert stopped.exit_code == 0, stopped.stdout
    assert "can be listened on (no service there now)" in stopped.stdout
    assert "was handed over by LMTP in" in stopped.stdout
    assert "WARNING  no referee service is running on the games folder" in stopped.stdout
    left = [
        p for p in (table.referee.games / ".lmtp").rglob("*.eml") if b"doctor" in p.read_bytes()
    ]
    assert left == []  # the doctor's test mails are gone
    # listening where Postfix does not hand the mail (lmtp.listen and transport_maps differ)
    config = table.referee.config
    config.write_text(re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{free_port()}", config.read_text()))
    astray = CliRunner().invoke(app, [*doctor[:-1], "3"], env=env)
    assert astray.exit_code == 1, astray.stdout
    assert "was not handed over on" in astray.stdout and "transport_maps" in astray.stdout


def test_a_unix_socket_is_taken_over_only_from_nobody_and_left_only_if_ours(
    tmp_path: Path,
) -> None:
    socket_path = tmp_path / "lmtp.sock"

    def transport() -> LmtpTransport:
        return LmtpTransport(
            Lmtp(listen=f"unix:{socket_path}"),
            tmp_path / "lmtp",
            SmtpSender(Smtp(host="smtp.invalid")),
            referee="referee@example.org",
            max_bytes=100_000,
            lock=False,
        )

    async def scenario() -> None:
        first, second = transport(), transport()
        await first.listen()
        with pytest.raises(ConfigurationError, match="cannot listen for LMTP"):
            await second.listen()  # someone answers there: not taken from them
        reply = await asyncio.to_thread(lambda: lmtp_unix(str(socket_path)))
        assert reply == 250
        await second.close()  # never listened: leaves the first one's socket alone
        assert socket_path.is_socket()
        await first.close()
        assert not socket_path.exists()
        stale = socket.socket(socket.AF_UNIX)
        stale.bind(str(socket_path))  # left by a service that died: nobody listens
        stale.close()
        third = transport()
        await third.listen()
        await third.close()

    asyncio.run(scenario())


def lmtp_unix(path: str) -> int:
    with smtplib.LMTP(path) as session:
        return int(session.ehlo()[0])


def test_serve_lmtp_with_a_mail_dir_takes_mail_over_lmtp_and_writes_letters_into_its_outbox(
    tmp_path: Path,
) -> None:
    """`referee serve --lmtp HOST:PORT --mail-dir DIR` (docs/interface.md): mail handed over by
    LMTP, letters into DIR/outbox/, no SMTP server."""
    games, mail = tmp_path / "games", tmp_path / "mail"
    store = Store(games)
    create_game(
        store,
        "g1",
        [("alice", "alice@example.org"), ("bob", "bob@example.org")],
        seed=5,
        herald=MailHerald.of(games),
    )
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "referee", "serve", "--lmtp", f"127.0.0.1:{port}"]
    command += ["--mail-dir", str(mail), "--games-dir", str(games)]
    with open(log, "wb") as out:
        service = subprocess.Popen(
            [*command, "--log-format", "text"], env={**env, "REFEREE_ADDRESS": "ref@example.net"},
            stdout=out, stderr=out,
        )  # fmt: skip
    try:
        outbox = mail / "outbox"
        wait_until(
            lambda: len(list(outbox.glob("*alice@example.org.eml"))) == 1,
            f"alice's welcome letter in the outbox\n{log.read_text()}",
        )
        welcome = next(outbox.glob("*alice@example.org.eml")).read_bytes()
        to, reply = quick_reply(welcome, "alice@example.org", "take red green blue", "<r1@a>")
        assert to.startswith("ref+g1.0.")
        with smtplib.LMTP("127.0.0.1", port) as session:
            session.sendmail("alice@example.org", [to], reply)
        wait_until(lambda: store.load("g1").state.turn == 1, f"turn 1\n{log.read_text()}")
        wait_until(
            lambda: len(list(outbox.glob("*bob@example.org.eml"))) == 2,
            f"bob's board of turn 1 in the outbox\n{log.read_text()}",
        )
    finally:
        service.send_signal(signal.SIGTERM)
        assert service.wait(timeout=30) == 0, log.read_text()
    said = log.read_text()
    assert "letters written to" in said and "Traceback" not in said


def test_a_login_the_server_cannot_check_now_is_waited_out_and_not_blamed_on_the_password(
    table_factory: type[Table],  # noqa: F811
    servers: MailServers,  # noqa: F811
) -> None:
    """Dovecot down behind Postfix: Postfix answers the referee's SMTP login with 454 4.7.0
    Temporary authentication failure. The service starts all the same (no exit 78, which
    would tell systemd never to start it again), says the failure is temporary, and sends
    its letters once Dovecot is back; the doctor does not point at the password."""
    table = lmtp_table(table_factory, servers)
    for name in PLAYERS:
        table.programs[name].wait_for("turn 0")
    assert table.referee.stop() == 0
    env = {"REFEREE_SMTP__PASSWORD": servers.password(table.referee.user)}
    with servers.dovecot_stopped():
        table.referee.start()
        wait_until(lambda: "454" in table.referee.log_text(), "the service to meet the 454")
        time.sleep(2)
        assert table.referee.process is not None and table.referee.process.poll() is None
        said = table.referee.log_text()
        assert "454 4.7.0 Temporary authentication failure" in said
        assert "a temporary failure on the server's side" in said
        assert "check smtp.user" not in said and "Traceback" not in said
        shown = CliRunner().invoke(app, ["status", "--config", str(table.referee.config)])
        assert "SMTP cannot be reached; the service keeps trying" in shown.stdout
        checked = CliRunner().invoke(
            app, ["doctor", "--no-mail", "--config", str(table.referee.config)], env=env
        )
        assert checked.exit_code == 1, checked.stdout
        # a new smtpd of Postfix's, with no word from Dovecot, may drop the connection at once
        assert ("a temporary failure on the server's side" in checked.stdout
                and "is Dovecot running?" in checked.stdout) or (
            "cannot be reached: Connection lost" in checked.stdout), checked.stdout  # fmt: skip
        assert "REFEREE_SMTP__PASSWORD" not in checked.stdout
        assert "check smtp.user" not in checked.stdout
    play(table, PLAYERS, random.Random(8), turns=1)  # Dovecot back: letters go out again
    for name in PLAYERS:
        table.programs[name].wait_for("turn 1")


def test_a_certificate_not_trusted_here_is_said_so_naming_ca_file(
    table_factory: type[Table],  # noqa: F811
    servers: MailServers,  # noqa: F811
    tmp_path: Path,
) -> None:
    table = lmtp_table(table_factory, servers)
    settings = tomllib.loads(table.referee.config.read_text())
    del settings["smtp"]["ca_file"]  # the servers' own CA: not among the system's
    config = tmp_path / "no-ca.toml"
    config.write_text(tomli_w.dumps(settings))
    env = {"REFEREE_SMTP__PASSWORD": servers.password(table.referee.user)}
    checked = CliRunner().invoke(app, ["doctor", "--no-mail", "--config", str(config)], env=env)
    assert checked.exit_code == 1, checked.stdout
    assert "its certificate is not trusted here" in checked.stdout
    assert "as ca_file in [smtp]" in checked.stdout and "mend ca_file" in checked.stdout
