"""The ``referee`` command line: the game master's tools (INTERFACE.md).

A thin shell over :mod:`referee.games` and :mod:`referee.service`: the commands on games are
in :mod:`referee.cli.game_commands` (and for computer players in
:mod:`referee.cli.bot_commands`), those of the mail service in
:mod:`referee.cli.mail_commands`, a game's mail trail in
:mod:`referee.cli.trail_commands`, the standings in :mod:`referee.cli.standing_commands`,
the map of several workers in :mod:`referee.cli.shard_commands`;
what they share (options, settings, the games folder, exit codes) in
:mod:`referee.cli.common`.
"""

from __future__ import annotations

from referee.cli import (
    bot_commands,
    game_commands,
    mail_commands,
    shard_commands,
    standing_commands,
    trail_commands,
)
from referee.cli.common import app

__all__ = [
    "app",
    "bot_commands",
    "game_commands",
    "mail_commands",
    "main",
    "shard_commands",
    "standing_commands",
    "trail_commands",
]


def main() -> None:
    app()
