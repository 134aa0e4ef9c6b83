"""``resign``: the sender leaves the game, their turn or not."""

from __future__ import annotations

from referee.games import judge_move
from referee.mail.judging.commands import command
from referee.mail.judging.ruling import Context, Ruling
from referee.mail.judging.telling import turn_letters
from referee.notation import format_move
from referee.record import SourceEntry


@command("resign", example="resign", scopes=("game",), order=40)
def resign(ctx: Context, argument: str) -> Ruling:
    """A resignation the rules refuse (the game is over) raises the engine's own error, which
    the judge answers like any refused command."""
    assert ctx.facts is not None and ctx.seat is not None
    source = SourceEntry(kind="mail", message_id=ctx.inbound.message_id)
    played = judge_move(ctx.facts.game, ctx.name, "resign", source, at=ctx.now)
    return Ruling(
        "played",
        "done",
        f"turn {played.turn.turn}: {ctx.name} {format_move(played.move)}",
        played=played,
        letters=turn_letters(ctx.facts.game, played, ctx.facts, ctx.inbound.message_id),
    )
