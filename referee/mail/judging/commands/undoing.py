"""``undo``, and the other players' ``accept`` / ``decline``: taking back a move that revealed
nothing (a take of tokens) when nobody has moved since and everyone else agrees."""

from __future__ import annotations

from dataclasses import replace

from referee.engine import Take, move_json, view
from referee.errors import RequestError
from referee.mail.judging.commands import command
from referee.mail.judging.ruling import Context, RollBack, Ruling, SetUndo
from referee.mail.judging.telling import legal_moves_of, people, status, to_player
from referee.mail.state.ledger import UndoRequest
from referee.wording.letter import Board, Letter
from referee.wording.messages import say
from referee.wording.told import told


def _still_in(ctx: Context) -> list[str]:
    assert ctx.game is not None
    state, seats = ctx.game.state, ctx.game.record.players
    return [state.players[n].name for n in state.still_in() if seats[n].bot is None]


def _open_request(ctx: Context) -> UndoRequest | None:
    """The undo request of this game that still stands (asked at the turn now)."""
    assert ctx.facts is not None
    request = ctx.facts.undo
    if request is None or request.turn != ctx.facts.game.state.turn:
        return None
    return request


@command("undo", example="undo", scopes=("game",), order=45)
def undo(ctx: Context, argument: str) -> Ruling:
    assert ctx.game is not None and ctx.seat is not None
    game, name, state = ctx.game, ctx.name, ctx.game.state
    if state.status == "finished":
        raise RequestError.of("undo.over")
    if not game.turns:
        raise RequestError.of("undo.not_yours")
    last = game.turns[-1]
    if last.player.casefold() != name.casefold():
        raise RequestError.of("undo.not_yours.turn", turn=last.turn, player=last.player)
    move = game.moves()[-1]
    if not isinstance(move, Take):
        raise RequestError.of("undo.not_a_take", turn=last.turn, move=move_json(move))
    if _open_request(ctx) is not None:
        raise RequestError.of("undo.asked_already", turn=last.turn)
    others = [n for n in _still_in(ctx) if n.casefold() != name.casefold()]
    request = UndoRequest(
        game=game.record.id,
        by=name,
        turn=last.turn,
        at=ctx.now,
        mail=ctx.inbound.message_id or "",
    )
    letters = [
        to_player(
            game.record,
            p.seat,
            "undo-asked",
            [
                say("undo.asked", player=name, turn=last.turn, told=told(move, name, p.name)),
                status(state, p.name),
            ],
            Board(view(state, p.name), ctx.due),
        )
        for p in game.record.players
        if p.name in others
    ]
    says = [say("undo.sent", turn=last.turn, others=others), status(state, name)]
    mine = to_player(game.record, ctx.seat, "undo-sent", says, Board(view(state, name), ctx.due))
    letters.append(replace(mine, answers=ctx.inbound.message_id))
    return Ruling(
        "answered",
        "done",
        f"{name} asks to undo turn {last.turn}",
        letters=letters,
        effects=[SetUndo(game.record.id, request)],
    )


@command("accept", example="accept", scopes=("game",), order=46)
def accept(ctx: Context, argument: str) -> Ruling:
    assert ctx.game is not None and ctx.seat is not None
    game, name, state = ctx.game, ctx.name, ctx.game.state
    request = _open_request(ctx)
    if request is None:
        raise RequestError.of("undo.nothing_to_accept")
    if request.by.casefold() == name.casefold():
        raise RequestError.of("undo.accept_own")
    agreed = tuple(dict.fromkeys([*request.agreed, name]))
    others = [n for n in _still_in(ctx) if n.casefold() != request.by.casefold()]
    missing = [n for n in others if n not in agreed]
    if missing:
        says = [say("undo.accepted", turn=request.turn, missing=missing), status(state, name)]
        board = Board(view(state, name), ctx.due)
        mine = to_player(game.record, ctx.seat, "undo-accepted", says, board)
        changed = UndoRequest(
            request.game, request.by, request.turn, request.at, request.mail, agreed
        )
        return Ruling(
            "answered",
            "done",
            f"{name} accepts the undo",
            letters=[replace(mine, answers=ctx.inbound.message_id)],
            effects=[SetUndo(game.record.id, changed)],
        )
    to = request.turn - 1
    before = game.states[to]
    reason = f"undo asked by {request.by} by mail, accepted by {', '.join(agreed)}"
    done = say("undo.done", turn=request.turn, player=request.by, agreed=list(agreed))
    letters: list[Letter] = []
    for p in people(game.record):
        yours = before.status != "finished" and before.player.name == p.name
        says = [done, status(before, p.name)]
        letter = to_player(
            game.record, p.seat, "undone", says, Board(view(before, p.name), ctx.due)
        )
        letters.append(
            replace(
                letter,
                options=legal_moves_of(before) if yours else (),
                answers=ctx.inbound.message_id if p.seat == ctx.seat else None,
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


@command("decline", example="decline", scopes=("game",), order=47)
def decline(ctx: Context, argument: str) -> Ruling:
    assert ctx.game is not None and ctx.seat is not None
    game, name, state = ctx.game, ctx.name, ctx.game.state
    request = _open_request(ctx)
    if request is None:
        raise RequestError.of("undo.nothing_to_decline")
    if request.by.casefold() == name.casefold():
        raise RequestError.of("undo.decline_own")
    declined = say("undo.declined", player=name, turn=request.turn)
    letters = [
        replace(
            to_player(
                game.record,
                p.seat,
                "undo-declined",
                [declined, status(state, p.name)],
                Board(view(state, p.name), ctx.due),
            ),
            answers=ctx.inbound.message_id if p.seat == ctx.seat else None,
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
