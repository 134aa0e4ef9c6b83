"""The outbox: letters waiting to be sent, and how a letter commits with what it announces.

::

    .mail/outbox/*.json       letters waiting to be sent, oldest first
    .mail/sent/*.json         letters sent
    .mail/failed/*.json       letters a server refused for good, for the game master
    .mail/void/*.json         letters whose turn was never committed (a crash in between)

A letter that announces a turn is queued *before* the turn is written, naming the turn file
and the hash it will have; it is sent only once that file exists with that hash. So the
turn and its letters commit together: a crash between the two leaves a letter that is set
aside (void), never a turn whose letters are lost. A letter that answers a mail without a
move (a refusal, a list of moves) waits in the same way for that mail's "seen" note
(:mod:`referee.mail.state.notes`), which names the batch of letters it was handled with: a crash
before the note leaves letters that are set aside, and the mail is judged again; a crash
after it leaves letters that go out.

A letter waits as data (:class:`~referee.wording.letter.Letter`); the postman words it when
it sends it. Every letter's Message-ID is fixed by its file in the outbox.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
import uuid
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from referee.errors import RequestError
from referee.mail.state.mailfiles import Ages, Folders, files, mtime, note_of, read_json, remove
from referee.mail.state.notes import Notes
from referee.record import digest
from referee.store import fsync_dir, write_new, write_over
from referee.wording.letter import Letter, Written
from referee.wording.messages import Message


@dataclass(frozen=True)
class Commit:
    """The turn a letter depends on: sent only once ``turns/NNNN.toml`` of ``game`` exists
    with this hash."""

    game: str
    turn: int
    sha256: str


@dataclass(frozen=True)
class Answer:
    """The mail a letter answers, when no turn was played: the letter is sent only once that
    mail's "seen" note exists and names ``batch``, the letters it was handled with."""

    mail: str
    batch: str


@dataclass(frozen=True)
class Queued:
    """A letter in the outbox, with what it waits for and how often sending it has failed."""

    path: Path
    letter: Letter
    commit: Commit | None
    attempts: int
    not_before: float
    answer: Answer | None = None
    #: A letter queued worded already, by a referee before letters were queued as data: it
    #: goes out as it is.
    written: Written | None = None

    @property
    def key(self) -> str:
        """What makes this letter's Message-ID: its file's name, unique and never reused."""
        return hashlib.sha256(self.path.name.encode()).hexdigest()[:12]


class Outbox:
    """The letters of the games in ``games_dir``: queued, waiting, sent or refused."""

    def __init__(self, games_dir: Path, notes: Notes, create: bool = True) -> None:
        self.games_dir = games_dir
        self.notes = notes
        self._dir = Folders(games_dir / ".mail", create)
        self._read: dict[str, Queued] = {}  # letters already read, by file name
        self._lock = threading.RLock()  # the cache, shared by the judging and sending threads
        self._unfinished: set[str] | None = None  # mails with letters queued before we began

    def begin(self) -> None:
        """Note, as the service starts, which mails have letters waiting from before: only
        those can have letters of a judging cut short by a crash (see void_unsent)."""
        self._unfinished = {q.letter.origin for q in self.pending() if q.letter.origin}

    def queue(
        self, letters: list[Letter], commit: Commit | None = None, answer: Answer | None = None
    ) -> list[Path]:
        """Queue letters durably, in order; sent once ``commit`` or ``answer`` is met."""
        paths = [
            self._put(mail.to_json(), mail.game, mail.turn, commit, answer) for mail in letters
        ]
        if paths:
            fsync_dir(self._dir("outbox"))
        return paths

    def _queue_worded(
        self, letter: Letter, written: Written, commit: Commit | None, answer: Answer | None
    ) -> None:
        """Queue again a letter an older referee queued worded already, as it was."""
        body = {
            "game": letter.game,
            "seat": letter.seat,
            "to": written.to,
            "name": written.name,
            "turn": letter.turn,
            "kind": letter.kind,
            "subject": written.subject,
            "text": written.text,
            "html": written.html,
            "answers": letter.answers,
            "origin": letter.origin,
        }
        self._put(body, letter.game, letter.turn, commit, answer)
        fsync_dir(self._dir("outbox"))

    def _put(
        self,
        letter: dict[str, Any],
        game: str,
        turn: int,
        commit: Commit | None,
        answer: Answer | None,
    ) -> Path:
        stamp = f"{time.time_ns():020d}"
        name = f"{stamp}-{game or 'none'}-{turn:04d}-{uuid.uuid4().hex[:8]}.json"
        body = {
            "letter": letter,
            "commit": asdict(commit) if commit else None,
            "answer": asdict(answer) if answer else None,
            "attempts": 0,
            "not_before": 0.0,
        }
        path = self._dir("outbox") / name
        write_new(path, json.dumps(body).encode(), sync_dir=False, unique_name=True)
        return path

    def pending(self) -> list[Queued]:
        """The letters waiting, oldest first. A letter's file is read once: it changes only
        through :meth:`retry_later`, which notes the change."""
        outbox = self._dir("outbox")
        names = sorted(n for n in os.listdir(outbox) if n.endswith(".json") and n[0] != ".")
        found = []
        with self._lock:
            for name in names:
                queued = self._read.get(name)
                if queued is None:
                    queued = _queued(outbox / name)
                    if queued is None:
                        self._set_aside(outbox / name)
                        continue
                    self._read[name] = queued
                found.append(queued)
            for name in self._read.keys() - set(names):
                self._read.pop(name, None)  # settled, by this service or another
        return found

    def _set_aside(self, path: Path) -> None:
        """Move an outbox file that is not a letter (damaged, or written by hand) to
        ``void/``, where the game master can look at it."""
        with contextlib.suppress(FileNotFoundError):
            os.rename(path, self._dir("void") / f"unreadable-{path.name}")

    def committed(self, queued: Queued) -> bool | None:
        """Whether the letter may go out: True; False (never: its turn file is another's,
        or its mail was handled with other letters, after a crash); None (not yet: wait).
        True only while the letter is still in the outbox, so that a letter set aside while
        its turn was being written again is never sent."""
        if queued.commit is not None:
            commit = queued.commit
            path = self.games_dir / commit.game / "turns" / f"{commit.turn:04d}.toml"
            if not path.exists():
                return None
            if digest(path.read_bytes()) != commit.sha256:
                return False
        if queued.answer is not None:
            note = self.notes.seen(queued.answer.mail)
            if note is None:
                return None
            if note_of(note).get("batch") != queued.answer.batch:
                return False
        return queued.path.exists()

    def batch_of(self, origin: str) -> str | None:
        """The batch of the letters waiting to answer the mail ``origin`` (the latest
        queued, if several were), or None when none waits."""
        batches = [
            q.answer.batch
            for q in self.pending()
            if q.letter.origin == origin and q.answer is not None and q.answer.mail == origin
        ]
        return batches[-1] if batches else None

    def void_unsent(self, origin: str, why: str) -> int:
        """Set aside every letter queued for the mail ``origin`` that is not due to go out:
        letters of an earlier judging of that mail cut short by a crash. How many."""
        if self._unfinished is not None and origin not in self._unfinished:
            return 0  # only a service before this one can have left letters of a mail unsent
        return self.void_letters_of(origin, why)

    def void_letters_of(self, origin: str, why: str) -> int:
        """Set aside the letters queued for the mail ``origin`` that are not due to go out
        (their turn or note was never written). How many."""
        voided = 0
        for queued in self.pending():
            if queued.letter.origin == origin and self.committed(queued) is not True:
                self.settle(queued, "void", error=why)
                voided += 1
        return voided

    def settle(self, queued: Queued, folder: str, **extra: Any) -> Path:
        """Move a letter out of the outbox into ``folder`` (sent, failed, void), noting
        ``extra`` (the server's answer, why it was set aside). A letter sent is only moved:
        one step on the disk, and a lost move costs at most sending it again."""
        target = self._dir(folder) / queued.path.name
        with self._lock:
            self._read.pop(queued.path.name, None)
        if not extra:
            with contextlib.suppress(FileNotFoundError):
                os.rename(queued.path, target)
            return target
        body = read_json(queued.path)
        if body is None:
            return target  # settled meanwhile: nothing left to move
        body.update(extra)
        with contextlib.suppress(FileExistsError):
            write_new(target, json.dumps(body).encode())
        queued.path.unlink(missing_ok=True)
        return target

    def retry_later(self, queued: Queued, error: str, delay: float) -> None:
        """Count a failed attempt and wait ``delay`` seconds before the next."""
        with self._lock:
            body = read_json(queued.path)
            if body is None:
                return  # settled meanwhile: not to be made again
            body.update(attempts=queued.attempts + 1, not_before=time.time() + delay, error=error)
            write_over(queued.path, json.dumps(body).encode())
            self._read.pop(queued.path.name, None)

    def waiting(self) -> list[dict[str, Any]]:
        """Letters not sent yet, with their failed attempts and ids: for the game master."""
        return self._listed("outbox")

    def failed(self) -> list[dict[str, Any]]:
        """Letters a server refused for good, with their ids: for the game master."""
        return self._listed("failed")

    def _listed(self, folder: str) -> list[dict[str, Any]]:
        found = []
        for path in sorted(self._dir(folder).glob("*.json")):
            body = read_json(path)
            if body is not None and isinstance(body.get("letter"), dict):
                when = queued_at(path)
                at = when.isoformat() if when else None
                found.append({"id": letter_id(path), "queued_at": at, **body})
        return found

    def resend(self, letter: str, to: str | None = None) -> Letter:
        """Queue again the letter ``letter`` (its id) that a server refused for good, to
        ``to`` if given; the letter, as queued. RequestError when there is no such letter."""
        matches = [p for p in self._dir("failed").glob("*.json") if letter_id(p) == letter]
        queued = _queued(matches[0]) if matches else None
        if queued is None:
            ids = ", ".join(letter_id(p) for p in sorted(self._dir("failed").glob("*.json")))
            raise RequestError(
                f"no letter {letter!r} was refused for good (those that were: {ids or 'none'}); "
                "'referee outbox' lists them"
            )
        again = replace(queued.letter, to=to or queued.letter.to)
        if queued.written is not None:  # worded by an older referee: kept as it was
            worded = replace(queued.written, to=again.to)
            self._queue_worded(again, worded, queued.commit, queued.answer)
        else:
            self.queue([again], queued.commit, queued.answer)
        queued.path.unlink()
        return again

    def awaited_notes(self) -> set[str]:
        """The mails whose "seen" notes letters still wait for (they are kept)."""
        return {q.answer.mail for q in self.pending() if q.answer is not None}

    def expire(self, ages: Ages) -> int:
        """Remove letters sent or set aside that can no longer matter; how many."""
        removed = 0
        for folder in ("sent", "void"):
            for path in files(self._dir(folder)):
                if ages.over(None, mtime(path)):
                    removed += remove(path)
        return removed


def queued_at(path: Path) -> datetime | None:
    """When a letter was queued: the time its file's name begins with."""
    try:
        return datetime.fromtimestamp(int(path.name.split("-", 1)[0]) / 1e9, UTC)
    except ValueError:
        return None


def letter_id(path: Path) -> str:
    """The short id of a letter's file, as `referee outbox` shows it (its random part)."""
    return path.stem.rsplit("-", 1)[-1]


def _queued(path: Path) -> Queued | None:
    """The letter in an outbox file, or None when the file holds no letter."""
    body = read_json(path)
    if body is None:
        return None
    try:
        letter, written = _letter(body["letter"])
        return Queued(
            path,
            letter,
            Commit(**body["commit"]) if body.get("commit") else None,
            int(body["attempts"]),
            float(body["not_before"]),
            Answer(**body["answer"]) if body.get("answer") else None,
            written,
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _letter(body: dict[str, Any]) -> tuple[Letter, Written | None]:
    """A letter as queued: as data, or (queued by an older referee) worded already."""
    if "text" not in body:
        return Letter.from_json(body), None
    written = Written(
        body["to"],
        body["name"],
        body["subject"],
        body["text"],
        body.get("html"),
        body.get("kind", ""),
        body.get("language", "en"),
    )
    letter = Letter(
        game=body["game"],
        seat=body.get("seat"),
        to=body["to"],
        name=body["name"],
        turn=int(body["turn"]),
        kind=body.get("kind", ""),
        subject=Message("error.said", {"text": body["subject"]}),
        answers=body.get("answers"),
        origin=body.get("origin"),
    )
    return letter, written
