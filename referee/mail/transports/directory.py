"""The dir transport: mail as files in a directory, both sides; no server. The embedded
default: tests and offline play use it, and the lmtp transport keeps the mail handed over
to it so (:mod:`referee.mail.transports.lmtp`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
import uuid
from datetime import datetime
from pathlib import Path

from filelock import FileLock, Timeout

from referee.errors import ConfigurationError
from referee.mail.transports.base import (
    FOLDERS,
    MAILDIR,
    Finding,
    Incoming,
    MessageGoneError,
    Trial,
)
from referee.store import write_new


class DirTransport:
    """Mail as files: ``MAILDIR/inbox/*.eml`` in; handled mail moves to ``done/``,
    ``refused/`` or ``quarantine/``; every outgoing message is written to ``outbox/``.

    A writer puts a message into the inbox whole: it writes a file whose name starts with
    ``.`` (or does not end in ``.eml``) and renames it to ``NAME.eml`` when done, so a
    half-written file is never read. The inbox may also be a Maildir, as an MTA or Dovecot
    delivers into it (written in ``inbox/tmp/``, then moved to ``inbox/new/``): every file in
    ``inbox/new/`` and ``inbox/cur/`` is read too."""

    def __init__(self, mail_dir: Path, poll_interval: float = 0.25, lock: bool = True) -> None:
        """``lock``: from :meth:`check` on, hold ``MAIL/.service.lock``, so that a second
        service (on another games folder) does not read the same mail."""
        self.mail_dir = mail_dir
        self.poll_interval = poll_interval
        self._lock = FileLock(mail_dir / ".service.lock") if lock else None
        for name in ("inbox", "outbox", *FOLDERS):
            (mail_dir / name).mkdir(parents=True, exist_ok=True)

    @property
    def inbox(self) -> Path:
        return self.mail_dir / "inbox"

    @property
    def server_names(self) -> dict[str, str]:
        return {}

    async def incoming(self) -> list[Incoming]:
        found = []
        for folder, prefix in ((self.inbox, ""), *((self.inbox / m, m + "/") for m in MAILDIR)):
            try:
                entries = list(os.scandir(folder))
            except (FileNotFoundError, NotADirectoryError):
                continue
            for entry in entries:
                name = entry.name
                if name.startswith(".") or (not prefix and not name.endswith(".eml")):
                    continue
                try:
                    if not entry.is_file():
                        continue
                    stat = entry.stat()
                except FileNotFoundError:
                    continue
                found.append((stat.st_mtime_ns, prefix + name, stat.st_size))
        return [Incoming(name, size) for _, name, size in sorted(found)]

    async def headers(self, item: Incoming) -> bytes:
        try:
            return _head(self.inbox / item.id)
        except FileNotFoundError:
            raise MessageGoneError(f"{item.id} is no longer in {self.inbox}") from None

    async def fetch(self, item: Incoming) -> bytes:
        try:
            return (self.inbox / item.id).read_bytes()
        except FileNotFoundError:
            raise MessageGoneError(f"{item.id} is no longer in {self.inbox}") from None

    async def file(self, item: Incoming, folder: str, at: datetime) -> None:
        """Move the message into ``folder``, its time set to ``at`` (when it was filed, by
        the service's clock: what :meth:`clear_filed` goes by)."""
        if folder not in FOLDERS:
            raise ValueError(f"no folder {folder!r}: the folders are {', '.join(FOLDERS)}")
        target = _free(self.mail_dir / folder / _filed_name(item.id))
        try:
            os.rename(self.inbox / item.id, target)
        except FileNotFoundError:
            raise MessageGoneError(f"{item.id} is no longer in {self.inbox}") from None
        with contextlib.suppress(OSError):  # (a file not ours to stamp keeps its own time)
            os.utime(target, (at.timestamp(), at.timestamp()))

    async def clear_filed(self, before: datetime, keep: frozenset[str]) -> int:
        """Remove the mail filed before ``before`` from done/, refused/ and quarantine/,
        but the files named in ``keep`` (handles, as :meth:`file` was given them); how many.
        Done on a thread of its own: a month of mail is many files."""
        kept = {_filed_name(handle) for handle in keep}
        return await asyncio.to_thread(self._clear_filed, before.timestamp(), kept)

    def _clear_filed(self, before: float, kept: set[str]) -> int:
        removed = 0
        for folder in FOLDERS:
            try:
                entries = list(os.scandir(self.mail_dir / folder))
            except FileNotFoundError:
                continue
            for entry in entries:
                if _filed_as(entry.name) in kept:
                    continue
                try:
                    if entry.stat().st_mtime < before:
                        os.unlink(entry.path)
                        removed += 1
                except FileNotFoundError:
                    continue  # (handed back meanwhile)
        return removed

    async def check(self) -> list[str]:
        if self._lock is not None and not self._lock.is_locked:
            try:
                self._lock.acquire(timeout=0)
            except Timeout:
                raise ConfigurationError(
                    f"another referee service reads the mail folder {self.mail_dir}: one "
                    "service per mail folder; stop that one first, or give this one its own "
                    "--mail-dir"
                ) from None
        waiting = len(await self.incoming())
        return [
            f"mail folder {self.mail_dir} (the dir transport): {waiting} mail(s) waiting in "
            "inbox/, letters written to outbox/"
        ]

    async def restore(self, folder: str, message_id: str, handle: str) -> bool:
        if folder not in FOLDERS:
            return False
        filed = self.mail_dir / folder
        name = _filed_name(handle)
        # where file() put it first (a name taken then got a suffix), then anywhere
        likely = sorted(
            filed.glob(f"{name.removesuffix('.eml')}*.eml"), key=lambda p: p.name != name
        )
        rest = sorted(set(filed.glob("*.eml")) - set(likely))
        for path in [*likely, *rest]:
            try:
                head = _head(path)
            except FileNotFoundError:
                continue
            found = re.search(rb"^message-id:\s*(\S+)", head, re.IGNORECASE | re.MULTILINE)
            if found and found.group(1).decode(errors="replace") == message_id:
                os.rename(path, _free(self.inbox / path.name))
                return True
        return False

    async def examine(self, trial: Trial | None) -> list[Finding]:
        """What it reaches; no test mail is tried (no mail server is between the referee
        and its folder)."""
        return [Finding("ok", line) for line in await self.check()]

    async def check_receiving(self) -> None:
        return None

    async def check_sending(self) -> str:
        return f"letters written to {self.mail_dir / 'outbox'}"

    async def send(self, sender: str, recipient: str, message: bytes) -> None:
        safe = re.sub(r"[^A-Za-z0-9@._+-]", "_", recipient)
        name = f"{time.time_ns():020d}-{safe}.eml"
        write_new(self.mail_dir / "outbox" / name, message)

    async def wait_for_mail(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if await self.incoming():
                return
            await asyncio.sleep(min(self.poll_interval, max(deadline - time.monotonic(), 0)))

    async def flush(self) -> None:
        return None

    async def close(self) -> None:
        if self._lock is not None and self._lock.is_locked:
            self._lock.release()


def _head(path: Path) -> bytes:
    """A message file's header block (up to the first blank line, within 64 KiB)."""
    with open(path, "rb") as source:
        head = source.read(65536)
    end = re.search(rb"\r?\n\r?\n", head)
    return head[: end.end()] if end else head


def _filed_name(item_id: str) -> str:
    """The name a message of the inbox is filed under: its own, without a Maildir folder or
    flags, ending in .eml."""
    name = item_id.rpartition("/")[2].replace(":", "_")
    return name if name.endswith(".eml") else name + ".eml"


def _filed_as(name: str) -> str:
    """The name a filed message was meant to have: without the suffix :func:`_free` added
    when that name was taken."""
    found = re.fullmatch(r"(.*)\.[0-9a-f]{8}\.eml", name)
    return f"{found.group(1)}.eml" if found else name


def _free(target: Path) -> Path:
    """``target``, or beside it a name not taken yet."""
    if not target.exists():
        return target
    return target.with_name(f"{target.stem}.{uuid.uuid4().hex[:8]}{target.suffix}")
