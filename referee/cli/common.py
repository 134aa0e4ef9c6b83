"""What every command shares: the app, its options, where the games are, and how errors end.

Errors become exit codes here and nowhere else: 0 success; 1 a refused move or a bad request,
with a one-line reason on stderr (or a JSON error object on stdout under ``--json``); 2 usage
errors (typer's own). ``referee serve`` exits with :data:`EXIT_CONFIG` on a configuration or
permission problem, which running again will not mend (its systemd unit does not restart on
it).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from referee.errors import (
    AmbiguousMoveError,
    ConfigurationError,
    MoveError,
    RefereeError,
    ReplayError,
    RequestError,
)
from referee.mail.herald import MailHerald
from referee.mail.state.spool import Spool
from referee.owner import check_owner
from referee.settings import Settings, load_settings
from referee.store import Store
from referee.terminal import json_visible, visible
from referee.wording.vocabulary import languages
from referee.wording.writer import Reader, Writer

#: The exit status of a configuration or permission problem (sysexits' EX_CONFIG).
EXIT_CONFIG = 78

app = typer.Typer(
    name="referee",
    help="A referee for Splendor played by mail or by turn files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# The panels of ``referee --help``, each command in one (its ``rich_help_panel``). typer shows
# a panel where its first command comes, and the commands in the order they were made (those of
# sub-apps, like ``outbox``, after all the others): the order in which referee/cli/__init__.py
# imports the modules, then their order in each module.
PLAYING = "Playing a game"
GAME_MASTER = "Game master"
MAIL_SERVICE = "Mail service"
WORKERS = "Several workers"
STANDINGS = "Standings"
BOTS = "Computer players"
#: The panels, in the order ``referee --help`` shows them.
PANELS = (PLAYING, GAME_MASTER, MAIL_SERVICE, WORKERS, STANDINGS, BOTS)


def unwrapped(text: str) -> str:
    """``text`` (a command's docstring) with the lines of each paragraph joined, for the
    terminal to wrap: typer (in its rich markup mode) joins them only in the first paragraph,
    and only on the command's own help; it keeps the line breaks of the later paragraphs, and
    those of the first in the list of commands. A paragraph whose first line is ``\\b``
    (click's mark) keeps its line breaks, that line left out."""
    paragraphs = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        kept = paragraph.removeprefix("\b\n")
        paragraphs.append(kept if kept != paragraph else paragraph.replace("\n", " "))
    return "\n\n".join(paragraphs)


def unwrap_help(commands: typer.Typer) -> None:
    """Give every command of ``commands`` (and of its sub-apps) its docstring
    :func:`unwrapped` as its help; call it once they are all made."""
    for command in commands.registered_commands:
        text = command.help if command.help is not None else inspect.getdoc(command.callback)
        if text:
            command.help = unwrapped(text)
    for group in commands.registered_groups:
        if group.typer_instance is not None:
            unwrap_help(group.typer_instance)


def version() -> str:
    """The installed referee's version (from its package metadata)."""
    try:
        return metadata.version("referee")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def _show_version(asked: bool) -> None:
    if asked:
        echo(f"referee {version()}")
        raise typer.Exit()


@app.callback()
def _everywhere(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help="Print the referee's version and exit.",
        ),
    ] = False,
) -> None:
    """A referee for Splendor played by mail or by turn files."""


GamesDir = Annotated[
    Path | None,
    typer.Option(
        "--games-dir",
        help="Folder of games (default: $REFEREE_GAMES_DIR, else games_dir in the config "
        "file, else ./games).",
        show_default=False,
    ),
]
Config = Annotated[
    Path | None,
    typer.Option(
        "--config",
        envvar="REFEREE_CONFIG",
        help="TOML file of settings, the service's (default: $REFEREE_CONFIG; see docs/mail.md).",
        show_default=False,
    ),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def language_option(help: str) -> Any:
    """The option ``--language CODE`` (or ``--lang``), saying ``help``."""
    return typer.Option("--language", "--lang", metavar="CODE", help=help, show_default=False)


Lang = Annotated[
    str | None,
    language_option("The language to write in: en, cy, is, eo or bn (default: the setting "
                    "language)."),
]  # fmt: skip
Game = Annotated[str, typer.Argument(help="The game id.", show_default=False)]
PlayerName = Annotated[str, typer.Argument(help="The player.", show_default=False)]
MoveText = Annotated[
    str,
    typer.Argument(
        metavar="MOVE", help="Move notation, or a JSON move object.", show_default=False
    ),
]
Turn = Annotated[
    int | None,
    typer.Option("--turn", help="The position after this turn (0: the set-up).", min=0),
]


def settings(config: Path | None, games_dir: Path | None, **given: Any) -> Settings:
    """The settings every command reads: the command line, then the environment, then the
    config file (``--config`` or ``$REFEREE_CONFIG``), as for ``serve``."""
    return load_settings(config, games_dir=games_dir, **given)


def writer(config: Path | None, games_dir: Path | None, language: str | None = None) -> Writer:
    """The letter writer with the service's templates (``templates_dir``), for what a
    command shows: the board, the replay page, the letters waiting; in ``language`` (None:
    the settings' ``language``)."""
    found = settings(config, games_dir)
    chosen = checked_language(language) if language else found.language
    return Writer.with_templates(found.templates_dir).reading(Reader(chosen))


def checked_language(code: str) -> str:
    """``code`` when the referee writes that language; RequestError naming them all if not."""
    if code not in languages():
        raise RequestError(
            f"--lang {code!r}: the referee writes {', '.join(languages())}; give one of those"
        )
    return code


def games_folder(
    config: Path | None, games_dir: Path | None, *, writes: bool = False, create: bool = False
) -> Path:
    """The games folder, which must exist (unless ``create``: only ``new`` and ``serve`` make
    it); for a command that ``writes`` to it, this user must own it."""
    root = settings(config, games_dir).games_dir
    if not create and not root.is_dir():
        raise RequestError(
            f"there is no games folder {root}: give the right one with --games-dir or "
            "--config (or $REFEREE_GAMES_DIR, $REFEREE_CONFIG), or create a game there "
            "with 'referee new'"
        )
    if writes or create:
        check_owner(root)
    return root


def store(config: Path | None, games_dir: Path | None, *, writes: bool = False) -> Store:
    return Store(games_folder(config, games_dir, writes=writes))


def spool(root: Path) -> Spool:
    """Where mail for players waits for the service (``referee serve``) to send it."""
    return Spool(root)


def herald(root: Path) -> MailHerald:
    """Who tells the players, by mail, what a game master does: letters wait in the outbox
    for the service (``referee serve``) to send them."""
    return MailHerald(spool(root))


def _error_kind(err: RefereeError) -> str:
    return {
        "InvalidMoveError": "invalid",
        "IllegalMoveError": "illegal",
        "AmbiguousMoveError": "ambiguous",
    }.get(type(err).__name__, type(err).__name__.removesuffix("Error").lower())


def fail(err: RefereeError, as_json: bool, status: int = 1, **extra: Any) -> NoReturn:
    """End the command on ``err`` with exit ``status``: one line on stderr (or a JSON error
    on stdout)."""
    if as_json:
        body: dict[str, Any] = {"kind": _error_kind(err), "message": str(err), **extra}
        if err.code is not None:  # what went wrong, as data: docs/messages.md
            body["code"] = err.code
        if isinstance(err, MoveError):
            body["message"] = err.reason
            body["input"] = err.text
        if isinstance(err, AmbiguousMoveError):
            body["candidates"] = err.candidates
        if isinstance(err, ReplayError):
            body["turn"] = err.turn
        print_json({"error": body})
    else:
        where = "".join(f"{k} {v}: " for k, v in extra.items())
        echo(f"referee: {where}{err}", err=True)
    raise typer.Exit(status)


def echo(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    """Print ``text`` for a person (on stderr if ``err``): every command prints through
    here, so that a control character or escape sequence from a mail is shown, never obeyed
    by the terminal (:func:`referee.terminal.visible`)."""
    typer.echo(visible(text), err=err, nl=nl)


def field(value: object) -> str:
    """``value`` to print within a line: as :func:`echo` shows it, and a newline or tab in it
    shown too (a subject or address from a mail could otherwise pass for a line of its own)."""
    return visible(str(value), one_line=True)


def print_json(body: Any) -> None:
    """Print ``body`` as JSON, with nothing in it a terminal would obey (C0 characters are
    escaped by JSON itself, the rest by :func:`referee.terminal.json_visible`)."""
    typer.echo(json_visible(json.dumps(body, ensure_ascii=False, indent=2)))


def guard(as_json: bool, action: Callable[[], None], config_status: int = 1) -> None:
    """Run a command's work; a refusal ends it with its one line (see :func:`fail`), and a
    configuration error with ``config_status``."""
    try:
        action()
    except ConfigurationError as err:
        fail(err, as_json, config_status)
    except RefereeError as err:
        fail(err, as_json)
