"""``referee --help``: the commands in panels a game master looks for, each summed up in a
sentence; and every command's help reflowed to the terminal's width."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from referee.cli import app
from referee.cli.common import PANELS, unwrapped

runner = CliRunner()

TITLES = [
    "Playing a game",
    "Game master",
    "Mail service",
    "Several workers",
    "Standings",
    "Computer players",
]
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # in case FORCE_COLOR or the like makes rich colour


def shown(*args: str, columns: int = 100) -> str:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return ANSI.sub("", result.stdout)


def commands() -> dict[str, Any]:
    """The commands of ``referee``, as typer makes them from the app."""
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return dict(group.commands)


def every_command() -> list[tuple[str, ...]]:
    """Every command's path, the sub-commands (``outbox resend``) too."""
    paths: list[tuple[str, ...]] = []
    for name, command in commands().items():
        paths.append((name,))
        paths.extend((name, sub) for sub in getattr(command, "commands", {}))
    return paths


def panels(text: str) -> dict[str, dict[str, str]]:
    """The command panels of a ``--help``: each title, with its commands and what it says of
    each (its lines joined)."""
    found: dict[str, dict[str, str]] = {}
    rows: dict[str, str] | None = None
    name = ""
    for line in text.splitlines():
        if line.startswith("╭─ "):
            title = line.removeprefix("╭─ ").rstrip("─╮").strip()
            rows = None if title in ("Options", "Arguments") else found.setdefault(title, {})
        elif rows is not None and line.startswith("│"):
            cells = line.strip("│").rstrip()
            if cells[1:2] != " ":
                name, _, said = cells.strip().partition(" ")
                rows[name] = said.strip()
            else:
                rows[name] += " " + cells.strip()
    return found


def described(text: str) -> list[str]:
    """The paragraphs of a command's description in its ``--help``, as the lines shown."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "Usage:" in line)
    start += next(i for i, line in enumerate(lines[start:]) if not line.strip())
    paragraphs: list[str] = []
    block: list[str] = []
    for line in lines[start:]:
        if line.startswith("╭"):
            break
        if line.strip():
            block.append(line.strip())
        elif block:
            paragraphs.append("\n".join(block))
            block = []
    return paragraphs


def test_help_shows_the_panels_in_the_order_a_game_master_looks_for_them() -> None:
    text = shown()
    titles = [t for t in panels(text) if t != "Commands"]
    assert titles == TITLES
    assert list(PANELS) == TITLES
    assert "╭─ Commands" not in text  # no command left out of the panels


def test_every_command_is_listed_in_exactly_one_panel_the_one_it_names() -> None:
    listed = panels(shown())
    counted = Counter(name for rows in listed.values() for name in rows)
    made = commands()
    assert set(counted) == set(made)
    assert all(count == 1 for count in counted.values()), counted
    for name, command in made.items():
        panel = getattr(command, "rich_help_panel", None)
        assert panel in TITLES, name
        assert name in listed[panel], (name, panel)


def test_inside_a_panel_the_commands_come_in_the_order_they_are_met() -> None:
    listed = panels(shown())
    assert list(listed["Playing a game"])[:4] == ["new", "show", "legal", "move"]
    assert list(listed["Mail service"])[:3] == ["serve", "doctor", "status"]
    assert list(listed["Computer players"]) == ["play-bots", "hint"]


def test_every_command_is_summed_up_in_a_sentence_ending_with_a_full_stop() -> None:
    listed = panels(shown())
    said = {name: text for rows in listed.values() for name, text in rows.items()}
    for name, command in commands().items():
        summary = (command.help or "").split("\n\n")[0]
        assert summary.endswith("."), name
        assert summary[0].isupper(), name
        assert said[name] == summary, name  # shown whole in the list, no line broken by hand
    for path in every_command():
        first = described(shown(*path))[0]
        assert first.replace("\n", " ").endswith("."), path


@pytest.mark.parametrize("path", every_command(), ids=" ".join)
def test_a_command_help_reflows_its_paragraphs_to_the_terminal_width(
    path: tuple[str, ...],
) -> None:
    wide = described(shown(*path, columns=1000))
    assert all("\n" not in paragraph for paragraph in wide), wide  # no line broken by hand
    narrow = described(shown(*path, columns=60))
    assert [p.replace("\n", " ") for p in narrow] == wide
    assert all(len(line) <= 58 for p in narrow for line in p.split("\n"))


def test_shard_help_shows_the_lmtp_section_in_its_square_brackets() -> None:
    text = shown("shard", columns=160)
    assert "give each worker the [lmtp] workers and shard" in text
    assert "Default: the config's [lmtp] workers" in text


def test_a_paragraph_marked_with_backspace_keeps_its_line_breaks() -> None:
    doc = """Do it.

    Joined
    here.

    \b
    referee new g1
    referee show g1
    """
    assert unwrapped(doc) == "Do it.\n\nJoined here.\n\nreferee new g1\nreferee show g1"
