"""The game master's commands for computer players: ``play-bots`` and ``hint``."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.bot_seats import bot_move, check_level, play_bots
from referee.cli.common import (
    BOTS,
    Config,
    Game,
    GamesDir,
    Json,
    PlayerName,
    app,
    echo,
    guard,
    herald,
    print_json,
    store,
)
from referee.errors import RequestError


@app.command(name="play-bots", rich_help_panel=BOTS)
def play_bots_command(
    game: Game,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Play the bots' turns until a person is to move or the game ends.

    The service does the same by itself. Each turn is recorded with source bot, its level and
    seed."""

    def run() -> None:
        games = store(config, games_dir, writes=True)
        played = play_bots(games, game, herald(games.root))
        state = games.load(game).state
        if as_json:
            print_json(
                {
                    "game": game,
                    "played": [
                        {"turn": p.turn.turn, "player": p.turn.player, "move": p.turn.move.text}
                        for p in played
                    ],
                    "status": state.status,
                    "to_move": None if state.status == "finished" else state.player.name,
                }
            )
            return
        for p in played:
            echo(f"turn {p.turn.turn}: {p.turn.player} (bot) {p.turn.move.text}")
        if state.status == "finished":
            echo(f"Game {game} is over after turn {state.turn}.")
        else:
            echo(f"{state.player.name} to move (turn {state.turn + 1}).")

    guard(as_json, run)


@app.command(rich_help_panel=BOTS)
def hint(
    game: Game,
    name: PlayerName,
    level: Annotated[
        str, typer.Option(help="The bot asked: random, greedy, search or expert.")
    ] = "search",
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Show what a bot would play for NAME now, and why, in a line.

    It is for a game master: players cannot ask for it by mail during a game."""

    def run() -> None:
        replayed = store(config, games_dir).load(game)
        state = replayed.state
        if state.status == "finished":
            raise RequestError(f"game {game} is over: there is no move to hint")
        try:
            seat = state.seat_of(name)
        except KeyError as err:
            raise RequestError(str(err.args[0])) from None
        if seat != state.to_move:
            raise RequestError(
                f"it is {state.player.name}'s turn, not {state.players[seat].name}'s: a hint "
                "is for the player to move"
            )
        chosen = bot_move(replayed, state.players[seat].name, check_level(level))
        if as_json:
            print_json({"game": game, "player": state.players[seat].name, "level": level,
                        "move": chosen.text, "why": chosen.reason})  # fmt: skip
            return
        echo(f"{chosen.text}\n  {chosen.reason}")

    guard(as_json, run)
