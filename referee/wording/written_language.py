"""Which language a mail is written in, as the words files know the languages: what the
referee answers in when the writer chose no language and the mail is about no game
(docs/languages.md, "The language of a letter").

Each word the mail holds counts for the one language that has it (a word of its words file,
in any list; or a word written with an accented Latin letter that only that language's
words have: Icelandic "þ", Esperanto "ĉ", Welsh "ŵ"). A word two languages share counts for
neither ("a", "take" written in a Welsh mail). The language with the most such words is the
mail's; none when no language has more than every other.

Pure, and data only: a language added as a words file is told apart with no code.
"""

from __future__ import annotations

import functools
import unicodedata
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from referee.wording.vocabulary import (
    WORD,
    ReadingVocabulary,
    accented_letters,
    fold,
    language_tables,
    locale_folder,
    reading_vocabulary,
    table_strings,
)

#: The most words of a mail looked at (a language shows itself in its first lines).
MOST_WORDS = 400


def written_language(text: str) -> str | None:
    """The language ``text`` is written in (a language code), or None when its words do
    not say (no word of one language alone, or as many of two)."""
    own = _words_of_each(locale_folder())
    vocabulary = reading_vocabulary()
    counted: Counter[str] = Counter()
    seen: set[str] = set()
    for written in WORD.findall(text)[:MOST_WORDS]:
        word = unicodedata.normalize("NFC", written.casefold())
        if word in seen or word.isdecimal():
            continue
        seen.add(word)
        having = own.get(word) or own.get(fold(word)) or _by_letters(word, vocabulary)
        if having is not None and len(having) == 1:
            counted[next(iter(having))] += 1
    ranked = counted.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def _by_letters(word: str, vocabulary: ReadingVocabulary) -> frozenset[str] | None:
    """The languages whose words have every accented Latin letter of ``word`` (None: it
    has none)."""
    if not accented_letters(word):
        return None
    return frozenset(lang for lang in vocabulary.languages if vocabulary.written_in(word, lang))


@functools.cache
def _words_of_each(folder: Path) -> dict[str, frozenset[str]]:
    """Each word of every words file (case folded and composed; and folded as that
    language folds it) -> the languages that have it."""
    having: dict[str, set[str]] = {}
    for language, table in language_tables(folder):
        for word in _strings(table, language):
            having.setdefault(word, set()).add(language)
    return {w: frozenset(langs) for w, langs in having.items()}


def _strings(table: Mapping[str, Any], language: str) -> set[str]:
    """Every word of a words file's lists (each word of a phrase apart), as written (case
    folded, composed) and as ``language`` folds it."""
    found: set[str] = set()
    for value in table_strings(table):
        for word in WORD.findall(unicodedata.normalize("NFC", value.casefold())):
            if not word.isdecimal():
                found |= {word, fold(word, language)}
    return found
