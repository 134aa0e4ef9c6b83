"""Text that came in by mail never reaches a terminal raw: every command that prints it shows
its control characters and escape sequences as visible escapes (docs/interface.md: text from
mail printed by any command).

A stranger who knows a game's id, a player and an auto-responder write mail holding a
window-title sequence (ESC ] 0 ; title BEL), NUL, ^A, a screen clear, C1's CSI, a carriage
return and a bidi override, in the body, the subject, headers and the Message-ID. Each
command's output is read as the raw bytes a terminal would be given."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.mail.state.trail import Trail
from tests.mail.dirtable import Table, address
from tests.mail.players import deliver, latest

#: What a hostile writer puts in a header: a window title set, NUL, ^A, the screen cleared,
#: C1's CSI and a bidi override.
IN_HEADER = "\x1b]0;pwned\x07\x00\x01\x1b[2J\u009b31m\u202e"
#: And in a body, a carriage return too (which would hide what came before it).
HOSTILE = IN_HEADER + "hidden\rX"
#: The title sequence, as the commands show it.
SHOWN = b"\\x1b]0;pwned\\x07"
#: Bytes a terminal obeys: C0 but tab and newline, DEL; C1 and the bidi controls in UTF-8.
OBEYED = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]")


def raw_mail(*headers: str, body: str) -> bytes:
    text = "\r\n".join(headers) + "\r\n\r\n" + body.replace("\n", "\r\n")
    return text.encode("utf-8", "surrogateescape")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    table = Table(tmp_path_factory.mktemp("hostile"))
    board = latest(table.mail, address("alice"))
    to, thread = str(board["Reply-To"] or board["From"]), str(board["Message-ID"])
    mover = table.state.player.name
    other = "bob" if mover == "alice" else "alice"
    to_mover = latest(table.mail, address(mover))
    mover_to = str(to_mover["Reply-To"] or to_mover["From"])
    # a move, played, whose Message-ID holds the sequences (kept in its turn file)
    deliver(table.mail, "1.eml", raw_mail(
        f"From: {mover} <{address(mover)}>", f"To: {mover_to}", "Subject: Re: your move",
        f"Message-ID: <move{IN_HEADER}@example.org>", f"In-Reply-To: {to_mover['Message-ID']}",
        f"References: {to_mover['Message-ID']}", "Content-Type: text/plain; charset=utf-8",
        body="take red green blue\n\nSent from my iPhone\n",
    ))  # fmt: skip
    table.serve()
    # a stranger in the game's thread: refused, the body kept in the game's trail
    deliver(table.mail, "2.eml", raw_mail(
        "From: Eve <eve@example.org>", f"To: {to}", f"Subject: Re: {IN_HEADER}",
        "Message-ID: <eve.1@example.org>", f"In-Reply-To: {thread}", f"References: {thread}",
        "Content-Type: text/plain; charset=utf-8",
        body=f"take {HOSTILE} red\n{HOSTILE}\n",
    ))  # fmt: skip
    # the player not to move, writing the sequences as a move: refused, answered
    deliver(table.mail, "3.eml", raw_mail(
        f"From: {other} <{address(other)}>", f"To: {to}", f"Subject: Re: {IN_HEADER}",
        "Message-ID: <other.1@example.org>", f"In-Reply-To: {thread}",
        f"References: {thread}", "Content-Type: text/plain; charset=utf-8",
        body=f"buy {HOSTILE}\n",
    ))  # fmt: skip
    # an auto-responder whose header holds them: ignored, the last mail handled
    deliver(table.mail, "4.eml", raw_mail(
        f"From: {address(other)}", f"To: {to}", f"Auto-Submitted: auto-replied{IN_HEADER}",
        "Message-ID: <auto.1@example.org>", f"Subject: Out of office{IN_HEADER}",
        body="I am away.\n",
    ))  # fmt: skip
    table.serve()
    return table


def run(table: Table, *args: str) -> bytes:
    result = CliRunner().invoke(app, [*args, "--games-dir", str(table.games)])
    assert result.exit_code == 0, result.output
    return result.stdout_bytes + result.stderr_bytes


@pytest.mark.parametrize(
    ("command", "shows"),
    [
        (["trail", "g1"], True),  # the bodies, subjects and Message-IDs
        (["inbox"], True),  # why the stranger's and the auto-responder's mail went aside
        (["log", "g1"], True),  # the move's Message-ID
        (["status"], True),  # the last mail handled: the auto-reply's header
        (["games"], False),
        (["outbox"], False),
        (["standings"], False),
        (["trail", "g1", "--player", "alice"], True),  # her move's Message-ID
    ],
)
def test_a_command_shows_text_from_mail_as_escapes_and_never_gives_it_to_the_terminal(
    table: Table, command: list[str], shows: bool
) -> None:
    out = run(table, *command)
    assert OBEYED.findall(out) == [], out.decode(errors="replace")
    if shows:  # shown, not dropped: the game master sees what was written
        assert SHOWN in out, out.decode(errors="replace")


def test_the_json_outputs_escape_them_too(table: Table) -> None:
    for command in (["trail", "g1"], ["inbox"], ["log", "g1"], ["status"], ["games"]):
        out = run(table, *command, "--json")
        assert OBEYED.findall(out) == [], command
    assert b"\\u001b]0;pwned\\u0007" in run(table, "trail", "g1", "--json")


def test_a_mail_printed_as_it_arrived_is_byte_for_byte_into_a_pipe(table: Table) -> None:
    (stranger,) = [
        e for e in Trail(table.games).entries("g1") if e.get("address") == "eve@example.org"
    ]
    out = CliRunner().invoke(
        app, ["trail", "g1", "--mail", stranger["id"], "--games-dir", str(table.games)]
    ).stdout_bytes
    assert HOSTILE.encode() in out  # kept as it came, for the dispute: not for a terminal


def test_a_mail_printed_as_it_arrived_on_a_terminal_is_shown_as_escapes(table: Table) -> None:
    (stranger,) = [
        e for e in Trail(table.games).entries("g1") if e.get("address") == "eve@example.org"
    ]
    leader, follower = pty.openpty()
    command = [sys.executable, "-m", "referee", "trail", "g1", "--mail", stranger["id"],
               "--games-dir", str(table.games)]  # fmt: skip
    done = subprocess.run(command, stdout=follower, stderr=subprocess.PIPE, timeout=60)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    assert done.returncode == 0, done.stderr
    assert SHOWN in out and b"hidden\\rX" in out
    assert OBEYED.findall(out.replace(b"\r\n", b"\n")) == []  # (the terminal's own line ends)
