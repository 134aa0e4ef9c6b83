"""The service's durable mail state, in ``<games>/.mail/``: nothing is kept only in memory.

::

    .mail/secret              the key behind every player's routing key (made once, 0600)
    .mail/outbox/*.json       letters waiting to be sent, oldest first
    .mail/sent/*.json         letters sent
    .mail/failed/*.json       letters a server refused for good, for the game master
    .mail/void/*.json         letters whose turn was never committed (a crash in between)
    .mail/seen/<hash>         mails already handled, and what came of them
    .mail/limits/<day>/<hash> error replies already sent today, per sender and kind
    .mail/threads/<game>.<seat>  the Message-IDs sent to a player, to thread the next letter

A letter that announces a turn is queued *before* the turn is written, naming the turn file
and the hash it will have; it is sent only once that file exists with that hash. So the
turn and its mails commit together: a crash between the two leaves a letter that is set
aside (void), never a turn whose mails are lost.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import time
import uuid
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any

from referee.mail.compose import Letter
from referee.record import digest
from referee.store import fsync_dir, write_new


@dataclass(frozen=True)
class Commit:
    """The turn a letter depends on: sent only once ``turns/NNNN.toml`` of ``game`` exists
    with this hash."""

    game: str
    turn: int
    sha256: str


@dataclass(frozen=True)
class Queued:
    """A letter in the outbox, with what it waits for and how often sending it has failed."""

    path: Path
    letter: Letter
    commit: Commit | None
    attempts: int
    not_before: float


#: How many of the Message-IDs sent to a player a letter's References name.
THREAD_KEPT = 10


class Spool:
    """The mail state beside the games in ``games_dir``."""

    def __init__(self, games_dir: Path) -> None:
        self.games_dir = games_dir
        self.root = games_dir / ".mail"
        self._threads: dict[str, list[str]] = {}  # read once, then kept (one writer)
        self._made: set[str] = set()
        self._read: dict[str, Queued] = {}  # outbox letters already read, by file name

    def _dir(self, name: str) -> Path:
        path = self.root / name
        if name not in self._made:
            path.mkdir(parents=True, exist_ok=True)
            self._made.add(name)
        return path

    # -- the secret ---------------------------------------------------------------------------

    def secret(self) -> bytes:
        """The routing secret, made on first use and kept (readable by the owner only)."""
        path = self.root / "secret"
        if not path.exists():
            self.root.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "w") as out:
                    out.write(secrets.token_hex(32) + "\n")
                    out.flush()
                    os.fsync(out.fileno())
        return bytes.fromhex(path.read_text().strip())

    def loop_id(self) -> str:
        """The value of our loop header: mail carrying it is ours and never answered."""
        return hashlib.sha256(b"loop" + self.secret()).hexdigest()[:16]

    # -- the outbox ---------------------------------------------------------------------------

    def queue(self, letters: list[Letter], commit: Commit | None = None) -> list[Path]:
        """Queue letters durably, in order."""
        paths = []
        for mail in letters:
            stamp = f"{time.time_ns():020d}"
            name = f"{stamp}-{mail.game or 'none'}-{mail.turn:04d}-{uuid.uuid4().hex[:8]}.json"
            body = {
                "letter": asdict(mail),
                "commit": asdict(commit) if commit else None,
                "attempts": 0,
                "not_before": 0.0,
            }
            path = self._dir("outbox") / name
            write_new(path, json.dumps(body).encode(), sync_dir=False, unique_name=True)
            paths.append(path)
        if paths:
            fsync_dir(self._dir("outbox"))
        return paths

    def pending(self) -> list[Queued]:
        """The letters waiting, oldest first. A letter's file is read once: it changes only
        through :meth:`retry_later`, which notes the change."""
        found = []
        for path in sorted(self._dir("outbox").glob("*.json")):
            queued = self._read.get(path.name)
            if queued is None:
                body = _read_json(path)
                if body is None:
                    continue
                commit = Commit(**body["commit"]) if body.get("commit") else None
                letter = Letter(**body["letter"])
                queued = Queued(path, letter, commit, body["attempts"], body["not_before"])
                self._read[path.name] = queued
            found.append(queued)
        for name in self._read.keys() - {q.path.name for q in found}:
            del self._read[name]  # settled, by this service or another
        return found

    def committed(self, queued: Queued) -> bool | None:
        """Whether the letter's turn is committed: True, False (never will be: its turn file
        is another's), or None (not yet: wait)."""
        if queued.commit is None:
            return True
        path = self.games_dir / queued.commit.game / "turns" / f"{queued.commit.turn:04d}.toml"
        if not path.exists():
            return None
        return digest(path.read_bytes()) == queued.commit.sha256

    def settle(self, queued: Queued, folder: str, **extra: Any) -> Path:
        """Move a letter out of the outbox into ``folder`` (sent, failed, void), noting
        ``extra`` (the server's answer, why it was set aside). A letter sent is only moved:
        one step on the disk, and a lost move costs at most sending it again."""
        target = self._dir(folder) / queued.path.name
        self._read.pop(queued.path.name, None)
        if not extra:
            with contextlib.suppress(FileNotFoundError):
                os.rename(queued.path, target)
            return target
        body = _read_json(queued.path) or {}
        body.update(extra)
        with contextlib.suppress(FileExistsError):
            write_new(target, json.dumps(body).encode())
        queued.path.unlink(missing_ok=True)
        return target

    def retry_later(self, queued: Queued, error: str, delay: float) -> None:
        """Count a failed attempt and wait ``delay`` seconds before the next."""
        body = _read_json(queued.path) or {}
        body.update(attempts=queued.attempts + 1, not_before=time.time() + delay, error=error)
        tmp = queued.path.with_name(f".{queued.path.name}.{uuid.uuid4().hex}.tmp")
        tmp.write_bytes(json.dumps(body).encode())
        os.replace(tmp, queued.path)
        self._read.pop(queued.path.name, None)

    def waiting(self) -> list[dict[str, Any]]:
        """Letters not sent yet, with their failed attempts: for the game master to see."""
        return [b for p in sorted(self._dir("outbox").glob("*.json")) if (b := _read_json(p))]

    def failed(self) -> list[dict[str, Any]]:
        """Letters a server refused for good: for the game master to see."""
        return [b for p in sorted(self._dir("failed").glob("*.json")) if (b := _read_json(p))]

    # -- handled mail, limits, threads ---------------------------------------------------------

    def seen(self, message_key: str) -> str | None:
        """What came of a mail already handled, or None."""
        path = self._dir("seen") / _hash(message_key)
        return path.read_text() if path.exists() else None

    def mark_seen(self, message_key: str, outcome: str, durable: bool = True) -> None:
        """Note a mail handled. Not ``durable``: the note may be lost in a crash (for a mail
        whose move is recorded in its game, which is checked as well)."""
        with contextlib.suppress(FileExistsError):
            write_new(self._dir("seen") / _hash(message_key), outcome.encode(), durable=durable)

    def allow_error_reply(self, sender: str, kind: str, day: date) -> bool:
        """True the first time today a sender is owed an error reply of this kind."""
        path = self._dir(f"limits/{day.isoformat()}") / _hash(f"{sender.lower()}\x00{kind}")
        try:
            write_new(path, kind.encode())
        except FileExistsError:
            return False
        return True

    def thread(self, game: str, seat: int) -> list[str]:
        """The Message-IDs of the last letters to one player (newest last, ten at most)."""
        key = f"{game}.{seat}"
        if key not in self._threads:
            path = self._dir("threads") / key
            self._threads[key] = path.read_text().split()[-THREAD_KEPT:] if path.exists() else []
        return list(self._threads[key])

    def extend_thread(self, game: str, seat: int, message_id: str) -> None:
        """Note a letter sent to a player: its Message-ID is added to their thread file (an
        append, no new file; a note lost in a crash costs only the threading of a mail)."""
        self._threads[f"{game}.{seat}"] = [*self.thread(game, seat), message_id][-THREAD_KEPT:]
        with open(self._dir("threads") / f"{game}.{seat}", "a", encoding="ascii") as out:
            out.write(f"\n{message_id}")


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        body = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return body if isinstance(body, dict) else None
