"""The lock a service keeps in its mailbox: which heartbeat holds it, and when one is stale."""

from __future__ import annotations

import os
import socket
import subprocess
from datetime import UTC, datetime, timedelta

from referee.mail.transports.mailbox_lock import (
    STALE_AFTER,
    Heartbeat,
    heartbeat_message,
    holder,
    read_heartbeat,
    taken,
)

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


def beat(uid: int, instance: str, ago: float, host: str = "elsewhere", pid: str = "1") -> Heartbeat:
    return Heartbeat(
        uid, instance, host, pid, "/var/lib/referee/games", NOW - timedelta(seconds=ago)
    )


def test_a_heartbeat_reads_back_as_written() -> None:
    raw = heartbeat_message("abc", "/srv/games", 4242, NOW)
    head = raw.split(b"\r\n\r\n")[0] + b"\r\n\r\n"
    found = read_heartbeat(7, head)
    assert found == Heartbeat(7, "abc", socket.gethostname(), "4242", "/srv/games", NOW)
    assert read_heartbeat(8, b"Subject: something else\r\n\r\n") is None


def test_the_first_fresh_heartbeat_by_uid_holds_the_mailbox() -> None:
    beats = [beat(3, "b", 5), beat(2, "a", STALE_AFTER + 1), beat(4, "c", 1)]
    first = holder(beats, NOW)
    assert first is not None and first.instance == "b"  # "a" is stale: gone
    assert holder([beat(1, "a", STALE_AFTER + 5)], NOW) is None
    assert "another referee service (host elsewhere, pid 1" in str(taken(beats[0], "x at y"))


def test_a_heartbeat_of_a_dead_process_on_this_machine_is_stale_at_once() -> None:
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid that no longer runs
    here = socket.gethostname()
    assert not beat(1, "dead", 1, host=here, pid=str(gone.pid)).fresh(NOW)
    assert beat(1, "me", 1, host=here, pid=str(os.getpid())).fresh(NOW)
    assert beat(1, "there", 1, host="elsewhere", pid=str(gone.pid)).fresh(NOW)  # can't tell
