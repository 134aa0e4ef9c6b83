"""The games folder on disk: one folder per game, written atomically, append-only, locked.

::

    games/<id>/game.toml             the game record (written once)
    games/<id>/turns/0001.toml       one file per accepted move (written once, never changed)
    games/<id>/archive/<stamp>-to-N/ turns undone by a rollback, with rollback.toml (why)
    games/<id>/amendments/0001.toml  changes to game.toml's players (an address), with why
    games/<id>/.lock                 the per-game lock (filelock)
    games/<id>/.over.json            once the game is over: what it came to (a cache)

Every file is written to a temporary name, flushed to disk, then linked into place, which
fails rather than overwrite; the folder is flushed after. A writer killed at any instant
leaves either the whole file or none (a stray ``.*.tmp`` that readers skip). Writers of one
game are serialised by a lock; even without it, two writers cannot both write turn N.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import os
import re
import shutil
import tomllib
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import tomli_w
from filelock import FileLock, Timeout

from referee.engine import GameState
from referee.errors import ConflictError, RecordError, StoreError
from referee.failpoints import failpoint
from referee.finish import Finish, finish_of
from referee.record import (
    GAME_ID,
    GameRecord,
    Replayed,
    TurnRecord,
    amended,
    dump,
    load_game,
    load_turn,
    replay,
    replay_more,
)

LOCK_TIMEOUT = 10.0

#: How many games a remembering store keeps loaded at most, the least recently loaded
#: forgotten first: more than a busy service has in play. Games over are not kept at all.
REMEMBERED_AT_MOST = 1000

#: The note a game folder keeps once its game is over: what it came to (a :class:`Finish`)
#: and the stamps of game.toml, ``turns/``, ``amendments/`` and the last turn file when that
#: was read. Only a cache: a note whose stamps are not the files' (a rollback, an address
#: amended, a copied folder) is not believed, and the game is replayed and noted again.
OVER_NOTE = ".over.json"


#: What identifies one version of a file: a changed, replaced or touched file changes its
#: ctime, which no program can set back.
FileStamp = tuple[int, int, int, int]


@dataclass(frozen=True)
class _Over:
    """What is known of a game over: the stamps its note was written with, its last turn
    file (name and stamp; None: no turn), the note's own stamp, and, only where no note
    could be written, what the game came to."""

    stamps: OverStamps
    last: tuple[str, FileStamp] | None
    note: FileStamp | None
    finish: Finish | None = None


#: The stamps an over-note is believed by: game.toml's, ``turns/``'s and ``amendments/``'s
#: (None while it has none). A folder's stamp changes whenever a file comes into it or
#: leaves it.
OverStamps = tuple[FileStamp, FileStamp, FileStamp | None]


@dataclass(frozen=True)
class Glance:
    """A game's files at a glance: the stamps of game.toml and ``turns/``, and the name and
    stamp of its last turn file (None: no turn yet). See :meth:`Store.glance`."""

    game_file: FileStamp
    turns: FileStamp
    last: tuple[str, FileStamp] | None


@dataclass(frozen=True)
class _Remembered:
    game_file: FileStamp
    turn_files: list[tuple[str, FileStamp]]
    replayed: Replayed


class Store:
    """The games under ``root`` (created on first write).

    With ``remember``, a game once loaded is kept, and loading it again replays only the
    turn files written since (a long-running service loads a game at every move); should
    any file it read before have changed, been replaced or gone, the game is loaded whole
    again. Only games in play are kept (at most REMEMBERED_AT_MOST): a game over is told
    apart, and what it came to read, from its over-note (:meth:`in_play`, :meth:`finish`)."""

    def __init__(
        self, root: Path, lock_timeout: float = LOCK_TIMEOUT, remember: bool = False
    ) -> None:
        self.root = root
        self.lock_timeout = lock_timeout
        self.remember = remember
        self._remembered: OrderedDict[str, _Remembered] = OrderedDict()
        self._undone: dict[str, tuple[tuple[tuple[str, int], ...], set[str]]] = {}
        #: what is known of the games over, by game
        self._over: dict[str, _Over] = {}
        #: the players' addresses of each game looked up, and the files they were read from
        self._addresses: dict[str, tuple[object, frozenset[str]]] = {}

    # -- reading ------------------------------------------------------------------------------

    def game_ids(self) -> list[str]:
        try:
            with os.scandir(self.root) as entries:  # (is_dir: the entry's type, no stat)
                return sorted(e.name for e in entries if GAME_ID.fullmatch(e.name) and e.is_dir())
        except (FileNotFoundError, NotADirectoryError):
            return []

    def in_play(self) -> list[str]:
        """The games not known to be over: every game but those whose over-note is true
        (its ``turns/`` unchanged since). What a look at the games in play reads, at a
        cost that does not grow with the games played long ago."""
        return [g for g in self.game_ids() if not self._known_over(g)]

    def finish(self, game_id: str) -> Finish | None:
        """What the game came to, None while it is in play: read from its over-note when
        that is true, else from the game loaded (which notes it). Raises as :meth:`load`."""
        noted = self.noted_finish(game_id)
        if noted is not None:
            return noted
        return finish_of(self.load(game_id))

    def has(self, game_id: str) -> bool:
        """Whether ``game_id`` names a game here."""
        return bool(GAME_ID.fullmatch(game_id)) and (self.root / game_id / "game.toml").is_file()

    def folder(self, game_id: str) -> Path:
        if not GAME_ID.fullmatch(game_id):
            raise StoreError(
                f"{game_id!r} is not a game id: lower-case letters, digits, '-' and '_'"
            )
        return self.root / game_id

    def read(self, game_id: str) -> tuple[bytes, list[tuple[str, bytes]]]:
        """The bytes of game.toml and of every turn file, in name order."""
        folder = self.folder(game_id)
        game_file = folder / "game.toml"
        if not game_file.is_file():
            if not folder.is_dir():
                known = ", ".join(self.game_ids()[:10]) or "none yet"
                raise StoreError(
                    f"no game {game_id!r} in {self.root} (games: {known}); create it with "
                    "'referee new'"
                )
            raise StoreError(f"{folder} has no game.toml: it is not a game folder")
        turns_dir = folder / "turns"
        names = (
            sorted(p.name for p in turns_dir.iterdir() if not p.name.startswith("."))
            if turns_dir.is_dir()
            else []
        )
        return game_file.read_bytes(), [(n, (turns_dir / n).read_bytes()) for n in names]

    def load(self, game_id: str, strict: bool = True) -> Replayed:
        """The game rebuilt from its record, every turn checked: ReplayError names the first
        bad one, or when not ``strict`` the game is rebuilt up to it (see ``problem``). Its
        record is as amended (a player's new address). A game found over is noted so."""
        stamps = self._over_stamps(game_id)  # (before reading: a change meanwhile shows)
        replayed = self._amend(game_id, self._load(game_id, strict))
        if replayed.state.status == "finished" and replayed.problem is None and stamps:
            self._note_over(game_id, stamps, replayed)
        return replayed

    def addresses(self, game_id: str) -> frozenset[str]:
        """The addresses of the game's players, in lower case, as amended (none when the
        game cannot be read): read once, and again only when game.toml or ``amendments/``
        change, so that finding an address's games loads only those."""
        folder = os.path.join(self.root, game_id)
        try:
            game_file = _stamp(os.stat(os.path.join(folder, "game.toml")))
            try:
                amendments = os.path.join(folder, "amendments")
                changes = (_stamp(os.stat(amendments)), tuple(sorted(os.listdir(amendments))))
            except FileNotFoundError:
                changes = None
            known = self._addresses.get(game_id)
            if known is not None and known[0] == (game_file, changes):
                return known[1]
            game_bytes = (self.folder(game_id) / "game.toml").read_bytes()
            record = load_game(game_bytes)
            files = self.read_amendments(game_id)
            if files:
                record = amended(record, game_bytes, files)
        except (OSError, RecordError):
            return frozenset()
        found = frozenset(player.email.lower() for player in record.players)
        if len(self._addresses) >= 2 * REMEMBERED_AT_MOST:  # (games over are among them)
            self._addresses.clear()
        self._addresses[game_id] = ((game_file, changes), found)
        return found

    def glance(self, game_id: str) -> Glance | None:
        """The game's files at a glance (None when it has none): taken before loading it,
        :meth:`unchanged` then tells in a few stats, whatever the number of turns, whether
        a turn has come or gone since or game.toml changed. (A turn file changed in place is
        not seen by it: loading the game checks every file.)"""
        folder = os.path.join(self.root, game_id)
        turns = os.path.join(folder, "turns")
        try:
            game_file = _stamp(os.stat(os.path.join(folder, "game.toml")))
            turns_stamp = _stamp(os.stat(turns))
            names = [n for n in os.listdir(turns) if re.fullmatch(r"\d{4}\.toml", n)]
            last = max(names, default=None)
            return Glance(
                game_file,
                turns_stamp,
                None if last is None else (last, _stamp(os.stat(os.path.join(turns, last)))),
            )
        except (FileNotFoundError, NotADirectoryError):
            return None

    def unchanged(self, game_id: str, glance: Glance) -> bool:
        """Whether the game's files are as ``glance`` saw them (see :meth:`glance`)."""
        folder = os.path.join(self.root, game_id)
        try:
            if _stamp(os.stat(os.path.join(folder, "game.toml"))) != glance.game_file:
                return False
        except FileNotFoundError:
            return False
        return _turns_still(os.path.join(folder, "turns"), glance.turns, glance.last)

    # -- games over -------------------------------------------------------------------------

    def _over_stamps(self, game_id: str) -> OverStamps | None:
        folder = self.folder(game_id)
        try:
            game_file = _stamp((folder / "game.toml").stat())
            turns = _stamp((folder / "turns").stat())
        except FileNotFoundError:
            return None
        try:
            amendments: FileStamp | None = _stamp((folder / "amendments").stat())
        except FileNotFoundError:
            amendments = None
        return game_file, turns, amendments

    def _known_over(self, game_id: str) -> bool:
        """Whether the game is over: what was noted of it is still true (its note, its
        ``turns/`` and its last turn file unchanged, no turn after it)."""
        known = self._over.pop(game_id, None)
        if known is not None and self._still(game_id, known):
            self._over[game_id] = known
            return True
        return self.noted_finish(game_id) is not None

    def _still(self, game_id: str, known: _Over) -> bool:
        """Whether nothing has changed in the game since ``known`` was noted of it (its
        address amendments apart): a few stats, whatever the number of turns. (Paths as
        strings: a look at the games in play does this for every game over.)"""
        folder = os.path.join(self.root, game_id)
        try:
            note = None if known.note is None else _stamp(os.stat(os.path.join(folder, OVER_NOTE)))
            if note != known.note:
                return False
        except FileNotFoundError:
            return False
        return _turns_still(os.path.join(folder, "turns"), known.stamps[1], known.last)

    def noted_finish(self, game_id: str) -> Finish | None:
        """What the game's over-note says it came to, if the note is true; None when the
        game is in play, has no note yet, or has changed since (load it to know)."""
        known = self._over.get(game_id)
        if known is not None and known.finish is not None:  # (kept here: no note written)
            if known.stamps == self._over_stamps(game_id) and self._still(game_id, known):
                return known.finish
            return None
        try:
            note = _stamp(os.stat(os.path.join(self.root, game_id, OVER_NOTE)))  # (a game in
            # play has none: one look, and no more)
            path = self.folder(game_id) / OVER_NOTE
            body = json.loads(path.read_bytes())
            stamps = self._over_stamps(game_id)
            last = _last_of(body["last"])
            noted = _Over(_over_stamps_of(body["stamps"]), last, note)
            if stamps != noted.stamps or not self._still(game_id, noted):
                return None
            finish = Finish.from_json(body["finish"])
        except (OSError, ValueError, LookupError, TypeError):
            return None
        self._over[game_id] = noted
        return finish

    def _unnote_over(self, game_id: str) -> None:
        """The game changed (turns undone, an address amended): its over-note goes, before
        the change is made."""
        self._over.pop(game_id, None)
        with contextlib.suppress(FileNotFoundError):
            (self.folder(game_id) / OVER_NOTE).unlink()

    def _note_over(self, game_id: str, stamps: OverStamps, replayed: Replayed) -> None:
        """Write the game's over-note (unless one known true is there already). Where it
        cannot be written (a folder that takes no writes) what the game came to is kept in
        this process instead, so that it is not replayed at every look."""
        known = self._over.get(game_id)
        if known is not None and known.stamps == stamps and self._still(game_id, known):
            return
        finish = finish_of(replayed)
        assert finish is not None
        last: tuple[str, FileStamp] | None = None
        if replayed.turns:
            name = f"{len(replayed.turns):04d}.toml"
            try:
                last = (name, _stamp((self.folder(game_id) / "turns" / name).stat()))
            except FileNotFoundError:
                return  # undone meanwhile: not over any more
        body = {
            "stamps": [list(s) if s else None for s in stamps],
            "last": [last[0], list(last[1])] if last else None,
            "finish": finish.to_json(),
        }
        path = self.folder(game_id) / OVER_NOTE
        try:
            write_over(path, json.dumps(body, indent=1).encode())
            self._over[game_id] = _Over(stamps, last, _stamp(path.stat()))
        except OSError:
            self._over[game_id] = _Over(stamps, last, None, finish)

    def _amend(self, game_id: str, replayed: Replayed) -> Replayed:
        files = self.read_amendments(game_id)
        if not files:
            return replayed
        game_file = (self.folder(game_id) / "game.toml").read_bytes()
        return dataclasses.replace(replayed, record=amended(load_game(game_file), game_file, files))

    def read_amendments(self, game_id: str) -> list[tuple[str, bytes]]:
        """The bytes of every amendment file of a game, in name order."""
        folder = self.folder(game_id) / "amendments"
        try:
            names = sorted(n for n in os.listdir(folder) if not n.startswith("."))
        except FileNotFoundError:
            return []
        return [(n, (folder / n).read_bytes()) for n in names]

    def write_amendment(self, game_id: str, number: int, data: bytes) -> Path:
        """Write ``amendments/NNNN.toml``; ConflictError if that one is written already."""
        folder = self.folder(game_id) / "amendments"
        self._unnote_over(game_id)
        folder.mkdir(exist_ok=True)
        path = folder / f"{number:04d}.toml"
        try:
            write_new(path, data)
        except FileExistsError:
            raise ConflictError(
                f"amendment {number} of game {game_id!r} is written already: look again"
            ) from None
        return path

    def _load(self, game_id: str, strict: bool) -> Replayed:
        if self.remember:
            kept = self._load_more(game_id, strict)
            if kept is not None:
                return kept
        game_bytes, turns = self.read(game_id)
        record = load_game(game_bytes)
        if record.id != game_id:
            raise RecordError(f"{game_id}/game.toml is the record of game {record.id!r}")
        replayed = replay(record, game_bytes, turns, strict)
        if self.remember:
            self._keep(game_id, replayed)
        return replayed

    def _stamps(self, game_id: str) -> tuple[FileStamp, list[tuple[str, FileStamp]]] | None:
        folder = self.folder(game_id)
        try:
            game_file = _stamp((folder / "game.toml").stat())
            with os.scandir(folder / "turns") as entries:
                turns = sorted(
                    (e.name, _stamp(e.stat())) for e in entries if not e.name.startswith(".")
                )
        except FileNotFoundError:
            return None
        return game_file, turns

    def _keep(self, game_id: str, replayed: Replayed) -> None:
        stamps = self._stamps(game_id)
        self._remembered.pop(game_id, None)
        if stamps is None or replayed.problem is not None:
            return
        game_file, turn_files = stamps
        if len(turn_files) == len(replayed.turns):  # (else a turn came meanwhile: next time)
            self._remember(game_id, _Remembered(game_file, turn_files, replayed))

    def _remember(self, game_id: str, kept: _Remembered) -> None:
        """Keep a game in play (a game over is not kept), forgetting the least recently
        loaded beyond REMEMBERED_AT_MOST."""
        self._remembered.pop(game_id, None)
        if kept.replayed.state.status == "finished":
            return
        self._remembered[game_id] = kept
        while len(self._remembered) > REMEMBERED_AT_MOST:
            self._remembered.popitem(last=False)

    def _load_more(self, game_id: str, strict: bool) -> Replayed | None:
        """The remembered game and the turns written since, or None to load it whole."""
        kept = self._remembered.get(game_id)
        stamps = self._stamps(game_id)
        if kept is None or stamps is None:
            return None
        game_file, turn_files = stamps
        known = len(kept.turn_files)
        if game_file != kept.game_file or turn_files[:known] != kept.turn_files:
            return None
        turns_dir = self.folder(game_id) / "turns"
        try:
            more = [(name, (turns_dir / name).read_bytes()) for name, _ in turn_files[known:]]
        except FileNotFoundError:
            return None
        replayed = replay_more(kept.replayed, more, strict)
        if replayed.problem is None:
            self._remember(game_id, _Remembered(game_file, turn_files, replayed))
        return replayed

    # -- writing ------------------------------------------------------------------------------

    def create(self, record: GameRecord) -> Path:
        """Write a new game folder, whole or not at all; ConflictError if the id is taken."""
        folder = self.folder(record.id)
        self.root.mkdir(parents=True, exist_ok=True)
        if folder.exists():
            raise ConflictError(f"game {record.id!r} exists already in {self.root}")
        staging = self.root / f".{record.id}.{uuid.uuid4().hex}.tmp"
        try:
            (staging / "turns").mkdir(parents=True)
            write_new(staging / "game.toml", dump(record))
            fsync_dir(staging / "turns")
            try:
                os.rename(staging, folder)
            except OSError:
                raise ConflictError(f"game {record.id!r} exists already in {self.root}") from None
            fsync_dir(self.root)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return folder

    @contextlib.contextmanager
    def locked(self, game_id: str, wait: float | None = None) -> Iterator[None]:
        """Hold the game's lock, waiting up to ``wait`` seconds (default ``lock_timeout``)
        for another writer; ConflictError when it is still busy."""
        folder = self.folder(game_id)
        if not folder.is_dir():
            self.read(game_id)  # raises the helpful "no game" error
        lock = FileLock(folder / ".lock")
        try:
            lock.acquire(timeout=self.lock_timeout if wait is None else wait)
        except Timeout:
            raise ConflictError(
                f"game {game_id!r} is busy: another referee process has held its lock for "
                f"{self.lock_timeout:g} s; try again"
            ) from None
        try:
            yield
        finally:
            lock.release()

    def write_turn(
        self,
        game_id: str,
        turn: int,
        data: bytes,
        after: tuple[TurnRecord, GameState] | None = None,
    ) -> Path:
        """Write ``turns/NNNN.toml``; ConflictError if that turn is written already.

        ``after``: the turn's record and the position it leads to, which a remembering store
        adds to the game it holds (they were made by the engine from the position it loaded,
        so replaying the file would give them again)."""
        path = self.folder(game_id) / "turns" / f"{turn:04d}.toml"
        try:
            write_new(path, data)
        except FileExistsError:
            raise ConflictError(
                f"turn {turn} of game {game_id!r} is written already: another move got there "
                "first; look at the board again"
            ) from None
        kept = self._remembered.pop(game_id, None)
        if kept is not None and after is not None and len(kept.turn_files) == turn - 1:
            record, state = after
            replayed = kept.replayed
            self._remember(
                game_id,
                _Remembered(
                    kept.game_file,
                    [*kept.turn_files, (path.name, _stamp(path.stat()))],
                    Replayed(
                        replayed.record, [*replayed.turns, record], [*replayed.states, state], data
                    ),
                ),
            )
        return path

    def archive_turns(
        self,
        game_id: str,
        after: int,
        reason: str,
        at: datetime,
        undone: int,
        mail: str | None = None,
    ) -> Path:
        """Move turns after ``after`` into a new archive folder with a rollback.toml saying
        why (and naming ``mail``, the Message-ID of the mail that asked for it, if one did).
        The last turn moves first, so an interruption leaves turns 1..k whole."""
        folder = self.folder(game_id)
        self._unnote_over(game_id)
        stamp = at.strftime("%Y%m%dT%H%M%SZ")
        archive = folder / "archive" / f"{stamp}-to-{after:04d}-{uuid.uuid4().hex[:6]}"
        archive.mkdir(parents=True)
        body: dict[str, object] = {"at": at, "to": after, "undone": undone, "reason": reason}
        if mail is not None:
            body["mail"] = mail
        try:
            write_new(archive / "rollback.toml", tomli_w.dumps({"rollback": body}).encode())
        except OSError:  # (a full disk): no empty archive folder is left for a reader to meet
            with contextlib.suppress(OSError):
                archive.rmdir()
            raise
        failpoint("rollback-noted")
        turns_dir = folder / "turns"
        for turn in range(after + undone, after, -1):
            name = f"{turn:04d}.toml"
            os.rename(turns_dir / name, archive / name)
            fsync_dir(turns_dir)
        fsync_dir(archive)
        return archive

    def undone_mails(self, game_id: str) -> set[str]:
        """The Message-IDs of the mails whose moves were undone by a rollback (their turn
        files are in the archive): such a mail must never be played again. Read once and
        kept until the archive changes."""
        archive = self.folder(game_id) / "archive"
        try:
            with os.scandir(archive) as entries:
                stamp = tuple(sorted((e.name, e.stat().st_mtime_ns) for e in entries))
        except FileNotFoundError:
            return set()
        kept = self._undone.get(game_id)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        found = set()
        for name, _ in stamp:
            for path in (archive / name).glob("[0-9]*.toml"):
                with contextlib.suppress(OSError, RecordError):
                    message_id = load_turn(path.read_bytes(), path.name).source.message_id
                    if message_id is not None:
                        found.add(message_id)
        self._undone[game_id] = (stamp, found)
        return found

    def resume_rollback(self, game_id: str, rollback: dict[str, object]) -> int:
        """Move into a rollback's archive folder the turns it undoes that are still in
        ``turns/`` (a crash cut it short after its note was written), last first; how many."""
        to, undone, folder = rollback["to"], rollback["undone"], rollback["folder"]
        assert isinstance(to, int) and isinstance(undone, int) and isinstance(folder, str)
        archive, turns_dir = self.root / folder, self.folder(game_id) / "turns"
        self._unnote_over(game_id)
        moved = 0
        for turn in range(to + undone, to, -1):
            name = f"{turn:04d}.toml"
            if (turns_dir / name).exists() and not (archive / name).exists():
                os.rename(turns_dir / name, archive / name)
                fsync_dir(turns_dir)
                moved += 1
        if moved:
            fsync_dir(archive)
        return moved

    def rollback_by(self, game_id: str, mail: str) -> dict[str, object] | None:
        """The rollback the mail ``mail`` (a Message-ID) asked for, if one was begun: found
        again when that mail is judged again after a crash."""
        for rollback in self.rollbacks(game_id):
            if rollback.get("mail") == mail:
                return rollback
        return None

    def rollbacks(self, game_id: str) -> list[dict[str, object]]:
        """The rollbacks of a game, oldest first: when, to which turn, how many undone, why,
        and where the undone turns are kept."""
        archive = self.folder(game_id) / "archive"
        found = []
        if archive.is_dir():
            for entry in sorted(archive.iterdir()):
                note = entry / "rollback.toml"
                if note.is_file():
                    body = tomllib.loads(note.read_text())["rollback"]
                    found.append(body | {"folder": str(entry.relative_to(self.root))})
        return sorted(found, key=lambda r: str(r["at"]))


def _stamp(info: os.stat_result) -> FileStamp:
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _turns_still(turns: str, stamp: FileStamp, last: tuple[str, FileStamp] | None) -> bool:
    """Whether the ``turns`` folder is as it was: its stamp, its last turn file's (``last``)
    and no turn after that one (a folder's stamp may not move on a filesystem with coarse
    times: the last file and the next one tell a turn come or gone all the same)."""
    try:
        if _stamp(os.stat(turns)) != stamp:
            return False
        if last is not None and _stamp(os.stat(os.path.join(turns, last[0]))) != last[1]:
            return False
    except FileNotFoundError:
        return False
    return not os.path.exists(os.path.join(turns, _after(last)))


def _after(last: tuple[str, FileStamp] | None) -> str:
    """The name of the turn file that would come after ``last``."""
    return f"{int(last[0][:4]) + 1 if last else 1:04d}.toml"


def _stamp_of(body: object) -> FileStamp:
    """A file's stamp as an over-note holds it (a list of four numbers in JSON);
    ValueError if it is not one."""
    if not isinstance(body, list) or len(body) != 4:
        raise ValueError("not a file's stamp in an over-note")
    ino, size, mtime, ctime = (int(n) for n in body)
    return ino, size, mtime, ctime


def _last_of(body: object) -> tuple[str, FileStamp] | None:
    """The last turn file an over-note names (a list in JSON); ValueError if malformed."""
    if body is None:
        return None
    if not isinstance(body, list) or len(body) != 2 or not isinstance(body[0], str):
        raise ValueError("not the last turn of an over-note")
    name, stamp = body
    if not re.fullmatch(r"\d{4}\.toml", name):
        raise ValueError("not the last turn of an over-note")
    return name, _stamp_of(stamp)


def _over_stamps_of(body: object) -> OverStamps:
    """The stamps an over-note holds (lists in JSON); ValueError if it holds none."""
    if not isinstance(body, list) or len(body) != 3 or body[0] is None or body[1] is None:
        raise ValueError("not the stamps of an over-note")
    game_file, turns, amendments = body
    return (
        _stamp_of(game_file),
        _stamp_of(turns),
        (None if amendments is None else _stamp_of(amendments)),
    )


def write_new(
    path: Path,
    data: bytes,
    *,
    durable: bool = True,
    sync_dir: bool = True,
    unique_name: bool = False,
) -> None:
    """Write ``path`` atomically; FileExistsError if it exists (never overwrite).

    ``durable``: on disk before returning (the file, then its folder's entry). Writers of many
    files may pass ``sync_dir=False`` and call :func:`fsync_dir` once after the last. Only
    records whose loss costs nothing (a note that a mail was read, when its move is recorded
    in its game anyway) are written with ``durable=False``. ``unique_name``: the caller made
    the name unique (a timestamp and a random part), so the file is renamed into place
    rather than linked and unlinked, one step fewer on the disk."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError as err:
        raise _naming(err, path) from None
    placed = False
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        if unique_name:
            if os.path.lexists(path):
                raise FileExistsError(errno.EEXIST, "exists already", str(path))
            os.rename(tmp, path)
            placed = True
        else:
            os.link(tmp, path)
    except OSError as err:  # (a full disk fails here): said of the file, not of its tmp
        raise _naming(err, path) from None
    finally:
        if not placed:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
    if durable and sync_dir:
        fsync_dir(path.parent)


def write_over(path: Path, data: bytes) -> None:
    """Write ``path`` whole, replacing what was there, never leaving half of it (for notes
    that are rewritten; not flushed to disk: losing one costs little)."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as err:
        raise _naming(err, path) from None
    finally:
        tmp.unlink(missing_ok=True)


def _naming(err: OSError, path: Path) -> OSError:
    """``err`` said of ``path``: a failed write names the file it was for, never the random
    temporary name (which differs at each try, so a fault met at every look would not read
    as the same fault) nor nothing (a write's own error names no file)."""
    if err.errno is None:
        return err
    return OSError(err.errno, err.strerror, str(path))


#: What a write fails with when the disk takes no more writes at all, rather than one file
#: being refused: full (ENOSPC), over its quota (EDQUOT), mounted read-only (EROFS).
NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS})


def no_room_on_disk(err: BaseException) -> bool:
    """Whether ``err`` says the disk takes no more writes (see NO_ROOM): a fault of the whole
    disk, mended by waiting for room, where anything done about it (a mail set aside, a note
    of why) would need a write too. A file or folder refused (EACCES, EPERM) or a file too
    large (EFBIG) is a fault of that one file: not this."""
    return isinstance(err, OSError) and err.errno in NO_ROOM


def fsync_dir(path: Path) -> None:
    """Make the entries of folder ``path`` durable (or, given a file, its contents)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
