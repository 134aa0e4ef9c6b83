"""The engine's fast paths agree with plain readings of the rules.

``legal_moves`` keeps parts of its lists (the takes for each kind of bank, the reserves of each
row, the returns, the payments) and tests affordability on sets of cards; ``apply`` plays a
plainly legal move by a quick path and makes states without the dataclasses' ``__init__``.
Here each is held to a slow and obvious version: the same moves in the same order (random
playouts depend on the order), the same states, the same refusals.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields, replace
from itertools import combinations, permutations, product

import pytest

from referee.engine import (
    CARDS,
    NOBLES,
    Buy,
    GameState,
    Move,
    Pass,
    Player,
    Reservation,
    Reserve,
    Resign,
    Rules,
    Take,
    apply,
    legal_moves,
)
from referee.engine import rules as engine_rules
from referee.engine.cards import LEVEL_CARDS, NO_TOKENS, Gems, Tokens
from referee.engine.moves import BUY_FIELDS, new_buy
from referee.engine.rules import _apply_checked, payments, token_returns, token_takes
from referee.engine.state import PLAYER_FIELDS, STATE_FIELDS, new_player, new_state
from tests.positions import choose, holding, new_game

# -- Slow and obvious --------------------------------------------------------------------------


def slow_takes(bank: Tokens) -> list[Tokens]:
    available = [g for g in range(5) if bank[g] > 0]
    groups = list(combinations(available, 3)) if len(available) >= 3 else [tuple(available)]
    takes = [tuple(1 if g in group else 0 for g in range(6)) for group in groups if group]
    takes += [tuple(2 if g == colour else 0 for g in range(6)) for colour in range(5)]
    return [t for t in takes if 2 not in t or bank[t.index(2)] >= 4]  # type: ignore[misc]


def slow_returns(held: Tokens) -> list[Tokens]:
    excess = sum(held) - 10
    if excess <= 0:
        return [NO_TOKENS]
    counts = product(*(range(min(h, excess) + 1) for h in held))
    return [c for c in counts if sum(c) == excess]  # type: ignore[misc]


def slow_payments(need: Gems, held: Tokens) -> list[Tokens]:
    """For each colour, any number of gold tokens standing in (fewest first, white first)."""
    pays = []
    for golds in product(*(range(n + 1) for n in need)):
        coloured = [n - x for n, x in zip(need, golds, strict=True)]
        if all(c <= h for c, h in zip(coloured, held, strict=False)) and sum(golds) <= held[5]:
            pays.append((*coloured, sum(golds)))
    return pays  # type: ignore[return-value]


def qualifying(state: GameState, bonuses: Gems) -> list[str | None]:
    met = [
        n
        for n in state.nobles
        if all(b >= r for b, r in zip(bonuses, NOBLES[n].requires, strict=True))
    ]
    return [*met] or [None]


def plus(a: Tokens, b: Tokens) -> Tokens:
    return tuple(x + y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def slow_legal_moves(state: GameState) -> list[Move]:
    """docs/rules.md read plainly: takes, reserves (face up, then decks), buys (board, then
    hand)."""
    if state.status == "finished":
        return []
    player = state.player
    held = player.tokens
    now = qualifying(state, player.bonuses)
    moves: list[Move] = [
        Take(gems, returned, noble)
        for gems in slow_takes(state.bank)
        for returned in slow_returns(plus(held, gems))
        for noble in now
    ]
    face_up = state.face_up()
    if len(player.reserved) < 3:
        gain: Tokens = (0, 0, 0, 0, 0, 1) if state.bank[5] else NO_TOKENS
        endings = [(r, n) for r in slow_returns(plus(held, gain)) for n in now]
        moves += [Reserve(card, None, r, n) for card in face_up for r, n in endings]
        decks = [level for level, deck in enumerate(state.decks, start=1) if deck]
        moves += [Reserve(None, level, r, n) for level in decks for r, n in endings]
    for card_id in face_up + [r.card for r in player.reserved]:
        card = CARDS[card_id]
        need = tuple(max(c - b, 0) for c, b in zip(card.cost, player.bonuses, strict=True))
        after = list(player.bonuses)
        after[card.bonus] += 1
        for pay in slow_payments(need, held):  # type: ignore[arg-type]
            for noble in qualifying(state, tuple(after)):  # type: ignore[arg-type]
                moves.append(Buy(card_id, pay, NO_TOKENS, noble))
    return moves or [Pass(NO_TOKENS, noble) for noble in now]


def positions(players: int, seed: int, rules: Rules | None = None) -> Iterator[GameState]:
    """Every position of a random game, resignations now and then included."""
    state = new_game(players, seed, rules)
    rng = random.Random(seed)
    while state.status != "finished":
        yield state
        if rng.random() < 0.01:
            move: Move = Resign(rng.choice(state.still_in()))
        else:
            move = choose(rng, legal_moves(state))
        state = apply(state, move)
    yield state


GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(4)]


# -- Legal moves -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_legal_moves_are_those_of_a_plain_reading_of_the_rules_in_the_same_order(
    players: int, seed: int
) -> None:
    for state in positions(players, seed):
        assert legal_moves(state) == slow_legal_moves(state)


@pytest.mark.parametrize("rules", [Rules(gold=0), Rules(points_to_win=30, gold=9)])
def test_legal_moves_are_the_same_under_other_rule_options(rules: Rules) -> None:
    for state in positions(3, 7, rules):
        assert legal_moves(state) == slow_legal_moves(state)


def test_legal_moves_near_the_token_limit_with_nobles_and_full_hands() -> None:
    """The cases the kept lists do not cover: returns, nobles due, three cards reserved."""
    rng = random.Random(5)
    base = new_game(2, 5)
    bought = list(LEVEL_CARDS[1] + LEVEL_CARDS[2])
    face_up = set(base.face_up())
    for _ in range(300):
        held = [rng.randrange(4) for _ in range(6)]
        cards = rng.sample(bought, rng.randrange(25))
        hand = [c for c in rng.sample(list(CARDS), 3) if c not in face_up]
        state = holding(
            base,
            tokens_=(held[0], held[1], held[2], held[3], held[4], held[5]),
            cards=[c for c in cards if c not in face_up and c not in hand],
            reserved=[(c, rng.random() < 0.5) for c in hand[: rng.randrange(4)]],
        )
        w, u, g, r, k, o = (rng.choice((0, 1, 3, 4, 7, 70)) for _ in range(6))
        state = replace(state, bank=(w, u, g, r, k, o))
        assert legal_moves(state) == slow_legal_moves(state)


def test_kept_parts_are_those_of_a_plain_reading_of_the_rules() -> None:
    rng = random.Random(1)
    costs = [card.cost for card in CARDS.values()]
    for _ in range(1000):
        bank = tuple(rng.choice((-1, 0, 1, 2, 3, 4, 5, 7, 70)) for _ in range(6))
        assert list(token_takes(bank)) == slow_takes(bank)  # type: ignore[arg-type]
        # Up to 13 tokens: what a player can hold for a moment, before returning.
        held = tuple(rng.randrange(8) for _ in range(6))
        while sum(held) > 13:
            held = tuple(rng.randrange(n + 1) for n in held)
        assert list(token_returns(held)) == slow_returns(held)  # type: ignore[arg-type]
        need = tuple(max(c - rng.randrange(3), 0) for c in rng.choice(costs))
        assert list(payments(need, held)) == slow_payments(need, held)  # type: ignore[arg-type]


def test_affordability_by_sets_of_cards_holds_beyond_its_tables() -> None:
    """Powers above the tables are worked out, not looked up."""
    over = engine_rules._cards_over(100, 0, 0, 0, 0)
    assert over == engine_rules._cards_over(7, 0, 0, 0, 0)
    assert engine_rules._cards_over(-1, 0, 0, 0, 0) == sum(engine_rules._BITS.values())


def test_kept_rows_stay_few() -> None:
    for row in list(permutations(LEVEL_CARDS[1], 4))[: engine_rules._ROWS_KEPT + 50]:
        engine_rules._row_cards(row)
    assert len(engine_rules._ROWS) <= engine_rules._ROWS_KEPT


# -- Applying ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), GAMES[::2])
def test_the_quick_path_plays_every_listed_move_as_the_rule_by_rule_checks_do(
    players: int, seed: int
) -> None:
    for state in positions(players, seed):
        for move in legal_moves(state):
            quick = engine_rules._quick_apply(state, move)
            assert quick is not None, move
            assert quick == _apply_checked(state, move)


def test_the_quick_path_leaves_every_other_move_to_the_checks() -> None:
    """Moves one change away from legal ones: whatever the quick path does not play is played
    or refused by the checks, and nothing it plays is refused by them."""
    rng = random.Random(3)
    tried = 0
    for state in positions(4, 3):
        if state.status == "finished":
            break
        for move in rng.sample(legal_moves(state), 2) if len(legal_moves(state)) > 1 else []:
            bump = tuple(1 if kind == rng.randrange(6) else 0 for kind in range(6))
            noble = rng.choice([None, *NOBLES])
            variants: list[Move] = [replace(move, noble=noble)]  # type: ignore[arg-type]
            variants.append(replace(move, returned=plus(move.returned, bump)))  # type: ignore[arg-type]
            if isinstance(move, Take):
                variants.append(replace(move, gems=plus(move.gems, bump)))  # type: ignore[arg-type]
            if isinstance(move, Buy):
                variants.append(replace(move, pay=plus(move.pay, bump)))  # type: ignore[arg-type]
                variants.append(replace(move, card=rng.choice(list(CARDS))))
            if isinstance(move, Reserve):
                variants.append(replace(move, card=rng.choice([None, *CARDS])))
                variants.append(replace(move, deck=rng.choice([None, 0, 1, 2, 3, 4])))
            for variant in variants:
                quick = engine_rules._quick_apply(state, variant)
                try:
                    checked = _apply_checked(state, variant)
                except Exception as err:  # the checks refuse it: so must the quick path
                    assert quick is None, (variant, err)
                    continue
                assert quick is None or quick == checked
                tried += 1
    assert tried > 100


# -- Made quickly ------------------------------------------------------------------------------


def test_states_players_and_buys_made_quickly_are_those_the_classes_make() -> None:
    assert tuple(f.name for f in fields(GameState)) == STATE_FIELDS
    assert tuple(f.name for f in fields(Player)) == PLAYER_FIELDS
    assert tuple(f.name for f in fields(Buy)) == BUY_FIELDS
    state = new_game(3, 2)
    values = [getattr(state, name) for name in STATE_FIELDS]
    made = new_state(*values)
    assert made == GameState(*values) and hash(made) == hash(GameState(*values))
    player_values = ("ann", (1, 2, 0, 0, 0, 1), ("1-01",), (1, 0, 0, 0, 0), (), ("N1",), 3)
    quick_player = new_player(*player_values)
    assert quick_player == Player(*player_values)
    assert repr(quick_player) == repr(Player(*player_values))
    assert new_buy("1-01", (1, 0, 0, 0, 0, 0), NO_TOKENS, None) == Buy("1-01", (1, 0, 0, 0, 0, 0))
    with pytest.raises(AttributeError):
        made.turn = 3  # type: ignore[misc]


def test_reservations_and_moves_are_shared_not_copied_yet_equal() -> None:
    state = new_game(2, 4)
    card = state.face_up()[0]
    after = apply(state, Reserve(card))
    assert after.players[0].reserved == (Reservation(card, blind=False),)
    assert legal_moves(state)[0] is legal_moves(state)[0]
