"""Positions built by hand for scenario tests, and the random playouts the invariants run on."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace

from referee.engine import (
    CARDS,
    Buy,
    GameState,
    Move,
    Player,
    Reservation,
    Rules,
    apply,
    legal_moves,
    make_setup,
    start,
)
from referee.engine.cards import GEM_COLOURS, NOBLES, Tokens, tokens

NAMES = ("alice", "bob", "carol", "dave")


def new_game(players: int = 2, seed: int = 1, rules: Rules | None = None) -> GameState:
    rules = rules or Rules()
    return start(NAMES[:players], make_setup(players, seed, rules), rules)


def bank(**counts: int) -> Tokens:
    return tokens(**counts)


def holding(
    state: GameState,
    seat: int | None = None,
    *,
    tokens_: Tokens | None = None,
    cards: Sequence[str] | None = None,
    reserved: Sequence[tuple[str, bool]] | None = None,
    nobles: Sequence[str] | None = None,
) -> GameState:
    """``state`` with one player's hand replaced (bonuses and points derived from cards)."""
    seat = state.to_move if seat is None else seat
    player = state.players[seat]
    new_cards = tuple(player.cards if cards is None else cards)
    new_nobles = tuple(player.nobles if nobles is None else nobles)
    bonuses = [0] * 5
    for card in new_cards:
        bonuses[CARDS[card].bonus] += 1
    w, u, g, r, k = bonuses
    new = Player(
        name=player.name,
        tokens=player.tokens if tokens_ is None else tokens_,
        cards=new_cards,
        bonuses=(w, u, g, r, k),
        reserved=player.reserved
        if reserved is None
        else tuple(Reservation(c, blind) for c, blind in reserved),
        nobles=new_nobles,
        points=sum(CARDS[c].points for c in new_cards) + 3 * len(new_nobles),
    )
    players = list(state.players)
    players[seat] = new
    return replace(state, players=tuple(players))


def without_cards(state: GameState, cards: Sequence[str]) -> GameState:
    """``state`` with ``cards`` taken out of the decks and off the board (slots left empty)."""
    gone = set(cards)
    return replace(
        state,
        board=tuple(tuple(None if c in gone else c for c in row) for row in state.board),
        decks=tuple(tuple(c for c in deck if c not in gone) for deck in state.decks),
    )


def cards_of_colour(colour: str, count: int, level: int = 1) -> list[str]:
    """``count`` card ids of one bonus colour (cheapest first), to give a player bonuses."""
    kind = GEM_COLOURS.index(colour)
    found = [c for c in CARDS.values() if c.bonus == kind and c.level == level]
    return [c.id for c in found[:count]]


def bonuses_for(noble: str) -> list[str]:
    """Card ids whose bonuses exactly meet ``noble``'s requirement."""
    cards: list[str] = []
    for kind, n in enumerate(NOBLES[noble].requires):
        if n:
            level_one = cards_of_colour(GEM_COLOURS[kind], 8, level=1)
            cards += level_one[:n]
    return cards


def choose(rng: random.Random, moves: list[Move]) -> Move:
    """The benchmark's policy: a random buy when one is legal, else any random legal move."""
    buys = [m for m in moves if isinstance(m, Buy)]
    return rng.choice(buys or moves)


def playout(
    players: int, seed: int, rules: Rules | None = None
) -> Iterator[tuple[GameState, Move, GameState]]:
    """A seeded random game: (state, move, next state) for every move until it ends."""
    state = new_game(players, seed, rules)
    rng = random.Random(seed)
    while state.status != "finished":
        move = choose(rng, legal_moves(state))
        after = apply(state, move)
        yield state, move, after
        state = after


def dealt(
    players: int = 2,
    *,
    top: dict[int, Sequence[str]] | None = None,
    nobles: Sequence[str] | None = None,
    rules: Rules | None = None,
    seed: int = 1,
) -> GameState:
    """A new game whose decks start with the cards in ``top`` (the first 4 are dealt face up);
    the rest of each deck and anything not given come from ``seed``."""
    rules = rules or Rules()
    shuffled = make_setup(players, seed, rules, nobles=nobles)
    decks = {}
    for level, first in (top or {}).items():
        rest = [c for c in shuffled.decks[level - 1] if c not in first]
        decks[level] = [*first, *rest]
    setup = make_setup(players, seed, rules, decks=decks, nobles=nobles)
    return start(NAMES[:players], setup, rules)
