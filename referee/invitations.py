"""Games proposed by mail, before they start: ``<games>/.invitations/<game>/``.

::

    proposal.json      who proposed the game, with whom, the rule options, the seating
    answer-<seat>.json one invited player's ``accept`` or ``decline`` (written once)
    end.json           the game started, or was cancelled and why (written once)

Every file is written once, atomically, and never changed: an answer given twice finds its
file there already. The seats are drawn from the game's seed when it is proposed, so each
invited player's reply address (which names their seat) stays theirs once the game starts.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from referee.engine import Rules, make_setup
from referee.record import GAME_ID, TIMEOUTS, GameRecord, Terms, Timeout, new_game_record
from referee.store import Store, write_new
from referee.timing import parse_deadline

#: How long an invitation waits for its answers.
INVITATION_EXPIRES = timedelta(days=7)

Status = Literal["invited", "started", "cancelled"]


@dataclass(frozen=True)
class Seat:
    """One seat of a proposed game: its address, and the answer given (None: none yet)."""

    address: str
    proposer: bool = False
    accepted: bool | None = None
    name: str = ""
    mail: str = ""
    answered: str = ""  # ISO time
    bot: str | None = None  # a seat for a computer player of this level (accepted already)


@dataclass(frozen=True)
class Invitation:
    """A game proposed by mail: who is invited to which seat, with which options."""

    game: str
    proposer: str
    at: datetime
    mail: str
    seed: int
    points_to_win: int
    gold: int
    deadline: str
    spectators: bool
    seats: tuple[Seat, ...]
    status: Status = "invited"
    why: str = ""
    ended: datetime | None = None
    timeout: str = "wait"
    extra: dict[str, Any] = field(default_factory=dict)
    #: The language of the invitations and of the game (None: the service's default).
    language: str | None = None

    @property
    def expires(self) -> datetime:
        return self.at + INVITATION_EXPIRES

    def seat_of(self, address: str) -> int | None:
        for n, seat in enumerate(self.seats):
            if seat.address.lower() == address.lower():
                return n
        return None

    def waiting_for(self) -> list[Seat]:
        return [s for s in self.seats if s.accepted is None]

    def declined(self) -> list[Seat]:
        return [s for s in self.seats if s.accepted is False]


class Invitations:
    """The games proposed by mail in one games folder."""

    def __init__(self, games_dir: Path) -> None:
        self.root = games_dir / ".invitations"
        #: invitations that are over (never to change again), by game, with the stamp of
        #: their end.json: :meth:`all` reads only the open ones again
        self._over: dict[str, tuple[tuple[int, int], Invitation]] = {}

    def ids(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if GAME_ID.fullmatch(p.name))

    def has(self, game: str) -> bool:
        return bool(GAME_ID.fullmatch(game)) and (self.root / game / "proposal.json").is_file()

    def get(self, game: str) -> Invitation | None:
        """The invitation with every answer given so far, or None."""
        if not self.has(game):
            return None
        folder = self.root / game
        body = _read(folder / "proposal.json")
        if body is None:
            return None
        seats = [Seat(**s) for s in body.pop("seats")]
        for n, seat in enumerate(seats):
            answer = _read(folder / f"answer-{n}.json")
            if answer is not None:
                seats[n] = Seat(
                    address=seat.address,
                    proposer=seat.proposer,
                    bot=seat.bot,
                    accepted=bool(answer["accepted"]),
                    name=str(answer.get("name", "")),
                    mail=str(answer.get("mail", "")),
                    answered=str(answer.get("at", "")),
                )
        end = _read(folder / "end.json") or {}
        return Invitation(
            game=body["game"],
            proposer=body["proposer"],
            at=datetime.fromisoformat(body["at"]),
            mail=body["mail"],
            seed=int(body["seed"]),
            points_to_win=int(body["points_to_win"]),
            gold=int(body["gold"]),
            deadline=body["deadline"],
            spectators=bool(body["spectators"]),
            timeout=body.get("timeout", "wait"),
            language=body.get("language"),
            seats=tuple(seats),
            status=end.get("status", "invited"),
            why=end.get("why", ""),
            ended=datetime.fromisoformat(end["at"]) if end.get("at") else None,
        )

    def all(self) -> list[Invitation]:
        """Every invitation here; those over are read once (their files never change)."""
        found, listed = [], self.ids()
        for gone in self._over.keys() - set(listed):  # (swept away by the daily sweep)
            del self._over[gone]
        for game in listed:
            try:
                info = (self.root / game / "end.json").stat()
                stamp: tuple[int, int] | None = (info.st_ino, info.st_mtime_ns)
            except OSError:
                stamp = None
            kept = self._over.get(game)
            if stamp is not None and kept is not None and kept[0] == stamp:
                found.append(kept[1])
                continue
            invitation = self.get(game)
            if invitation is None:
                continue
            if stamp is not None and invitation.status != "invited":
                self._over[game] = (stamp, invitation)
            found.append(invitation)
        return found

    def propose(self, invitation: Invitation) -> bool:
        """Write a new proposal; False when that game was proposed already (by the same
        mail, judged again after a crash)."""
        folder = self.root / invitation.game
        folder.mkdir(parents=True, exist_ok=True)
        body = asdict(invitation)
        for key in ("status", "why", "ended", "extra"):
            body.pop(key)
        body["at"] = invitation.at.isoformat()
        return _write_once(folder / "proposal.json", body)

    def answer(
        self, game: str, seat: int, accepted: bool, name: str, mail: str, at: datetime
    ) -> bool:
        """Record one seat's answer; False when that seat has answered already."""
        body = {"accepted": accepted, "name": name, "mail": mail, "at": at.isoformat()}
        return _write_once(self.root / game / f"answer-{seat}.json", body)

    def end(self, game: str, status: Status, why: str, at: datetime) -> bool:
        """The invitation is over: the game ``started``, or was ``cancelled`` (``why``)."""
        body = {"status": status, "why": why, "at": at.isoformat()}
        return _write_once(self.root / game / "end.json", body)


def _write_once(path: Path, body: dict[str, Any]) -> bool:
    try:
        write_new(path, json.dumps(body, indent=1, sort_keys=True).encode())
    except FileExistsError:
        return False
    return True


def _read(path: Path) -> dict[str, Any] | None:
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return body if isinstance(body, dict) else None


def invitation_summaries(invitations: Invitations, store: Store) -> list[dict[str, Any]]:
    """A row per game proposed by mail that has not started, as `referee games` lists
    games: status ``invited`` or ``cancelled``."""
    rows: list[dict[str, Any]] = []
    for invitation in invitations.all():
        if invitation.status == "started" or store.has(invitation.game):
            continue
        row: dict[str, Any] = {
            "game": invitation.game,
            "status": invitation.status,
            "turn": 0,
            "to_move": None,
            "deadline": None
            if invitation.status == "cancelled"
            else invitation.expires.isoformat(),
            "players": [s.address for s in invitation.seats],
            "proposer": invitation.proposer,
            "waiting": [s.address for s in invitation.waiting_for()],
            "last_activity": (invitation.ended or invitation.at).isoformat(),
        }
        if invitation.why:
            row["why"] = invitation.why
        rows.append(row)
    return rows


def player_name(display: str, address: str) -> str:
    """A one-word name from a display name ("Ann Lee" -> "Ann"), else from the address."""
    for source in (display, address.partition("@")[0]):
        words = re.findall(r"[^\W_]+(?:[-'][^\W_]+)*", source)
        if words:
            return str(words[0])[:20]
    return "player"


def start_record(invitation: Invitation, seats: list[Seat], now: datetime) -> GameRecord:
    """The record of a game proposed by mail, its seats as drawn, names made unique."""
    names: list[str] = []
    for s in seats:
        name, n = s.name or player_name("", s.address), 2
        base = name
        while name.casefold() in (x.casefold() for x in names):
            name, n = f"{base}{n}", n + 1
        names.append(name)
    rules = Rules(points_to_win=invitation.points_to_win, gold=invitation.gold)
    setup = make_setup(len(seats), invitation.seed, rules)
    terms = Terms(
        rules=rules,
        deadline=parse_deadline(invitation.deadline),
        timeout=timeout_policy(invitation.timeout),
        spectators=invitation.spectators,
        bots={name: s.bot for name, s in zip(names, seats, strict=True) if s.bot},
        language=invitation.language,
    )
    return new_game_record(
        invitation.game,
        [(name, s.address) for name, s in zip(names, seats, strict=True)],
        setup,
        invitation.seed,
        now.replace(microsecond=0),
        terms,
    )


def timeout_policy(timeout: str) -> Timeout:
    """``timeout`` as a record's policy: wait, forfeit or bot (wait for any other)."""
    for policy in TIMEOUTS:
        if policy == timeout:
            return policy
    return "wait"
