"""A game's mail trail: every mail about a game that arrived and every letter that left, kept
in the game's own folder as long as its records, for a game master settling a dispute.

::

    games/<id>/trail/in/<stamp>-<sender>-<mail>.json  a mail read: when, from whom, the
                                                      lines read, the ruling, and the mail
                                                      as it arrived (gzip, base64)
    games/<id>/trail/out/<stamp>-<batch>.json         letters sent (or refused for good) at
                                                      one look of the postman
    games/<id>/trail/over-cap.json                    mails beyond the cap, counted

Each entry is a file of its own, written once (append-only); an entry of a mail not played is
flushed to disk before the mail is noted as handled, the others (a played move's, whose turn
file names its mail; letters', kept in ``.mail/sent/`` too) are not. A file costs more to
make than to fill, so a mail and its raw text are one file, and a look's letters another. A
game
that is spammed keeps its trail bounded: at most :data:`KEPT_PER_PLAYER` mails from each of
its players' addresses and :data:`KEPT_FROM_OTHERS` from every other address together; mails
that played a turn are always kept (there are no more of them than turns). A mail beyond the
cap is judged as ever, and only counted here. Letters waiting in the outbox are read from
there.

A mail judged again after a crash is noted once (its Message-ID and ruling name its entry).
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from referee.mail.state.mailfiles import hash_of, listdir, read_json
from referee.store import write_new, write_over

#: Mails kept in a game's trail from each address that plays in it.
KEPT_PER_PLAYER = 500
#: Mails kept in a game's trail from all other addresses together.
KEPT_FROM_OTHERS = 200
#: Lines of what a mail said that its trail entry keeps, and characters of each.
LINES_KEPT, LINE_LENGTH = 20, 200


@dataclass(frozen=True)
class MailRead:
    """A mail about a game, read and ruled on: what its trail entry says."""

    at: datetime
    sender: str
    message_id: str
    subject: str
    lines: tuple[str, ...]
    ruling: str  # played, answered, refused, stale, ignored, set aside
    why: str
    turn: int | None  # the turn it played, else the turn the game was at
    answers_turn: int | None  # the turn of the board it answered, when its route says
    handled_as: str  # the transport's name of it
    dated: str | None = None  # when it says it was written (Date)
    received: str | None = None  # when the receiving server stamped it (Received)


@dataclass(frozen=True)
class LetterLeft:
    """A letter about a game that left (or was refused for good)."""

    at: datetime
    queued_at: datetime | None
    to: str
    message_id: str
    subject: str
    kind: str
    turn: int
    tries: int
    ruling: str  # sent, failed
    error: str | None = None


class Trail:
    """The mail trails of the games in ``games_dir``."""

    def __init__(self, games_dir: Path) -> None:
        self.games_dir = games_dir

    def _folder(self, game: str, part: str, create: bool = False) -> Path:
        path = self.games_dir / game / "trail" / part
        if create:
            path.mkdir(parents=True, exist_ok=True)
        return path

    def note_mail(
        self, game: str, mail: MailRead, players: Iterable[str], raw: bytes | None
    ) -> bool:
        """Keep a mail about ``game`` and its ruling (``players``: the game's addresses, for
        the cap); False when it was beyond the cap, or noted before (judged again)."""
        if not (self.games_dir / game).is_dir():
            return False
        folder = self._folder(game, "in", create=True)
        sender = hash_of(mail.sender.lower())[:8]
        key = hash_of(mail.message_id)[:12]
        names = [n for n in listdir(folder) if n.endswith(".json")]
        for name in names:
            if name.endswith(f"-{key}.json"):
                before = read_json(folder / name) or {}
                if before.get("ruling") == mail.ruling and (
                    mail.ruling == "played" or before.get("why") == mail.why
                ):  # the same mail judged again after a crash (or a full disk), which
                    return False  # finds its move played before: a move is played once
        if mail.ruling != "played":
            cap, count = self._cap(mail.sender, players, names, sender)
            if count >= cap:
                self._over_cap(game, mail)
                return False
        stem = f"{_stamp(mail.at)}-{sender}-{key}"
        entry = {
            "at": mail.at.isoformat(),
            "direction": "in",
            "address": mail.sender,
            "message_id": mail.message_id,
            "subject": mail.subject[:LINE_LENGTH],
            "lines": [line[:LINE_LENGTH] for line in mail.lines[:LINES_KEPT]],
            "ruling": mail.ruling,
            "why": mail.why,
            "turn": mail.turn,
            "answers_turn": mail.answers_turn,
            "handled_as": mail.handled_as,
            "dated": mail.dated,
            "received": mail.received,
            "raw": base64.b64encode(gzip.compress(raw, 6)).decode() if raw is not None else None,
        }
        # a move's entry need not be flushed: its turn file names its mail and time
        with contextlib.suppress(FileExistsError):
            write_new(
                folder / f"{stem}.json", json.dumps(entry).encode(), durable=mail.ruling != "played"
            )
        return True

    @staticmethod
    def _cap(
        address: str, players: Iterable[str], names: list[str], sender: str
    ) -> tuple[int, int]:
        """The cap that applies to ``address`` and how many of its mails are kept."""
        own = {p.lower() for p in players}
        if address.lower() in own:
            return KEPT_PER_PLAYER, sum(1 for n in names if n.split("-")[1] == sender)
        theirs = {hash_of(p)[:8] for p in own}
        return KEPT_FROM_OTHERS, sum(1 for n in names if n.split("-")[1] not in theirs)

    def _over_cap(self, game: str, mail: MailRead) -> None:
        """Count a mail not kept (the count is rewritten: it is a tally, not a record)."""
        path = self.games_dir / game / "trail" / "over-cap.json"
        count = read_json(path) or {}
        first = count.get("first", mail.at.isoformat())
        last = mail.at.isoformat()
        body = {"count": int(count.get("count", 0)) + 1, "first": first, "last": last}
        write_over(path, json.dumps(body).encode())

    def note_letters(self, game: str, letters: Sequence[LetterLeft]) -> None:
        """Keep letters about ``game`` that left or were refused for good, in one file."""
        if not game or not letters or not (self.games_dir / game).is_dir():
            return
        folder = self._folder(game, "out", create=True)
        keys = "\x00".join(f"{x.message_id}\x00{x.turn}\x00{x.ruling}" for x in letters)
        name = f"{_stamp(letters[0].at)}-{hash_of(keys)[:12]}.json"
        body = {"letters": [_letter_entry(letter) for letter in letters]}
        with contextlib.suppress(FileExistsError):  # not flushed: sent/ keeps them for weeks
            write_new(folder / name, json.dumps(body).encode(), durable=False)

    def entries(self, game: str) -> list[dict[str, Any]]:
        """Every mail and letter of ``game`` kept, oldest first; each mail with ``id``, the
        short name `referee trail --mail` takes."""
        found: list[dict[str, Any]] = []
        for name, body in self._read(game, "in"):
            body.pop("raw", None)
            found.append({**body, "id": _short(name)})
        for _, body in self._read(game, "out"):
            for letter in body.get("letters", []):
                if isinstance(letter, dict):
                    found.append({**letter, "id": hash_of(str(letter.get("message_id")))[:8]})
        return sorted(found, key=in_time_order)

    def _read(self, game: str, part: str) -> list[tuple[str, dict[str, Any]]]:
        folder = self._folder(game, part)
        found = []
        for name in sorted(listdir(folder)):
            if name.endswith(".json") and not name.startswith("."):
                body = read_json(folder / name)
                if body is not None:
                    found.append((name, body))
        return found

    def over_cap(self, game: str) -> dict[str, Any] | None:
        """How many mails of ``game`` were beyond the cap and not kept, or None."""
        return read_json(self.games_dir / game / "trail" / "over-cap.json")

    def raw(self, game: str, short: str) -> bytes | None:
        """Mail ``short`` (its id in the trail) as it arrived, or None when not kept."""
        for name, body in self._read(game, "in"):
            if _short(name) == short and isinstance(body.get("raw"), str):
                try:
                    return gzip.decompress(base64.b64decode(body["raw"]))
                except (ValueError, OSError, EOFError):
                    return None
        return None

    def size(self, game: str) -> int:
        """The bytes a game's trail takes on disk."""
        total = 0
        for root, _dirs, names in os.walk(self.games_dir / game / "trail"):
            total += sum(os.path.getsize(os.path.join(root, n)) for n in names)
        return total


def in_time_order(entry: Mapping[str, Any]) -> tuple[str, bool]:
    """How a trail is ordered: by time, a mail before the letters that answer it."""
    return str(entry.get("at", "")), entry.get("direction") == "out"


def _letter_entry(letter: LetterLeft) -> dict[str, Any]:
    return {
        "at": letter.at.isoformat(),
        "direction": "out",
        "address": letter.to,
        "message_id": letter.message_id,
        "subject": letter.subject,
        "kind": letter.kind,
        "ruling": letter.ruling,
        "turn": letter.turn,
        "queued_at": letter.queued_at.isoformat() if letter.queued_at else None,
        "tries": letter.tries,
        "error": letter.error,
    }


def _stamp(at: datetime) -> str:
    """A file name's time part: sorts as the times do."""
    return at.strftime("%Y%m%dT%H%M%S%f")


def _short(name: str) -> str:
    """An entry's id: the short hash of its mail (or letter), the last part of its name."""
    return name.split(".", 1)[0].rsplit("-", 1)[-1][:8]
