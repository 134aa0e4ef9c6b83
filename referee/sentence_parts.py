"""Where the sentences and clauses of a reply end, for the sentence reader
(:mod:`referee.sentences`): sentences at ``.``, ``!``, ``?``, ``;``, a danda and line ends,
with what brackets say after the sentence they stand in; clauses at commas, colons and
dashes, and before a word that says what follows from what went before (each language's
``[grammar] so``: "…, so I'll take two") or that gives a reason (``[grammar] because``).

Pure: text in, its parts out.
"""

from __future__ import annotations

import functools
import itertools
import re
from pathlib import Path

from referee.notation import (
    COLOUR_LETTERS,
    card_word,
    plain,
    reading_words,
    starts_with_a_move_word,
)
from referee.sentence_words import grammar_kinds, leads
from referee.spoken_time import time_words
from referee.wording.vocabulary import ENGLISH_WORDS, WORD, fold, locale_folder

#: Where a sentence ends: ! ? ; a danda, a full stop before a space or the end, a line end,
#: an emoji (people end a sentence with one: "…ég segi ekki neitt 😄 Ég tek hvítan…"; not
#: a tick or a cross, which say yes or no of what they stand beside: "2 red ❌ 2 green ✅").
_SENTENCE_END = re.compile(
    "[!?;\u0964\u0965\n\u2600-\u26ff\U0001f300-\U0001faff]+[\ufe0f\u200d]*|\\.+(?=\\s|$)"
)


#: What joins words without being one: ``white+green+black``, ``#2-03``, ``red/green``, and
#: brackets around a word ("my reserved card (1-36)").
_JOINING = re.compile(r"[+&/#()\[\]]")


#: What is stripped around a sentence: spaces, dashes, marks of emphasis.
_AROUND = " \t-\u2013\u2014*_"


def sentences_of(text: str) -> list[str]:
    """The sentences of ``text`` (quotes and footers already left out), stripped."""
    return [sentence for sentence, _, _ in sentences_asking(text)]


def sentences_asking(text: str) -> list[tuple[str, bool, bool]]:
    """The sentences of ``text``, each with whether it asks (ends in a question mark) and
    whether it was said in brackets: what brackets say, when more than a card, is a sentence
    of its own after the one it stands in ("Tek frá 1-35 (þetta svarta sem kostar 3 græna)",
    "লেভেল ২-এর সাদা কার্ডটা (২ পয়েন্ট) রিজার্ভ করছি": the sentence whole, then the
    bracket's)."""
    return list(_sentences_asking_in(text, locale_folder()))


@functools.lru_cache(maxsize=256)
def _sentences_asking_in(text: str, folder: Path) -> tuple[tuple[str, bool, bool], ...]:
    """:func:`sentences_asking`, kept: a reply's sentences are looked at by each rule of
    :func:`referee.sentences.read_move` (the words of ``folder``'s languages)."""
    found: list[tuple[str, bool, bool]] = []
    start = 0
    asides: list[str] = []
    written = plain(text).replace("\x01", " ")  # (the mark of a bracket's place, below)
    written = _LETTERS_LISTED.sub(_letters_as_colours, _signed_lines(_listed(written)))
    written = _letters_spaced(written)
    joined = _JOINING.sub(" ", _BRACKETED.sub(lambda m: _bracketed(m, asides), written))
    for end in [*_SENTENCE_END.finditer(joined), None]:
        stop = end.start() if end is not None else len(joined)
        sentence = joined[start:stop]
        said = [asides[int(n)] for n in _ASIDE.findall(sentence)]
        if said:
            sentence = re.sub(
                r"[ \t]*\x01\d+\x01[ \t]*(?=([,.;:]?))",
                lambda m: "" if m.group(1) else " ",
                sentence,
            )
        sentence = sentence.strip(_AROUND)
        if (
            sentence
            and found
            and (  # ("rez. 2-28", "niv. 3": a word cut short, its dot;
                _abbreviated(found[-1][0], sentence) or _dated(found[-1][0], sentence)
            )
        ):  # "20. desember": a day's number, its dot)
            sentence = f"{found.pop()[0]} {sentence}"
        if sentence:
            found.append((sentence, end is not None and "?" in end.group(), False))
        for aside in said:
            found += [(s, asks, True) for s, asks, _ in sentences_asking(aside)]
        if end is not None:
            start = end.end()
    return tuple(found)


#: A line of colours each signed taken (+) or given back (-): "+blank +verd +nigr, -2 verd".
_SIGNED_LINE = re.compile(r"^[ \t]*(?:[+\-\u2212][ \t]*\d*[ \t]*[^\W\d_]+[ \t,/;]*)+$", re.M)
_SIGNED = re.compile(r"([+\-\u2212])[ \t]*(\d*)[ \t]*([^\W\d_]+)")


#: A list item's mark at the start of a line: a bullet, or a number with a dot or bracket.
_ITEM = re.compile(r"^[ \t]*(?:[-\u2022*\u00b7]|\(?(\d{1,2})[.)])[ \t]+(?=\S)")


def _listed(text: str) -> str:
    """``text`` with its lists read as written in a line: each item's mark left out ("1.
    glas", "- ago: preni…"), and the items under a line that ends in a colon joined to it
    ("Cymryd:" over "1. glas", "2. coch", "3. du": "Cymryd: glas, coch, du"). A number is
    an item's mark only in a list numbered 1, 2, 3… of two items or more: else it is a count
    ("I'll take:" over "2. green")."""
    lines = text.split("\n")
    found = [_ITEM.match(line) for line in lines]
    if not any(found):
        return text
    numbers = [int(m.group(1)) for m in found if m and m.group(1)]
    numbered = len(numbers) > 1 and numbers == list(range(1, len(numbers) + 1))
    out: list[str] = []
    open_label = False
    for line, item in zip(lines, found, strict=True):
        if item and item.group(1) and not numbered:
            item = None
        said = line[item.end() :] if item else line
        if item and open_label and out:
            out[-1] = (
                f"{out[-1]}, {said.strip()}"
                if not out[-1].endswith(":")
                else f"{out[-1]} {said.strip()}"
            )
            continue
        out.append(said)
        open_label = said.rstrip().endswith(":")
    return "\n".join(out)


def _signed_lines(text: str) -> str:
    """``text`` with its lines of signed colours as a take and a return ("+blank +verd
    +nigr, -2 verd": "take blank verd nigr, return 2 verd"), when each is a colour and one
    at least, in any line, is taken (a line of "-" alone then returns: "+w +u +g" and "-1
    r" below it); as written otherwise (a list of points: "- white")."""
    lines = [(m, _signs(m)) for m in _SIGNED_LINE.finditer(text)]
    if not any(signed and any(sign == "+" for sign, _, _ in signed) for _, signed in lines):
        return text
    for found, signed in reversed(lines):
        if signed:
            text = text[: found.start()] + _as_moves(signed) + text[found.end() :]
    return text


def _as_moves(signed: list[tuple[str, str, str]]) -> str:
    taken = " ".join(f"{count} {word}".strip() for sign, count, word in signed if sign == "+")
    back = " ".join(f"{count} {word}".strip() for sign, count, word in signed if sign != "+")
    if taken and back:
        return f"take {taken}, return {back}"
    return f"take {taken}" if taken else f"return {back}"


def _signs(found: re.Match[str]) -> list[tuple[str, str, str]]:
    """The signed colours of a line (sign, count, colour), or none when one is no colour."""
    vocabulary = reading_words()
    signed = [
        (sign, count, ENGLISH_WORDS.colour(COLOUR_LETTERS[word.casefold()]))
        if word.casefold() in COLOUR_LETTERS
        else (sign, count, word)
        for sign, count, word in _SIGNED.findall(found.group())
    ]
    colours = all(
        any(s.group == "colour" for s in vocabulary.senses_of(fold(word))) for _, _, word in signed
    )
    return signed if colours else []


#: The letters of the colours listed with a slash or a plus between them: "w/g/k", "w+r+k",
#: "g + r + k", and nothing else in the list (alone, a letter is a word: "r u there?"; in
#: "b/r/k", "b" is no colour's letter, and the list is not read).
_LETTERS_LISTED = re.compile(
    r"(?<![\w*/+])(?<![/+]\s)[wugrk*](?:\s*[/+]\s*[wugrk*])+(?![\w*])(?!\s*[/+])", re.IGNORECASE
)


#: The letters of two colours or more written with spaces or commas between them ("take w
#: g k", "u r k", "rhoi nôl w g"), and whether a question mark follows them.
_LETTERS_SPACED = re.compile(
    r"(?<![\w*'\u2019])[wugrk*](?:[ \t]*,?[ \t]+[wugrk*]){1,}(?![\w*'\u2019])([ \t]*\?)?",
    re.IGNORECASE,
)


def _letters_spaced(text: str) -> str:
    """``text`` with the colour letters written apart as their colours' words, after a word
    on their line ("take w g k"), or alone on the first line written ("u r k"); not a line of
    initials below the move ("G R K"); two of them, and any before a question mark, only
    after a move word ("rhoi nôl w g", "take g r k?"; but "ok w g", "r u k?": are you ok?)."""
    first = next((n for n, line in enumerate(text.split("\n")) if line.strip()), 0)

    def read(found: re.Match[str]) -> str:
        line_start = text.rfind("\n", 0, found.start()) + 1
        before = text[line_start : found.start()].strip()
        if not before and (found.group(1) or text.count("\n", 0, found.start()) != first):
            return found.group()
        letters = re.findall(r"[wugrk*]", found.group(), re.IGNORECASE)
        if [ch.casefold() for ch in letters] == ["u", "r"]:
            return found.group()  # ("did I take u r turn": you are, your; never two colours)
        two = len(letters) == 2
        said = re.split(r"[.!?]", before)[-1]  # (in their sentence: not "…reserve. u k?")
        last = WORD.findall(said)[-1:]  # (the word just before them: "u r k, return g g")
        moving = starts_with_a_move_word(said) or starts_with_a_move_word(" ".join(last))
        if (found.group(1) or two) and not moving:
            return found.group()  # ("hey r u k?"; two only after a move word: "rhoi nôl w g")
        return _letters_as_colours(found) + (found.group(1) or "")

    return _LETTERS_SPACED.sub(read, text)


def _letters_as_colours(found: re.Match[str]) -> str:
    """Listed colour letters as their colours' words ("w/g/k": "white green black")."""
    letters = [ch for ch in found.group().casefold() if ch in COLOUR_LETTERS]
    return " ".join(ENGLISH_WORDS.colour(COLOUR_LETTERS[ch]) for ch in letters)


def _dated(sentence: str, after: str) -> bool:
    """Whether a "sentence" ended at the dot of a day's number before its month ("fyrr en 20.
    desember", "la 20. decembro") or of a level's before its word ("á 3. stigi"), or is a
    number alone before what it counts (a line "2. green" that is no list)."""
    if sentence.strip().isdecimal() and WORD.findall(after):
        return True
    words, then = WORD.findall(sentence), WORD.findall(after)
    if not words or not then or not words[-1].isdecimal() or not 1 <= int(words[-1]) <= 31:
        return False
    if 1 <= int(words[-1]) <= 3 and _a_level_word(fold(then[0])):
        return True  # ("á 3. stigi", "í 2. röð": the level's ordinal, its dot)
    return fold(then[0]) in time_words().months


def _a_level_word(key: str) -> bool:
    """Whether a word is a deck's or a row's ("stigi", "röð", "nivelo")."""
    vocabulary = reading_words()
    deck = any(s.group == "move" and s.value == "deck" for s in vocabulary.senses_of(key))
    return deck or "row" in grammar_kinds(key, vocabulary)


def _abbreviated(sentence: str, after: str) -> bool:
    """Whether a "sentence" ended at the dot of a word cut short (the start of a longer word
    of the same sense): a move word alone ("rez. 2-28"), or a level's before its number
    ("el niv. 3")."""
    words = WORD.findall(sentence)
    if not words:
        return False
    key = fold(words[-1])
    vocabulary = reading_words()
    senses = [s for s in vocabulary.senses_of(key) if s.group == "move"]
    alone = len(words) == 1 and any(leads(s) for s in senses)  # ("rez. blinde…")
    level = bool(senses) and senses[0].value == "deck" and after[:1].isdigit()  # ("niv. 3")
    if len(key) > 4 or not (alone or level):
        return False  # ("Reserve from the top. 2 more turns…": a word, not cut short)
    return _cut_short(key, locale_folder())


@functools.lru_cache(maxsize=1024)
def _cut_short(key: str, folder: Path) -> bool:
    """Whether a folded move word is the start of a longer word of the same sense ("rez":
    "rezervu"; not "top"): looked for once in every language's words, and kept."""
    vocabulary = reading_words()
    senses = {s for s in vocabulary.senses_of(key) if s.group == "move"}
    longer = (k for k in vocabulary.senses.plain if k.startswith(key) and k != key)
    return any(senses & set(vocabulary.senses_of(k)) for k in longer)


#: What is said in brackets.
_BRACKETED = re.compile(r"\(([^()]*)\)")


#: Where a bracket stood that is a sentence of its own (its number among them).
_ASIDE = re.compile("\x01(\\d+)\x01")


def _bracketed(found: re.Match[str], asides: list[str]) -> str:
    """What is said in brackets: a card or a noble alone is part of its sentence ("my
    reserved card (1-36)"); anything more, a sentence of its own, kept in ``asides`` (its
    place marked)."""
    inside = found.group(1)
    if all(card_word(fold(word)) for word in WORD.findall(inside)):
        return f" {inside} "
    if _listed_after_a_count(found) or _describes(found):
        return f" {inside} "
    asides.append(inside)
    return f" \x01{len(asides) - 1}\x01 "


def _listed_after_a_count(found: re.Match[str]) -> bool:
    """Whether a bracket lists colours, without counts, just after a move word or a count
    of three or more that counts them ("Cymryd 3 (gwyn, gwyrdd, coch)", "take (red, blue,
    green)"): the move's own, part of its sentence. A cost ("(2 gwyn + 1 glas)") is not,
    nor two colours after a 2 ("return 2 (white, black)": two of one, or one of each?)."""
    vocabulary = reading_words()
    before = WORD.findall(found.string[: found.start()])
    last = fold(before[-1]) if before else ""
    senses = vocabulary.senses_of(last)
    keys = [fold(word) for word in WORD.findall(found.group(1))]
    colours = [k for k in keys if any(s.group == "colour" for s in vocabulary.senses_of(k))]
    said = all(
        k in colours
        or (not k.isdecimal() and all(s.group == "filler" for s in vocabulary.senses_of(k)))
        for k in keys
    )
    counted = [int(s.value) for s in senses if s.group == "number"]
    counted += [int(last)] if last.isdecimal() else []
    counts = any(leads(s) for s in senses) or (len(colours) >= 3 and len(colours) in counted)
    return counts and bool(colours) and said


def _describes(found: re.Match[str]) -> bool:
    """Whether a bracket says what a card costs or is worth, with no move word and nothing
    said not or maybe ("… sem gefur eitt stig (kostar 4 rauða)", "(tiun, kiu kostas 1 bluan,
    4 verdajn…)"), after a card said by what it is like, not by its id ("2-25 (svarta
    spilið, 1 stig)": a sentence of its own): part of the sentence that names the card."""
    vocabulary = reading_words()
    before = WORD.findall(found.string[: found.start()])
    if before and card_word(fold(before[-1])):
        return False
    keys = [fold(word) for word in WORD.findall(found.group(1))]
    kinds: set[str] = set().union(*(grammar_kinds(k, vocabulary) for k in keys))
    moving = any(leads(s) for k in keys for s in vocabulary.senses_of(k))
    saying = kinds & {"cost", "points"} and not kinds & {"negations", "doubts", "other"}
    known = all(  # (every word one the reader knows: not "(the other one costs…, too much)")
        k.isdecimal() or vocabulary.senses_of(k) or grammar_kinds(k, vocabulary) for k in keys
    )
    return bool(saying) and known and not moving


#: Where a clause of a sentence ends: a comma, a colon, a dash between words.
_CLAUSE_END = re.compile(r"[,:\u2013\u2014]|\s-\s")


def clauses_of(sentence: str) -> list[str]:
    """The clauses of a sentence: its parts between commas, colons and dashes, and before a
    word that says what follows from what went before (its language's ``so``: "…, so I'll
    take two"), that gives a reason (``because``: "… because there are four left") or that
    turns from chat to the game (``anyway``: "…haha en allavega ég tek frá…")."""
    return list(_clauses_in(sentence, locale_folder()))


@functools.lru_cache(maxsize=4096)
def _clauses_in(sentence: str, folder: Path) -> tuple[str, ...]:
    """:func:`clauses_of`, kept (every rule of a sentence looks at its clauses; the words of
    ``folder``'s languages)."""
    found: list[str] = []
    for clause in _CLAUSE_END.split(sentence):
        turns = (n for n in _said(clause, "anyway") if n > 0)
        at = sorted({*so_words(clause), *(n for n in because_words(clause) if n > 0), *turns})
        found += [clause[start:end] for start, end in itertools.pairwise([0, *at, len(clause)])]
    return tuple(c for c in found if c.strip())


def reasons_of(sentence: str) -> list[tuple[int, int]]:
    """Where each reason a sentence gives stands (start, end): from a word of its language's
    ``because`` ("because", "gan fod", "því að", "ĉar", "por ne", "কারণ") to the end of its
    clause ("…, kaj ĉar tiam mi havus dek du, mi redonas…"; "… por ne superi dek")."""
    found: list[tuple[int, int]] = []
    ends = [m.start() for m in _CLAUSE_END.finditer(sentence)]
    starts = because_words(sentence)
    for n, start in enumerate(starts):
        later = [e for e in [*ends, *starts[n + 1 :], *so_words(sentence)] if e > start]
        found.append((start, min(later, default=len(sentence))))
    return found


def so_words(text: str) -> list[int]:
    """Where each word (or phrase) of a language's ``so`` begins in ``text``, but the first."""
    return [at for at in _said(text, "so") if at > 0]


def because_words(text: str) -> list[int]:
    """Where each word (or phrase) of a language's ``because`` begins in ``text``."""
    return _said(text, "because")


def _said(text: str, kind: str) -> list[int]:
    """Where each word or phrase of the grammar ``kind`` begins in ``text``, in order (a word
    of it inside a phrase of another kind is not: "so" in "so far")."""
    return list(_said_in(text, kind, locale_folder()))


@functools.lru_cache(maxsize=8192)
def _said_in(text: str, kind: str, folder: Path) -> tuple[int, ...]:
    vocabulary = reading_words()
    words = list(WORD.finditer(text))
    keys = [fold(w.group()) for w in words]
    phrases = list(vocabulary.phrases_in(keys))
    other = {n for where, said in phrases if said != kind for n in where}  # ("so far")
    starts = {
        n for n, key in enumerate(keys) if kind in grammar_kinds(key, vocabulary) and n not in other
    }
    starts |= {where[0] for where, said in phrases if said == kind}
    return tuple(words[n].start() for n in sorted(starts))
