"""``language CODE``, ``timezone AREA/CITY`` and ``mail every-turn|my-turn|digest``: the
sender chooses the language of every letter the referee writes them, the time zone their
deadlines and times are shown in (what they write is read in every language whatever they
choose), and how much mail they get. Kept per address in the ledger; the answer already
comes in the new language, since a letter is worded when it is sent."""

from __future__ import annotations

import functools
from zoneinfo import available_timezones

from babel import Locale

from referee.errors import RequestError
from referee.mail.judging.commands import command
from referee.mail.judging.commands.requests import to_sender
from referee.mail.judging.ruling import Choose, Context, Ruling
from referee.mail.state.ledger import MAIL_CHOICES
from referee.wording.messages import say
from referee.wording.vocabulary import fold, languages, reading_vocabulary


def language_choices() -> str:
    """Each language's code and its own name: ``en English, cy Cymraeg, ...``."""
    return ", ".join(f"{code} {own_name(code)}" for code in languages())


def own_name(code: str) -> str:
    """A language's name in itself (CLDR): Cymraeg, íslenska, esperanto, বাংলা."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


@functools.cache
def _names() -> dict[str, str]:
    """Every way a language may be named -> its code: the code, its own name and its names
    in each language the referee writes (folded: "cymraeg", "welsh", "kimra")."""
    names: dict[str, str] = {}
    for code in languages():
        names[code] = code
        for language in languages():
            name = Locale.parse(code).get_display_name(language)
            if name:
                names[fold(name, language)] = code
    names["bangla"] = "bn"
    return names


def language_of(written: str) -> str | None:
    """The language ``written`` names (a code or a name, in any of the languages)."""
    word = written.strip().strip(".!\"'“”„«»").strip()
    return _names().get(fold(word)) or _names().get(fold(word, "eo"))


@functools.cache
def _zones() -> dict[str, str]:
    return {zone.casefold(): zone for zone in available_timezones() | {"UTC"}}


def zone_of(written: str) -> str | None:
    """The IANA time zone ``written`` names (any case), or None."""
    return _zones().get(written.strip().strip(".").casefold())


@command(
    "language",
    example="language cy",
    scopes=("referee", "game", "invitation"),
    argument="required",
    order=80,
    confirmed=True,
)
def language(ctx: Context, argument: str) -> Ruling:
    if not argument.strip():
        raise RequestError.of("language.needs", choices=language_choices())
    code = language_of(argument)
    if code is None:
        raise RequestError.of(
            "language.unknown", language=argument.strip(), choices=language_choices()
        )
    letter = to_sender(ctx, "language", say("subject.language"), [say("language.answer")])
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} chose the language {code}",
        letters=[letter],
        effects=[Choose(ctx.sender, language=code)],
    )


@command(
    "timezone",
    example="timezone Asia/Dhaka",
    scopes=("referee", "game", "invitation"),
    argument="required",
    order=81,
    confirmed=True,
)
def timezone(ctx: Context, argument: str) -> Ruling:
    if not argument.strip():
        raise RequestError.of("timezone.needs")
    zone = zone_of(argument)
    if zone is None:
        raise RequestError.of("timezone.unknown", zone=argument.strip())
    answer = say("timezone.answer", zone=zone, now=ctx.now.isoformat())
    letter = to_sender(ctx, "timezone", say("subject.timezone"), [answer])
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} chose the time zone {zone}",
        letters=[letter],
        effects=[Choose(ctx.sender, timezone=zone)],
    )


def mail_choice_of(written: str) -> str | None:
    """The choice of how much mail ``written`` names (every-turn, my-turn, digest), in
    English (``my turn``, ``myturn``) or any language's words (``[options]`` every_turn,
    my_turn, digest of every words file), or None."""
    text = written.strip().strip(".।!").casefold()
    joined = "".join(c for c in text if c.isalnum())
    for choice in MAIL_CHOICES:
        if joined == choice.replace("-", ""):
            return choice
    vocabulary = reading_vocabulary()
    for form in (text, text.replace(" ", "-"), joined):
        for option in vocabulary.options_of(form):
            if option.replace("_", "-") in MAIL_CHOICES:
                return option.replace("_", "-")
    return None


@command(
    "mail",
    example="mail my-turn",
    scopes=("referee", "game"),
    argument="required",
    order=82,
    confirmed=True,
)
def mail(ctx: Context, argument: str) -> Ruling:
    choice = mail_choice_of(argument)
    if choice is None:
        raise RequestError.of("mail.unknown", written=argument.strip()[:100])
    letter = to_sender(ctx, "mail", say("subject.mail"), [say(f"mail.answer.{choice}")])
    return Ruling(
        "answered",
        "done",
        f"{ctx.sender} chose mail {choice}",
        letters=[letter],
        effects=[Choose(ctx.sender, mail=choice)],
    )
