"""The service's durable mail state, in ``<games>/.mail/``: nothing is kept only in memory.

::

    .mail/secret              the key behind every player's routing key (made once, 0600)
    .mail/outbox/*.json       letters waiting to be sent, oldest first
    .mail/sent/*.json         letters sent
    .mail/failed/*.json       letters a server refused for good, for the game master
    .mail/void/*.json         letters whose turn was never committed (a crash in between)
    .mail/seen/<hash>         mails already handled, and what came of them (JSON)
    .mail/limits/<day>/<hash> error replies already sent that day, per sender and kind, and
                              the mail that was owed each
    .mail/threads/<game>.<seat>  the Message-IDs sent to a player, to thread the next letter
    .mail/aside/<hash>        mails refused, ignored or set aside, and why (`referee inbox`)
    .mail/retry/<id>          a game master's request to read a mail set aside again
    .mail/service.lock        held by the one service serving this games folder

A letter that announces a turn is queued *before* the turn is written, naming the turn file
and the hash it will have; it is sent only once that file exists with that hash. So the
turn and its mails commit together: a crash between the two leaves a letter that is set
aside (void), never a turn whose mails are lost. A letter that answers a mail without a move
(a refusal, a list of moves) waits in the same way for that mail's "seen" note, which names
the batch of letters it was handled with: a crash before the note leaves letters that are
set aside, and the mail is judged again; a crash after it leaves letters that go out.

Every letter's Message-ID is fixed by its file in the outbox, and noted in the player's
thread before it is sent: a letter sent again after a crash is the same message, and a
reply to it is always understood.

What is kept how long (:meth:`Spool.expire`): daily limits for two days; notes of handled
mail while their game runs and for EXPIRE_AFTER after it ends (notes of mail that named no
game, EXPIRE_AFTER after they were written); letters sent or set aside, EXPIRE_AFTER;
threads, until EXPIRE_AFTER after their game ends. Letters refused for good stay until the
game master deals with them. Nothing that keeps a move from being played twice is dropped:
that is the game's own turn files and archive.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import shutil
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from referee.errors import ConfigurationError, RequestError
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


#: How many of the Message-IDs sent to a player a letter's References name.
THREAD_KEPT = 10
#: A thread file longer than this is cut back to its last THREAD_KEPT ids.
THREAD_TRIM_AT = 100
#: How long notes, letters sent and threads are kept once they can no longer matter.
EXPIRE_AFTER = timedelta(days=28)
#: How long a day's limits on error replies are kept.
LIMITS_KEPT = timedelta(days=2)


class Spool:
    """The mail state beside the games in ``games_dir``."""

    def __init__(self, games_dir: Path, create: bool = True) -> None:
        """``create``: make the folders when first used (False: only look, for a command
        that reads what the service holds)."""
        self.games_dir = games_dir
        self.create = create
        self.root = games_dir / ".mail"
        self._threads: dict[str, list[str]] = {}  # read once, then kept (one writer)
        self._made: set[str] = set()
        self._read: dict[str, Queued] = {}  # outbox letters already read, by file name
        self._service_lock: FileLock | None = None
        self._lock = threading.RLock()  # the caches, shared by the judging and sending threads
        self._unfinished: set[str] | None = None  # mails with letters queued before we began

    def _dir(self, name: str) -> Path:
        path = self.root / name
        if name not in self._made and self.create:
            path.mkdir(parents=True, exist_ok=True)
            self._made.add(name)
        return path

    # -- the secret ---------------------------------------------------------------------------

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
        return hashlib.sha256(b"loop" + self.secret()).hexdigest()[:16]

    # -- the outbox ---------------------------------------------------------------------------

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
            note = self.seen(queued.answer.mail)
            if note is None:
                return None
            if _note(note).get("batch") != queued.answer.batch:
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
        body = _read_json(queued.path)
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
            body = _read_json(queued.path)
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
            body = _read_json(path)
            if body is not None and isinstance(body.get("letter"), dict):
                found.append({"id": letter_id(path), **body})
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

    # -- handled mail, limits, threads ---------------------------------------------------------

    def seen(self, message_key: str) -> str | None:
        """What came of a mail already handled, or None."""
        path = self._dir("seen") / _hash(message_key)
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
                self._dir("seen") / _hash(message_key), json.dumps(note).encode(), durable=durable
            )

    def allow_error_reply(self, sender: str, kind: str, day: date, mail: str) -> bool:
        """True the first time on ``day`` a sender is owed an error reply of this kind, and
        for the same ``mail`` again (its answer was cut short by a crash): the note names the
        mail that was owed the reply."""
        path = self._dir(f"limits/{day.isoformat()}") / _hash(f"{sender.lower()}\x00{kind}")
        try:
            write_new(path, json.dumps({"kind": kind, "mail": mail}).encode())
        except FileExistsError:
            return _note(path.read_text()).get("mail") == mail
        return True

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

    # -- mail set aside, refused or ignored, for the game master --------------------------------

    def note_aside(self, mail: str, record: dict[str, Any]) -> str:
        """Keep what a game master needs to know of a mail not played (``record``: kind,
        sender, subject, reason, the transport's folder and handle…); its short id."""
        short = _hash(mail)[:8]
        body = {"id": short, "mail": mail, **record}
        write_over(self._dir("aside") / _hash(mail), json.dumps(body).encode())
        return short

    def aside(self) -> list[dict[str, Any]]:
        """Every mail noted as refused, ignored or set aside, newest first."""
        found = [b for p in self._dir("aside").glob("*") if (b := _read_json(p)) is not None]
        return sorted(found, key=lambda b: str(b.get("at", "")), reverse=True)

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
        asked = set(_listdir(self._dir("retry")))
        return [b for b in self.aside() if b.get("id") in asked] if asked else []

    def forget_seen(self, mail: str) -> None:
        """Forget that a mail was handled, so that it is judged again when it comes back."""
        (self._dir("seen") / _hash(mail)).unlink(missing_ok=True)

    def forget(self, mail: str) -> None:
        """Forget a mail handed back to be read again: its notes and the request go."""
        self.forget_seen(mail)
        (self._dir("aside") / _hash(mail)).unlink(missing_ok=True)
        (self._dir("retry") / _hash(mail)[:8]).unlink(missing_ok=True)

    # -- one service per games folder ----------------------------------------------------------

    def hold_service_lock(self, started: datetime) -> None:
        """Become the one service of this games folder; ConfigurationError naming the other
        one when it is already served (starting again will not help while it runs, so the
        unit does not restart on it: exit 78)."""
        self.root.mkdir(parents=True, exist_ok=True)
        lock = FileLock(self.root / "service.lock")
        try:
            lock.acquire(timeout=0)
        except Timeout:
            holder = _note(_read_text(self.root / "service.json"))
            who = f" (pid {holder.get('pid')}, since {holder.get('since')})" if holder else ""
            raise ConfigurationError(
                f"another referee service{who} is serving the games folder {self.games_dir}: "
                "one service per games folder; stop it first, or give this one another "
                "--games-dir"
            ) from None
        self._service_lock = lock
        self._unfinished = {q.letter.origin for q in self.pending() if q.letter.origin}
        write_over(
            self.root / "service.json",
            json.dumps({"pid": os.getpid(), "since": started.isoformat()}).encode(),
        )

    def release_service_lock(self) -> None:
        if self._service_lock is not None:
            self._service_lock.release()
            self._service_lock = None

    # -- expiry --------------------------------------------------------------------------------

    def expire(self, now: datetime, finished: Callable[[str], datetime | None]) -> int:
        """Remove what can no longer matter (see the module's docstring); how many files.
        ``finished(game)`` is when the game ended (or went away), None while it runs."""
        removed = 0
        for day in _listdir(self._dir("limits")):
            with contextlib.suppress(ValueError):
                if date.fromisoformat(day) < (now - LIMITS_KEPT).date():
                    shutil.rmtree(self._dir("limits") / day, ignore_errors=True)
                    removed += 1
        ends: dict[str, datetime | None] = {}

        def over(game: str | None, written: float) -> bool:
            """Whether a note of ``game`` written at ``written`` can no longer matter."""
            if game is not None:
                if game not in ends:
                    ends[game] = finished(game)
                end = ends[game]
                if end is None:
                    return False
                written = max(written, end.timestamp())
            return now.timestamp() - written > EXPIRE_AFTER.total_seconds()

        awaited = {_hash(q.answer.mail) for q in self.pending() if q.answer is not None}
        for path in _files(self._dir("seen")):
            if path.name in awaited:
                continue  # letters still wait for this note
            if over(_note(_read_text(path)).get("game"), _mtime(path)):
                removed += _remove(path)
        for path in _files(self._dir("aside")):
            note = _note(_read_text(path))
            if note.get("kind") != "set aside" and over(note.get("game"), _mtime(path)):
                removed += _remove(path)  # a mail set aside waits for the game master
        for folder in ("sent", "void"):
            for path in _files(self._dir(folder)):
                if over(None, _mtime(path)):
                    removed += _remove(path)
        for path in _files(self._dir("threads")):
            game = path.name.rsplit(".", 1)[0]
            if over(game, _mtime(path)):
                with self._lock:
                    self._threads.pop(path.name, None)
                    removed += _remove(path)
        return removed


def letter_id(path: Path) -> str:
    """The short id of a letter's file, as `referee outbox` shows it (its random part)."""
    return path.stem.rsplit("-", 1)[-1]


def _queued(path: Path) -> Queued | None:
    """The letter in an outbox file, or None when the file holds no letter."""
    body = _read_json(path)
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


def _note(text: str | None) -> dict[str, Any]:
    """A JSON note, or {} (an older note in plain text, or none)."""
    if not text:
        return {}
    try:
        body = json.loads(text)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text()
    except (OSError, UnicodeError):
        return None


def _listdir(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except FileNotFoundError:
        return []


def _files(folder: Path) -> list[Path]:
    return [folder / n for n in _listdir(folder) if not n.startswith(".")]


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return time.time()


def _remove(path: Path) -> int:
    try:
        path.unlink()
    except OSError:  # gone already, or not ours to remove: left for the game master
        return 0
    return 1


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        body = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return body if isinstance(body, dict) else None
