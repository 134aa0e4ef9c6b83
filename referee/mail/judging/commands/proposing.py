"""``new splendor with ADDRESS ADDRESS... [points N] [gold N] [deadline 3d] [timeout forfeit]
[spectators] [language CODE]``: propose a game to 1-3 others, who are each sent an
invitation."""

from __future__ import annotations

import base64
import hashlib
import random
import re
from dataclasses import replace
from datetime import timedelta

from referee.addresses import AddressError
from referee.bots import LEVELS
from referee.engine import Rules
from referee.errors import RequestError
from referee.invitations import Invitation, Seat, player_name, start_record, timeout_policy
from referee.mail.judging.commands import command
from referee.mail.judging.commands.choosing import language_choices, language_of
from referee.mail.judging.commands.requests import to_sender
from referee.mail.judging.ruling import Context, CreateGame, EndInvitation, Propose, Ruling
from referee.mail.judging.telling import to_someone, welcome_letters
from referee.record import Terms, bot_address, dump, replay
from referee.spoken_time import time_words
from referee.timing import DEFAULT_DEADLINE, format_duration, parse_deadline, parse_duration
from referee.wording.letter import Letter
from referee.wording.messages import Message, message_of, say
from referee.wording.vocabulary import digits, fold, reading_vocabulary

#: How many games one address may propose in an hour.
PROPOSALS_PER_HOUR = 3
MOST_OTHERS = 3
#: The level of a bot asked for as "bot", without a level.
DEFAULT_BOT = "greedy"
#: The options of ``new`` that ``_parse`` gives, by their English words.
_OPTIONS = ("points", "gold", "deadline", "timeout", "spectators", "language")
#: The values of ``timeout``, by their English words.
_TIMEOUTS = ("wait", "forfeit", "bot")


def _parse(argument: str) -> tuple[list[str], dict[str, str]]:
    """The addresses and options of a ``new`` line (after the word ``new``), its words those
    of any language (the ``[options]`` of every words file, matched folded: Esperanto
    ``splendor kun ADDRESS kaj ADDRESS poentoj 10``). The options come by their English
    words (points, gold, deadline, timeout, spectators, language), their values as written
    but for Bengali digits, read as digits (``poentoj ১৫`` is ``15``), and a timeout's value
    (wait, forfeit, bot) by its English word; a bot among the addresses in another
    language's word is ``bot`` (``roboto:search`` is ``bot:search``)."""
    words = argument.replace(",", " ").replace(";", " ").split()
    if len(words) < 2 or not (_is(words[0], "splendor") and _is(words[1], "with")):
        raise RequestError.of("new.how")
    addresses: list[str] = []
    options: dict[str, str] = {}
    rest = words[2:]
    n = 0
    while n < len(rest):
        word = rest[n].strip("<>").rstrip(".")
        key = _option(word)
        if key is None and (before := _deadline_before(rest, n)) is not None:
            options["deadline"], n = before  # the number first: Bengali "৩ দিনের সময়সীমা"
            continue
        if key is not None:
            if key == "spectators":
                options[key] = "yes"
                n += 1
                continue
            while n + 1 < len(rest) and _option(rest[n + 1]) == key:
                n += 1  # an option said in two of its words: Welsh "terfyn amser"
            if n + 1 >= len(rest):
                raise RequestError.of("new.needs_value", word=word, example=_EXAMPLE[key])
            value = digits(rest[n + 1].rstrip("."))
            after = rest[n + 2] if n + 2 < len(rest) else ""
            if key == "deadline" and (said := _days_said(value, after)) is not None:
                options[key] = said[0]
                n += 1 + said[1]
                continue
            options[key] = _timeout(value) if key == "timeout" else value
            n += 2
            continue
        if word and not _is(word, "and"):
            addresses.append(_bot(word))
        n += 1
    return addresses, options


def _days_said(value: str, after: str) -> tuple[str, int] | None:
    """A deadline said in days or weeks in the words of any language (``[time]``): a number,
    in digits or words, then its unit ("৩ দিন", "5 diwrnod", "2 weeks", "tri tagoj", "তিন
    দিন"), or the two joined ("৩দিন"), as the notation writes it (``3d``, ``14d``) and how
    many words said it; None when the words say no number of days (``3d`` and ``12h`` are
    read as they are)."""
    joined = re.fullmatch(r"(\d{1,4})(\D+)", value)
    number, unit, used = (joined.group(1), joined.group(2), 1) if joined else (value, after, 2)
    days = time_words().units.get(fold(unit.rstrip(".")))
    count = _count(number)
    if count is None or days is None:
        return None
    return f"{count * days}d", used


def _deadline_before(rest: list[str], n: int) -> tuple[str, int] | None:
    """A deadline said with its number and unit before the option's word (Bengali "৩ দিনের
    সময়সীমা", "তিন দিনের সময়সীমা"; English "a 3 day deadline" reads so too) at ``rest[n]``,
    and the index of the word after it; None when the words there are no such deadline."""
    said = _days_said(digits(rest[n]), rest[n + 1] if n + 1 < len(rest) else "")
    if said is None:
        return None
    at = n + said[1]
    if at >= len(rest) or _option(rest[at].rstrip(".")) != "deadline":
        return None
    while at + 1 < len(rest) and _option(rest[at + 1].rstrip(".")) == "deadline":
        at += 1  # two words of the option: Welsh "terfyn amser"
    return said[0], at + 1


def _count(word: str) -> int | None:
    """The number ``word`` says: digits, or a number word of any language (``[numbers]``,
    ``[time.numbers]``: "tri", "তিন", "þrjá")."""
    if word.isdigit():
        return int(word)
    return time_words().numbers.get(fold(word.rstrip(".")))


#: What new.needs_value gives as an example of each option's value (a word of words.toml, or
#: a value as written)
_EXAMPLE = {
    "points": "15", "gold": "5", "deadline": "3d", "timeout": "options.forfeit", "language": "cy",
}  # fmt: skip


def _is(word: str, option: str) -> bool:
    """Whether ``word`` is the option word ``option`` (English's, or any language's)."""
    return word.casefold() == option or reading_vocabulary().is_option(word, option)


def _option(word: str) -> str | None:
    """The option of ``new`` that ``word`` names (English's word first), or None."""
    if word.casefold() in _OPTIONS:
        return word.casefold()
    return next((o for o in reading_vocabulary().options_of(word) if o in _OPTIONS), None)


def _timeout(value: str) -> str:
    """A timeout's value: wait, forfeit or bot by its English word, when it is one in some
    language; else as written (and refused as it is)."""
    if value.casefold() in _TIMEOUTS:
        return value
    return next((o for o in reading_vocabulary().options_of(value) if o in _TIMEOUTS), value)


def _bot(address: str) -> str:
    """An address as written; a bot in another language's word as ``bot`` (its level, after
    a colon, as written)."""
    word, colon, level = address.partition(":")
    if word.casefold() != "bot" and _is(word, "bot"):
        return "bot" + colon + level
    return address


def _number(options: dict[str, str], key: str, default: int, low: int, high: int) -> int:
    if key not in options:
        return default
    value = options[key]
    if not value.isdigit() or not low <= int(value) <= high:
        raise RequestError.of(
            "new.out_of_range", key=f"options.{key}", value=value, low=low, high=high
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
    example="new splendor with bob@example.org carol@example.org deadline 3d spectators",
    scopes=("referee",),
    argument="required",
    order=1,
    needs=frozenset({"invitations"}),
    confirmed=True,
)
def new(ctx: Context, argument: str) -> Ruling:
    me = ctx.sender.lower()
    written, options = _parse(argument)
    if not written:
        raise RequestError.of("new.no_addresses")
    others: list[str] = []
    bots: dict[str, str] = {}  # address -> level
    for address in written:
        word, _, level = address.casefold().partition(":")
        if word == "bot":
            if level and level not in LEVELS:
                raise RequestError.of(
                    "new.no_bot_level",
                    address=address,
                    level=level,
                    default=DEFAULT_BOT,
                    levels=list(LEVELS),
                )
            name = "Bot" if not bots else f"Bot{len(bots) + 1}"
            bot = bot_address(name)
            bots[bot] = level or DEFAULT_BOT
            others.append(bot)
            continue
        checked = _checked(ctx, address)
        if checked.lower() == me:
            raise RequestError.of("new.own_address", address=address)
        if checked.lower() in (o.lower() for o in others):
            raise RequestError.of("new.twice", address=address)
        others.append(checked)
    if len(others) > MOST_OTHERS:
        raise RequestError.of("new.too_many", named=len(others), most=MOST_OTHERS)
    deadline = parse_deadline(options["deadline"]) if "deadline" in options else DEFAULT_DEADLINE
    timeout = options.get("timeout", "wait").casefold()
    if timeout not in ("wait", "forfeit", "bot"):
        raise RequestError.of("new.bad_timeout", timeout=options["timeout"])
    language = language_of(options["language"]) if "language" in options else None
    if "language" in options and language is None:
        raise RequestError.of(
            "language.unknown", language=options["language"], choices=language_choices()
        )
    rules = Rules(
        points_to_win=_number(options, "points", 15, 5, 30),
        gold=_number(options, "gold", 5, 0, 10),
    )
    terms = Terms(
        rules=rules,
        deadline=deadline,
        timeout=timeout_policy(timeout),
        spectators="spectators" in options,
        language=language,
    )
    return propose_game(ctx, others, bots, terms)


def propose_game(ctx: Context, others: list[str], bots: dict[str, str], terms: Terms) -> Ruling:
    """The sender proposes a game with ``others`` (addresses; those in ``bots`` are computer
    players, by level) on ``terms`` (the game's :class:`~referee.record.Terms`; its bots are
    those of ``bots``, once their seats are drawn): an invitation to each person, or (only
    bots) the game started at once."""
    me = ctx.sender.lower()
    mail = ctx.inbound.message_id or ""
    recent = [
        i
        for i in ctx.seen.invitations
        if i.proposer.lower() == me and ctx.now - i.at < timedelta(hours=1) and i.mail != mail
    ]
    if len(recent) >= PROPOSALS_PER_HOUR:
        raise RequestError.of("new.too_often", count=len(recent))
    game = ctx.seen.shards.settle(proposal_id(ctx.secret, mail))  # this worker's (docs/scaling.md)
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
        points_to_win=terms.rules.points_to_win,
        gold=terms.rules.gold,
        deadline=format_duration(terms.deadline),
        spectators=terms.spectators,
        timeout=terms.timeout,
        seats=seats,
        language=terms.language,
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
    expires = invitation.expires.isoformat()
    proposed = (
        say("new.proposed.bots", game=game, people=people, bots=len(bots), expires=expires)
        if bots
        else say("new.proposed", game=game, people=people, expires=expires)
    )
    says = [proposed, describe_options(invitation), say("new.call_off")]
    subject = say("subject.proposed", game=game)
    letter = to_sender(ctx, "proposed", subject, says)
    letter = replace(
        letter,
        name=ctx.inbound.sender_name or proposer_name,
        game=game,
        seat=everyone.index(ctx.sender),
    )
    letters.append(letter)
    return Ruling(
        "answered",
        "done",
        f"game {game} proposed to {', '.join(others)}",
        letters=letters,
        effects=[Propose(invitation)],
    )


def _checked(ctx: Context, address: str) -> str:
    """``address``, checked as someone invited: refused saying why."""
    try:
        return ctx.seen.addresses.check(address)
    except AddressError as err:
        if err.allow is None:
            raise RequestError.of("new.not_an_address", reason=message_of(err)) from None
        raise RequestError.of(
            "new.special_use",
            address=address,
            suffix=err.params["suffix"],
            purpose=err.params["purpose"],
            allow=err.allow,
        ) from None


def describe_options(invitation: Invitation) -> Message:
    """The rule options of a game proposed, and what happens at a deadline."""
    said = {
        "points": invitation.points_to_win,
        "gold": invitation.gold,
        "deadline": int(parse_duration(invitation.deadline).total_seconds()),
        "timeout": say(f"options.timeout.{invitation.timeout}"),
    }
    return say("options.rules.spectators" if invitation.spectators else "options.rules", **said)


def invitation_letters(invitation: Invitation, proposer_name: str) -> list[Letter]:
    """The invitation, to each invited address, with a reply address of its own."""
    letters = []
    expires = invitation.expires.isoformat()
    for seat, entry in enumerate(invitation.seats):
        if entry.proposer or entry.bot:
            continue
        others = [
            say("invite.bot", player=s.name, level=s.bot)
            if s.bot
            else say("invite.someone", address=s.address)
            for s in invitation.seats
            if not s.proposer and s is not entry
        ]
        everyone = [say("invite.someone", address=proposer_name), *others]
        says = [
            say("invite.invites", player=proposer_name, proposer=invitation.proposer,
                game=invitation.game, everyone=everyone),
            describe_options(invitation),
            say("invite.how", expires=expires),
            say("invite.unknown_sender"),
        ]  # fmt: skip
        subject = say("subject.invitation", game=invitation.game, player=proposer_name)
        letter = to_someone(entry.address, "", "invitation", subject, says)  # (no name yet)
        letters.append(replace(letter, game=invitation.game, seat=seat))
    return letters
