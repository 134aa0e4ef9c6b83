"""``accept [as NAME]`` / ``decline``, written as a reply to an invitation. When everyone has
accepted, the game starts and every player gets the first board."""

from __future__ import annotations

from dataclasses import replace

from referee.errors import RequestError
from referee.invitations import Invitation, Seat, player_name, start_record
from referee.mail.commands import command
from referee.mail.commands.context import (
    AnswerInvitation,
    Context,
    CreateGame,
    Effect,
    EndInvitation,
    Ruling,
)
from referee.mail.compose import Letter
from referee.mail.letters import note_letter, welcome_letters
from referee.record import dump, replay
from referee.timing import when


def _standing(ctx: Context) -> tuple[Invitation, int, Seat]:
    """The invitation, the sender's seat and answer; RequestError when it is over."""
    invitation, seat = ctx.invitation, ctx.seat
    assert invitation is not None and seat is not None
    if invitation.status == "cancelled":
        raise RequestError(f"game {invitation.game} was called off: {invitation.why}")
    if invitation.status == "started":
        raise RequestError(f"game {invitation.game} has started already")
    if ctx.now >= invitation.expires:
        raise RequestError(
            f"the invitation to game {invitation.game} ran out at {when(invitation.expires)}"
        )
    return invitation, seat, invitation.seats[seat]


def _answered_by_this_mail(ctx: Context, entry: Seat) -> bool:
    return bool(entry.mail) and entry.mail == ctx.inbound.message_id and not entry.proposer


@command(
    "accept",
    usage="accept [as NAME]",
    summary="accept an invitation (NAME: the one-word name the others see)",
    example="accept as Bob",
    scopes=("invitation",),
    argument="optional",
    order=1,
)
def accept(ctx: Context, argument: str) -> Ruling:
    invitation, seat = ctx.invitation, ctx.seat
    assert invitation is not None and seat is not None
    if _answered_by_this_mail(ctx, invitation.seats[seat]) and ctx.desk.store.has(invitation.game):
        # this very mail started the game, and was judged again after a crash
        started = ctx.desk.store.load(invitation.game)
        done: list[Effect] = []
        if invitation.status != "started":
            done.append(EndInvitation(invitation.game, "started", "everyone accepted", ctx.now))
        return Ruling(
            "answered",
            "done",
            f"{ctx.sender} accepts {invitation.game}: the game starts",
            letters=welcome_letters(started),
            effects=done,
        )
    invitation, seat, entry = _standing(ctx)
    again = _answered_by_this_mail(ctx, entry)
    if entry.accepted is not None and not again:
        said = "accepted" if entry.accepted else "declined"
        raise RequestError(f"you {said} this invitation already; an answer cannot be changed")
    wanted = argument.strip()
    if wanted:
        if not wanted.casefold().startswith("as "):
            raise RequestError(
                f"'accept {wanted}' is not understood: write accept, or accept as NAME"
            )
        name = wanted[3:].strip()
        if not name or len(name) > 20 or any(c.isspace() for c in name) or not name.isprintable():
            raise RequestError(
                f"{name!r} cannot be a name: a name is one word of at most 20 letters or "
                "digits, like accept as Bob"
            )
    else:
        name = player_name(ctx.inbound.sender_name, ctx.sender)
    taken = {s.name.casefold() for n, s in enumerate(invitation.seats) if n != seat and s.name}
    if wanted and name.casefold() in taken:
        raise RequestError(f"another player is called {name} already: choose another name")
    seats = list(invitation.seats)
    seats[seat] = Seat(
        entry.address, entry.proposer, True, name, ctx.inbound.message_id or "", ctx.now.isoformat()
    )
    effects: list[Effect] = [
        AnswerInvitation(invitation.game, seat, True, name, ctx.inbound.message_id or "", ctx.now)
    ]
    waiting = [s.address for s in seats if s.accepted is None]
    if waiting:
        mail = note_letter(
            "accepted",
            ctx.sender,
            name,
            f"Splendor {invitation.game} · you accepted",
            [
                f"You accepted game {invitation.game} as {name}. It starts when "
                f"{', '.join(waiting)} {'has' if len(waiting) == 1 else 'have'} accepted too "
                f"(by {when(invitation.expires)} at the latest).",
            ],
            answers=ctx.inbound.message_id,
            game=invitation.game,
            seat=seat,
        )
        return Ruling(
            "answered",
            "done",
            f"{ctx.sender} accepts {invitation.game}",
            letters=[mail],
            effects=effects,
        )
    record = start_record(invitation, seats, ctx.now)
    game = replay(record, dump(record), [])
    effects += [
        CreateGame(record),
        EndInvitation(invitation.game, "started", "everyone accepted", ctx.now),
    ]
    letters = welcome_letters(game)
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} accepts {invitation.game}: the game starts",
        letters=[_answering(m, ctx) if m.to.lower() == ctx.sender.lower() else m for m in letters],
        effects=effects,
    )


def _answering(mail: Letter, ctx: Context) -> Letter:
    return replace(mail, answers=ctx.inbound.message_id)


@command(
    "decline",
    usage="decline",
    summary="decline an invitation (the game is called off)",
    example="decline",
    scopes=("invitation",),
    order=2,
)
def decline(ctx: Context, argument: str) -> Ruling:
    invitation, seat, entry = _standing(ctx)
    again = _answered_by_this_mail(ctx, entry)
    if entry.accepted is not None and not again and not entry.proposer:
        said = "accepted" if entry.accepted else "declined"
        raise RequestError(f"you {said} this invitation already; an answer cannot be changed")
    who = "the proposer" if entry.proposer else entry.address
    why = f"{entry.address} declined" if not entry.proposer else f"{entry.address} called it off"
    effects: list[Effect] = []
    if not entry.proposer:
        effects.append(
            AnswerInvitation(
                invitation.game, seat, False, "", ctx.inbound.message_id or "", ctx.now
            )
        )
    effects.append(EndInvitation(invitation.game, "cancelled", why, ctx.now))
    letters = cancelled_letters(invitation, f"{why}.", ctx.inbound.message_id, seat)
    return Ruling(
        "answered",
        "done",
        f"{invitation.game} called off: {why} ({who})",
        letters=letters,
        effects=effects,
    )


def cancelled_letters(
    invitation: Invitation, why: str, answers: str | None = None, answering: int | None = None
) -> list[Letter]:
    """To everyone invited: the game is called off, and why."""
    return [
        note_letter(
            "cancelled",
            s.address,
            s.name or s.address,
            f"Splendor {invitation.game} · called off",
            [
                f"Game {invitation.game}, proposed by {invitation.proposer}, is called off: {why}",
                "To propose another, write 'new splendor with ADDRESS...' to the referee.",
            ],
            answers=answers if n == answering else None,
            game=invitation.game,
            seat=n,
        )
        for n, s in enumerate(invitation.seats)
    ]
