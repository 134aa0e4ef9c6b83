"""Room on the disk, as the intake finds it: what the service does while the games folder
takes no more writes.

A full disk, a quota or a read-only mount (:func:`~referee.store.no_room_on_disk`) is not a
fault of one mail: the intake stops at the first mail that cannot be recorded (it and every
mail after it stay in the inbox, unanswered) and raises :class:`NoRoom`. :class:`Room` then
tells the game master once (a line in the log, ``referee status``, a letter sent straight
through the transport, as the outbox is on that disk too), paces the looks (``retry_every``
seconds apart) until a mail is recorded again, and says so when it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import shutil
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from referee.mail.judging.notices import no_room_for_game_master
from referee.mail.state.status import StatusBoard
from referee.wording.letter import Letter

log = logging.getLogger("referee.service")

#: Seconds between two tries of the inbox while the games folder takes no writes, unless
#: the service says otherwise (its poll_seconds).
RETRY_WHEN_NO_ROOM = 30.0
#: What a game master does about a disk that takes no writes, by its error (else: free some
#: space).
_MENDS = {errno.EROFS: "make it writable again", errno.EDQUOT: "raise its quota or free space"}


class NoRoom(Exception):  # noqa: N818 (not an error of the mail: why it waits)
    """A mail could not be recorded because the games folder takes no writes: it, and every
    mail after it, stay in the inbox for the next look."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass
class NoRoomSince:
    """The games folder has taken no writes since ``since`` (told once, as ``why``): how many
    looks found it so, and when the last was (``time.monotonic()``)."""

    since: datetime
    why: str
    looks: int
    tried: float


class Room:
    """Whether the games folder under ``root`` takes writes, as the intake last found it.

    ``tell`` sends a letter straight to the game master (``game_master``; None: nobody is
    told by mail); ``status`` is the service's ``referee status``; ``retry_every``: seconds
    between two looks while the folder takes no writes."""

    def __init__(
        self,
        root: Path,
        clock: Callable[[], datetime],
        status: StatusBoard,
        game_master: str | None,
        tell: Callable[[Letter], Awaitable[None]],
        retry_every: float = RETRY_WHEN_NO_ROOM,
    ) -> None:
        self.root = root
        self.clock = clock
        self.status = status
        self.game_master = game_master
        self.tell = tell
        self.retry_every = retry_every
        self.no_room: NoRoomSince | None = None  # while the games folder takes no writes

    async def wait(self) -> None:
        """While the games folder takes no writes, the mail that found it so is still in the
        inbox (which a transport may report as new mail at once): wait out ``retry_every``
        since the last try, rather than judge it again and again."""
        if self.no_room is not None:
            wait = self.no_room.tried + self.retry_every - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)

    async def full(self, mail: str, err: OSError) -> None:
        """Mail ``mail`` (its inbox id) could not be recorded: the games folder takes no
        writes. The first time, the game master is told: a line in the log, ``referee
        status``, a letter."""
        if self.no_room is not None:
            self.no_room.looks += 1
            self.no_room.tried = time.monotonic()
            return
        now, folder = self.clock(), self._folder_of(err)
        free = _free_bytes(folder)
        why = f"{type(err).__name__}: {err}"
        self.no_room = NoRoomSince(now, why, 1, time.monotonic())
        log.error(
            "%s %s takes no more writes (%s; %s free there): mail %s and every mail after it "
            "stay in the inbox, unanswered, and are read again every %g s; %s there and the "
            "service carries on by itself",
            "the games folder" if folder == self.root else "the folder",
            folder,
            why,
            _size(free),
            mail,
            self.retry_every,
            _MENDS.get(err.errno or 0, "free some space"),
        )
        self.status.set(
            now, force=True, disk=f"no room since {now.isoformat()}: {why}; mail waits unread"
        )  # (best effort: the status file is on that disk too)
        if self.game_master:
            await self.tell(no_room_for_game_master(self.game_master, str(folder), free, why))

    def recorded(self) -> None:
        """A mail was recorded: if the games folder took no writes until now, say that it
        does again."""
        if self.no_room is None:
            return
        since, self.no_room = self.no_room, None
        log.info(
            "the games folder %s takes writes again: mail is read again (it took none from "
            "%s, %d look(s))",
            self.root,
            since.since.isoformat(timespec="seconds"),
            since.looks,
        )
        self.status.set(self.clock(), force=True, disk=None)

    def _folder_of(self, err: OSError) -> Path:
        """The folder a write failed in: the games folder, or (a mail folder on the same
        full disk) the folder of the file named."""
        named = Path(str(err.filename)) if err.filename else self.root
        return self.root if named.is_relative_to(self.root) else named.parent


def _free_bytes(folder: Path) -> int:
    """The bytes free on the disk of ``folder`` (or of the nearest folder above it that
    exists); 0 when that cannot be told."""
    for place in (folder, *folder.parents):
        with contextlib.suppress(OSError):
            return shutil.disk_usage(place).free
    return 0


def _size(count: int) -> str:
    """A number of bytes for the log: 0 bytes, 12.1 KiB, 3.4 MiB, 1.2 GiB."""
    size, unit = float(count), 0
    while size >= 1024 and unit < 4:
        size, unit = size / 1024, unit + 1
    return f"{count} bytes" if unit == 0 else f"{size:.1f} {' KMGT'[unit]}iB"
