"""``say TEXT``: a message to every other player and spectator of the game."""

from __future__ import annotations

from referee.engine import view
from referee.errors import RequestError
from referee.mail.commands import ARGUMENT_AT_MOST, command
from referee.mail.commands.context import Context, Ruling
from referee.mail.letters import note_letter, player_letter, status_line


@command(
    "say",
    usage="say TEXT",
    summary="send TEXT to every other player (and spectator) of the game",
    example="say Good luck, everyone!",
    scopes=("game",),
    argument="text",
    order=30,
)
def say(ctx: Context, argument: str) -> Ruling:
    assert ctx.game is not None and ctx.seat is not None
    if not argument.strip():
        raise RequestError("'say' needs the text to send after it, like: say Good luck!")
    text, cut = argument, ""
    if len(text) > ARGUMENT_AT_MOST:
        text = text[:ARGUMENT_AT_MOST].rstrip() + " […]"
        cut = (
            f" Your message was {len(argument):,} characters long; only the first "
            f"{ARGUMENT_AT_MOST:,} were sent."
        )
    game, name, state = ctx.game, ctx.name, ctx.game.state
    said = [line for line in text.splitlines()]
    letters = []
    for p in game.record.players:
        if p.seat == ctx.seat:
            continue
        letters.append(
            player_letter(
                "said",
                view(state, p.name),
                game.record,
                p.seat,
                [f"{name} says, in game {game.record.id}:", status_line(state, p.name)],
                quoted=said,
                due=ctx.due,
            )
        )
    for watcher in ctx.desk.ledger.watchers(game.record.id):
        letters.append(
            note_letter(
                "said",
                watcher,
                watcher,
                f"Splendor {game.record.id} · {name} says",
                [
                    f"{name} says, in game {game.record.id} (you are watching it; write "
                    f"'unwatch {game.record.id}' to the referee to stop):"
                ],
                quoted=said,
                shown=view(state),
                game=game.record.id,
            )
        )
    others = len(letters)
    letters.append(
        player_letter(
            "said-sent",
            view(state, name),
            game.record,
            ctx.seat,
            [
                f"Your message was sent to {others} other(s) in game {game.record.id}.{cut}",
                status_line(state, name),
            ],
            quoted=said,
            answers=ctx.inbound.message_id,
            due=ctx.due,
        )
    )
    return Ruling("answered", "done", f"said to {others} other(s)", letters=letters)
