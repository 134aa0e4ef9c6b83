"""Mending what went wrong by mail: a letter a server refused for good is shown with its
tries, a player's address is changed (recorded with who and why), and the letter is sent
again to the new address; the old address can no longer move. A mail the service could not
handle is told of in one line, by its `referee inbox` id, and handed back."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.mail.transports.base import SendError
from referee.mail.transports.directory import DirTransport
from referee.service import Service
from tests.mail.dirtable import Table, address
from tests.mail.players import latest, mails_to, reply, text_of

runner = CliRunner()


class Refusing(DirTransport):
    """The dir transport, with a server that refuses one address for good (a 550)."""

    def __init__(self, mail_dir: Path, refused: str) -> None:
        super().__init__(mail_dir)
        self.refused = refused

    async def send(self, sender: str, recipient: str, message: bytes) -> None:
        if recipient == self.refused:
            raise SendError(f"550 5.1.1 <{recipient}>: Recipient address rejected", True)
        await super().send(sender, recipient, message)


def referee(table: Table, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--games-dir", str(table.games)])
    return result.exit_code, result.stdout, result.stderr


def test_a_refused_letter_is_sent_again_to_the_players_new_address(tmp_path: Path) -> None:
    table = Table(tmp_path)  # alice and bob, the welcomes sent
    table.reply("alice", "take red green blue")
    service = Service(table.settings, Refusing(table.mail, address("bob")))
    asyncio.run(service.run(once=True))  # bob's board of turn 1 is refused for good
    code, out, _ = referee(table, "outbox")
    assert code == 0 and "0 letter(s) waiting to be sent, 1 refused for good." in out
    assert "to bob@example.org: Your move · Splendor g1 · turn 1, tried 1 time(s): 550" in out
    assert "referee outbox resend ID" in out
    (failed,) = json.loads(referee(table, "outbox", "--json")[1])["failed"]
    assert failed["attempts"] == 1

    code, out, err = referee(table, "player", "g1", "bob", "--email", "Bob@New.example.org",
                             "--reason", "bob mistyped his address", "--by", "the gm")  # fmt: skip
    assert code == 0, err
    assert "bob's address in game g1 is now Bob@new.example.org (was bob@example.org)" in out
    game = table.store.load("g1")
    assert game.record.players[1].email == "Bob@new.example.org"
    assert referee(table, "replay", "g1", "--verify")[0] == 0
    code, out, _ = referee(table, "log", "g1")
    assert "ADDRESS of bob: bob@example.org -> Bob@new.example.org, by the gm: bob mistyped" in out

    code, out, err = referee(table, "outbox", "resend", failed["id"])
    assert code == 0, err
    assert f"Letter {failed['id']} to Bob@new.example.org" in out
    table.serve()
    new = mails_to(table.mail, "Bob@new.example.org")
    assert [str(m["Subject"]) for m in new] == [
        "Your move · Splendor g1 · turn 1",  # the address letter, queued first
        "Your move · Splendor g1 · turn 1",  # the board that was refused, sent again
    ]
    assert "changed your address in Splendor game g1" in text_of(new[0])
    assert json.loads(referee(table, "outbox", "--json")[1]) == {"waiting": [], "failed": []}

    table.reply("bob", "take 2 white", sender="bob@example.org")  # the old address: refused
    table.serve()
    assert table.state.turn == 1
    assert "not read it as a move" in text_of(latest(table.mail, "bob@example.org"))
    reply(table.mail, new[0], "Bob@new.example.org", "take 2 white", message_id="<nb@x.org>")
    table.serve()
    assert table.state.turn == 2


def test_changing_an_address_refuses_what_would_not_work(tmp_path: Path) -> None:
    table = Table(tmp_path)
    code, _, err = referee(table, "player", "g1", "bob", "--email", "bob@", "--reason", "x")
    assert code == 1 and "player bob: 'bob@' is not a mail address" in err
    code, _, err = referee(table, "player", "g1", "zed", "--email", "z@x.org", "--reason", "x")
    assert code == 1 and "zed" in err
    code, _, err = referee(table, "player", "g1", "bob", "--email", "bob@example.org",
                           "--reason", "x")  # fmt: skip
    assert code == 1 and "bob's address is bob@example.org already" in err
    code, _, err = referee(table, "player", "g1", "bob", "--email", "b@x.org", "--reason", " ")
    assert code == 1 and "needs a reason" in err
    code, _, err = referee(table, "outbox", "resend", "nosuch")
    assert code == 1 and "no letter 'nosuch' was refused for good" in err
    assert not (table.games / "g1" / "amendments").exists()


def test_an_amendment_edited_by_hand_is_named_by_replay(tmp_path: Path) -> None:
    table = Table(tmp_path)
    referee(table, "player", "g1", "bob", "--email", "b@x.org", "--reason", "moved")
    path = table.games / "g1" / "amendments" / "0001.toml"
    path.write_bytes(path.read_bytes().replace(b"b@x.org", b"m@x.org"))
    code, _, err = referee(table, "replay", "g1", "--verify")
    assert code == 1 and "amendments/0001.toml does not match its seal" in err


def test_a_mail_the_service_cannot_handle_is_set_aside_told_of_and_read_again_when_handed_back(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, game_master="gm@example.org")
    table.reply("alice", "take red green blue")
    table.serve()
    turn = table.games / "g1" / "turns" / "0001.toml"
    good = turn.read_bytes()
    turn.write_bytes(good + b"# edited\n")  # the game cannot be read: nothing may be played
    table.reply("bob", "take 2 white", message_id="<bob-move@example.org>")
    table.serve()
    assert table.folder("quarantine") == ["bob-move_example.org.eml"]
    told = text_of(latest(table.mail, address("bob")))
    assert "could not read your mail" in told and "you need not send it again" in told
    gm = mails_to(table.mail, "gm@example.org")
    assert len(gm) == 1 and "a mail about game g1 was set aside" in str(gm[0]["Subject"])
    (noted,) = json.loads(referee(table, "inbox", "--json")[1])["mails"]
    assert noted["kind"] == "set aside" and noted["message_id"] == "<bob-move@example.org>"
    assert (
        "game g1 cannot be read: " in noted["reason"]
        and "does not match its seal" in (noted["reason"])
    )
    assert f"referee inbox retry {noted['id']}" in text_of(gm[0])
    code, out, _ = referee(table, "inbox")
    assert "1 mail(s) set aside, waiting for the game master" in out
    assert f"[{noted['id']}]" in out and "set aside from bob@example.org game g1:" in out

    turn.write_bytes(good)  # mended
    code, out, err = referee(table, "inbox", "retry", noted["id"])
    assert code == 0 and "is handed back" in out, err
    table.serve()
    assert table.state.turn == 2 and table.folder("quarantine") == []
    assert json.loads(referee(table, "inbox", "--json")[1])["mails"] == []


def test_refused_mail_is_listed_with_why_and_can_be_handed_back(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.reply("bob", "take red green blue", message_id="<early@example.org>")
    table.serve()
    (noted,) = json.loads(referee(table, "inbox", "--json")[1])["mails"]
    assert noted["kind"] == "refused" and "it is alice's turn, not bob's" in noted["reason"]
    code, out, _ = referee(table, "inbox")
    assert "0 mail(s) set aside, waiting for the game master; 1 refused or ignored" in out
    assert referee(table, "inbox", "retry", noted["id"])[0] == 0
    table.serve()  # read again: refused again, and answered again
    answers = [m for m in mails_to(table.mail, address("bob")) if m["In-Reply-To"] == noted[
        "message_id"]]  # fmt: skip
    assert len(answers) == 2
    code, _, err = referee(table, "inbox", "retry", "nosuch")
    assert code == 1 and "no mail 'nosuch' was set aside or refused" in err


def test_status_tells_whether_the_service_runs_and_what_waits(tmp_path: Path) -> None:
    table = Table(tmp_path, game_master="gm@example.org")
    table.reply("alice", "take red green blue")
    config = tmp_path / "referee.toml"
    config.write_text(
        f'address = "referee@example.net"\ngame_master = "gm@example.org"\n'
        f'games_dir = "{table.games}"\nmail_dir = "{table.mail}"\n'
    )
    result = runner.invoke(
        app, ["serve", "--once", "--config", str(config), "--log-format", "json"]
    )
    code, err = result.exit_code, result.stderr
    assert code == 0
    lines = [json.loads(line) for line in err.splitlines()]
    assert {"time", "level", "logger", "message"} <= set(lines[0])
    said = [line["message"] for line in lines]
    assert said[0].startswith("referee service for referee@example.net (pid ")
    assert said[1].startswith(f"games folder {table.games.resolve()}: 1 game(s)")
    assert said[2] == "game master: gm@example.org"
    assert any(m.startswith("mail folder ") for m in said)
    assert any("played: turn 1: alice take blue green red" in m for m in said)
    sent = "letter to bob@example.org sent: Your move · Splendor g1 · turn 1"
    assert any(m.startswith(sent) for m in said)
    code, out, _ = referee(table, "status", "--json")
    body = json.loads(out)
    assert body["running"] is False and body["service"]["state"] == "stopped"
    assert body["service"]["last_mail"]["outcome"] == "played"
    assert body["letters_waiting"] == 0 and body["mails_set_aside"] == 0
    # a stopped service holds no connection: what it said of them while it ran is not shown
    assert "servers" not in body["service"]
    assert body["service"]["connection"] == "none: the service is not running"
    code, out, _ = referee(table, "status")
    assert "Service: NOT running (last seen" in out and ", stopped)." in out
    assert "Mail servers: none connected (the service is not running)." in out
    assert "connected." not in out.replace("none connected", "")
    assert "mail folder" not in out and "holds the mailbox" not in out
    assert "Start it: systemctl start referee (or, without systemd: referee serve)." in out
    assert "Letters: 0 waiting to be sent (0 being tried again), 0 refused for good." in out
    code, out, _ = (
        runner.invoke(app, ["status", "--games-dir", str(tmp_path / "new")]).exit_code,
        "",
        "",
    )
    assert code == 1


def without_root_powers() -> list[str]:
    """A command prefix that runs as root without its power over other files' modes, so that
    a folder of mode 000 is refused as it would be to the service's own user."""
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="needs root and setpriv, to drop root's power over file modes",
)
def test_a_permission_error_is_one_line_in_the_log_naming_the_mail_by_its_inbox_id(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)  # no bots in it
    table.reply("alice", "take red green blue")
    turns = table.games / "g1" / "turns"
    turns.chmod(0)  # as a game master's mistake leaves it
    try:
        served = subprocess.run(
            [*without_root_powers(), sys.executable, "-m", "referee", "serve", "--once",
             "--mail-dir", str(table.mail), "--games-dir", str(table.games)],
            capture_output=True, text=True, timeout=120,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
        )  # fmt: skip
    finally:
        turns.chmod(0o755)
    log = served.stderr
    assert served.returncode == 0, log
    assert "Traceback" not in log and "bots" not in log
    _, out, _ = referee(table, "inbox", "--json")
    (aside,) = [m for m in json.loads(out)["mails"] if m["kind"] == "set aside"]
    short = aside["id"]
    said = [line for line in log.splitlines() if "Permission denied" in line]
    assert len(said) == 2, log  # the mail, and the game for the rest of the service's work
    assert (
        f"mail {short} from alice@example.org is set aside: PermissionError: [Errno 13] "
        f"Permission denied: '{turns}'; once that is mended: referee inbox retry {short}"
    ) in said[0]
    assert f"game g1 cannot be read ([Errno 13] Permission denied: '{turns}')" in said[1]
    assert ":" not in short  # its referee inbox id, not the transport's
    assert referee(table, "inbox", "retry", short)[0] == 0  # mended: read again, played
    table.serve()
    assert table.state.turn == 1
