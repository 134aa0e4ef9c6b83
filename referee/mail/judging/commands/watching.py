"""``watch GAME`` / ``unwatch GAME``: the public board after every turn of a game made with
``spectators``. A spectator sees what the public sees, never a hand or a blind card."""

from __future__ import annotations

from dataclasses import replace

from referee.engine import view
from referee.errors import RequestError
from referee.mail.judging.commands import command
from referee.mail.judging.commands.requests import to_sender
from referee.mail.judging.facts import GameFacts
from referee.mail.judging.ruling import Context, Ruling, Unwatch, Watch
from referee.mail.judging.telling import status
from referee.wording.letter import Board
from referee.wording.messages import say


def _game(ctx: Context, argument: str, verb: str) -> GameFacts:
    """The game the argument names (the snapshot's ``named``)."""
    if not argument.strip():
        raise RequestError.of("watch.needs_game", verb=verb)
    if ctx.seen.named is None:
        if ctx.seen.named_unreadable:
            raise RequestError.of("watch.unreadable", game=argument.strip().casefold())
        raise RequestError.of("watch.no_game", verb=verb, argument=argument.strip())
    return ctx.seen.named


@command(
    "watch",
    example="watch g1",
    scopes=("referee",),
    argument="required",
    order=60,
    needs=frozenset({"named"}),
    confirmed=True,
)
def watch(ctx: Context, argument: str) -> Ruling:
    game = _game(ctx, argument, "watch").game
    game_id = game.record.id
    if not game.record.spectators:
        raise RequestError.of("watch.no_spectators", game=game_id)
    if any(p.email.lower() == ctx.sender.lower() for p in game.record.players):
        raise RequestError.of("watch.playing", game=game_id)
    public = view(game.state)
    subject = say("subject.watching", game=game_id, turn=public.turn)
    says = [say("watch.answer", game=game_id), status(game.state, "")]
    letter = replace(
        to_sender(ctx, "watch", subject, says), game=game_id, turn=public.turn, board=Board(public)
    )
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} watches {game_id}",
        letters=[letter],
        effects=[Watch(game_id, ctx.sender)],
    )


@command(
    "unwatch",
    example="unwatch g1",
    scopes=("referee",),
    argument="required",
    order=61,
    needs=frozenset({"named"}),
    confirmed=True,
)
def unwatch(ctx: Context, argument: str) -> Ruling:
    facts = _game(ctx, argument, "unwatch")
    game_id = facts.game.record.id
    watching = ctx.sender.lower() in (w.lower() for w in facts.watchers)
    said = say("unwatch.answer" if watching else "unwatch.not_watching", game=game_id)
    letter = to_sender(ctx, "unwatch", say("subject.unwatched", game=game_id), [said])
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} unwatches {game_id}",
        letters=[letter],
        effects=[Unwatch(game_id, ctx.sender)],
    )
