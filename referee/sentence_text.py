"""A sentence's text as the sentence reader (:mod:`referee.sentences`) reads it: counts and
words written joined taken apart ("5-point", "kvinpoentan", "2g", "L3"), the count before a
colon left out ("3: red, green, blue"), and a cost of one of each colour but one said as
that cost ("one of each except black"). Which words these are is each language's data
(its numbers, colours, decks and ``[grammar]``); nothing here names a language.

Pure: text in, the text read out.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from referee.card_description import ORDINALS, describing_kind
from referee.notation import COLOUR_LETTERS, reading_words
from referee.sentence_words import DECK, GOLD, grammar_kinds
from referee.wording.vocabulary import (
    ENGLISH_WORDS,
    WORD,
    ReadingVocabulary,
    fold,
    locale_folder,
)
from referee.wording.vocabulary import vocabulary as vocabulary_of


def as_read(text: str) -> tuple[str, bool]:
    """``text`` as it is read, and whether shorthand was read in it (a count joined to a
    colour's letter, a level to its number: then the reading is asked about)."""
    vocabulary = reading_words()
    read = _COUNTED_WORD.sub(_count_apart, _HEADING.sub(lambda m: _heading(m, vocabulary), text))
    folder = locale_folder()  # (the words read are its: what is kept is kept by it)
    read = _LONG_WORD.sub(lambda m: _compound_apart(m.group(), folder), read)
    joined = _JOINED_COUNT.sub(lambda m: _joined_count_apart(m.group(), folder), read)
    joined = _AFTER_A_MOVE_WORD.sub(lambda m: _letter_after_a_move_word(m, vocabulary), joined)
    return _each_but(_without_elided(joined, vocabulary), vocabulary), joined != read


#: The marks written as an apostrophe.
_APOSTROPHES = "'\u2019\u2018`"
#: A word written after an apostrophe that begins it ("y cerdyn 'na").
_ELIDED = re.compile(r"(?<![^\s(])['\u2019\u2018`]([^\W\d_]+)(?![\w'\u2019\u2018`-])")


def _without_elided(text: str, vocabulary: ReadingVocabulary) -> str:
    """``text`` without the words written short after an apostrophe that a language lists as
    ``[grammar] elided`` (Welsh "'na", there, for "yna": never "na", not): words of chat."""
    if not any(mark in text for mark in _APOSTROPHES):
        return text

    def kept(found: re.Match[str]) -> str:
        key = "'" + fold(found.group(1))
        return " " if "elided" in grammar_kinds(key, vocabulary) else found.group(0)

    return _ELIDED.sub(kept, text)


#: A word before a colon: a count there heads the list it counts ("3: red, green, blue").
_HEADING = re.compile(r"(?<![^\s])([^\s:]+)\s*:")


def _heading(found: re.Match[str], vocabulary: ReadingVocabulary) -> str:
    """A count before a colon left out (it counts the list that follows); any other word kept."""
    return " " if _count_of(fold(found.group(1))) is not None else found.group(0)


#: Two words joined by a dash, in Latin letters or digits ("5-point", "two-pointer", "tier-3").
_COUNTED_WORD = re.compile(
    r"(?<![\w-])([0-9a-zA-Z\u00c0-\u024f]+)-([0-9a-zA-Z\u00c0-\u024f]+)(?![\w-])"
)


def _count_apart(found: re.Match[str]) -> str:
    """A count or a word that describes a card joined to another ("5-point", "two-pointer",
    "tier-3", "dua-nivela"), as the two words; anything else (a card id, "face-down") as
    written."""
    vocabulary = reading_words()
    parts = [fold(part) for part in found.groups()]

    def describes(key: str) -> bool:
        return describing_kind(key, vocabulary) is not None or any(
            s == DECK for s in vocabulary.senses_of(key)
        )

    first, second = parts
    if (
        describes(second)
        if _count_of(first) is not None
        else describes(first) and (_count_of(second) is not None or describes(second))
    ):
        return f"{found.group(1)} {found.group(2)}"
    return found.group(0)


def _each_but(text: str, vocabulary: ReadingVocabulary) -> str:
    """A cost said as one of each colour but one ("the one that costs one of each except
    black", "yr un sy'n costio un o bob lliw heblaw du", "það sem kostar einn af hverjum lit
    nema svörtum", "কালো ছাড়া সব রঙের একটা করে"): those words as the cost they say, one of
    each other gem colour (in the words of the language of the "except"). Only beside a word
    of cost (before it, or a few words after); any other text as it is."""
    words = list(WORD.finditer(text))
    keys = [fold(w.group()) for w in words]
    kinds = [grammar_kinds(k, vocabulary) for k in keys]
    for n, key in enumerate(keys):
        if "except" not in kinds[n] or not any("cost" in k for k in kinds[: n + 8]):
            continue  # (a word of cost before, or just after: "…একটা করে লাগে")
        colour = next((c for c in (n + 1, n - 1) if 0 <= c < len(keys) and _gem(keys[c])), None)
        near = [e for e in range(max(n - 4, 0), min(n + 4, len(keys))) if "each" in kinds[e]]
        if colour is None or not near:
            continue
        count = next(
            (c for c in (near[0] - 1, near[0] - 2) if c >= 0 and _count_of(keys[c]) is not None),
            None,
        )
        said = [i for i in (n, colour, *near, count) if i is not None]
        first, last = min(said), max(said)
        gem = _gem(keys[colour])
        language = next((lang for k, lang in vocabulary.grammar_of(key) if k == "except"), "en")
        each = _count_of(keys[count]) if count is not None else 1
        cost = " ".join(
            f"{each} {vocabulary_of(language).colour(kind)}" for kind in range(GOLD) if kind != gem
        )
        return text[: words[first].start()] + cost + text[words[last].end() :]
    return text


def _gem(key: str) -> int | None:
    """The gem colour a folded word names, if it names one."""
    vocabulary = reading_words()
    found = [s.value for s in vocabulary.senses_of(key) if s.group == "colour"]
    return int(found[0]) if found and found[0] != GOLD else None


def _count_of(key: str) -> int | None:
    """The count a folded word says (digits, or a number word of a language), if any."""
    if key.isdecimal():
        return int(key)
    found = [s.value for s in reading_words().senses_of(key) if s.group == "number"]
    return int(found[0]) if found else None


def letters_with_a_b(text: str) -> bool:
    """Whether colours are written as letters with a "b" among them ("b/r/k", "w b g"): blue
    to some, black to others (the notation's letters are w u g r k)."""
    keys = [w.casefold() for w in WORD.findall(text)]
    for n, key in enumerate(keys):
        near = keys[max(n - 2, 0) : n] + keys[n + 1 : n + 3]
        if key == "b" and any(len(k) == 1 and k in COLOUR_LETTERS for k in near):
            return True
    return False


#: The colour letters read joined to a count: not "w" nor "u" ("back in 2w": two weeks;
#: "thx 4u": for you).
_JOINED_LETTERS = ("g", "r", "k")
#: A count joined to "w" or "u" just after a word: read as white or blue only after a move
#: word ("ret 2w", "take 2u"; not "back in 2w").
_AFTER_A_MOVE_WORD = re.compile(r"(?<![\w-])([^\W\d_]+)(\s+)(\d)([wu])(?![\w-])", re.IGNORECASE)


def _letter_after_a_move_word(found: re.Match[str], vocabulary: ReadingVocabulary) -> str:
    """A count joined to "w" or "u" after a move word as the count and the colour ("ret 2w":
    "ret 2 white"); after any other word as written."""
    word, space, count, letter = found.groups()
    moving = any(s.group == "move" and s.value != "deck" for s in vocabulary.senses_of(fold(word)))
    if not moving:
        return found.group(0)
    return f"{word}{space}{count} {ENGLISH_WORDS.colour(COLOUR_LETTERS[letter.casefold()])}"


#: A count written joined to a word, or a word to a count ("2g", "২g", "2p", "L3", "deck1").
_JOINED_COUNT = re.compile(r"(?<![\w-])(?:\d{1,2}[^\W\d_]{1,6}|[^\W\d_]{1,6}\d)(?![\w-])")


@functools.lru_cache(maxsize=4096)
def _joined_count_apart(word: str, folder: Path) -> str:
    """A count joined to a colour, to a colour's letter or to a word of points ("2g", "2k",
    "২g", "2p": the letter as its colour), or a deck's or a level's word joined to its number
    ("L3", "deck1", "lvl2"), as the two words; any other word ("x2", "1st") as written."""
    vocabulary = reading_words()
    found = re.fullmatch(r"(\d+)(\D+)|(\D+)(\d)", fold(word))
    if found is None or vocabulary.senses_of(fold(word)):
        return word
    count, said, deck, level = found.groups()
    if said is not None:
        colour = any(s.group == "colour" for s in vocabulary.senses_of(said))
        letters = said in _JOINED_LETTERS
        points = describing_kind(said, vocabulary) == "points"
        if letters:  # ("2g": the letters of the notation, joined to a count on purpose)
            return f"{count} {ENGLISH_WORDS.colour(COLOUR_LETTERS[said])}"
        return f"{count} {said}" if colour or points else word
    if "level_letter" in grammar_kinds(deck, vocabulary) and level in "123":  # ("L3")
        return f"{ENGLISH_WORDS.word('deck')} {level}"
    return f"{deck} {level}" if _deck_word(deck, vocabulary) else word


#: A word long enough to be a count and a word written as one ("kvinpoentan").
_LONG_WORD = re.compile(r"(?<![\w-])[a-zA-Z\u00c0-\u024f]{6,}(?![\w-])")


@functools.lru_cache(maxsize=4096)
def _compound_apart(word: str, folder: Path) -> str:
    """A word no language knows that is a count or an ordinal and a word that describes a
    card written as one (Esperanto "kvinpoentan", five-point; "unuanivela", first-level), as
    the two words; any other word as written."""
    vocabulary = reading_words()
    key = fold(word)
    if vocabulary.senses_of(key) or grammar_kinds(key, vocabulary):
        return word
    for at in range(2, len(key) - 3):
        first, rest = key[:at], key[at:]
        if _count_of(first) is None and describing_kind(first, vocabulary) not in ORDINALS:
            continue
        if describing_kind(rest, vocabulary) is not None or _deck_word(rest, vocabulary):
            return f"{word[:at]} {word[at:]}" if len(word) == len(key) else f"{first} {rest}"
    return word


def _deck_word(key: str, vocabulary: ReadingVocabulary) -> bool:
    """Whether a folded word is a deck's or a level's, as written or with an ending."""
    keys = [key, *(stem for stem, _ in vocabulary.stems(key))]
    return any(DECK in vocabulary.senses_of(k) for k in keys)
