"""The soak run, short (benchmarks/soak.py at a small scale): over five simulated weeks a few
games are played by mail among spam, robots and mail delivered twice, and what the service
keeps must stay within what its expiry rules and trail caps promise. No timings: only that
every mail is handled once and what is kept is bounded."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import referee.mail.state.notes as notes_module
from benchmarks.soak import Scale, soak
from referee.invitations import Invitation, Invitations, Seat
from referee.mail.state.ledger import Ledger
from referee.mail.state.mailfiles import EXPIRE_AFTER, hash_of
from referee.mail.state.notes import Notes
from referee.mail.state.spool import Spool


def test_a_soak_handles_every_mail_once_and_keeps_only_what_expiry_and_the_caps_allow(
    tmp_path: Path,
) -> None:
    scale = Scale(games=5, mails=900, days=EXPIRE_AFTER.days + 7, look_minutes=360, seed=11)
    figures = soak(tmp_path, scale)
    assert figures.problems == []  # filed once, played once, answered once, nothing outlived
    assert figures.warnings == 0
    delivered = sum(figures.delivered.values())
    assert delivered >= scale.mails * 0.95
    assert any(kind.endswith("-again") for kind in figures.delivered)  # delivered twice
    assert figures.turns["mail"] >= 100 and figures.games["finished"] >= 1
    end = figures.snapshots[-1]["files"]
    assert end["mail/inbox"] == (0, 0) and end[".mail/outbox"] == (0, 0)
    # five weeks in, the notes of the first week's mail that named no game are gone
    assert end[".mail/seen"][0] < delivered
    assert end[".mail/sent"][0] < figures.letters["sent"]
    assert 0 < figures.cleared < delivered  # the first week's mail, handled, is cleared too


def test_the_sweep_clears_invitations_and_game_notes_four_weeks_after_they_can_matter(
    tmp_path: Path,
) -> None:
    now = datetime.now(UTC)
    long_ago, lately = now - EXPIRE_AFTER - timedelta(days=5), now - timedelta(days=2)
    invitations, ledger = Invitations(tmp_path), Ledger(tmp_path / ".mail")
    for game, ended in (("old", "started"), ("gone", "cancelled"), ("fresh", "cancelled"),
                        ("open", None), ("live", "started")):  # fmt: skip
        at = lately if game == "fresh" else long_ago
        seats = (Seat("ann@example.org", proposer=True, accepted=True), Seat("bob@example.org"))
        invitations.propose(Invitation(game, "ann@example.org", at, f"<{game}@x>", 1, 15, 5,
                                       "7d", False, seats))  # fmt: skip
        if ended:
            invitations.end(game, ended, "everyone accepted", at)
    for game in ("old", "live"):
        ledger.note_overdue(game, 7, long_ago)
        ledger.note_restarted(game, long_ago)
        ledger.watch(game, "carol@example.org")
    for path in (tmp_path / ".mail").glob("*/*"):
        os.utime(path, (long_ago.timestamp(), long_ago.timestamp()))  # written back then
    ends = {"old": long_ago, "live": None, "open": None}

    Spool(tmp_path).expire(now, lambda game: ends.get(game, datetime.fromtimestamp(0, UTC)))

    assert invitations.ids() == ["fresh", "live", "open"]
    assert not list((tmp_path / ".invitations").glob(".*"))  # nothing half removed
    assert ledger.told_overdue("live", 7) and not ledger.told_overdue("old", 7)
    assert ledger.restarted("live") and ledger.restarted("old") is None
    assert ledger.watchers("live") and not ledger.watchers("old")


def test_the_sweep_reads_only_notes_old_enough_to_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A note four weeks old or younger is kept whatever its game, so the daily sweep does
    not read it: what a sweep reads is the notes that may go, not every note kept."""
    now = datetime.now(UTC)
    notes = Notes(tmp_path)
    for n in range(5):
        notes.mark_seen(f"<young{n}@x>", "played", game="g1")
    notes.mark_seen("<old@x>", "ignored")
    seen = tmp_path / ".mail" / "seen"
    old = seen / hash_of("<old@x>")
    long_ago = (now - EXPIRE_AFTER - timedelta(days=1)).timestamp()
    os.utime(old, (long_ago, long_ago))
    read: list[str] = []
    original = notes_module.read_text
    monkeypatch.setattr(notes_module, "read_text", lambda p: read.append(p.name) or original(p))
    Spool(tmp_path).expire(now, lambda game: None)
    assert read == [old.name]
    assert not old.exists() and len(list(seen.iterdir())) == 5
