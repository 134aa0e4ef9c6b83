"""``referee standings``: who is ahead over the finished games, and two players head to head."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer

from referee.cli.common import (
    STANDINGS,
    Config,
    GamesDir,
    Json,
    app,
    echo,
    guard,
    print_json,
    store,
)
from referee.standings import finishes, head_to_head, standings

Since = Annotated[
    datetime | None,
    typer.Option(
        "--since",
        metavar="DATE",
        formats=["%Y-%m-%d", "%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"],
        help="Only games that ended on or after DATE (UTC).",
    ),
]
Versus = Annotated[
    tuple[str, str] | None,
    typer.Option(
        "--vs",
        metavar="A B",
        help="Two players head to head (addresses, or bot:LEVEL): the games both finished.",
    ),
]


@app.command(name="standings", rich_help_panel=STANDINGS)
def standings_command(
    since: Since = None,
    vs: Versus = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """List every player's finished games, wins, shared wins, resignations and rating.

    The players are listed best first. With --vs, two players head to head instead: the games
    both finished, and in how many each was ahead."""

    def run() -> None:
        start = since.replace(tzinfo=UTC) if since is not None else None
        done = [f for f in finishes(store(config, games_dir)) if start is None or f.ended >= start]
        if vs is not None:
            both = head_to_head(done, *vs)
            if as_json:
                print_json(both.to_json())
                return
            echo(
                f"{both.a} against {both.b}: {len(both.games)} finished game(s) together; "
                f"{both.a} ahead in {both.a_ahead}, {both.b} ahead in {both.b_ahead}, level "
                f"in {both.level}."
            )
            if both.games:
                echo(f"Games: {', '.join(both.games)}")
            return
        lines = standings(done)
        if as_json:
            print_json([s.to_json() for s in lines])
            return
        when = f" that ended since {start.date().isoformat()}" if start else ""
        echo(f"Standings over {len(done)} finished game(s){when}, best first:")
        if not lines:
            return
        width = max(len(s.player) for s in lines)
        echo(f"{'':>3}  {'player':<{width}}  played  won  shared  resigned  rating")
        for place, s in enumerate(lines, 1):
            echo(
                f"{place:>3}  {s.player:<{width}}  {s.played:>6}  {s.won:>3}  {s.shared:>6}  "
                f"{s.resigned:>8}  {s.rating:>6.1f}"
            )
        echo(
            "Rating: OpenSkill's Plackett-Luce (mu - 3 sigma; a newcomer starts at 0); won "
            "counts sole wins, shared the wins tied with others."
        )

    guard(as_json, run)
