"""Replies as people write them (tests/fixtures/replies/LANG.toml), each sent through the real
path: a reply mail from ann to her latest board, over the dir transport, judged by the
service at a position where what it means is legal; then what came of it, and whether that
is what the reply means.

The positions (tests/fixtures/replies/README.md): a four-player game from seed 11, ann to
move, reached by the moves below, recorded on 8 December 2026; the reply is read on
Wednesday 9 December 2026 at 10:00 UTC (what "until Friday" counts from).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest

from referee import games as games_module
from referee.engine import GameState, Move
from referee.games import create_game, play_move
from referee.mail.herald import MailHerald
from referee.mail.state.ledger import Ledger
from referee.mail.state.spool import Spool
from referee.mail.transports.directory import DirTransport
from referee.notation import format_move, parse
from referee.record import SourceEntry
from referee.service import Service
from referee.settings import Settings
from referee.store import Store
from tests.mail.players import deliver, latest, references

CORPUS = Path(__file__).parents[1] / "fixtures" / "replies"
LANGUAGES = ("en", "cy", "is", "eo", "bn")
PLAYERS = [(n, f"{n}@example.org") for n in ("ann", "bo", "cy", "di")]
#: The moves that reach each position from seed 11 (ann is to move after them).
POSITIONS: dict[str, list[tuple[str, str]]] = {
    "P1": [
        ("ann", "take white blue green"), ("bo", "take red black white"),
        ("cy", "take blue green red"), ("di", "take black white blue"),
        ("ann", "reserve 1-36"), ("bo", "take 2 red"), ("cy", "take white green black"),
        ("di", "take 2 blue"),
    ],
    "P2": [
        ("ann", "take white blue green"), ("bo", "take red black white"),
        ("cy", "take blue green red"), ("di", "take black white blue"),
        ("ann", "take green red black"), ("bo", "take 2 red"), ("cy", "take white green black"),
        ("di", "take 2 blue"), ("ann", "take white green black"), ("bo", "reserve 1-35"),
        ("cy", "reserve 2-03"), ("di", "reserve 3-20"),
    ],
}  # fmt: skip
RECORDED = datetime(2026, 12, 8, 10, 0, tzinfo=UTC)
NOW = datetime(2026, 12, 9, 10, 0, tzinfo=UTC)
ANN = "ann@example.org"


@dataclass(frozen=True)
class Reply:
    language: str
    number: int
    position: str
    text: str
    means: str
    why: str

    @property
    def id(self) -> str:
        return f"{self.language}-{self.number:03d}"


def replies(language: str) -> list[Reply]:
    """The corpus of ``language``, in its file's order."""
    path = CORPUS / f"{language}.toml"
    if not path.exists():
        return []
    with path.open("rb") as file:
        found = tomllib.load(file).get("reply", [])
    return [
        Reply(language, n, r["position"], r["text"], r["means"].strip(), r.get("why", ""))
        for n, r in enumerate(found, 1)
    ]


def settings(root: Path) -> Settings:
    return Settings(games_dir=root / "games", mail_dir=root / "mail", address="referee@example.net")


def build(root: Path, position: str) -> Path:
    """The games and mail folders of ``position`` under ``root`` (ann's board sent)."""
    found = settings(root)
    store = Store(found.games_dir)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(games_module, "now", lambda: RECORDED)
        create_game(store, "g1", PLAYERS, seed=11, herald=MailHerald.of(found.games_dir))
        for n, (player, text) in enumerate(POSITIONS[position]):
            play_move(
                store, "g1", player, text, SourceEntry(kind="command-line"),
                herald=MailHerald.of(found.games_dir), at=RECORDED + timedelta(minutes=n + 1),
            )  # fmt: skip
    serve(found, RECORDED + timedelta(hours=1))
    return root


def serve(found: Settings, now: datetime) -> None:
    service = Service(found, DirTransport(found.mail_dir), lambda: now)
    asyncio.run(service.run(once=True))


@dataclass(frozen=True)
class Outcome:
    """What came of a reply: the move played (canonical text), the letters that answered it
    (their kinds), ann's time away if the reply set one, and the note of its ruling."""

    played: str | None
    letters: tuple[str, ...]
    away_until: datetime | None
    ruling: str
    #: the move the referee read and asked about ("reply yes to play it"), if it asked
    asked: str | None = None

    def said(self) -> str:
        if self.played:
            return f"played {self.played}"
        if self.asked:
            return f"asked {self.asked}"
        outcome = json.loads(self.ruling).get("outcome", "") if self.ruling.startswith("{") else ""
        return f"{outcome or self.ruling} [{', '.join(self.letters)}]"


def send(template: Path, work: Path, reply: Reply, text: str | None = None) -> Outcome:
    """``reply`` (or ``text`` in its place) written by ann to her latest board, in a copy of
    the position at ``template``; judged at NOW."""
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(template, work)
    found = settings(work)
    before = Store(found.games_dir).load("g1").state.turn
    board = latest(found.mail_dir, ANN)
    mail = EmailMessage()
    mail["From"] = f"Ann <{ANN}>"
    mail["To"] = str(board["Reply-To"] or board["From"])
    mail["Subject"] = "Re: " + str(board["Subject"])
    mail["Date"] = format_datetime(NOW)
    mail["Message-ID"] = f"<{reply.id}@example.org>"
    mail["In-Reply-To"] = str(board["Message-ID"])
    mail["References"] = references(board)
    body = (text if text is not None else reply.text).strip("\n") + "\n"
    shown = board.get_body(("plain",))
    assert shown is not None
    quoted = "\n".join("> " + line for line in str(shown.get_content()).splitlines()[:20])
    mail.set_content(f"{body}\nOn Tue, 8 Dec 2026 at 11:00, Splendor referee wrote:\n{quoted}\n")
    deliver(found.mail_dir, f"{reply.id}.eml", bytes(mail))
    serve(found, NOW)
    replayed = Store(found.games_dir).load("g1")
    played = None
    if replayed.state.turn > before:
        played = replayed.turns[-1].move.text
    letters = tuple(
        body["letter"]["kind"]
        for body in _sent(found.games_dir)
        if body["letter"].get("to") == ANN  # type: ignore[union-attr]
        and body["letter"].get("origin") == f"<{reply.id}@example.org>"  # type: ignore[union-attr]
    )
    ledger = Ledger(found.games_dir / ".mail")
    aways = ledger.aways(ANN)
    note = Spool(found.games_dir).notes.seen(f"<{reply.id}@example.org>") or ""
    reading = ledger.readings("g1").get(0)
    asked = reading.move if reading is not None and reading.turn == before else None
    return Outcome(played, letters, aways[-1].until if aways else None, note, asked)


def _sent(games: Path) -> Iterator[dict[str, object]]:
    for path in sorted((games / ".mail" / "sent").glob("*.json")):
        yield json.loads(path.read_text())


def expected_move(template: Path, reply: Reply) -> Move:
    state: GameState = Store(template / "games").load("g1").state
    return parse(state, reply.means, "ann")


def verdict(template: Path, reply: Reply, outcome: Outcome) -> str:
    """``read`` (what the reply means was done), ``asked`` (the move it means was read, and
    asked about: a ``yes`` plays it), ``misread`` (something else was played, or asked
    about) or ``unread`` (nothing was done): whether the outcome is what the reply means."""
    means = reply.means
    if means.startswith("command:"):
        if outcome.played is not None and not means.endswith("resign"):
            return "misread"
        if _command_done(means.removeprefix("command:").strip(), outcome):
            return "read"
        return "asked" if means.endswith("resign") and outcome.asked == "resign" else "unread"
    if means in ("chat", "refuse"):
        return "misread" if outcome.played is not None else "read"
    wanted = format_move(expected_move(template, reply))
    if outcome.played is None:
        if outcome.asked is not None:
            return "asked" if outcome.asked == wanted else "misread"
        return "unread"
    return "read" if outcome.played == wanted else "misread"


def _command_done(command: str, outcome: Outcome) -> bool:
    word, _, argument = command.partition(" ")
    if word == "away":
        if outcome.away_until is None:
            return False
        if argument.endswith("d") and argument[:-1].isdigit():
            return outcome.away_until == NOW + timedelta(days=int(argument[:-1]))
        return outcome.away_until.date().isoformat() == argument
    if word == "resign":
        return outcome.played == "resign"
    return word in outcome.letters or word in outcome.ruling


def report(languages: tuple[str, ...] = LANGUAGES, show: str = "unread,misread") -> None:
    """Print, per language, how many replies are read, unread and misread, and each reply
    whose verdict is in ``show`` (``python -m tests.mail.corpus [LANG...]``)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        templates = {p: build(root / p, p) for p in POSITIONS}
        for language in languages:
            counts = {"read": 0, "asked": 0, "unread": 0, "misread": 0}
            for reply in replies(language):
                outcome = send(templates[reply.position], root / "work", reply)
                found = verdict(templates[reply.position], reply, outcome)
                counts[found] += 1
                if found in show.split(","):
                    text = " / ".join(line for line in reply.text.strip().splitlines() if line)
                    print(f"  {found.upper():8} {reply.id} [{reply.means}] {text[:110]}")
                    print(f"           -> {outcome.said()[:150]}")
            total = sum(counts.values()) or 1
            understood = counts["read"] + counts["asked"]
            print(
                f"{language}: {understood}/{total} read ({100 * understood / total:.0f}%: "
                f"{counts['read']} at once, {counts['asked']} asked back), "
                f"{counts['unread']} unread, {counts['misread']} misread"
            )


if __name__ == "__main__":
    import sys

    report(tuple(sys.argv[1:]) or LANGUAGES)


def outcome_of(templates: dict[str, Path], work: Path, reply: Reply) -> tuple[str, Outcome]:
    """The verdict on one reply sent through the real path, and what came of it."""
    outcome = send(templates[reply.position], work, reply)
    return verdict(templates[reply.position], reply, outcome), outcome


def language_tests(language: str, not_read_yet: set[str]) -> tuple[Any, Any]:
    """The fixture and the test of one language's corpus (each language its own module, so
    that they run side by side): every reply through the real path, none misread, each read
    (at once, or asked about) but those ``not_read_yet``, which must not be read (when one
    is, take it off the list)."""

    @pytest.fixture(scope="module")
    def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
        return {p: build(tmp_path_factory.mktemp(p), p) for p in POSITIONS}

    @pytest.mark.parametrize("reply", replies(language), ids=lambda r: r.id)
    def test_a_reply_as_people_write_it_is_never_misread_and_is_read(
        templates: dict[str, Path], tmp_path: Path, reply: Reply
    ) -> None:
        found, outcome = outcome_of(templates, tmp_path / "work", reply)
        said = f"{reply.text!r} means {reply.means}: {outcome.said()}"
        assert found != "misread", said
        if reply.id in not_read_yet:
            assert found == "unread", f"{reply.id} is read now: take it off NOT_READ_YET"
        else:
            assert found in ("read", "asked"), said

    return templates, test_a_reply_as_people_write_it_is_never_misread_and_is_read
