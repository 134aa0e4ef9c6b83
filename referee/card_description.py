"""A card said by what it is like, read in a sentence beside a reserve or a buy (docs/
notation.md, "Sentences"): "the green 5-pointer on the top row", "y cerdyn gwyn dau bwynt
sy'n costio 5 coch", "ওই সাদা কার্ডটা, যেটায় ৫টা লাল লাগে". The words
that say its bonus colour, its level (a number, an ordinal or the top beside a deck or row
word), its points and its cost; whether a card named by its id is as the words beside it
describe it. The words of each kind are each language's ``[grammar]`` (``points``, ``cost``,
``row``, ``top``, ``first``, ``second``, ``third``).

Pure: words in, the words that say each thing of the card out.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from referee.engine.cards import CARDS
from referee.notation import Word, card_fits, description_of, number_of, reading_words
from referee.sentence_words import (
    DECK,
    GOLD,
    ROW,
    grammar_kinds,
    is_colour,
    is_gem_colour,
    is_number,
)
from referee.wording.vocabulary import ReadingVocabulary, Sense

#: The kinds of ``[grammar]`` word that say what a card is like, read beside a reserve or a
#: buy: the first that a word has is what it says.
DESCRIBING_KINDS = ("cost", "points", "row", "top", "first", "second", "third")


#: The level that each word for a place says ("the top row", "ar y lefel gyntaf").
LEVEL_OF = {"first": 1, "second": 2, "third": 3, "top": 3}


def describing_kind(key: str, vocabulary: ReadingVocabulary) -> str | None:
    kinds = grammar_kinds(key, vocabulary)
    return next((k for k in DESCRIBING_KINDS if k in kinds), None)


def is_describing(word: Word) -> bool:
    return word.sense is not None and word.sense.group == "describes"


def is_place_or_describing(word: Word) -> bool:
    return word.sense == DECK or is_describing(word)


def description(args: list[Word], head: str) -> list[Word] | None:
    """A card said by what it is like ("the green 5-pointer on the top row", "y cerdyn gwyn
    dau bwynt sy'n costio 5 coch"), as the words that say each thing of it: its bonus colour
    (the one colour left), its level (a number, an ordinal or a word for the top beside a
    deck or row word), its points (a number beside a points word, one when none is) and its
    cost (counts and colours after a cost word). None when the words say anything more
    (another colour, another count: then they are not a description)."""
    if not args:
        return None
    vocabulary = reading_words()
    used: set[int] = set()
    levels: set[int] = set()
    points: list[int] = []
    pointed = False
    cost: list[tuple[int, int]] = []
    counted_points: set[int] = set()  # (where a count after a word of points stands)

    def number(at: int, most: int) -> int | None:
        if at in used or not 0 <= at < len(args) or not is_number(args[at]):
            return None
        found = number_of(args[at])
        if found is None or found > most:
            return None
        used.add(at)
        return found

    for n, word in enumerate(args):  # the places first: their levels are beside them
        if word.sense not in (DECK, ROW) or n in used:  # (one that says another's level)
            continue
        used.add(n)
        kinds = grammar_kinds(word.key, vocabulary) if word.sense == DECK else set()
        counts_points = (  # ("la dua nivelo, tiun kun du poentoj": the count after it is of
            n + 2 < len(args)  # points, and the one before it its level)
            and _says_points(args[n + 2])
            and n > 0
            and is_number(args[n - 1])
            and not (n + 3 < len(args) and is_number(args[n + 3]))
        )
        level = (  # ("the second level, the one which…": an ordinal before a count of one)
            _level_beside(args, n, used, ORDINALS)
            or (None if counts_points else number(n + 1, 3))
            or (None if kinds & {"top", "points"} else number(n - 1, 3))  # ("the red one at
            # the top": a pronoun, not a level; Icelandic "tvö stig", two points: "stig 2" is
            # the level)
            or _level_beside(args, n, used, ("top",))
        )
        if level is None and "top" in kinds:  # "y lefel uchaf", "efsta"
            level = 3
        if level is not None:
            levels.add(level)
        elif "points" in kinds:  # (Icelandic "stig": a level, and points)
            pointed = True
            found = number(n - 1, 5)
            points += [found] if found is not None else []
        elif not _place_beside(args, n):  # ("সবচেয়ে উপরের লেভেলের": one place)
            return None
    for n, word in enumerate(args):
        if n in used or not is_describing(word) or word.sense is None:
            continue
        used.add(n)
        if word.sense.value == "points":
            pointed = True
            if n - 1 in counted_points:  # ("gwerth dau bwynt": the count of the word before)
                continue
            ahead = n + 1 < len(args) and is_number(args[n + 1]) and n + 1 not in used
            ahead = ahead and not (n + 2 < len(args) and is_gem_colour(args[n + 2]))  # (not
            # a count of a colour after it: "এক পয়েন্টের, চারটে লাল লাগে")
            one = n > 0 and number_of(args[n - 1]) == 1 and not args[n - 1].key.isdigit()
            found = None if ahead and one else number(n - 1, 5)  # ("the white one worth 2")
            if found is None and (found := number(n + 1, 5)) is not None:
                counted_points.add(n + 1)
            points += [found] if found is not None else []
        elif word.sense.value == "cost":  # (a cost word with no counts after it says nothing)
            at = n + 1
            while at + 1 < len(args) and is_number(args[at]) and is_gem_colour(args[at + 1]):
                count, gem = number_of(args[at]), args[at + 1].sense
                assert count is not None and gem is not None
                cost.append((int(gem.value), count))
                used.update((at, at + 1))
                at += 2
            ones = at == n + 1 or (at == n + 3 and cost[-1][1] == 1)  # ("po unu blankan, …")
            listed = args[at:]
            if len(listed) > 2 and number_of(listed[-1]) == 1:  # ("… লাল একটা করে": one each)
                listed = listed[:-1]
            # (colours just before the word of cost are its cost, "…সবুজ, লাল একটা করে লাগে এমন
            # কালো কার্ডটা": the colour after it is then the card's own)
            earlier = args[n - 1 :: -1] if n > 0 else []
            run = list(itertools.takewhile(lambda w: is_gem_colour(w) or is_number(w), earlier))
            said_before = sum(map(is_gem_colour, run)) > 1
            if ones and listed and all(map(is_gem_colour, listed)) and not said_before:
                cost += [(int(w.sense.value), 1) for w in listed if w.sense is not None]
                used.update(range(at, len(args)))
            # (none after it: before it, as "যেটায় ৫টা লাল লাগে" says it; past a "one each")
            each = 1 if n > 0 and is_number(args[n - 1]) and number_of(args[n - 1]) == 1 else 0
            back = n - 2 - each
            counted = len(cost)
            while at == n + 1 and back >= 0 and is_gem_colour(args[back + 1]):
                count = number(back, 7)
                gem = args[back + 1].sense
                if count is None or gem is None or back + 1 in used:
                    break
                cost.append((int(gem.value), count))
                used.add(back + 1)
                back -= 2
            listed_before: list[int] = []  # ("যেটায় সাদা, নীল, সবুজ, লাল একটা করে লাগে":
            # one of each; no card costs five colours, so the fifth before is its bonus)
            if len(cost) > counted:
                used.update(range(n - each, n))
            while at == n + 1 and len(cost) == counted and len(listed_before) < 4:
                at_back = n - 1 - each - len(listed_before)
                if at_back < 0 or at_back in used or not is_gem_colour(args[at_back]):
                    break
                listed_before.append(at_back)
            if len(listed_before) > 1:
                used.update(range(n - each, n))
                for k in reversed(listed_before):
                    sense = args[k].sense
                    assert sense is not None
                    cost.append((int(sense.value), 1))
                    used.add(k)
        # (an ordinal by itself, "first, I'll…", says nothing)
    left = [w for n, w in enumerate(args) if n not in used]
    colours = {w.sense.value for w in left if is_gem_colour(w) and w.sense}
    for word in left:
        if is_gem_colour(word) or (is_number(word) and number_of(word) == 1):
            continue
        if (head == "reserve" and is_colour(word)) or word.sense == Sense("held"):
            continue  # (the gold that comes with a reserve)
        return None
    if len(colours) > 1 or len(levels) > 1 or len(set(points)) > 1:
        return None
    held = [w for w in left if w.sense == Sense("held")]
    said: list[Word] = held[:1]
    first = args[0]
    if colours:
        named = next(w for w in left if is_gem_colour(w))
        assert named.sense is not None
        bonus = Sense("bonus", named.sense.value, named.sense.languages)
        said.append(replace(named, sense=bonus))
    if levels:
        said.append(replace(first, sense=Sense("level", levels.pop())))
    if pointed:
        said.append(replace(first, sense=Sense("points", points[0] if points else 1)))
    said += [replace(first, sense=Sense("cost", f"{c}:{k}")) for c, k in cost]
    return said


def _says_points(word: Word) -> bool:
    return is_describing(word) and word.sense is not None and word.sense.value == "points"


def _level_beside(args: list[Word], n: int, used: set[int], kinds: tuple[str, ...]) -> int | None:
    """The level that a word of ``kinds`` (ordinals, or the word for the top) beside a deck
    or row word says."""
    vocabulary = reading_words()
    for at in (n - 1, n + 1):
        if at in used or not 0 <= at < len(args):
            continue
        word = args[at]
        if is_describing(word) and word.sense is not None:
            kind = str(word.sense.value)
        elif word.sense == DECK and "top" in grammar_kinds(word.key, vocabulary):
            kind = "top"
        else:
            continue
        if kind in kinds:
            used.add(at)
            return LEVEL_OF[kind]
    return None


def _place_beside(args: list[Word], n: int) -> bool:
    """Whether a deck or row word stands beside another (the two say one place)."""
    return any(0 <= at < len(args) and args[at].sense in (DECK, ROW) for at in (n - 1, n + 1))


def ordinal_level(args: list[Word]) -> int | None:
    """The level of the deck that a reserve names by an ordinal beside a deck word, and by
    no number but one ("one from the second deck"): None when it names it otherwise."""
    if any(number_of(w) not in (None, 1) for w in args) or any(map(is_gem_colour, args)):
        return None
    decks = [
        n
        for n, w in enumerate(args)
        if w.sense == DECK and not (n + 1 < len(args) and args[n + 1].sense == ROW)
    ]  # (a deck word before a row word is the row's: "top row")
    if any(w.sense == ROW for w in args) and not decks:  # ("the first card in the top row":
        return None  # face up; not "the top card of the third row's deck")
    found = set()
    for n, word in enumerate(args):
        if word.sense != DECK:
            continue
        for at in (n - 1, n + 1):
            beside = args[at].sense if 0 <= at < len(args) else None
            if beside is not None and beside.group == "describes" and beside.value in ORDINALS:
                found.add(LEVEL_OF[str(beside.value)])
    return found.pop() if len(found) == 1 else None


ORDINALS = ("first", "second", "third")


def fits_card(card: Word, said: list[Word]) -> bool:
    """Whether a card named by its id is as the words beside it describe it."""
    fields = description_of(said) or {}
    fields.pop("held", None)
    found = card_id(card.key)
    return found in CARDS and card_fits(found, **fields)


def says_only_the_card(card: Word, word: Word, head: str) -> bool:
    """Whether ``word``, beside a card, says nothing more of the move: the card's colour, its
    level, its points, a deck word ("reserve 2-05, the white one worth 2"; "the level 2
    card 2-05"), "nothing"; beside a reserve, the gold that comes with it and any count
    (a reserve counts nothing)."""
    found = CARDS.get(card_id(card.key))
    if found is None:
        return False
    if word.sense is not None and word.sense.group == "colour":
        colour = int(word.sense.value)
        return colour == found.bonus or (head == "reserve" and colour == GOLD)
    if word.sense is not None and word.sense.group == "move":
        return word.sense.value in ("deck", "nothing")
    number = number_of(word)
    return number is not None and (head == "reserve" or number in (found.level, found.points))


def card_id(key: str) -> str:
    level, _, number = key.partition("-")
    return f"{level}-{int(number):02d}" if number.isdecimal() else key
