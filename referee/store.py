"""The games folder on disk: one folder per game, written atomically, append-only, locked.

::

    games/<id>/game.toml             the game record (written once)
    games/<id>/turns/0001.toml       one file per accepted move (written once, never changed)
    games/<id>/archive/<stamp>-to-N/ turns undone by a rollback, with rollback.toml (why)
    games/<id>/.lock                 the per-game lock (filelock)

Every file is written to a temporary name, flushed to disk, then linked into place, which
fails rather than overwrite; the folder is flushed after. A writer killed at any instant
leaves either the whole file or none (a stray ``.*.tmp`` that readers skip). Writers of one
game are serialised by a lock; even without it, two writers cannot both write turn N.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tomllib
import uuid
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import tomli_w
from filelock import FileLock, Timeout

from referee.errors import ConflictError, RecordError, StoreError
from referee.record import GAME_ID, GameRecord, Replayed, dump, load_game, replay

LOCK_TIMEOUT = 10.0


class Store:
    """The games under ``root`` (created on first write)."""

    def __init__(self, root: Path, lock_timeout: float = LOCK_TIMEOUT) -> None:
        self.root = root
        self.lock_timeout = lock_timeout

    # -- reading ------------------------------------------------------------------------------

    def game_ids(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(
            p.name for p in self.root.iterdir() if GAME_ID.fullmatch(p.name) and p.is_dir()
        )

    def folder(self, game_id: str) -> Path:
        if not GAME_ID.fullmatch(game_id):
            raise StoreError(
                f"{game_id!r} is not a game id: lower-case letters, digits, '-' and '_'"
            )
        return self.root / game_id

    def read(self, game_id: str) -> tuple[bytes, list[tuple[str, bytes]]]:
        """The bytes of game.toml and of every turn file, in name order."""
        folder = self.folder(game_id)
        game_file = folder / "game.toml"
        if not game_file.is_file():
            if not folder.is_dir():
                known = ", ".join(self.game_ids()[:10]) or "none yet"
                raise StoreError(
                    f"no game {game_id!r} in {self.root} (games: {known}); create it with "
                    "'referee new'"
                )
            raise StoreError(f"{folder} has no game.toml: it is not a game folder")
        turns_dir = folder / "turns"
        names = (
            sorted(p.name for p in turns_dir.iterdir() if not p.name.startswith("."))
            if turns_dir.is_dir()
            else []
        )
        return game_file.read_bytes(), [(n, (turns_dir / n).read_bytes()) for n in names]

    def load(self, game_id: str, strict: bool = True) -> Replayed:
        """The game rebuilt from its record, every turn checked: ReplayError names the first
        bad one, or when not ``strict`` the game is rebuilt up to it (see ``problem``)."""
        game_bytes, turns = self.read(game_id)
        record = load_game(game_bytes)
        if record.id != game_id:
            raise RecordError(f"{game_id}/game.toml is the record of game {record.id!r}")
        return replay(record, game_bytes, turns, strict)

    # -- writing ------------------------------------------------------------------------------

    def create(self, record: GameRecord) -> Path:
        """Write a new game folder, whole or not at all; ConflictError if the id is taken."""
        folder = self.folder(record.id)
        self.root.mkdir(parents=True, exist_ok=True)
        if folder.exists():
            raise ConflictError(f"game {record.id!r} exists already in {self.root}")
        staging = self.root / f".{record.id}.{uuid.uuid4().hex}.tmp"
        (staging / "turns").mkdir(parents=True)
        try:
            write_new(staging / "game.toml", dump(record))
            fsync_dir(staging / "turns")
            try:
                os.rename(staging, folder)
            except OSError:
                raise ConflictError(f"game {record.id!r} exists already in {self.root}") from None
            fsync_dir(self.root)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return folder

    @contextlib.contextmanager
    def locked(self, game_id: str) -> Iterator[None]:
        """Hold the game's lock (waiting up to ``lock_timeout`` seconds for another writer)."""
        folder = self.folder(game_id)
        if not folder.is_dir():
            self.read(game_id)  # raises the helpful "no game" error
        lock = FileLock(folder / ".lock")
        try:
            lock.acquire(timeout=self.lock_timeout)
        except Timeout:
            raise ConflictError(
                f"game {game_id!r} is busy: another referee process has held its lock for "
                f"{self.lock_timeout:g} s; try again"
            ) from None
        try:
            yield
        finally:
            lock.release()

    def write_turn(self, game_id: str, turn: int, data: bytes) -> Path:
        """Write ``turns/NNNN.toml``; ConflictError if that turn is written already."""
        path = self.folder(game_id) / "turns" / f"{turn:04d}.toml"
        try:
            write_new(path, data)
        except FileExistsError:
            raise ConflictError(
                f"turn {turn} of game {game_id!r} is written already: another move got there "
                "first; look at the board again"
            ) from None
        return path

    def archive_turns(
        self, game_id: str, after: int, reason: str, at: datetime, undone: int
    ) -> Path:
        """Move turns after ``after`` into a new archive folder with a rollback.toml saying
        why. The last turn moves first, so an interruption leaves turns 1..k whole."""
        folder = self.folder(game_id)
        stamp = at.strftime("%Y%m%dT%H%M%SZ")
        archive = folder / "archive" / f"{stamp}-to-{after:04d}-{uuid.uuid4().hex[:6]}"
        archive.mkdir(parents=True)
        note = {"rollback": {"at": at, "to": after, "undone": undone, "reason": reason}}
        write_new(archive / "rollback.toml", tomli_w.dumps(note).encode())
        turns_dir = folder / "turns"
        for turn in range(after + undone, after, -1):
            name = f"{turn:04d}.toml"
            os.rename(turns_dir / name, archive / name)
            fsync_dir(turns_dir)
        fsync_dir(archive)
        return archive

    def rollbacks(self, game_id: str) -> list[dict[str, object]]:
        """The rollbacks of a game, oldest first: when, to which turn, how many undone, why,
        and where the undone turns are kept."""
        archive = self.folder(game_id) / "archive"
        found = []
        if archive.is_dir():
            for entry in sorted(archive.iterdir()):
                note = entry / "rollback.toml"
                if note.is_file():
                    body = tomllib.loads(note.read_text())["rollback"]
                    found.append(body | {"folder": str(entry.relative_to(self.root))})
        return sorted(found, key=lambda r: str(r["at"]))


def write_new(path: Path, data: bytes, *, durable: bool = True, sync_dir: bool = True) -> None:
    """Write ``path`` atomically; FileExistsError if it exists (never overwrite).

    ``durable``: on disk before returning (the file, then its folder's entry). Writers of many
    files may pass ``sync_dir=False`` and call :func:`fsync_dir` once after the last. Only
    records whose loss costs nothing but a repeat (a note that a letter went out) are written
    with ``durable=False``."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.link(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    if durable and sync_dir:
        fsync_dir(path.parent)


def fsync_dir(path: Path) -> None:
    """Make the entries of folder ``path`` durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
