"""``games``: the sender's games: running, finished within 30 days, and invited to."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from referee.mail.judging.commands import command
from referee.mail.judging.commands.requests import to_sender
from referee.mail.judging.ruling import Context, Ruling
from referee.wording.messages import Message, say

#: How long a finished game is still listed.
FINISHED_LISTED = timedelta(days=30)


def games_of(ctx: Context) -> list[Message]:
    """One line per game of the sender: id, status, turn, who is to move, when it is due."""
    me = ctx.sender.lower()
    lines: list[tuple[str, Message]] = []
    for finish in ctx.seen.finished:
        if ctx.now - finish.ended <= FINISHED_LISTED:
            winners = list(finish.winners)
            told = say("games.finished", game=finish.game, turn=finish.turns, winners=winners)
            lines.append((finish.game, told))
    for facts in ctx.seen.games:
        game = facts.game
        players = game.record.players
        if not any(p.email.lower() == me for p in players):
            continue
        state, game_id = game.state, game.record.id
        due = facts.due()
        mover = players[state.to_move]
        yours = mover.email.lower() == me
        code = "games.running.yours" if yours else "games.running"
        said = {"game": game_id, "turn": state.turn, "status": say(f"games.{state.status}")}
        if not yours:
            said["player"] = mover.name
        if due is not None:
            code += ".due"
            said["due"] = due.isoformat()
        lines.append((game_id, Message(code, said)))
    found = [line for _, line in sorted(lines, key=lambda line: line[0])]
    for invitation in ctx.seen.invitations:
        if invitation.status != "invited" or invitation.seat_of(me) is None:
            continue
        waiting = [s.address for s in invitation.waiting_for()]
        found.append(
            say(
                "games.invited" if waiting else "games.invited.nobody",
                game=invitation.game,
                proposer=invitation.proposer,
                expires=invitation.expires.isoformat(),
                **({"waiting": waiting} if waiting else {}),
            )
        )
    return found


@command(
    "games",
    example="games",
    scopes=("referee", "game"),
    order=5,
    needs=frozenset({"games", "finished", "invitations"}),
)
def games(ctx: Context, argument: str) -> Ruling:
    lines = games_of(ctx)
    says = [say("games.answer" if lines else "games.none", address=ctx.sender)]
    letter = to_sender(ctx, "games", say("subject.games"), says)
    if lines:
        letter = replace(
            letter, listing=tuple(lines), listing_title=say("games.listing", count=len(lines))
        )
    return Ruling("answered", "done", f"answered games ({len(lines)})", letters=[letter])
