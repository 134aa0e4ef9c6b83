"""``say TEXT``: a message to every other player and spectator of the game."""

from __future__ import annotations

from dataclasses import replace

from referee.engine import view
from referee.errors import RequestError
from referee.mail.judging.commands import ARGUMENT_AT_MOST, command
from referee.mail.judging.ruling import Context, Ruling
from referee.mail.judging.telling import people, status, to_player, to_someone
from referee.wording.letter import Board
from referee.wording.messages import say as say_


@command(
    "say",
    example="say Good luck, everyone!",
    scopes=("game",),
    argument="text",
    order=30,
)
def say(ctx: Context, argument: str) -> Ruling:
    assert ctx.facts is not None and ctx.seat is not None
    if not argument.strip():
        raise RequestError.of("say.needs_text")
    text = argument
    if len(text) > ARGUMENT_AT_MOST:
        text = text[:ARGUMENT_AT_MOST].rstrip() + " […]"
    game, name, state = ctx.facts.game, ctx.name, ctx.facts.game.state
    game_id = game.record.id
    said = tuple(text.splitlines())
    letters = []
    for p in people(game.record):
        if p.seat == ctx.seat:
            continue
        says = [status(state, p.name), say_("say.told", player=name, game=game_id)]  # (the
        # last says who wrote what is quoted under it)
        board = Board(view(state, p.name), ctx.due)
        letter = to_player(game.record, p.seat, "said", says, board)
        letters.append(replace(letter, quoted=said, quoted_from=name))
    for watcher in ctx.facts.watchers:
        subject = say_("subject.said", game=game_id, player=name)
        told = [say_("say.told.watching", player=name, game=game_id)]
        letter = to_someone(watcher, "", "said", subject, told)  # (a spectator: no name known)
        letters.append(
            replace(
                letter,
                game=game_id,
                turn=state.turn,
                board=Board(view(state)),
                quoted=said,
                quoted_from=name,
            )
        )
    others = len(letters)
    sent = say_("say.sent", count=others, game=game_id)
    if len(argument) > ARGUMENT_AT_MOST:
        sent = say_("say.sent.cut", count=others, game=game_id, length=len(argument),
                    most=ARGUMENT_AT_MOST)  # fmt: skip
    says = [sent, status(state, name)]
    mine = to_player(game.record, ctx.seat, "said-sent", says, Board(view(state, name), ctx.due))
    letters.append(replace(mine, quoted=said, answers=ctx.inbound.message_id))
    return Ruling("answered", "done", f"said to {others} other(s)", letters=letters)
