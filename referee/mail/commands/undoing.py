"""``undo``, and the other players' ``accept`` / ``decline``: taking back a move that revealed
nothing (a take of tokens) when nobody has moved since and everyone else agrees."""

from __future__ import annotations

from referee.engine import Take, view
from referee.errors import RequestError
from referee.mail.commands import command
from referee.mail.commands.context import Context, RollBack, Ruling, SetUndo
from referee.mail.compose import Letter
from referee.mail.ledger import UndoRequest
from referee.mail.letters import legal_texts, player_letter, status_line
from referee.render import told


def _still_in(ctx: Context) -> list[str]:
    assert ctx.game is not None
    state, seats = ctx.game.state, ctx.game.record.players
    return [state.players[n].name for n in state.still_in() if seats[n].bot is None]


def _open_request(ctx: Context) -> UndoRequest | None:
    """The undo request of this game that still stands (asked at the turn now)."""
    assert ctx.game is not None
    request = ctx.desk.ledger.undo_request(ctx.record.id)
    if request is None or request.turn != ctx.game.state.turn:
        return None
    return request


@command(
    "undo",
    usage="undo",
    summary="ask to take back your last move, if it was a take of tokens and nobody has "
    "moved since; every other player must accept",
    example="undo",
    scopes=("game",),
    order=45,
)
def undo(ctx: Context, argument: str) -> Ruling:
    assert ctx.game is not None and ctx.seat is not None
    game, name, state = ctx.game, ctx.name, ctx.game.state
    if state.status == "finished":
        raise RequestError("the game is over, so no move can be taken back")
    if not game.turns or game.turns[-1].player.casefold() != name.casefold():
        raise RequestError(
            "only the last move of the game can be taken back, and it is not yours"
            + (f" (turn {game.turns[-1].turn} was {game.turns[-1].player}'s)" if game.turns else "")
        )
    last = game.turns[-1]
    move = game.moves()[-1]
    if not isinstance(move, Take):
        raise RequestError(
            f"turn {last.turn} ({last.move.text}) showed or changed cards, so it cannot be "
            "taken back: only a take of tokens can"
        )
    if _open_request(ctx) is not None:
        raise RequestError(f"you asked to take back turn {last.turn} already; the others are asked")
    others = [n for n in _still_in(ctx) if n.casefold() != name.casefold()]
    request = UndoRequest(
        game=game.record.id,
        by=name,
        turn=last.turn,
        at=ctx.now,
        mail=ctx.inbound.message_id or "",
    )
    letters = [
        player_letter(
            "undo-asked",
            view(state, p.name),
            game.record,
            p.seat,
            [
                f"{name} asks to take back turn {last.turn} ({told(move, name, p.name)}). "
                "Reply 'accept' to agree or 'decline' to refuse. It is taken back when "
                "every other player accepts; a decline, or the next move, ends the request.",
                status_line(state, p.name),
            ],
            due=ctx.due,
        )
        for p in game.record.players
        if p.name in others
    ]
    letters.append(
        player_letter(
            "undo-sent",
            view(state, name),
            game.record,
            ctx.seat,
            [
                f"You asked to take back turn {last.turn}: {', '.join(others)} "
                f"{'is' if len(others) == 1 else 'are'} asked to accept.",
                status_line(state, name),
            ],
            answers=ctx.inbound.message_id,
            due=ctx.due,
        )
    )
    return Ruling(
        "answered",
        "done",
        f"{name} asks to undo turn {last.turn}",
        letters=letters,
        effects=[SetUndo(game.record.id, request)],
    )


@command(
    "accept",
    usage="accept",
    summary="agree to take back the move another player asked to undo",
    example="accept",
    scopes=("game",),
    order=46,
)
def accept(ctx: Context, argument: str) -> Ruling:
    assert ctx.game is not None and ctx.seat is not None
    game, name, state = ctx.game, ctx.name, ctx.game.state
    request = _open_request(ctx)
    if request is None:
        raise RequestError(
            "no undo is waiting for an answer in this game, so there is nothing to accept"
        )
    if request.by.casefold() == name.casefold():
        raise RequestError("you asked for this undo yourself: the other players must accept it")
    agreed = tuple(dict.fromkeys([*request.agreed, name]))
    others = [n for n in _still_in(ctx) if n.casefold() != request.by.casefold()]
    missing = [n for n in others if n not in agreed]
    if missing:
        mail = player_letter(
            "undo-accepted",
            view(state, name),
            game.record,
            ctx.seat,
            [
                f"You accepted taking back turn {request.turn}; still to answer: "
                f"{', '.join(missing)}.",
                status_line(state, name),
            ],
            answers=ctx.inbound.message_id,
            due=ctx.due,
        )
        changed = UndoRequest(
            request.game, request.by, request.turn, request.at, request.mail, agreed
        )
        return Ruling(
            "answered",
            "done",
            f"{name} accepts the undo",
            letters=[mail],
            effects=[SetUndo(game.record.id, changed)],
        )
    to = request.turn - 1
    before = game.states[to]
    reason = f"undo asked by {request.by} by mail, accepted by {', '.join(agreed)}"
    letters: list[Letter] = []
    for p in game.record.players:
        yours = before.status != "finished" and before.player.name == p.name
        letters.append(
            player_letter(
                "undone",
                view(before, p.name),
                game.record,
                p.seat,
                [
                    f"Turn {request.turn} ({request.by}'s move) was taken back: {request.by} "
                    f"asked and {', '.join(agreed)} accepted.",
                    status_line(before, p.name),
                ],
                options=legal_texts(before) if yours else (),
                answers=ctx.inbound.message_id if p.seat == ctx.seat else None,
                due=ctx.due,
            )
        )
    return Ruling(
        "answered",
        "done",
        f"turn {request.turn} undone ({reason})",
        letters=letters,
        effects=[
            RollBack(game.record.id, to, reason, ctx.inbound.message_id),
            SetUndo(game.record.id, None),
        ],
    )


@command(
    "decline",
    usage="decline",
    summary="refuse to take back the move another player asked to undo",
    example="decline",
    scopes=("game",),
    order=47,
)
def decline(ctx: Context, argument: str) -> Ruling:
    assert ctx.game is not None and ctx.seat is not None
    game, name, state = ctx.game, ctx.name, ctx.game.state
    request = _open_request(ctx)
    if request is None:
        raise RequestError(
            "no undo is waiting for an answer in this game, so there is nothing to decline"
        )
    if request.by.casefold() == name.casefold():
        raise RequestError("you asked for this undo yourself; to let it drop, just play on")
    letters = [
        player_letter(
            "undo-declined",
            view(state, p.name),
            game.record,
            p.seat,
            [
                f"{name} declined taking back turn {request.turn}: it stands.",
                status_line(state, p.name),
            ],
            answers=ctx.inbound.message_id if p.seat == ctx.seat else None,
            due=ctx.due,
        )
        for p in game.record.players
        if p.name in _still_in(ctx)
    ]
    return Ruling(
        "answered",
        "done",
        f"{name} declines the undo",
        letters=letters,
        effects=[SetUndo(game.record.id, None)],
    )
