"""``watch GAME`` / ``unwatch GAME``: the public board after every turn of a game made with
``spectators``. A spectator sees what the public sees, never a hand or a blind card."""

from __future__ import annotations

from referee.engine import view
from referee.errors import RecordError, RequestError, StoreError
from referee.mail.commands import command
from referee.mail.commands.context import Context, Ruling, Unwatch, Watch
from referee.mail.letters import note_letter, status_line
from referee.record import GAME_ID, Replayed


def _game(ctx: Context, argument: str, verb: str) -> Replayed:
    game_id = argument.strip().casefold()
    if not game_id:
        raise RequestError(f"'{verb}' needs the game's id after it, like: {verb} g1")
    if not GAME_ID.fullmatch(game_id) or not ctx.desk.store.has(game_id):
        raise RequestError(
            f"there is no game {argument.strip()!r}: write '{verb} GAME' with the id of a game "
            "(the players see it in every subject line)"
        )
    try:
        return ctx.desk.store.load(game_id)
    except (RecordError, StoreError):
        raise RequestError(f"game {game_id} cannot be read just now; try later") from None


@command(
    "watch",
    usage="watch GAME",
    summary="get the public board after every turn of GAME (if it allows spectators)",
    example="watch g1",
    scopes=("referee",),
    argument="required",
    order=60,
)
def watch(ctx: Context, argument: str) -> Ruling:
    game = _game(ctx, argument, "watch")
    game_id = game.record.id
    if not game.record.spectators:
        raise RequestError(
            f"game {game_id} was not created with spectators, so it cannot be watched; only "
            "games made with 'spectators' (or referee new --spectators) can"
        )
    if any(p.email.lower() == ctx.sender.lower() for p in game.record.players):
        raise RequestError(
            f"you play in game {game_id}, so you get its board after every turn already"
        )
    public = view(game.state)
    mail = note_letter(
        "watch",
        ctx.sender,
        ctx.inbound.sender_name or ctx.sender,
        f"Splendor {game_id} · turn {public.turn} · watching",
        [
            f"You are now watching game {game_id}: you will get the public board after every "
            f"turn. Write 'unwatch {game_id}' to the referee to stop.",
            status_line(game.state, ""),
        ],
        shown=public,
        game=game_id,
        answers=ctx.inbound.message_id,
    )
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} watches {game_id}",
        letters=[mail],
        effects=[Watch(game_id, ctx.sender)],
    )


@command(
    "unwatch",
    usage="unwatch GAME",
    summary="stop getting the boards of a game you watch",
    example="unwatch g1",
    scopes=("referee",),
    argument="required",
    order=61,
)
def unwatch(ctx: Context, argument: str) -> Ruling:
    game = _game(ctx, argument, "unwatch")
    game_id = game.record.id
    watching = ctx.sender.lower() in (w.lower() for w in ctx.desk.ledger.watchers(game_id))
    said = (
        f"You no longer watch game {game_id}."
        if watching
        else f"You were not watching game {game_id}; nothing changed."
    )
    mail = note_letter(
        "unwatch",
        ctx.sender,
        ctx.inbound.sender_name or ctx.sender,
        f"Splendor referee: you no longer watch {game_id}",
        [said],
        answers=ctx.inbound.message_id,
    )
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} unwatches {game_id}",
        letters=[mail],
        effects=[Unwatch(game_id, ctx.sender)],
    )
