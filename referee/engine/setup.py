"""Setting up a game: the only place in the engine where randomness happens.

A :class:`Setup` is explicit: every deck's order (top first, the first four dealt face up),
the revealed nobles and the bank. :func:`make_setup` fills whatever is not given by shuffling
from a seed; each part (each level's deck, the nobles) is shuffled from its own stream derived
from the seed, so fixing one part by hand leaves the others as the seed would deal them.
:func:`start` turns a set-up into the first position. Records store the explicit set-up, so a
game replays without depending on any random number generator.

A set-up that cannot start a game raises :class:`~referee.errors.SetupError`, a ``setup.*``
code of the catalogue and its parameters.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.engine.cards import (
    CARDS,
    GOLD,
    LEVEL_CARDS,
    LEVELS,
    NOBLES,
    TOKEN_COLOURS,
    Tokens,
)
from referee.engine.state import SLOTS_PER_LEVEL, GameState, Player, Rules
from referee.errors import SetupError

MIN_PLAYERS = 2
MAX_PLAYERS = 4
GEMS_PER_COLOUR = {2: 4, 3: 5, 4: 7}


@dataclass(frozen=True, slots=True)
class Setup:
    """An explicit set-up: deck orders per level (top first), revealed nobles, the bank."""

    decks: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    nobles: tuple[str, ...]
    bank: Tokens


def new_seed() -> int:
    """A fresh seed, for a game created without one (recorded, so the deal can be retold)."""
    return secrets.randbelow(2**63)


def standard_bank(players: int, rules: Rules) -> Tokens:
    """The bank at the start: 4, 5 or 7 of each gem for 2, 3 or 4 players, and the gold."""
    gems = GEMS_PER_COLOUR[players]
    return (gems, gems, gems, gems, gems, rules.gold)


def make_setup(
    players: int,
    seed: int,
    rules: Rules,
    *,
    decks: Mapping[int, Sequence[str]] | None = None,
    nobles: Sequence[str] | None = None,
    bank: Mapping[str, int] | None = None,
) -> Setup:
    """The set-up for ``players`` players: the parts given explicitly, the rest from ``seed``."""
    _check_player_count(players)
    _check_rules(rules)
    decks = dict(decks or {})
    unknown_levels = set(decks) - set(LEVELS)
    if unknown_levels:
        raise SetupError.of("setup.deck_levels", levels=str(sorted(unknown_levels)))
    orders = []
    for level in LEVELS:
        if level in decks:
            orders.append(_check_deck(level, decks[level]))
        else:
            order = list(LEVEL_CARDS[level])
            random.Random(f"{seed}/deck/{level}").shuffle(order)
            orders.append(tuple(order))
    if nobles is None:
        pool = list(NOBLES)
        random.Random(f"{seed}/nobles").shuffle(pool)
        revealed = tuple(pool[: players + 1])
    else:
        revealed = _check_nobles(players, nobles)
    counts = list(standard_bank(players, rules))
    for colour, n in (bank or {}).items():
        if colour not in TOKEN_COLOURS:
            raise SetupError.of("setup.bank_colour", colour=colour, colours=list(TOKEN_COLOURS))
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise SetupError.of("setup.bank_count", colour=colour, count=repr(n))
        counts[TOKEN_COLOURS.index(colour)] = n
    if counts[GOLD] != rules.gold:
        raise SetupError.of("setup.bank_gold", bank=counts[GOLD], gold=rules.gold)
    w, u, g, r, k, o = counts
    return Setup(decks=(orders[0], orders[1], orders[2]), nobles=revealed, bank=(w, u, g, r, k, o))


def start(names: Sequence[str], setup: Setup, rules: Rules) -> GameState:
    """The opening position: four cards of each level face up, seat 0 to move."""
    _check_player_count(len(names))
    _check_names(names)
    _check_rules(rules)
    for level, deck in zip(LEVELS, setup.decks, strict=True):
        _check_deck(level, deck)
    _check_nobles(len(names), setup.nobles)
    return GameState(
        rules=rules,
        players=tuple(Player(name=name) for name in names),
        bank=setup.bank,
        board=tuple(
            tuple(deck[:SLOTS_PER_LEVEL])
            + (None,) * (SLOTS_PER_LEVEL - len(deck[:SLOTS_PER_LEVEL]))
            for deck in setup.decks
        ),
        decks=tuple(tuple(deck[SLOTS_PER_LEVEL:]) for deck in setup.decks),
        nobles=tuple(setup.nobles),
    )


def _check_player_count(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError.of("setup.players", fewest=MIN_PLAYERS, most=MAX_PLAYERS, given=players)


def _check_names(names: Sequence[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if not name or any(ch.isspace() for ch in name) or not name.isprintable():
            raise SetupError.of("setup.name", name=name)
        if name.casefold() in seen:
            raise SetupError.of("setup.name_twice", name=name)
        seen.add(name.casefold())


def _check_rules(rules: Rules) -> None:
    if rules.points_to_win < 1:
        raise SetupError.of("setup.points_to_win", given=rules.points_to_win)
    if rules.gold < 0:
        raise SetupError.of("setup.gold", given=rules.gold)


#: The cards of each level, as sets.
_LEVEL_SETS = {level: frozenset(cards) for level, cards in LEVEL_CARDS.items()}


def _check_deck(level: int, deck: Sequence[str]) -> tuple[str, ...]:
    expected = _LEVEL_SETS[level]
    if len(deck) == len(expected) and set(deck) == expected:
        return tuple(deck)  # every card of the level, once each (checked at every start)
    wrong = [card for card in deck if card not in expected]
    if wrong:
        raise SetupError.of("setup.deck_wrong_cards", level=level, cards=_wrong_cards(wrong))
    if len(deck) != len(set(deck)):
        twice = sorted({c for c in deck if list(deck).count(c) > 1})
        raise SetupError.of("setup.deck_twice", level=level, cards=twice)
    missing = sorted(expected - set(deck))
    if missing:
        raise SetupError.of("setup.deck_missing", level=level, size=len(expected), missing=missing)
    return tuple(deck)


def _wrong_cards(wrong: list[str]) -> dict[str, object]:
    """The cards of a deck that are not of its level, as a message (``2-01 (level 2), 9-99
    (no such card)``): each card's, and each but the last's followed by the rest's in a
    ``setup.deck_cards_more``."""
    said = _wrong_card(wrong[-1])
    for card in reversed(wrong[:-1]):
        said = {
            "code": "setup.deck_cards_more",
            "params": {"card": _wrong_card(card), "more": said},
        }
    return said


def _wrong_card(card: str) -> dict[str, object]:
    """A card in a deck of another level, or an id that no card has, as a message."""
    if card in CARDS:
        return {
            "code": "setup.deck_card_level",
            "params": {"card": card, "level": CARDS[card].level},
        }
    return {"code": "setup.deck_card_unknown", "params": {"card": card}}


def _check_nobles(players: int, nobles: Sequence[str]) -> tuple[str, ...]:
    unknown = [n for n in nobles if n not in NOBLES]
    if unknown:
        raise SetupError.of("setup.noble_unknown", nobles=unknown)
    if len(set(nobles)) != len(nobles):
        raise SetupError.of("setup.noble_twice", nobles=repr(list(nobles)))
    if len(nobles) != players + 1:
        raise SetupError.of(
            "setup.noble_count", players=players, revealed=players + 1, given=len(nobles)
        )
    return tuple(nobles)
