"""What the running service tells `referee status`: ``GAMES/.mail/status.json``.

The service keeps one small JSON file up to date (written whole, at most about once a second,
and at once when a connection changes state): who runs, since when, for which address and
games folder, the state of its mail servers, the last mail handled and letter sent, and a
heartbeat. A service that stopped says so; one that died leaves a heartbeat that grows old.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from referee.store import write_over

#: A heartbeat older than this means the service is not running (it beats every few seconds).
STALE_AFTER = 60.0
#: The least time between two writes of the file, unless something changed state.
WRITE_EVERY = 1.0


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
        with contextlib.suppress(OSError):  # a status not written is not worth a stop
            write_over(self.path, text.encode())


def read_status(path: Path, now: datetime) -> dict[str, Any]:
    """The status the service left, with ``running`` (True, False) worked out from its state
    and heartbeat; {} when no service ever ran here. A service that is not running holds no
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
    body["running"] = body.get("state") == "running" and age < STALE_AFTER
    if not body["running"]:  # what it said of its connections was true only while it ran
        body["connection"] = "none: the service is not running"
        body.pop("servers", None)
    return body
