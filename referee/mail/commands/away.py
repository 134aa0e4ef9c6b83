"""``away UNTIL`` / ``back``: the sender's deadlines pause in every game until then; the
other players are told."""

from __future__ import annotations

from referee.engine import view
from referee.errors import RecordError, RequestError, StoreError
from referee.mail.commands import command
from referee.mail.commands.context import Context, EndAway, Ruling, SetAway
from referee.mail.compose import Letter
from referee.mail.deadlines import due_words
from referee.mail.ledger import LONGEST_AWAY
from referee.mail.letters import note_letter, player_letter, status_line
from referee.timing import format_duration, parse_until, when


@command(
    "away",
    usage="away UNTIL",
    summary="pause your deadlines in every game until a date (2027-01-15) or for a time (5d)",
    example="away 5d",
    scopes=("referee", "game"),
    argument="required",
    order=70,
)
def away(ctx: Context, argument: str) -> Ruling:
    if not argument:
        raise RequestError(
            "'away' needs a date or a time after it, like: away 5d, or away 2027-01-15"
        )
    until = parse_until(argument, ctx.now)
    if until <= ctx.now:
        raise RequestError(
            f"'away {argument}' ends at {when(until)}, which has passed: give a later date, or "
            "a time like 5d"
        )
    capped = ""
    if until - ctx.now > LONGEST_AWAY:
        until = ctx.now + LONGEST_AWAY
        capped = (
            f" You asked for longer, but {format_duration(LONGEST_AWAY)} is the longest one "
            "can be away at once: write 'away' again before then to stay away longer, or "
            "'resign' in a game you will not come back to."
        )
    told = f"is away until {when(until)}: their deadlines pause until then"
    letters = _tell_others(ctx, told)
    letters.insert(
        0,
        _answer(
            ctx,
            f"You are away until {when(until)}: your deadlines in every game pause until "
            f"then.{capped} Write 'back' when you return earlier.",
        ),
    )
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} away until {until.isoformat()}",
        letters=letters,
        effects=[SetAway(ctx.sender, ctx.now, until)],
    )


@command(
    "back",
    usage="back",
    summary="you are back: your deadlines run again",
    example="back",
    scopes=("referee", "game"),
    order=71,
)
def back(ctx: Context, argument: str) -> Ruling:
    if ctx.desk.ledger.away_until(ctx.sender, ctx.now) is None:
        return Ruling(
            "answered",
            "done",
            f"{ctx.sender} back, but was not away",
            letters=[_answer(ctx, "You were not away, so nothing changed.")],
        )
    letters = [_answer(ctx, "Welcome back: your deadlines run again from now.")]
    letters += _tell_others(ctx, "is back: their deadlines run again")
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} back",
        letters=letters,
        effects=[EndAway(ctx.sender, ctx.now)],
    )


def _answer(ctx: Context, said: str) -> Letter:
    return note_letter(
        "away",
        ctx.sender,
        ctx.inbound.sender_name or ctx.sender,
        "Splendor referee: " + ("away" if "away" in said else "back"),
        [said],
        answers=ctx.inbound.message_id,
    )


def _tell_others(ctx: Context, told: str) -> list[Letter]:
    """A note to every other player of each game the sender plays and that runs."""
    letters = []
    me = ctx.sender.lower()
    for game_id in ctx.desk.store.game_ids():
        try:
            game = ctx.desk.store.load(game_id)
        except (RecordError, StoreError):
            continue
        players = game.record.players
        mine = [p for p in players if p.email.lower() == me]
        if not mine or game.state.status == "finished":
            continue
        for p in players:
            if p.email.lower() == me:
                continue
            letters.append(
                player_letter(
                    "away-told",
                    view(game.state, p.name),
                    game.record,
                    p.seat,
                    [f"{mine[0].name} {told}.", status_line(game.state, p.name)],
                    due=due_words(game, ctx.desk.ledger),
                )
            )
    return letters
