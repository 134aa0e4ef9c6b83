"""A month of mail in an hour: the soak run of the referee service over the dir transport.

One service (`referee serve --once`, looked at in a loop, in this process) plays GAMES games
started by mail over DAYS simulated days, the service's clock advanced LOOK minutes at each
look, so that its daily sweep, reminders, deadlines and digests happen as they would. About
MAILS mails in all come in: games proposed (``new splendor with ...``, some with bots) and
invitations answered, moves written as players write them (from the legal moves, a reply to
the latest board), refused moves, commands (history, board, games, help, say, away, mail
my-turn, rematch), mails to ended games, the same mail delivered twice, auto-replies and
bounces, mailing lists and spam; players who go quiet, whose games time out or stand still.

It prints: mails per second; the service's memory (VmRSS and its peak, from /proc) at the
start, the middle and the end; the files and bytes it keeps (``.mail/``, the games' trails,
the invitations, the mail folder) then; the CPU a move costs by how long its game has run and
for the first and the last games started; what else a look costs as the games pile up. Then
it checks: every mail filed once and none left in the inbox, every move played once (the
turns of each game are the moves sent to it, its bots' and its deadlines'), no mail answered
twice, and every file kept explained by a game still running, the expiry rules or the caps.

    python benchmarks/soak.py [--games 500] [--mails 100000] [--days 30] [--look 30]
                              [--seed 2026] [--keep FOLDER] [--trace-memory FRAMES]

The files' times follow the simulated clock: the service's notes are stamped with the time
the service thinks it is as they are written, as a real month would have stamped them, so
that expiry (which goes by a file's age) sees a month go by. docs/soak.md has the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import binascii
import contextlib
import cProfile
import email.policy
import heapq
import json
import math
import os
import pstats
import random
import re
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.parser import BytesHeaderParser
from email.utils import format_datetime, parseaddr
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

import referee.mail.runner
import referee.mail.state.notes
import referee.mail.state.outbox
import referee.service
from benchmarks.service import InlineExecutor
from referee.bots import choose
from referee.engine import Buy, GameState, Move, legal_moves, view
from referee.invitations import Invitations
from referee.mail.state.mailfiles import EXPIRE_AFTER, note_of
from referee.mail.state.notes import LIMITS_KEPT
from referee.mail.state.spool import GAME_NOTES
from referee.mail.state.trail import KEPT_FROM_OTHERS, KEPT_PER_PLAYER
from referee.mail.transports.directory import DirTransport
from referee.record import Replayed
from referee.service import SWEEP_EVERY, Service
from referee.settings import Settings
from referee.store import write_new, write_over
from tests.mail.players import humanise

REFEREE = "referee@example.net"
GAME_MASTER = "gm@example.net"
#: The receiving server the game master trusts: the players whose mail it vouches for need not
#: confirm what they write to the referee's own address.
TRUSTED = "mx.soak.example"
#: Where the soak's own mail ids come from: the kind of mail rides in the id.
OUR_ID = re.compile(rb"^Message-ID:\s*<soak\.([a-z-]+)\.", re.IGNORECASE | re.MULTILINE)
ROUTE = re.compile(r"\+(?P<game>[a-z0-9][a-z0-9_-]*)\.(?P<seat>[0-3])\.[a-z2-7]{16}@")
TURN_OF_ID = re.compile(r"\.t(\d{4,})\.")
CONFIRM = re.compile(r"\+confirm\.(?P<token>[a-z2-7]{16})@")
#: How long a turn is, for the table of a move's cost by the length of its game.
BUCKET = 10
_HEADERS = BytesHeaderParser(policy=email.policy.compat32)


# -- the scale and the people ------------------------------------------------------------------


@dataclass(frozen=True)
class Scale:
    """How big a soak: games proposed, mails in all, simulated days, minutes between looks."""

    games: int = 500
    mails: int = 100_000
    days: float = 30.0
    look_minutes: int = 30
    seed: int = 2026

    @property
    def span(self) -> float:
        return self.days * 86400.0


@dataclass
class Person:
    """A player: how fast they answer (median hours), how much mail they chose, when they are
    away (with an auto-reply on), and whether their address bounces."""

    address: str
    pace: float
    mail: str = "every-turn"
    holiday: tuple[float, float] | None = None  # seconds since the start
    says_away: bool = False
    dead: bool = False
    language: str | None = None
    timezone: str | None = None
    introduced: bool = False
    vouched: bool = True  # their mail server signs their mail, and the trusted one checks it

    def headers(self) -> list[tuple[str, str]]:
        """What the receiving server adds to their mail."""
        if not self.vouched:
            return []
        domain = self.address.partition("@")[2]
        return [("Authentication-Results", f"{TRUSTED}; dmarc=pass header.from={domain}")]

    def away_at(self, t: float) -> bool:
        return self.holiday is not None and self.holiday[0] <= t < self.holiday[1]


@dataclass
class Plan:
    """A game to propose: who, its terms, and how it goes (who quits, who resigns, whether
    an invitation is declined or never answered)."""

    index: int
    proposer: str
    invited: list[str]
    bots: list[str]
    terms: str
    quits: tuple[str, int] | None = None  # who stops answering, from which turn
    resigns: tuple[str, int] | None = None
    declines: str | None = None
    ignores: str | None = None
    game: str | None = None  # its id, once the service has named it
    started: int | None = None  # the order in which games started
    answered: set[str] = field(default_factory=set)


# -- mails, as players' mail programs write them -----------------------------------------------


def _date(at: datetime) -> str:
    return format_datetime(at)


def _encoded(text: str) -> str:
    return binascii.b2a_qp(text.encode(), istext=True).decode().replace("\n", "\r\n")


def plain_mail(headers: list[tuple[str, str]], text: str) -> bytes:
    """A text/plain UTF-8 message, quoted-printable, CRLF line ends."""
    lines = [f"{name}: {value}" for name, value in headers]
    lines += [
        "MIME-Version: 1.0",
        'Content-Type: text/plain; charset="utf-8"',
        "Content-Transfer-Encoding: quoted-printable",
    ]
    return ("\r\n".join(lines) + "\r\n\r\n" + _encoded(text)).encode()


def letter_text(raw: bytes) -> str:
    """The text part of one of the referee's letters (as its writer wrote it: one text part,
    quoted-printable, first)."""
    body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")[2]
    marker = b"Content-Transfer-Encoding: quoted-printable\n\n"
    start = body.find(marker)
    if start < 0:
        return binascii.a2b_qp(body).decode(errors="replace")
    start += len(marker)
    end = body.find(b"\n--", start)
    return binascii.a2b_qp(body[start : end if end >= 0 else None]).decode(errors="replace")


def reply_to(
    letter: bytes,
    sender: str,
    text: str,
    message_id: str,
    at: datetime,
    *,
    extra: list[tuple[str, str]] | None = None,
    subject_prefix: str = "Re: ",
    quote: bool = True,
) -> bytes:
    """A reply to one of the referee's letters, as a mail program's Reply writes it: the
    text on top, the letter quoted below an attribution line, the thread in its headers."""
    head = _HEADERS.parsebytes(letter.replace(b"\r\n", b"\n").partition(b"\n\n")[0])
    to = parseaddr(str(head["Reply-To"] or head["From"]))[1]
    references = " ".join(str(head["References"] or "").split())
    body = text
    if quote:
        quoted = "\n".join("> " + line for line in letter_text(letter).splitlines())
        body += f"\n\nOn {_date(at)}, Splendor referee wrote:\n{quoted}\n"
    headers = [
        ("From", f"{sender.partition('@')[0]} <{sender}>"),
        ("To", to),
        ("Subject", subject_prefix + str(head["Subject"]).replace("\n", " ")),
        ("Message-ID", message_id),
        ("In-Reply-To", str(head["Message-ID"])),
        ("References", f"{references} {head['Message-ID']}".strip()),
        ("Date", _date(at)),
        *(extra or []),
    ]
    return plain_mail(headers, body)


def new_mail(
    sender: str,
    to: str,
    subject: str,
    text: str,
    message_id: str,
    at: datetime,
    extra: list[tuple[str, str]] | None = None,
) -> bytes:
    """A new mail (not a reply), as a phone writes it: the text, then its footer."""
    headers = [
        ("From", f"{sender.partition('@')[0]} <{sender}>"),
        ("To", to),
        ("Subject", subject),
        ("Message-ID", message_id),
        ("Date", _date(at)),
        *(extra or []),
    ]
    return plain_mail(headers, f"{text}\n\nSent from my iPhone\n")


def bounce(letter: bytes, to: str, message_id: str, at: datetime) -> bytes:
    """A delivery report for a letter to an address that does not exist (RFC 3464)."""
    head = letter.replace(b"\r\n", b"\n").partition(b"\n\n")[0].decode(errors="replace")
    boundary = "=_bounce_" + message_id.strip("<>").replace("@", "_")
    lines = [
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.com>",
        f"To: {REFEREE}",
        "Subject: Undelivered Mail Returned to Sender",
        f"Message-ID: {message_id}",
        f"Date: {_date(at)}",
        "Auto-Submitted: auto-replied",
        "MIME-Version: 1.0",
        f'Content-Type: multipart/report; report-type=delivery-status; boundary="{boundary}"',
        "",
        f"--{boundary}",
        "Content-Type: text/plain",
        "",
        f"Your message to <{to}> could not be delivered: no such user.",
        f"--{boundary}",
        "Content-Type: message/delivery-status",
        "",
        "Reporting-MTA: dns; mx.example.com",
        "",
        f"Final-Recipient: rfc822; {to}",
        "Action: failed",
        "Status: 5.1.1",
        f"--{boundary}",
        "Content-Type: text/rfc822-headers",
        "",
        head,
        f"--{boundary}--",
        "",
    ]
    return "\r\n".join(lines).encode()


SPAM_TEXTS = (
    "BUY NOW!!! Cheap watches, best prices, click here: http://spam.example/x " * 12,
    "Dear friend, I am a prince and need your help to move $10,000,000. Reply now.\n" * 6,
    "Your mailbox is full. Log in here to keep your mail: http://phish.example/login\n" * 4,
    "SEO services for your site referee.example.net - first page of Google guaranteed!\n" * 8,
)


# -- measuring -----------------------------------------------------------------------------------


def rss() -> tuple[int, int]:
    """This process's resident memory and its peak so far, in KiB (VmRSS, VmHWM)."""
    found = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0])
    return found.get("VmRSS", 0), found.get("VmHWM", 0)


def tally(folder: Path) -> tuple[int, int]:
    """Files and bytes under ``folder``."""
    files = size = 0
    for root, _dirs, names in os.walk(folder):
        for name in names:
            with contextlib.suppress(FileNotFoundError):
                size += os.stat(os.path.join(root, name)).st_size
                files += 1
    return files, size


def kept_files(games_dir: Path, mail_dir: Path) -> dict[str, tuple[int, int]]:
    """What lies on disk, by part: each folder of ``.mail/``, the games' trails and turns,
    the invitations, and each folder of the mail folder."""
    parts: dict[str, tuple[int, int]] = {}
    spool = games_dir / ".mail"
    for entry in sorted(spool.iterdir()) if spool.is_dir() else []:
        if entry.is_dir():
            parts[f".mail/{entry.name}"] = tally(entry)
    loose = [p for p in spool.iterdir() if p.is_file()] if spool.is_dir() else []
    parts[".mail (files)"] = (len(loose), sum(p.stat().st_size for p in loose))
    trail = turns = (0, 0)
    for game in games_dir.iterdir():
        if game.is_dir() and not game.name.startswith("."):
            trail = _plus(trail, tally(game / "trail"))
            turns = _plus(turns, tally(game / "turns"))
    parts["<game>/trail"] = trail
    parts["<game>/turns"] = turns
    parts[".invitations"] = tally(games_dir / ".invitations")
    for folder in ("inbox", "outbox", "done", "refused", "quarantine"):
        parts[f"mail/{folder}"] = tally(mail_dir / folder)
    return parts


def _files(folder: Path) -> list[Path]:
    """What is in ``folder`` (nothing when it was never made)."""
    return sorted(folder.iterdir()) if folder.is_dir() else []


def _plus(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


class Costs:
    """CPU seconds the service spent, by what it was doing; filled in as it works. What
    there is one of per move or letter goes to files in ``logs`` (read at the end), so that
    the soak's own memory stays out of the service's."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        #: by kind of mail and third of the soak: how many were judged, and the seconds
        self.judged: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0, 0.0])
        self.moves = open(logs / "moves-cpu", "w")  # noqa: SIM115 (game, turn, seconds, third)
        self.letters = open(logs / "letters-cpu", "w")  # noqa: SIM115 (game, turn, seconds)
        self.bots = 0.0
        self.sweeps: list[tuple[float, float, int]] = []  # when, cpu, files removed
        self.cleared = 0  # mails handled long ago, cleared from the mail folder by the sweep
        self.looks: list[tuple[float, float, float]] = []  # t, cpu, rest
        #: CPU seconds so far judging, sending and playing bots (the rest of a look is the rest)
        self.so_far = 0.0

    def close(self) -> None:
        self.moves.close()
        self.letters.close()

    def read(self, name: str) -> Iterator[tuple[str, int, float, int]]:
        """The lines of a log: game, turn, CPU seconds, and the third of the soak."""
        for line in (self.logs / name).read_text().splitlines():
            game, turn, seconds, third = line.split("\t")
            yield game, int(turn), float(seconds), int(third)


class Instruments:
    """Times the service's parts from inside, on the thread each runs on: judging a mail
    (with what it was, by its Message-ID, and the turn it played), sending a letter, a bot's
    turns. Also stamps the files the service writes with its simulated clock (see the
    module's docstring). Everything is put back as it was on leaving."""

    def __init__(
        self, service: Service, now: Callable[[], datetime], third: Callable[[], int], costs: Costs
    ) -> None:
        self.service, self.now, self.third, self.costs = service, now, third, costs
        self._played = threading.local()
        self._undo: list[Callable[[], None]] = []

    def __enter__(self) -> Instruments:
        service = self.service
        self._wrap(service.intake, "_judge", self._timed_judge(service.intake._judge))
        self._wrap(service.clerk, "carry_out", self._noting(service.clerk.carry_out))
        self._wrap(service.postman, "send", self._timed_send(service.postman.send))
        self._wrap(service.spool, "expire", self._timed_sweep(service.spool.expire))
        transport = service.transport
        self._wrap(transport, "_clear_filed", self._counted_clear(transport._clear_filed))  # type: ignore[attr-defined]
        self._wrap(
            referee.mail.runner, "play_bots", self._timed_bots(referee.mail.runner.play_bots)
        )
        for module in (referee.mail.state.notes, referee.mail.state.outbox):
            self._wrap(module, "write_new", self._stamping(write_new))
            self._wrap(module, "write_over", self._stamping(write_over))
        threads = service.spool.threads
        self._wrap(threads, "extend_thread", self._stamped_thread(threads.extend_thread))
        return self

    def __exit__(self, *_: object) -> None:
        for undo in reversed(self._undo):
            undo()

    def _wrap(self, owner: Any, name: str, value: Any) -> None:
        before = owner.__dict__.get(name, _MISSING) if hasattr(owner, "__dict__") else _MISSING
        setattr(owner, name, value)

        def undo() -> None:
            if before is _MISSING:
                delattr(owner, name)
            else:
                setattr(owner, name, before)

        self._undo.append(undo)

    def _stamp(self, path: Path) -> None:
        at = self.now().timestamp()
        with contextlib.suppress(FileNotFoundError):
            os.utime(path, (at, at))

    def _stamping(self, write: Callable[..., None]) -> Callable[..., None]:
        def stamped(path: Path, data: bytes, *args: Any, **kwargs: Any) -> None:
            write(path, data, *args, **kwargs)
            self._stamp(path)

        return stamped

    def _stamped_thread(self, extend: Callable[[str, int, str], None]) -> Callable[..., None]:
        folder = self.service.settings.games_dir / ".mail" / "threads"

        def stamped(game: str, seat: int, message_id: str) -> None:
            extend(game, seat, message_id)
            self._stamp(folder / f"{game}.{seat}")

        return stamped

    def _noting(self, carry_out: Callable[..., Any]) -> Callable[..., Any]:
        def noted(mail: Any, ruling: Any, game: str | None, seen: Any = None) -> Any:
            if ruling.played is not None and game is not None:
                self._played.move = (game, ruling.played.turn.turn)
            return carry_out(mail, ruling, game, seen)

        return noted

    def _timed_judge(self, judge: Callable[[Any, bytes], Any]) -> Callable[[Any, bytes], Any]:
        def timed(item: Any, raw: bytes) -> Any:
            self._played.move = None
            began = time.thread_time()
            result = judge(item, raw)
            took = time.thread_time() - began
            self.costs.so_far += took
            ours = OUR_ID.search(raw[:8192])
            kind = ours.group(1).decode() if ours else "other"
            if result[0] is None:
                kind = "again"  # handled before: a duplicate
            judged = self.costs.judged[(kind, self.third())]
            judged[0] += 1
            judged[1] += took
            if self._played.move is not None:
                game, turn = self._played.move
                self.costs.moves.write(f"{game}\t{turn}\t{took}\t{self.third()}\n")
            return result

        return timed

    def _timed_send(self, send: Callable[..., Any]) -> Callable[..., Any]:
        async def timed(queued: Any, overtaken: Any = ()) -> bool:
            began = time.thread_time()
            sent = bool(await send(queued, overtaken))
            took = time.thread_time() - began
            self.costs.so_far += took
            letter = queued.letter
            if letter.kind == "turn":
                self.costs.letters.write(f"{letter.game}\t{letter.turn}\t{took}\t0\n")
            return sent

        return timed

    def _timed_sweep(self, expire: Callable[..., int]) -> Callable[..., int]:
        def timed(*args: Any) -> int:
            began = time.thread_time()
            removed = expire(*args)
            took = time.thread_time() - began
            self.costs.so_far += took
            self.costs.sweeps.append((self.now().timestamp(), took, removed))
            return removed

        return timed

    def _counted_clear(self, clear: Callable[..., int]) -> Callable[..., int]:
        def counted(*args: Any) -> int:
            removed = clear(*args)
            self.costs.cleared += removed
            return removed

        return counted

    def _timed_bots(self, play: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.thread_time()
            played = play(*args, **kwargs)
            took = time.thread_time() - began
            self.costs.so_far += took
            self.costs.bots += took
            return played

        return timed


_MISSING = object()


# -- the soak ------------------------------------------------------------------------------------


@dataclass
class Figures:
    """What a soak measured and found."""

    scale: Scale
    wall: float = 0.0
    service_wall: float = 0.0
    service_cpu: float = 0.0
    delivered: Counter[str] = field(default_factory=Counter)
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    daily: list[dict[str, Any]] = field(default_factory=list)
    by_length: list[dict[str, Any]] = field(default_factory=list)
    by_games: list[dict[str, Any]] = field(default_factory=list)
    by_kind: list[dict[str, Any]] = field(default_factory=list)
    by_time: dict[str, list[float | None]] = field(default_factory=dict)
    games: Counter[str] = field(default_factory=Counter)
    turns: Counter[str] = field(default_factory=Counter)
    letters: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    explained: dict[str, str] = field(default_factory=dict)
    warnings: int = 0
    idle: dict[str, Any] = field(default_factory=dict)
    sweeps: list[dict[str, Any]] = field(default_factory=list)
    cleared: int = 0  # mails the sweep cleared from the mail folder's done/, refused/…
    #: with --trace-memory: what the Python heap gained from the middle to the end, by place
    grown: list[str] = field(default_factory=list)


class Soak:
    """One soak run in ``root`` (a scratch folder)."""

    def __init__(self, root: Path, scale: Scale) -> None:
        self.root, self.scale = root, scale
        self.rng = random.Random(scale.seed)
        self.games_dir, self.mail_dir = root / "games", root / "mail"
        self.boxes = root / "mailboxes"  # the players' own mailboxes: their latest letters
        self.logs = root / "logs"
        for folder in (self.boxes, self.logs):
            folder.mkdir(parents=True)
        self.start = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
        self.t = 0.0
        self.traced: dict[str, tracemalloc.Snapshot] = {}
        settings = Settings(
            games_dir=self.games_dir,
            mail_dir=self.mail_dir,
            address=REFEREE,
            game_master=GAME_MASTER,
            trusted_authserv_id=TRUSTED,
        )
        self.service = Service(settings, DirTransport(self.mail_dir), self.now)
        self.store = self.service.store
        self.invitations = Invitations(self.games_dir)
        self.costs = Costs(self.logs)
        self.figures = Figures(scale)
        self.events: list[tuple[float, int, str, tuple[Any, ...]]] = []
        self.sequence = 0
        self.people = self._people()
        self.spammers = [f"seller{n}@spam{n % 7}.example.com" for n in range(3000)]
        self.plans: list[Plan] = []
        self.by_mail: dict[str, Plan] = {}  # a proposal's Message-ID -> its plan
        self.by_game: dict[str, Plan] = {}
        self.started = 0
        self.waiting: set[tuple[str, int]] = set()  # (game, turn): a reply is on its way
        self.turn_seen: dict[tuple[str, str], int] = {}  # (address, game): latest letter's turn
        self.ended: set[str] = set()
        self.running: set[str] = set()
        self.expected = open(self.logs / "moves", "w")  # noqa: SIM115 (kept open all along)
        self.answers = open(self.logs / "answers", "w")  # noqa: SIM115

    def now(self) -> datetime:
        return self.start + timedelta(seconds=self.t)

    def third(self) -> int:
        """Which third of the soak it is: 0, 1 or 2."""
        return min(2, int(3 * self.t / self.scale.span))

    # -- the cast --------------------------------------------------------------------------------

    def _people(self) -> dict[str, Person]:
        rng, count = self.rng, max(4, self.scale.games * 6 // 5)
        people = {}
        for n in range(count):
            address = f"player{n}@{rng.choice(['example.org', 'example.com', 'example.net'])}"
            person = Person(address, pace=min(30.0, max(0.2, rng.lognormvariate(math.log(2), 0.9))))
            draw = rng.random()
            person.mail = "my-turn" if draw < 0.10 else "digest" if draw < 0.15 else "every-turn"
            if rng.random() < 0.12:
                begin = rng.uniform(0, self.scale.span)
                person.holiday = (begin, begin + rng.uniform(2, 6) * 86400)
                person.says_away = rng.random() < 0.5
            person.language = rng.choice(["cy", "is", "eo", "bn"]) if rng.random() < 0.04 else None
            person.timezone = "Asia/Dhaka" if rng.random() < 0.05 else None
            person.vouched = rng.random() < 0.6
            people[address] = person
        return people

    def _plans(self) -> None:
        """The games to propose, spread over the first four fifths of the soak."""
        rng, everyone = self.rng, list(self.people)
        count = max(1, round(self.scale.games * 0.96))  # the rest: rematches
        for index in range(count):
            at = self.scale.span * 0.8 * index / count + rng.uniform(0, 3600)
            seats = rng.choices([2, 3, 4], weights=[40, 35, 25])[0]
            humans = rng.sample(everyone, seats)
            bots: list[str] = []
            draw = rng.random()
            if draw < 0.05:  # against the computer only
                bots = [rng.choice(["random", "greedy"]) for _ in humans[1:]]
                humans = humans[:1]
            elif draw < 0.25:
                bots = [rng.choice(["random", "greedy"])]
                humans = humans[: max(1, seats - 1)]
            terms = rng.choices(
                ["", "deadline 2d timeout forfeit", "deadline 1d timeout bot", "deadline 3d"],
                weights=[60, 20, 10, 10],
            )[0]
            plan = Plan(index, humans[0], humans[1:], bots, terms)
            if len(humans) > 1:
                fate = rng.random()
                if fate < 0.04:
                    plan.declines = rng.choice(humans[1:])
                elif fate < 0.07:
                    plan.ignores = rng.choice(humans[1:])
                elif fate < 0.09:
                    dead = f"nobody{index}@example.com"
                    self.people[dead] = Person(dead, pace=1, dead=True)
                    plan.invited.append(dead)
                    plan.ignores = dead
            if rng.random() < 0.12:
                plan.quits = (rng.choice(humans), rng.randrange(2, 60))
            elif rng.random() < 0.03:
                plan.resigns = (rng.choice(humans), rng.randrange(4, 50))
            self.plans.append(plan)
            self._at(at, "propose", plan)

    # -- the event queue ---------------------------------------------------------------------

    def _at(self, t: float, action: str, *args: Any) -> None:
        self.sequence += 1
        heapq.heappush(self.events, (t, self.sequence, action, args))

    def _later(self, person: Person, scale: float = 1.0) -> float:
        """When a person answers something that came now."""
        delay = self.rng.lognormvariate(math.log(person.pace * 3600 * scale), 0.8)
        t = self.t + min(max(delay, 300.0), 40 * 3600.0)
        if person.away_at(t) and person.holiday is not None:
            t = person.holiday[1] + self.rng.uniform(600, 6 * 3600)
        return t

    def deliver(self, kind: str, raw: bytes) -> None:
        """Put a mail into the inbox whole (written, then renamed), counted by kind."""
        self.sequence += 1
        name = f"{self.sequence:08d}-{kind}.eml"
        hidden = self.mail_dir / "inbox" / f".{name}.tmp"
        hidden.write_bytes(raw)
        hidden.rename(self.mail_dir / "inbox" / name)
        self.figures.delivered[kind] += 1

    def _id(self, kind: str) -> str:
        self.sequence += 1
        return f"<soak.{kind}.{self.sequence}@soak.example>"

    def _letter(self, address: str, game: str) -> bytes | None:
        path = self._box(address, game)
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None

    def _box(self, address: str, game: str) -> Path:
        return self.boxes / address / f"{game}.eml"

    def _send_reply(
        self, kind: str, person: Person, game: str, text: str, duplicate: float = 0.04
    ) -> str | None:
        """``person`` replies ``text`` to their latest letter in ``game``; its Message-ID."""
        letter = self._letter(person.address, game)
        if letter is None:
            return None
        message_id = self._id(kind)
        raw = reply_to(letter, person.address, text, message_id, self.now(), extra=person.headers())
        self.deliver(kind, raw)
        if self.rng.random() < duplicate:
            self._at(self.t + self.rng.uniform(300, 6 * 3600), "again", kind, raw)
        return message_id

    def _to_referee(self, kind: str, person: Person, text: str, subject: str = "Splendor") -> str:
        """``person`` writes ``text`` to the referee's own address (delivered twice, now and
        then); its Message-ID."""
        message_id = self._id(kind)
        raw = new_mail(
            person.address, REFEREE, subject, text, message_id, self.now(), person.headers()
        )
        self.deliver(kind, raw)
        if self.rng.random() < 0.04:
            self._at(self.t + self.rng.uniform(300, 6 * 3600), "again", kind, raw)
        return message_id

    def _confirm(self, address: str, token: str, asked: str) -> None:
        """A person confirms what they wrote to the referee's own address (``asked``: that
        mail's Message-ID): a reply to the letter that asked."""
        message_id = self._send_reply("confirm", self.people[address], f"confirm.{token}", "yes")
        plan = self.by_mail.get(asked)
        if message_id is not None and plan is not None:
            self.by_mail[message_id] = plan  # the game is proposed by the confirmation

    # -- what happens --------------------------------------------------------------------------

    def happen(self, action: str, args: tuple[Any, ...]) -> None:
        getattr(self, f"_{action}")(*args)

    def _again(self, kind: str, raw: bytes) -> None:
        """The same mail delivered a second time (a server's retry, a forward to self)."""
        self.deliver(f"{kind}-again", raw)

    def _propose(self, plan: Plan) -> None:
        person = self.people[plan.proposer]
        self._introduce(person)
        others = [*plan.invited, *(f"bot:{level}" for level in plan.bots)]
        text = f"new splendor with {' '.join(others)} {plan.terms}".strip()
        message_id = self._to_referee("new", person, text, subject="A game?")
        self.by_mail[message_id] = plan

    def _introduce(self, person: Person) -> None:
        """A person's first mail: their choices of mail, language and time zone, if any."""
        if person.introduced:
            return
        person.introduced = True
        for word, value in (
            ("mail", None if person.mail == "every-turn" else person.mail),
            ("language", person.language),
            ("timezone", person.timezone),
        ):
            if value:
                self._to_referee("choose", person, f"{word} {value}")

    def _answer(self, plan: Plan, address: str) -> None:
        person = self.people[address]
        if plan.game is None or address == plan.ignores or person.dead:
            return
        self._introduce(person)
        word = "decline" if address == plan.declines else self.rng.choice(["accept", "Accept"])
        self._send_reply("answer", person, plan.game, word)

    def _move(self, game: str, turn: int, address: str, tries: int = 0) -> None:
        self.waiting.discard((game, turn))
        replayed = self.store.load(game)
        state = replayed.state
        if state.status == "finished" or state.turn != turn:
            return  # moved meanwhile: a deadline passed, say
        name = state.player.name
        if name != self._seat_name(replayed, address):
            return
        person = self.people[address]
        if self.turn_seen.get((address, game), -1) != turn:
            if tries > 48:
                self.figures.problems.append(f"{address} never got the board of {game} turn {turn}")
                return
            self._at(self.t + 1800, "move", game, turn, address, tries + 1)  # on its way
            self.waiting.add((game, turn))
            return
        rng, plan = self.rng, self.by_game[game]
        if rng.random() < 0.05:
            self._send_reply(
                "command",
                person,
                game,
                rng.choice(["history 5", "board", "moves", "help", "say good luck!", "history"]),
            )
        if rng.random() < 0.07:
            self._send_reply("refused", person, game, self._wrong_move(rng))
        if plan.resigns is not None and plan.resigns[0] == address and turn >= plan.resigns[1]:
            text = "resign"
        else:
            text = humanise(self._choose(state, name, rng), state, rng)
        message_id = self._send_reply("move", person, game, text)
        if message_id is not None:
            self.expected.write(f"{game}\t{message_id}\n")

    def _seat_name(self, replayed: Replayed, address: str) -> str | None:
        for player in replayed.record.players:
            if player.email.lower() == address.lower():
                return player.name
        return None

    @staticmethod
    def _choose(state: GameState, name: str, rng: random.Random) -> Move:
        """A person's move: mostly a sound one (the greedy bot's, from their own view), now
        and then anything that comes to mind."""
        if rng.random() < 0.8:
            return choose("greedy", view(state, name), rng).move
        legal = legal_moves(state)
        return rng.choice([m for m in legal if isinstance(m, Buy)] or legal)

    @staticmethod
    def _wrong_move(rng: random.Random) -> str:
        """A move that is refused: a card that is not there, a typo, gold taken."""
        return rng.choice(
            [
                "buy 4-01",
                "tkae red green blue",
                "take 2 gold",
                "reserve 1-99",
                "take red red green",
                "buy the blue one please",
            ]
        )

    def _out_of_turn(self, game: str, address: str) -> None:
        replayed = self.store.load(game)
        if replayed.state.status == "finished":
            return
        if replayed.record.players[replayed.state.to_move].email.lower() == address:
            return  # their turn by now: a move out of turn no more
        self._send_reply("refused", self.people[address], game, "take red green blue")

    def _after_end(self, game: str, address: str) -> None:
        person = self.people[address]
        proposals = len(self.by_mail)
        if (
            self.rng.random() < 0.2
            and proposals < self.scale.games
            and self.t < self.scale.span * 0.85
        ):
            message_id = self._send_reply("rematch", person, game, "rematch", duplicate=0)
            if message_id is not None:
                again = Plan(len(self.plans), address, [], [], "")
                self.plans.append(again)
                self.by_mail[message_id] = again
        else:
            self._send_reply(
                "ended",
                person,
                game,
                self.rng.choice(["Thanks, good game!", "take red green blue", "gg"]),
            )

    def _referee_command(self, address: str) -> None:
        person = self.people[address]
        self._to_referee(
            "command",
            person,
            self.rng.choice(["games", "games", "games", "help", "rules", "standings"]),
        )

    def _holiday(self, address: str, leaving: bool) -> None:
        person = self.people[address]
        if person.holiday is None:
            return
        if leaving:
            days = max(1, round((person.holiday[1] - person.holiday[0]) / 86400))
            self._to_referee("away", person, f"away {days}d")
        else:
            self._to_referee("away", person, "back")

    def _spam(self, count: int) -> None:
        """Mail from strangers and robots, to fill the soak up to its mails; now and then a
        server delivers one twice."""
        for _ in range(count):
            kind, raw = self._stranger()
            self.deliver(kind, raw)
            if self.rng.random() < 0.03:
                self._at(self.t + self.rng.uniform(300, 6 * 3600), "again", kind, raw)

    def _stranger(self) -> tuple[str, bytes]:
        """One mail from a stranger or a robot: a reply to a board someone forwarded, spam to
        the referee's address or to a made-up reply address, a mailing list, a shop's robot."""
        rng, at = self.rng, self.now()
        draw, sender, text = rng.random(), rng.choice(self.spammers), rng.choice(SPAM_TEXTS)
        message_id = self._id("spam" if draw < 0.7 else "robot")
        if draw < 0.35 and self.running:  # a board forwarded to someone, who replies
            game = rng.choice(sorted(self.running, key=lambda g: self.by_game[g].index))
            letter = self._letter(self.by_game[game].proposer, game)
            if letter is not None:
                return "spam", reply_to(letter, sender, text, message_id, at)
        if draw < 0.6:
            return "spam", new_mail(sender, REFEREE, "Great offer", text, message_id, at)
        if draw < 0.7:
            fake = f"referee+zz{rng.randrange(99)}.0.{'a' * 16}@example.net"
            return "spam", new_mail(sender, fake, "hello", text, message_id, at)
        if draw < 0.85:
            listed = [("List-Id", "<news.lists.example.com>"), ("Precedence", "list")]
            news = "news@lists.example.com"
            return "robot", new_mail(news, REFEREE, "Weekly news", text, message_id, at, listed)
        bulk = [("Precedence", "bulk"), ("Auto-Submitted", "auto-generated")]
        shop = "noreply@shop.example.com"
        return "robot", new_mail(shop, REFEREE, "Your order", text, message_id, at, bulk)

    # -- the referee's letters, as the players' mail servers deliver them ------------------------

    def collect(self) -> list[tuple[str, str]]:
        """Take every letter out of the mail folder's outbox into its reader's mailbox (the
        latest letter per game is kept), react to robots' ways; the games the letters were
        about, each with its reader."""
        outbox = self.mail_dir / "outbox"
        touched: list[tuple[str, str]] = []
        for name in sorted(os.listdir(outbox)):
            path = outbox / name
            with open(path, "rb") as source:
                head = source.read(16384)
            fields = _HEADERS.parsebytes(head.replace(b"\r\n", b"\n").partition(b"\n\n")[0])
            to = parseaddr(str(fields["To"]))[1].lower()
            answered = str(fields["In-Reply-To"] or "")
            if answered.startswith("<soak."):
                self.answers.write(f"{to}\t{answered}\n")
            self.figures.letters["sent"] += 1
            route = ROUTE.search(str(fields["Reply-To"] or ""))
            turn = TURN_OF_ID.search(str(fields["Message-ID"]))
            person = self.people.get(to)
            confirm = CONFIRM.search(str(fields["Reply-To"] or ""))
            if person is not None and confirm is not None:
                token = confirm.group("token")
                (self.boxes / to).mkdir(exist_ok=True)
                os.replace(path, self._box(to, f"confirm.{token}"))
                self._at(self._later(person, 0.5), "confirm", to, token, answered)
                continue
            if person is None or route is None:
                self._robots(person, path, to)
                path.unlink()
                continue
            game = route.group("game")
            shown = int(turn.group(1)) if turn else 0
            if shown >= self.turn_seen.get((to, game), -1):
                self.turn_seen[(to, game)] = shown
                (self.boxes / to).mkdir(exist_ok=True)
                os.replace(path, self._box(to, game))
                self._robots(person, self._box(to, game), to)
            else:
                self._robots(person, path, to)
                path.unlink()
            touched.append((game, to))
        return touched

    def _robots(self, person: Person | None, path: Path, to: str) -> None:
        """A letter to a dead address bounces; one to a person on holiday is answered by
        their auto-reply (now and then)."""
        if person is None:
            return
        if person.dead:
            self.deliver("robot", bounce(path.read_bytes(), to, self._id("robot"), self.now()))
        elif person.away_at(self.t) and self.rng.random() < 0.5:
            message_id = self._id("robot")
            raw = reply_to(
                path.read_bytes(),
                to,
                "I am on holiday and will answer when I am back.",
                message_id,
                self.now(),
                extra=[("Auto-Submitted", "auto-replied"), ("X-Autoreply", "yes")],
                subject_prefix="Automatic reply: ",
                quote=False,
            )
            self.deliver("robot", raw)

    def react(self, touched: list[tuple[str, str]]) -> None:
        """After a look: map new games to their plans, answer invitations, and schedule the
        replies of the people whose move it is."""
        for game, address in touched:
            plan = self._plan_of(game)
            if plan is None or self.store.has(game) or address == plan.proposer:
                continue
            if address not in plan.answered:
                plan.answered.add(address)
                self._at(self._later(self.people[address], 2), "answer", plan, address)
        for game in dict.fromkeys(game for game, _ in touched):
            plan = self._plan_of(game)
            if plan is None or not self.store.has(game):
                continue
            if plan.started is None:
                plan.started = self.started
                self.started += 1
                self.figures.games["started"] += 1
                self.running.add(game)
            self._next_move(plan, game)

    def _plan_of(self, game: str) -> Plan | None:
        plan = self.by_game.get(game)
        if plan is None:
            invitation = self.invitations.get(game)
            plan = self.by_mail.get(invitation.mail) if invitation is not None else None
            if plan is not None:
                plan.game = game
                self.by_game[game] = plan
        return plan

    def _next_move(self, plan: Plan, game: str) -> None:
        replayed = self.store.load(game)
        state = replayed.state
        if state.status == "finished":
            if game not in self.ended:
                self.ended.add(game)
                self.running.discard(game)
                self.figures.games["finished"] += 1
                for player in replayed.record.players:
                    person = self.people.get(player.email.lower())
                    if person is not None and self.rng.random() < 0.3:
                        self._at(self._later(person), "after_end", game, person.address)
            return
        player = replayed.record.players[state.to_move]
        if player.bot is not None or (game, state.turn) in self.waiting:
            return
        address = player.email.lower()
        if plan.quits is not None and plan.quits[0] == address and state.turn >= plan.quits[1]:
            return  # gone quiet: the deadline will tell
        person = self.people[address]
        self.waiting.add((game, state.turn))
        self._at(self._later(person), "move", game, state.turn, address)
        if self.rng.random() < 0.02:  # someone else writes a move out of turn
            others = [p.email.lower() for p in replayed.record.players if p.bot is None]
            others.remove(address)
            if others:
                self._at(self._later(person, 0.5), "out_of_turn", game, self.rng.choice(others))

    # -- running it --------------------------------------------------------------------------

    def look(self) -> None:
        """One look of the service at the simulated time: what is waiting, once."""
        began, began_cpu = time.perf_counter(), time.process_time()
        parts = self.costs.so_far
        asyncio.run(self.service.run(once=True))
        wall, cpu = time.perf_counter() - began, time.process_time() - began_cpu
        self.costs.looks.append((self.t, cpu, cpu - (self.costs.so_far - parts)))
        self.figures.service_wall += wall
        self.figures.service_cpu += cpu

    def run(self) -> Figures:
        scale, figures = self.scale, self.figures
        began = time.perf_counter()
        self._plans()
        for person in self.people.values():
            if person.holiday is not None and person.says_away:
                self._at(person.holiday[0] - 600, "holiday", person.address, True)
                self._at(person.holiday[1] + 3600, "holiday", person.address, False)
            for _ in range(int(self.rng.expovariate(1.0) * scale.days / 10)):
                self._at(self.rng.uniform(0, scale.span), "referee_command", person.address)
        step = scale.look_minutes * 60.0
        looks = int(scale.span // step)
        fill = scale.mails * 0.999
        next_day, middle = 0.0, False
        for n in range(looks + 1):
            self.t = n * step
            while self.events and self.events[0][0] <= self.t:
                _, _, action, args = heapq.heappop(self.events)
                self.happen(action, args)
            behind = fill * (self.t / scale.span) - sum(figures.delivered.values())
            if behind > 0:
                self._spam(int(behind))
            self.look()
            self.react(self.collect())
            if n == 0:
                self.snapshot("start")
            if self.t >= next_day:
                self.snapshot_day()
                next_day += 86400.0
            if not middle and self.t >= scale.span / 2:
                middle = True
                self.snapshot("middle")
        self.t += step  # one more look: what the last one queued, and the inbox emptied
        self.look()
        self.collect()
        self.snapshot_day()
        self.snapshot("end")
        figures.wall = time.perf_counter() - began
        self.expected.close()
        self.answers.close()
        self.costs.close()
        self.check()
        self.tables()
        return figures

    def idle_look(self) -> None:
        """One more look at the end with nothing in the inbox, profiled (judging on this
        thread, where the profiler looks): what a look costs beside mails, and where it goes,
        once every game of the soak is on disk."""
        self.t += self.scale.look_minutes * 60.0
        profile = cProfile.Profile()
        executor = referee.service.ThreadPoolExecutor
        referee.service.ThreadPoolExecutor = InlineExecutor  # type: ignore[misc]
        try:
            began = time.process_time()
            profile.enable()
            asyncio.run(self.service.run(once=True))
            profile.disable()
            took = time.process_time() - began
        finally:
            referee.service.ThreadPoolExecutor = executor  # type: ignore[misc]
        self.collect()
        ours = [
            (f"{Path(where).stem}.{name}", calls, cumulative)
            for (where, _, name), (_, calls, _, cumulative, _) in pstats.Stats(
                profile
            ).stats.items()  # type: ignore[attr-defined]
            if "/referee/" in where and name not in ("run", "_once", "_on_judging_thread")
        ]
        ours.sort(key=lambda found: -found[2])
        self.figures.idle = {
            "cpu_ms": 1000 * took,
            "games": len(self.store.game_ids()),
            "turns": sum(self.store.load(game).state.turn for game in self.store.game_ids()),
            "top": ours[:12],
        }

    def snapshot(self, when: str) -> None:
        resident, peak = rss()
        if tracemalloc.is_tracing():
            self.traced[when] = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            if when == "end" and "middle" in self.traced:
                grown = self.traced["end"].compare_to(self.traced["middle"], "traceback")
                total = sum(stat.size_diff for stat in grown) / 1024
                self.figures.grown = (
                    [f"{total:+9.0f} KiB in all, of which:"]
                    + [
                        f"{stat.size_diff / 1024:+9.0f} KiB {stat.count_diff:+8d} blocks  "
                        + " <- ".join(  # (the place that allocated first, then its callers)
                            f"{Path(frame.filename).name}:{frame.lineno}"
                            for frame in reversed(stat.traceback)
                        )
                        for stat in grown[:25]
                    ]
                )
        self.figures.snapshots.append(
            {
                "when": when,
                "day": self.t / 86400,
                "rss_kib": resident,
                "peak_kib": peak,
                "mails": sum(self.figures.delivered.values()),
                "games": len(self.store.game_ids()),
                "running": len(self.running),
                "files": kept_files(self.games_dir, self.mail_dir),
            }
        )

    def snapshot_day(self) -> None:
        today = [(cpu, rest) for t, cpu, rest in self.costs.looks if t > self.t - 86400]
        files = kept_files(self.games_dir, self.mail_dir)
        mail_files = sum(n for part, (n, _) in files.items() if part.startswith(".mail"))
        self.figures.daily.append(
            {
                "day": round(self.t / 86400, 1),
                "mails": sum(self.figures.delivered.values()),
                "games": len(self.store.game_ids()),
                "running": len(self.running),
                "rss_mib": rss()[0] / 1024,
                "mail_files": mail_files,
                "trail_files": files["<game>/trail"][0],
                "look_ms": 1000 * sum(c for c, _ in today) / max(1, len(today)),
                "rest_ms": 1000 * sum(r for _, r in today) / max(1, len(today)),
            }
        )
        print(_daily_line(self.figures.daily[-1]), flush=True)

    # -- checking ------------------------------------------------------------------------------

    def check(self) -> None:
        """Every mail filed once and none left; every move played once; no mail answered
        twice; every file kept explained."""
        figures, problems = self.figures, self.figures.problems
        left = os.listdir(self.mail_dir / "inbox")
        if left:
            problems.append(f"{len(left)} mail(s) left in the inbox: {left[:3]}")
        filed = sum(len(os.listdir(self.mail_dir / f)) for f in ("done", "refused", "quarantine"))
        delivered, cleared = sum(figures.delivered.values()), self.costs.cleared
        figures.cleared = cleared
        if filed + cleared != delivered:
            problems.append(f"{delivered} mails delivered, {filed} filed and {cleared} cleared")
        self._check_moves()
        answered = Counter(Path(self.logs / "answers").read_text().splitlines())
        twice = [pair for pair, n in answered.items() if n > 1]
        if twice:
            problems.append(f"{len(twice)} mail(s) answered more than once: {twice[:3]}")
        figures.letters["answering our mails"] = sum(answered.values())
        self._explain()

    def _check_moves(self) -> None:
        expected: dict[str, set[str]] = defaultdict(set)
        for line in Path(self.logs / "moves").read_text().splitlines():
            game, message_id = line.split("\t")
            expected[game].add(message_id)
        problems, turns = self.figures.problems, self.figures.turns
        for game in self.store.game_ids():
            replayed = self.store.load(game)
            by_mail = Counter(
                t.source.message_id for t in replayed.turns if t.source.kind == "mail"
            )
            for turn in replayed.turns:
                turns[turn.source.kind + (" (stand-in)" if turn.source.stand_in else "")] += 1
            twice = [m for m, n in by_mail.items() if n > 1]
            if twice:
                problems.append(f"game {game}: mail(s) played twice: {twice[:3]}")
            strange = set(by_mail) - expected[game]
            if strange:
                problems.append(
                    f"game {game}: turns from mail not sent as a move: {sorted(strange)[:3]}"
                )
            missing = expected[game] - set(by_mail)
            if missing:
                said = self._trail_says(game, missing)
                problems.append(f"game {game}: move mail(s) not played: {said[:3]}")
        self.figures.games["in the folder"] = len(self.store.game_ids())
        self.figures.games["running at the end"] = len(self.running)

    def _trail_says(self, game: str, mails: set[str]) -> list[str]:
        """What the trail of ``game`` says of ``mails``: each one's ruling and why."""
        said = []
        folder = self.games_dir / game / "trail" / "in"
        for path in sorted(folder.iterdir()) if folder.is_dir() else []:
            body = json.loads(path.read_bytes())
            if body.get("message_id") in mails:
                said.append(f"{body['message_id']} {body['ruling']}: {body['why']} {body['lines']}")
        return said or sorted(mails)

    def _explain(self) -> None:
        """Every file kept in ``.mail/`` is one the rules keep: of a game still running or
        that ended less than EXPIRE_AFTER (and a sweep) ago, written less than that long ago,
        or a day's limits younger than LIMITS_KEPT; each trail within its caps."""
        now, slack = self.now(), SWEEP_EVERY + timedelta(minutes=self.scale.look_minutes)
        keep_for = (EXPIRE_AFTER + slack).total_seconds()
        ends: dict[str, float | None] = {}

        def ended(game: str) -> float | None:
            if game not in ends:
                if not self.store.has(game):
                    ends[game] = 0.0
                else:
                    replayed = self.store.load(game)
                    finished = replayed.state.status == "finished"
                    ends[game] = (
                        replayed.turns[-1].at.timestamp() if finished and replayed.turns else None
                    )
            return ends[game]

        def over(game: str | None, written: float) -> bool:
            if game is not None:
                end = ended(game)
                if end is None:
                    return False
                written = max(written, end)
            return now.timestamp() - written > keep_for

        mail = self.games_dir / ".mail"
        counts: Counter[str] = Counter()
        for folder in ("seen", "aside"):
            for path in _files(mail / folder):
                note = note_of(path.read_text())
                game = note.get("game")
                reason = (
                    "running" if game and ended(game) is None else "ended" if game else "no game"
                )
                counts[f"{folder}: {reason}"] += 1
                if folder == "aside" and note.get("kind") == "set aside":
                    continue
                if over(game, path.stat().st_mtime):
                    self.figures.problems.append(f".mail/{folder}/{path.name} outlived expiry")
        for folder in ("sent", "void"):
            for path in _files(mail / folder):
                counts[folder] += 1
                if over(None, path.stat().st_mtime):
                    self.figures.problems.append(f".mail/{folder}/{path.name} outlived expiry")
        for path in _files(mail / "threads"):
            game = path.name.rsplit(".", 1)[0]
            counts["threads: " + ("running" if ended(game) is None else "ended")] += 1
            if over(game, path.stat().st_mtime):
                self.figures.problems.append(f".mail/threads/{path.name} outlived expiry")
        oldest = (now - LIMITS_KEPT - slack).date()
        for day in [p.name for p in _files(mail / "limits")]:
            counts["limits (days)"] += 1
            if datetime.fromisoformat(day).date() < oldest:
                self.figures.problems.append(f".mail/limits/{day} outlived expiry")
        for folder in ("done", "refused", "quarantine"):  # (none set aside in a soak)
            for path in _files(self.mail_dir / folder):
                if over(None, path.stat().st_mtime):
                    self.figures.problems.append(f"mail/{folder}/{path.name} outlived expiry")
        self._explain_trails(counts)
        self._explain_games_notes(counts, over)
        self.figures.explained = {k: str(v) for k, v in sorted(counts.items())}

    def _explain_trails(self, counts: Counter[str]) -> None:
        for game in self.store.game_ids():
            replayed = self.store.load(game)
            players = {p.email.lower() for p in replayed.record.players}
            kept: Counter[str] = Counter()
            folder = self.games_dir / game / "trail" / "in"
            for path in folder.iterdir() if folder.is_dir() else []:
                body = json.loads(path.read_bytes())
                counts["trail in: " + body["ruling"]] += 1
                if body["ruling"] != "played":
                    address = str(body["address"]).lower()
                    kept[address if address in players else "others"] += 1
            for who, n in kept.items():
                cap = KEPT_FROM_OTHERS if who == "others" else KEPT_PER_PLAYER
                if n > cap:
                    self.figures.problems.append(
                        f"trail of {game}: {n} kept from {who} (cap {cap})"
                    )
            out = self.games_dir / game / "trail" / "out"
            counts["trail out (files)"] += len(os.listdir(out)) if out.is_dir() else 0

    def _explain_games_notes(
        self, counts: Counter[str], over: Callable[[str | None, float], bool]
    ) -> None:
        """The ledger's notes about games, and the invitations: kept while their game runs
        (or the invitation is open), and four weeks after."""
        for folder in GAME_NOTES:
            for path in _files(self.games_dir / ".mail" / folder):
                game = path.name.split(".")[0]
                state = "running" if game in self.running else "ended or never started"
                counts[f"ledger {folder}: {state}"] += 1
                if over(game, path.stat().st_mtime):
                    self.figures.problems.append(f".mail/{folder}/{path.name} outlived expiry")
        for game in self.invitations.ids():
            invitation = self.invitations.get(game)
            ended = invitation.ended if invitation is not None else None
            counts[f"invitations: {invitation.status if invitation else 'unreadable'}"] += 1
            if ended is not None and over(game, ended.timestamp()):
                self.figures.problems.append(f".invitations/{game} outlived expiry")

    # -- the tables ------------------------------------------------------------------------------

    def tables(self) -> None:
        figures, costs = self.figures, self.costs
        letters: dict[tuple[str, int], list[float]] = defaultdict(list)
        for game, turn, cpu, _ in costs.read("letters-cpu"):
            letters[(game, turn)].append(cpu)
        order = {p.game: p.started for p in self.plans if p.game and p.started is not None}
        seats = {game: len(self.store.load(game).record.players) for game in order}
        started = len(order)
        most = min(100, started // 2)
        rows: dict[int, list[Entry]] = defaultdict(list)
        firsts: dict[str, list[Entry]] = defaultdict(list)
        when: dict[tuple[int, int], list[float]] = defaultdict(list)  # (length, third) -> cpu
        for game, turn, cpu, third in costs.read("moves-cpu"):
            when[(min(2, (turn - 1) // 30), third)].append(cpu)
            told = letters.get((game, turn), [])
            entry = Entry(cpu, sum(told), len(told), seats.get(game, 0))
            rows[(turn - 1) // BUCKET].append(entry)
            index = order.get(game)
            if index is not None and index < most:
                firsts[f"first {most} games started"].append(entry)
            if index is not None and index >= started - most:
                firsts[f"last {most} games started"].append(entry)
        figures.by_length = [
            _row(f"{b * BUCKET}-{(b + 1) * BUCKET}", rows[b]) for b in sorted(rows)
        ]
        figures.by_games = [_row(name, firsts[name]) for name in sorted(firsts)]
        thirds = max(1, len(costs.looks) // 3)
        figures.by_time = {
            f"{('turns 1-30', 'turns 31-60', 'turns 61+')[length]}": [
                _mean_ms(when[(length, third)]) for third in range(3)
            ]
            for length in range(3)
        }
        kinds = sorted({kind for kind, _ in costs.judged})
        figures.by_kind = []
        for kind in kinds:
            parts = [costs.judged.get((kind, third), [0, 0.0]) for third in range(3)]
            figures.by_kind.append(
                {
                    "kind": kind,
                    "mails": int(sum(n for n, _ in parts)),
                    "judge_ms": 1000 * sum(t for _, t in parts) / max(1, sum(n for n, _ in parts)),
                    "thirds_ms": [1000 * t / n if n else None for n, t in parts],
                }
            )
        looks = costs.looks
        figures.by_kind.append(
            {
                "kind": "look, beside mails, letters and bots (first third / last third)",
                "mails": len(looks),
                "judge_ms": 1000 * sum(r for *_, r in looks[:thirds]) / thirds,
                "last_ms": 1000 * sum(r for *_, r in looks[-thirds:]) / thirds,
            }
        )
        figures.warnings = _warnings.count
        figures.sweeps = [
            {"day": (at - self.start.timestamp()) / 86400, "cpu_ms": 1000 * cpu, "removed": n}
            for at, cpu, n in costs.sweeps
        ]


def _mean_ms(seconds: list[float]) -> float | None:
    return 1000 * sum(seconds) / len(seconds) if seconds else None


@dataclass(frozen=True)
class Entry:
    """One move by mail: the CPU seconds judging it and writing its letters, how many
    letters, and how many players its game has."""

    judge: float
    letters: float
    count: int
    seats: int


def _row(name: str, entries: list[Entry]) -> dict[str, Any]:
    """A row of the table of a move's cost: averages in ms, and judging by players."""
    n = max(1, len(entries))
    row = {
        "bucket": name,
        "moves": len(entries),
        "judge_ms": 1000 * sum(e.judge for e in entries) / n,
        "letters_ms": 1000 * sum(e.letters for e in entries) / n,
        "letters": sum(e.count for e in entries) / n,
        "letter_ms": 1000 * sum(e.letters for e in entries) / max(1, sum(e.count for e in entries)),
        "move_ms": 1000 * sum(e.judge + e.letters for e in entries) / n,
    }
    for seats in (2, 3, 4):
        some = [e.judge for e in entries if e.seats == seats]
        row[f"judge_ms_{seats}p"] = 1000 * sum(some) / len(some) if some else None
    return row


class _Warnings:
    """Counts the service's warnings and errors (a soak should have none it did not ask for)."""

    def __init__(self) -> None:
        self.count = 0
        self.first: list[str] = []


_warnings = _Warnings()


@contextlib.contextmanager
def counting_warnings() -> Iterator[_Warnings]:
    import logging

    class Counting(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            _warnings.count += 1
            if len(_warnings.first) < 5:
                _warnings.first.append(self.format(record))

    handler = Counting(logging.WARNING)
    logger = logging.getLogger("referee")
    logger.addHandler(handler)
    try:
        yield _warnings
    finally:
        logger.removeHandler(handler)


def soak(root: Path, scale: Scale, profile: bool = False) -> Figures:
    """Run one soak in ``root``: its figures, and any problem found in ``problems``; with
    ``profile``, and where an idle look's time goes at the end."""
    _warnings.count, _warnings.first = 0, []
    with counting_warnings():
        run = Soak(root, scale)
        with Instruments(run.service, run.now, run.third, run.costs):
            figures = run.run()
        if profile:
            run.idle_look()
        return figures


# -- printing ------------------------------------------------------------------------------------


def _daily_line(day: dict[str, Any]) -> str:
    return (
        f"day {day['day']:5.1f}: {day['mails']:7d} mails, {day['games']:4d} games "
        f"({day['running']} running), RSS {day['rss_mib']:6.1f} MiB, .mail {day['mail_files']:6d} "
        f"files, trails {day['trail_files']:6d} files, a look {day['look_ms']:6.1f} ms CPU "
        f"({day['rest_ms']:5.1f} ms beside mails, letters and bots)"
    )


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def report(figures: Figures) -> str:
    """The figures as text (what docs/soak.md quotes)."""
    scale, out = figures.scale, []
    mails = sum(figures.delivered.values())
    out.append(
        f"{mails} mails over {scale.days:g} simulated days, {figures.games['started']} games "
        f"started ({figures.games['finished']} finished, {figures.games['running at the end']} "
        f"running at the end), {figures.letters['sent']} letters sent"
    )
    out.append(
        f"the service: {figures.service_wall:.0f} s wall, {figures.service_cpu:.0f} s CPU: "
        f"{mails / figures.service_wall:.0f} mails/s ({mails / figures.service_cpu:.0f} per CPU "
        f"second); the whole soak {figures.wall:.0f} s"
    )
    out.append("mails in: " + ", ".join(f"{k} {v}" for k, v in sorted(figures.delivered.items())))
    out.append("turns: " + ", ".join(f"{k} {v}" for k, v in sorted(figures.turns.items())))
    out.append("")
    out.append("memory and files kept (files / KiB):")
    parts = list(figures.snapshots[0]["files"])
    out.append(
        f"{'':24}"
        + "".join(
            f"{s['when'] + ' (day ' + format(s['day'], '.0f') + ')':>24}" for s in figures.snapshots
        )
    )
    shots = figures.snapshots
    rss_cells = [f"{s['rss_kib'] / 1024:>15.1f} ({s['peak_kib'] / 1024:5.1f})" for s in shots]
    out.append(f"{'VmRSS MiB (peak)':24}" + "".join(rss_cells))
    out.append(
        f"{'games (running)':24}" + "".join(f"{s['games']:>17d} ({s['running']:4d})" for s in shots)
    )
    for part in parts:
        cells = [s["files"].get(part, (0, 0)) for s in figures.snapshots]
        out.append(f"{part:24}" + "".join(f"{n:>14d} /{b / 1024:>8.0f}" for n, b in cells))
    if figures.grown:
        out.append("")
        out.append("what the Python heap gained from the middle to the end, by where (the most):")
        out.extend(f"  {line}" for line in figures.grown)
    out.append("")
    out.append("CPU a move by mail costs, by the turn it plays (judging it; writing its letters):")
    out.append(
        f"{'turns':>24} {'moves':>7} {'judge ms':>9} {'(2p / 3p / 4p)':>21} {'letters':>8} "
        f"{'ms a letter':>12} {'letters ms':>11} {'all ms':>7}"
    )
    for row in [*figures.by_length, *figures.by_games]:
        split = " / ".join(
            "   -" if row[f"judge_ms_{n}p"] is None else f"{row[f'judge_ms_{n}p']:5.2f}"
            for n in (2, 3, 4)
        )
        out.append(
            f"{row['bucket']:>24} {row['moves']:>7d} {row['judge_ms']:>9.2f} {split:>21} "
            f"{row['letters']:>8.2f} {row['letter_ms']:>12.2f} {row['letters_ms']:>11.2f} "
            f"{row['move_ms']:>7.2f}"
        )
    out.append("")
    out.append("")
    out.append("CPU judging a move costs (ms), by its game's length and the third of the soak:")
    out.append(f"{'':>24} {'first third':>12} {'second third':>13} {'last third':>11}")
    for name, cells in figures.by_time.items():
        out.append(f"{name:>24} " + " ".join(f"{_ms(c):>12}" for c in cells))
    out.append("")
    out.append(
        "CPU judging a mail costs, by what it was (mails; ms: all, and by third of the soak):"
    )
    for row in figures.by_kind:
        thirds = " / ".join(_ms(c) for c in row.get("thirds_ms", []))
        last = f" / {row['last_ms']:.1f}" if "last_ms" in row else f" ({thirds})"
        out.append(f"  {row['kind']}: {row['mails']}, {row['judge_ms']:.2f}{last}")
    out.append("")
    out.append("what .mail/ and the trails hold at the end, by why it is kept:")
    for key, value in figures.explained.items():
        out.append(f"  {key}: {value}")
    if figures.sweeps:
        heaviest = max(figures.sweeps, key=lambda sweep: sweep["cpu_ms"])
        removed = sum(sweep["removed"] for sweep in figures.sweeps)
        out.append(
            f"the daily sweep (Spool.expire): {len(figures.sweeps)} sweeps removed {removed} "
            f"files; the heaviest {heaviest['cpu_ms']:.0f} ms CPU (day {heaviest['day']:.0f}, "
            f"{heaviest['removed']} removed), the last {figures.sweeps[-1]['cpu_ms']:.0f} ms"
        )
    out.append(
        f"mails handled more than keep_filed_days ago, cleared from the mail folder: "
        f"{figures.cleared}"
    )
    if figures.idle:
        idle = figures.idle
        out.append(
            f"an idle look at the end ({idle['games']} games, {idle['turns']} turns on disk): "
            f"{idle['cpu_ms']:.0f} ms CPU (profiled), most of it in (calls, cumulative ms):"
        )
        out += [
            f"  {name}: {calls}, {1000 * cumulative:.0f}" for name, calls, cumulative in idle["top"]
        ]
    out.append(f"service warnings and errors logged: {figures.warnings} {_warnings.first[:3]}")
    out.append("problems: " + ("none" if not figures.problems else ""))
    out += [f"  {p}" for p in figures.problems[:30]]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games proposed (default 500)")
    parser.add_argument("--mails", type=int, default=100_000, help="mails in all (default 100000)")
    parser.add_argument("--days", type=float, default=30, help="simulated days (default 30)")
    parser.add_argument("--look", type=int, default=30, help="minutes between looks (30)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", type=Path, help="run in this folder and keep it")
    parser.add_argument(
        "--trace-memory",
        type=int,
        metavar="FRAMES",
        help="trace Python's allocations (FRAMES deep; slows the run about twofold) and print "
        "what the heap gained from the middle to the end, by where it was allocated",
    )
    options = parser.parse_args()
    if options.trace_memory:
        tracemalloc.start(options.trace_memory)
    scale = Scale(options.games, options.mails, options.days, options.look, options.seed)
    with contextlib.ExitStack() as stack:
        root = options.keep or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        figures = soak(root, scale, profile=True)
    print(report(figures))
    sys.exit(1 if figures.problems else 0)


if __name__ == "__main__":
    main()
