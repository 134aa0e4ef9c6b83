"""``accept [as NAME]`` / ``decline``, written as a reply to an invitation. When everyone has
accepted, the game starts and every player gets the first board."""

from __future__ import annotations

from dataclasses import replace

from referee.errors import RequestError
from referee.invitations import Invitation, Seat, player_name, start_record
from referee.mail.judging.commands import command
from referee.mail.judging.commands.requests import to_sender
from referee.mail.judging.ruling import (
    AnswerInvitation,
    Context,
    CreateGame,
    Effect,
    EndInvitation,
    Ruling,
)
from referee.mail.judging.telling import to_someone, welcome_letters
from referee.record import dump, replay
from referee.wording.letter import Letter
from referee.wording.messages import Message, say
from referee.wording.vocabulary import reading_vocabulary


def _standing(ctx: Context) -> tuple[Invitation, int, Seat]:
    """The invitation, the sender's seat and answer; RequestError when it is over."""
    invitation, seat = ctx.invitation, ctx.seat
    assert invitation is not None and seat is not None
    if invitation.status == "cancelled":
        raise RequestError.of(
            "invite.called_off", game=invitation.game, why=why_called_off(invitation.why)
        )
    if invitation.status == "started":
        raise RequestError.of("invite.started", game=invitation.game)
    if ctx.now >= invitation.expires:
        raise RequestError.of(
            "invite.ran_out", game=invitation.game, expires=invitation.expires.isoformat()
        )
    return invitation, seat, invitation.seats[seat]


def _answered_by_this_mail(ctx: Context, entry: Seat) -> bool:
    return bool(entry.mail) and entry.mail == ctx.inbound.message_id and not entry.proposer


@command(
    "accept",
    key="invitation.accept",
    example="accept as Bob",
    scopes=("invitation",),
    argument="optional",
    order=1,
    needs=frozenset({"started"}),
)
def accept(ctx: Context, argument: str) -> Ruling:
    invitation, seat = ctx.invitation, ctx.seat
    assert invitation is not None and seat is not None
    started = ctx.seen.started
    if _answered_by_this_mail(ctx, invitation.seats[seat]) and started is not None:
        # this very mail started the game, and was judged again after a crash
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
        raise RequestError.of(f"invite.{said}_already")
    wanted = argument.strip()
    name = _name_wanted(wanted) if wanted else player_name(ctx.inbound.sender_name, ctx.sender)
    taken = {s.name.casefold() for n, s in enumerate(invitation.seats) if n != seat and s.name}
    if wanted and name.casefold() in taken:
        raise RequestError.of("invite.name_taken", name=name)
    seats = list(invitation.seats)
    seats[seat] = Seat(
        entry.address, entry.proposer, True, name, ctx.inbound.message_id or "", ctx.now.isoformat()
    )
    effects: list[Effect] = [
        AnswerInvitation(invitation.game, seat, True, name, ctx.inbound.message_id or "", ctx.now)
    ]
    waiting = [s.address for s in seats if s.accepted is None]
    if waiting:
        accepted = say(
            "invite.accepted",
            game=invitation.game,
            name=name,
            waiting=waiting,
            expires=invitation.expires.isoformat(),
        )
        subject = say("subject.accepted", game=invitation.game)
        letter = to_sender(ctx, "accepted", subject, [accepted])
        return Ruling(
            "answered",
            "done",
            f"{ctx.sender} accepts {invitation.game}",
            letters=[replace(letter, name=name)],
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


def _name_wanted(wanted: str) -> str:
    """The name in ``as NAME`` (what follows ``accept``): ``as`` in any language (the
    ``[options]`` of every words file: Esperanto ``kiel Bob``), then one word of at most 20
    characters. RequestError when it is not that."""
    word, space, rest = wanted.partition(" ")
    if not space or not (word.casefold() == "as" or reading_vocabulary().is_option(word, "as")):
        raise RequestError.of("invite.accept_unclear", wanted=wanted)
    name = rest.strip()
    if not name or len(name) > 20 or any(c.isspace() for c in name) or not name.isprintable():
        raise RequestError.of("invite.bad_name", name=name)
    return name


def _answering(mail: Letter, ctx: Context) -> Letter:
    return replace(mail, answers=ctx.inbound.message_id)


@command(
    "decline",
    key="invitation.decline",
    example="decline",
    scopes=("invitation",),
    order=2,
)
def decline(ctx: Context, argument: str) -> Ruling:
    invitation, seat, entry = _standing(ctx)
    again = _answered_by_this_mail(ctx, entry)
    if entry.accepted is not None and not again and not entry.proposer:
        said = "accepted" if entry.accepted else "declined"
        raise RequestError.of(f"invite.{said}_already")
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
    told = say("cancel.called_off" if entry.proposer else "cancel.declined", address=entry.address)
    letters = cancelled_letters(invitation, told, ctx.inbound.message_id, seat)
    return Ruling(
        "answered",
        "done",
        f"{invitation.game} called off: {why} ({who})",
        letters=letters,
        effects=effects,
    )


def why_called_off(recorded: str) -> Message:
    """Why an invitation was called off, as a message, from what its end recorded: someone
    declined, its proposer called it off, or (anything else) as it was recorded."""
    address, _, rest = recorded.partition(" ")  # as decline records it: ADDRESS declined
    if rest == "declined":
        return say("cancel.declined", address=address)
    if rest.startswith("called"):
        return say("cancel.called_off", address=address)
    return say("error.said", text=recorded)


def cancelled_letters(
    invitation: Invitation, why: Message, answers: str | None = None, answering: int | None = None
) -> list[Letter]:
    """To everyone invited (never a bot): the game is called off, and why."""
    letters = []
    subject = say("subject.cancelled", game=invitation.game)
    for n, s in enumerate(invitation.seats):
        if s.bot:
            continue
        says = [
            say("cancel.answer", game=invitation.game, proposer=invitation.proposer, why=why),
            say("cancel.another"),
        ]
        letter = to_someone(s.address, s.name, "cancelled", subject, says)
        letters.append(
            replace(
                letter,
                answers=answers if n == answering else None,
                game=invitation.game,
                seat=n,
            )
        )
    return letters
