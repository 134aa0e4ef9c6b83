"""``resign``: the sender leaves the game, their turn or not."""

from __future__ import annotations

from referee.errors import MoveError, RequestError
from referee.games import judge as judge_move
from referee.mail.commands import command
from referee.mail.commands.context import Context, Ruling
from referee.mail.deadlines import due_words
from referee.mail.letters import turn_letters
from referee.notation import format_move
from referee.record import Replayed, SourceEntry


@command(
    "resign",
    usage="resign",
    summary="leave the game now: your tokens go back, your reserved cards leave unseen",
    example="resign",
    scopes=("game",),
    order=40,
)
def resign(ctx: Context, argument: str) -> Ruling:
    assert ctx.game is not None and ctx.seat is not None
    source = SourceEntry(kind="mail", message_id=ctx.inbound.message_id)
    try:
        played = judge_move(ctx.game, ctx.name, "resign", source, at=ctx.now)
    except MoveError as err:
        raise RequestError(err.reason) from None
    game = ctx.game
    after = Replayed(game.record, [*game.turns, played.turn], [*game.states, played.after], b"")
    letters = turn_letters(
        ctx.record,
        played.after,
        played.move,
        ctx.seat,
        ctx.inbound.message_id,
        watchers=ctx.desk.ledger.watchers(ctx.record.id),
        due=due_words(after, ctx.desk.ledger),
        before=played.before,
    )
    return Ruling(
        "played",
        "done",
        f"turn {played.turn.turn}: {ctx.name} {format_move(played.move)}",
        played=played,
        letters=letters,
    )
