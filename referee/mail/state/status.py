"""What the running service tells `referee status`: ``GAMES/.mail/status.json``.

The service keeps one small JSON file up to date (written whole, at most about once a second,
and at once when a connection changes state): who runs, since when, for which address and
games folder, the state of its mail servers, the last mail handled and letter sent, and a
heartbeat. A service that stopped says so; one that died is found out at once by whoever reads
the file (:func:`read_status`: its process is gone, and its lock is free).

Each mail server's state is kept by a :class:`Reach`: connected, or unreachable since when
and why. It is told in the log once when the server is lost and once when it is back, not
at every try, and the tries in between come further and further apart (1 s, 2 s, 4 s … at
most LONGEST_WAIT).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from referee.store import no_room_on_disk, write_over

log = logging.getLogger("referee.service")

#: A heartbeat older than this means the service is not running (it beats every few seconds).
STALE_AFTER = 60.0
#: The least time between two writes of the file, unless something changed state.
WRITE_EVERY = 1.0
#: The longest wait (seconds) before trying again a mail server that cannot be reached.
LONGEST_WAIT = 60.0
#: The mail servers' fields in the status, and their names there.
SERVERS = {"imap": "IMAP", "smtp": "SMTP"}


class StatusBoard:
    """The service's side: keeps the fields and writes them."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.body: dict[str, Any] = {}
        self._written = 0.0
        self._lock = threading.Lock()  # the judging thread and the sender both report

    def set(self, now: datetime, force: bool = False, **fields: Any) -> None:
        """Note ``fields`` (and the heartbeat); write them if ``force`` or it is time."""
        with self._lock:
            self.body.update(fields)
            self.body["heartbeat"] = now.isoformat()
            if not force and time.monotonic() - self._written < WRITE_EVERY:
                return
            text = json.dumps(self.body, ensure_ascii=False)
            self._written = time.monotonic()
        try:
            write_over(self.path, text.encode())
        except OSError as err:  # a status not written is not worth a stop
            if no_room_on_disk(err):  # no room for a new file: over the old one, then
                with contextlib.suppress(OSError):
                    _write_in_place(self.path, text.encode())

    def server(self, now: datetime, kind: str, state: dict[str, Any], force: bool) -> None:
        """Note one mail server's state (``kind``: imap, smtp), and the summary of them
        all in ``connection``: "connected", or what cannot be reached."""
        with self._lock:
            servers = {k: self.body.get(k) for k in SERVERS if k != kind and k in self.body}
        servers[kind] = state
        away = [
            f"{SERVERS[k]} unreachable since {s['since']}: {s['error']}"
            for k, s in servers.items()
            if isinstance(s, dict) and s.get("state") == "unreachable"
        ]
        connection = "unreachable: " + "; ".join(away) if away else "connected"
        self.set(now, force, **{kind: state, "connection": connection})


def read_status(path: Path, now: datetime, held: bool | None = None) -> dict[str, Any]:
    """The status the service left, with ``running`` (True, False) worked out; {} when no
    service ever ran here. ``held``: whether the games folder's lock is held now (None: it
    cannot be told here).

    A service said running is taken at its word only while its process is alive and holds
    the lock: one killed (kill -9, the machine's OOM killer) is seen gone at once, not when
    its heartbeat has grown old. Where neither can be told (the lock not readable here, a
    process of another machine), an old heartbeat (STALE_AFTER) is what tells. A service
    alive but silent for longer has ``silent`` (seconds). One not running holds no
    connection: what it last said of its servers is left out."""
    try:
        body = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(body, dict):
        return {}
    try:
        beat = datetime.fromisoformat(str(body.get("heartbeat")))
        age = (now - beat).total_seconds()
    except ValueError:
        age = float("inf")
    alive = process_alive(body.get("pid"))
    if body.get("state") != "running" or held is False or alive is False:
        body["running"] = False
    elif held is None and alive is None:
        body["running"] = age < STALE_AFTER
    else:
        body["running"] = True
        if age >= STALE_AFTER:
            body["silent"] = age
    if not body["running"]:  # what it said of its connections was true only while it ran
        body["connection"] = "none: the service is not running"
        for field in ("servers", *SERVERS):
            body.pop(field, None)
    return body


def process_alive(pid: object) -> bool | None:
    """Whether the process ``pid`` is alive on this machine (None: no pid to look for)."""
    if not isinstance(pid, int) or pid <= 0:
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    except OSError:
        return None
    return True


class Reach:
    """Whether one mail server can be reached, as the service last found it: told in the
    log once when it is lost (with why, and that the service keeps trying) and once when it
    is back (with how long it was away); later tries are told at debug level only. Kept in
    the status for `referee status`, and the time of the next try (capped backoff)."""

    def __init__(
        self,
        kind: str,
        name: str,
        status: StatusBoard,
        clock: Callable[[], datetime],
        shown: bool = True,
    ) -> None:
        """``kind``: the server's field in the status (imap, smtp); ``name``: how the log
        calls it ("IMAP server mail.example.org:993"); ``shown``: whether the transport has
        such a server, told in the status (the lmtp transport has no IMAP server: mail is
        handed to it; the dir transport neither)."""
        self.kind = kind
        self.name = name
        self.status = status
        self.clock = clock
        self.shown = shown
        self._lost: float | None = None  # when it was lost (monotonic), while it is
        self._tries = 0  # the tries that failed since
        self._next = 0.0  # when to try again (monotonic)
        self._told = False  # whether the status has its state

    @property
    def unreachable(self) -> bool:
        return self._lost is not None

    def wait(self) -> float:
        """Seconds until the next try of a server that cannot be reached (0: now)."""
        return max(0.0, self._next - time.monotonic()) if self.unreachable else 0.0

    def reached(self) -> None:
        """It answered: said once if it had been lost, and noted in the status."""
        if self._lost is not None:
            away = say_duration(time.monotonic() - self._lost)
            log.info("%s can be reached again, after %s away", self.name, away)
        elif self._told:
            return
        self._lost, self._tries, self._told = None, 0, True
        now = self.clock()
        if self.shown:
            self.status.server(
                now, self.kind, {"state": "connected", "since": now.isoformat()}, True
            )

    def lost(self, error: str) -> None:
        """A try failed: ``error`` names the server and what went wrong. Said in the log
        if it is the first since the server was last reached; the next try is due after
        1 s, 2 s, 4 s … at most LONGEST_WAIT."""
        wait = min(2.0**self._tries, LONGEST_WAIT)
        self._tries += 1
        now = time.monotonic()
        self._next = now + wait
        if self._lost is not None:
            log.debug("%s; still trying: the next try in %g s", error, wait)
            state = self.status.body.get(self.kind)
            if self.shown and isinstance(state, dict) and state.get("error") != error:
                self.status.server(self.clock(), self.kind, {**state, "error": error}, False)
            return
        self._lost, self._told = now, True
        log.warning(
            "%s; trying again in %g s, then at growing intervals of at most %g s, until it "
            "answers; mail and letters wait meanwhile, none is lost",
            error,
            wait,
            LONGEST_WAIT,
        )
        at = self.clock().isoformat()
        if self.shown:
            self.status.server(
                self.clock(), self.kind, {"state": "unreachable", "since": at, "error": error}, True
            )


def say_duration(seconds: float) -> str:
    """A length of time, in words a person reads at a glance: 42 s, 7 min, 3 h 5 min."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"


def _write_in_place(path: Path, data: bytes) -> None:
    """Write ``data`` over the file at ``path`` in place, padded with spaces (which JSON
    allows) to its old length: on a disk that takes no new files, the heartbeat still beats
    (a reader may meet it half written for an instant, and reads it again)."""
    fd = os.open(path, os.O_WRONLY)
    try:
        old = os.fstat(fd).st_size
        os.pwrite(fd, data + b" " * max(0, old - len(data)), 0)
    finally:
        os.close(fd)
