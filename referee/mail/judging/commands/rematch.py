"""``rematch``: a reply in a finished game proposes the same players again, on the same
terms: an invitation to each, as ``new splendor with ...`` sends."""

from __future__ import annotations

from referee.engine import Rules
from referee.errors import RequestError
from referee.mail.judging.commands import command
from referee.mail.judging.commands.proposing import propose_game
from referee.mail.judging.ruling import Context, Ruling
from referee.record import Terms, bot_address


@command(
    "rematch",
    example="rematch",
    scopes=("game",),
    order=42,
    needs=frozenset({"invitations"}),
)
def rematch(ctx: Context, argument: str) -> Ruling:
    assert ctx.facts is not None
    game = ctx.facts.game
    if game.state.status != "finished":
        raise RequestError.of("rematch.not_over", game=game.record.id)
    record, me = game.record, ctx.sender.lower()
    others: list[str] = []
    bots: dict[str, str] = {}
    for player in record.players:
        if player.bot:
            address = bot_address(player.name)
            bots[address] = player.bot
            others.append(address)
        elif player.email.lower() != me:
            others.append(player.email)
    terms = Terms(
        rules=Rules(points_to_win=record.rules.points_to_win, gold=record.rules.gold),
        deadline=record.time_per_move,
        timeout=record.timeout,
        spectators=record.spectators,
        language=record.language,
    )
    return propose_game(ctx, others, bots, terms)
