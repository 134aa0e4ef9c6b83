"""Finding the move in what people write: whole sentences, in any order their language puts
words, politeness and all (docs/notation.md, "Sentences").

The notation (:mod:`referee.notation`) reads a move written as a move: its action first
(``take red green blue``). People write sentences: "Hi all, I'll take a white, a blue and a
green, please", "Rwy'n cymryd dau goch", "Ég ætla að taka frá spil 2-05", "Mi aĉetos la
karton 1-23", "লাল, সবুজ আর নীল নিচ্ছি". This module finds the move in them.

A reply is cut into sentences (at ``.``, ``!``, ``?``, ``;``, a danda and line ends); each
word of a sentence is, in some language (every language is read at once, as the notation
reads them):

* a *move word*: an action (take, reserve, buy, pass, resign) or what may follow one
  (return, pay, noble), in any of its forms ("taking", "cymeraf", "prenos", "নিচ্ছি");
* an *argument*: a colour, a count (in digits, Bengali digits or words), a card, a deck, a
  noble, "nothing";
* *grammar*, which carries no move and is passed over: pronouns, helper verbs, polite words
  and greetings, articles, the game's nouns (card, token, gem, deck…), each language's
  ``[grammar]`` in its ``words.toml``; "a"/"an" counts one before a colour; "with" leads
  the payment of a buy;
* a word of *negation* or *doubt* (not, or, maybe, if…): a sentence that holds one is
  never played;
* or a word the reader does not know.

The arguments go with the move words: after each (the verb first, as English writes) or
before each (the verb last, as Bengali writes), whichever makes a move; with one move word,
all of them, on either side. A reading is *sure* when every word of its sentences is placed
and every way of reading them gives the same move; otherwise it is *unsure*, and the
referee asks the player whether it read them right rather than play it (never a guess).
Sentences without a move word are chat, passed over; a sentence that only follows a move
("Then I'll give back two greens") joins it.

Grammar is data: a sixth language adds its lists and endings to its ``words.toml``; nothing
here names a language. Where sentences and clauses end is :mod:`referee.sentence_parts`;
a sentence's text as it is read (words written joined taken apart, "2g", "kvinpoentan"),
:mod:`referee.sentence_text`; what each word is, :mod:`referee.sentence_words`; a card said
by what it is like, :mod:`referee.card_description`.

Pure: text in, a :class:`MoveReading` out.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from referee.card_description import (
    card_id,
    describing_kind,
    description,
    fits_card,
    is_describing,
    is_place_or_describing,
    ordinal_level,
    says_only_the_card,
)
from referee.engine.cards import CARDS
from referee.errors import InvalidMoveError
from referee.notation import (
    Action,
    Clause,
    MoveRequest,
    Word,
    card_word,
    description_of,
    number_of,
    reading_words,
    readings_of,
    request_of_clauses,
    tokens_said,
    written_words,
)
from referee.sentence_parts import (
    clauses_of,
    reasons_of,
    sentences_asking,
    sentences_of,
    so_words,
)
from referee.sentence_text import as_read, letters_with_a_b
from referee.sentence_words import (
    DECK,
    SOFT_ONE,
    grammar_kinds,
    is_colour,
    is_gem_colour,
    is_gold,
    is_number,
    is_soft,
    leads,
    says_nothing,
)
from referee.spoken_time import time_words
from referee.wording.vocabulary import (
    WORD,
    Group,
    ReadingVocabulary,
    Sense,
    accented_latin,
    fold,
    locale_folder,
)

#: A count written with a times sign: ``x2``, ``2x`` (and the sign itself, U+00D7).
_TIMES = re.compile("[x\u00d7](\\d)|(\\d)[x\u00d7]")
#: The most readings of one sentence that are tried (each word with two meanings doubles
#: them); the first ones, English's meanings first.
MOST_READINGS = 32
#: The most tokens a count in a move may be (a greater number is no count: "that puts me on
#: 12").
MOST_TOKENS = 7
#: The most sentences of a reply read for a move (a move is said in the first few).
MOST_SENTENCES = 40
#: The longest sentence read for a move (words); longer ones are chat.
LONGEST_SENTENCE = 60
#: The length (words) from which a sentence with a move word that says not or maybe whole
#: is read in pieces too: chat and the move in one run ("…, the washing won't dry, anyway,
#: I'll reserve the blue one…"; see _pieces_of_a_long_sentence).
RUN_ON = 25
#: The actions: the move words a move is one of (the others only follow one).
ACTIONS = ("take", "reserve", "buy", "pass", "resign")
#: How a sentence that only follows a move (a return, a payment, a noble) marks the request
#: it makes, to be joined to the move (its text starts so).
FOLLOWS = "\x00follows:"


@dataclass(frozen=True)
class Sentence:
    """One sentence, read: the move it holds (None: none), whether the reading is sure, the
    words it could not place, and whether it says not, or leaves a choice (``doubt``: the
    word that does)."""

    text: str
    request: MoveRequest | None = None
    sure: bool = False
    unplaced: tuple[str, ...] = ()
    doubt: str | None = None
    #: whether it has a move word at all (a sentence without one is chat)
    moving: bool = False
    #: what the notation says is wrong with it, when it has a move word but makes no move
    refusal: InvalidMoveError | None = None
    #: whether its move is a list of colours alone, taken to be a take ("Blue, green and red
    #: for me"): never sure
    bare: bool = False
    #: whether it names colours or cards: beside a move, a sentence that does and has no move
    #: word of its own may say part of the move in words the reader does not know
    naming: bool = False
    #: whether it asks (ends in a question mark)
    asks: bool = False
    #: whether it tells of a move rather than makes one ("I just took a black"; see _telling)
    told: bool = False
    #: whether it was said in brackets after the sentence it stood in
    aside: bool = False
    #: whether it takes back what went before, then says a move ("Actually no, scratch that,
    #: I'd rather…: white, green and black"): the moves said before it are not made
    withdraws: bool = False


@dataclass(frozen=True)
class MoveReading:
    """What the sentences of a reply say, together: the move (None: none), whether it is
    sure, the sentences that made it, and why it cannot be played when it has move words but
    makes no move or more than one (``trouble``)."""

    request: MoveRequest | None = None
    sure: bool = False
    sentences: tuple[Sentence, ...] = ()
    trouble: InvalidMoveError | None = None
    #: the words of its sentences it could not place
    unplaced: tuple[str, ...] = field(default=(), compare=False)

    @property
    def moving(self) -> bool:
        """Whether any sentence holds a move word."""
        return any(s.moving for s in self.sentences)


def read_move(text: str) -> MoveReading:
    """The move that the sentences of ``text`` say, if they say one; a move put right after a
    clause that only says so (see :func:`_corrected`) as it was put right, asked about."""
    unquoted = _QUOTED.sub(" ", text)
    if unquoted != text:  # (what a quotation says is another's words: the rules, a player)
        rest = read_move(unquoted)
        if rest.moving:
            return replace(rest, sure=False)
    reading = _read_move(text)
    corrected, marked, unresolved = _corrected(text)
    if unresolved is not None and corrected is None:  # ("take 2 red. wait, I mean blue":
        unsure = InvalidMoveError.of("notation.not_sure", word=unresolved).about(text)
        return MoveReading(None, False, reading.sentences, unsure, reading.unplaced)  # never
        # the move taken back, never a guess at the one meant)
    if corrected is None or corrected == reading.request:  # (a move said, then "sorry",
        marked = marked or (reading.sure and _sorry_after_a_move(text))  # "I mean": asked)
        return replace(reading, sure=False) if marked else reading
    return MoveReading(corrected, False, reading.sentences, None, reading.unplaced)


#: A quotation in double quotation marks, as each language writes them ("…", “…”, „…“,
#: «…»): beside a move word of the writer's own, it is not the move ("The rules say: "Take 2
#: gem tokens of one colour…" — so 2 green for me").
_QUOTED = re.compile(
    '"[^"\n]{3,}"|\u201c[^\u201d\n]{3,}\u201d|\u201e[^\u201c\u201d\n]{3,}[\u201c\u201d]|\u00ab[^\u00bb\n]{3,}\u00bb'
)


def _sorry_after_a_move(text: str) -> bool:
    """Whether a word that may put a move right ("sorry", "I mean", "úps": its language's
    ``correcting`` or ``withdrawing``) stands in a clause that names something, after one
    with a move word ("take red blue - I mean green"; not "… Sorry for the delay")."""
    vocabulary = reading_words()
    moved = False
    for sentence, _, _ in sentences_asking(text)[:MOST_SENTENCES]:
        for clause in clauses_of(sentence):
            placed = _first_placed(clause, vocabulary)
            righting = bool(_kinds_said(clause, vocabulary) & _RIGHTING)
            if moved and righting and any(p.role == "argument" for p in placed):
                return True
            moved = moved or any(p.role == "head" for p in placed)
    return False


def _read_move(text: str) -> MoveReading:
    read: list[Sentence] = []
    written = [
        (part, asks, aside)
        for sentence, asks, aside in sentences_asking(text)
        for part in _returns_apart(sentence)
    ]
    for sentence, asks, aside in written[:MOST_SENTENCES]:
        length = len(WORD.findall(sentence))
        whole = read_sentence(sentence, asks) if length <= LONGEST_SENTENCE else None
        if whole is not None and (length <= RUN_ON or whole.doubt is None or not whole.moving):
            read.append(replace(whole, asks=asks, aside=aside))
            continue
        for piece in _pieces_of_a_long_sentence(sentence):  # (never sure)
            read.append(replace(read_sentence(piece, asks), asks=asks, aside=aside, sure=False))
    for n in range(1, len(read)):  # ("…the green card on level 1. I'll buy that one.")
        said = [  # (past a bracket; and colours alone, but a card named with its colour)
            s
            for s in read[:n]
            if not s.aside and (not s.bare or (s.request is not None and s.request.card))
        ]
        read[n] = _card_said_before(read[n], said[-1] if said else None) or read[n]
    at = {id(s): n for n, s in enumerate(read)}
    moving = [s for s in read if s.moving]
    bare = [s for s in read if s.bare and not (s.aside and moving)]  # (a bracket's colours
    # beside a move word are not a take of their own: "…, return 2 (white, black)")
    if bare and all(_only_follows(s.request) or s.told for s in moving if s.request is not None):
        moving = sorted([*moving, bare[0]], key=lambda s: at[id(s)])  # colours, then a return
    if not moving:
        return MoveReading(sentences=tuple(read))
    unplaced = tuple(w for s in moving for w in s.unplaced)
    sure_first = next((at[id(s)] for s in moving if s.doubt is None and s.request), len(read))
    musing = [  # (said, or asked, before the move: "Bo says I should reserve 3-13. …")
        s for s in moving if s.doubt is not None and (s.request is None or at[id(s)] < sure_first)
    ]
    first = next((at[id(s)] for s in moving if s.request is not None), len(read))
    if musing and len(musing) < len(moving):  # "…whether I should reserve something. I'll
        # take …"; not one after a move that names what it is about ("… NOT the two greens")
        moving = [
            s
            for s in moving
            if s not in musing or (s.request is None and s.naming and at[id(s)] > first)
        ]
    wondering = _asked_of_the_move(moving, at)
    moving = [s for s in moving if s not in wondering]
    doubt = next((s for s in moving if s.doubt is not None), None)
    if doubt is not None:  # "I won't take red", "red or blue": never read, never offered
        assert doubt.doubt is not None
        unsure = InvalidMoveError.of("notation.not_sure", word=doubt.doubt).about(doubt.text)
        return MoveReading(None, False, tuple(read), unsure, unplaced)
    requests = [s for s in moving if s.request is not None]
    questions = [s for s in requests if s.asks and _only_follows(s.request)]
    if questions and len(questions) < len(requests):  # ("Buy 1-23. … Fer gullið þá aftur í
        # bankann eftir að ég nota það?": a question of the rules, not a return; asked about)
        requests = [s for s in requests if s not in questions]
    again = [at[id(s)] for s in requests if s.withdraws and not s.aside]
    if again:  # ("Take 2 green. Actually no, scratch that: white, green and black")
        requests = [s for s in requests if at[id(s)] >= max(again)]
    if not requests:
        trouble = next((s.refusal for s in moving if s.refusal is not None), None)
        return MoveReading(None, False, tuple(read), trouble or _no_move(moving[0].text), unplaced)
    if all(_only_follows(s.request) for s in requests):  # "give back two greens", no action
        return MoveReading(None, False, tuple(read), _no_move(requests[0].text), unplaced)
    merged = _merged(requests)
    making = [s for s in requests if not s.told]
    told_apart = merged is None and 0 < len(making) < len(requests)
    if told_apart:  # "… (yes, black: I know I just took one)": what a sentence tells of is
        merged = _merged(making)  # no move of its own beside one made (asked about)
        requests = making if merged is not None else requests
    withdrawn = [at[id(s)] for s in read if s.doubt is not None and s.request is None]
    later = [s for s in requests if withdrawn and at[id(s)] > max(withdrawn)]
    taken_over = merged is None and 0 < len(later) < len(requests)
    taken_over = taken_over and any(_says_instead(s.text) for s in later)
    if taken_over:  # "Take 2 green. No wait, scratch that… Buy 1-23 instead": the move said
        merged = _merged(later)  # instead, after what takes the first back (asked about)
        requests = later if merged is not None else requests
    if merged is None:
        actions = [s.request.action for s in requests if s.request is not None]
        both = " / ".join(s.text for s in requests)
        trouble = InvalidMoveError.of("notation.one_at_a_time", actions=actions).about(both)
        return MoveReading(None, False, tuple(read), trouble, unplaced)
    in_move = {id(s) for s in moving}
    others = [s for s in read if id(s) not in in_move]
    unfinished = any(s.request is None for s in moving)  # a move word that made nothing
    loose = any(s.naming for s in others)  # "…; mi remetas unu blankan"
    taken_back = any(s.doubt is not None for s in others)  # "… Just kidding!", "… Or not."
    sure = all(s.sure and not s.bare for s in requests) and not unfinished and not loose
    sure = sure and not told_apart and not taken_over
    sure = sure and not musing and not taken_back and merged.action not in ("pass", "resign")
    sure = sure and not questions and not wondering
    paid = any(_gold_paying(s.request, merged) for s in requests if s.request is not None)
    sure = sure and not paid  # (tokens with gold, read as the buy's payment)
    return MoveReading(merged, sure, tuple(read), None, unplaced)


def _asked_of_the_move(moving: list[Sentence], at: dict[int, int]) -> list[Sentence]:
    """The questions after a move that say not of that move only, or of the gold its reserve
    brings ("Ég tek frá bláa spilið á stigi tvö. Fæ ég ekki gull með því?"): questions of
    the rules beside it, not a move of their own (it is asked about). One that says "or"
    leaves a choice ("Take 2 green. Or should I not?"): never read."""
    made = next((s for s in moving if s.request and s.doubt is None and not s.asks), None)
    if made is None or made.request is None:
        return []
    move = made.request
    return [
        s
        for s in moving
        if s.asks
        and s.doubt is not None
        and "negations" in grammar_kinds(fold(s.doubt), reading_words())  # (not "or")
        and at[id(s)] > at[id(made)]
        and (s.request is None or s.request == move or _gold_of_a_reserve(s.request, move))
    ]


def _pieces_of_a_long_sentence(sentence: str) -> list[str]:
    """A sentence too long to read whole, or long and saying not or maybe whole (news, banter
    and the move in one run: "…, anyway I'll just reserve the top of the level 1 deck, and…")
    in pieces: each run of clauses that have a move word, or name something and hold no word
    the reader does not know, together ("blankan, ruĝan kaj nigran mi prenas"); each other
    clause alone. Read so, it is never sure."""
    vocabulary = reading_words()
    pieces: list[str] = []
    run: list[str] = []
    for clause in clauses_of(sentence):
        roles = {p.role for p in _first_placed(clause, vocabulary)}
        if "head" in roles or ("argument" in roles and "unknown" not in roles):
            run.append(clause.strip())
            continue
        if run:
            pieces.append(", ".join(run))
            run = []
        pieces.append(clause.strip())
    if run:
        pieces.append(", ".join(run))
    return [p for p in pieces if len(WORD.findall(p)) <= LONGEST_SENTENCE]


def _corrected(text: str) -> tuple[MoveRequest | None, bool, str | None]:
    """A move said, then put right after a clause that only says so, with no move word and
    nothing a move names (its language's ``correcting``, ``withdrawing`` or a "no": "take
    white red black - sorry, blue not white. So blue, red, black"; "Tek frá 3-13... nei
    afsakið, 3-12"; "… ফেরত দিচ্ছি দুটো সবুজ... উফ না, একটা সবুজ আর একটা কালো ফেরত দিচ্ছি"): the move
    as the first part after that clause which says one of its own puts it (see
    :func:`_put_right`); None when no such clause follows a move, or none puts it right.
    And whether such a clause follows a move, with more after it (then nothing is sure), and
    that clause when what follows it names colours or cards but puts nothing right whole
    (then no move is read: "take 2 red. wait, I mean blue")."""
    vocabulary = reading_words()
    if not _kinds_said(text, vocabulary) & (_RIGHTING | {"negations"}):
        return None, False, None  # (most say no such word: looked for first)
    sentences = [s for s, _, _ in sentences_asking(text)][:MOST_SENTENCES]
    for n, sentence in enumerate(sentences):
        clauses = clauses_of(sentence)
        for m, clause in enumerate(clauses):
            led = _righting_lead(clause, vocabulary)
            if led is None and not _puts_right(clause, vocabulary):
                continue
            before = read_move(". ".join([*sentences[:n], ", ".join(clauses[:m])]))
            if before.request is None or before.trouble is not None:
                continue
            if led is not None:  # ("Take 2 green. I mean 2 black": the words that put it
                if not before.sure:  # (a move said plainly: not "…মানে কালো বোনাসটাই…", that
                    continue  # means, in a reasoning)
                if before.request.action != "take" and not _moving_or_a_card(led[1]):
                    continue  # right, then what they put; after a buy, colours alone are
                clauses = [*clauses[:m], *led, *clauses[m + 1 :]]  # its payment: "মানে ১
                clause = led[0]  # সাদা ১ নীল…", that is)
            rest = ", ".join(c.strip() for c in clauses[m + 1 :])
            after = [p for p in [rest, *sentences[n + 1 :]] if p.strip()]
            fixed = _put_right(before.request, rest, sentences[n + 1 :])
            named = fixed is None and any(_names_again(p, vocabulary) for p in after)
            return fixed, bool(after), clause.strip() if named else None
    return None, False, None


def _moving_or_a_card(text: str) -> bool:
    """Whether a text has a move word, or names a card by its id."""
    placed = _first_placed(text, reading_words())
    return any(p.role == "head" or card_word(p.word.key) == "card" for p in placed)


def _righting_lead(clause: str, vocabulary: ReadingVocabulary) -> tuple[str, str] | None:
    """A clause that begins with words that only say that what follows puts right what went
    before, one of them its language's ``correcting`` or ``withdrawing`` ("I mean 2 black",
    "nei afsakið, 3-12"; not "Mi ne ŝatas la nigrajn"), split there: those words, and the
    rest. None when it does not so begin, or has nothing after them."""
    placed = _first_placed(clause, vocabulary)
    lead = 0
    while lead < len(placed) and placed[lead].role in ("negation", "doubt", "grammar"):
        lead += 1
    if lead == 0 or lead == len(placed):
        return None
    start = 0
    for p in placed[:lead]:  # (where the words after the lead begin, as written)
        start = clause.casefold().find(p.word.written.casefold(), start) + len(p.word.written)
    first, rest = clause[:start], clause[start:].strip(" ,;:-")
    if (
        not rest
        or not _puts_right(first, vocabulary)
        or not _kinds_said(first, vocabulary) & _RIGHTING
    ):
        return None  # (a word that puts right, "I mean", "sorry": not a "no" alone)
    if not read_sentence(rest).naming:
        return None  # ("Pardonu la mallongecon…": sorry for what names nothing of a move)
    return first, rest


def _names_again(part: str, vocabulary: ReadingVocabulary) -> bool:
    """Whether a part after a "sorry" names colours or cards of the writer's own ("I mean
    blue"; not "I know you wanted the green one", said to another, nor what was)."""
    placed = _first_placed(part, vocabulary)
    if _says_you(placed, vocabulary) or any(p.role == "telling" for p in placed):
        return False
    return read_sentence(part).naming


def _puts_right(clause: str, vocabulary: ReadingVocabulary) -> bool:
    """Whether a clause only says that what follows puts right what went before ("sorry",
    "wait, no", "nei afsakið", "o na", "উফ না"): no move word, nothing a move names, no word
    of doubt but one that so says ("or", "maybe" leave a choice), and one such word."""
    placed = _first_placed(clause, vocabulary)
    if not placed or not {p.role for p in placed} <= {"negation", "doubt", "grammar"}:
        return False
    keys = [p.word.key for p in placed]
    if any("other" in grammar_kinds(k, vocabulary) for k in keys):
        return False  # ("…, nid y llall", "অন্যটা না": not the other card, no correction)
    phrased = {n for where, kind in vocabulary.phrases_in(keys) for n in where if kind in _RIGHTING}
    righting = {
        n
        for n, key in enumerate(keys)
        if n in phrased or grammar_kinds(key, vocabulary) & _RIGHTING
    }
    reason = any(grammar_kinds(k, vocabulary) & {"because", "so"} for k in keys)
    if reason and not righting:
        return False  # ("…, kaj ĉar mi ne volas, ke…": a reason that says not, no correction)
    doubting = {n for n, p in enumerate(placed) if p.role == "doubt"}
    says_no = any(p.role == "negation" for p in placed)
    return doubting <= righting and (says_no or bool(righting))


#: The kinds of ``[grammar]`` word that say what follows puts right what went before.
_RIGHTING = frozenset({"correcting", "withdrawing"})


def _put_right(said: MoveRequest, rest: str, sentences: list[str]) -> MoveRequest | None:
    """``said`` as the first part of what follows that says a move of its own puts it: a
    whole move in its place (colours alone only when they are a take whole: "…, green" alone
    is a colour of it, never read); a return in place of its return; a card alone in place
    of its card ("…, 3-12"). What the parts after it say must agree with it. None when no
    part says one."""
    parts = [p for p in [rest, *sentences] if p.strip()]
    for k, part in enumerate(parts):
        found, clean = _righting_request(said, part)
        if not clean and k == 0:  # (the rest of its sentence, clause by clause, when it is
            # not all read: "…, I mean putting back 2 white, I want to keep the blacks")
            each = (_righting_request(said, c, alone=False) for c in clauses_of(part))
            found = next((r for r, whole in each if r is not None and whole), found)
        if found is None:
            continue
        fixed = _in_place_of(said, found)
        if fixed is None:
            return None
        later = [read_sentence(p) for p in parts[k + 1 :]]
        agreeing = [s for s in later if s.request is not None and s.doubt is None and not s.told]
        return _merged([Sentence("", fixed), *agreeing])
    return None


def _righting_request(
    said: MoveRequest, part: str, alone: bool = True
) -> tuple[MoveRequest | None, bool]:
    """The move a part of a correction says, alone or (a card said alone, "3-12, græna fimm
    stiga spilið") with the action of the move it puts right, and whether every word of it
    was placed; None when it says none, or says not, or maybe, or tells of another's, or is
    colours alone in a clause that is not the part ``alone`` ("…: white, green and black")."""
    sentence = read_sentence(part)
    if sentence.doubt is not None or sentence.told:
        return None, False
    if sentence.request is None and sentence.naming and not sentence.moving:
        if said.action not in ("buy", "reserve"):
            return None, False
        sentence = read_sentence(f"{said.action} {part}")
        if sentence.doubt is not None or sentence.told:
            return None, False
    request = sentence.request
    if request is None:
        return None, False
    gems = request.gems or (0,) * 6
    told = any(p.role == "telling" for p in _first_placed(part, reading_words()))
    if sentence.bare and (not alone or told or sentence.unplaced or gems[-1] or sum(gems) < 2):
        return None, False  # (colours alone, only when they are a take whole: "So blue, red,
        # black"; not "Bob has 4 blue already")
    return request, not sentence.unplaced


def _in_place_of(said: MoveRequest, found: MoveRequest) -> MoveRequest | None:
    """``said`` put right by ``found``: a return in place of its return (or added to it), a
    move in place of it (keeping the return of a take put right by a take that says none)."""
    if _only_follows(found):
        return _joined(replace(said, returned=None) if found.returned else said, found)
    if _gold_of_a_reserve(found, said):
        return None  # ("Reserve 3-12 - sorry Bo - and the gold, please": no correction)
    if found.action == said.action == "take" and found.returned is None:
        return replace(found, returned=said.returned)
    return found


def _says_instead(text: str) -> bool:
    """Whether a sentence says its move is in place of another ("Buy 1-23 instead", "yn
    lle", "í staðinn", "frekar")."""
    placed = _first_placed(text, reading_words())
    return any(p.role in ("instead", "instead_after", "rather") for p in placed)


def _no_move(text: str) -> InvalidMoveError:
    return InvalidMoveError.of("notation.no_action").about(text)


def _merged(sentences: list[Sentence]) -> MoveRequest | None:
    """The one move that the sentences' moves make together: one action (said once, or the
    same said again), with what the sentences that only follow it add (a return, a noble, a
    payment). None when they say two different moves."""
    action: MoveRequest | None = None
    extras: list[MoveRequest] = []
    for sentence in sentences:
        request = sentence.request
        assert request is not None
        if _only_follows(request):
            extras.append(request)
            continue
        if _gold_of_a_reserve(request, action):
            continue
        if action is not None and _gold_of_a_reserve(action, request):
            action = request
            continue
        if _gold_paying(request, action):
            extras.append(_gold_of_the_payment(request))
            continue
        if action is not None and _gold_paying(action, request):
            extras.append(_gold_of_the_payment(action))
            action = request
            continue
        if action is None:
            action = request
        elif _without_extras(request) != _without_extras(action):
            return None
        else:
            extras.append(request)
    if action is None:
        return None
    for extra in extras:
        action = _joined(action, extra)
        if action is None:
            return None
    return action


def _gold_of_a_reserve(request: MoveRequest, action: MoveRequest | None) -> bool:
    """Whether ``request`` is only the gold that comes with reserving ("reserve 3-12 and take
    a gold"), beside the reserve ``action``."""
    return (
        action is not None
        and action.action == "reserve"
        and request.action == "take"
        and request.gems is not None
        and request.gems[:5] == (0, 0, 0, 0, 0)
        and request.gems[5] <= 1
    )


def _gold_paying(request: MoveRequest, action: MoveRequest | None) -> bool:
    """Whether ``request``, beside the buy ``action``, is tokens with gold among them that
    read as a take ("একটা সাদা, একটা নীল আর সোনাটা দিয়ে দাম দেব"; "Gwyn, glas, gwyrdd +
    aur yn lle'r coch"): gold is never taken, so they say how the buy is paid (asked about,
    never played at once)."""
    return (
        action is not None
        and action.action == "buy"
        and request.action == "take"
        and request.gems is not None
        and request.gems[5] >= 1
        and request.returned is None
        and request.noble is None
    )


def _gold_of_the_payment(request: MoveRequest) -> MoveRequest:
    """Tokens with gold that say how a buy is paid: the payment whole ("white, blue, green
    and gold") or what the gold stands in for ("gold covers the red"), the position tells
    (notation); the reading is asked about, with the payment written out."""
    return MoveRequest("pass", gold_paying=request.gems, text=request.text)


def _only_follows(request: MoveRequest | None) -> bool:
    """Whether a request is only what follows a move (return, pay, noble), with no action of
    its own: the reader makes such a sentence a pass with those parts (see read_sentence)."""
    return request is not None and request.text is not None and request.text.startswith(FOLLOWS)


def _without_extras(request: MoveRequest) -> MoveRequest:
    return replace(request, returned=None, noble=None, pay=None, gold_paying=None, text=None)


def _joined(action: MoveRequest, extra: MoveRequest) -> MoveRequest | None:
    """``action`` with the parts ``extra`` adds; None when they say different things (or a
    payment beside what is not a buy)."""
    if extra.pay is not None and action.action != "buy":
        return None
    joined = action
    for part in ("returned", "noble", "pay", "gold_paying"):
        mine, theirs = getattr(action, part), getattr(extra, part)
        if theirs is None:
            continue
        if mine is not None and mine != theirs:
            return None
        joined = replace(joined, **{part: theirs})
    return joined


# ---------------------------------------------------------------------------------------------
# One sentence


@dataclass(frozen=True, slots=True)
class _Placed:
    """A word of one reading of a sentence, placed: ``role`` head (a move word), argument,
    with (the payment's word of a buy), one (a count of one before a colour), grammar,
    negation, doubt or unknown."""

    word: Word
    role: str


def read_sentence(text: str, asks: bool = False) -> Sentence:
    """The move one sentence holds, if any (see the module's rules); a sentence that
    ``asks`` (a question: "Could I reserve 3-01?", "Should I take 2 green?") is never sure."""
    vocabulary = reading_words()
    text_read, shorthand = as_read(text)  # (shorthand, "2g", "L3": read, never at once)
    written = written_words(text_read)
    if not written or len(written) > LONGEST_SENTENCE:
        return Sentence(text)
    if letters_with_a_b(text_read):  # ("b/r/k": blue, or black? never guessed)
        ambiguous = InvalidMoveError.of("notation.b_is_ambiguous").about(text)
        return Sentence(text, moving=True, refusal=ambiguous)
    chosen = itertools.islice(readings_of(written), MOST_READINGS)
    readings = [_placed(words, vocabulary) for words in chosen]
    moving = any(p.role == "head" for placed in readings for p in placed)
    first = readings[0]
    typos = any(p.role == "typo" for p in first)
    doubt = next((p.word.written for p in first if p.role in ("negation", "doubt")), None)
    naming = any(
        p.role == "argument" and (is_colour(p.word) or card_word(p.word.key)) for p in first
    )
    told_to = _without_what_is_told_another(text, vocabulary) if doubt is not None else None
    if told_to == "":  # ("Bo, don't you dare nick the last blues"): no move, but what it
        # names leaves the move beside it asked about
        return Sentence(text, unplaced=tuple(p.word.written for p in first), naming=naming)
    if told_to is not None:  # ("Bo, you won't believe it, but I'm taking…"): the rest, asked
        moved = read_sentence(told_to, asks)
        if moved.request is not None:
            return replace(moved, text=text, sure=False)
    aside = doubt is not None and moving and _only_aside(text, vocabulary)
    if aside:  # "Mi prenus blankan, ruĝan kaj nigran, se tio eblas": asked, never played at once
        doubt = None
    reason = _after_the_reason(text, vocabulary) if moving else None
    reason = reason or (_without_the_reasons(text, vocabulary) if moving else None)
    reason = reason or (_without_loose_counts(text, vocabulary) if moving else None)
    if reason is not None:  # (the reason is not the move: asked about)
        moved = read_sentence(reason, asks)
        if moved.request is not None:
            return replace(moved, text=text, sure=False)
        if not moved.moving and moved.doubt is None:  # ("…, do mi ne devas redoni ion ajn"):
            return replace(moved, text=text)  # what follows the reason says no move
    again = _after_taking_back(text, vocabulary) if doubt is not None and not asks else None
    if again is not None:  # ("Actually no, scratch that, I'd rather…: white, green, black")
        moved = read_sentence(again, asks)
        told_of = moved.told or _telling(_first_placed(again, vocabulary))  # ("…, it said…")
        if moved.request is not None and moved.doubt is None and not told_of:
            if _only_follows(moved.request):  # ("Oops, and return one white": a return
                return replace(moved, text=text, sure=False)  # added, not the move taken back)
            return replace(moved, text=text, sure=False, withdraws=True, moving=True, bare=False)
    kept = _without_denied(text, vocabulary) if doubt is not None and moving else None
    if kept is not None:  # "Buy 1-23 instead please, NOT the two greens": the move, asked
        moved = read_sentence(kept, asks)
        if moved.request is not None and moved.doubt is None:
            return replace(moved, text=text, sure=False)
    unplaced = tuple(p.word.written for p in first if p.role == "unknown")
    requests: list[MoveRequest] = []
    refusal: InvalidMoveError | None = None
    several = False  # whether one reading's arguments went with its move words two ways
    guessed = False  # whether a reading took a list of colours before a return for a take
    for placed in readings:
        found, err, taken = _requests(placed, text, vocabulary)
        several = several or len(found) > 1
        guessed = guessed or (taken and bool(found))
        mixed = not _one_language(placed, vocabulary)
        for request in found:
            request = replace(request, mixed=mixed)
            if request not in requests:
                requests.append(request)
        refusal = refusal or err
    if requests and all(_returns_nothing(r) for r in requests):  # "so nothing to give back"
        return Sentence(text, unplaced=unplaced)  # (what a move returns unless it says more)
    held_only = aside or all(_gold_alone(r.returned) for r in requests)
    if requests and all(map(_only_follows, requests)) and _nothing_back(text) and held_only:
        return Sentence(text, unplaced=unplaced)  # ("…, কিছু ফেরত দিতে হবে না"; "With the
        # gold I have 10, no discards needed": the gold held, nothing given back)
    if not requests and not moving and doubt is None:
        whole = [r for r in readings if _one_language(r, vocabulary)]
        if not whole:  # (no one language writes it: Icelandic "verð" typed "verd" is not
            return Sentence(text, unplaced=unplaced, naming=naming)  # Esperanto's green)
        return replace(_bare(text, whole[0], unplaced), naming=naming)
    if not requests:
        apart = _payment_apart(text, asks) if doubt is None and refusal is not None else None
        if apart is not None:
            return replace(apart, naming=naming)
        return Sentence(text, None, False, unplaced, doubt, moving, refusal, naming=naming)
    best = [r for r in requests if not r.mixed] or requests
    request = best[0] if len(best) == 1 else replace(best[0], others=tuple(best[1:]))
    card_taken = _card_taken(request, first, vocabulary)
    request = card_taken or request  # ("I'll take the green card": a buy of it, asked)
    sure = len(best) == 1 and not several and not unplaced and doubt is None and not asks
    sure = sure and not aside and not _repeated(first)
    told = _telling(first) or _says_you(first, vocabulary)
    sure = sure and not request.mixed  # (no one language writes all its words)
    sure = sure and not guessed and not typos and not any(p.role == "unsaid" for p in first)
    sure = sure and not any(p.role in ("instead", "instead_after", "rather") for p in first)
    # (a card named by its colour, or as the one in the hand: which one is asked)
    named = request.card is not None or request.deck is not None
    sure = sure and (named or request.action not in ("buy", "reserve"))
    sure = sure and not told and not shorthand and card_taken is None
    return Sentence(text, request, sure, unplaced, doubt, moving, naming=naming, told=told)


def _card_taken(
    request: MoveRequest, placed: list[_Placed], vocabulary: ReadingVocabulary
) -> MoveRequest | None:
    """A take that names a card by its colour (``[grammar] card`` beside the colour): a card
    is bought, never taken as a token. One token of that colour alone ("take the green
    card", "Ég tek græna kortið") is a buy of the card of that colour; beside others ("take
    red blue for the black card") the card's colour is no token of the take. Either is asked
    about. None when no card is named so."""
    gems = request.gems
    if request.action != "take" or gems is None or request.others:
        return None
    cards = [
        n
        for n, p in enumerate(placed)
        if p.role not in ("head", "argument") and "card" in grammar_kinds(p.word.key, vocabulary)
    ]
    named = [
        p.word.sense.value
        for n, p in enumerate(placed)
        if p.role == "argument"
        and is_gem_colour(p.word)
        and p.word.sense is not None
        and any(abs(n - at) <= CARD_BESIDE for at in cards)
    ]
    if len(named) != 1:
        return None  # ("Taking one red, I need it for the card": not the red card)
    colour = int(named[0])
    if sum(gems) == 1 and gems[colour] == 1 and request.returned is None:
        return replace(MoveRequest("buy", text=request.text), bonus=colour)
    if gems[colour] == 0:
        return None
    white, blue, green, red, black, gold = (n - (kind == colour) for kind, n in enumerate(gems))
    return replace(request, gems=(white, blue, green, red, black, gold))


#: How far from its colour a word for a card may stand ("the green card", "y cerdyn gwyrdd",
#: "græna kortið", "সবুজ কার্ডটা"; past an article: "cerdyn y coch").
CARD_BESIDE = 2


def _payment_apart(text: str, asks: bool) -> Sentence | None:
    """A buy and the gold of its payment said in clauses of one sentence that reads as no
    move whole ("buy the card I reserved, gold covers the red"; "Prynu'r cerdyn du, aur am y
    coch"), read clause by clause: the buy, with the gold its payment uses; asked about."""
    clauses = clauses_of(text)
    if len(clauses) < 2:
        return None
    read = [read_sentence(clause, asks) for clause in clauses]
    requests = [s.request for s in read if s.request is not None]
    buys = [r for r in requests if r.action == "buy"]
    if len(buys) != 1 or len(requests) < 2 or any(s.doubt is not None for s in read):
        return None
    if not all(r is buys[0] or _gold_paying(r, buys[0]) or _only_follows(r) for r in requests):
        return None
    merged = _merged([s for s in read if s.request is not None])
    if merged is None:
        return None
    unplaced = tuple(w for s in read for w in s.unplaced)
    return Sentence(text, merged, False, unplaced, None, True)


def _gold_alone(returned: tuple[int, ...] | None) -> bool:
    """Whether a return is of gold and nothing else."""
    return returned is not None and returned[-1] > 0 and not any(returned[:-1])


def _returns_nothing(request: MoveRequest) -> bool:
    """Whether a request only says that nothing is returned ("dim byd i'w roi'n ôl")."""
    return (
        _only_follows(request)
        and request.returned == (0, 0, 0, 0, 0, 0)
        and request.noble is None
        and request.pay is None
    )


def _after_the_reason(text: str, vocabulary: ReadingVocabulary) -> str | None:
    """What a sentence says after the reason it gives first, when the reason has no move
    word and names no colour but those that what follows its ``so`` takes, or what follows
    names colours of its own ("Estas ankoraŭ kvar
    verdaj en la banko, do mi prenas du verdajn"; "ব্যাংকে এখনো চারটে সবুজ আছে, তাই আমি
    দুটো সবুজ নিচ্ছি"): None when it says no such thing."""
    at = so_words(text)
    if not at:
        return None
    before, after = text[: at[-1]], text[at[-1] :]
    placed = _first_placed(before, vocabulary)
    if any(p.role == "head" for p in placed):
        return None
    colours = {p.word.sense.value for p in placed if p.word.sense and is_gem_colour(p.word)}
    then = _first_placed(after, vocabulary)
    if {str(p.word.head) for p in then if p.role == "head"} == {"resign"}:
        return after  # (a resignation names no colour: "…mi ne plu vidas ŝancon, do mi cedas")
    taken = {p.word.sense.value for p in then if p.word.sense and is_colour(p.word)}
    acting = {str(p.word.head) for p in then if p.role == "head"} & {"take", "reserve", "buy"}
    stated = any(p.role == "unknown" for p in placed)  # (a reason says more than colours:
    # "White, blue, black - so next turn I buy 1-23" is the take, then its purpose)
    own = bool(taken) and bool(acting) and stated and not colours & taken
    return after if colours <= taken or own else None  # (the colours the move takes, if it
    # names any; "there are two red left, so I'm taking white blue green": its own; not "Two
    # greens please, so I'll give back a red": a return follows the take)


def _after_taking_back(text: str, vocabulary: ReadingVocabulary) -> str | None:
    """What a sentence that begins by saying no or maybe ("Actually no, scratch that, I'd
    rather spread out: white, green and black") says after that, when it is a move with no
    word of doubt of its own; None otherwise."""
    clauses = clauses_of(text)
    last = None
    taking_back = False
    for n, clause in enumerate(clauses):
        roles = {p.role for p in _first_placed(clause, vocabulary)}
        if roles & {"head", "argument", "typo"}:
            break  # (only a sentence that begins by taking back: "red - no, 2 green" is not)
        if roles & {"negation", "doubt"} or _withdraws(clause, vocabulary):
            last = n
        # ("scratch that", "ignore that": its language's ``withdrawing``; not a "no" alone,
        # "অন্যটা না…", which denies, nor a "maybe" or "later": "Perhaps later, I'll reserve…")
        taking_back = taking_back or _withdraws(clause, vocabulary)
    if last is None or last == len(clauses) - 1 or not taking_back:
        return None
    rest = ", ".join(c.strip() for c in clauses[last + 1 :])
    roles = {p.role for p in _first_placed(rest, vocabulary)}
    return rest if "argument" in roles and not roles & {"negation", "doubt"} else None


def _withdraws(clause: str, vocabulary: ReadingVocabulary) -> bool:
    """Whether a clause has a word or phrase that takes back what went before."""
    return "withdrawing" in _kinds_said(clause, vocabulary)


def _kinds_said(text: str, vocabulary: ReadingVocabulary) -> set[str]:
    """The ``[grammar]`` kinds that the words of ``text`` say, each word alone or with the
    words of a phrase ("scratch that", "I mean")."""
    keys = [fold(w) for w in WORD.findall(text)]
    kinds = {kind for key in keys for kind in grammar_kinds(key, vocabulary)}
    return kinds | {kind for _, kind in vocabulary.phrases_in(keys)}


def _without_loose_counts(text: str, vocabulary: ReadingVocabulary) -> str | None:
    """A sentence without its clauses that say a count of something else, with words the
    reader does not know and nothing a move names ("Mi prenos du nigrajn ĵetonojn — la
    banko havas ankoraŭ kvar, do…": the bank's four, not the move's). None when it has no
    such clause, or what is left has no move word or says not (a maybe is read as ever)."""
    clauses = clauses_of(text)
    kept = []
    for clause in clauses:
        placed = _first_placed(clause, vocabulary)
        said = [p.word for p in placed if p.role == "argument"]
        roles = {p.role for p in placed}
        loose = bool(said) and all(is_number(w) and not card_word(w.key) for w in said)
        if not (loose and "unknown" in roles and not roles & {"head", "typo"}):
            kept.append(clause)
    if len(kept) == len(clauses) or not kept:
        return None
    left = ", ".join(c.strip() for c in kept)
    roles = {p.role for p in _first_placed(left, vocabulary)}
    return left if "head" in roles and "negation" not in roles else None


def _without_what_is_told_another(text: str, vocabulary: ReadingVocabulary) -> str | None:
    """A sentence without its clauses that say not to someone else, with a word of negation
    and a word for "you" ("Bo, don't you dare nick the last blues"; not a clause of "if"
    about a move: "if you take 2 red, I'll…"): empty when nothing a move says is left (told
    to another player: no move at all), None when it has no such clause."""
    kept, told = [], False
    for clause in clauses_of(text):
        placed = _first_placed(clause, vocabulary)
        if _says_you(placed, vocabulary) and any(p.role == "negation" for p in placed):
            told = True
        else:
            kept.append(clause.strip())
    if not told:
        return None
    left = ", ".join(kept)
    roles = {p.role for p in _first_placed(left, vocabulary)} if left else set()
    return left if roles & {"head", "argument"} else ""


def _says_you(placed: list[_Placed], vocabulary: ReadingVocabulary) -> bool:
    """Whether a sentence speaks to or of "you" (its language's ``[grammar] you``) outside a
    phrase ("could you", "thank you"): "You should take red green blue", "Ti'n cymryd dau
    goch" tell another's move, or advise; never played at once."""
    keys = [p.word.key for p in placed]
    phrased = {n for where, _ in vocabulary.phrases_in(keys) for n in where}
    return any(
        "you" in grammar_kinds(key, vocabulary) for n, key in enumerate(keys) if n not in phrased
    )


def _without_the_reasons(text: str, vocabulary: ReadingVocabulary) -> str | None:
    """A sentence without the reasons and purposes it gives ("hoffwn gymryd dau docyn du, gan
    fod pedwar ohonynt ar gael"; "mi redonas unu blankan kaj unu nigran por ne superi dek";
    "… i gadw at ddeg"): its counts, colours and verbs are not the move's. None when it gives no
    such reason, or what is left has no move word or says not or maybe itself ("Du ruĝajn
    mi ne rajtas preni, ĉar…")."""
    kept, start = [], 0
    for begins, ends in reasons_of(text):
        placed = _first_placed(text[begins:ends], vocabulary)
        if begins >= start and not any(p.role == "typo" for p in placed):  # (a move word
            # in a purpose is none: "… yn ôl i'r banc i gadw at ddeg", to keep to ten)
            kept.append(text[start:begins])
            start = ends
    if not kept:
        return None
    left = " ".join([*kept, text[start:]]).strip()
    roles = {p.role for p in _first_placed(left, vocabulary)}
    return left if "head" in roles and not roles & {"negation", "doubt"} else None


def _only_aside(text: str, vocabulary: ReadingVocabulary) -> bool:
    """Whether every word of negation or doubt in a sentence stands in a clause of its own,
    with no move word and nothing a move names ("…, se tio eblas"; "…, por ne superi dek"):
    then it does not say the move is not, or is one of two; the sentence is asked about.
    One in the move's own clause ("I won't take red", "red or blue") is never read. A "no"
    alone before the move ("No, I'm reserving the green one") answers someone else."""
    for n, clause in enumerate(clauses_of(text)):
        placed = _first_placed(clause, vocabulary)
        if not placed:
            continue
        roles = {p.role for p in placed}
        if _nothing_returned(placed):
            continue
        if roles & {"negation", "doubt"} and roles & {"head", "argument", "typo"}:
            return False
        if n == 0 and roles <= {"negation", "grammar"}:  # ("No, I'm reserving…", "Na, …")
            continue
        if any("other" in grammar_kinds(p.word.key, vocabulary) for p in placed):
            continue  # ("…, nid y llall", not the other one: said of another card)
        if roles & {"negation", "doubt"} and roles <= {"negation", "doubt", "grammar"}:
            if _a_condition(placed):
                continue  # ("…, se mi rajtas": if I may; asked about)
            return False  # "…, no, …", "…, or maybe not": said of the move itself
    return True


def _a_condition(placed: list[_Placed]) -> bool:
    """Whether a clause of doubt is one word of doubt and small words after it, with no word
    of negation ("…, se mi rajtas", if I may): a condition put on the move, not a choice
    between it and another ("…, or maybe", "…, aŭ ne", "…, maybe": said of the move)."""
    roles = [p.role for p in placed]
    return (
        len(roles) > 1
        and roles[0] == "doubt"
        and roles.count("doubt") == 1
        and "negation" not in roles
    )


def _without_denied(text: str, vocabulary: ReadingVocabulary) -> str | None:
    """A sentence without its clauses that only deny what they name, beside a clause with a
    move word said instead of another ("Buy 1-23 instead, NOT the two greens"; "Prynu 1-23
    yn lle, NID y ddau wyrdd"): None when it has none, or when what they deny is named in
    the rest too (then it says not of the move itself). Without "instead" ("take 3-12, not
    3-13") the sentence says not of its move, and is never read."""
    kept: list[str] = []
    denied: set[str] = set()
    heads = instead = False
    for clause in clauses_of(text):
        placed = _first_placed(clause, vocabulary)
        roles = {p.role for p in placed}
        if "negation" in roles and "argument" in roles and not roles & {"head", "doubt", "typo"}:
            denied |= {_named(p.word) for p in placed if p.role == "argument"}
            continue
        heads = heads or "head" in roles
        instead = instead or bool(roles & {"instead", "instead_after", "rather"})
        kept.append(clause)
    rest = ", ".join(kept)
    if not denied or not heads or not instead:
        return None
    named = {_named(p.word) for p in _first_placed(rest, vocabulary) if p.role == "argument"}
    return None if (denied - {""}) & named else rest


def _named(word: Word) -> str:
    """What an argument names, to compare: its colour or card ("" for a count)."""
    if word.sense is not None and word.sense.group == "colour":
        return f"colour:{word.sense.value}"
    return word.key if word.sense is None and card_word(word.key) else ""


def _nothing_back(text: str) -> bool:
    """Whether a clause of a sentence says that nothing goes back (:func:`_nothing_returned`)."""
    vocabulary = reading_words()
    return any(_nothing_returned(_first_placed(c, vocabulary)) for c in clauses_of(text))


def _nothing_returned(placed: list[_Placed]) -> bool:
    """Whether a clause says that nothing goes back: a return, said not, with nothing of its
    own ("þarf ekki að skila neinu", "কিছু ফেরত দিচ্ছি না", "no need to return anything")."""
    heads = [p.word.head for p in placed if p.role == "head"]
    roles = {p.role for p in placed}
    said = [p.word for p in placed if p.role == "argument"]
    head = next((n for n, p in enumerate(placed) if p.role == "head"), 0)
    after = [p.word for p in placed[head:] if p.role == "argument"]
    # (before the return, a count or the gold says what the writer holds then: "Þá er ég
    # með tíu tákn með gullinu og þarf ekki að skila neinu"; not after it: "return nothing
    # other than one gold")
    holding = all(says_nothing(w) or is_number(w) or is_gold(w) for w in said)
    holding = holding and all(map(says_nothing, after))
    nothing = holding and (not said or any(map(says_nothing, said)))
    return (
        bool(heads)
        and set(heads) == {"return"}
        and "negation" in roles
        and roles <= {"head", "negation", "doubt", "grammar", "argument", "with", "asking"}
        and nothing
    )


def _telling(placed: list[_Placed]) -> bool:
    """Whether a sentence tells of a move rather than makes it: it says one was made, or
    might be ("was", "had", "could", "ddoe", "ছিলাম": its language's ``telling``), or asks
    ("Can I…", "Má ég…", "Ga i…": ``asking`` that begins it)."""
    roles = [p.role for p in placed if p.role not in ("grammar", "typo")]
    if "telling" in roles:
        return True
    first = next((p for p in placed if p.role not in ("typo",)), None)
    return first is not None and first.role == "asking"


def _repeated(placed: list[_Placed]) -> bool:
    """Whether a colour is named twice by the same word with no count ("take red, just
    red"): two of it, or one said again?"""
    keys = [p.word.key for p in placed if p.role == "argument" and is_colour(p.word)]
    return len(keys) != len(set(keys))


def _one_language(placed: list[_Placed], vocabulary: ReadingVocabulary) -> bool:
    """Whether one language (with English, read in every language) could have written every
    word of a reading, the words of its grammar too: Esperanto "mi prenas du ruĝajn" is take
    2 red, not take black red with Welsh's "du"; Icelandic "ég held að hún taki rauða" is no
    move of the writer's, whose "hún" only Welsh would pass over."""
    common: set[str] | None = None
    for p in placed:
        languages = _languages_of(p, vocabulary)
        if not languages or "en" in languages:
            continue
        common = set(languages) if common is None else common & languages
        if not common:
            return False
    return True


_GRAMMAR_ROLES = (
    "grammar",
    "negation",
    "doubt",
    "one",
    "with",
    "telling",
    "asking",
    "instead",
    "instead_after",
    "rather",
)


def _languages_of(placed: _Placed, vocabulary: ReadingVocabulary) -> set[str]:
    """The languages a placed word is a word of, in the role it has (none: the notation's
    own, or not known)."""
    if is_soft(placed.word):
        return set()  # ("a" before a colour: English's one, or another language's "and")
    if placed.word.sense is not None and placed.role != "grammar":
        return set(placed.word.sense.languages)
    if placed.role in _GRAMMAR_ROLES:
        found = {lang for _, lang in vocabulary.grammar_of(placed.word.key, placed.word.key)}
        if placed.word.sense is not None:  # a filler of the notation's lists
            found |= set(placed.word.sense.languages)
        return found
    return set()


def _bare(text: str, placed: list[_Placed], unplaced: tuple[str, ...]) -> Sentence:
    """A sentence with no move word: a list of colours alone (and counts) is a take, never
    sure ("Blue, green and red for me please", "Double black!"); anything else is chat."""
    arguments = [p.word for p in placed if p.role == "argument"]
    colours = [w for w in arguments if w.sense is not None and w.sense.group == "colour"]
    if not colours or len(arguments) > 2 * len(colours) or len(unplaced) > len(arguments):
        return Sentence(text, unplaced=unplaced)
    clause: Clause = ("take", "", [_as_argument(w) for w in arguments])
    try:
        request = request_of_clauses(_tidied(clause), text)
    except InvalidMoveError:
        return Sentence(text, unplaced=unplaced)
    return Sentence(text, request, False, unplaced, bare=True)


def _placed(words: list[Word], vocabulary: ReadingVocabulary) -> list[_Placed]:
    """Each word of one reading with its role in the sentence; a word not known that is one
    letter away from a colour or a move word ("balck", "tkae") is read as that word, with the
    role ``typo`` on the side (the sentence is then never sure)."""
    roles = _phrased(words, [_role(word, vocabulary) for word in words], vocabulary)
    arguments = "argument" in roles
    said_in = {  # (the languages of the arguments; a digit or a card id is any language's)
        lang
        for word, role in zip(words, roles, strict=True)
        if role == "argument"
        for lang in (word.sense.languages if word.sense and not word.key[:1].isdigit() else ("*",))
    }
    meant_of = [
        _typo(word.key, said_in) if role == "unknown" else None
        for word, role in zip(words, roles, strict=True)
    ]
    listed = sum(1 for w, r in zip(words, roles, strict=True) if r == "argument" and is_colour(w))

    def beside_its_arguments(meant: Sense) -> bool:  # (of its language: not eo "afero")
        return arguments and ("*" in said_in or bool(set(meant.languages) & said_in))

    heads = "head" in roles or any(
        m is not None and m.group != "colour" and beside_its_arguments(m) for m in meant_of
    )
    found: list[_Placed] = []
    for word, role, meant in zip(words, roles, meant_of, strict=True):
        # (a colour mistyped beside a move word; a move word mistyped beside its arguments)
        if meant is None:
            placing = False
        elif meant.group == "colour":
            placing = heads or listed >= 2  # (beside a move word, or in a list of colours:
            # "gwyn gwyrd a du")
        else:
            placing = beside_its_arguments(meant)
        if meant is not None and placing:
            word = replace(word, sense=meant, head=str(meant.value) if leads(meant) else None)
            found.append(_Placed(word, "head" if word.head else "argument"))
            found.append(_Placed(replace(word, written=""), "typo"))
        else:
            found.append(_Placed(word, role))
    placed = _given_back(_particles(found, vocabulary), vocabulary)
    return _numbered_cards(_instead(_ones(_lengths(_relatives(placed)))))


def _returns_apart(sentence: str) -> list[str]:
    """A sentence with a clause after its first that only gives back, its verb left unsaid
    (see _given_back: "Take white blue red, two greens back"), as the sentence without it
    and then that clause (what it returns stands before its word, whatever the order of the
    rest); else the sentence."""
    vocabulary = reading_words()
    if not _backs_alone([fold(w) for w in WORD.findall(sentence)], vocabulary):
        return [sentence]  # (most say no such word: looked for first)
    clauses = clauses_of(sentence)
    apart = [n for n, clause in enumerate(clauses) if n and _gives_back(clause, vocabulary)]
    if not apart:
        return [sentence]
    rest = ", ".join(c.strip() for n, c in enumerate(clauses) if n not in apart)
    return [rest, *(clauses[n].strip() for n in apart)]


def _gives_back(clause: str, vocabulary: ReadingVocabulary) -> bool:
    """Whether a clause is a return said with its language's ``back_alone`` and no move word
    of its own ("two greens back"; not "… নিয়ে ২টা সবুজ ফেরত দিচ্ছি", a take and a return)."""
    placed = _first_placed(clause, vocabulary)
    starts = {n for n, _ in _backs_alone([p.word.key for p in placed], vocabulary)}
    heads = [n for n, p in enumerate(placed) if p.role == "head"]
    return len(heads) == 1 and heads[0] in starts and placed[heads[0]].word.head == "return"


def _backs_alone(keys: list[str], vocabulary: ReadingVocabulary) -> list[tuple[int, int]]:
    """Where each word or phrase of ``back_alone`` stands among ``keys`` (start, length)."""
    return list(_backs_alone_in(tuple(keys), locale_folder()))


@functools.lru_cache(maxsize=4096)
def _backs_alone_in(keys: tuple[str, ...], folder: Path) -> tuple[tuple[int, int], ...]:
    vocabulary = reading_words()
    starts = [(n, 1) for n, k in enumerate(keys) if "back_alone" in grammar_kinds(k, vocabulary)]
    phrased = vocabulary.phrases_in(list(keys))
    starts += [(w[0], len(w)) for w, kind in phrased if kind == "back_alone"]
    return tuple(sorted(starts))


def _given_back(found: list[_Placed], vocabulary: ReadingVocabulary) -> list[_Placed]:
    """A word of its language's ``back_alone`` ("2 ddu yn ôl", "two greens back", "২টো কালো
    ফেরত") right after a colour, with no move word that returns in the sentence and no more
    than two words of grammar after it: a return of what it follows, its verb left unsaid
    (asked about, never played at once: the role ``unsaid`` beside it says so)."""
    if any(p.word.head == "return" for p in found):
        return found
    for n, length in _backs_alone([p.word.key for p in found], vocabulary):
        after = found[n + length :]
        before = found[n - 1] if n else None
        if before is None or before.role != "argument" or not is_colour(before.word):
            continue
        if len(after) > 2 or any(p.role != "grammar" for p in after):
            continue  # (not "… mae'r gwyrdd yn ôl yn y banc": the green is back in the bank)
        out = list(found)
        sense = Sense("move", "return", before.word.sense.languages if before.word.sense else ())
        out[n] = _Placed(replace(found[n].word, sense=sense, head="return"), "head")
        for k in range(n + 1, n + length):
            out[k] = _Placed(found[k].word, "grammar")
        unsaid = _Placed(replace(found[n].word, written=""), "unsaid")  # (never sure)
        return [*out[: n + length], unsaid, *out[n + length :]]
    return found


def _lengths(found: list[_Placed]) -> list[_Placed]:
    """A count before a word of time ("3 daga", "সাত দিন", "5 diwrnod": its language's
    ``[time]`` day, week, fortnight or month) is a length of time, not a move's count, and the
    word is not a move word (Bengali "দিন", give, is also days)."""
    units = time_words().units
    out = list(found)
    for n in range(len(out) - 1):
        count, then = out[n], out[n + 1]
        if count.role == "argument" and is_number(count.word) and then.word.key in units:
            out[n] = _Placed(count.word, "grammar")
            out[n + 1] = _Placed(replace(then.word, sense=None, head=None), "grammar")
    return out


def _relatives(found: list[_Placed]) -> list[_Placed]:
    """A word that asks which ("which", "kiu"): a doubt first in a sentence, just after a
    move word ("Which should I take?", "take which?") or in a sentence with no move word
    ("Still wondering which is better"); after another word in a move's sentence it says
    which card ("the one which costs five red", "la karton, kiun mi rezervis"), passed
    over."""
    out: list[_Placed] = []
    moving = any(p.role == "head" for p in found)  # (in chat it asks: "…wondering which")
    for n, placed in enumerate(found):
        if placed.role == "relative":
            asks = n == 0 or found[n - 1].role == "head" or not moving
            placed = _Placed(placed.word, "doubt" if asks else "grammar")
        out.append(placed)
    return out


def _first_placed(text: str, vocabulary: ReadingVocabulary) -> list[_Placed]:
    """The words of a sentence or clause, placed as its first reading (none: no words)."""
    return list(_first_placed_in(text, locale_folder()))


@functools.lru_cache(maxsize=4096)
def _first_placed_in(text: str, folder: Path) -> tuple[_Placed, ...]:
    """:func:`_first_placed`, kept: each clause is looked at by several of the rules above
    (the words of ``folder``'s languages)."""
    written = written_words(text)
    return tuple(_placed(next(readings_of(written)), reading_words())) if written else ()


def _phrased(words: list[Word], roles: list[str], vocabulary: ReadingVocabulary) -> list[str]:
    """The roles of words that a grammar of several words covers ("thank you", "see you"):
    that grammar's, in place of each word's own (what is not a move word or an argument).
    An idiom's words, or a phrase that says the writer is back ("ar gael", available; "taka
    mig úr fríinu", take me off holiday), are never a move's, whatever each alone is."""
    for where, kind in vocabulary.phrases_in([w.key for w in words]):
        if kind in ("you", "except"):  # (words left unknown: see _role)
            continue
        if kind in _CLAUSE_KINDS:  # (read by the clause they stand in: "o na" still says no;
            for k in where:  # "I mean": known words)
                roles[k] = "grammar" if roles[k] == "unknown" else roles[k]
            continue
        role = {"negations": "negation", "doubts": "doubt"}.get(kind, kind)
        role = role if role in ("negation", "doubt", "telling") else "grammar"
        whole = kind in IDIOMS
        for k in where:
            if whole or roles[k] not in ("head", "argument"):
                roles[k] = role
    return roles


#: The kinds of ``[grammar]`` phrase that say what a clause does, not what its words are.
_CLAUSE_KINDS = ("correcting", "back_alone")
#: The kinds of ``[grammar]`` phrase whose words are never a move's words (an away said in
#: words: "get ekki sinnt leiknum", where "get" is no English "get").
IDIOMS = ("idioms", "back", "away")


#: The shortest word a typo is looked for in (shorter words are too near too many others:
#: English "days" is a letter away from a move word of another language). A word one
#: letter shorter is read as a longer word with that letter left out ("gren"), and a word of
#: four letters with two letters swapped ("tkae"); a vowel sign left out ("কলো") is looked
#: for in a word of any length.
TYPO_AT_LEAST = 5


def _typo(key: str, said_in: set[str] | frozenset[str] = frozenset()) -> Sense | None:
    """The one colour or move word ``key`` is a letter away from (a letter left out, added,
    changed, or two swapped), when there is one and only one, or only one in the languages
    the sentence's arguments are said in (``said_in``: Esperanto "ngran" beside "blankan" is
    "nigran", not Icelandic "græn"); None otherwise."""
    if not all(ch.isalpha() or unicodedata.category(ch) in ("Mn", "Mc") for ch in key):
        return None
    near = _near_words(locale_folder())
    if len(key) >= TYPO_AT_LEAST:
        found = [sense for d in _deletes(key) for sense in near.words.get(d, ())]
    else:
        found = list(near.shortened.get(key, ()))
        found += [s for w in _swaps(key) for s in near.short.get(w, ())]
        if not found:
            found = list(near.unmarked.get(key, ()))
    meant: dict[tuple[Group, str | int], set[str]] = {}  # (the languages of each near word)
    for sense in found:
        meant.setdefault((sense.group, sense.value), set()).update(sense.languages)
    if len(meant) > 1 and said_in and "*" not in said_in:
        meant = {k: langs for k, langs in meant.items() if langs & said_in}
    if len(meant) != 1:
        return None
    (((group, value), languages),) = meant.items()
    return Sense(group, value, tuple(sorted(languages)))


def _deletes(key: str) -> set[str]:
    return {key, *(key[:n] + key[n + 1 :] for n in range(len(key)))}


def _swaps(key: str) -> set[str]:
    return {key[:n] + key[n + 1] + key[n] + key[n + 2 :] for n in range(len(key) - 1)}


@dataclass(frozen=True)
class _NearWords:
    """What a typo is looked up by, made from every language's colours and move words."""

    #: each word of at least TYPO_AT_LEAST letters, and each with one letter left out
    words: dict[str, frozenset[Sense]]
    #: each word of TYPO_AT_LEAST letters with one letter left out (only those)
    shortened: dict[str, frozenset[Sense]]
    #: each word one letter shorter than TYPO_AT_LEAST, as it is
    short: dict[str, frozenset[Sense]]
    #: each word with one of its vowel signs (a combining mark) left out
    unmarked: dict[str, frozenset[Sense]]


@functools.cache
def _near_words(folder: Path) -> _NearWords:
    """Each colour and move word of every language, and the words a letter away from it
    that a typo is read by (see :data:`TYPO_AT_LEAST`)."""
    tables: dict[str, dict[str, set[Sense]]] = {
        "words": {},
        "shortened": {},
        "short": {},
        "unmarked": {},
    }

    def add(table: str, key: str, senses: list[Sense]) -> None:
        tables[table].setdefault(key, set()).update(senses)

    for key, senses in reading_words().senses.plain.items():
        kept = [
            Sense(s.group, s.value, s.languages)
            for s in senses
            if s.group == "colour" or (s.group == "move" and s.value in _LED)
        ]
        if not kept:
            continue
        if len(key) >= TYPO_AT_LEAST:
            for d in _deletes(key):
                add("words", d, kept)
        if len(key) == TYPO_AT_LEAST:
            for d in _deletes(key) - {key}:
                add("shortened", d, kept)
        if len(key) == TYPO_AT_LEAST - 1:
            add("short", key, kept)
        for n, ch in enumerate(key):
            if n and unicodedata.category(ch) in ("Mn", "Mc") and len(key) > 3:
                add("unmarked", key[:n] + key[n + 1 :], kept)
    frozen = {t: {k: frozenset(v) for k, v in table.items()} for t, table in tables.items()}
    return _NearWords(**frozen)


#: The move words a typo may be read as: the actions with arguments, and return and pay.
_LED = ("take", "reserve", "buy", "return", "pay")


def _role(word: Word, vocabulary: ReadingVocabulary) -> str:
    """A word's role in one reading (see :class:`_Placed`)."""
    sense = word.sense
    if word.head is not None:
        return "head"
    if sense is not None and sense.group in ("colour", "number", "move"):  # (deck, nothing)
        return "argument"
    if not any(ch.isalnum() for ch in word.key):  # a dash, an emoticon
        return "grammar"
    exact = vocabulary.exact.get(word.written)
    if exact is not None:
        return "negation" if exact == "negations" else "doubt"
    # ("you": unknown, see _says_you; "except", "other than": unknown but in a cost, see
    # _each_but, lest a sentence with them be read sure: "return nothing other than…")
    kinds = grammar_kinds(word.key, vocabulary) - {"you", "except"}
    if accented_latin(word.written):  # (Icelandic "sé" is not Esperanto's "se", if: an
        kinds -= {"negations", "doubts"}  # accented one is matched as written, above)
    if "negations" in kinds:
        return "negation"
    if "doubts" in kinds:
        return "doubt"
    if "telling" in kinds:
        return "telling"
    for kind in ("instead", "instead_after", "rather", "relative"):
        if kind in kinds:
            return kind
    if "asking" in kinds:
        return "asking"
    if sense is None and card_word(word.key):
        return "argument"
    if "one" in kinds:
        return "one"
    if "with" in kinds:
        return "with"
    if kinds or (sense is not None and sense.group in ("filler", "before_resign")):
        return "grammar"
    if _TIMES.fullmatch(word.key) or (word.key.isdecimal() and int(word.key) <= MOST_TOKENS):
        return "argument"
    return "unknown"


def _particles(found: list[_Placed], vocabulary: ReadingVocabulary) -> list[_Placed]:
    """A particle beside its verb ("give … back", "tek … frá") makes the verb a move word."""
    if not vocabulary.particles:
        return found
    keys = [p.word.key for p in found]
    for n, key in enumerate(keys):
        for particle in vocabulary.particles.get(key, ()):
            length = len(particle.words)
            if tuple(keys[n : n + length]) != particle.words:
                continue
            verbs = [m for m, p in enumerate(found) if p.word.key in particle.verbs]
            if any(found[k].role in ("negation", "doubt") for k in range(n, n + length)):
                # one that holds a "not" ("না দেখে": unseen) only just before its verb
                verbs = [m for m in verbs if n + length <= m <= n + length + 3]
            if not verbs:
                continue
            nearest = min(verbs, key=lambda m: (abs(m - n), m > n))  # (before it, on a tie)
            verb = found[nearest].word
            if particle.means == "nothing":  # (Icelandic "hætta við": to call off, no move)
                found[nearest] = _Placed(replace(verb, sense=None, head=None), "grammar")
            else:
                sense = Sense("move", particle.means, (particle.language,))
                found[nearest] = _Placed(replace(verb, sense=sense, head=particle.means), "head")
            for k in range(n, n + length):
                found[k] = _Placed(found[k].word, "grammar")
    return found


#: The least number read as a card's number beside its level ("card 23 on level 1"): a
#: smaller one may be a count of tokens.
LEAST_CARD_NUMBER = 8
#: How far apart a card's number and its level's word may stand.
CARD_NUMBER_REACH = 4


def _numbered_cards(found: list[_Placed]) -> list[_Placed]:
    """A card said by its number and its level ("card 23 on level 1", "cerdyn 23 ar lefel
    1", "লেভেল ১-এর ২৩ নম্বর কার্ড") is that card (1-23), when the sentence names no card by
    its id; the sentence is then never sure (the card is asked about)."""
    if any(p.role == "argument" and card_word(p.word.key) for p in found):
        return found
    for n, placed in enumerate(found):
        number = placed.word.key
        if placed.role not in ("argument", "unknown") or not number.isdecimal():
            continue
        if int(number) < LEAST_CARD_NUMBER:
            continue
        for m, level in enumerate(found):
            if not 0 < abs(m - n) <= CARD_NUMBER_REACH or m + 1 >= len(found):
                continue
            said = number_of(found[m + 1].word)
            if level.word.sense != DECK or said not in (1, 2, 3) or m + 1 == n:
                continue
            card = f"{said}-{int(number):02d}"
            if card not in CARDS:
                continue
            out = list(found)
            out[n] = _Placed(replace(placed.word, key=card, sense=None), "argument")
            out[m] = _Placed(level.word, "grammar")
            out[m + 1] = _Placed(found[m + 1].word, "grammar")
            return [*out, _Placed(replace(placed.word, written=""), "typo")]
    return found


#: How far from "instead of" the word it puts aside may stand (past "of", "the"…).
INSTEAD_REACH = 3


def _instead(found: list[_Placed]) -> list[_Placed]:
    """What "instead of" puts aside is no part of the move ("paying with the gold instead of
    red", "anstataŭ ruĝa", "লালের বদলে সোনা"): the word of the move nearest after it (its
    language's ``instead``) or before it (``instead_after``), left out; the sentence is then
    never sure (the move is asked about)."""
    out = list(found)
    for n, placed in enumerate(found):
        if placed.role == "rather" or (
            placed.role == "instead" and all(p.role not in _SAYING for p in found[n + 1 :])
        ):  # "I'll reserve 1-35 instead", "tek frekar frá…": the move before it is put aside
            out = _later_wins(out)
            continue
        if placed.role not in ("instead", "instead_after"):
            continue
        step = 1 if placed.role == "instead" else -1
        for k in range(n + step, n + step * (INSTEAD_REACH + 1), step):
            if not 0 <= k < len(out):
                break
            if out[k].role == "argument":
                out[k] = _Placed(out[k].word, "grammar")
                break
            if out[k].role == "head":  # "instead of reserving 3-12": that move, all of it
                heads = [m for m, p in enumerate(out) if p.role == "head"]
                if step == 1:  # (its words after it, up to the next move word)
                    span = range(k, min([m for m in heads if m > k], default=len(out)))
                else:  # (its words before it: verb last)
                    span = range(max([m for m in heads if m < k], default=-1) + 1, k + 1)
                for m in span:
                    out[m] = _Placed(out[m].word, "grammar")
                break
    return out


#: The roles of the words that say part of a move.
_SAYING = ("head", "argument")


def _later_wins(found: list[_Placed]) -> list[_Placed]:
    """A sentence that makes one move in place of another it names first ("Was going to take
    two greens but changed my mind - I'll reserve the black one instead"): the words before
    its last action, and the "but" and "not" among them, put aside."""
    actions = [n for n, p in enumerate(found) if p.role == "head" and p.word.head in ACTIONS]
    if len(actions) < 2:
        return found
    kept = ("grammar", "unknown", "typo", "instead", "instead_after", "rather")
    return [
        p if n >= actions[-1] or p.role in kept else _Placed(p.word, "grammar")
        for n, p in enumerate(found)
    ]


def _ones(found: list[_Placed]) -> list[_Placed]:
    """ "a"/"an" before a colour counts one; elsewhere it is grammar. One that another
    language asks with (Welsh "a": "A gaf i…?") asks only where it is not before a colour
    ("…costs 2 white and a blue")."""
    out: list[_Placed] = []
    vocabulary = reading_words()
    for n, placed in enumerate(found):
        following = found[n + 1] if n + 1 < len(found) else None
        colour = (
            following is not None
            and following.word.sense is not None
            and following.word.sense.group == "colour"
        )
        if placed.role == "asking" and colour and n > 0:
            placed = _Placed(
                placed.word,
                "one" if "one" in grammar_kinds(placed.word.key, vocabulary) else "asking",
            )
        if placed.role == "one":
            role = "argument" if colour else "grammar"
            one = Sense("number", 1, (SOFT_ONE,))
            word = replace(placed.word, sense=one) if colour else placed.word
            out.append(_Placed(word, role))
        else:
            out.append(placed)
    return out


def _requests(
    placed: list[_Placed], text: str, vocabulary: ReadingVocabulary
) -> tuple[list[MoveRequest], InvalidMoveError | None, bool]:
    """The requests one reading of a sentence makes (several: its arguments may go with its
    move words more than one way), the refusal when it makes none, and whether a list of
    colours before what only follows a move was taken for a take (a guess: never sure).
    A word for the price beside a buy ("দাম") pays; where its words then make no move, it
    says what the card costs ("সবুজ কার্ডটা কিনব — যেটার দাম ২টা সাদা আর ১টা নীল")."""
    heads = {p.word.head for p in placed if p.role == "head"}
    found = _requests_priced(placed, text, vocabulary, "reserve" in heads and "buy" not in heads)
    priced = any(
        p.role == "head" and p.word.head == "pay" and describing_kind(p.word.key, vocabulary)
        for p in placed
    )
    if "buy" in heads and priced and not found[0]:
        again = _requests_priced(placed, text, vocabulary, True)
        found = again if again[0] else found
    return found


def _requests_priced(
    placed: list[_Placed], text: str, vocabulary: ReadingVocabulary, priced: bool
) -> tuple[list[MoveRequest], InvalidMoveError | None, bool]:
    """:func:`_requests`, with a word for the price that pays read as what the card costs
    when ``priced`` (a reserve pays nothing: its price is the card's, "যেটার দাম")."""
    buying = any(p.word.head == "buy" for p in placed if p.role == "head")
    naming = any(p.word.head in ("reserve", "buy") for p in placed if p.role == "head")
    items: list[tuple[str, Word]] = []  # (head | argument, word), in order
    for p in placed:
        cost = priced and p.word.head == "pay" and describing_kind(p.word.key, vocabulary)
        if cost == "cost":
            items.append(("argument", replace(p.word, sense=Sense("describes", cost), head=None)))
        elif p.role == "head":
            items.append(("head", p.word))
        elif p.role == "with" and buying:
            pay = replace(p.word, sense=Sense("move", "pay"), head="pay")
            items.append(("head", pay))
        elif p.role == "argument":
            items.append(("argument", _as_argument(p.word)))
        elif p.role == "grammar" and naming:  # ("the white card worth 2 that costs 5 red")
            said = _describing_word(p, vocabulary)
            if said is not None:
                items.append(("argument", said))
    if not any(kind == "head" for kind, _ in items):
        return [], None, False
    items, held = _held_card(items, placed, vocabulary)
    requests: list[MoveRequest] = []
    errors: list[InvalidMoveError] = []
    taking = _with_a_take(items)
    taken = False
    if taking is not None and _verb_first(taking[1][1], vocabulary):
        _read_clauses(taking, text, requests, errors)  # (what goes before it is not its own)
        taken = bool(requests)
    if not requests:
        _read_clauses(items, text, requests, errors)
    said_after = bool(items) and items[-1][0] == "argument"  # ("…, skila: svörtum")
    if taking is not None and (not requests or (said_after and all(map(_only_follows, requests)))):
        found: list[MoveRequest] = []  # (only when the words read no other way, or only as
        # what follows a move that says its own colours: "hvítur grænn rauður / skila: …")
        _read_clauses(taking, text, found, errors)
        requests, taken = (found, True) if found else (requests, taken)
    if held:  # "the black card in my hand"
        requests = [replace(r, held=True) if r.bonus is not None else r for r in requests]
    return requests, (errors[0] if errors and not requests else None), taken


def _describing_word(placed: _Placed, vocabulary: ReadingVocabulary) -> Word | None:
    """A grammar word that says what a card is like ("worth", "costs", "row"), as such."""
    kind = describing_kind(placed.word.key, vocabulary)
    return None if kind is None else replace(placed.word, sense=Sense("describes", kind))


def _card_said_before(sentence: Sentence, before: Sentence | None) -> Sentence | None:
    """A sentence that buys or reserves "that one" ("I'll buy that one", "Dw i am brynu
    hwnnw", "Ég kaupi það"), naming nothing, after a sentence without a move word that names
    one card by its id and nothing more (a card's line pasted from the board: "3-12" over
    "Tek þessa frá"), or whose last clause that describes a card by its colour and its
    level, points or cost says which ("…I can afford the green card on level 1"): the move
    with that card, asked about (never played at once). None when it is not so."""
    if before is None or before.moving or sentence.request is not None or not sentence.moving:
        return None
    if before.doubt is not None:  # ("…, not the red one on level 2. Buy that one.")
        return None
    if sentence.asks:  # ("Buy it?")
        return None
    vocabulary = reading_words()
    placed = _first_placed(sentence.text, vocabulary)
    heads = {str(p.word.head) for p in placed if p.role == "head"}
    said = [p.word for p in placed if p.role == "argument" and not _one_said(p.word)]
    if heads == {"reserve", "take"} and said and all(map(is_gold, said)):
        heads = {"reserve"}  # ("Mi rezervas ĝin, kaj prenas oron": and take the gold)
    if len(heads) != 1 or not heads <= {"buy", "reserve"}:
        return None
    if any(p.role in ("negation", "doubt", "typo") for p in placed):
        return None
    head: Action = "buy" if heads == {"buy"} else "reserve"
    named = [p.word for p in _first_placed(before.text, vocabulary) if p.role == "argument"]
    cards = [w for w in named if card_word(w.key) == "card"]
    if len(cards) == 1 and all(w is cards[0] or is_gem_colour(w) for w in named):
        named = cards  # ("Ooo la ruĝa 3-15 estas tiel bela!! Mi rezervas ĝin": its colour)
    if len(named) == 1 and card_word(named[0].key) == "card":  # ("3-12" alone, a line
        if any(w.sense != DECK and not (head == "reserve" and is_gold(w)) for w in said):
            return None  # (pasted from the board; "the one above", and the reserve's gold:
            # "উপরের কার্ডটা রিজার্ভ করলাম, সোনা একটা দিয়েন")
        request = MoveRequest(head, card=card_id(named[0].key), text=sentence.text)
        return replace(sentence, request=request, sure=False, refusal=None)
    if said:
        return None  # (but "that one")
    for clause in reversed(clauses_of(before.text)):
        words = [
            p.word if p.role == "argument" else _describing_word(p, vocabulary)
            for p in _first_placed(clause, vocabulary)
            if p.role in ("argument", "grammar")
        ]
        told = description([w for w in words if w is not None], head)
        fields = description_of(told) if told else None
        more = fields and any(fields.get(k) for k in ("level", "points", "cost"))
        if fields and more and fields.get("bonus") is not None and not fields.get("held"):
            request = replace(MoveRequest(head, text=sentence.text), **fields)
            return replace(sentence, request=request, sure=False, refusal=None)
    return None


def _one_said(word: Word) -> bool:
    """Whether a word is "one" written as a word ("that one"), not a count in digits."""
    return number_of(word) == 1 and not word.key.isdecimal()


def _held_card(
    items: list[tuple[str, Word]], placed: list[_Placed], vocabulary: ReadingVocabulary
) -> tuple[list[tuple[str, Word]], bool]:
    """The items of a sentence that names the card bought as one the writer holds ("buy the
    card I reserved", "…in my hand": its language's ``held``), and whether it says so. A
    reserve that describes the card bought ("Dw i'n prynu'r cerdyn wnes i ei gadw",
    "রিজার্ভ করা কার্ডটা কিনলাম": after the buy; before it where the verb comes last) says
    that too ("reserve and buy" stays two moves). A buy with no card of its own then buys
    a held card (which one, the position tells)."""
    held = [p.word for p in placed if "held" in grammar_kinds(p.word.key, vocabulary)]
    phrased = list(vocabulary.phrases_in([p.word.key for p in placed]))  # ("রিজার্ভে রাখা")
    held += [placed[where[0]].word for where, kind in phrased if kind == "held"][:1]
    heads = [str(w.head) for kind, w in items if kind == "head"]
    told = _reserve_told(placed, phrased, vocabulary)
    if sorted(heads) == ["buy", "reserve"] and (
        told or not any(_names_a_card(w) for _, w in items)
    ):
        at = next(n for n, (_, w) in enumerate(items) if w.head == "reserve")
        buy = next(n for n, (_, w) in enumerate(items) if w.head == "buy")
        sense = items[buy][1].sense
        languages = sense.languages if sense is not None else ()
        last = bool(languages) and all(vocabulary.orders.get(la) == "verb last" for la in languages)
        if (at < buy) == last:
            held = [*held, items[at][1]]
            items = [*items[:at], *items[at + 1 :]]
            heads = ["buy"]
    ones = [w for k, w in items if k == "argument" and is_number(w) and number_of(w) == 1]
    if len(ones) == 1 and held and heads == ["buy"]:  # ("buy the one I reserved": no count)
        items = [(k, w) for k, w in items if w is not ones[0]]
    if held and heads == ["buy"] and all(k == "head" or is_describing(w) for k, w in items):
        items = [*items, ("argument", replace(held[0], sense=Sense("held"), head=None))]
    return items, bool(held)


def _reserve_told(
    placed: list[_Placed],
    phrased: list[tuple[range, str]],
    vocabulary: ReadingVocabulary,
) -> bool:
    """Whether the reserve word of a sentence follows a word that tells of a move made ("…'r
    cerdyn du wnes i gadw (1-36)": the one I reserved), a small word or two between, or
    begins a phrase of its language's ``held`` ("রিজার্ভ করা"): it says which card is
    bought, even beside the card's id. (``phrased``: the grammar phrases of ``placed``.)"""
    at = next(
        (n for n, p in enumerate(placed) if p.role == "head" and p.word.head == "reserve"), None
    )
    if at is None:
        return False
    if any(kind == "held" and at in where for where, kind in phrased):
        return True  # ("আমার রিজার্ভ করা কার্ডটি, অর্থাৎ ১-৩৬, কিনছি": the reserved card)
    for p in reversed(placed[max(0, at - 3) : at]):
        if p.role == "telling" or "telling" in grammar_kinds(p.word.key, vocabulary):
            return True
        if p.role != "grammar":
            return False
    return False


def _names_a_card(word: Word) -> bool:
    """Whether a word names a card or a deck (what a reserve of its own would name)."""
    if word.sense is not None:
        return word.sense.group == "move" and word.sense.value == "deck"
    return card_word(word.key) == "card"


def _verb_first(word: Word, vocabulary: ReadingVocabulary) -> bool:
    """Whether every language that gives ``word`` its meaning puts a verb before what it
    governs (``[grammar] order``): then what stands before it is not its own."""
    languages = word.sense.languages if word.sense is not None else ()
    return bool(languages) and all(vocabulary.orders.get(la) == "verb first" for la in languages)


def _read_clauses(
    items: list[tuple[str, Word]],
    text: str,
    requests: list[MoveRequest],
    errors: list[InvalidMoveError],
) -> None:
    """Add to ``requests`` what each way of attaching the arguments makes (to ``errors``
    why it makes nothing)."""
    for clauses in _attachments(items):
        clauses = _one_payment(_without_the_gold_of_a_reserve(clauses))
        if len(clauses) > 1:  # "so nothing to give back": a return with nothing after it
            clauses = [c for c in clauses if c[2] or c[0] in ACTIONS] or clauses
        if len([c for c in clauses if c[0] in ACTIONS]) > 1:  # "I resign, take me out"
            kept = [c for c in clauses if c[2] or c[0] not in ACTIONS or c[0] in ("pass", "resign")]
            clauses = kept if any(c[0] in ACTIONS for c in kept) else clauses
        resigns = [c for c in clauses if c[0] == "resign" and not c[2]]
        if len(resigns) > 1:  # "rhoi'r ffidil yn y to - dwi'n ildio": said twice, one move
            clauses = [c for c in clauses if c[0] != "resign" or c is resigns[0]]
        follows = not any(c[0] in ACTIONS for c in clauses)
        paying = [c for c in clauses if c[0] == "pay"] if follows else []
        if follows:  # only what follows a move: return, pay, noble (joined to the move)
            clauses = [("pass", "", []), *(c for c in clauses if c[0] != "pay")]
        try:
            request = request_of_clauses([t for c in clauses for t in _tidied(c)], text)
            if paying:  # ("Buy 1-23. Paying 2 white and 1 blue."): the buy's, when joined
                _, written, args = _tidied(paying[0])[0]
                request = replace(request, pay=tokens_said(args, written, text))
        except InvalidMoveError as err:
            errors.append(err)
            continue
        if follows:
            request = replace(request, text=FOLLOWS + text)
        if request not in requests:
            requests.append(request)


def _as_argument(word: Word) -> Word:
    """A count written ``x2`` or ``2x`` is the count it is."""
    found = _TIMES.fullmatch(word.key)
    if found:
        number = found.group(1) or found.group(2)
        return replace(word, key=number, sense=None)
    return word


def _with_a_take(items: list[tuple[str, Word]]) -> list[tuple[str, Word]] | None:
    """A list of colours before what only follows a move ("Ruby, sapphire, emerald, and I'll
    hand back a diamond"), as a take (None when the items are not that)."""
    heads = [n for n, (kind, _) in enumerate(items) if kind == "head"]
    before = [w for _, w in items[: heads[0]]]
    if not before or any(items[n][1].head in ACTIONS for n in heads):
        return None
    if not any(kind == "argument" for kind, _ in items[heads[0] + 1 :]):
        return None  # (the colours are what it returns, said first: "white and black I am
        # giving back", "blankan kaj verdan mi redonas")
    if not any(map(is_colour, before)) or not all(is_colour(w) or is_number(w) for w in before):
        return None
    take = replace(items[0][1], head="take", sense=Sense("move", "take"), written="")
    return [("head", take), *items]


def _one_payment(clauses: list[Clause]) -> list[Clause]:
    """The payment said in two parts ("paying white and blue, and using the gold") as one."""
    pays = [c for c in clauses if c[0] == "pay"]
    if len(pays) < 2:
        return clauses
    first = clauses.index(pays[0])
    joined: Clause = ("pay", pays[0][1], [w for c in pays for w in c[2]])
    kept = [(n, c) for n, c in enumerate(clauses) if c[0] != "pay" or n == first]
    return [joined if n == first else c for n, c in kept]


def _without_the_gold_of_a_reserve(clauses: list[Clause]) -> list[Clause]:
    """A reserve's clauses without the take of the gold that comes with it ("reserve 3-12 and
    take a gold")."""
    if not any(c[0] == "reserve" for c in clauses):
        return clauses
    return [c for c in clauses if not (c[0] == "take" and _only_gold(c[2]))]


def _only_gold(args: list[Word]) -> bool:
    colours = [w for w in args if is_colour(w)]
    counts = [number_of(w) for w in args if is_number(w)]
    return bool(colours) and all(map(is_gold, colours)) and counts in ([], [1])  # ("one gold
    # joker token": one gold)


def _attachments(items: list[tuple[str, Word]]) -> Iterator[list[Clause]]:
    """The ways the arguments may go with the move words: all with the one move word; or,
    with several, each after its move word (verb first), or each before it (verb last); or,
    with a move word and a return side by side, the move's before them and the return's after
    them."""
    heads = [n for n, (kind, _) in enumerate(items) if kind == "head"]
    if len(heads) == 1:
        head = items[heads[0]][1]
        yield [(str(head.head), head.written, [w for kind, w in items if kind == "argument"])]
        return
    first: list[Clause] = []
    before = [w for kind, w in items[: heads[0]]]
    if not before:
        for n, at in enumerate(heads):
            end = heads[n + 1] if n + 1 < len(heads) else len(items)
            head = items[at][1]
            first.append((str(head.head), head.written, [w for _, w in items[at + 1 : end]]))
        yield first
    after = [w for kind, w in items[heads[-1] + 1 :]]
    if not after:
        last: list[Clause] = []
        for n, at in enumerate(heads):
            start = heads[n - 1] + 1 if n > 0 else 0
            head = items[at][1]
            last.append((str(head.head), head.written, [w for _, w in items[start:at]]))
        if last != first:
            yield last
    between = [kind for kind, _ in items[heads[0] : heads[-1] + 1] if kind == "argument"]
    one, other = items[heads[0]][1], items[heads[-1]][1]
    if len(heads) == 2 and before and after and not between and other.head == "return":
        # ("সাদা সবুজ কালো নিলাম ফেরত ১টা সবুজ ১টা কালো": the move's before, the return's after)
        yield [
            (str(one.head), one.written, [w for _, w in items[: heads[0]]]),
            (str(other.head), other.written, [w for _, w in items[heads[1] + 1 :]]),
        ]


def _tidied(clause: Clause) -> list[Clause]:
    """A clause's arguments as the notation reads them: a count written after its colour
    ("black x2") put before it; a count before a list it
    counts ("3: red, green, blue"; "three gems: …") left out; for a card, the card alone
    (its level and the deck words around it said nothing more); a take of one card is a
    buy, and a take from a deck a reserve (whether it is sure is the sentence's to say)."""
    head, written, args = clause
    if head == "resign":  # ("I concede this one": the game, not a count)
        args = [w for w in args if not _one_said(w)]
    if head == "return" and any(says_nothing(w) for w in args):  # "nothing to give back"
        return [(head, written, [next(w for w in args if says_nothing(w))])]
    if head not in ("reserve", "buy"):  # (what describes a card says nothing of the others)
        args = [w for w in args if not is_describing(w)]
    args = _colour_first_counts(_counted_list(_one_colour_each(args)))
    nobles = [w for w in args if w.sense is None and card_word(w.key) == "noble"]
    if nobles and head != "noble":  # a noble named anywhere is the noble's own clause
        rest = [w for w in args if w not in nobles]
        return [*_tidied((head, written, rest)), ("noble", "", nobles)]
    for n in range(1, len(args)):
        if _TIMES.fullmatch(args[n].written) and is_colour(args[n - 1]):
            args[n - 1], args[n] = args[n], args[n - 1]
    if head in ("take", "return") and len(args) > 2 and _counts_the_rest(args):
        args = args[1:]
    if head == "take":
        args = _without_the_total(args)
    cards = [w for w in args if w.sense is None and card_word(w.key) == "card"]
    counted = [w for w in args if w not in cards and (is_colour(w) or is_number(w))]
    if head == "take" and len(cards) == 1 and len(counted) < 2 and not any(map(is_number, counted)):
        head = "buy"  # (a card and its colour, "grab the green card, 1-23"; not "take 2 red,
        # Bob has 2-03": the tokens are the take's, the card chat)
    decks = [w for w in args if w.sense == DECK]
    if head == "take" and decks and not cards and not any(map(is_colour, args)):
        head = "reserve"  # "taking a blind one off the level 3 deck"
    if head in ("reserve", "buy") and len(cards) == 1:
        rest = [w for w in args if w not in cards]
        told = description(rest, head) if any(map(is_place_or_describing, rest)) else None
        rest = [w for w in rest if not is_describing(w)]
        if told is not None and not fits_card(cards[0], told):  # ("2-28, the red one…": refused)
            return [(head, written, [cards[0], *rest])]
        args = (
            []
            if told is not None
            else [w for w in rest if not says_only_the_card(cards[0], w, head)]
        )
        if head == "buy" and args and all(is_colour(w) or is_number(w) for w in args):
            return [(head, written, cards), ("pay", "", args)]  # "buy 1-23: 1 white, 1 blue"
        args = [cards[0], *args]  # (what only describes the card is left out; the rest stays)
    if head in ("reserve", "buy") and not cards:
        named = description(args, head)
        if named is not None and any(w.sense and w.sense.group in ("bonus", "held") for w in named):
            return [(head, written, named)]  # "buy the black (one)", "the level 2 white card"
        level = ordinal_level(args) if head == "reserve" else None
        if level is not None:  # "úr fyrsta bunkanum", "from the second deck"
            deck = next(w for w in args if w.sense == DECK)
            return [(head, written, [deck, replace(deck, key=str(level), sense=None)])]
        args = [w for w in args if not is_describing(w)]
    if head == "reserve" and not cards and not any(map(is_gem_colour, args)):
        numbers = [w for w in args if is_number(w)]
        levels = [w for w in numbers if number_of(w) in (1, 2, 3)]
        if len({number_of(w) for w in levels}) > 1:  # "one card from deck 2"
            levels = _after_a_deck_word(args, levels)
        said = {number_of(w) for w in levels}
        others = {number_of(w) for w in numbers if w not in levels}
        if decks and len(said) == 1 and others <= {1}:  # (not "2 cards from deck 1")
            args = [decks[0], replace(levels[0], sense=None, key=str(number_of(levels[0])))]
    return [(head, written, args)]


def _after_a_deck_word(args: list[Word], levels: list[Word]) -> list[Word]:
    """Of the numbers a reserve says, those that say a deck's level: each just after a deck
    word ("deck 2", "bunka 2"), and of those, a "one" written as a word only when no other
    is ("a blind one off the level 3 deck": one card, from deck 3)."""
    after = [w for n, w in enumerate(args) if w in levels and n and args[n - 1].sense == DECK]
    if len({number_of(w) for w in after}) > 1:
        after = [w for w in after if w.key.isdecimal() or number_of(w) != 1]
    return after


def _without_the_total(args: list[Word]) -> list[Word]:
    """A take of colours each said once, the counts after them left out when they only say
    "one each" and how many in all ("নীল, লাল ও কালো — একটি করে তিনটি টোকেন নিলাম": blue,
    red and black, one each, three tokens; "… এই তিনটি রত্ন একটি করে নিচ্ছি", these three
    gems, one each): three colours or more, then their number and a one, either way round,
    their number alone or twice, or a one twice ("un o bob un"); or a one and their number
    before them ("po unu ĵetono el tri koloroj: diamanton, safiron kaj smeraldon", one token
    each of three colours)."""
    leading = list(itertools.takewhile(is_number, args))
    if len(leading) == 2 and all(map(is_colour, args[2:])):
        colours = args[2:]
        counts = [number_of(w) for w in leading]
        if len({w.sense for w in colours}) == len(colours) >= 3 and counts in (
            [1, len(colours)],
            [len(colours), 1],
        ):
            return colours
    colours = list(itertools.takewhile(is_colour, args))
    counts = [number_of(w) for w in args[len(colours) :]]
    distinct = len({w.sense for w in colours}) == len(colours) >= 3
    if not distinct or not counts or None in counts:
        return args
    n = len(colours)
    if counts in ([1, n], [n, 1], [n]) or (n == 3 and counts in ([1, 1], [3, 3])):
        return colours  # ("…, un o bob un": one of each one; "তিন কালারের তিনটা টোকেন")
    return args


def _counts_the_rest(args: list[Word]) -> bool:
    """Whether the count that leads a list counts the whole list ("three gems: one white,
    one blue and one red"; "৩টা নিচ্ছি: সাদা, সবুজ, কালো": three or more colours, each once,
    as many as it says: three of one colour is never a take). A count before a colon ("3:
    red, green, blue") is left out as the sentence is read."""
    total = number_of(args[0])
    if total is None:
        return False
    if is_colour(args[1]):  # "three: white, green, black"; not "two reds and one green"
        listed = [w for w in args[1:] if not is_soft(w)]  # ("…, coch a du": Welsh "and")
        return total >= 3 and all(map(is_colour, listed)) and len(listed) == total
    said, pending = 0, None
    for word in args[1:]:
        if is_number(word) and not is_soft(word):
            if pending is not None:
                return False
            pending = number_of(word)
        elif is_colour(word):
            said += pending or 1
            pending = None
        elif not is_soft(word):
            return False
    colours = sum(1 for w in args[1:] if is_colour(w))
    return pending is None and said == total and colours >= 2


def _counted_list(args: list[Word]) -> list[Word]:
    """A list of colours, each once, with a count after it that says one of each or counts
    the list ("সাদা, নীল, সবুজ, লাল একটা করে"; "নীল, সবুজ, লাল — এই তিনটা"): without it."""
    if len(args) < 3 or not is_number(args[-1]) or is_soft(args[-1]):
        return args
    listed = args[:-1]
    keys = {w.sense for w in listed if is_colour(w)}
    if not all(map(is_colour, listed)) or len(keys) != len(listed):
        return args
    count = number_of(args[-1])
    return listed if count == 1 or (count == len(listed) and count >= 3) else args


def _one_colour_each(args: list[Word]) -> list[Word]:
    """A colour said twice over, by its name and its stone ("hvítan demant", "white
    diamond"), as one: two words of one colour side by side, written differently."""
    out: list[Word] = []
    for word in args:
        last = out[-1] if out else None
        if (
            last is not None
            and is_colour(word)
            and is_colour(last)
            and word.sense == last.sense
            and word.key != last.key
        ):
            continue
        out.append(word)
    return out


def _colour_first_counts(args: list[Word]) -> list[Word]:
    """Counts said after their colours, as Bengali says them ("লাল একটা, নীল একটা"; "কালো
    টোকেন দুইটা"), put before them: colour, count, colour, count … and nothing else."""
    if len(args) < 2 or len(args) % 2 or not is_colour(args[0]):
        return args
    pairs = [(args[n], args[n + 1]) for n in range(0, len(args), 2)]
    if not all(is_colour(c) and is_number(k) and not is_soft(k) for c, k in pairs):
        return args
    return [w for colour, count in pairs for w in (count, colour)]


__all__ = [
    "MoveReading",
    "Sentence",
    "read_move",
    "read_sentence",
    "sentences_of",
]
