"""What each word of a sentence is, to the sentence reader (:mod:`referee.sentences`) and
the parts it leans on: a colour, a count, a deck, "nothing", and the grammar kinds of its
language (``[grammar]`` in each ``words.toml``, a word as written or with an ending).

Pure: words in, facts out.
"""

from __future__ import annotations

from referee.engine.cards import TOKEN_COLOURS
from referee.notation import Word, number_of
from referee.wording.vocabulary import ReadingVocabulary, Sense

#: What marks a count of one that an article said ("a white"): it counts only the colour it
#: stands before, never a list.
SOFT_ONE = "one"


#: The token kind of gold.
GOLD = TOKEN_COLOURS.index("gold")


#: A word for a deck ("deck", "level", "bunka"), as the notation reads it
DECK = Sense("move", "deck")


#: A word for a row of cards, read as it describes a card ("the top row")
ROW = Sense("describes", "row")


def leads(sense: Sense) -> bool:
    """Whether a sense is a move word that leads its arguments (an action, return, pay)."""
    return sense.group == "move" and sense.value in ("take", "reserve", "buy", "return", "pay")


def grammar_kinds(key: str, vocabulary: ReadingVocabulary) -> frozenset[str]:
    """The grammar kinds of a folded word, as written or with an ending of its language."""
    return vocabulary.kinds_of(key)


def is_colour(word: Word) -> bool:
    """Whether a word names a token's colour (gold too)."""
    return word.sense is not None and word.sense.group == "colour"


def is_gem_colour(word: Word) -> bool:
    """Whether a word names a gem's colour (not gold)."""
    return is_colour(word) and word.sense is not None and word.sense.value != GOLD


def is_gold(word: Word) -> bool:
    """Whether a word names gold."""
    return is_colour(word) and word.sense is not None and word.sense.value == GOLD


def says_nothing(word: Word) -> bool:
    """Whether a word says "nothing" (no tokens)."""
    return word.sense is not None and word.sense.group == "move" and word.sense.value == "nothing"


def is_soft(word: Word) -> bool:
    """Whether a count of one is an article's ("a white"), not a number written."""
    return word.sense is not None and SOFT_ONE in word.sense.languages


def is_number(word: Word) -> bool:
    """Whether a word is a count."""
    return number_of(word) is not None
