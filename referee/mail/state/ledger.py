"""What players ask of the service beside their moves, kept in ``<games>/.mail/``:

::

    .mail/away/<hash>            one address's times away (``away``/``back``), JSON
    .mail/watchers/<game>.json   the addresses watching a game (``watch``/``unwatch``)
    .mail/undo/<game>.json       the undo asked for in a game, and who has agreed
    .mail/reminded/<hash>        when an address was last sent a reminder, and for what
    .mail/overdue/<game>.<turn>  that the game master was told of a stuck game (once)
    .mail/restarted/<game>       when the game was last rolled back: the move awaited
                                 since then is due counting from then
    .mail/people/<hash>          one address's language, time zone and how much mail they
                                 get (``language``, ``timezone``, ``mail``)
    .mail/digest/<hash>          when an address was last sent a daily digest
    .mail/confirm/<token>        a command written to the referee's own address, waiting
                                 for its address to confirm it (lapses after a week)
    .mail/readings/<game>.json   the move the referee read in a player's reply and asked
                                 them about ("reply yes to play it"), by seat

Each file is small and rewritten whole, atomically (write to a new file, rename over). The
commands that change them are idempotent (watching twice is watching), so a mail judged again
after a crash changes nothing more. Reading is free of side effects: the judge reads a
:class:`Ledger`; the service writes it.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from referee.store import write_over

#: How much mail a player may choose to get (``mail``): a board after every turn; only when
#: it is their move (with what happened since); or that, and a digest once a day.
MAIL_CHOICES = ("every-turn", "my-turn", "digest")

#: The longest a player may be away at once.
LONGEST_AWAY = timedelta(days=60)

#: How long a command written to the referee's own address waits for its confirmation.
CONFIRM_WITHIN = timedelta(days=7)

_TOKEN = re.compile(r"[a-z2-7]{16}")


@dataclass(frozen=True)
class Away:
    """A time away: from ``since`` until ``until`` (cut short when they wrote ``back``)."""

    since: datetime
    until: datetime


@dataclass(frozen=True)
class AskedReading:
    """The move the referee read in a reply of the player in ``seat`` at turn ``turn``, not
    sure of its reading, and asked them about: ``move`` is its canonical text, ``mail`` the
    reply's Message-ID. A ``yes`` at the same turn plays it (docs/mail.md)."""

    seat: int
    turn: int
    move: str
    at: datetime
    mail: str = ""


@dataclass(frozen=True)
class UndoRequest:
    """``by`` asked to take back turn ``turn``; ``agreed`` lists who has accepted."""

    game: str
    by: str
    turn: int
    at: datetime
    mail: str
    agreed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pending:
    """A command written to the referee's own address that waits for its address to confirm
    it: the ``token`` its confirmation carries, who wrote it (``address``, and the ``name``
    their mail gave), the ``line`` as written, and when it was asked (``at``)."""

    token: str
    address: str
    line: str
    at: datetime
    name: str = ""

    def lapsed(self, now: datetime) -> bool:
        return now - self.at > CONFIRM_WITHIN


@dataclass
class Ledger:
    """The service's notes about people, beside the games themselves."""

    root: Path  # <games>/.mail
    _cache: dict[str, Any] = field(default_factory=dict)

    # -- away ----------------------------------------------------------------------------------

    def aways(self, address: str) -> list[Away]:
        """Every time away of ``address``, oldest first."""
        body = _read(self._path("away", _key(address)))
        return [
            Away(datetime.fromisoformat(a["since"]), datetime.fromisoformat(a["until"]))
            for a in (body or {}).get("away", [])
        ]

    def away_until(self, address: str, now: datetime) -> datetime | None:
        """When ``address`` comes back, if they are away at ``now``."""
        for a in self.aways(address):
            if a.since <= now < a.until:
                return a.until
        return None

    def set_away(self, address: str, since: datetime, until: datetime) -> None:
        """``address`` is away from ``since`` until ``until`` (replacing a time away that is
        still running, so that ``away`` twice moves the date)."""
        kept = [a for a in self.aways(address) if a.until <= since]
        kept.append(Away(since, until))
        self._write_aways(address, kept[-50:])

    def end_away(self, address: str, at: datetime) -> bool:
        """``address`` is back at ``at``: a running time away ends there. Whether one ran."""
        aways = self.aways(address)
        running = [a for a in aways if a.since <= at < a.until]
        if not running:
            return False
        self._write_aways(
            address, [Away(a.since, at) if a in running else a for a in aways if a.since < at]
        )
        return True

    def _write_aways(self, address: str, aways: list[Away]) -> None:
        body = {
            "address": address,
            "away": [{"since": a.since.isoformat(), "until": a.until.isoformat()} for a in aways],
        }
        _write(self._path("away", _key(address)), body)

    # -- spectators ----------------------------------------------------------------------------

    def watchers(self, game: str) -> list[str]:
        return list((_read(self._path("watchers", f"{game}.json")) or {}).get("watchers", []))

    def watch(self, game: str, address: str) -> None:
        now = self.watchers(game)
        if address.lower() not in (w.lower() for w in now):
            _write(self._path("watchers", f"{game}.json"), {"watchers": [*now, address]})

    def unwatch(self, game: str, address: str) -> None:
        kept = [w for w in self.watchers(game) if w.lower() != address.lower()]
        _write(self._path("watchers", f"{game}.json"), {"watchers": kept})

    # -- undo ----------------------------------------------------------------------------------

    def undo_request(self, game: str) -> UndoRequest | None:
        body = _read(self._path("undo", f"{game}.json"))
        if not body or not body.get("by"):
            return None
        return UndoRequest(
            game=game,
            by=body["by"],
            turn=int(body["turn"]),
            at=datetime.fromisoformat(body["at"]),
            mail=body.get("mail", ""),
            agreed=tuple(body.get("agreed", [])),
        )

    def set_undo_request(self, request: UndoRequest | None, game: str) -> None:
        """Record an undo request (or, with None, that none is open any more)."""
        body: dict[str, Any] = {}
        if request is not None:
            body = {
                "by": request.by,
                "turn": request.turn,
                "at": request.at.isoformat(),
                "mail": request.mail,
                "agreed": list(request.agreed),
            }
        _write(self._path("undo", f"{game}.json"), body)

    # -- readings asked about ------------------------------------------------------------------

    def readings(self, game: str) -> dict[int, AskedReading]:
        """The readings asked about in ``game``, by seat (the latest of each)."""
        body = _read(self._path("readings", f"{game}.json")) or {}
        found: dict[int, AskedReading] = {}
        for seat, r in body.items():
            try:
                found[int(seat)] = AskedReading(
                    int(seat), int(r["turn"]), str(r["move"]),
                    datetime.fromisoformat(r["at"]), str(r.get("mail", "")),
                )  # fmt: skip
            except (KeyError, TypeError, ValueError):
                continue  # (a note of another version: asked again if need be)
        return found

    def set_reading(self, game: str, seat: int, reading: AskedReading | None) -> None:
        """Keep the reading asked of ``seat`` in ``game`` (or, with None, forget it)."""
        kept = {
            str(s): {"turn": r.turn, "move": r.move, "at": r.at.isoformat(), "mail": r.mail}
            for s, r in self.readings(game).items()
            if s != seat
        }
        if reading is not None:
            kept[str(seat)] = {
                "turn": reading.turn,
                "move": reading.move,
                "at": reading.at.isoformat(),
                "mail": reading.mail,
            }
        _write(self._path("readings", f"{game}.json"), kept)

    # -- reminders -----------------------------------------------------------------------------

    def reminded(self, address: str) -> tuple[datetime | None, set[str]]:
        """When ``address`` was last sent a reminder, and which reminders (``game@turn:kind``)
        they have had."""
        body = _read(self._path("reminded", _key(address))) or {}
        last = body.get("last")
        return (datetime.fromisoformat(last) if last else None), set(body.get("sent", []))

    def note_reminded(self, address: str, at: datetime, sent: list[str]) -> None:
        _, before = self.reminded(address)
        kept = sorted(before | set(sent))[-200:]
        _write(self._path("reminded", _key(address)), {"last": at.isoformat(), "sent": kept})

    def told_overdue(self, game: str, turn: int) -> bool:
        return self._path("overdue", f"{game}.{turn}").exists()

    def note_overdue(self, game: str, turn: int, at: datetime) -> None:
        _write(self._path("overdue", f"{game}.{turn}"), {"at": at.isoformat()})

    def restarted(self, game: str) -> datetime | None:
        """When ``game`` was last rolled back (an undo, or ``referee rollback``)."""
        body = _read(self._path("restarted", game))
        return datetime.fromisoformat(body["at"]) if body else None

    def note_restarted(self, game: str, at: datetime) -> None:
        _write(self._path("restarted", game), {"at": at.isoformat()})

    # -- language and time zone ------------------------------------------------------------

    def choices(self, address: str) -> tuple[str | None, str | None]:
        """The language and the time zone ``address`` chose (None: none chosen)."""
        body = _read(self._path("people", _key(address))) or {}
        language, zone = body.get("language"), body.get("timezone")
        return (
            language if isinstance(language, str) else None,
            zone if isinstance(zone, str) else None,
        )

    def mail_choice(self, address: str) -> str:
        """How much mail ``address`` chose to get: every-turn (the default), my-turn or
        digest."""
        body = _read(self._path("people", _key(address))) or {}
        chosen = body.get("mail")
        return chosen if chosen in MAIL_CHOICES else "every-turn"

    def choose(
        self,
        address: str,
        *,
        language: str | None = None,
        timezone: str | None = None,
        mail: str | None = None,
    ) -> None:
        """``address`` chose ``language``, ``timezone`` and/or how much ``mail`` they get
        (what is not given is kept)."""
        before = _read(self._path("people", _key(address))) or {}
        body = {
            "address": address,
            "language": language or before.get("language"),
            "timezone": timezone or before.get("timezone"),
            "mail": mail or before.get("mail"),
        }
        _write(self._path("people", _key(address)), {k: v for k, v in body.items() if v})

    def digested(self, address: str) -> datetime | None:
        """When ``address`` was last sent a daily digest (None: never)."""
        body = _read(self._path("digest", _key(address)))
        return datetime.fromisoformat(body["at"]) if body and "at" in body else None

    def note_digested(self, address: str, at: datetime) -> None:
        _write(self._path("digest", _key(address)), {"address": address, "at": at.isoformat()})

    # -- commands waiting for their confirmation ------------------------------------------------

    def pending(self, token: str) -> Pending | None:
        """The command that waits for the confirmation carrying ``token``, if one does."""
        if not _TOKEN.fullmatch(token):
            return None
        body = _read(self._path("confirm", token)) or {}
        try:
            at = datetime.fromisoformat(str(body["at"]))
            return Pending(
                token, str(body["address"]), str(body["line"]), at, str(body.get("name", ""))
            )
        except (TypeError, KeyError, ValueError):
            return None

    def ask_confirmation(self, pending: Pending) -> None:
        """Keep ``pending`` until it is confirmed; clear away those that lapsed (so that mail
        forged in bulk keeps a week of files at most)."""
        folder = self.root / "confirm"
        if folder.is_dir():
            for path in folder.iterdir():
                kept = self.pending(path.name)
                if path.name != pending.token and (kept is None or kept.lapsed(pending.at)):
                    path.unlink(missing_ok=True)
        body = {
            "address": pending.address,
            "name": pending.name,
            "line": pending.line,
            "at": pending.at.isoformat(),
        }
        _write(self._path("confirm", pending.token), body)

    def end_confirmation(self, token: str) -> None:
        """The command was confirmed (and carried out): its confirmation counts no more."""
        if _TOKEN.fullmatch(token):
            self._path("confirm", token).unlink(missing_ok=True)

    def _path(self, folder: str, name: str) -> Path:
        return self.root / folder / name


def _key(address: str) -> str:
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()[:32]


def _read(path: Path) -> dict[str, Any] | None:
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return body if isinstance(body, dict) else None


def _write(path: Path, body: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_over(path, json.dumps(body, indent=1, sort_keys=True).encode())


def paused(since: datetime, span: timedelta, aways: list[Away]) -> datetime:
    """When a move that became due at ``since`` with ``span`` to make it is due, the times
    away of its player added: a time away that begins before the move is due pushes the
    deadline on by as long as it overlaps the time since the move came."""
    due = since + span
    for away in sorted(aways, key=lambda a: a.since):
        if away.until <= since or away.since >= due:
            continue
        due += away.until - max(away.since, since)
    return due
