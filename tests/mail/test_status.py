"""`referee status` tells the truth at once: a service killed (kill -9) is said gone at the
next look, not when its heartbeat has grown a minute old; the last mail handled is the last
one filed; a service that takes its mail over LMTP names no IMAP server."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.mail.state.service_lock import ServiceLock
from tests.mail.dirtable import Table, address
from tests.mail.players import latest
from tests.mail.servers import wait_until
from tests.mailservers import free_port

ROOT = Path(__file__).parents[2]


def status(table: Table) -> tuple[dict[str, object], str]:
    """What `referee status` says, as JSON and as text."""
    runner = CliRunner()
    as_json = runner.invoke(app, ["status", "--json", "--games-dir", str(table.games)])
    text = runner.invoke(app, ["status", "--games-dir", str(table.games)])
    assert as_json.exit_code == 0 and text.exit_code == 0, as_json.output + text.output
    return json.loads(as_json.stdout), text.stdout


def serve(table: Table, *args: str) -> subprocess.Popen[bytes]:
    """`referee serve` on the table's folders, as a game master starts it."""
    command = [sys.executable, "-m", "referee", "serve", "--games-dir", str(table.games), *args]
    return subprocess.Popen(
        command,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def board_of(table: Table, name: str, turn: int) -> bool:
    """Whether ``name`` has the board of ``turn`` (to reply to)."""
    return f"turn {turn}" in str(latest(table.mail, address(name))["Subject"])


def running(table: Table) -> bool:
    return bool(status(table)[0]["running"])


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield Table(tmp_path)


def test_a_service_killed_is_said_gone_at_once(table: Table) -> None:
    service = serve(table, "--mail-dir", str(table.mail))
    try:
        wait_until(lambda: running(table), "the service to run")
        body, text = status(table)
        assert body["service"]["pid"] == service.pid  # type: ignore[index]
        assert "Service: running since" in text and f"(pid {service.pid})" in text
        service.kill()  # kill -9: no word to anyone, the status file still says "running"
        service.wait(timeout=30)
        said = json.loads((table.games / ".mail" / "status.json").read_text())
        assert said["state"] == "running"
        body, text = status(table)  # at once: not after the heartbeat's 60 s
        assert body["running"] is False
        assert "Service: NOT running (last seen" in text and "gone without stopping)." in text
        assert "Mail servers: none connected (the service is not running)." in text
    finally:
        service.kill()
        service.wait(timeout=30)


def test_a_service_alive_and_holding_its_lock_is_running_whatever_its_heartbeat(
    table: Table,
) -> None:
    service = serve(table, "--mail-dir", str(table.mail))
    try:
        wait_until(lambda: running(table), "the service to run")
        service.send_signal(signal.SIGSTOP)  # stuck: it writes no heartbeat
        path = table.games / ".mail" / "status.json"
        old = json.loads(path.read_text())
        old["heartbeat"] = "2026-01-01T00:00:00+00:00"
        path.write_text(json.dumps(old))
        body, text = status(table)
        assert body["running"] is True
        assert "It has not written its status for" in text and f"kill -USR1 {service.pid}" in text
    finally:
        service.send_signal(signal.SIGCONT)
        service.kill()
        service.wait(timeout=30)


def test_the_last_mail_handled_is_the_last_one_filed(table: Table) -> None:
    service = serve(table, "--mail-dir", str(table.mail))
    try:
        wait_until(lambda: running(table), "the service to run")
        for turn, (name, move) in enumerate(
            [("alice", "take red green blue"), ("bob", "take white blue black")], 1
        ):
            wait_until(lambda n=name, t=turn: board_of(table, n, t - 1), f"{name}'s board")
            table.reply(name, move)
            wait_until(lambda t=turn: len(table.folder("done")) == t, f"mail {turn} to be filed")
            body, text = status(table)  # the moment it is filed, not a second later
            last = body["service"]["last_mail"]  # type: ignore[index]
            assert last["mail"] == f"<m{turn}.{name}@example.org>", last
            assert f"played: turn {turn}: {name} take" in text
    finally:
        service.terminate()
        assert service.wait(timeout=60) == 0


def test_a_service_taking_mail_over_lmtp_names_no_imap_server(table: Table) -> None:
    port = free_port()
    service = serve(table, "--lmtp", f"127.0.0.1:{port}", "--mail-dir", str(table.mail))
    try:
        wait_until(lambda: running(table), "the service to run")
        body, text = status(table)
        assert "imap" not in body["service"]  # type: ignore[operator]
        assert "IMAP" not in text, text
        assert "Mail servers: connected." in text
    finally:
        service.terminate()
        log = service.communicate(timeout=60)[1].decode()
    assert service.returncode == 0, log


def test_a_look_at_the_lock_never_stops_a_service_starting(tmp_path: Path) -> None:
    lock = ServiceLock(tmp_path)
    assert lock.held() is False  # never held: no lock file yet
    lock.hold(datetime.now(UTC))
    assert lock.held() is True
    lock.release()
    assert lock.held() is False
    # a look (a shared lock for an instant) just as a service starts: it waits it out
    fd = os.open(tmp_path / ".mail" / "service.lock", os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_SH)
    threading.Timer(0.2, lambda: os.close(fd)).start()
    started = time.monotonic()
    lock.hold(datetime.now(UTC))
    assert time.monotonic() - started >= 0.1
    lock.release()
