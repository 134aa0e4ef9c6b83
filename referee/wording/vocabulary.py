"""The words players write, in each language: moves, colours, numbers, commands and the words
of their options, read from ``referee/locale/<language>/words.toml``.

A :class:`Vocabulary` is one language's words with English's beside them (English is read
in every language). Words are matched folded: without case, Latin letters without accents
(``ruður`` and ``rudur``, ``ĝi`` and ``gi``), Esperanto's x-system read as its letters
(``gxi`` is ``ĝi``), and Bengali digits read as digits (``২`` is ``2``). The first word of
each list in a language's file is the one the referee writes: the canonical text of a move
in that language (:meth:`Vocabulary.word`).

What a player writes is read with the words of every language at once (a
:class:`ReadingVocabulary`, :func:`reading_vocabulary`): reading needs no knowledge of the
writer's language, and a player may mix their language's words with English's. A word that
means one thing in one language and another thing in another has every one of its meanings
(each a :class:`Sense`, English's first, then the languages' in the order of
:func:`languages`); the notation tries each reading (:mod:`referee.notation`).

Adding a language is adding its folder: no Python changes (docs/translating.md). The
languages are those of ``referee/locale``, or of the folder the environment variable
``REFEREE_LOCALE_DIR`` names (a game master's own languages), or, in a test, those of
the folder :func:`languages_in` gives.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import tomllib
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from babel import Locale, UnknownLocaleError

from referee.engine.cards import TOKEN_COLOURS

#: The concepts of a move, in the order a words file lists them.
MOVE_WORDS = (
    "take", "reserve", "buy", "pass", "resign", "return", "noble", "pay", "deck", "nothing",
)  # fmt: skip
#: Letters of the Latin alphabet that carry no accent to strip but are written otherwise.
_LATIN = str.maketrans({"ð": "d", "þ": "th", "æ": "ae", "ø": "o", "œ": "oe", "ß": "ss"})
#: Esperanto's x-system: cx is ĉ, and so on.
_X_SYSTEM = (("cx", "c"), ("gx", "g"), ("hx", "h"), ("jx", "j"), ("sx", "s"), ("ux", "u"))
#: The languages whose words are also matched as written in their x-system.
_X_LANGUAGES = frozenset({"eo"})
#: Bengali digits, read as the digits they are.
_DIGITS = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")
#: Joiners that shape how a script is drawn (Bengali conjuncts) but do not make another word.
_JOINERS = str.maketrans(dict.fromkeys(map(ord, "\u200c\u200d"), None))
#: A word of what players write: what lies between spaces and punctuation (a Bengali danda
#: ends a sentence as a full stop does). ``*`` (gold) and ``-`` (in card ids) are in words.
WORD = re.compile(r"[^\s,;:.!?()\[\]{}\"'`\u0964\u0965]+")
#: The environment variable naming another folder of languages than ``referee/locale``.
LOCALE_DIR = "REFEREE_LOCALE_DIR"


def fold(word: str, language: str = "en") -> str:
    """``word`` as words are matched: lower case; Latin letters without accents; in
    Esperanto, the x-system read as the letters it stands for; Bengali digits as digits;
    another script's text in one normal form (NFC), without the joiners that only shape it."""
    if word.isascii():  # most words: the same rules, at C speed
        word = word.lower()
        if language in _X_LANGUAGES and "x" in word:
            for written, letter in _X_SYSTEM:
                word = word.replace(written, letter)
        return word
    word = word.casefold().translate(_DIGITS)
    if language in _X_LANGUAGES:
        for written, letter in _X_SYSTEM:
            word = word.replace(written, letter)
    if not all(ch.isascii() or "LATIN" in unicodedata.name(ch, "") for ch in word):
        # another script: its marks are letters, not accents
        return unicodedata.normalize("NFC", word.translate(_JOINERS))
    word = word.translate(_LATIN)
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))


def digits(text: str) -> str:
    """``text`` with its Bengali digits as the digits they are (``৩d`` is ``3d``), and
    nothing else changed: a value read as written."""
    return text.translate(_DIGITS)


def locale_folder() -> Path:
    """Where the languages live: ``referee/locale`` (in a wheel, as package data); the
    folder the environment variable ``REFEREE_LOCALE_DIR`` names, when it is set as the
    referee starts; for a while, the folder :func:`languages_in` gives (tests)."""
    return _CHOSEN[-1] if _CHOSEN else _default_folder()


#: The folders :func:`languages_in` chose, the last one in use.
_CHOSEN: list[Path] = []


@functools.cache
def _default_folder() -> Path:
    chosen = os.environ.get(LOCALE_DIR)
    return Path(chosen) if chosen else Path(str(resources.files("referee") / "locale"))


@contextlib.contextmanager
def languages_in(folder: Path) -> Iterator[Path]:
    """The languages are those of ``folder`` while the block runs (a test's own words)."""
    _CHOSEN.append(folder)
    try:
        yield folder
    finally:
        _CHOSEN.pop()


def languages(folder: Path | None = None) -> tuple[str, ...]:
    """The languages there are (those with a ``words.toml``), English first."""
    return _languages_of(folder or locale_folder())


@functools.cache
def _languages_of(folder: Path) -> tuple[str, ...]:
    """The languages of ``folder``, looked for once (a language is added with a release)."""
    found = sorted(p.name for p in folder.iterdir() if (p / "words.toml").is_file())
    return tuple(["en", *(code for code in found if code != "en")])


#: The digits of the records, and of every language that names none of its own.
LATIN_DIGITS = "0123456789"
#: CLDR's plural categories: the keys a ``[counted]`` form is given under.
PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})
#: The case a count is written in when a message names none (``[counted]`` of words.toml).
NOMINATIVE = "nominative"


#: The cases a counted field's spec may name (``{paid:accusative}``): a language gives
#: forms for those it tells apart in its words.toml ``[counted]``; the others are its
#: nominative.
#: How a time is written where a language's words name no pattern (``[dates]``).
DATE_PATTERN = "EEE d MMMM y, HH:mm z"
#: The form a date is written in where a message names none (``[dates.forms]``).
PLAIN_DATE = "plain"
CASES = frozenset({"nominative", "accusative", "dative", "genitive"})


def counted_spec(spec: str) -> tuple[str, list[str]]:
    """A counted field's spec (tokens, a take, a number with a colour) read: the case it
    names (:data:`CASES`; default nominative) and its other parts, as written
    (``none of those,accusative`` -> accusative, ``["none of those"]``)."""
    parts = [part.strip() for part in spec.split(",")] if spec else []
    cases = [part for part in parts if part in CASES]
    return (cases[-1] if cases else NOMINATIVE), [p for p in parts if p and p not in CASES]


@functools.cache
def _plural_category(language: str, number: int) -> str:
    """CLDR's plural category of ``number`` in ``language``: one, two, few, many or other."""
    try:
        return str(Locale.parse(language).plural_form(number))
    except (ValueError, UnknownLocaleError):  # a game master's language CLDR has not
        return "one" if number == 1 else "other"


@dataclass(frozen=True)
class Vocabulary:
    """One language's words with English's: folded word -> what it means, per group; and
    the words the referee writes in that language."""

    language: str
    moves: Mapping[str, str] = field(default_factory=dict)  # folded word -> concept
    colours: Mapping[str, int] = field(default_factory=dict)  # folded word -> token kind
    numbers: Mapping[str, int] = field(default_factory=dict)
    commands: Mapping[str, str] = field(default_factory=dict)  # folded word -> command
    options: Mapping[str, str] = field(default_factory=dict)  # folded word -> option
    fillers: frozenset[str] = frozenset()
    before_resign: frozenset[str] = frozenset()
    written: Mapping[str, str] = field(default_factory=dict)  # concept -> the word written
    #: what no tokens at all read as, by the name a field's spec gives (none, nothing...)
    zero: Mapping[str, str] = field(default_factory=dict)
    #: the quotation marks, opening and closing
    quote: tuple[str, str] = ("'", "'")
    #: the digits numbers are written with, 0 to 9 (``[marks] digits``: Bengali's own)
    digits: str = LATIN_DIGITS
    #: the mark that ends a sentence (``[marks] full_stop``: Bengali's দাঁড়ি ``।``)
    full_stop: str = "."
    #: how a colour is written after a number (``[counted]``): case -> colour -> CLDR plural
    #: category -> the word; a case not given is the nominative; a colour or category not
    #: given, the category ``other``, else the colour as ``written``
    counted_forms: Mapping[str, Mapping[str, Mapping[str, str]]] = field(default_factory=dict)
    #: the case the colours of a move (and the deck a reserve names) are written in, in the
    #: notation, per move word (``[counted] notation``: one case, or a table: Icelandic
    #: "taka" takes the accusative, "skila" the dative); a move word not given: the
    #: nominative
    notation_cases: Mapping[str, str] = field(default_factory=dict)
    #: a word joined to a number that counts a colour, in prose but not in the notation
    #: (``[counted] classifier``: Bengali ``২টি লাল``, where a move is written ``২ লাল``)
    classifier: str = ""
    #: the endings a name takes (``[names]``): case -> (the letters a name ends in, its
    #: ending) in order, and the ending of a name none of them ends (another script's)
    name_endings: Mapping[str, tuple[tuple[tuple[str, str], ...], str]] = field(
        default_factory=dict
    )
    #: how a time is written (``[dates] pattern``, a CLDR date pattern)
    date_pattern: str = DATE_PATTERN
    #: whether the names of months are written in small letters (``[dates] small_months``),
    #: where CLDR gives capitals (Esperanto "januaro")
    small_months: bool = False
    #: how a written date begins, by form (``[dates.forms]``): ``plain``, else the form a
    #: field names (``{until:soft}``), each a table of beginnings CLDR writes -> the
    #: language's (Welsh "Dydd Llun" -> "dydd Llun"; after "tan", "ddydd Llun")
    date_forms: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def fold(self, word: str) -> str:
        return fold(word, self.language)

    def count(self, text: object) -> str:
        """``text`` (a number, or words with numbers in them: "7 দিন", a date) with its
        digits the language's own."""
        said = str(text)
        if self.digits == LATIN_DIGITS:
            return said
        return said.translate(str.maketrans(LATIN_DIGITS, self.digits))

    def counted(
        self, number: int, colour: str, case: str = NOMINATIVE, notation: bool = False
    ) -> str:
        """``number`` of ``colour`` as this language writes it: ``2 red``; in Welsh ``2 goch``,
        ``3 choch``; in Esperanto, accusative, ``1 ruĝan``, ``2 ruĝajn``; in Icelandic ``1
        rautt``, ``21 rautt``, ``2 rauð``; in Bengali ``২টি লাল`` (``২ লাল`` in a move's
        ``notation``). The form is the language's data (``[counted]`` of its words.toml),
        chosen by the CLDR plural category of ``number`` and by ``case``."""
        joined = "" if notation else self.classifier
        return f"{self.count(number)}{joined} {self.counted_word(number, colour, case)}"

    def counted_word(self, number: int, colour: str, case: str = NOMINATIVE) -> str:
        """The word for ``colour`` after ``number`` (:meth:`counted` without the number: a
        take of one token of a colour is told by this word alone)."""
        return self.form(colour, _plural_category(self.language, number), case)

    def each_counted(
        self, counts: Sequence[int], case: str = NOMINATIVE, notation: bool = False
    ) -> list[str]:
        """Each colour of ``counts`` (one per token colour) as a take or a move says it: one
        token of a colour by its word alone, more with their number (Esperanto ``bluan``,
        ``2 ruĝajn``; Icelandic ``hvítt``, ``2 hvít``)."""
        return [
            self.counted_word(1, TOKEN_COLOURS[k], case)
            if n == 1
            else self.counted(n, TOKEN_COLOURS[k], case, notation)
            for k, n in enumerate(counts)
            if n
        ]

    def notation_case(self, concept: str) -> str:
        """The case the colours after the move word ``concept`` (take, return, pay) are
        written in, in the notation."""
        return self.notation_cases.get(concept, NOMINATIVE)

    def form(self, colour: str, category: str = "one", case: str = NOMINATIVE) -> str:
        """``colour`` in the form a number of CLDR plural ``category`` and ``case`` want
        (``[counted]``; a case not given is the nominative, a category not given
        ``other``, a colour not given the word as written)."""
        forms = self.counted_forms.get(case, {}).get(colour)
        if forms is None:  # a case the language does not tell apart is its nominative
            forms = self.counted_forms.get(NOMINATIVE, {}).get(colour)
        if not forms:
            return self.written[colour]
        return forms.get(category) or forms.get("other") or self.written[colour]

    def dated(self, written: str, form: str = PLAIN_DATE) -> str:
        """A date CLDR has ``written`` as this language writes it in ``form``
        (``[dates.forms]``): its beginning as the form gives it (a form not given is
        ``plain``)."""
        forms = self.date_forms.get(form) or self.date_forms.get(PLAIN_DATE, {})
        for cldr, own in forms.items():
            if written.startswith(cldr):
                return own + written[len(cldr) :]
        return written

    def name_in(self, name: str, case: str) -> str:
        """``name`` with the ending ``case`` gives it in this language (``[names]``):
        Bengali genitive ``রহিমের``, ``সীমার``, ``alice-এর``; as it is in a language (or a
        case) that gives none."""
        if case not in self.name_endings or not name:
            return name
        rules, otherwise = self.name_endings[case]
        ending = next((ending for letters, ending in rules if name[-1] in letters), otherwise)
        return name + ending

    def word(self, concept: str) -> str:
        """How the referee writes ``concept`` (a move word, a colour, a command, an option)
        in this language."""
        return self.written[concept]

    def colour(self, kind: int) -> str:
        return self.written[TOKEN_COLOURS[kind]]


def _table(language: str, folder: Path | None = None) -> dict[str, Any]:
    path = (folder or locale_folder()) / language / "words.toml"
    with path.open("rb") as file:
        return tomllib.load(file)


def vocabulary(language: str = "en") -> Vocabulary:
    """The words of ``language`` with English's (English alone for ``en``). KeyError for a
    language there is none of."""
    return _vocabulary(language, locale_folder())


@functools.cache
def _vocabulary(language: str, folder: Path) -> Vocabulary:
    if language not in languages(folder):
        there = ", ".join(languages(folder))
        raise KeyError(f"no language {language!r}: the languages are {there}")
    tables = [_table("en", folder)]
    if language != "en":
        tables.append(_table(language, folder))
    groups: dict[str, dict[str, Any]] = {g: {} for g in ("moves", "colours", "numbers",
                                                          "commands", "options")}  # fmt: skip
    fillers: set[str] = set()
    before: set[str] = set()
    written: dict[str, str] = {}
    zero: dict[str, str] = {}
    quote = ("'", "'")
    digits = LATIN_DIGITS
    full_stop = "."
    counted: dict[str, dict[str, dict[str, str]]] = {}
    notation_cases: dict[str, str] = {}
    classifier = ""
    name_endings: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {}
    dates: dict[str, Any] = {}
    for table in tables:  # the language's own words last: they win a clash, and are written
        for concept, words in table.get("moves", {}).items():
            if concept == "fillers":
                fillers.update(fold(w, language) for w in words)
            elif concept == "before_resign":
                before.update(fold(w, language) for w in words)
            else:
                groups["moves"].update((fold(w, language), concept) for w in words)
                written[concept] = words[0]
        for colour, words in table.get("colours", {}).items():
            kind = TOKEN_COLOURS.index(colour)
            groups["colours"].update((fold(w, language), kind) for w in words)
            written[colour] = words[0]
        for number, words in table.get("numbers", {}).items():
            groups["numbers"].update((fold(w, language), int(number)) for w in words)
        for group in ("commands", "options"):
            for concept, words in table.get(group, {}).items():
                groups[group].update((fold(w, language), concept) for w in words)
                written[f"{group}.{concept}"] = words[0]
        zero.update(table.get("zero", {}))
        opening, closing = table.get("marks", {}).get("quote", quote)
        quote = (opening, closing)
        digits = str(table.get("marks", {}).get("digits", digits))
        full_stop = str(table.get("marks", {}).get("full_stop", full_stop))
        if len(digits) != 10:
            raise ValueError(f"{language}: [marks] digits are the ten digits 0 to 9 in order")
        if "counted" in table:
            counted, notation_cases = _counted(language, table["counted"])
            classifier = str(table["counted"].get("classifier", ""))
        if "names" in table:
            name_endings = _name_endings(language, table["names"])
        if "dates" in table:
            dates = table["dates"]
    return Vocabulary(
        language=language,
        moves=groups["moves"],
        colours=groups["colours"],
        numbers=groups["numbers"],
        commands=groups["commands"],
        options=groups["options"],
        fillers=frozenset(fillers),
        before_resign=frozenset(before),
        written=written,
        zero=zero,
        quote=quote,
        digits=digits,
        full_stop=full_stop,
        counted_forms=counted,
        notation_cases=notation_cases,
        classifier=classifier,
        name_endings=name_endings,
        date_pattern=str(dates.get("pattern", DATE_PATTERN)),
        small_months=bool(dates.get("small_months", False)),
        date_forms=_date_forms(language, dates.get("forms", {})),
    )


def _date_forms(language: str, table: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """A words file's ``[dates.forms]``: per form, CLDR's beginning -> the language's; a
    ValueError naming what is wrong in it."""
    try:
        return {
            str(form): {str(cldr): str(own) for cldr, own in given.items()}
            for form, given in table.items()
        }
    except AttributeError:
        raise ValueError(
            f'{language}: [dates.forms] gives per form {{ "CLDR\'s beginning" = "yours" }}'
        ) from None


def _name_endings(
    language: str, table: Mapping[str, Any]
) -> dict[str, tuple[tuple[tuple[str, str], ...], str]]:
    """A words file's ``[names]``: per case, its rules (``{after = letters, ending = ...}``)
    and the ending ``otherwise``; a ValueError naming what is wrong in it."""
    found: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {}
    for case, given in table.items():
        where = f"{language}: [names.{case}]"
        if case not in CASES:
            raise ValueError(f"{where}: {case!r} is no case ({', '.join(sorted(CASES))})")
        try:
            rules = tuple((str(r["after"]), str(r["ending"])) for r in given.get("rules", ()))
            found[case] = (rules, str(given.get("otherwise", "")))
        except (KeyError, TypeError, AttributeError):
            raise ValueError(
                f'{where}: rules = [{{ after = "letters", ending = "..." }}, ...] and '
                f'otherwise = "..."'
            ) from None
    return found


def _counted(language: str, table: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """A words file's ``[counted]``: its cases (each a colour -> category -> word table) and
    the case of each move word's colours in the notation; a ValueError naming what is wrong
    in it."""
    where = f"{language}: [counted]"
    given = table.get("notation", {})
    if isinstance(given, str):  # one case for every move word
        given = dict.fromkeys(("take", "return", "pay", "reserve"), given)
    notation = {str(concept): str(case) for concept, case in given.items()}
    cases: dict[str, dict[str, dict[str, str]]] = {}
    for case, colours in table.items():
        if case in ("notation", "classifier"):
            continue
        if not isinstance(colours, Mapping):
            raise ValueError(f"{where} {case}: a table of colours, each its forms")
        for colour, forms in colours.items():
            if colour not in (*TOKEN_COLOURS, "deck"):  # (a reserve's object: "stakon 3")
                raise ValueError(f"{where}.{case}: {colour!r} is no colour ({TOKEN_COLOURS})")
            unknown = set(forms) - PLURAL_CATEGORIES
            if unknown:
                raise ValueError(
                    f"{where}.{case}.{colour}: {sorted(unknown)} are no CLDR plural categories"
                    f" ({', '.join(sorted(PLURAL_CATEGORIES))})"
                )
        cases[case] = {colour: dict(forms) for colour, forms in colours.items()}
    for concept, case in notation.items():
        if concept not in MOVE_WORDS or (case != NOMINATIVE and case not in cases):
            raise ValueError(f"{where}: notation {concept} = {case!r}: no move word or case")
    return cases, notation


# ---------------------------------------------------------------------------------------------
# Reading: every language at once


Group = Literal[
    "move",
    "filler",
    "before_resign",
    "colour",
    "number",
    "bonus",
    "held",
    "level",
    "points",
    "cost",
    "describes",
]


@dataclass(frozen=True, slots=True)
class Sense:
    """One thing a word may mean in a move: a move word (``value`` its concept, one of
    :data:`MOVE_WORDS`), a filler passed over, a word said before resign, a colour (``value``
    its token kind), a number, or (read in sentences only) the colour of the bonus of a card
    named by it ("buy the black card"), or a word that names the writer's reserved card ("buy
    the card I reserved"), or what more a sentence says of a card so named: its ``level``,
    its ``points``, a ``cost`` pair (``value`` "colour:count"), and ``describes``, a word
    that says one of these before it is read (``value`` its grammar kind: points, cost, row
    …). ``languages`` are the languages that give the word this
    sense (two languages meaning the same thing by a word make one sense, not two)."""

    group: Group
    value: str | int = ""
    languages: tuple[str, ...] = field(default=("en",), compare=False)


T = TypeVar("T")


@dataclass(frozen=True)
class Index(Generic[T]):
    """Folded word -> its meanings, the first language's first. ``x_system`` holds the words
    of the languages written in an x-system again, found for a word that has an x in it."""

    plain: Mapping[str, tuple[T, ...]] = field(default_factory=dict)
    x_system: Mapping[str, tuple[T, ...]] = field(default_factory=dict)

    def of(self, word: str, key: str | None = None) -> tuple[T, ...]:
        """The meanings of ``word`` (as written; ``key``: it folded, when the caller has
        folded it already): none when it is no word here."""
        key = fold(word) if key is None else key
        found = self.plain.get(key, ())
        if "x" in key and self.x_system:  # the x-system is Esperanto's
            more = [m for m in self.x_system.get(fold(word, "eo"), ()) if m not in found]
            found = (*found, *more)
        return found


def _added(found: list[T], meaning: T, language: str) -> None:
    """``meaning`` added to the meanings ``found`` of a word, unless it is there already (a
    sense there already is said by one more language)."""
    if meaning not in found:
        found.append(meaning)
        return
    at = found.index(meaning)
    there = found[at]
    if isinstance(there, Sense) and language not in there.languages:
        found[at] = replace(there, languages=(*there.languages, language))


class _Building(Generic[T]):
    """An :class:`Index` being filled, meanings in the order they come."""

    def __init__(self) -> None:
        self.plain: dict[str, list[T]] = {}
        self.x_system: dict[str, list[T]] = {}

    def add(self, word: str, language: str, meaning: T) -> None:
        key = fold(word, language)
        places = [self.plain, self.x_system] if language in _X_LANGUAGES else [self.plain]
        for place in places:
            _added(place.setdefault(key, []), meaning, language)

    def index(self) -> Index[T]:
        return Index(
            {k: tuple(v) for k, v in self.plain.items()},
            {k: tuple(v) for k, v in self.x_system.items()},
        )


#: The kinds of ``[grammar]`` word a sentence's reader treats apart; every other list of
#: ``[grammar]`` (pronouns, helper verbs, polite words, the game's nouns…) is passed over.
GRAMMAR_KINDS = (
    "one",
    "with",
    "negations",
    "doubts",
    "telling",
    "asking",
    "held",
    "instead",
    "instead_after",
    "rather",
    "points",
    "cost",
    "row",
    "top",
    "first",
    "second",
    "third",
    "away",
    "requesting",
    "so",
    "because",
    "relative",
    "idioms",
    "back",
    "except",
    "each",
    "you",
    "withdrawing",
    "correcting",
    "anyway",
    "back_alone",
    "other",
    "me",
    "level_letter",
    "elided",
    "card",
)
#: The keys of ``[grammar]`` that are not lists of words.
GRAMMAR_SETTINGS = ("order", "endings", "particles")


@dataclass(frozen=True)
class Particle:
    """A word that, standing in a sentence beside one of ``verbs``, makes that verb the move
    word ``means`` ("give them back": return; Icelandic "tek … frá": reserve)."""

    words: tuple[str, ...]
    verbs: frozenset[str]
    means: str
    language: str


#: The most words whose grammar kinds a reading vocabulary keeps at once.
_MOST_KEPT = 50_000


@dataclass(frozen=True)
class ReadingVocabulary:
    """The words of every language at once, as a move, a command or an option is read:
    ``senses`` for a move's words (one word; or, for a word a language writes with an
    apostrophe inside, the words it splits into: ``phrases``), ``commands`` (a
    folded word -> the English command words it may be) and ``options`` (-> the English
    option words of ``new`` and ``accept``). Meanings come English's first, then each
    language's in the order of :func:`languages`."""

    languages: tuple[str, ...]
    senses: Index[Sense]
    phrases: Mapping[tuple[str, ...], tuple[Sense, ...]]
    commands: Index[str]
    options: Index[str]
    #: a sentence's grammar: folded word -> its kinds ("grammar": passed over; or one of
    #: GRAMMAR_KINDS), each with the language that says it
    grammar: Index[tuple[str, str]] = field(default_factory=Index)
    #: words that make a verb beside them another move word, by their first word
    particles: Mapping[str, tuple[Particle, ...]] = field(default_factory=dict)
    #: by language: endings a word may carry beyond its lists, and what stands for them
    #: ("ajn" -> "a": Esperanto's accusative plural), longest first
    endings: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    #: by language: where it puts a move's verb (``[grammar] order``: "verb first", "verb
    #: last" or "either")
    orders: Mapping[str, str] = field(default_factory=dict)
    #: grammar of several words ("thank you": not "you" alone), by its first word folded:
    #: (its words, its kind, its language)
    grammar_phrases: Mapping[str, tuple[tuple[tuple[str, ...], str, str], ...]] = field(
        default_factory=dict
    )
    #: words of negation and doubt that their accents set apart from another language's
    #: words (Icelandic "án", without, is not English "an"): as written, case folded -> kind
    exact: Mapping[str, str] = field(default_factory=dict)
    #: by language: the accented Latin letters its words are written with (Icelandic "á",
    #: Esperanto "ĉ"): a word written with one no word of a language has is not its word
    letters: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: each word written with an accented Latin letter, as a words file writes it (case
    #: folded): the languages that write it so (Icelandic "á", not Welsh "a")
    spelled: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: the grammar kinds of each folded word looked up so far (see :meth:`kinds_of`)
    _kinds: dict[str, frozenset[str]] = field(default_factory=dict, compare=False, repr=False)

    def kinds_of(self, key: str) -> frozenset[str]:
        """The grammar kinds of a folded word, as written or with an ending of its
        language (the first ending that gives it any), kept: the same words come in every
        mail."""
        found = self._kinds.get(key)
        if found is None:
            kinds = {kind for kind, _ in self.grammar_of(key, key)}
            if not kinds:
                for stem, language in self.stems(key):
                    kinds = {k for k, lang in self.grammar_of(stem, stem) if lang == language}
                    if kinds:
                        break
            if len(self._kinds) >= _MOST_KEPT:  # (any words a mail may hold: kept few)
                self._kinds.clear()
            found = self._kinds[key] = frozenset(kinds)
        return found

    def spelled_in(self, word: str) -> frozenset[str]:
        """The languages whose words files write ``word`` (with its accents) just so."""
        return self.spelled.get(unicodedata.normalize("NFC", word.casefold()), frozenset())

    def written_in(self, word: str, language: str) -> bool:
        """Whether ``word``, as written, could be a word of ``language``: it has no accented
        Latin letter that no word of the language has ("pásu" is Icelandic, not Esperanto's
        "pasu"). Any word is, in a language whose letters are not known."""
        letters = self.letters.get(language)
        if letters is None or word.isascii():
            return True
        return all(ch in letters for ch in accented_letters(word))

    @functools.cached_property
    def longest_phrase(self) -> int:
        """How many words the longest phrase has (1: there is none)."""
        return max((len(p) for p in self.phrases), default=1)

    def senses_of(self, word: str) -> tuple[Sense, ...]:
        """What ``word`` may mean in a move (none: no language's word)."""
        return self.senses.of(word)

    def commands_of(self, word: str) -> tuple[str, ...]:
        """The English command words ``word`` may be, English's meaning first."""
        return self.commands.of(word)

    def options_of(self, word: str) -> tuple[str, ...]:
        """The English option words (``points``, ``with``, ``as``…) ``word`` may be."""
        return self.options.of(word)

    def is_option(self, word: str, option: str) -> bool:
        """Whether ``word`` is, in some language, the option word ``option``."""
        return option in self.options.of(word)

    def phrases_in(self, keys: list[str]) -> Iterator[tuple[range, str]]:
        """Each grammar phrase of several words said in ``keys`` (folded words, in order):
        where its words stand, and its kind."""
        for n, key in enumerate(keys):
            for pieces, kind, _ in self.grammar_phrases.get(key, ()):
                if tuple(keys[n : n + len(pieces)]) == pieces:
                    yield range(n, n + len(pieces)), kind

    def grammar_of(self, word: str, key: str | None = None) -> tuple[tuple[str, str], ...]:
        """What ``word`` is in a sentence's grammar: (kind, language) pairs, none when it is
        no grammar word of any language."""
        return self.grammar.of(word, key)

    def stems(self, key: str) -> Iterator[tuple[str, str]]:
        """The words a folded word may be with one of a language's endings taken off (and
        what stands for it put on): (stem, language), longest ending first."""
        for language, endings in self.endings.items():
            for ending, instead in endings:
                if key.endswith(ending) and len(key) > len(ending) + 1:
                    yield key[: -len(ending)] + instead, language


def _senses_of_table(table: Mapping[str, Any], source: str) -> Iterable[tuple[str, Sense]]:
    """Each word of a words file's ``[moves]``, ``[colours]`` and ``[numbers]``, with the
    sense it has; ValueError naming ``source`` for a concept there is none of."""
    for concept, words in table.get("moves", {}).items():
        if concept == "fillers":
            sense = Sense("filler")
        elif concept == "before_resign":
            sense = Sense("before_resign")
        elif concept in MOVE_WORDS:
            sense = Sense("move", concept)
        else:
            raise ValueError(f"{source}: [moves] has {concept!r}, which is no move word")
        yield from ((str(w), sense) for w in words)
    for colour, words in table.get("colours", {}).items():
        if colour not in TOKEN_COLOURS:
            raise ValueError(f"{source}: [colours] has {colour!r}, which is no colour")
        yield from ((str(w), Sense("colour", TOKEN_COLOURS.index(colour))) for w in words)
    for number, words in table.get("numbers", {}).items():
        if not str(number).isdecimal():
            raise ValueError(f"{source}: [numbers] has {number!r}, which is no number")
        yield from ((str(w), Sense("number", int(number))) for w in words)


def build_reading_vocabulary(
    tables: Iterable[tuple[str, Mapping[str, Any]]],
) -> ReadingVocabulary:
    """The reading vocabulary of ``tables`` (language, the content of its words file), in
    the order given: the first table's meaning of a word comes first."""
    senses: _Building[Sense] = _Building()
    phrases: dict[tuple[str, ...], list[Sense]] = {}
    commands: _Building[str] = _Building()
    options: _Building[str] = _Building()
    said_so = _Grammar()  # every language's [grammar], gathered
    grammar, accented = said_so.words, said_so.accented
    orders: dict[str, str] = {}
    seen: list[str] = []
    letters: dict[str, frozenset[str]] = {}
    spelled: dict[str, set[str]] = {}
    for language, table in tables:
        if language not in seen:
            seen.append(language)
        letters[language] = letters.get(language, frozenset()) | _letters_of(table)
        for written in _accented_words(table):
            spelled.setdefault(written, set()).add(language)
        source = f"the words of {language!r}"
        orders[language] = str(table.get("grammar", {}).get("order", orders.get(language, "")))
        _add_grammar(table.get("grammar", {}), language, source, said_so)
        for word, sense in _senses_of_table(table, source):
            sense = Sense(sense.group, sense.value, (language,))
            pieces = WORD.findall(fold(word, language))
            if len(pieces) == 1:
                senses.add(pieces[0], language, sense)
            elif pieces:
                _added(phrases.setdefault(tuple(pieces), []), sense, language)
        for group, building in (("commands", commands), ("options", options)):
            for concept, words in table.get(group, {}).items():
                for word in words:
                    building.add(str(word), language, str(concept))
    for key, kind, language in accented:  # "aŭ" typed "au" is a doubt still; "án" as "an" not
        if not senses.plain.get(key) and not grammar.plain.get(key):
            grammar.add(key, language, (kind, language))
    return ReadingVocabulary(
        languages=tuple(seen),
        senses=senses.index(),
        phrases={k: tuple(v) for k, v in phrases.items()},
        commands=commands.index(),
        options=options.index(),
        grammar=grammar.index(),
        particles={k: tuple(v) for k, v in said_so.particles.items()},
        endings=said_so.endings,
        orders=orders,
        grammar_phrases={k: tuple(v) for k, v in said_so.phrases.items()},
        exact=said_so.exact,
        letters=letters,
        spelled={k: frozenset(v) for k, v in spelled.items()},
    )


def _letters_of(table: Mapping[str, Any]) -> frozenset[str]:
    """The accented Latin letters of every word in a words file (lower case)."""
    return frozenset(ch for word in _accented_words(table) for ch in accented_letters(word))


def _accented_words(table: Mapping[str, Any]) -> set[str]:
    """Every word of a words file written with an accented Latin letter (case folded,
    composed; each word of a phrase apart)."""
    found: set[str] = set()
    for value in table_strings(table):
        if not value.isascii():
            composed = unicodedata.normalize("NFC", value.casefold())
            found |= {w for w in WORD.findall(composed) if accented_letters(w)}
    return found


def table_strings(table: Mapping[str, Any]) -> Iterator[str]:
    """Every string of a words file, in its tables and lists at any depth."""
    stack: list[Any] = [table]
    while stack:
        value = stack.pop()
        if isinstance(value, Mapping):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            yield value


def accented_letters(text: str) -> set[str]:
    """The Latin letters with an accent in ``text`` (lower case, composed)."""
    composed = unicodedata.normalize("NFC", text.casefold())
    return {
        ch
        for ch in composed
        if not ch.isascii() and ch.isalpha() and "LATIN" in unicodedata.name(ch, "")
    }


@dataclass
class _Grammar:
    """Every language's ``[grammar]`` as it is gathered: its words (folded word -> (kind,
    language)), particles, endings by language, phrases by their first word, words matched
    only as written (with their accent), and those words' folded forms."""

    words: _Building[tuple[str, str]] = field(default_factory=_Building)
    particles: dict[str, list[Particle]] = field(default_factory=dict)
    endings: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    phrases: dict[str, list[tuple[tuple[str, ...], str, str]]] = field(default_factory=dict)
    exact: dict[str, str] = field(default_factory=dict)
    accented: list[tuple[str, str, str]] = field(default_factory=list)


def _add_grammar(table: Mapping[str, Any], language: str, source: str, into: _Grammar) -> None:
    """A words file's ``[grammar]`` (``table``), added ``into`` what is gathered: its lists
    of words (each kind in GRAMMAR_KINDS kept apart, every other list passed over as
    ``grammar``), its endings and its particles."""
    grammar, particles, endings = into.words, into.particles, into.endings
    phrases, exact, accented = into.phrases, into.exact, into.accented
    for name, value in table.items():
        if name == "order":
            continue
        if name == "endings":
            pairs = [tuple(str(p) for p in pair) for pair in value]
            if any(len(pair) != 2 for pair in pairs):
                raise ValueError(f"{source}: [grammar] endings are pairs [ending, instead]")
            folded = [(fold(a, language), fold(b, language) if b else "") for a, b in pairs]
            endings[language] = tuple(sorted(folded, key=lambda p: -len(p[0])))
        elif name == "particles":
            for rule in value:
                words = tuple(WORD.findall(fold(str(rule["particle"]), language)))
                means = str(rule["means"])
                if means not in MOVE_WORDS:
                    raise ValueError(f"{source}: a particle means {means!r}, which is no move word")
                verbs = frozenset(fold(str(v), language) for v in rule["verbs"])
                particles.setdefault(words[0], []).append(Particle(words, verbs, means, language))
        elif name == "elided":  # ("'na": kept whole, apostrophe and all; see sentence_text)
            for word in value:
                grammar.add(fold(str(word), language), language, ("elided", language))
        elif isinstance(value, list):
            kind = name if name in GRAMMAR_KINDS else "grammar"
            for word in value:
                pieces = tuple(WORD.findall(fold(str(word), language)))
                if len(pieces) > 1:  # "thank you": the words together, not each alone
                    phrases.setdefault(pieces[0], []).append((pieces, kind, language))
                elif pieces and kind in ("negations", "doubts") and accented_latin(str(word)):
                    exact[str(word).casefold()] = kind  # (and folded: see _unaccented)
                    accented.append((pieces[0], kind, language))
                elif pieces:
                    grammar.add(pieces[0], language, (kind, language))
        else:
            raise ValueError(f"{source}: [grammar] {name} is neither a list nor a setting")


def accented_latin(word: str) -> bool:
    """Whether a word of Latin letters carries an accent its folding takes off (Icelandic
    "án"): matched as written, lest it be another language's word without one."""
    latin = all(ch.isascii() or "LATIN" in unicodedata.name(ch, "") for ch in word)
    return latin and not word.isascii() and fold(word) != word.casefold()


def language_tables(folder: Path | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Every language's words file, read: English first."""
    folder = folder or locale_folder()
    return [(language, _table(language, folder)) for language in languages(folder)]


def reading_vocabulary() -> ReadingVocabulary:
    """The words of every language (of :func:`locale_folder`) at once, read once."""
    return _reading_vocabulary(locale_folder())


@functools.cache
def _reading_vocabulary(folder: Path) -> ReadingVocabulary:
    return build_reading_vocabulary(language_tables(folder))


ENGLISH_WORDS = vocabulary("en")
