"""``history [N]``: the last N turns of a game (all of them when N is left out)."""

from __future__ import annotations

from dataclasses import replace

from referee.engine import view
from referee.errors import RequestError
from referee.mail.judging.commands import command
from referee.mail.judging.ruling import Context, Ruling
from referee.mail.judging.telling import status, to_player
from referee.wording.letter import Board
from referee.wording.messages import say
from referee.wording.told import told


@command(
    "history",
    example="history 5",
    scopes=("game",),
    argument="optional",
    order=20,
)
def history(ctx: Context, argument: str) -> Ruling:
    assert ctx.game is not None and ctx.seat is not None
    game, name = ctx.game, ctx.name
    if argument and not (argument.isdigit() and 0 < int(argument) <= 100_000):
        raise RequestError.of("history.bad_count", argument=argument, asked=argument)
    count = int(argument) if argument else len(game.turns)
    moves = game.moves()
    shown = list(zip(game.turns, moves, strict=True))[-count:] if count else []
    lines = [
        say("history.line", turn=t.turn, at=t.at.isoformat(), told=told(move, t.player, name))
        for t, move in shown
    ] or [say("history.none")]
    title = (
        say("history.last", count=len(shown), game=game.record.id)
        if argument
        else say("history.every", count=len(shown), game=game.record.id)
    )
    says = [say("history.answer"), status(game.state, name)]
    letter = to_player(
        game.record, ctx.seat, "history", says, Board(view(game.state, name), ctx.due)
    )
    letter = replace(
        letter, listing=tuple(lines), listing_title=title, answers=ctx.inbound.message_id
    )
    return Ruling("answered", "done", f"answered history {argument}".strip(), letters=[letter])
