"""`referee doctor` says what is wrong, plainly: that no service is running (a warning), a
login refused for the password apart from a server's temporary trouble, and its own test
mail is not listed by `referee inbox` as mail from another referee. (On real servers:
tests/mail/test_lmtp.py, a 454 while Dovecot is down and a certificate not trusted.)"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.doctor import _trial
from referee.mail.state.service_lock import ServiceLock
from referee.mail.state.status import StatusBoard
from referee.mail.transports.imap import login_refused
from tests.mail.dirtable import Table
from tests.mail.players import deliver

runner = CliRunner()


def inbox(table: Table) -> list[dict[str, object]]:
    shown = runner.invoke(app, ["inbox", "--json", "--games-dir", str(table.games)])
    assert shown.exit_code == 0, shown.output
    mails: list[dict[str, object]] = json.loads(shown.stdout)["mails"]
    return mails


def test_the_doctors_test_mail_is_filed_unanswered_and_not_listed_by_inbox(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    letters = len(table.folder("outbox"))
    raw = _trial(table.settings, wait=0).raw
    deliver(table.mail, "doctor.eml", raw)
    table.serve()
    assert table.folder("quarantine") == ["doctor.eml"]  # filed, for the doctor to take
    assert inbox(table) == []  # nothing for the game master there
    assert len(table.folder("outbox")) == letters  # never answered
    assert table.state.turn == 0


def test_a_mail_that_only_says_it_is_the_doctors_is_listed_as_from_another_referee(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    raw = _trial(table.settings, wait=0).raw
    loop = ServiceLock(table.games).known_loop_id()
    assert loop is not None and loop.encode() in raw
    deliver(table.mail, "forged.eml", raw.replace(loop.encode(), b"doctor"))  # no secret
    table.serve()
    (listed,) = inbox(table)
    assert listed["reason"] == "automatic mail: mail from another referee"


def doctor(table: Table, tmp_path: Path) -> tuple[int, str]:
    config = tmp_path / "referee.toml"
    config.write_text(
        f'address = "referee@example.net"\ngames_dir = "{table.games}"\n'
        f'mail_dir = "{table.mail}"\n'
    )
    checked = runner.invoke(app, ["doctor", "--no-mail", "--config", str(config)])
    return checked.exit_code, checked.stdout


def test_the_doctor_warns_when_no_service_runs_and_says_so_when_one_does(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)  # served once: stopped since
    code, said = doctor(table, tmp_path)
    assert code == 0 and "All is well." in said  # a warning is not a problem
    assert (
        f"WARNING  no referee service is running on the games folder {table.games} (last seen "
    ) in said and ", stopped): mail to the referee waits, unanswered, until one does" in said
    assert "-> start it: systemctl start referee (or, without systemd, referee serve)" in said
    lock = ServiceLock(table.games)
    lock.hold(datetime.now(UTC))  # a service, as far as anyone looking can tell
    try:
        StatusBoard(table.games / ".mail" / "status.json").set(
            datetime.now(UTC), force=True, state="running", pid=os.getpid(), since="today"
        )
        code, said = doctor(table, tmp_path)
        assert code == 0 and f"ok       service: running since today (pid {os.getpid()})" in said
        assert "WARNING" not in said
    finally:
        lock.release()


@pytest.mark.parametrize(
    ("error", "temporary"),
    [
        # Dovecot, its password database away (RFC 5530)
        ("IMAP server h:993: Response status \"OK\" expected, but \"NO\" received. Data: "
         "[b'[UNAVAILABLE] Temporary authentication failure. [h:2026-12-06 10:00:00]']", True),
        # Dovecot, a wrong password
        ("IMAP server h:993: Response status \"OK\" expected, but \"NO\" received. Data: "
         "[b'[AUTHENTICATIONFAILED] Authentication failed.']", False),
    ],
)  # fmt: skip
def test_an_imap_login_refused_for_the_servers_trouble_is_temporary_and_not_the_password(
    error: str, temporary: bool
) -> None:
    found = login_refused(error, "h:993", "splendor@example.org")
    assert found is not None
    assert found[0] is temporary
    assert ("REFEREE_IMAP__PASSWORD" in found[1]) is not temporary
    assert login_refused("IMAP server h:993: no answer within 30 s", "h:993", "x") is None
