"""Move notation: what players write in a mail, and the canonical text of a move.

Two steps, as python-chess does it:

* :func:`parse_request` reads text (or a JSON move object) into a :class:`MoveRequest`, which
  may leave out what the writer did not say (returns, noble, payment). Syntax only; raises
  :class:`~referee.errors.InvalidMoveError` saying what was expected.
* :func:`resolve` matches a request against the legal moves of a position: exactly one fits,
  and that is the move; none fits, and the engine's reason is raised as
  :class:`~referee.errors.IllegalMoveError`; several fit, and
  :class:`~referee.errors.AmbiguousMoveError` lists them. A buy that names no payment pays
  coloured tokens first and gold for the rest.

:func:`parse` does both; :func:`format_move` gives the canonical text, which parses back to
the same move. ``docs/notation.md`` describes the notation for players.

``resign`` (or ``I resign``; JSON ``{"type": "resign"}``) is a move of the player who writes
it, not of the player to move: it resolves to that player's seat, their turn or not. Every
other move is refused when it is not the writer's turn.

Moves are read in every language at once (:func:`reading_words`: English's words, the
notation's own (colour letters, digits, card and noble ids) and every language's
``words.toml``), matched folded (:func:`~referee.wording.vocabulary.fold`: no case, no
accents, Esperanto's x-system, Bengali digits). A word that means different things in
different languages (Welsh ``du`` is black, Esperanto ``du`` is two) gives the text several
*readings*, one for each choice of meanings, English's first: :func:`parse_request` keeps
every reading that is a move (refusing the text as its first reading is refused when none
is), and :func:`resolve` keeps the legal ones: one, and that is the move; several, and the
text is ambiguous (the candidates are listed); none, and the first reading's refusal is the
answer.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from referee.engine.cards import (
    CARDS,
    NO_TOKENS,
    NOBLES,
    STONE_NAMES,
    TOKEN_COLOURS,
    Tokens,
)
from referee.engine.moves import Buy, Move, Pass, Reserve, Resign, Take, move_json
from referee.engine.rules import apply, default_payment, legal_moves, noble_choices
from referee.engine.state import GameState, Player, need
from referee.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, MoveError
from referee.wording.move_text import format_move
from referee.wording.vocabulary import (
    WORD,
    ReadingVocabulary,
    Sense,
    build_reading_vocabulary,
    fold,
    language_tables,
    locale_folder,
)

Action = Literal["take", "reserve", "buy", "pass", "resign"]

#: The longest text a move may be; longer input is refused before it is read.
MAX_MOVE_TEXT = 2000

ACTIONS: dict[str, Action] = {
    "take": "take",
    "get": "take",
    "reserve": "reserve",
    "buy": "buy",
    "purchase": "buy",
    "pass": "pass",
    "resign": "resign",
}
CLAUSES = {"return": "return", "discard": "return", "noble": "noble", "pay": "pay"}
FILLERS = frozenset({"and", "then", "the", "card", "token", "tokens", "gem", "gems", "of"})
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
NOTHING = frozenset({"nothing", "none", "0"})
#: The words that name a deck (``reserve deck 3``, ``level 3``, ``top of deck 3``).
DECK_WORDS = ("deck", "level", "top")
#: Said before resign: ``I resign``.
BEFORE_RESIGN = ("i",)

#: Colour words (colour names, stone names, plurals, one-letter abbreviations) -> token kind.
COLOUR_WORDS: dict[str, int] = {}
for _kind, (_colour, _stone) in enumerate(zip(TOKEN_COLOURS, STONE_NAMES, strict=True)):
    COLOUR_WORDS[_colour] = COLOUR_WORDS[_colour + "s"] = _kind
    COLOUR_WORDS[_stone] = _kind
COLOUR_WORDS.update(
    {"diamonds": 0, "sapphires": 1, "emeralds": 2, "rubies": 3, "onyxes": 4, "onyxs": 4}
)
COLOUR_LETTERS = {"w": 0, "u": 1, "g": 2, "r": 3, "k": 4, "*": 5}
COLOUR_WORDS.update(COLOUR_LETTERS)
COLOUR_WORDS.update({"joker": 5, "jokers": 5})

_WORD = WORD
_CARD_ID = re.compile(r"([123])-0*(\d{1,2})")
_NOBLE_ID = re.compile(r"n?0*(\d{1,2})")
_NOBLE_WRITTEN = re.compile(r"n\d{1,2}")
#: Two pieces of a word joined by an apostrophe (Welsh ``rwy'n``).
_JOINED = re.compile(r"[^\s,;:.!?()\[\]{}\"'`\u0964\u0965]['`][^\s,;:.!?()\[\]{}\"'`\u0964\u0965]")

#: How many of the legal moves that fit an ambiguous move its error shows.
SHOWN_CANDIDATES = 12
#: The most readings of one text that are tried (each ambiguous word multiplies them); the
#: first ones, English's meanings first, when a text has more.
MOST_READINGS = 64

#: The words of a words file the notation knows of itself: English's, read in every language
#: and before any language's (the colour letters are not here: a run of them, ``rgu``, is
#: read as letters, one by one).
BUILT_IN: dict[str, dict[str, list[str]]] = {
    "moves": {
        **{a: [w for w, b in ACTIONS.items() if b == a] for a in dict.fromkeys(ACTIONS.values())},
        **{c: [w for w, d in CLAUSES.items() if d == c] for c in dict.fromkeys(CLAUSES.values())},
        "deck": list(DECK_WORDS),
        "nothing": sorted(NOTHING - {"0"}),
        "before_resign": list(BEFORE_RESIGN),
        "fillers": sorted(FILLERS),
    },
    "colours": {
        colour: [w for w, k in COLOUR_WORDS.items() if k == kind and w not in COLOUR_LETTERS]
        for kind, colour in enumerate(TOKEN_COLOURS)
    },
    "numbers": {str(n): [w for w, m in NUMBER_WORDS.items() if m == n] for n in range(1, 8)},
}

#: The move words that lead a clause: the actions, and what may follow one.
_HEADS: dict[str, Action | None] = {
    "take": "take", "reserve": "reserve", "buy": "buy", "pass": "pass", "resign": "resign",
    "return": None, "noble": None, "pay": None,
}  # fmt: skip
_GOLD = TOKEN_COLOURS.index("gold")
_NOTHING_SENSE = Sense("move", "nothing")
_DECK_SENSE = Sense("move", "deck")


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A move as written: ``returned``, ``noble`` and ``pay`` are None where not said.
    ``others`` are the other readings of the text that are moves too (its words meaning
    other things in other languages): :func:`resolve` keeps those that are legal."""

    action: Action
    gems: Tokens | None = None
    card: str | None = None
    deck: int | None = None
    pay: Tokens | None = None
    returned: Tokens | None = None
    noble: str | None = None
    text: str | None = None
    #: a card named by the colour of its bonus, not by its id (read in sentences only: "buy
    #: the black card"), and ``held``: one of the writer's reserved cards ("…in my hand")
    bonus: int | None = None
    held: bool = False
    #: what more a card so named is said to be: its ``level``, its ``points``, and ``cost``,
    #: (colour, count) pairs of its cost ("the white two-pointer that costs 5 red")
    level: int | None = None
    points: int | None = None
    cost: tuple[tuple[int, int], ...] = ()
    #: tokens with gold said of a buy's payment, that may be the payment whole ("white, blue
    #: and gold") or what the gold stands in for ("gold covers the red"); read in sentences
    #: only: the payment is that, or else the one that spends the gold on those colours
    gold_paying: Tokens | None = None
    others: tuple[MoveRequest, ...] = field(default=(), compare=False, repr=False)
    #: whether this reading mixes the words of two languages (other than English)
    mixed: bool = field(default=False, compare=False, repr=False)

    @property
    def readings(self) -> tuple[MoveRequest, ...]:
        """Every reading of the text that is a move: this one first."""
        return (self, *self.others)


# ---------------------------------------------------------------------------------------------
# The words of every language


def reading_words() -> ReadingVocabulary:
    """The words a move is read with: the notation's own (:data:`BUILT_IN`), then every
    language's words file (English first); made once for the folder of languages."""
    return _reading_words(locale_folder())


@functools.cache
def _reading_words(folder: Path) -> ReadingVocabulary:
    return build_reading_vocabulary([("en", BUILT_IN), *language_tables(folder)])


@dataclass(frozen=True, slots=True)
class _Word:
    """A word of a move in one reading: as written (case folded: what a message quotes),
    folded (what is matched), and the meaning this reading gives it (None: no language's
    word; a digit, a card or noble id, a run of colour letters, or a word not understood)."""

    written: str
    key: str
    sense: Sense | None = None
    #: the move word it leads a clause with in this reading (take, return…), if it does
    head: str | None = field(default=None, compare=False)
    #: what this reading takes it for, when a group: ``filler``, ``before_resign``…
    group: str = field(default="", compare=False)


def _word(written: str, key: str, sense: Sense | None) -> _Word:
    return _Word(written, key, sense, _head(sense), sense.group if sense else "")


@dataclass(frozen=True, slots=True)
class _Written:
    """A word as written, with each meaning it may have (``words``: one reading of it for
    each, English's first), and what those say: the languages in which it leads a clause
    (take, return, pay…), whether it may say part of a move (a move word, colour, number,
    card, deck, noble, nothing), and the languages in which it is a filler."""

    written: str
    key: str
    words: tuple[_Word, ...]
    heads: frozenset[str]
    says: bool
    fillers: frozenset[str]

    @property
    def head(self) -> bool:
        """Whether, in some language, the word leads a clause."""
        return bool(self.heads)


def _head(sense: Sense | None) -> str | None:
    """The move word a sense leads a clause with (take, reserve, …, return, noble, pay)."""
    if sense is not None and sense.group == "move" and sense.value in _HEADS:
        return str(sense.value)
    return None


def _patterned(key: str) -> bool:
    """Whether a folded word is one of the notation's own: a number in digits, a run of
    colour letters, a card id, a noble id."""
    return bool(
        key.isdecimal()
        or all(ch in COLOUR_LETTERS for ch in key)
        or _CARD_ID.fullmatch(key)
        or _NOBLE_ID.fullmatch(key)
    )


def _says_itself(key: str) -> bool:
    """Whether a word the languages do not know says part of a move by itself: a count in
    digits, a run of colour letters, ``0``, a card id, a noble id."""
    return bool(
        (key.isdecimal() and len(key) <= 2)
        or (key and all(ch in COLOUR_LETTERS for ch in key))
        or key == "0"
        or _CARD_ID.fullmatch(key)
        or _NOBLE_WRITTEN.fullmatch(key)
    )


def _written(written: str, key: str, senses: tuple[Sense, ...]) -> _Written:
    """A word with its meanings (none: the notation's own, or not understood)."""
    choices: tuple[Sense | None, ...] = senses
    if not senses:
        choices = (None,)
    elif _patterned(key):
        choices = (None, *senses)
    groups = {s.group for s in senses}
    says = bool(groups & {"move", "colour", "number"}) or (None in choices and _says_itself(key))
    return _Written(
        written,
        key,
        tuple(_word(written, key, s) for s in choices),
        heads=frozenset(lang for s in senses if _head(s) is not None for lang in s.languages),
        says=says,
        fillers=frozenset(lang for s in senses if s.group == "filler" for lang in s.languages),
    )


#: A plus or an ampersand written alone between words: "and".
_AND_MARK = re.compile(r"(?<=\s)[+&](?=\s)")


def _written_words(text: str) -> list[_Written]:
    """The words of ``text``, each with what it may mean. Words a language lists as one word
    written with an apostrophe (Welsh ``rwy'n``, ``a'r``) are one word when they are written
    so, joined by the apostrophe. A ``+`` or ``&`` standing alone between words is "and"
    (``take w u k, return g + r``)."""
    text = _AND_MARK.sub(",", text.casefold())
    folder = locale_folder()
    words = _reading_words(folder)
    if words.longest_phrase < 2 or not _JOINED.search(text):
        return [_meanings(word, folder) for word in WORD.findall(text)]
    found = list(WORD.finditer(text))
    written: list[_Written] = []
    n = 0
    while n < len(found):
        phrase, length = _phrase(text, found, n, words)
        if phrase is not None:
            written.append(phrase)
            n += length
        else:
            written.append(_meanings(found[n].group(), folder))
            n += 1
    return written


@functools.lru_cache(maxsize=4096)
def _meanings(word: str, folder: Path) -> _Written:
    """A word (case folded) with what it may mean in the languages of ``folder``: kept, as
    the same words come in every mail. A word no language lists as written may be one with
    an ending its language gives (``[grammar] endings``: Esperanto's ``ruĝajn`` is
    ``ruĝa``; Bengali's ``লালটা`` is ``লাল``): the meanings it has in that language (a card
    with an ending, ``3-01-টা``, is that card; a word with an ending after a hyphen,
    Icelandic ``reserve-a``, is the word before it)."""
    key = fold(word)
    vocabulary = _reading_words(folder)
    senses = vocabulary.senses.of(word, key)
    if not senses and not _patterned(key):
        for stem, language in vocabulary.stems(key):
            found = tuple(s for s in vocabulary.senses.of(stem, stem) if language in s.languages)
            if found:
                senses = found
                break
            if card_word(stem) == "card":  # Bengali "৩-০১-টা", "1-36-এর"
                key = stem
                break
    if not senses and "-" in key.strip("-") and not card_word(key):
        first, _, ending = word.partition("-")  # (an ending, not a word: "blue-green" is none)
        if (
            first.isalpha()
            and not (len(ending) > 2 and vocabulary.senses.of(ending, fold(ending)))
            and vocabulary.senses.of(first, fold(first))
        ):
            key, senses = fold(first), vocabulary.senses.of(first, fold(first))
    if not word.isascii():  # ("á", Icelandic: not Welsh "a"; "pásu": not Esperanto's "pasu")
        spelled = vocabulary.spelled_in(word)
        senses = tuple(
            s
            for s in senses
            if (set(s.languages) & spelled)
            or (not spelled and any(vocabulary.written_in(word, lang) for lang in s.languages))
        )
    return _written(word, key, senses)


def _phrase(
    text: str, found: list[re.Match[str]], n: int, words: ReadingVocabulary
) -> tuple[_Written | None, int]:
    """The longest word of ``words`` written with apostrophes that ``text`` has at its
    ``n``-th piece, and how many pieces it is; (None, 0) when none."""
    joined = 1
    while (
        n + joined < len(found)
        and joined < words.longest_phrase
        and text[found[n + joined - 1].end() : found[n + joined].start()] in ("'", "`")
    ):
        joined += 1
    for length in range(joined, 1, -1):
        pieces = [m.group() for m in found[n : n + length]]
        senses = words.phrases.get(tuple(fold(p) for p in pieces))
        if senses:
            written = text[found[n].start() : found[n + length - 1].end()]
            return _written(written, fold(written), senses), length
    return None, 0


def _readings(written: list[_Written]) -> Iterator[list[_Word]]:
    """Each reading of the words: one meaning for each word (the same word, written twice,
    means the same thing both times), English's first, at most :data:`MOST_READINGS` of
    them."""
    meanings = {w.key: len(w.words) for w in written if len(w.words) > 1}
    ambiguous = list(meanings)
    for chosen in itertools.islice(
        itertools.product(*(range(meanings[key]) for key in ambiguous)), MOST_READINGS
    ):
        pick = dict(zip(ambiguous, chosen, strict=True))
        yield [w.words[pick.get(w.key, 0)] for w in written]


#: A word of one reading, and a word as written with all its readings: for the reader of
#: sentences (:mod:`referee.sentences`), which places the same words otherwise.
Word = _Word
WrittenWord = _Written


def written_words(text: str) -> list[_Written]:
    """The words of ``text`` (case folded), each with what it may mean in every language."""
    return _written_words(plain(text))


def readings_of(written: list[_Written]) -> Iterator[list[_Word]]:
    """Each reading of ``written`` (one meaning for each word), English's first."""
    return _readings(written)


def card_word(key: str) -> Literal["card", "noble"] | None:
    """What a folded word the languages do not know names by itself: a card (``1-23``) or a
    noble (``n4``); None when neither."""
    if _CARD_ID.fullmatch(key):
        return "card"
    if _NOBLE_WRITTEN.fullmatch(key):
        return "noble"
    return None


# ---------------------------------------------------------------------------------------------
# Text -> request (syntax only)


#: Characters that mail programs and phones put around or inside words, and how they are read:
#: a byte-order mark and zero-width characters are dropped, no-break and other odd spaces are
#: spaces, typographic quotes are plain quotes (so that a JSON move keeps working).
_PLAIN = str.maketrans(
    {
        **dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060\u00ad"), None),
        **dict.fromkeys(map(ord, "\u00a0\u2007\u202f\u2009\u200a\u2002\u2003\u3000"), " "),
        **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033"), '"'),
        **dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2039\u203a\u2032"), "'"),
    }
)


_ODD = re.compile("[" + "".join(map(chr, _PLAIN)) + "]")


def plain(text: str) -> str:
    """``text`` without the invisible and typographic characters that mail programs add: a
    byte-order mark, zero-width spaces, no-break spaces, smart quotes."""
    if text.isascii() or not _ODD.search(text):
        return text  # most text: found out at C speed (translate is slow on long text)
    return text.translate(_PLAIN)


def starts_with_a_move_word(line: str) -> bool:
    """Whether the first word of ``line`` is, in some language, an action or a clause (take,
    get, buy, return…; Welsh cymryd…)."""
    words = _written_words(plain(line).casefold()[:40])
    return bool(words) and words[0].head


def says_a_move(line: str) -> bool:
    """Whether a line that starts with a move word goes on to say what a move says (colours,
    a count, a card, a deck, a noble, ``nothing``) in at least half of its other words, or
    is that word alone: ``take red green blue``, ``pass``, ``return 2 white`` and ``buy 1-12
    please`` do; ``Take care``, ``Buy me a coffee``, ``Get 2 more friends for the next one``
    and ``Get Outlook for Android`` do not. A JSON move (a line starting with ``{``) does.
    In every language at once: a word counts as said when any of its meanings says a move,
    and is passed over when none does and it is a filler in English or in a language whose
    move word begins the line (so that Welsh ``a``, and, makes no move of "Get a 2 for 1
    deal", while Bengali ``দিলাম`` is passed over in ``পাস দিলাম``)."""
    text = plain(line).strip().strip("\"'*_`").strip()
    if text.startswith("{"):
        return True
    words = _written_words(text)
    before = 0  # (I resign, Rwy'n ymddiswyddo)
    while before < len(words) - 1 and any(w.group == "before_resign" for w in words[before].words):
        before += 1
    if before and any(w.head == "resign" for w in words[before].words):
        words = words[before:]
    if not words or not words[0].head:
        return False
    heads = words[0].heads
    rest = [w.says for w in words[1:] if w.says or not _passed_over(w.fillers, heads)]
    said = sum(rest)
    return not rest or (said > 0 and 2 * said >= len(rest))


def _passed_over(fillers: frozenset[str], heads: frozenset[str]) -> bool:
    """Whether a filler of the languages ``fillers`` is passed over in a line whose move word
    is one of the languages ``heads``: an English filler always, another language's in its
    own lines."""
    return bool(fillers) and ("en" in fillers or not fillers.isdisjoint(heads))


def parse_request(text: str) -> MoveRequest:
    """Read move notation (or a JSON move object, text starting with ``{``) into a request.
    The request is the first reading of the text that is a move; the others that are moves
    ride along in :attr:`MoveRequest.others`. When no reading is a move, the text is refused
    as its first reading is."""
    text = plain(text)
    if len(text) > MAX_MOVE_TEXT:
        raise InvalidMoveError.of("notation.too_long", limit=MAX_MOVE_TEXT, length=len(text)).about(
            text[:60] + "…"
        )
    if text.lstrip().startswith("{"):
        return _request_from_json_text(text)
    written = _written_words(text)
    if not written:
        raise InvalidMoveError.of("notation.no_move").about(text)
    if all(len(w.words) == 1 for w in written):  # most text: one reading
        return _request([w.words[0] for w in written], text)
    requests: list[MoveRequest] = []
    refusals: list[InvalidMoveError] = []
    for words in _readings(written):
        try:
            request = _request(words, text)
        except InvalidMoveError as err:
            refusals.append(err)
            continue
        if request not in requests:
            requests.append(replace(request, mixed=not _one_language(words)))
    if not requests:
        raise _first(refusals)
    requests.sort(key=lambda r: r.mixed)  # readings in one language first (stable)
    if len(requests) == 1:
        return requests[0]
    return replace(requests[0], others=tuple(requests[1:]))


def _one_language(words: list[_Word]) -> bool:
    """Whether one language (with English, which every language is read with) could have
    written every word of a reading: Welsh ``cymryd du coch`` is take black red in Welsh,
    not take 2 red with Esperanto's ``du``."""
    common: set[str] | None = None
    for word in words:
        sense = word.sense
        if sense is None or "en" in sense.languages:
            continue
        common = set(sense.languages) if common is None else common & set(sense.languages)
        if not common:
            return False
    return True


def _first(refusals: list[InvalidMoveError]) -> InvalidMoveError:
    """The refusal of a text none of whose readings is a move: its first reading's."""
    return refusals[0]


def _request(words: list[_Word], text: str) -> MoveRequest:
    """The request one reading of ``text`` is (InvalidMoveError when it is none)."""
    before = 0
    while before < len(words) and words[before].group == "before_resign":
        before += 1
    if 0 < before < len(words) and words[before].head == "resign":
        words = words[before:]  # I resign
    return request_of_clauses(list(_clauses(words, text)), text)


#: A clause of a move: its move word (take, return…), that word as written, its arguments.
Clause = tuple[str, str, list["_Word"]]


def request_of_clauses(clauses: list[Clause], text: str) -> MoveRequest:
    """The request that ``clauses`` (in the order written) make: one action and what may
    follow it (return, pay, noble). InvalidMoveError, saying what is wrong, when they make
    none. (The notation's clauses, and the clauses :mod:`referee.sentences` finds in a
    sentence.)"""
    action_clauses = [c for c in clauses if _HEADS[c[0]] is not None]
    if not action_clauses:
        raise InvalidMoveError.of("notation.no_action").about(text)
    if len(action_clauses) > 1:
        actions = [c[1] for c in action_clauses]
        raise InvalidMoveError.of("notation.one_at_a_time", actions=actions).about(text)
    concept, head, args = action_clauses[0]
    action = _HEADS[concept]
    assert action is not None
    gems: Tokens | None = None
    card: str | None = None
    deck: int | None = None
    description = described(args) if action in ("reserve", "buy") else None
    if action == "take":
        gems = _token_list(args, head, text)
    elif description is not None:
        pass  # (the card is the one so named that the move can have: see _fits)
    elif action == "reserve":
        card, deck = _reserve_args(args, head, text)
    elif action == "buy":
        card = _single_card(args, head, text)
    elif action == "resign":
        if args or len(clauses) > 1:
            raise InvalidMoveError.of("notation.resign_alone").about(text)
    elif args:
        found = " ".join(a.written for a in args)
        raise InvalidMoveError.of("notation.pass_alone", found=found).about(text)
    pay: Tokens | None = None
    returned: Tokens | None = None
    noble: str | None = None
    for concept, head, args in clauses:
        if concept == "return":
            given = _token_list(args, head, text, allow_nothing=True)
            returned = given if returned is None else _add(returned, given)
        elif concept == "noble":
            named = _noble_id([a.key for a in args], text, [a.written for a in args])
            if noble is not None and noble != named:
                raise InvalidMoveError.of("notation.two_nobles", first=noble, second=named).about(
                    text
                )
            noble = named
        elif concept == "pay":
            if action != "buy":
                raise InvalidMoveError.of("notation.pay_with_buy", action=action).about(text)
            if pay is not None:
                raise InvalidMoveError.of("notation.pay_once").about(text)
            pay = _token_list(args, head, text, allow_nothing=True)
    request = MoveRequest(action, gems, card, deck, pay, returned, noble, text)
    return replace(request, **description) if description else request


def tokens_said(args: list[_Word], head: str, text: str) -> Tokens:
    """The tokens that the words after ``head`` count (a payment said on its own: "paying 2
    white and 1 blue"); InvalidMoveError when they are not tokens."""
    return _token_list(args, head, text, allow_nothing=True)


def described(args: list[_Word]) -> dict[str, Any] | None:
    """The card that the words of a sentence name by its bonus colour ("the black card"), or
    as the one the writer reserved ("the card I reserved"), and by what more they say of it
    (its level, points and cost: "the white two-pointer on level 2 that costs 5 red"): the
    fields of a :class:`MoveRequest` that say so; None when the card is not named so."""
    found = description_of(args)
    return found if found is not None and ("bonus" in found or "held" in found) else None


def description_of(args: list[_Word]) -> dict[str, Any] | None:
    """What the words that describe a card (each read as one of :data:`_DESCRIBING`) say of
    it, as the fields of a :class:`MoveRequest`; None when any word says something else."""
    senses = [a.sense for a in args]
    if not args or any(s is None or s.group not in _DESCRIBING for s in senses):
        return None
    found: dict[str, Any] = {}
    for sense in senses:
        assert sense is not None
        if sense.group == "held":
            found["held"] = True
        elif sense.group == "cost":
            colour, _, count = str(sense.value).partition(":")
            found["cost"] = (*found.get("cost", ()), (int(colour), int(count)))
        else:
            found[sense.group] = int(sense.value)
    return found


#: The groups of the words that describe a card (read in sentences only)
_DESCRIBING = ("bonus", "held", "level", "points", "cost")


def _clauses(words: list[_Word], text: str) -> Iterator[tuple[str, str, list[_Word]]]:
    """Split the words into clauses, each led by a keyword (take, return, noble, pay, …):
    the keyword's move word, the keyword as written, and the words after it."""
    head: tuple[str, str] | None = None
    args: list[_Word] = []
    for word in words:
        concept = word.head
        if concept is not None:
            if head is not None:
                yield head[0], head[1], args
            head, args = (concept, word.written), []
        elif word.group == "filler":
            continue
        elif head is None:
            raise InvalidMoveError.of("notation.not_an_action", word=word.written).about(text)
        else:
            args.append(word)
    if head is not None:
        yield head[0], head[1], args


def _token_list(args: list[_Word], head: str, text: str, allow_nothing: bool = False) -> Tokens:
    """``2 red white``, ``red red``, ``r g u``, ``rgu``, ``2 ruby 1 gold`` -> token counts."""
    if allow_nothing and len(args) == 1 and _nothing(args[0]):
        return NO_TOKENS
    counts = [0] * 6
    pending: int | None = None
    for word in args:
        number = number_of(word)
        if number is not None:
            if pending is not None:
                raise InvalidMoveError.of(
                    "notation.two_numbers", head=head, word=word.written
                ).about(text)
            pending = number
            continue
        kinds = _colours(word)
        if kinds is None:
            raise _colour_hint(word, head).about(text)
        if pending is not None and len(kinds) != 1:
            raise InvalidMoveError.of(
                "notation.count_before_colour", count=pending, word=word.written
            ).about(text)
        for kind in kinds:
            counts[kind] += 1 if pending is None else pending
        pending = None
    if pending is not None:
        raise InvalidMoveError.of("notation.count_without_colour", count=pending).about(text)
    if not any(counts):
        if head == "take":
            raise InvalidMoveError.of("notation.take_needs_colours").about(text)
        if head == "return":
            raise InvalidMoveError.of("notation.return_needs_colours").about(text)
        if head == "pay":
            raise InvalidMoveError.of("notation.pay_needs_colours").about(text)
        raise InvalidMoveError.of("notation.needs_colours", head=head).about(text)
    w, u, g, r, k, o = counts
    return (w, u, g, r, k, o)


def _nothing(word: _Word) -> bool:
    """Whether a word says no tokens: ``nothing``, ``none``, ``0`` (and other languages')."""
    return word.sense == _NOTHING_SENSE or (word.sense is None and word.key == "0")


def number_of(word: _Word) -> int | None:
    """The count a word says: a number word, or digits of one or two figures."""
    if word.sense is not None:
        return int(word.sense.value) if word.sense.group == "number" else None
    if word.key.isdecimal() and len(word.key) <= 2:
        return int(word.key)
    return None


def _colours(word: _Word) -> list[int] | None:
    """The token kinds a word names: one colour word, or a run of colour letters (``rgu``)."""
    if word.sense is not None:
        return [int(word.sense.value)] if word.sense.group == "colour" else None
    if word.key and all(ch in COLOUR_LETTERS for ch in word.key):
        return [COLOUR_LETTERS[ch] for ch in word.key]
    return None


def _colour_hint(word: _Word, head: str) -> InvalidMoveError:
    """The error for ``word``, in a list of colours after ``head``, that is not a colour."""
    if word.key == "b":
        return InvalidMoveError.of("notation.b_is_ambiguous")
    if _CARD_ID.fullmatch(word.key):
        return InvalidMoveError.of("notation.card_not_colour", head=head, word=word.written)
    return InvalidMoveError.of("notation.not_a_colour", word=word.written, head=head)


def _card_id(word: str, text: str | None, written: str | None = None) -> str:
    """The card ``word`` (folded) names; ``written`` is how a refusal quotes it."""
    m = _CARD_ID.fullmatch(word)
    if not m:
        raise InvalidMoveError.of("notation.not_a_card", word=written or word).about(text)
    card = f"{m.group(1)}-{int(m.group(2)):02d}"
    if card not in CARDS:
        level = m.group(1)
        last = max(c for c in CARDS if c.startswith(level + "-"))
        raise InvalidMoveError.of(
            "notation.no_such_card", card=card, level=int(level), last=last
        ).about(text)
    return card


def _single_card(args: list[_Word], head: str, text: str) -> str:
    if len(args) != 1:
        if not args:
            raise InvalidMoveError.of("notation.card_missing", action=head).about(text)
        found = " ".join(a.written for a in args)
        raise InvalidMoveError.of("notation.not_one_card", action=head, found=found).about(text)
    return _card_id(args[0].key, text, args[0].written)


def _reserve_args(args: list[_Word], head: str, text: str) -> tuple[str | None, int | None]:
    """What a reserve names: a card, or a deck by its level (``deck 3``, ``top of deck 3``)."""
    if args and args[0].sense == _DECK_SENSE:
        rest = [a for a in args[1:] if a.sense != _DECK_SENSE]
        if len(rest) == 1 and rest[0].sense is None and rest[0].key in ("1", "2", "3"):
            return None, int(rest[0].key)
        raise InvalidMoveError.of("notation.deck_level").about(text)
    if len(args) == 1 and args[0].sense is None and args[0].key in ("1", "2", "3"):
        raise InvalidMoveError.of("notation.reserve_which", level=int(args[0].key)).about(text)
    return _single_card(args, head, text), None


def _noble_id(args: Sequence[str], text: str | None, written: Sequence[str] = ()) -> str:
    """The noble ``args`` (folded) name; ``written``, when given, is how a refusal quotes
    them."""
    m = _NOBLE_ID.fullmatch(args[0]) if len(args) == 1 else None
    noble = f"N{int(m.group(1))}" if m else None
    if noble is None or noble not in NOBLES:
        found = " ".join(written or args)
        if not found:
            raise InvalidMoveError.of("notation.noble_missing").about(text)
        raise InvalidMoveError.of("notation.not_a_noble", found=found).about(text)
    return noble


def _add(a: Tokens, b: Tokens) -> Tokens:
    w, u, g, r, k, o = (x + y for x, y in zip(a, b, strict=True))
    return (w, u, g, r, k, o)


# ---------------------------------------------------------------------------------------------
# JSON -> request


def _request_from_json_text(text: str) -> MoveRequest:
    try:
        obj = json.loads(text)
    except ValueError as err:
        raise InvalidMoveError.of("json_move.not_json", problem=str(err)).about(text) from None
    return request_from_json(obj, text)


def request_from_json(obj: Any, text: str | None = None) -> MoveRequest:
    """A JSON move object (docs/interface.md) as a request; ``return``, ``noble`` and ``pay``
    optional."""
    if not isinstance(obj, Mapping):
        raise InvalidMoveError.of("json_move.not_an_object").about(text)
    known = {"type", "gems", "card", "deck", "pay", "return", "noble"}
    extra = sorted(set(obj) - known)
    if extra:
        raise InvalidMoveError.of("json_move.unknown_keys", keys=str(extra)).about(text)
    action = obj.get("type")
    if action not in ("take", "reserve", "buy", "pass", "resign"):
        raise InvalidMoveError.of("json_move.bad_type", value=repr(action)).about(text)
    request = MoveRequest(action=action, text=text)
    if action == "resign":
        said = sorted(k for k in set(obj) - {"type"} if obj[k] not in (None, {}))
        if said:
            raise InvalidMoveError.of("json_move.resign_alone", keys=str(said)).about(text)
        return request
    if action == "take":
        request = replace(request, gems=_json_tokens(obj.get("gems"), "gems", text))
    elif action == "reserve":
        card, deck = obj.get("card"), obj.get("deck")
        if (card is None) == (deck is None):
            raise InvalidMoveError.of("json_move.card_or_deck").about(text)
        if card is not None:
            request = replace(request, card=_card_id(str(card).casefold(), text))
        elif deck in (1, 2, 3) and not isinstance(deck, bool):
            request = replace(request, deck=deck)
        else:
            raise InvalidMoveError.of("json_move.bad_deck", value=repr(deck)).about(text)
    elif action == "buy":
        if not isinstance(obj.get("card"), str):
            raise InvalidMoveError.of("json_move.buy_card").about(text)
        request = replace(request, card=_card_id(obj["card"].casefold(), text))
        if obj.get("pay") is not None:
            request = replace(request, pay=_json_tokens(obj["pay"], "pay", text, empty_ok=True))
    if obj.get("return") is not None:
        returned = _json_tokens(obj["return"], "return", text, empty_ok=True)
        request = replace(request, returned=returned)
    noble = obj.get("noble")
    if noble is not None:
        if not isinstance(noble, str):
            raise InvalidMoveError.of("json_move.bad_noble", value=repr(noble)).about(text)
        request = replace(request, noble=_noble_id([noble.casefold()], text))
    return request


def _json_tokens(value: Any, key: str, text: str | None, empty_ok: bool = False) -> Tokens:
    if not isinstance(value, Mapping) or (not value and not empty_ok):
        raise InvalidMoveError.of("json_move.not_counts", key=key).about(text)
    counts = [0] * 6
    for colour, n in value.items():
        if colour not in TOKEN_COLOURS:
            raise InvalidMoveError.of("json_move.not_a_colour", key=key, colour=repr(colour)).about(
                text
            )
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 99:
            raise InvalidMoveError.of(
                "json_move.not_a_count", key=key, colour=colour, value=repr(n)
            ).about(text)
        counts[TOKEN_COLOURS.index(colour)] = n
    w, u, g, r, k, o = counts
    return (w, u, g, r, k, o)


# ---------------------------------------------------------------------------------------------
# Request -> move (against a position)


def parse(state: GameState, text: str, player: str | None = None) -> Move:
    """The legal move ``text`` means in ``state`` (for ``player``, when named; else for the
    player to move)."""
    return resolve(state, parse_request(text), player)


def resolve(state: GameState, request: MoveRequest, player: str | None = None) -> Move:
    """The one legal move that fits ``request``; else IllegalMoveError or AmbiguousMoveError.

    A resignation is ``player``'s (the player to move's when None), whoever is to move.

    When the text has several readings (:attr:`MoveRequest.others`: its words mean other
    things in other languages), the legal moves that fit any reading are the candidates:
    one, and that is the move; several, and the text is ambiguous; none, and the text is
    refused as its first reading is."""
    if not request.others:
        return _resolved(state, request, player)
    whole = [r for r in request.readings if not r.mixed]
    if 0 < len(whole) < len(request.readings):  # a reading in one language is preferred
        legal = [m for r in whole for m in _fitting_or_none(state, r, player)]
        if len(set(legal)) == 1:
            return legal[0]
    fits: list[Move] = []
    fitting: list[MoveRequest] = []
    for reading in request.readings:
        try:
            found = _fitting(state, reading, player)
        except MoveError:
            continue
        if found:
            fitting.append(reading)
        for move in found:
            if move not in fits:
                fits.append(move)
    if len(fits) == 1:
        return fits[0]
    if not fits:
        return _resolved(state, request, player)  # refused as the first reading is
    if len(fitting) == 1:
        raise _ambiguous(state, fitting[0], fits)
    raise _ambiguous(state, request, fits, across_readings=True)


def _fitting_or_none(state: GameState, request: MoveRequest, player: str | None) -> list[Move]:
    try:
        return _fitting(state, request, player)
    except MoveError:
        return []


def _resolved(state: GameState, request: MoveRequest, player: str | None) -> Move:
    """The one legal move that fits one reading; else IllegalMoveError or
    AmbiguousMoveError."""
    fits = _fitting(state, request, player)
    if len(fits) == 1:
        return fits[0]
    if not fits:
        raise _illegal(state, request)
    raise _ambiguous(state, request, fits)


def _fitting(state: GameState, request: MoveRequest, player: str | None) -> list[Move]:
    """The legal moves that fit one reading (for a buy that names no payment, the one that
    pays the usual way); IllegalMoveError when the writer may not move now."""
    text = request.text
    seat = state.to_move
    if player is not None:
        seat = _seat_of(state, player, text)
    if request.action == "resign":
        resign = Resign(seat)
        try:
            apply(state, resign)
        except IllegalMoveError as err:
            raise err.about(text) from None
        return [resign]
    if state.status == "finished":
        raise IllegalMoveError.of("notation.game_over").about(text)
    if seat in state.resigned:
        raise IllegalMoveError.of("notation.resigned", name=state.players[seat].name).about(text)
    if seat != state.to_move:
        raise IllegalMoveError.of(
            "notation.not_your_turn", to_move=state.player.name, name=state.players[seat].name
        ).about(text)
    fits = [m for m in legal_moves(state) if _fits(request, m)]
    if request.held:
        hand = {r.card for r in state.player.reserved}
        fits = [m for m in fits if isinstance(m, Buy | Reserve) and m.card in hand]
    if request.action == "buy" and request.pay is None and len(fits) > 1:
        buys = [m for m in fits if isinstance(m, Buy)]
        fits = [m for m in _paid_as_said(buys, request.gold_paying, state.player)]
    if request.cost and len(fits) > 1:  # ("the white one that costs 5 red": 2-03, not 3-01)
        whole = [m for m in fits if _costs_just(m, request.cost)]
        fits = whole or fits
    return fits


def _paid_as_said(buys: list[Buy], said: Tokens | None, mover: Player) -> list[Buy]:
    """Of the buys that fit, those paid as the writer said: the usual way; with tokens with
    gold said of the payment, the payment that is those tokens, or else the one that spends
    the least gold, at least as much as said, and fewer of the colours said than the usual
    way does ("gold covers the red": not the red)."""

    def usual(buy: Buy) -> Tokens:
        return default_payment(need(CARDS[buy.card], mover.bonuses), mover.tokens)

    if said is None:
        return [m for m in buys if m.pay == usual(m)]
    exact = [m for m in buys if m.pay == said]
    if exact:
        return exact
    spent = [m for m in buys if m.pay[_GOLD] >= said[_GOLD]]
    instead = [m for m in spent if all(m.pay[k] < usual(m)[k] for k in range(5) if said[k])]
    chosen = instead or spent
    least = min((m.pay[_GOLD] for m in chosen), default=0)
    return [m for m in chosen if m.pay[_GOLD] == least]


def _costs_just(move: Move, cost: tuple[tuple[int, int], ...]) -> bool:
    """Whether the card a move names costs what is said and nothing more."""
    card = CARDS.get(move.card or "") if isinstance(move, Buy | Reserve) else None
    return card is not None and {k: n for k, n in enumerate(card.cost) if n} == dict(cost)


def _fits(request: MoveRequest, move: Move) -> bool:
    if request.returned is not None and move.returned != request.returned:
        return False
    if request.noble is not None and move.noble != request.noble:
        return False
    match move:
        case Take(gems=gems):
            return request.action == "take" and gems == request.gems
        case Reserve(card=card, deck=deck):
            if request.card is None and request.deck is None:
                return request.action == "reserve" and _described_card(card, request)
            return request.action == "reserve" and card == request.card and deck == request.deck
        case Buy(card=card, pay=pay):
            return (
                request.action == "buy"
                and (card == request.card or _described_card(card, request))
                and (request.pay is None or pay == request.pay)
            )
        case Pass():
            return request.action == "pass"
    return False


def _described_card(card: str | None, request: MoveRequest) -> bool:
    """Whether ``card`` is one that ``request`` names by its bonus colour or as held, and by
    what more it says of it (which cards are held, :func:`_fitting` sees)."""
    if card is None or request.card is not None or not (request.held or request.bonus is not None):
        return False
    return card_fits(card, request.bonus, request.level, request.points, request.cost)


def card_fits(
    card: str,
    bonus: int | None = None,
    level: int | None = None,
    points: int | None = None,
    cost: tuple[tuple[int, int], ...] = (),
) -> bool:
    """Whether ``card`` is as a sentence describes it: its bonus colour, its level, its
    points, and (colour, count) pairs of its cost (None and () say nothing)."""
    found = CARDS[card]
    return (
        bonus in (None, found.bonus)
        and level in (None, found.level)
        and points in (None, found.points)
        and all(colour < len(found.cost) and found.cost[colour] == n for colour, n in cost)
    )


def as_move(state: GameState, request: MoveRequest, player: str | None = None) -> Move:
    """The request made whole with the plain defaults (no return, no noble, the usual pay),
    without asking whether it is legal: :func:`~referee.engine.apply` judges that. A
    resignation is ``player``'s (the player to move's when None); IllegalMoveError when
    ``player`` is not in the game."""
    if request.action == "resign":
        if player is None:
            return Resign(state.to_move)
        return Resign(_seat_of(state, player, request.text))
    if request.action in ("buy", "reserve") and request.card is None and request.deck is None:
        raise _no_card_described(request)
    returned = request.returned or NO_TOKENS
    if request.action == "take":
        assert request.gems is not None
        return Take(request.gems, returned, request.noble)
    if request.action == "reserve":
        return Reserve(request.card, request.deck, returned, request.noble)
    if request.action == "buy":
        assert request.card is not None
        pay = request.pay
        if pay is None:
            mover = state.player
            pay = default_payment(need(CARDS[request.card], mover.bonuses), mover.tokens)
        return Buy(request.card, pay, returned, request.noble)
    return Pass(returned, request.noble)


def _seat_of(state: GameState, player: str, text: str | None) -> int:
    """The seat of ``player``; IllegalMoveError naming the players when none is called so."""
    try:
        return state.seat_of(player)
    except KeyError:
        names = [p.name for p in state.players]
        raise IllegalMoveError.of("player.unknown", name=player, players=names).about(
            text
        ) from None


def _no_card_described(request: MoveRequest) -> IllegalMoveError:
    """The refusal of a card named by its bonus colour, or as held, when no card the move may
    have is so named."""
    if request.bonus is None:
        return IllegalMoveError.of("notation.no_card_in_hand").about(request.text)
    colour = TOKEN_COLOURS[request.bonus]
    if request.held:
        return IllegalMoveError.of("notation.no_card_in_hand_with_bonus", colour=colour).about(
            request.text
        )
    return IllegalMoveError.of("notation.no_card_with_bonus", colour=colour).about(request.text)


def _illegal(state: GameState, request: MoveRequest) -> MoveError:
    if request.action in ("buy", "reserve") and request.card is None and request.deck is None:
        return _no_card_described(request)
    move = as_move(state, request)
    try:
        apply(state, move)
    except IllegalMoveError as err:
        return err.about(request.text)
    # The engine accepts the filled-in move although no legal move fits the request: only a
    # buy's default payment can differ from what was asked, so say what would work.
    return IllegalMoveError.of("notation.default_would_be_legal", move=move_json(move)).about(
        request.text
    )


def _ambiguous(
    state: GameState, request: MoveRequest, fits: list[Move], across_readings: bool = False
) -> AmbiguousMoveError:
    """The refusal of a move that fits several legal moves: why (a return or a noble left
    unsaid; else, or when the moves come from different readings of the words, that several
    fit), and the candidates."""
    shown = [move_json(m) for m in fits[:SHOWN_CANDIDATES]]
    candidates: dict[str, object] = {"code": "notation.candidates", "params": {"moves": shown}}
    if len(fits) > SHOWN_CANDIDATES:
        candidates = {
            "code": "notation.candidates_more",
            "params": {"moves": shown, "count": len(fits)},
        }
    params: dict[str, object] = {"candidates": candidates}
    if across_readings:
        code = "notation.ambiguous"
    elif len({m.returned for m in fits}) > 1:
        after = sum(state.player.tokens) + _gain(request)
        code = "notation.ambiguous_return"
        params.update(after=after, excess=after - 10, example=move_json(fits[0]))
    elif len({m.noble for m in fits}) > 1:
        code = "notation.ambiguous_noble"
        params.update(choices=noble_choices([str(m.noble) for m in fits]))
    else:
        code = "notation.ambiguous"
    found = AmbiguousMoveError(
        code=code,
        params=params,
        candidates=[format_move(m) for m in fits],
        text=request.text,
    )
    found.moves = [move_json(m) for m in fits]
    return found


def _gain(request: MoveRequest) -> int:
    if request.action == "take" and request.gems is not None:
        return sum(request.gems)
    return 1 if request.action == "reserve" else 0


__all__ = [
    "MoveRequest",
    "as_move",
    "format_move",
    "parse",
    "parse_request",
    "request_from_json",
    "resolve",
]
