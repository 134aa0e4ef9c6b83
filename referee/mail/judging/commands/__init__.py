"""Commands by mail: one small unit each, in a registry (as Mailman 3's email commands are).

A command is its word, its usage and example, a line of help, where it may be written (the
*scopes*: to the referee's own address, as a reply in a game, as a reply to an invitation) and
its handler: ``(context, argument) -> Ruling``. A handler reads; the effects it asks for are
carried out by the service. ``help`` is written from this registry.

Adding a command takes these files, and no others:

1. a module here (``referee/mail/judging/commands/NAME.py``), registered with ``@command``;
2. its texts, in ``referee/wording/catalogue/commands.py``: ``command.NAME.usage``,
   ``command.NAME.summary`` and the answers it gives;
3. its word in each language's ``referee/locale/LL/words.toml`` (``[commands]``), and the
   texts translated in each ``referee/locale/LL/LC_MESSAGES/referee.po`` (``scripts/
   translations update``, then translate; ``scripts/translations check``);
4. ``docs/mail.md`` and ``docs/interface.md`` ("Commands by mail"), and ``docs/messages.md``
   written anew (``python -m referee.wording.catalogue > docs/messages.md``);
5. tests: its word in ``EVERY_COMMAND`` of ``tests/mail/test_command_registry.py``, and what
   it does in ``tests/mail/test_mail_commands.py``.

A command that must know more than the mail's game names it in ``needs`` (gathered by
``referee/mail/desk.py``); one that changes what the service keeps asks for it with an
:data:`~referee.mail.judging.ruling.Effect` of ``referee/mail/judging/ruling.py``, which
``referee/mail/clerk.py`` carries out: a new kind of effect takes both.

How a command is read (:func:`read_command`): the first lines a person wrote (quotes, footers
and signatures already left out) are looked at in order; the first whose first word is a
command's word is the command, the rest of the line its argument. A command that takes no
argument must stand alone on its line ("games", "back."), so that "Games night was fun!" is
passed over like any greeting. In a game, a move line met first makes the reply a move.

A command's word is its English word or any language's word for it (the ``[commands]`` of
every words file, matched folded: Welsh ``cymorth`` is ``help``, Esperanto ``helpo`` too),
whatever the writer's language. A word that is two commands in two languages is the first
of them that may be written where it is and fits what follows it (English's first). Bengali
digits in an argument are read as the digits they are (``away ৫d`` is ``away 5d``); the
text of ``say`` is kept as written.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal, Required, TypedDict, Unpack

from referee.mail.judging.ruling import SCOPES, Context, Ruling, Scope
from referee.mail.reading.footers import is_footer
from referee.notation import plain, says_a_move
from referee.sentence_parts import clauses_of
from referee.sentences import read_move
from referee.spoken_time import names_a_day, time_words, until_said
from referee.wording.messages import Message
from referee.wording.vocabulary import WORD, digits, fold, reading_vocabulary

Handler = Callable[[Context, str], Ruling]

#: How many of the first lines a person wrote are looked at for a command.
LINES_LOOKED_AT = 6
#: The most text a command's argument carries (``say`` is cut there, and says so).
ARGUMENT_AT_MOST = 2000


@dataclass(frozen=True)
class Command:
    """One command by mail. How it is written and what it does are the catalogue's
    ``command.KEY.usage`` and ``command.KEY.summary`` (KEY: the word, or ``key`` where one word
    means two commands in different places). ``needs`` names what judging it must know
    beyond the mail's game: ``games`` (the sender's games in play), ``finished`` (what the
    sender's games over came to), ``invitations`` (the open ones and those ended lately),
    ``named`` (the game the argument names), ``started`` (the game an invitation became),
    ``finishes`` (every finished game: the standings). ``confirmed``: it changes the sender's
    standing (away, their language, a game proposed in their name), so written to the
    referee's own address, where no reply key proves who wrote it, it takes effect only once
    the address confirms it (see :mod:`referee.mail.judging.confirming`)."""

    word: str
    key: str
    example: str
    scopes: tuple[Scope, ...]
    handle: Handler
    argument: Literal["none", "optional", "required", "text"] = "none"
    order: int = 50  # where help lists it, lowest first
    needs: frozenset[str] = frozenset()
    confirmed: bool = False

    @property
    def usage(self) -> Message:
        return Message(f"command.{self.key}.usage")

    @property
    def summary(self) -> Message:
        return Message(f"command.{self.key}.summary")

    def described(self) -> tuple[Message, Message]:
        """How help lists it: how it is written, and what it does."""
        return (self.usage, self.summary)


_REGISTRY: dict[tuple[Scope, str], Command] = {}

#: What a command may ask to know beyond the mail's own game (see Command.needs).
NEEDS = frozenset({"games", "finished", "invitations", "named", "started", "finishes"})


class Registered(TypedDict, total=False):
    """How a command is registered (:func:`command`), beside its word: ``example`` and
    ``scopes`` always; its ``argument`` (none, optional, required, or free text), its
    ``order`` in help, its catalogue ``key`` (when one word means two commands), what judging
    it ``needs`` to know, and whether it must be ``confirmed`` by the sender's address."""

    example: Required[str]
    scopes: Required[tuple[Scope, ...]]
    argument: Literal["none", "optional", "required", "text"]
    order: int
    key: str | None
    needs: frozenset[str]
    confirmed: bool


def command(word: str, **given: Unpack[Registered]) -> Callable[[Handler], Handler]:
    """Register the decorated handler as the command ``word`` in its ``scopes``."""
    needs = given.get("needs", frozenset())
    unknown = needs - NEEDS
    if unknown:
        raise ValueError(f"command {word}: unknown needs {sorted(unknown)}")
    scopes = given["scopes"]

    def register(handle: Handler) -> Handler:
        entry = Command(
            word,
            given.get("key") or word,
            given["example"],
            scopes,
            handle,
            given.get("argument", "none"),
            given.get("order", 50),
            needs,
            given.get("confirmed", False),
        )
        for scope in scopes:
            if (scope, word) in _REGISTRY:
                raise ValueError(f"two commands {word!r} in scope {scope}")
            _REGISTRY[(scope, word)] = entry
        return handle

    return register


def commands(scope: Scope) -> list[Command]:
    """Every command that may be written in ``scope``, in the order help lists them."""
    _load()
    found = [c for (s, _), c in _REGISTRY.items() if s == scope]
    return sorted(found, key=lambda c: (c.order, c.word))


def lookup(scope: Scope, word: str) -> Command | None:
    _load()
    return _REGISTRY.get((scope, word))


@dataclass(frozen=True)
class Found:
    command: Command
    argument: str
    line: str


def read_command(scope: Scope, text: str) -> Found | None:
    """The command the person wrote first in ``text`` (what :func:`reply_text` kept of a
    mail), or None: no command, or (in a game) a move written before any command."""
    _load()
    lines = [line.strip() for line in plain(text).splitlines()]
    written = [line for line in lines if line and not is_footer(line)]
    before: list[str] = []  # the lines before that are no command ("2 gwyrdd plis")
    for n, line in enumerate(written[:LINES_LOOKED_AT]):
        word, _, rest = line.partition(" ")
        if word.rstrip("*_").endswith(":") and not rest.strip() and written[n + 1 :]:
            continue  # ("চাল:" alone over the lines of a move: a label, "my move:", not the
            # command; "say: hello" is said)
        meant = commands_meant(scope, word)
        if not meant:
            if scope == "game" and says_a_move(line):
                return None
            before.append(line)
            continue
        argument = rest.strip()
        alone = not argument.strip(".!?*_ ")
        answers = {c.key for c in meant} <= {"yes", "accept", "decline"}
        if alone and answers and scope == "game" and _a_move_in(before):  # ("2 gwyrdd plis /
            return None  # nei": a name signed under a move, Icelandic "no": an answer alone
            # after a move is none; "… / undo" is a command)
        fitting = [c for c in meant if c.argument != "none" or alone]
        if not fitting:
            continue  # "Games night was fun": not the command "games"
        found = fitting[0]
        if scope == "game" and found.argument != "text" and _a_sentence_moving(argument):
            return None  # ("Post longa pripensado jen mia movo: mi rezervas…": Welsh "post",
            # mail, is Esperanto "after"; a sentence with a move in it, not a command)
        if found.argument == "text":
            argument = "\n".join([argument, *written[n + 1 :]]).strip()
        else:  # a number in Bengali digits is a number: away ৫d, history ৩
            argument = digits(argument.rstrip(".!?").strip())
        return Found(found, argument, line)
    return None


#: The commands a sentence may hold, said as people say them ("I'm away until Friday",
#: "Back now, sorry everyone", "Can I see the board again?"): away, with a time said; back;
#: and those that only show something. The others are written as commands.
SAID = ("away", "back", "help", "rules", "history", "board", "games", "standings", "moves")


def read_command_in_sentences(scope: Scope, text: str) -> Found | None:
    """A command said in a sentence of the first lines a person wrote ("I'm away until the
    20th", "I'm back!", "Could you send me the rules again?"), or None. In a game, only a
    reply that holds no move is read so (the judge sees to that). One that a word of
    negation comes just before is not one; away needs a time said with it (its handler
    reads the time: :mod:`referee.spoken_time`)."""
    _load()
    grammar = reading_vocabulary().grammar_of
    away = _REGISTRY.get((scope, "away"))
    lines = [line.strip() for line in plain(text).splitlines()]
    written = [line for line in lines if line and not is_footer(line)][:LINES_LOOKED_AT]
    found: list[Found] = []
    before = ""  # the sentence before, with the time it says ("…í viku. …setja mig í frí?")
    for sentence in read_move("\n".join(written)).sentences:
        timed, before = before, "" if sentence.asks else _plain_time(sentence.text)
        written_in = WORD.findall(sentence.text.casefold())  # ("could you"; "viltu", one word
        requests = _phrase_kinds(written_in)[0]  # that asks and requests: not "please")
        for word in written_in:
            if {"requesting", "asking"} <= {k for k, _ in grammar(word)}:
                requests.add("requesting")
        for clause in clauses_of(sentence.text):
            words = WORD.findall(clause.casefold())
            phrased, inside = _phrase_kinds(words)  # "not around", "ddim ar gael", "could you"
            each = [{k for k, _ in grammar(w)} for w in words]  # (each word's kinds)
            kinds = {k for n, found in enumerate(each) if n not in inside for k in found}
            said = {c for w in words for c in commands_meant(scope, w) if c.key in SAID}
            if {c.key for c in said} >= {"games", "moves"}:  # ("hvaða leikir eru löglegir")
                said = {c for c in said if c.key != "games"}
            history = _REGISTRY.get((scope, "history"))
            past = "telling" in phrased or any("telling" in k and "asking" not in k for k in each)
            # ("were", "so far"; not "could": "What moves could I make?" asks for the moves)
            if past and any(c.key == "moves" for c in said) and history:
                # ("Kiuj movoj estis faritaj ĝis nun?": the moves made are the history)
                said = {c for c in said if c.key != "moves"} | {history}
            if "away" in phrased | kinds and away is not None:
                said.add(away)
            back = _REGISTRY.get((scope, "back")) if "back" in phrased else None
            if back is not None:  # ("Þið megið taka mig úr fríinu": a phrase that says back)
                said.add(back)
            asks = sentence.asks and "requesting" not in requests  # ("Could you mark me away…?")
            for command in sorted(said, key=lambda c: SAID.index(c.key)):
                if command.key not in CHANGING:  # "Could you send me the rules?": shown
                    found.append(Found(command, "", sentence.text))
                elif asks or kinds & {"negations", "doubts"}:
                    continue  # "Is Bo away?", "I'm not away"
                elif "telling" in kinds and not (command.key == "back" and "back" in phrased):
                    continue  # "I was away for a week" (but "Mi revenis el Parizo hieraŭ":
                    # a phrase of the writer's return, told as it is, in the past)
                elif sentence.moving and sentence.naming:
                    continue  # (a move word and a card or colours: of a move, not away;
                    # "…neilltuo'r cerdyn saffir sy'n werth un pwynt o fri…", renowned)
                elif command.key == "away" and until_said(_without_away(sentence.text), _SOME_DAY):
                    found.append(Found(command, _without_away(sentence.text), sentence.text))
                elif command.key == "away" and timed and any("me" in k for k in each):
                    found.append(Found(command, timed, sentence.text))  # (its time said just
                    # before, and it speaks of the writer: not "Please set Bo away")
                elif command.key == "back" and (
                    until_said(clause, _SOME_DAY) or names_a_day(clause)
                ):  # ("I'm back on the 20th": a return to come, not back now)
                    continue
                elif command.key == "back" and ("back" in phrased or _only_back(clause)):
                    found.append(Found(command, "", sentence.text))
    # the one that says most: away with its time first (of two, not the one that only says
    # tomorrow: "mi forveturos morgaŭ … Mi estos for ĝis la 20-a", leaving tomorrow, away
    # until the 20th); "moves", a word of chat, last
    tomorrow = _SOME_DAY + timedelta(days=1)
    found.sort(
        key=lambda f: f.command.key == "away" and until_said(f.argument, _SOME_DAY) == tomorrow
    )
    return min(found, key=lambda f: SAID.index(f.command.key), default=None)


#: The fewest words after a command word that may be a sentence rather than its argument.
SENTENCE_AFTER = 4


def _a_move_in(lines: list[str]) -> bool:
    """Whether the sentences of one of ``lines`` read as a move."""
    return any(read_move(line).request is not None for line in lines)


def _a_sentence_moving(argument: str) -> bool:
    """Whether what follows a command word at a line's start is a sentence of several words
    with a move word in it: the line is a sentence, not the command ("Post longa…")."""
    return len(WORD.findall(argument)) >= SENTENCE_AFTER and read_move(argument).moving


def _without_away(text: str) -> str:
    """``text`` without the words that are the command away: its time is what else it says
    (Icelandic "frí", holiday, typed "fri", is no Friday: "er a sjo naestu 10 daga, litid
    net. setjid mig i fri")."""
    kept = [
        w for w in WORD.findall(text) if not any(c.key == "away" for c in commands_meant("game", w))
    ]
    return " ".join(kept)


def _plain_time(text: str) -> str:
    """``text`` when it says a time and neither asks, nor says not (but in a phrase of away:
    "…kaj verŝajne ne havos interreton"), nor tells of what was ("Ég er að fara til Tenerife
    í viku"; not "I was away for a week"): the time of an away said in the sentence after
    it; else empty."""
    grammar = reading_vocabulary().grammar_of
    words = WORD.findall(text.casefold())
    inside = _phrase_kinds(words)[1]  # ("…ne havos interreton": no "not" of its own)
    kinds = {k for n, w in enumerate(words) if n not in inside for k, _ in grammar(w)}
    if kinds & {"negations", "telling"} or not until_said(text, _SOME_DAY):
        return ""
    said = time_words()  # (a length, or "until": not a day alone, "My flight is on Friday")
    lasting = any(fold(w) in said.until or fold(w) in said.units for w in words)
    return text if lasting else ""


def _phrase_kinds(words: list[str]) -> tuple[set[str], set[int]]:
    """The kinds of the grammar phrases of several words said among ``words`` (a language's
    ``[grammar] away``: "not around", "ddim ar gael", "ne povos ludi"; ``requesting``:
    "could you", "bonvolu"; ``back``: "taka mig úr fríinu"; ``telling``: "so far", "hingað
    til"), and where their words stand (a "not" inside one says no not)."""
    kinds: set[str] = set()
    inside: set[int] = set()
    for where, kind in reading_vocabulary().phrases_in([fold(w) for w in words]):
        if kind in ("away", "requesting", "back", "telling"):
            kinds.add(kind)
            inside.update(where)
        elif kind == "grammar":  # (a phrase passed over says no not: Welsh "dim ond", only;
            inside.update(where)  # "dim" alone is "no"; not "never mind", which takes back)
    return kinds, inside


#: The commands said in a sentence that change the writer's standing: read only from a
#: clause that neither asks, nor says not or maybe, nor tells of what was.
CHANGING = ("away", "back")


def _only_back(clause: str) -> bool:
    """Whether a clause says back and nothing the reader does not know ("I'm back!",
    "ffiw, nôl", not "I'll get back to you" nor "Bo will be back")."""
    read = read_move(clause).sentences
    others = [w for s in read for w in s.unplaced if not _says_back(w)]
    return bool(read) and not others and not any(s.moving for s in read)


def _says_back(word: str) -> bool:
    return any(c.key == "back" for scope in SCOPES for c in commands_meant(scope, word))


#: A day to tell whether a sentence says a time at all (its handler counts from now).
_SOME_DAY = datetime(2026, 1, 1, tzinfo=UTC)


def commands_meant(scope: Scope, word: str) -> list[Command]:
    """The commands of ``scope`` that ``word`` (the first word of a line, as written) may be:
    its own (an English command word), then what it means in each language's
    ``[commands]``, in their order."""
    _load()
    key = word.strip(".,!?:;*_\u0964").casefold()
    vocabulary = reading_vocabulary()
    names = vocabulary.commands_of(key)
    if not names and key not in {c.word for c in _REGISTRY.values()}:
        for stem, _ in vocabulary.stems(fold(key)):  # Bengali "বোর্ডটা" is "বোর্ড"
            names = vocabulary.commands_of(stem)
            if names:
                break
    if not names and "-" in key.strip("-"):  # (an ending after a hyphen: "history-ið")
        key = key.partition("-")[0]
        names = vocabulary.commands_of(key)
    meant: list[Command] = []
    for name in (key, *names):
        found = _REGISTRY.get((scope, name))
        if found is not None and found not in meant:
            meant.append(found)
    return meant


def _load() -> None:
    """Import every command module of this package (each registers its commands)."""
    if _loaded:
        return
    _loaded.append(True)
    for module in pkgutil.iter_modules(__path__):
        if module.name != "context":
            importlib.import_module(f"{__name__}.{module.name}")


_loaded: list[bool] = []
