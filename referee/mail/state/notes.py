"""What the service notes about the mails it handles, in ``<games>/.mail/``:

::

    .mail/seen/<hash>         mails already handled, and what came of them (JSON)
    .mail/limits/<day>/<hash> error replies already sent that day, per sender and kind, and
                              the mail that was owed each
    .mail/aside/<hash>        mails refused, ignored or set aside, and why (`referee inbox`)
    .mail/retry/<id>          a game master's request to read a mail set aside again

Kept (:meth:`Notes.expire`): daily limits for two days; notes of handled mail while their
game runs and for EXPIRE_AFTER after it ends (notes of mail that named no game, EXPIRE_AFTER
after they were written), unless letters still wait for them; a mail set aside until the
game master hands it back.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from referee.errors import RequestError
from referee.mail.state.mailfiles import (
    Ages,
    Folders,
    files,
    hash_of,
    listdir,
    mtime,
    note_of,
    read_json,
    read_text,
    remove,
)
from referee.store import write_new, write_over

#: How long a day's limits on error replies are kept.
LIMITS_KEPT = timedelta(days=2)


class Notes:
    """The notes about mails of the games in ``games_dir``."""

    def __init__(self, games_dir: Path, create: bool = True) -> None:
        self._dir = Folders(games_dir / ".mail", create)

    def seen(self, message_key: str) -> str | None:
        """What came of a mail already handled, or None."""
        path = self._dir("seen") / hash_of(message_key)
        try:
            return path.read_text()
        except FileNotFoundError:
            return None

    def mark_seen(
        self,
        message_key: str,
        outcome: str,
        *,
        game: str | None = None,
        batch: str | None = None,
        at: datetime | None = None,
        durable: bool = True,
    ) -> None:
        """Note a mail handled: what came of it, its game, and the batch of letters that
        answer it. Not ``durable``: the note may be lost in a crash (for a mail whose move
        is recorded in its game, which is checked as well)."""
        note = {"outcome": outcome, "game": game, "batch": batch}
        if at is not None:
            note["at"] = at.isoformat()
        with contextlib.suppress(FileExistsError):
            write_new(
                self._dir("seen") / hash_of(message_key), json.dumps(note).encode(), durable=durable
            )

    def allow_error_reply(self, sender: str, kind: str, day: date, mail: str) -> bool:
        """True the first time on ``day`` a sender is owed an error reply of this kind, and
        for the same ``mail`` again (its answer was cut short by a crash): the note names the
        mail that was owed the reply."""
        path = self._dir(f"limits/{day.isoformat()}") / hash_of(f"{sender.lower()}\x00{kind}")
        try:
            write_new(path, json.dumps({"kind": kind, "mail": mail}).encode())
        except FileExistsError:
            return note_of(path.read_text()).get("mail") == mail
        return True

    # -- mail set aside, refused or ignored, for the game master --------------------------------

    def note_aside(self, mail: str, record: dict[str, Any]) -> str:
        """Keep what a game master needs to know of a mail not played (``record``: kind,
        sender, subject, reason, the transport's folder and handle…); its short id."""
        short = hash_of(mail)[:8]
        body = {"id": short, "mail": mail, **record}
        write_over(self._dir("aside") / hash_of(mail), json.dumps(body).encode())
        return short

    def aside(self) -> list[dict[str, Any]]:
        """Every mail noted as refused, ignored or set aside, newest first."""
        found = [b for p in self._dir("aside").glob("*") if (b := read_json(p)) is not None]
        return sorted(found, key=lambda b: str(b.get("at", "")), reverse=True)

    def set_aside_before(self, before: datetime) -> frozenset[str]:
        """The transport's handles of the mails set aside for the game master (kept until
        handed back) whose notes were written before ``before``: the younger notes are not
        read (their mails were filed after them, and are younger too)."""
        handles = set()
        for path in files(self._dir("aside")):
            if mtime(path) < before.timestamp():
                note = note_of(read_text(path))
                if note.get("kind") == "set aside" and isinstance(note.get("item"), str):
                    handles.add(note["item"])
        return frozenset(handles)

    def ask_retry(self, short: str, by: str) -> dict[str, Any]:
        """A game master's request that the service read mail ``short`` again; the mail's
        note. RequestError when no mail has that id."""
        found = [b for b in self.aside() if b.get("id") == short]
        if not found:
            known = ", ".join(str(b.get("id")) for b in self.aside()[:10])
            raise RequestError(
                f"no mail {short!r} was set aside or refused (the latest: {known or 'none'}); "
                "'referee inbox' lists them"
            )
        write_new(self._dir("retry") / short, json.dumps({"by": by}).encode())
        return found[0]

    def retries(self) -> list[dict[str, Any]]:
        """The mails a game master asked to have read again, as noted when set aside."""
        asked = set(listdir(self._dir("retry")))
        return [b for b in self.aside() if b.get("id") in asked] if asked else []

    def forget_seen(self, mail: str) -> None:
        """Forget that a mail was handled, so that it is judged again when it comes back."""
        (self._dir("seen") / hash_of(mail)).unlink(missing_ok=True)

    def forget(self, mail: str) -> None:
        """Forget a mail handed back to be read again: its notes and the request go."""
        self.forget_seen(mail)
        (self._dir("aside") / hash_of(mail)).unlink(missing_ok=True)
        (self._dir("retry") / hash_of(mail)[:8]).unlink(missing_ok=True)

    def expire(self, now: datetime, ages: Ages, awaited: set[str]) -> int:
        """Remove what can no longer matter; how many. ``awaited``: mails whose notes letters
        still wait for (kept)."""
        removed = 0
        for day in listdir(self._dir("limits")):
            with contextlib.suppress(ValueError):
                if date.fromisoformat(day) < (now - LIMITS_KEPT).date():
                    shutil.rmtree(self._dir("limits") / day, ignore_errors=True)
                    removed += 1
        kept = {hash_of(mail) for mail in awaited}
        for path in files(self._dir("seen")):
            written = mtime(path)
            if path.name in kept or ages.young(written):
                continue  # letters still wait for this note, or it is too young to go
            if ages.over(note_of(read_text(path)).get("game"), written):
                removed += remove(path)
        for path in files(self._dir("aside")):
            written = mtime(path)
            if ages.young(written):
                continue  # (not read: a note this young is kept whatever its game)
            note = note_of(read_text(path))
            if note.get("kind") != "set aside" and ages.over(note.get("game"), written):
                removed += remove(path)  # a mail set aside waits for the game master
        return removed
