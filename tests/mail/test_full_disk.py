"""A full disk: the games folder on a small filesystem (a tmpfs) that fills mid-game. A mail
that cannot be recorded stays in the mailbox, unanswered; nothing half-written is left; the
game master is told once; and once there is room the service carries on by itself, losing
and doubling nothing. The mail folder is on another disk, as a mail server's would be."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from referee.mail.state.spool import Spool
from referee.mail.transports.directory import DirTransport
from referee.service import Service
from tests.mail.dirtable import Table, address
from tests.mail.players import mails_to, text_of

#: The small disk's size: room for a game's first turns and its mail state.
SMALL_DISK = 4 * 1024 * 1024
GAME_MASTER = "gm@example.org"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A small tmpfs mounted where the table's games folder goes (``tmp_path/games``)."""
    games = tmp_path / "games"
    games.mkdir()
    try:
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={SMALL_DISK}", "tmpfs", str(games)],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except FileNotFoundError:
        pytest.skip("no mount command here, to mount a small tmpfs for the games folder")
    if mounted.returncode != 0:
        pytest.skip(
            "mounting a small tmpfs for the games folder is not permitted here (it needs root "
            f"and the power to mount): {mounted.stderr.strip()}"
        )
    try:
        yield games
    finally:
        if subprocess.run(["umount", str(games)], check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(games)], check=False)


def fill(disk: Path, leave: int = 0) -> Path:
    """Fill ``disk`` with one file until it takes no more, then free ``leave`` blocks of it:
    the next writes there find room for that many blocks, and then none. The file."""
    filler = disk / "filler"
    block = os.statvfs(disk).f_frsize
    with open(filler, "ab", buffering=0) as out, contextlib.suppress(OSError):
        while True:  # whole blocks, so that freeing one frees exactly one
            out.write(bytes(16 * block))
    size = filler.stat().st_size
    assert size >= leave * block, "the disk is too small for this test"
    os.truncate(filler, size - leave * block)
    assert os.statvfs(disk).f_bavail == leave
    return filler


def half_written(games: Path) -> list[Path]:
    """Files a write left behind unfinished (every writer writes a ``.*.tmp`` first)."""
    return sorted(games.rglob(".*.tmp"))


def inbox(table: Table) -> list[str]:
    return sorted(p.name for p in (table.mail / "inbox").iterdir() if not p.name.startswith("."))


def message_id_of(path: Path) -> str:
    found = re.search(rb"^Message-ID: (<[^>]+>)", path.read_bytes(), re.MULTILINE | re.I)
    assert found
    return found.group(1).decode()


def wait_until(done: Callable[[], bool], what: str, service_died: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 60
    while not done():
        assert not service_died(), f"the service stopped while waiting until {what}"
        assert time.monotonic() < deadline, f"gave up waiting until {what}"
        time.sleep(0.02)


class Running:
    """A service running over the table's folders on a thread of its own, as `referee serve`
    runs it: one instance throughout, never restarted."""

    def __init__(self, table: Table) -> None:
        self.service = Service(table.settings, DirTransport(table.mail, poll_interval=0.02))
        self.service.intake.room.retry_every = table.settings.poll_seconds  # its pace when full
        self.loop = asyncio.new_event_loop()
        self.task = self.loop.create_task(self.service.run())
        self.failed: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, name="service")

    def _run(self) -> None:
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass
        except BaseException as err:  # the test says so
            self.failed.append(err)

    def died(self) -> bool:
        return not self.thread.is_alive()

    def wait_until(self, done: Callable[[], bool], what: str) -> None:
        wait_until(done, what, self.died)

    @contextlib.contextmanager
    def started(self) -> Iterator[Running]:
        self.thread.start()
        try:
            yield self
        finally:
            self.loop.call_soon_threadsafe(self.task.cancel)
            self.thread.join(timeout=60)
            self.loop.close()
            assert not self.failed, self.failed


def said(caplog: pytest.LogCaptureFixture, level: int, words: str) -> list[str]:
    found = [r.getMessage() for r in caplog.records if r.levelno == level]
    return [line for line in found if words in line]


def test_mail_waits_in_the_inbox_while_the_disk_is_full_and_is_played_once_there_is_room(
    small_disk: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="referee")
    table = Table(tmp_path, game_master=GAME_MASTER, poll_seconds=0.05)
    opening = message_id_of(table.reply("alice", "take red green blue"))
    with Running(table).started() as running:
        service = running.service
        letters_out = table.games / ".mail" / "outbox"
        running.wait_until(
            lambda: table.state.turn == 1 and not list(letters_out.glob("*.json")),
            "the first move is played and its boards sent",
        )
        before = {name: len(mails_to(table.mail, address(name))) for name in ("alice", "bob")}
        filler = fill(small_disk)
        move = message_id_of(table.reply("bob", "take 2 white"))
        board = message_id_of(table.reply("alice", "board"))
        refused = message_id_of(table.reply("alice", "buy 1-99"))
        running.wait_until(lambda: mails_to(table.mail, GAME_MASTER) != [], "the gm is told")
        room = service.intake.room
        running.wait_until(
            lambda: room.no_room is not None and room.no_room.looks >= 4,
            "several looks have found the disk full",
        )

        # while it is full: every mail waits as it came, and no one is answered
        assert len(inbox(table)) == 3
        assert table.folder("refused") == table.folder("quarantine") == []
        assert table.state.turn == 1
        assert {n: len(mails_to(table.mail, address(n))) for n in ("alice", "bob")} == before
        running.wait_until(lambda: not half_written(table.games), "no write is left half done")
        (told,) = mails_to(table.mail, GAME_MASTER)  # once, however many looks
        assert "games folder takes no more writes" in str(told["Subject"])
        assert str(table.games) in text_of(told) and "No space left on device" in text_of(told)
        (error,) = said(caplog, logging.ERROR, "takes no more writes")
        assert f"the games folder {table.games} takes no more writes" in error
        assert f"No space left on device: '{table.games}/" in error  # the file, not a tmp
        assert "free some space there and the service carries on by itself" in error
        assert str(service.status.body["disk"]).startswith("no room since ")

        # room again: the same service carries on by itself
        filler.unlink()
        running.wait_until(
            lambda: (
                not inbox(table) and table.state.turn == 2 and not list(letters_out.glob("*.json"))
            ),
            "the waiting mail is handled and answered",
        )
        assert len(said(caplog, logging.INFO, "takes writes again: mail is read again")) == 1
        assert service.status.body["disk"] is None
    assert len(mails_to(table.mail, GAME_MASTER)) == 1
    assert len(said(caplog, logging.ERROR, "takes no more writes")) == 1

    game = table.store.load("g1")
    assert [t.source.message_id for t in game.turns] == [opening, move]  # none lost, none twice
    answered: Counter[str] = Counter()
    for name in ("alice", "bob"):
        mails = mails_to(table.mail, address(name))
        answered.update(str(m["In-Reply-To"]) for m in mails if m["In-Reply-To"])
        told = [m for m in mails if m["In-Reply-To"] not in (board, refused)]
        assert len([m for m in told if str(m["Subject"]).endswith("· turn 2")]) == 1, name
    assert answered[board] == 1 and answered[refused] == 1
    assert table.folder("refused") == [f"{refused.strip('<>').replace('@', '_')}.eml"]
    assert table.folder("quarantine") == []
    spool = Spool(table.games)
    kept = Counter(e["message_id"] for e in spool.trail.entries("g1") if e["direction"] == "in")
    assert kept == Counter({opening: 1, move: 1, board: 1, refused: 1})
    assert all(spool.notes.seen(m) for m in (move, board, refused))
    assert [a["mail"] for a in spool.notes.aside()] == [refused]
    assert list((table.games / ".mail" / "void").glob("*.json")) == []  # nothing set aside
    assert half_written(table.games) == []


def keep(table: Table, kept: Path) -> None:
    """Copy the table's games and mail folders to ``kept``."""
    for folder in (table.games, table.mail):
        shutil.copytree(folder, kept / folder.name, symlinks=True)


def restore(table: Table, kept: Path) -> None:
    """Put the table's games and mail folders back as :func:`keep` copied them."""
    for folder in (table.games, table.mail):
        for path in folder.iterdir():
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
        shutil.copytree(kept / folder.name, folder, symlinks=True, dirs_exist_ok=True)


def a_service(table: Table) -> Service:
    """A service as it runs (not started: its intake is called by the test)."""
    service = Service(table.settings, DirTransport(table.mail))
    service.spool.outbox.begin()  # letters of a mail it judged are its own to set aside
    service.intake.room.retry_every = 0
    return service


def left_whole(table: Table, service: Service, mail: str) -> None:
    """After a mail's handling met a full disk: it waits in the inbox, unanswered, and
    nothing of it is half-written, nor recorded without what must come with it."""
    spool, outbox = service.spool, service.spool.outbox
    assert inbox(table) != []
    assert half_written(table.games) == []
    assert spool.notes.seen(mail) is None  # handled only once it is whole
    assert table.folder("refused") == table.folder("quarantine") == []
    turns = table.store.load("g1").turns
    assert [t.source.message_id for t in turns] in ([], [mail])
    waiting = outbox.pending()  # none but those of a turn written, which go out with it
    assert all(outbox.committed(q) is True for q in waiting)
    assert len(waiting) == (2 if turns else 0)
    assert len([e for e in spool.trail.entries("g1") if e.get("message_id") == mail]) <= 1


def handled_once(table: Table, service: Service, mail: str, played: bool, refused: bool) -> None:
    """A mail handled whole: its turn once, its trail entry once, its notes, and letters
    that go out once, each to whom it should."""
    spool, outbox = service.spool, service.spool.outbox
    assert inbox(table) == []
    assert [t.source.message_id for t in table.store.load("g1").turns] == ([mail] if played else [])
    assert spool.notes.seen(mail) is not None
    kept = [e["message_id"] for e in spool.trail.entries("g1") if e["direction"] == "in"]
    assert kept == [mail]
    assert [a["mail"] for a in spool.notes.aside()] == ([mail] if refused else [])
    assert all(outbox.committed(q) is True for q in outbox.pending())
    assert half_written(table.games) == []


#: A quoted block no compression shrinks much: it makes the mail's trail entry (which keeps
#: the mail as it came) take more than one block, so that the disk can be full for it and
#: not for the note that the mail was handled.
NOISE = "\n\n" + "\n".join("> " + os.urandom(32).hex() for _ in range(150))


@pytest.mark.parametrize(
    "text",
    ["take red green blue", "buy 1-99", "board"],
    ids=["a move", "a move refused", "a command"],
)
def test_a_full_disk_at_any_write_of_a_mails_handling_leaves_it_whole_to_handle_later(
    small_disk: Path, tmp_path: Path, text: str
) -> None:
    table = Table(tmp_path)
    mail = message_id_of(table.reply("alice", text + NOISE))
    played, refused = text.startswith("take"), text.startswith("buy")
    told = {"alice": 1, "bob": 1 if played else 0}  # the letters it is answered with
    before = {name: len(mails_to(table.mail, address(name))) for name in told}
    keep(table, tmp_path / "kept")
    failed = 0
    for free in range(40):  # the disk is full at its first block written, then its second…
        restore(table, tmp_path / "kept")
        filler = fill(small_disk, leave=free)
        service = a_service(table)
        asyncio.run(service.intake.receive())
        if not inbox(table):
            break  # room enough for all of it
        failed += 1
        left_whole(table, service, mail)
        filler.unlink()  # room again: the same service handles it, whole and once
        asyncio.run(service.intake.receive())
        handled_once(table, service, mail, played, refused)
        table.serve()  # its letters go out
        after = {name: len(mails_to(table.mail, address(name))) for name in told}
        assert after == {name: before[name] + told[name] for name in told}, free
    else:
        pytest.fail("the mail was never handled, though the disk had room")
    assert failed >= 4, failed  # it met the full disk at every one of its writes


def test_a_rollback_on_a_full_disk_leaves_the_turns_as_they_were_and_no_empty_archive(
    small_disk: Path, tmp_path: Path
) -> None:
    table = Table(tmp_path)
    table.reply("alice", "take red green blue")
    table.serve()
    table.reply("bob", "take 2 white")
    table.serve()
    at = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    filler = fill(small_disk)
    with pytest.raises(OSError, match="No space left on device"):
        table.store.archive_turns("g1", 1, "undone by all", at, 1)
    archive = table.games / "g1" / "archive"
    assert not archive.exists() or list(archive.iterdir()) == []
    assert table.store.rollbacks("g1") == [] and table.state.turn == 2
    filler.unlink()
    table.store.archive_turns("g1", 1, "undone by all", at, 1)  # room again: carried out
    assert len(table.store.rollbacks("g1")) == 1 and table.state.turn == 1
