"""``away UNTIL`` / ``back``: the sender's deadlines pause in every game until then; the
other players are told."""

from __future__ import annotations

from datetime import datetime

from referee.engine import view
from referee.errors import RequestError
from referee.mail.judging.commands import command
from referee.mail.judging.commands.requests import to_sender
from referee.mail.judging.ruling import Context, EndAway, Ruling, SetAway
from referee.mail.judging.telling import people, status, to_player
from referee.mail.state.ledger import LONGEST_AWAY
from referee.spoken_time import until_said
from referee.timing import parse_until
from referee.wording.letter import Board, Letter
from referee.wording.messages import Message, say


@command(
    "away",
    example="away 5d",
    scopes=("referee", "game"),
    argument="required",
    order=70,
    needs=frozenset({"games"}),
    confirmed=True,
)
def away(ctx: Context, argument: str) -> Ruling:
    if not argument:
        raise RequestError.of("away.needs_time")
    until = _until(argument, ctx.now)
    if until <= ctx.now:
        raise RequestError.of("away.passed", argument=argument, until=until.isoformat())
    answer = say("away.answer", until=until.isoformat())
    if until - ctx.now > LONGEST_AWAY:
        until = ctx.now + LONGEST_AWAY
        answer = say(
            "away.answer.capped",
            until=until.isoformat(),
            longest=int(LONGEST_AWAY.total_seconds()),
        )
    letters = [to_sender(ctx, "away", say("subject.away"), [answer])]
    letters += _tell_others(ctx, "away.told", until=until.isoformat())
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} away until {until.isoformat()}",
        letters=letters,
        effects=[SetAway(ctx.sender, ctx.now, until)],
    )


def _until(argument: str, now: datetime) -> datetime:
    """When an away ends: written as the command has it (``5d``, ``2027-01-15``), or said in
    words ("until Friday", "for a week", "till the 20th": :mod:`referee.spoken_time`)."""
    try:
        return parse_until(argument, now)
    except RequestError:
        said = until_said(argument, now)
        if said is None:
            raise
        return said


@command(
    "back",
    example="back",
    scopes=("referee", "game"),
    order=71,
    needs=frozenset({"games"}),
    confirmed=True,
)
def back(ctx: Context, argument: str) -> Ruling:
    if ctx.seen.sender_away is None:
        return Ruling(
            "answered",
            "done",
            f"{ctx.sender} back, but was not away",
            letters=[to_sender(ctx, "away", say("subject.back"), [say("back.not_away")])],
        )
    letters = [to_sender(ctx, "away", say("subject.back"), [say("back.answer")])]
    letters += _tell_others(ctx, "back.told")
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} back",
        letters=letters,
        effects=[EndAway(ctx.sender, ctx.now)],
    )


def _tell_others(ctx: Context, code: str, **params: str) -> list[Letter]:
    """A letter to every other player of each running game the sender plays in."""
    letters = []
    me = ctx.sender.lower()
    for facts in ctx.seen.games:
        game = facts.game
        mine = [p for p in game.record.players if p.email.lower() == me]
        if not mine or game.state.status == "finished":
            continue
        told: Message = say(code, player=mine[0].name, **params)
        due = facts.due()
        for p in people(game.record):
            if p.email.lower() == me:
                continue
            board = Board(view(game.state, p.name), due.isoformat() if due else None)
            says = [told, status(game.state, p.name)]
            letters.append(to_player(game.record, p.seat, "away-told", says, board))
    return letters
