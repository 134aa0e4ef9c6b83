"""``new splendor with ADDRESS ADDRESS... [points N] [gold N] [deadline 3d] [timeout forfeit]
[spectators]``: propose a game to 1-3 others, who are each sent an invitation."""

from __future__ import annotations

import base64
import hashlib
import random
from datetime import timedelta

from referee.addresses import AddressError
from referee.bots import LEVELS
from referee.errors import RequestError
from referee.invitations import Invitation, Seat, player_name, start_record
from referee.mail.commands import command
from referee.mail.commands.context import Context, CreateGame, EndInvitation, Propose, Ruling
from referee.mail.compose import Letter
from referee.mail.letters import note_letter, welcome_letters
from referee.record import bot_address, dump, replay
from referee.timing import DEFAULT_DEADLINE, format_duration, parse_deadline, when

#: How many games one address may propose in an hour.
PROPOSALS_PER_HOUR = 3
MOST_OTHERS = 3
#: The level of a bot asked for as "bot", without a level.
DEFAULT_BOT = "greedy"
_OPTIONS = ("points", "gold", "deadline", "timeout", "spectators")


def _parse(argument: str) -> tuple[list[str], dict[str, str]]:
    """The addresses and options of a ``new`` line (after the word ``new``)."""
    words = argument.replace(",", " ").replace(";", " ").split()
    if len(words) < 2 or [w.casefold() for w in words[:2]] != ["splendor", "with"]:
        raise RequestError(
            "to propose a game write: new splendor with ADDRESS ADDRESS (1 to 3 friends' mail "
            "addresses), and if you like: points 15, gold 5, deadline 3d, timeout forfeit, "
            "spectators"
        )
    addresses: list[str] = []
    options: dict[str, str] = {}
    rest = words[2:]
    n = 0
    while n < len(rest):
        word = rest[n].strip("<>").rstrip(".")
        key = word.casefold()
        if key in _OPTIONS:
            if key == "spectators":
                options[key] = "yes"
                n += 1
                continue
            if n + 1 >= len(rest):
                raise RequestError(f"'{word}' needs a value after it, like {word} {_EXAMPLE[key]}")
            options[key] = rest[n + 1].rstrip(".")
            n += 2
            continue
        if key != "and" and word:
            addresses.append(word)
        n += 1
    return addresses, options


_EXAMPLE = {"points": "15", "gold": "5", "deadline": "3d", "timeout": "forfeit"}


def _number(options: dict[str, str], key: str, default: int, low: int, high: int) -> int:
    if key not in options:
        return default
    value = options[key]
    if not value.isdigit() or not low <= int(value) <= high:
        raise RequestError(
            f"{key} {value} is out of range: give a whole number from {low} to {high}"
        )
    return int(value)


def proposal_id(secret: bytes, mail: str) -> str:
    """The id of the game a mail proposes: from the mail and the service's secret, so that the
    same mail judged again proposes the same game."""
    digest = hashlib.sha256(secret + b"\x00proposal\x00" + mail.encode()).digest()
    letters = base64.b32encode(digest).decode().lower()
    return "m" + letters[:7]


@command(
    "new",
    usage="new splendor with ADDRESS... [points N] [gold N] [deadline 3d] [timeout forfeit] "
    "[spectators]",
    summary="propose a game to 1-3 others: each gets an invitation to accept or decline",
    example="new splendor with bob@example.org carol@example.org deadline 3d spectators",
    scopes=("referee",),
    argument="required",
    order=1,
)
def new(ctx: Context, argument: str) -> Ruling:
    me = ctx.sender.lower()
    written, options = _parse(argument)
    if not written:
        raise RequestError("name 1 to 3 friends' mail addresses after 'new splendor with'")
    others: list[str] = []
    bots: dict[str, str] = {}  # address -> level
    for address in written:
        word, _, level = address.casefold().partition(":")
        if word == "bot":
            if level and level not in LEVELS:
                raise RequestError(
                    f"{address!r}: there is no bot level {level!r}; write bot (a "
                    f"{DEFAULT_BOT} one) or bot:LEVEL, LEVEL one of {', '.join(LEVELS)}"
                )
            name = "Bot" if not bots else f"Bot{len(bots) + 1}"
            bot = bot_address(name)
            bots[bot] = level or DEFAULT_BOT
            others.append(bot)
            continue
        try:
            checked = ctx.desk.addresses.check(address)
        except AddressError as err:
            if err.allow is None:
                raise RequestError(
                    f"{err}; write each friend's address in full, like bob@example.org"
                ) from None
            raise RequestError(
                f"{address!r} cannot be invited: {err.why}; this referee plays only with "
                f"addresses mail can reach; its game master can allow {err.allow} for a "
                "private mail system"
            ) from None
        if checked.lower() == me:
            raise RequestError(
                f"{address} is your own address: you play already, name only the others"
            )
        if checked.lower() in (o.lower() for o in others):
            raise RequestError(f"{address} is named twice: name each friend once")
        others.append(checked)
    if len(others) > MOST_OTHERS:
        raise RequestError(
            f"you named {len(others)} others, but Splendor is for 2 to 4 players: name 1 to "
            f"{MOST_OTHERS}"
        )
    points = _number(options, "points", 15, 5, 30)
    gold = _number(options, "gold", 5, 0, 10)
    deadline = parse_deadline(options["deadline"]) if "deadline" in options else DEFAULT_DEADLINE
    timeout = options.get("timeout", "wait").casefold()
    if timeout not in ("wait", "forfeit", "bot"):
        raise RequestError(
            f"timeout {options['timeout']} is not a policy: write timeout wait (remind and "
            "wait), timeout forfeit (resign a player whose deadline passes) or timeout bot "
            "(a bot plays that one turn for them)"
        )
    desk = ctx.desk
    mail = ctx.inbound.message_id or ""
    recent = [
        i
        for i in desk.invitations.all()
        if i.proposer.lower() == me and ctx.now - i.at < timedelta(hours=1) and i.mail != mail
    ]
    if len(recent) >= PROPOSALS_PER_HOUR:
        raise RequestError(
            f"you have proposed {len(recent)} games in the last hour, the most one may: "
            "try again later"
        )
    game = proposal_id(ctx.secret, mail)
    seed = int.from_bytes(hashlib.sha256(ctx.secret + game.encode()).digest()[:6], "big")
    everyone = [ctx.sender, *others]
    random.Random(seed).shuffle(everyone)
    proposer_name = player_name(ctx.inbound.sender_name, ctx.sender)
    seats = tuple(
        Seat(
            address=a,
            proposer=True,
            accepted=True,
            name=proposer_name,
            mail=mail,
            answered=ctx.now.isoformat(),
        )
        if a == ctx.sender
        else Seat(address=a, accepted=True, name=a.split("@")[0].title(), bot=bots[a])
        if a in bots
        else Seat(address=a)
        for a in everyone
    )
    people = [o for o in others if o not in bots]
    invitation = Invitation(
        game=game,
        proposer=ctx.sender,
        at=ctx.now,
        mail=mail,
        seed=seed,
        points_to_win=points,
        gold=gold,
        deadline=format_duration(deadline),
        spectators="spectators" in options,
        timeout=timeout,
        seats=seats,
    )
    if not people:  # only bots: nobody to wait for
        record = start_record(invitation, list(seats), ctx.now)
        return Ruling(
            "answered",
            "done",
            f"game {game} started with {len(bots)} bot(s)",
            letters=welcome_letters(replay(record, dump(record), [])),
            effects=[
                Propose(invitation),
                CreateGame(record),
                EndInvitation(game, "started", "only bots were invited", ctx.now),
            ],
        )
    letters = invitation_letters(invitation, ctx.inbound.sender_name or proposer_name)
    letters.append(
        note_letter(
            "proposed",
            ctx.sender,
            ctx.inbound.sender_name or proposer_name,
            f"Splendor {game} · your game is proposed",
            [
                f"Your game {game} is proposed to {', '.join(people)}"
                + (f" (and {len(bots)} bot(s), who accept at once)" if bots else "")
                + ". It starts when every "
                f"one of them has accepted; it is cancelled if one declines, or if any has not "
                f"answered by {when(invitation.expires)}.",
                describe_options(invitation),
                "Reply 'decline' to this mail to call the game off.",
            ],
            answers=ctx.inbound.message_id,
            game=game,
            seat=everyone.index(ctx.sender),
        )
    )
    return Ruling(
        "answered",
        "done",
        f"game {game} proposed to {', '.join(others)}",
        letters=letters,
        effects=[Propose(invitation)],
    )


def describe_options(invitation: Invitation) -> str:
    timeout = {
        "wait": "a player who lets it pass is reminded, and the game waits",
        "forfeit": "a player who lets it pass is resigned",
        "bot": "a bot plays that one turn for a player who lets it pass",
    }[invitation.timeout]
    return (
        f"The rules: {invitation.points_to_win} points to win, {invitation.gold} gold tokens; "
        f"each move is due {invitation.deadline} after the one before ({timeout})"
        + ("; anyone may watch the game" if invitation.spectators else "")
        + "."
    )


def invitation_letters(invitation: Invitation, proposer_name: str) -> list[Letter]:
    """The invitation, to each invited address, with a reply address of its own."""
    letters = []
    for seat, entry in enumerate(invitation.seats):
        if entry.proposer or entry.bot:
            continue
        others = [
            f"{s.name} (a {s.bot} bot)" if s.bot else s.address
            for s in invitation.seats
            if not s.proposer and s is not entry
        ]
        everyone = " and ".join([f"{proposer_name}", *others])
        letters.append(
            note_letter(
                "invitation",
                entry.address,
                entry.address,
                f"Splendor {invitation.game} · {proposer_name} invites you to a game",
                [
                    f"{proposer_name} ({invitation.proposer}) invites you to play Splendor by "
                    f"mail, game {invitation.game}: you, {everyone}.",
                    describe_options(invitation),
                    "Reply to this mail with 'accept' to play (or 'accept as NAME' to choose "
                    "the name the others see), or 'decline'. The game starts when everyone "
                    f"has accepted; if anyone has not answered by {when(invitation.expires)}, "
                    "it is called off.",
                    "If you do not know the sender, ignore this mail: nothing happens unless "
                    "you reply.",
                ],
                game=invitation.game,
                seat=seat,
            )
        )
    return letters
