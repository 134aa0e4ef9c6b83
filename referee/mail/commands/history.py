"""``history [N]``: the last N turns of a game (all of them when N is left out)."""

from __future__ import annotations

from referee.engine import view
from referee.errors import RequestError
from referee.mail.commands import command
from referee.mail.commands.context import Context, Ruling
from referee.mail.letters import player_letter, status_line
from referee.render import told
from referee.timing import when


@command(
    "history",
    usage="history [N]",
    summary="the last N turns (all when N is left out): turn, player, move, when",
    example="history 5",
    scopes=("game",),
    argument="optional",
    order=20,
)
def history(ctx: Context, argument: str) -> Ruling:
    assert ctx.game is not None and ctx.seat is not None
    game, name = ctx.game, ctx.name
    if argument and not (argument.isdigit() and 0 < int(argument) <= 100_000):
        raise RequestError(
            f"'history {argument}' asks for {argument!r} turns: write a whole number, like "
            "history 5, or history alone for every turn"
        )
    count = int(argument) if argument else len(game.turns)
    moves = game.moves()
    shown = list(zip(game.turns, moves, strict=True))[-count:] if count else []
    lines = [f"turn {t.turn:>3} · {when(t.at)} · {told(move, t.player, name)}" for t, move in shown]
    if not lines:
        lines = ["No turn has been played yet."]
    title = (
        f"The last {len(shown)} turn(s) of game {game.record.id}:"
        if argument
        else (f"Every turn of game {game.record.id} ({len(shown)}):")
    )
    mail = player_letter(
        "history",
        view(game.state, name),
        game.record,
        ctx.seat,
        ["Nothing was played; here is the history you asked for.", status_line(game.state, name)],
        listing=lines,
        listing_title=title,
        answers=ctx.inbound.message_id,
        due=ctx.due,
    )
    return Ruling("answered", "done", f"answered history {argument}".strip(), letters=[mail])
