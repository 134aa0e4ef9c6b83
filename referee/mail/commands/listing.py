"""``games``: the sender's games: running, finished within 30 days, and invited to."""

from __future__ import annotations

from datetime import timedelta

from referee.engine import outcome
from referee.errors import RecordError, StoreError
from referee.mail.commands import command
from referee.mail.commands.context import Context, Ruling
from referee.mail.deadlines import due_at
from referee.mail.letters import note_letter
from referee.timing import when

#: How long a finished game is still listed.
FINISHED_LISTED = timedelta(days=30)


def games_of(ctx: Context) -> list[str]:
    """One line per game of the sender: id, status, turn, who is to move, when it is due."""
    me = ctx.sender.lower()
    desk = ctx.desk
    lines = []
    for game_id in desk.store.game_ids():
        try:
            game = desk.store.load(game_id)
        except (RecordError, StoreError):
            continue
        players = game.record.players
        if not any(p.email.lower() == me for p in players):
            continue
        state = game.state
        ended = game.turns[-1].at if game.turns else game.record.created
        if state.status == "finished":
            if ctx.now - ended > FINISHED_LISTED:
                continue
            winners = " and ".join(outcome(state))
            lines.append(f"{game_id} · finished · turn {state.turn} · won by {winners}")
            continue
        due = due_at(game, desk.ledger)
        mover = players[state.to_move]
        who = "you" if mover.email.lower() == me else mover.name
        lines.append(
            f"{game_id} · {state.status.replace('_', ' ')} · turn {state.turn} · {who} to "
            f"move" + (f", due by {when(due)}" if due else "")
        )
    for invitation in desk.invitations.all():
        if invitation.status != "invited" or invitation.seat_of(me) is None:
            continue
        waiting = ", ".join(s.address for s in invitation.waiting_for()) or "nobody"
        lines.append(
            f"{invitation.game} · invited · proposed by {invitation.proposer} · waiting for "
            f"{waiting} · expires {when(invitation.expires)}"
        )
    return lines


@command(
    "games",
    usage="games",
    summary="your games: running, finished in the last 30 days, and invitations",
    example="games",
    scopes=("referee", "game"),
    order=5,
)
def games(ctx: Context, argument: str) -> Ruling:
    lines = games_of(ctx)
    title = f"Your games ({len(lines)}):" if lines else ""
    paragraphs = [
        f"Here are the games of {ctx.sender}."
        if lines
        else f"{ctx.sender} has no games here. To start one, write 'new splendor with ADDRESS' "
        "to the referee, naming the addresses of 1 to 3 friends."
    ]
    mail = note_letter(
        "games",
        ctx.sender,
        ctx.inbound.sender_name or ctx.sender,
        "Splendor referee: your games",
        paragraphs,
        answers=ctx.inbound.message_id,
        listing=lines,
        listing_title=title,
    )
    return Ruling("answered", "done", f"answered games ({len(lines)})", letters=[mail])
