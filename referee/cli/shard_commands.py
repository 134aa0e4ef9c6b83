"""``referee shard``: the Postfix ``transport_maps`` table that shares the games out among
several workers, each a ``referee serve --lmtp``; ``referee relocate``: a game moved from one
worker to another (docs/scaling.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from referee.cli.common import (
    WORKERS,
    Config,
    Game,
    GamesDir,
    Json,
    app,
    echo,
    games_folder,
    guard,
    print_json,
    settings,
)
from referee.errors import RequestError
from referee.invitations import Invitations
from referee.mail.relocating import relocate as relocate_game
from referee.settings import Lmtp, Settings, load_settings
from referee.shards import MOST_WORKERS, Shards, by_rule, postfix_map
from referee.store import Store

#: Where the first worker listens when neither the command line nor the config says.
FIRST_WORKER = ("127.0.0.1", 2401)


@app.command(rich_help_panel=WORKERS)
def shard(
    count: Annotated[
        int,
        typer.Option(
            "--workers", metavar="N", help="How many workers share the games.", show_default=False
        ),
    ],
    workers: Annotated[
        list[str] | None,
        typer.Option(
            "--lmtp",
            metavar="HOST:PORT",
            help="Each worker's LMTP listener (HOST:PORT or unix:/path), in order, N times. "
            "Default: the config's \\[lmtp] workers, else N ports in a row from its \\[lmtp] "
            "listen (127.0.0.1:2401).",
            show_default=False,
        ),
    ] = None,
    address: Annotated[
        str | None,
        typer.Option(
            "--address", help="The referee's address (default: the config's).", show_default=False
        ),
    ] = None,
    pin: Annotated[
        bool,
        typer.Option(
            "--pin",
            help="Instead of the table: the games this worker holds that N workers would give "
            "to another, as moved entries that keep them here (before growing to N workers).",
        ),
    ] = False,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Print the Postfix table that hands each reply to the worker keeping its game.

    It is a transport_maps table (regexp) for N workers (--workers N): put it in
    /etc/postfix/referee-shards, and give each worker the \\[lmtp] workers and shard printed at
    its end."""

    def run() -> None:
        if not 1 <= count <= MOST_WORKERS:
            raise RequestError(
                f"--workers {count}: the games are shared by 1 to {MOST_WORKERS} workers"
            )
        settings = load_settings(config)
        if pin:
            _print_pins(settings, count, as_json)
            return
        plan = _plan(count, workers or [], settings)
        referee = address or settings.address
        table = postfix_map(referee, plan)
        if as_json:
            print_json(
                {
                    "address": referee,
                    "workers": [
                        {"shard": n, "listen": w, "letters": plan.letters(n)}
                        for n, w in enumerate(plan.workers, start=1)
                    ],
                    "moved": dict(plan.moved),
                    "transport_map": table,
                }
            )
            return
        echo(table, nl=False)
        echo("# each worker's config file, [lmtp]:")
        listed = ", ".join(f'"{w}"' for w in plan.workers)
        echo(f"#   workers = [{listed}]")
        for number, listener in enumerate(plan.workers, start=1):
            echo(f"#   shard = {number}    (on the worker listening on {listener})")

    guard(as_json, run)


def _print_pins(settings: Settings, count: int, as_json: bool) -> None:
    """The games (and invitations) this worker holds whose keeper N workers' rule would
    change, each pinned here: what to add to every worker's ``moved`` before growing."""
    now = settings.shards()
    this, moved = now.this, now.moved
    if this > count:
        raise RequestError(
            f"this is worker {this}: with --workers {count} it would keep nothing; move its "
            "games first (referee relocate)"
        )
    held = {*Store(settings.games_dir).game_ids(), *Invitations(settings.games_dir).ids()}
    pins = {
        game: this
        for game in sorted(held)
        if moved.get(game, this) == this and (game in moved or by_rule(game, count) != this)
    }
    if as_json:
        print_json({"worker": this, "workers": count, "moved": pins})
        return
    echo(
        f"# the {len(pins)} game(s) worker {this} holds that {count} workers would give to "
        "another, kept here: put these in every worker's [lmtp] moved (with the other "
        "workers' own) before growing"
    )
    echo("moved = { " + ", ".join(f"{g} = {w}" for g, w in pins.items()) + " }")


def _plan(count: int, given: list[str], settings: Settings) -> Shards:
    """The workers: as given, else as the config names them, else ports in a row."""
    lmtp = settings.lmtp
    moved = dict(lmtp.moved) if lmtp is not None else {}
    if given:
        if len(given) != count:
            raise RequestError(
                f"{len(given)} --lmtp for --workers {count}: name each worker's listener once, "
                "in order"
            )
        for listener in given:
            try:
                Lmtp(listen=listener)
            except ValueError:
                raise RequestError(
                    f"--lmtp {listener!r}: give HOST:PORT (127.0.0.1:2401) or unix:/path"
                ) from None
        workers = list(given)
    elif lmtp is not None and len(lmtp.workers) == count:
        workers = list(lmtp.workers)
    else:
        host, port = FIRST_WORKER
        where = lmtp.where() if lmtp is not None else None
        if isinstance(where, tuple):
            host, port = where
        if port + count - 1 > 65535:
            raise RequestError(f"ports {port} to {port + count - 1}: give each --lmtp")
        shown = f"[{host}]" if ":" in host else host
        workers = [f"{shown}:{port + n}" for n in range(count)]
    try:
        return Shards(tuple(workers), 1, moved)
    except ValueError as err:
        raise RequestError(str(err)) from None


@app.command(rich_help_panel=WORKERS)
def relocate(
    game: Game,
    to: Annotated[
        Path | None,
        typer.Option(
            "--to",
            metavar="DIR",
            help="Move the game from this worker's games folder to DIR (another worker's, "
            "or a folder to carry to its machine).",
            show_default=False,
        ),
    ] = None,
    source: Annotated[
        Path | None,
        typer.Option(
            "--from",
            metavar="DIR",
            help="Move the game from DIR (a folder carried here) into this worker's.",
            show_default=False,
        ),
    ] = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Move a game to another worker's games folder, with its players' threads and notes.

    Run it while the worker the game leaves is stopped (docs/scaling.md)."""

    def run() -> None:
        if (to is None) == (source is None):
            raise RequestError("give --to DIR (from this worker) or --from DIR (to this worker)")
        found = settings(config, games_dir)
        here = games_folder(config, games_dir, writes=True, create=source is not None)
        if to is not None:
            leaving, arriving, intake = here, to, found.lmtp_folder
        else:
            assert source is not None
            leaving, arriving, intake = source, here, source / ".lmtp"
        done = relocate_game(game, leaving, arriving, intake, datetime.now(UTC))
        if as_json:
            print_json(
                {
                    "game": game,
                    "from": str(leaving),
                    "to": str(arriving),
                    "files": done.files,
                    "notes": done.notes,
                    "set_aside": str(done.set_aside),
                }
            )
            return
        echo(
            f"Moved game {game} from {leaving} to {arriving}: {done.files} file(s), "
            f"{done.notes} mail note(s). The folder it left is kept in {done.set_aside}."
        )

    guard(as_json, run)
