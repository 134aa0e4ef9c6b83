"""Settling a dispute from the record: a game's mail trail (`referee trail`), and the game
master's ruling (`referee move --as-of --reason`) that acts on it and is told to everyone."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.mail.state import trail as trail_module
from referee.mail.state.trail import KEPT_FROM_OTHERS, MailRead, Trail
from tests.mail.dirtable import Table, address
from tests.mail.players import latest, reply, text_of

runner = CliRunner()


def cli(table: Table, *args: str) -> str:
    result = runner.invoke(app, [*args, "--games-dir", str(table.games)])
    assert result.exit_code == 0, result.output
    return result.output


def trail_json(table: Table, *args: str) -> list[dict[str, object]]:
    entries = json.loads(cli(table, "trail", "g1", "--json", *args))
    assert isinstance(entries, list)
    return entries


def test_i_sent_my_move_on_tuesday_is_answered_from_the_trail_and_settled_by_a_ruling(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    welcome = latest(table.mail, address("alice"))
    table.reply("alice", "take red green blue")
    table.serve()
    table.reply("bob", "take red green blue")
    table.serve()
    # alice answers an old board: refused as stale, though it is her move
    tuesday = datetime.now(UTC).replace(microsecond=0)
    dated = format_datetime(tuesday)
    headers = {"Date": dated, "Received": f"from phone by mx.example.net; {dated}"}
    reply(table.mail, welcome, address("alice"), "take 2 white", message_id="<tue@example.org>",
          extra_headers=headers)  # fmt: skip
    table.serve()
    assert table.state.turn == 2

    # the complaint: "I sent my move on Tuesday". The trail alone says what came of it.
    mails = trail_json(table, "--player", "alice")
    found = [e for e in mails if e["message_id"] == "<tue@example.org>"]
    assert len(found) == 1
    sent = found[0]
    assert sent["direction"] == "in" and sent["ruling"] == "stale"
    assert sent["answers_turn"] == 0 and sent["turn"] == 2
    assert sent["lines"] == ["take 2 white"]
    assert sent["dated"] == sent["received"] == tuesday.isoformat()
    told = [e for e in mails if e["direction"] == "out" and e["turn"] == 2]
    assert any(e["ruling"] == "sent" and e["kind"] == "stale" for e in told)
    assert {e["address"] for e in mails} == {address("alice")}
    text = cli(table, "trail", "g1")
    assert f"[{sent['id']}] from {address('alice')}: stale" in text and "| take 2 white" in text
    raw = runner.invoke(app, ["trail", "g1", "--mail", str(sent["id"]), "--games-dir",
                              str(table.games)])  # fmt: skip
    assert raw.exit_code == 0 and "Message-ID: <tue@example.org>" in raw.output

    # one command acts on it, and leaves a record of who ruled, when it was sent, and why
    ruled = cli(table, "move", "g1", "alice", "take 2 white", "--as-of", str(sent["dated"]),
                "--reason", "her mail of Tuesday answered an older board")  # fmt: skip
    assert "Turn 3: alice played" in ruled
    turn = table.store.load("g1").turns[-1]
    assert turn.source.kind == "ruling" and turn.source.by
    assert turn.source.as_of == tuesday
    log = cli(table, "log", "g1")
    assert "game master's ruling by" in log and "answered an older board" in log

    # everyone is told, with the reason
    table.serve()
    for name, said in (("alice", "your move"), ("bob", "alice's move")):
        letter = " ".join(text_of(latest(table.mail, address(name))).split())
        assert f"The game master ruled that {said} was sent in time" in letter
        assert "her mail of Tuesday answered an older board" in letter
    cli(table, "replay", "g1", "--verify")
    page = tmp_path / "replay.html"
    cli(table, "export", "g1", "--html", str(page))
    assert "The game master ruled that alice" in page.read_text()


def test_a_ruling_needs_a_reason_and_a_time_within_the_game(tmp_path: Path) -> None:
    table = Table(tmp_path)
    games = ["--games-dir", str(table.games)]
    no_reason = runner.invoke(app, ["move", "g1", "alice", "take red green blue", "--as-of",
                                    "2026-12-01T10:00", *games])  # fmt: skip
    assert no_reason.exit_code == 1
    future = (datetime.now(UTC) + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    too_late = runner.invoke(app, ["move", "g1", "alice", "take red green blue", "--as-of",
                                   future, "--reason", "late", *games])  # fmt: skip
    assert too_late.exit_code == 1 and "not after now" in too_late.output
    assert table.state.turn == 0


def test_every_letter_of_a_game_is_in_its_trail_with_when_it_was_queued_and_left(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    table.reply("alice", "take red green blue")
    table.serve()
    out = [e for e in trail_json(table) if e["direction"] == "out"]
    # two welcomes, then the board of turn 1 to both players
    assert sorted((e["address"], e["turn"]) for e in out) == [
        (address("alice"), 0), (address("alice"), 1), (address("bob"), 0), (address("bob"), 1)
    ]  # fmt: skip
    for e in out:
        assert e["ruling"] == "sent" and e["tries"] == 1
        assert str(e["queued_at"]) <= str(e["at"]) and str(e["message_id"]).startswith("<")
    played = [e for e in trail_json(table) if e["direction"] == "in"]
    assert [(e["ruling"], e["turn"]) for e in played] == [("played", 1)]


def test_a_letter_waiting_to_go_out_is_in_the_trail_as_waiting(tmp_path: Path) -> None:
    table = Table(tmp_path)
    cli(table, "move", "g1", "alice", "take red green blue")
    waiting = [e for e in trail_json(table) if e["ruling"] == "waiting"]
    assert {e["address"] for e in waiting} == {address("alice"), address("bob")}


def test_a_spammed_game_keeps_its_trail_within_the_cap(tmp_path: Path) -> None:
    games = tmp_path / "games"
    (games / "g1").mkdir(parents=True)
    kept = Trail(games)
    start = datetime(2027, 1, 1, tzinfo=UTC)
    raw = b"From: spam@example.com\r\nSubject: buy now\r\n\r\n" + b"x" * 2000
    for n in range(10_000):
        at, sender = start + timedelta(seconds=n), f"s{n % 50}@spam.example"
        spam = MailRead(at, sender, f"<{n}@spam>", "buy now", ("buy now",), "refused",
                        "not a player", 0, None, f"{n}")  # fmt: skip
        kept.note_mail("g1", spam, [address("alice"), address("bob")], raw)
    entries = kept.entries("g1")
    assert len(entries) == KEPT_FROM_OTHERS
    assert kept.over_cap("g1") == {
        "count": 10_000 - KEPT_FROM_OTHERS,
        "first": (start + timedelta(seconds=KEPT_FROM_OTHERS)).isoformat(),
        "last": (start + timedelta(seconds=9_999)).isoformat(),
    }
    assert kept.size("g1") < 1_000_000
    # a player's own mail is still kept, and so is every mail that played a turn
    own = MailRead(start, address("alice"), "<mine@example.org>", "Re: turn 3", ("take 2 white",),
                   "stale", "stale", 3, 2, "x")  # fmt: skip
    assert kept.note_mail("g1", own, [address("alice"), address("bob")], raw)
    played = MailRead(start, "s1@spam.example", "<p@spam>", "", (), "played", "turn 4", 4, 3, "y")
    assert kept.note_mail("g1", played, [address("alice")], None)
    assert len(kept.entries("g1")) == KEPT_FROM_OTHERS + 2


def test_spam_to_a_game_through_the_service_stops_at_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trail_module, "KEPT_FROM_OTHERS", 5)
    table = Table(tmp_path)
    welcome = latest(table.mail, address("alice"))
    for n in range(12):
        reply(table.mail, welcome, f"stranger{n}@spam.example", "buy now",
              message_id=f"<spam{n}@spam.example>")  # fmt: skip
    table.serve()
    entries = trail_json(table)
    assert len([e for e in entries if e["direction"] == "in"]) == 5
    assert Trail(table.games).over_cap("g1")["count"] == 7  # type: ignore[index]
    assert "7 more mail(s) came beyond that cap" in cli(table, "trail", "g1")


def test_a_mail_judged_again_after_a_crash_is_in_the_trail_once(tmp_path: Path) -> None:
    games = tmp_path / "games"
    (games / "g1").mkdir(parents=True)
    kept = Trail(games)
    mail = MailRead(datetime(2027, 1, 1, tzinfo=UTC), address("alice"), "<a@x>", "", ("pass",),
                    "refused", "illegal", 2, 2, "1")  # fmt: skip
    assert kept.note_mail("g1", mail, [address("alice")], b"raw")
    later = MailRead(datetime(2027, 1, 1, 0, 1, tzinfo=UTC), address("alice"), "<a@x>", "",
                     ("pass",), "refused", "illegal", 2, 2, "1")  # fmt: skip
    assert not kept.note_mail("g1", later, [address("alice")], b"raw")
    (entry,) = kept.entries("g1")
    assert kept.raw("g1", entry["id"]) == b"raw" and "raw" not in entry


def test_a_game_masters_rollback_is_told_to_every_player_with_the_reason(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.reply("alice", "take red green blue")
    table.serve()
    table.reply("bob", "take 2 white")
    table.serve()
    cli(table, "rollback", "g1", "--to", "1", "--reason", "bob's mail was read twice")
    table.serve()
    for name in ("alice", "bob"):
        words = " ".join(text_of(latest(table.mail, address(name))).split())
        assert "The game master has taken game g1 back to turn 1" in words
        assert "bob's mail was read twice" in words
    assert str(latest(table.mail, address("bob"))["Subject"]).startswith("Your move")
    assert "ROLLBACK to turn 1" in cli(table, "trail", "g1")


def test_the_trail_of_a_player_keeps_their_mail_from_an_address_they_had_before(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    table.reply("alice", "take red green blue")
    table.serve()
    cli(table, "player", "g1", "alice", "--email", "alice@new.example", "--reason", "moved")
    mails = [e for e in trail_json(table, "--player", "alice") if e["direction"] == "in"]
    assert [(e["address"], e["ruling"]) for e in mails] == [(address("alice"), "played")]
    assert not [e for e in trail_json(table, "--player", "bob") if e["direction"] == "in"]
