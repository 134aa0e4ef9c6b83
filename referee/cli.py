"""The ``referee`` command line: the game master's tools (INTERFACE.md).

A thin shell over :mod:`referee.games`: the only place errors become exit codes. Exit status
0 on success; 1 for a refused move or a bad request, with a one-line reason on stderr (or a
JSON error object on stdout under ``--json``); 2 for usage errors (typer's own).
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import json
import logging
import os
import signal
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from referee.engine import Rules, legal_moves, move_json, view
from referee.errors import (
    AmbiguousMoveError,
    MoveError,
    RefereeError,
    ReplayError,
    RequestError,
)
from referee.games import (
    check_move,
    create_game,
    log_entries,
    play_move,
    position,
    read_setup_file,
    rollback,
    summaries,
)
from referee.mail.spool import Spool
from referee.notation import format_move
from referee.record import SourceEntry
from referee.render import board_text
from referee.service import Service, make_transport, system_clock
from referee.settings import load_settings
from referee.store import Store

app = typer.Typer(
    name="referee",
    help="A referee for Splendor played by mail or by turn files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

GamesDir = Annotated[
    Path | None,
    typer.Option(
        "--games-dir",
        help="Folder of games (default: $REFEREE_GAMES_DIR, else ./games).",
        show_default=False,
    ),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
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


def _games_root(games_dir: Path | None) -> Path:
    return games_dir or Path(os.environ.get("REFEREE_GAMES_DIR") or "games")


def _store(games_dir: Path | None) -> Store:
    return Store(_games_root(games_dir))


def _spool(games_dir: Path | None) -> Spool:
    """Where mail for players waits for the service (``referee serve``) to send it."""
    return Spool(_games_root(games_dir))


def _error_kind(err: RefereeError) -> str:
    return {
        "InvalidMoveError": "invalid",
        "IllegalMoveError": "illegal",
        "AmbiguousMoveError": "ambiguous",
    }.get(type(err).__name__, type(err).__name__.removesuffix("Error").lower())


def _fail(err: RefereeError, as_json: bool, **extra: Any) -> NoReturn:
    if as_json:
        body: dict[str, Any] = {"kind": _error_kind(err), "message": str(err), **extra}
        if isinstance(err, MoveError):
            body["message"] = err.reason
            body["input"] = err.text
        if isinstance(err, AmbiguousMoveError):
            body["candidates"] = err.candidates
        if isinstance(err, ReplayError):
            body["turn"] = err.turn
        _print_json({"error": body})
    else:
        where = "".join(f"{k} {v}: " for k, v in extra.items())
        typer.echo(f"referee: {where}{err}", err=True)
    raise typer.Exit(1)


def _print_json(body: Any) -> None:
    typer.echo(json.dumps(body, ensure_ascii=False, indent=2))


def _guard(as_json: bool, action: Callable[[], None]) -> None:
    try:
        action()
    except RefereeError as err:
        _fail(err, as_json)


@app.command()
def new(
    game: Game,
    player: Annotated[
        list[str],
        typer.Option(
            "--player",
            help="NAME=EMAIL, once per player in seat order (2 to 4).",
            show_default=False,
        ),
    ],
    seed: Annotated[int | None, typer.Option(help="Shuffle from this seed.")] = None,
    setup: Annotated[
        Path | None,
        typer.Option(help="TOML file fixing decks, nobles and bank instead of shuffling."),
    ] = None,
    points_to_win: Annotated[int, typer.Option(help="Rule option: points to win.")] = 15,
    gold: Annotated[int, typer.Option(help="Rule option: gold tokens in the bank.")] = 5,
    games_dir: GamesDir = None,
    as_json: Json = False,
) -> None:
    """Create a game: players are seated in the order given; seat 0 moves first."""

    def run() -> None:
        players = []
        for entry in player:
            name, sep, email = entry.partition("=")
            if not sep or not name or not email:
                raise RequestError(
                    f"--player {entry!r}: write NAME=EMAIL, like alice=alice@example.org"
                )
            players.append((name.strip(), email.strip()))
        fixed = read_setup_file(setup) if setup else None
        rules = Rules(points_to_win=points_to_win, gold=gold)
        replayed = create_game(
            _store(games_dir),
            game,
            players,
            seed=seed,
            setup=fixed,
            rules=rules,
            spool=_spool(games_dir),
        )
        state = replayed.state
        if as_json:
            _print_json(view(state).to_json(game))
            return
        seats = ", ".join(f"{p.name} (seat {i})" for i, p in enumerate(state.players))
        typer.echo(f"Created game {game}: {seats}. {state.player.name} moves first.\n")
        typer.echo(board_text(view(state), game), nl=False)

    _guard(as_json, run)


@app.command()
def show(
    game: Game,
    as_player: Annotated[
        str | None, typer.Option("--as", help="Show exactly what this player may see.")
    ] = None,
    turn: Turn = None,
    games_dir: GamesDir = None,
    as_json: Json = False,
) -> None:
    """Show the board now (or after turn N), publicly or as one player sees it."""

    def run() -> None:
        replayed = _store(games_dir).load(game)
        state = position(replayed, turn)
        name = None
        if as_player is not None:
            try:
                name = state.players[state.seat_of(as_player)].name
            except KeyError as err:
                raise RequestError(str(err.args[0])) from None
        shown = view(state, name)
        if as_json:
            _print_json(shown.to_json(game))
        else:
            typer.echo(board_text(shown, game), nl=False)

    _guard(as_json, run)


@app.command()
def legal(game: Game, turn: Turn = None, games_dir: GamesDir = None, as_json: Json = False) -> None:
    """List every legal move of the player to move (now, or after turn N)."""

    def run() -> None:
        state = position(_store(games_dir).load(game), turn)
        moves = legal_moves(state)
        player = None if state.status == "finished" else state.player.name
        if as_json:
            _print_json(
                {"player": player, "turn": state.turn, "moves": [move_json(m) for m in moves]}
            )
            return
        if player is None:
            typer.echo(f"Game {game} is finished: no legal moves.")
            return
        typer.echo(f"{player} to move at turn {state.turn}: {len(moves)} legal moves")
        for move in moves:
            typer.echo(f"  {format_move(move)}")

    _guard(as_json, run)


@app.command()
def move(
    game: Game,
    name: PlayerName,
    text: MoveText,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Judge the move but do not play it.")
    ] = False,
    games_dir: GamesDir = None,
    as_json: Json = False,
) -> None:
    """Play MOVE for player NAME, as a game master would."""

    def run() -> None:
        source = SourceEntry(kind="command-line")
        played = play_move(
            _store(games_dir), game, name, text, source, dry_run, spool=_spool(games_dir)
        )
        if as_json:
            _print_json(
                {
                    "game": game,
                    "turn": played.turn.turn,
                    "player": played.turn.player,
                    "move": move_json(played.move),
                    "text": format_move(played.move),
                    "dry_run": dry_run,
                    "state": view(played.after).to_json(game),
                }
            )
            return
        verb = "would play" if dry_run else "played"
        typer.echo(
            f"Turn {played.turn.turn}: {played.turn.player} {verb} {format_move(played.move)}"
        )
        after = played.after
        if after.status == "finished":
            typer.echo(f"The game is over. Winners: {', '.join(view(after).winners)}")
        elif not dry_run:
            typer.echo(f"{after.player.name} to move.")

    _guard(as_json, run)


@app.command()
def play(
    game: Game,
    moves: Annotated[
        Path,
        typer.Option(
            "--moves",
            help="File of moves, one per line: NAME MOVE ('#' starts a comment).",
            show_default=False,
        ),
    ],
    games_dir: GamesDir = None,
    as_json: Json = False,
) -> None:
    """Play many moves in order; stop at the first refused one, naming its line."""
    store = _store(games_dir)
    try:
        lines = moves.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        _fail(RequestError(f"cannot read {moves}: {err.strerror}"), as_json)
    played: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        name, _, text = stripped.partition(" ")
        source = SourceEntry(kind="moves-file", file=str(moves), line=number)
        try:
            if not text.strip():
                raise RequestError(
                    f"write NAME MOVE, like 'alice take red green blue'; got {stripped!r}"
                )
            result = play_move(store, game, name, text.strip(), source, spool=_spool(games_dir))
        except RefereeError as err:
            if not as_json:
                for turn, entry in played:
                    typer.echo(f"Turn {turn}: {entry}")
            _fail(err, as_json, line=number)
        played.append((result.turn.turn, f"{result.turn.player} {format_move(result.move)}"))
    if as_json:
        _print_json({"game": game, "played": [{"turn": t, "move": m} for t, m in played]})
    else:
        for turn, entry in played:
            typer.echo(f"Turn {turn}: {entry}")
        typer.echo(f"{len(played)} moves played.")


@app.command()
def replay(
    game: Game,
    verify: Annotated[
        bool, typer.Option("--verify", help="Fail, naming the first bad turn, unless all is whole.")
    ] = False,
    games_dir: GamesDir = None,
    as_json: Json = False,
) -> None:
    """Rebuild the game from its record, turn by turn."""

    def run() -> None:
        replayed = _store(games_dir).load(game, strict=verify)
        final = replayed.state
        if as_json:
            _print_json(
                {
                    "game": game,
                    "turns": [
                        {"turn": t.turn, "player": t.player, "move": t.move.text}
                        for t in replayed.turns
                    ],
                    "verified": verify,
                    "problem": None if replayed.problem is None else str(replayed.problem),
                    "state": view(final).to_json(game),
                }
            )
        else:
            for t in replayed.turns:
                typer.echo(f"{t.turn:>4}  {t.player:<10} {t.move.text}")
            typer.echo("")
            typer.echo(board_text(view(final), game), nl=False)
            if verify:
                typer.echo(f"Verified: {len(replayed.turns)} turns, every file whole and legal.")
        if replayed.problem is not None:
            typer.echo(
                f"referee: stopped at turn {replayed.problem.turn}: {replayed.problem}; "
                "run with --verify to fail on it",
                err=True,
            )

    _guard(as_json, run)


@app.command()
def log(game: Game, games_dir: GamesDir = None, as_json: Json = False) -> None:
    """Every turn of a game: who, what, when, from which message; and every rollback."""

    def run() -> None:
        store = _store(games_dir)
        entries = log_entries(store, game, store.load(game))
        if as_json:
            _print_json({"game": game, "log": entries})
            return
        for e in entries:
            if e["event"] == "created":
                typer.echo(f"{e['at']}  created")
            elif e["event"] == "turn":
                source = SourceEntry.model_validate(e["source"]).describe()
                typer.echo(
                    f"{e['at']}  turn {e['turn']:>3}  {e['player']:<10} {e['move']}  [{source}]"
                )
            else:
                typer.echo(
                    f"{e['at']}  ROLLBACK to turn {e['to']} ({e['undone']} undone, kept in "
                    f"{e['archive']}): {e['reason']}"
                )

    _guard(as_json, run)


@app.command(name="rollback")
def rollback_command(
    game: Game,
    to: Annotated[int, typer.Option("--to", help="Keep turns 1..N; undo the rest.", min=0)],
    reason: Annotated[str, typer.Option("--reason", help="Why (kept with the undone turns).")],
    games_dir: GamesDir = None,
    as_json: Json = False,
) -> None:
    """Undo the turns after turn N; they move to the game's archive with the reason."""

    def run() -> None:
        replayed, folder = rollback(_store(games_dir), game, to, reason)
        if as_json:
            _print_json({"game": game, "turn": replayed.state.turn, "archive": str(folder)})
            return
        typer.echo(f"Game {game} is back at turn {to}; the undone turns are kept in {folder}.")
        if replayed.state.status != "finished":
            typer.echo(f"{replayed.state.player.name} to move.")

    _guard(as_json, run)


@app.command()
def check(
    game: Game,
    name: PlayerName,
    text: MoveText,
    turn: Turn = None,
    games_dir: GamesDir = None,
    as_json: Json = False,
) -> None:
    """Would MOVE have been legal for NAME at the position after turn N? And if not, why?"""

    def run() -> None:
        replayed = _store(games_dir).load(game)
        at = len(replayed.turns) if turn is None else turn
        try:
            checked = check_move(replayed, name, text, turn)
        except MoveError as err:
            _fail(err, as_json, turn=at)
        if as_json:
            _print_json({"legal": True, "turn": at, "move": move_json(checked)})
        else:
            typer.echo(f"Legal after turn {at}: {name} {format_move(checked)}")

    _guard(as_json, run)


@app.command()
def games(games_dir: GamesDir = None, as_json: Json = False) -> None:
    """Every game: status, turn, who is to move, last activity."""

    def run() -> None:
        rows = summaries(_store(games_dir))
        if as_json:
            _print_json({"games": rows})
            return
        if not rows:
            typer.echo("No games yet: create one with 'referee new'.")
        for r in rows:
            if r["status"] == "unreadable":
                typer.echo(f"{r['game']:<16} UNREADABLE  {r['error']}")
                continue
            who = f"{r['to_move']} to move" if r["to_move"] else "over"
            typer.echo(
                f"{r['game']:<16} {r['status']:<10} turn {r['turn']:>3}  {who:<18} "
                f"last activity {r['last_activity']}"
            )

    _guard(as_json, run)


@app.command()
def outbox(games_dir: GamesDir = None, as_json: Json = False) -> None:
    """Letters the service has yet to send, and letters a mail server refused for good."""

    def run() -> None:
        spool = Spool(_store(games_dir).root)

        def row(body: dict[str, Any]) -> dict[str, Any]:
            mail = body["letter"]
            return {
                "to": mail["to"],
                "game": mail["game"],
                "turn": mail["turn"],
                "subject": mail["subject"],
                "attempts": body.get("attempts", 0),
                "error": body.get("error"),
            }

        waiting = [row(body) for body in spool.waiting()]
        failed = [row(body) for body in spool.failed()]
        if as_json:
            _print_json({"waiting": waiting, "failed": failed})
            return
        typer.echo(f"{len(waiting)} letter(s) waiting to be sent, {len(failed)} refused for good.")
        for title, rows in (("Waiting:", waiting), ("Refused for good:", failed)):
            if rows:
                typer.echo(title)
            for r in rows:
                tried = f", tried {r['attempts']} time(s): {r['error']}" if r["error"] else ""
                typer.echo(f"  to {r['to']}: {r['subject']}{tried}")

    _guard(as_json, run)


@app.command()
def serve(
    config: Annotated[
        Path | None, typer.Option("--config", help="TOML file of settings (see docs/mail.md).")
    ] = None,
    mail_dir: Annotated[
        Path | None,
        typer.Option("--mail-dir", help="Use the dir transport on this folder (inbox, outbox …)."),
    ] = None,
    once: Annotated[
        bool, typer.Option("--once", help="Handle what is waiting, send what is queued, exit.")
    ] = False,
    now: Annotated[
        str | None,
        typer.Option(
            "--now",
            help="With --once: run as if the clock read this ISO 8601 time (UTC unless it "
            "says otherwise).",
            show_default=False,
        ),
    ] = None,
    games_dir: GamesDir = None,
) -> None:
    """Run the referee service: read players' replies, judge them, mail every board."""

    def run() -> None:
        clock = system_clock
        if now is not None:
            if not once:
                raise RequestError(
                    "--now needs --once: a service that keeps running uses the clock"
                )
            clock = fixed_clock(now)
        settings = load_settings(config, mail_dir=mail_dir, games_dir=games_dir)
        if mail_dir is not None:  # the command line's choice wins over the config file's
            settings = settings.model_copy(update={"imap": None, "smtp": None})
        logging.basicConfig(
            level=logging.INFO, format="%(asctime)s referee: %(message)s", stream=sys.stderr
        )
        service = Service(settings, make_transport(settings), clock)
        signal.signal(signal.SIGTERM, _stop)  # systemd's stop, like Ctrl-C
        with contextlib.suppress(OSError, ValueError, AttributeError):  # stderr not a file
            faulthandler.register(signal.SIGUSR1, all_threads=True)  # what is it doing? (docs)
        try:
            asyncio.run(service.run(once=once))
        except KeyboardInterrupt:
            typer.echo("referee: stopped", err=True)

    _guard(False, run)


def fixed_clock(text: str) -> Callable[[], datetime]:
    """A clock that always reads the ISO 8601 time ``text`` (UTC unless it says otherwise)."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise RequestError(
            f"--now {text!r} is not an ISO 8601 time: write it like 2026-12-01T09:00:00Z"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return lambda: moment


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    app()


if __name__ == "__main__":
    main()
