"""The game master's commands on games: create, show, judge, play, resign and check moves
(:data:`~referee.cli.common.PLAYING`); list games, their logs, roll back, change a player,
replay, export (:data:`~referee.cli.common.GAME_MASTER`). In the order ``referee --help``
shows them."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from referee.addresses import Addresses
from referee.bot_seats import check_level
from referee.cli.common import (
    GAME_MASTER,
    PLAYING,
    Config,
    Game,
    GamesDir,
    Json,
    Lang,
    MoveText,
    PlayerName,
    Turn,
    app,
    checked_language,
    echo,
    fail,
    field,
    games_folder,
    guard,
    herald,
    language_option,
    print_json,
    settings,
    spool,
    store,
    writer,
)
from referee.engine import GameView, Resign, Rules, legal_moves, move_json, view
from referee.errors import MoveError, RefereeError, RequestError
from referee.export import replay_page
from referee.games import (
    Played,
    change_address,
    check_move,
    create_game,
    log_entries,
    move_due,
    play_move,
    position,
    read_setup_file,
    resign,
    rollback,
    ruling,
    summaries,
)
from referee.invitations import Invitations, invitation_summaries
from referee.mail.judging.commands.choosing import zone_of
from referee.mail.state.ledger import MAIL_CHOICES, Ledger
from referee.notation import format_move
from referee.owner import user_name
from referee.record import TIMEOUTS, SourceEntry, Timeout
from referee.settings import Settings
from referee.store import Store
from referee.timing import parse_deadline


def state_json(shown: GameView, game: str, due: datetime | None) -> dict[str, Any]:
    """The state JSON of docs/interface.md, with ``deadline`` (when the move awaited is due, or
    null once the game is finished) after ``to_move``."""
    body: dict[str, Any] = {}
    for key, value in shown.to_json(game).items():
        body[key] = value
        if key == "to_move":
            body["deadline"] = None if due is None else due.isoformat()
    return body


@app.command(rich_help_panel=PLAYING)
def new(
    game: Game,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            help="NAME=EMAIL, once per player in seat order (2 to 4 players in all).",
            show_default=False,
        ),
    ] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            help="NAME=LEVEL: a seat played by a computer player (random, greedy, search or "
            "expert), seated after the --player seats, in the order given.",
            show_default=False,
        ),
    ] = None,
    bot_seed: Annotated[
        int | None,
        typer.Option(help="Seed of the bots' randomness (default: from the game's seed)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Shuffle from this seed.")] = None,
    setup: Annotated[
        Path | None,
        typer.Option(help="TOML file fixing decks, nobles and bank instead of shuffling."),
    ] = None,
    points_to_win: Annotated[int, typer.Option(help="Rule option: points to win.")] = 15,
    gold: Annotated[int, typer.Option(help="Rule option: gold tokens in the bank.")] = 5,
    deadline: Annotated[
        str,
        typer.Option(metavar="DURATION", help="Time per move, like 3d, 36h or 2w (1h to 60d)."),
    ] = "7d",
    timeout: Annotated[
        str,
        typer.Option(
            metavar="wait|forfeit|bot",
            help="At a move's deadline: wait (remind; tell the game master), forfeit "
            "(the player is resigned) or bot (a bot plays that one turn for them).",
        ),
    ] = "wait",
    spectators: Annotated[
        bool, typer.Option("--spectators", help="Let others watch the game by mail.")
    ] = False,
    language: Annotated[
        str | None,
        language_option(
            "The language of the game's letters to players who chose none: en, cy, is, eo or "
            "bn (default: the setting language)."
        ),
    ] = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Create a game: players are seated in the order given; seat 0 moves first."""

    def run() -> None:
        players = []
        for entry in player or []:
            name, sep, email = entry.partition("=")
            if not sep or not name or not email:
                raise RequestError(
                    f"--player {entry!r}: write NAME=EMAIL, like alice=alice@example.org"
                )
            players.append((name.strip(), email.strip()))
        bots: dict[str, str] = {}
        for entry in bot or []:
            name, sep, level = entry.partition("=")
            if not sep or not name.strip():
                raise RequestError(f"--bot {entry!r}: write NAME=LEVEL, like robo=greedy")
            bots[name.strip()] = check_level(level.strip())
            players.append((name.strip(), ""))
        fixed = read_setup_file(setup) if setup else None
        rules = Rules(points_to_win=points_to_win, gold=gold)
        per_move = parse_deadline(deadline)
        policy = _timeout(timeout)
        found = settings(config, games_dir)
        _check_shard(found, game)
        root = games_folder(config, games_dir, create=True)
        replayed = create_game(
            Store(root),
            game,
            players,
            seed=seed,
            setup=fixed,
            rules=rules,
            herald=herald(root),
            deadline=per_move,
            timeout=policy,
            spectators=spectators,
            bots=bots,
            bot_seed=bot_seed,
            addresses=Addresses.of(found.address, found.private_domains),
            language=checked_language(language) if language else None,
        )
        state = replayed.state
        if as_json:
            print_json(state_json(view(state), game, move_due(replayed)))
            return
        seats = ", ".join(f"{p.name} (seat {i})" for i, p in enumerate(state.players))
        echo(f"Created game {game}: {seats}. {state.player.name} moves first.\n")
        echo(writer(config, games_dir, language).board_text(view(state), game), nl=False)

    guard(as_json, run)


def _check_shard(found: Settings, game: str) -> None:
    """Refuse to make, on a worker of several, a game another worker is to keep: Postfix
    would hand its replies there (docs/scaling.md)."""
    shards = found.shards()
    if not shards.sharded or shards.keeps(game):
        return
    owner = shards.owner(game)
    raise RequestError(
        f"game {game!r} is for worker {owner} ({shards.workers[owner - 1]}) to keep, not this "
        f"one (shard {shards.this}): make it there, or give it an id ending in one of "
        f"{shards.letters(shards.this)!r}"
    )


def _timeout(text: str) -> Timeout:
    for policy in TIMEOUTS:
        if text.strip().casefold() == policy:
            return policy
    said = f"{', '.join(TIMEOUTS[:-1])} or {TIMEOUTS[-1]}"
    raise RequestError(f"--timeout {text!r}: write {said}")


@app.command(rich_help_panel=PLAYING)
def show(
    game: Game,
    as_player: Annotated[
        str | None, typer.Option("--as", help="Show exactly what this player may see.")
    ] = None,
    turn: Turn = None,
    lang: Lang = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Show the board now (or after turn N), publicly or as one player sees it."""

    def run() -> None:
        if lang:
            checked_language(lang)
        replayed = store(config, games_dir).load(game)
        state = position(replayed, turn)
        name = None
        if as_player is not None:
            try:
                name = state.players[state.seat_of(as_player)].name
            except KeyError as err:
                raise RequestError(str(err.args[0])) from None
        shown = view(state, name)
        if as_json:
            print_json(state_json(shown, game, move_due(replayed, turn)))
        else:
            echo(writer(config, games_dir, lang).board_text(shown, game), nl=False)

    guard(as_json, run)


@app.command(rich_help_panel=PLAYING)
def legal(
    game: Game,
    turn: Turn = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """List every legal move of the player to move (now, or after turn N)."""

    def run() -> None:
        state = position(store(config, games_dir).load(game), turn)
        moves = legal_moves(state)
        player = None if state.status == "finished" else state.player.name
        if as_json:
            print_json(
                {"player": player, "turn": state.turn, "moves": [move_json(m) for m in moves]}
            )
            return
        if player is None:
            echo(f"Game {game} is finished: no legal moves.")
            return
        echo(f"{player} to move at turn {state.turn}: {len(moves)} legal moves")
        for move in moves:
            echo(f"  {format_move(move)}")

    guard(as_json, run)


@app.command(rich_help_panel=PLAYING)
def move(
    game: Game,
    name: PlayerName,
    text: MoveText,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Judge the move but do not play it.")
    ] = False,
    as_of: Annotated[
        datetime | None,
        typer.Option(
            "--as-of",
            metavar="TIME",
            formats=[
                "%Y-%m-%dT%H:%M:%S%z",
                "%Y-%m-%dT%H:%M%z",
                "%Y-%m-%dT%H:%M:%S",
                "%Y-%m-%dT%H:%M",
                "%Y-%m-%d %H:%M",
            ],
            help="Rule that the move was sent in time, at TIME (ISO 8601; UTC unless a zone "
            "is given): recorded as the game master's ruling, told to the players.",
        ),
    ] = None,
    reason: Annotated[
        str | None,
        typer.Option("--reason", help="Why the game master rules so (needed with --as-of)."),
    ] = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Play MOVE for player NAME, as a game master would.

    With --as-of and --reason, the move is played as the game master's ruling that the player
    sent it in time: the ruling is recorded, and the players are told."""

    def run() -> None:
        source = SourceEntry(kind="command-line")
        if as_of is not None or reason is not None:
            if as_of is None:
                raise RequestError(
                    "--reason records a ruling: give --as-of TIME too, when the move was sent"
                )
            source = ruling(as_of, reason or "", user_name(os.geteuid()))
        root = games_folder(config, games_dir, writes=not dry_run)
        played = play_move(
            Store(root), game, name, text, source, dry_run=dry_run, herald=herald(root)
        )
        _report(game, played, dry_run, as_json)

    guard(as_json, run)


def _report(game: str, played: Played, dry_run: bool, as_json: bool) -> None:
    """What ``move`` and ``resign`` print about the turn played (or judged, in a dry run)."""
    after = played.after
    if as_json:
        print_json(
            {
                "game": game,
                "turn": played.turn.turn,
                "player": played.turn.player,
                "move": move_json(played.move),
                "text": format_move(played.move),
                "dry_run": dry_run,
                "state": state_json(view(after), game, played.due),
            }
        )
        return
    if isinstance(played.move, Resign):
        verb = "would resign" if dry_run else "resigned and left the game"
        echo(f"Turn {played.turn.turn}: {played.turn.player} {verb}.")
    else:
        verb = "would play" if dry_run else "played"
        echo(f"Turn {played.turn.turn}: {played.turn.player} {verb} {format_move(played.move)}")
    if after.status == "finished":
        echo(f"The game is over. Winners: {', '.join(view(after).winners)}")
    elif not dry_run:
        echo(f"{after.player.name} to move.")


@app.command(rich_help_panel=PLAYING)
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
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Play the moves of a file in order; stop at the first refused one, naming its line."""
    try:
        root = games_folder(config, games_dir, writes=True)
    except RefereeError as err:
        fail(err, as_json)
    games = Store(root)
    try:
        lines = moves.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        fail(RequestError(f"cannot read {moves}: {err.strerror}"), as_json)
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
            result = play_move(games, game, name, text.strip(), source, herald=herald(root))
        except RefereeError as err:
            if not as_json:
                for turn, entry in played:
                    echo(f"Turn {turn}: {entry}")
            fail(err, as_json, line=number)
        played.append((result.turn.turn, f"{result.turn.player} {format_move(result.move)}"))
    if as_json:
        print_json({"game": game, "played": [{"turn": t, "move": m} for t, m in played]})
    else:
        for turn, entry in played:
            echo(f"Turn {turn}: {entry}")
        echo(f"{len(played)} moves played.")


@app.command(name="resign", rich_help_panel=PLAYING)
def resign_command(
    game: Game,
    name: PlayerName,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Resign player NAME, as a game master would.

    Their turn or not, they leave the game: their tokens go back to the bank, their reserved
    cards out of the game unseen, and they cannot win."""

    def run() -> None:
        source = SourceEntry(kind="command-line")
        root = games_folder(config, games_dir, writes=True)
        played = resign(Store(root), game, name, source, herald=herald(root))
        _report(game, played, False, as_json)

    guard(as_json, run)


@app.command(rich_help_panel=PLAYING)
def check(
    game: Game,
    name: PlayerName,
    text: MoveText,
    turn: Turn = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Tell whether MOVE is legal for NAME now, or was after turn N, and if not, why."""

    def run() -> None:
        replayed = store(config, games_dir).load(game)
        at = len(replayed.turns) if turn is None else turn
        try:
            checked = check_move(replayed, name, text, turn)
        except MoveError as err:
            fail(err, as_json, turn=at)
        if as_json:
            print_json({"legal": True, "turn": at, "move": move_json(checked)})
        else:
            echo(f"Legal after turn {at}: {name} {format_move(checked)}")

    guard(as_json, run)


@app.command(rich_help_panel=GAME_MASTER)
def games(games_dir: GamesDir = None, config: Config = None, as_json: Json = False) -> None:
    """List every game with its status, turn, player to move and last activity.

    The games proposed by mail that have not started (invited, or cancelled) are listed too."""

    def run() -> None:
        games = store(config, games_dir)
        rows = summaries(games) + invitation_summaries(Invitations(games.root), games)
        if as_json:
            print_json(rows)  # a list, as docs/interface.md gives it
            return
        if not rows:
            echo("No games yet: create one with 'referee new'.")
        for r in rows:
            if r["status"] == "unreadable":
                echo(f"{r['game']:<16} UNREADABLE  {field(r['error'])}")
                continue
            if r["status"] in ("invited", "cancelled"):
                waiting = ", ".join(map(field, r["waiting"])) or "nobody"
                echo(
                    f"{r['game']:<16} {r['status']:<10} proposed by {field(r['proposer'])}, "
                    f"waiting for {waiting}  {field(r.get('why', ''))}"
                )
                continue
            who = f"{r['to_move']} to move" if r["to_move"] else "over"
            echo(
                f"{r['game']:<16} {r['status']:<10} turn {r['turn']:>3}  {who:<18} "
                f"last activity {r['last_activity']}"
            )

    guard(as_json, run)


@app.command(rich_help_panel=GAME_MASTER)
def log(
    game: Game, games_dir: GamesDir = None, config: Config = None, as_json: Json = False
) -> None:
    """Show every turn of a game (who, what, when, from which message) and every rollback.

    A change of a player's address (referee player --email) is shown too."""

    def run() -> None:
        games = store(config, games_dir)
        entries = log_entries(games, game, games.load(game))
        if as_json:
            print_json({"game": game, "log": entries})
            return
        for e in entries:
            if e["event"] == "created":
                echo(f"{e['at']}  created")
            elif e["event"] == "turn":
                source = SourceEntry.model_validate(e["source"]).describe()
                echo(
                    f"{e['at']}  turn {e['turn']:>3}  {e['player']:<10} {e['move']}  "
                    f"[{field(source)}]"
                )
            elif e["event"] == "amendment":
                echo(
                    f"{e['at']}  ADDRESS of {e['player']}: {field(e['was'])} -> "
                    f"{field(e['email'])}, by {field(e['by'])}: {field(e['reason'])}"
                )
            else:
                echo(
                    f"{e['at']}  ROLLBACK to turn {e['to']} ({e['undone']} undone, kept in "
                    f"{e['archive']}): {field(e['reason'])}"
                )

    guard(as_json, run)


@app.command(name="rollback", rich_help_panel=GAME_MASTER)
def rollback_command(
    game: Game,
    to: Annotated[int, typer.Option("--to", help="Keep turns 1..N; undo the rest.", min=0)],
    reason: Annotated[str, typer.Option("--reason", help="Why (kept with the undone turns).")],
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Undo the turns after turn N; they move to the game's archive with the reason."""

    def run() -> None:
        games = store(config, games_dir, writes=True)
        replayed, folder = rollback(games, game, to, reason)
        told = herald(games.root)
        told.rolled_back(game, datetime.now(UTC))
        told.told_rollback(replayed, reason.strip())
        if as_json:
            print_json({"game": game, "turn": replayed.state.turn, "archive": str(folder)})
            return
        echo(f"Game {game} is back at turn {to}; the undone turns are kept in {folder}.")
        if replayed.state.status != "finished":
            echo(f"{replayed.state.player.name} to move.")

    guard(as_json, run)


@app.command(rich_help_panel=GAME_MASTER)
def player(
    game: Game,
    name: PlayerName,
    email: Annotated[
        str | None,
        typer.Option("--email", help="The player's new address.", show_default=False),
    ] = None,
    reason: Annotated[
        str | None,
        typer.Option("--reason", help="Why (kept in the record).", show_default=False),
    ] = None,
    by: Annotated[
        str | None, typer.Option("--by", help="Who asks (default: the user running this).")
    ] = None,
    language: Annotated[
        str | None,
        language_option(
            "The language the player's letters are written in: en, cy, is, eo or bn (as the "
            "player's mail command language does)."
        ),
    ] = None,
    timezone: Annotated[
        str | None,
        typer.Option(
            "--timezone",
            metavar="AREA/CITY",
            help="The time zone the player's deadlines are shown in, like Asia/Dhaka.",
            show_default=False,
        ),
    ] = None,
    mail: Annotated[
        str | None,
        typer.Option(
            "--mail",
            metavar="every-turn|my-turn|digest",
            help="How much mail the player gets: a board after every turn; only when it is "
            "their move (with what happened since); or that and a daily digest.",
            show_default=False,
        ),
    ] = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Give a player a new mail address, or choose how their letters are written and sent.

    With --email and --reason, the new address is recorded with who asked for it and why; the
    board is mailed there, and the old address can no longer move.

    With --language, --timezone and --mail, choose the language and time zone of the player's
    letters, and how many they get."""

    def run() -> None:
        chosen = Chosen(language, timezone, mail)
        if email is None and chosen.nothing:
            raise RequestError(
                "say what to change: --email ADDRESS --reason WHY, --language CODE, "
                "--timezone AREA/CITY or --mail every-turn|my-turn|digest"
            )
        if email is None:
            _tell_chosen(_choose(config, games_dir, game, name, chosen), as_json)
            return
        if reason is None:
            raise RequestError("--email needs --reason WHY too: it is kept in the record")
        found = settings(config, games_dir)
        root = games_folder(config, games_dir, writes=True)
        who = by or user_name(os.geteuid())
        rules = Addresses.of(found.address, found.private_domains)
        _, change = change_address(
            Store(root), game, name, email, reason, by=who, herald=herald(root), addresses=rules
        )
        kept = None if chosen.nothing else _choose(config, games_dir, game, name, chosen)
        if as_json:  # one object: the address changed, and what was chosen with it
            print_json(
                {
                    **(kept or {}),
                    "game": game,
                    "player": change.player.name,
                    "email": change.player.email,
                    "was": change.player.was,
                    "amendment": change.amendment,
                }
            )
            return
        echo(
            f"{change.player.name}'s address in game {game} is now {change.player.email} (was "
            f"{change.player.was}); the board is queued for them there. Letters refused for "
            "good can be sent again with: referee outbox resend ID"
        )
        if kept is not None:
            _tell_chosen(kept, as_json=False)

    guard(as_json, run)


@dataclass(frozen=True)
class Chosen:
    """What `referee player` chooses for a player's letters (None: left as it is)."""

    language: str | None
    timezone: str | None
    mail: str | None

    @property
    def nothing(self) -> bool:
        return self.language is None and self.timezone is None and self.mail is None


def _choose(
    config: Path | None,
    games_dir: Path | None,
    game: str,
    name: str,
    chosen: Chosen,
) -> dict[str, str | None]:
    """Keep the language, time zone and mail ``name`` of ``game`` chose (their address's);
    what their address reads now, as JSON shows it."""
    language, timezone = chosen.language, chosen.timezone
    root = games_folder(config, games_dir, writes=True)
    players = Store(root).load(game).record.players
    found = [p for p in players if p.name.casefold() == name.casefold() and not p.bot]
    if not found:
        names = ", ".join(p.name for p in players if not p.bot)
        raise RequestError(f"no player {name!r} in game {game}: the players are {names}")
    address = found[0].email
    code = checked_language(language) if language else None
    zone = zone_of(timezone) if timezone else None
    if timezone and zone is None:
        raise RequestError(
            f"--timezone {timezone!r} is not a time zone: write an area and a city, like "
            "Asia/Dhaka or Europe/London"
        )
    if chosen.mail is not None and chosen.mail not in MAIL_CHOICES:
        raise RequestError(
            f"--mail {chosen.mail!r}: give every-turn (a board after every turn), my-turn "
            "(only at their move, with what happened since) or digest (that, and once a day "
            "what happened)"
        )
    ledger = Ledger(spool(root).root)
    ledger.choose(address, language=code, timezone=zone, mail=chosen.mail)
    chosen_language, chosen_zone = ledger.choices(address)
    how_much = ledger.mail_choice(address)
    return {"game": game, "player": name, "email": address,
            "language": chosen_language, "timezone": chosen_zone, "mail": how_much}  # fmt: skip


def _tell_chosen(kept: dict[str, str | None], as_json: bool) -> None:
    """What :func:`_choose` kept, as JSON or in a sentence."""
    if as_json:
        print_json(kept)
        return
    echo(
        f"{kept['player']} ({kept['email']}) reads the referee's letters in "
        f"{kept['language'] or 'the default'} language, times in {kept['timezone'] or 'UTC'}, "
        f"and gets mail: {kept['mail']}."
    )


@app.command(rich_help_panel=GAME_MASTER)
def replay(
    game: Game,
    verify: Annotated[
        bool, typer.Option("--verify", help="Fail, naming the first bad turn, unless all is whole.")
    ] = False,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Rebuild a game from its record, turn by turn: its turns, then the board they lead to."""

    def run() -> None:
        replayed = store(config, games_dir).load(game, strict=verify)
        final = replayed.state
        if as_json:
            print_json(
                {
                    "game": game,
                    "turns": [
                        {"turn": t.turn, "player": t.player, "move": t.move.text}
                        for t in replayed.turns
                    ],
                    "verified": verify,
                    "problem": None if replayed.problem is None else str(replayed.problem),
                    "state": state_json(view(final), game, move_due(replayed)),
                }
            )
        else:
            for t in replayed.turns:
                echo(f"{t.turn:>4}  {t.player:<10} {t.move.text}")
            echo("")
            echo(writer(config, games_dir).board_text(view(final), game), nl=False)
            if verify:
                echo(f"Verified: {len(replayed.turns)} turns, every file whole and legal.")
        if replayed.problem is not None:
            echo(
                f"referee: stopped at turn {replayed.problem.turn}: {replayed.problem}; "
                "run with --verify to fail on it",
                err=True,
            )

    guard(as_json, run)


@app.command(rich_help_panel=GAME_MASTER)
def export(
    game: Game,
    html: Annotated[
        Path,
        typer.Option(
            "--html",
            metavar="FILE",
            help="Write the replay page here: one HTML file that needs no network ('-': "
            "standard output).",
            show_default=False,
        ),
    ],
    as_player: Annotated[
        str | None,
        typer.Option(
            "--as",
            help="Show every turn as this player saw it, their blind reserved cards included "
            "(only once the game is finished).",
        ),
    ] = None,
    lang: Lang = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Write a game as one self-contained HTML page that replays it turn by turn.

    The page shows the board at each turn, the move that led to it, and the result; it is the
    public view, unless --as names a player."""

    def run() -> None:
        replayed = store(config, games_dir).load(game)
        page = replay_page(replayed, game, as_player, writer(config, games_dir, lang))
        if str(html) == "-":
            echo(page.html, nl=False)
            return
        size = write_page(html, page.html)
        seen = "the public view" if page.viewer is None else f"as {page.viewer} saw it"
        if as_json:
            print_json(
                {
                    "game": game,
                    "file": str(html),
                    "turns": page.turns,
                    "viewer": page.viewer,
                    "bytes": size,
                }
            )
            return
        echo(
            f"Wrote {html}: game {game}, turns 0 to {page.turns}, {seen} ({size // 1024} KB). "
            "Open it in a browser; it needs no network."
        )

    guard(as_json, run)


def write_page(path: Path, text: str) -> int:
    """Write ``text`` to ``path`` whole or not at all (replacing a file that is there); its
    size in bytes."""
    data = text.encode("utf-8")
    if path.is_dir():
        raise RequestError(f"--html {path}: that is a folder; name a file, like {path}/game.html")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError as err:
        temporary.unlink(missing_ok=True)
        raise RequestError(f"cannot write {path}: {err.strerror}") from None
    return len(data)
