"""Each player's thread: the Message-IDs of the last letters to them, in
``<games>/.mail/threads/<game>.<seat>``, so that the next letter names them in its
References and a reply to any of them is understood. A letter's Message-ID is noted here
before it is sent: sent again after a crash, it is the same message."""

from __future__ import annotations

import threading
from pathlib import Path

from referee.mail.state.mailfiles import Ages, Folders, files, mtime, remove
from referee.store import write_over

#: How many of the Message-IDs sent to a player a letter's References name.
THREAD_KEPT = 10
#: A thread file longer than this is cut back to its last THREAD_KEPT ids.
THREAD_TRIM_AT = 100


class Threads:
    """The threads of the players of the games in ``games_dir``."""

    def __init__(self, games_dir: Path, create: bool = True) -> None:
        self._dir = Folders(games_dir / ".mail", create)
        self._threads: dict[str, list[str]] = {}  # read once, then kept (one writer)
        self._lock = threading.RLock()  # shared by the judging and sending threads

    def thread(self, game: str, seat: int) -> list[str]:
        """The Message-IDs of the last letters to one player (newest last, ten at most)."""
        key = f"{game}.{seat}"
        with self._lock:
            if key not in self._threads:
                path = self._dir("threads") / key
                ids = path.read_text().split() if path.exists() else []
                self._threads[key] = list(dict.fromkeys(ids))[-THREAD_KEPT:]
            return list(self._threads[key])

    def extend_thread(self, game: str, seat: int, message_id: str) -> None:
        """Note a letter to a player, before it is sent: its Message-ID is added to their
        thread file (an append; the file is cut back now and then)."""
        with self._lock:
            thread = self.thread(game, seat)
            if message_id in thread:
                return  # noted before a crash, and being sent again
            key = f"{game}.{seat}"
            self._threads[key] = [*thread, message_id][-THREAD_KEPT:]
            path = self._dir("threads") / key
            with open(path, "a", encoding="ascii") as out:
                out.write(f"\n{message_id}")
                grown = out.tell() > THREAD_TRIM_AT * 60
            if grown:
                write_over(path, "\n".join(self._threads[key]).encode())

    def expire(self, ages: Ages) -> int:
        """Remove the threads of games ended long enough ago; how many."""
        removed = 0
        for path in files(self._dir("threads")):
            game = path.name.rsplit(".", 1)[0]
            if ages.over(game, mtime(path)):
                with self._lock:
                    self._threads.pop(path.name, None)
                    removed += remove(path)
        return removed
