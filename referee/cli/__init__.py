"""The ``referee`` command line: the game master's tools (docs/interface.md).

A thin shell over :mod:`referee.games` and :mod:`referee.service`: the commands on games are
in :mod:`referee.cli.game_commands` (and for computer players in
:mod:`referee.cli.bot_commands`), those of the mail service in
:mod:`referee.cli.mail_commands`, a game's mail trail in
:mod:`referee.cli.trail_commands`, the standings in :mod:`referee.cli.standing_commands`,
the map of several workers in :mod:`referee.cli.shard_commands`;
what they share (options, settings, the games folder, exit codes) in
:mod:`referee.cli.common`.

``referee --help`` shows the commands in panels (:data:`referee.cli.common.PANELS`), each
where its first command comes, in the order the commands are made: so the modules are imported
here with :mod:`~referee.cli.game_commands` first (playing a game, then the game master's
commands) and :mod:`~referee.cli.bot_commands` last (computer players). Their docstrings are
then made typer's help, each paragraph on one line (:func:`referee.cli.common.unwrap_help`).
"""

from __future__ import annotations

from referee.cli import (
    game_commands,
    mail_commands,
    shard_commands,
    standing_commands,
    trail_commands,
)

# isort: split
from referee.cli import bot_commands  # after the others: its panel comes last
from referee.cli.common import app, unwrap_help

unwrap_help(app)

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
