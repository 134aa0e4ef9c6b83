"""The small files the mail service keeps in ``<games>/.mail/``: folders made on first use,
notes read forgivingly, and how long a note is kept (:class:`Ages`). Shared by the outbox,
the notes, the threads and the service lock (:mod:`referee.mail.state.spool` has the map)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

#: How long notes, letters sent and threads are kept once they can no longer matter.
EXPIRE_AFTER = timedelta(days=28)


class Folders:
    """The folders under ``root``, made when first used unless ``create`` is False (for a
    command that only looks at what the service holds)."""

    def __init__(self, root: Path, create: bool = True) -> None:
        self.root = root
        self.create = create
        self._made: set[str] = set()

    def __call__(self, name: str) -> Path:
        path = self.root / name
        if name not in self._made and self.create:
            path.mkdir(parents=True, exist_ok=True)
            self._made.add(name)
        return path


class Ages:
    """Whether a note can no longer matter at ``now``: written more than EXPIRE_AFTER ago,
    or, for a note of a game, that long after the game ended (``finished(game)``: when it
    ended or went away; None while it runs)."""

    def __init__(self, now: datetime, finished: Callable[[str], datetime | None]) -> None:
        self.now = now
        self.finished = finished
        self._ends: dict[str, datetime | None] = {}

    def young(self, written: float) -> bool:
        """Whether a note written at ``written`` cannot be over yet, whatever its game:
        whether it is EXPIRE_AFTER old or less (so the sweep need not read it)."""
        return self.now.timestamp() - written <= EXPIRE_AFTER.total_seconds()

    def over(self, game: str | None, written: float) -> bool:
        if game is not None:
            if game not in self._ends:
                self._ends[game] = self.finished(game)
            end = self._ends[game]
            if end is None:
                return False
            written = max(written, end.timestamp())
        return self.now.timestamp() - written > EXPIRE_AFTER.total_seconds()


def note_of(text: str | None) -> dict[str, Any]:
    """A JSON note, or {} (an older note in plain text, or none)."""
    if not text:
        return {}
    try:
        body = json.loads(text)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def read_text(path: Path) -> str | None:
    try:
        return path.read_text()
    except (OSError, UnicodeError):
        return None


def read_json(path: Path) -> dict[str, Any] | None:
    try:
        body = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return body if isinstance(body, dict) else None


def listdir(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except FileNotFoundError:
        return []


def files(folder: Path) -> list[Path]:
    return [folder / n for n in listdir(folder) if not n.startswith(".")]


def mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return time.time()


def remove(path: Path) -> int:
    """Remove a file; 1 if it was removed, 0 if it was gone or is not ours to remove."""
    try:
        path.unlink()
    except OSError:  # gone already, or not ours to remove: left for the game master
        return 0
    return 1


def hash_of(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
