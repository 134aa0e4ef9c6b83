"""One service per games folder: ``<games>/.mail/service.lock``, held while a service runs,
and ``service.json``, which names it (its pid and start time) to a second one that would
start. And the service's two keys, kept beside it: the routing secret (``secret``, made on
first use, readable by its owner only) and the loop id (what our own mail carries)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
from datetime import datetime
from pathlib import Path

from filelock import FileLock, Timeout

from referee.errors import ConfigurationError
from referee.mail.state.mailfiles import note_of, read_text
from referee.store import no_room_on_disk, write_over

#: How long a starting service waits for the lock before it refuses: long enough for a look
#: by `referee status` (ServiceLock.held) to end, far too short to wait out a service.
PROBE_GRACE = 0.5


class ServiceLock:
    """The lock of the games folder ``games_dir``, and the keys kept beside it."""

    def __init__(self, games_dir: Path) -> None:
        self.games_dir = games_dir
        self.root = games_dir / ".mail"
        self._service_lock: FileLock | None = None

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
        return _loop_id(self.secret())

    def known_loop_id(self) -> str | None:
        """The loop id, if the secret is there and this user may read it; None otherwise
        (nothing is made: `referee doctor`, run as another user, must leave no file)."""
        try:
            return _loop_id(bytes.fromhex((self.root / "secret").read_text().strip()))
        except (OSError, ValueError):
            return None

    def hold(self, started: datetime) -> None:
        """Become the one service of this games folder; ConfigurationError naming the other
        one when it is already served (starting again will not help while it runs, so the
        unit does not restart on it: exit 78)."""
        self.root.mkdir(parents=True, exist_ok=True)
        lock = FileLock(self.root / "service.lock")
        try:  # (a moment's wait: `referee status` may be looking at it, see held())
            lock.acquire(timeout=PROBE_GRACE, poll_interval=0.05)
        except Timeout:
            holder = note_of(read_text(self.root / "service.json"))
            who = f" (pid {holder.get('pid')}, since {holder.get('since')})" if holder else ""
            raise ConfigurationError(
                f"another referee service{who} is serving the games folder {self.games_dir}: "
                "one service per games folder; stop it first, or give this one another "
                "--games-dir"
            ) from None
        self._service_lock = lock
        try:  # who holds it, for the next one's refusal: worth a note, not a stop
            note = {"pid": os.getpid(), "since": started.isoformat()}
            write_over(self.root / "service.json", json.dumps(note).encode())
        except OSError as err:
            if not no_room_on_disk(err):
                raise

    def held(self) -> bool | None:
        """Whether a process holds this games folder's lock now (a service, or a relocation):
        None when that cannot be told here (the lock file cannot be opened, or its file
        system has no flock). Looks without taking it for longer than an instant: a shared
        lock, let go at once, which a starting service waits out (PROBE_GRACE). A process
        killed lets go of its lock at once, so a service killed with kill -9 is seen gone."""
        try:
            fd = os.open(self.root / "service.lock", os.O_RDONLY | os.O_NONBLOCK)
        except FileNotFoundError:
            return False
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return None
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return False
        finally:
            os.close(fd)

    def release(self) -> None:
        if self._service_lock is not None:
            self._service_lock.release()
            self._service_lock = None


def _loop_id(secret: bytes) -> str:
    return hashlib.sha256(b"loop" + secret).hexdigest()[:16]
