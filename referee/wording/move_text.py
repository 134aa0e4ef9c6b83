"""A move as its canonical text (docs/notation.md), in English or in a reader's language:
what :func:`referee.notation.parse` reads back as the same move. The notation reads; this
writes, for the records (English) and for the letters (the reader's words)."""

from __future__ import annotations

from referee.engine.cards import TOKEN_COLOURS, Tokens
from referee.engine.moves import Buy, Move, Pass, Reserve, Resign, Take
from referee.wording.vocabulary import ENGLISH_WORDS, Vocabulary


def format_move(move: Move, words: Vocabulary = ENGLISH_WORDS) -> str:
    """The canonical notation of a move; :func:`referee.notation.parse` reads it back as the
    same move. In English (the first word of each list of referee/locale/en/words.toml)
    unless ``words`` (a language's vocabulary) is given: the text a letter shows its reader.
    Records keep the English text, which does not depend on anyone's language."""
    w = words.word

    def listed(counts: Tokens, verb: str) -> str:  # in the verb's case: "prenu bluan verdan"
        return " ".join(words.each_counted(counts, words.notation_case(verb), notation=True))

    match move:
        case Resign():
            return w("resign")
        case Take(gems=gems):
            parts = [f"{w('take')} {listed(gems, 'take')}"]
        case Reserve(card=card, deck=deck):
            level = words.count(deck)  # the deck in the verb's case: Esperanto "stakon 3"
            named = words.form("deck", "one", words.notation_case("reserve"))
            parts = [f"{w('reserve')} {card}" if card else f"{w('reserve')} {named} {level}"]
        case Buy(card=card, pay=pay):
            case = words.notation_case("pay")  # (each count written: "pay 1 gold")
            paid = " ".join(
                words.counted(n, TOKEN_COLOURS[k], case, notation=True)
                for k, n in enumerate(pay)
                if n
            )
            parts = [f"{w('buy')} {card} {w('pay')} {paid or w('nothing')}"]
        case Pass():
            parts = [w("pass")]
    if any(move.returned):
        parts.append(f"{w('return')} {listed(move.returned, 'return')}")
    if move.noble:
        parts.append(f"{w('noble')} {move.noble}")
    return ", ".join(parts)
