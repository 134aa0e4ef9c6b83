"""Seeded random playouts: every rule at once, with invariants checked after every move.

The generator (``legal_moves``) and the checker (``apply``) are written apart; here they are
held to each other: every listed move is accepted, and moves that are not listed (near misses
built by changing one thing in a legal move) are refused. Resignations, never listed, are mixed
in at random in playouts of their own.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from referee.engine import (
    CARDS,
    NOBLES,
    Buy,
    GameState,
    Move,
    Pass,
    Reserve,
    Resign,
    Take,
    apply,
    legal_moves,
    outcome,
    view,
)
from referee.errors import IllegalMoveError
from tests.positions import choose, new_game, playout

SEEDS = range(12)
MAX_TURNS = 1000


def check_invariants(state: GameState, initial_bank: tuple[int, ...]) -> None:
    # Tokens are conserved: bank plus every hand equals the bank at set-up.
    totals = list(state.bank)
    for p in state.players:
        totals = [a + b for a, b in zip(totals, p.tokens, strict=True)]
    assert tuple(totals) == initial_bank
    assert all(n >= 0 for n in state.bank)
    # All 90 cards are accounted for, each exactly once (some may have left the game).
    places = [c for deck in state.decks for c in deck]
    places += [c for row in state.board for c in row if c is not None]
    for p in state.players:
        places += list(p.cards) + [r.card for r in p.reserved]
    places += list(state.left)
    assert Counter(places) == Counter(list(CARDS))
    # A resigned player holds no tokens and no reserved cards, never moves and never wins.
    assert len(set(state.resigned)) == len(state.resigned) < len(state.players)
    for seat in state.resigned:
        assert state.players[seat].tokens == (0,) * 6 and state.players[seat].reserved == ()
        assert state.players[seat].name not in outcome(state)
    if state.status != "finished":
        assert state.to_move not in state.resigned
        assert state.passes < len(state.players) - len(state.resigned)
    # Nobles: on the table or with exactly one player, never both.
    nobles = list(state.nobles) + [n for p in state.players for n in p.nobles]
    assert len(nobles) == len(set(nobles)) and set(nobles) <= set(NOBLES)
    for p in state.players:
        assert all(n >= 0 for n in p.tokens) and sum(p.tokens) <= 10
        assert len(p.reserved) <= 3
        assert p.points == sum(CARDS[c].points for c in p.cards) + 3 * len(p.nobles)
        bonuses = [0] * 5
        for c in p.cards:
            bonuses[CARDS[c].bonus] += 1
        assert tuple(bonuses) == p.bonuses
    if state.status != "finished":
        assert legal_moves(state), "the player to move always has a legal move"


def near_misses(state: GameState, move: Move, rng: random.Random) -> list[Move]:
    """Moves one change away from ``move``; some legal, most not."""
    bump = [0] * 6
    bump[rng.randrange(6)] = 1
    extra = (bump[0], bump[1], bump[2], bump[3], bump[4], bump[5])
    plus = lambda t: tuple(a + b for a, b in zip(t, extra, strict=True))  # noqa: E731
    out: list[Move] = [replace(move, returned=plus(move.returned))]  # type: ignore[arg-type]
    out.append(replace(move, noble=rng.choice([None, *NOBLES])))
    match move:
        case Take(gems=gems):
            out.append(replace(move, gems=plus(gems)))  # type: ignore[arg-type]
        case Buy(pay=pay):
            out.append(replace(move, pay=plus(pay)))  # type: ignore[arg-type]
            out.append(replace(move, card=rng.choice(list(CARDS))))
        case Reserve(card=card):
            if card:
                out.append(replace(move, card=rng.choice(list(CARDS))))
            else:
                out.append(replace(move, deck=rng.choice([1, 2, 3])))
    out.append(Pass())
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_keeps_every_invariant_and_ends(players: int, seed: int) -> None:
    start_bank: tuple[int, ...] | None = None
    turns = 0
    for state, _move, after in playout(players, seed):
        start_bank = start_bank or state.bank
        check_invariants(after, start_bank)
        turns += 1
        assert turns < MAX_TURNS
    assert turns > 0 and after.status == "finished"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_accepts_exactly_the_moves_legal_moves_lists(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for state, move, _ in playout(players, 100 + players):
        legal = legal_moves(state)
        assert len(legal) == len(set(legal)), "each legal move is listed once"
        for listed in legal:
            apply(state, listed)
        listed_set = set(legal)
        for candidate in near_misses(state, move, rng):
            if candidate in listed_set:
                apply(state, candidate)
            else:
                with pytest.raises(IllegalMoveError):
                    apply(state, candidate)
            checked += 1
    assert checked > 100


def playout_with_resignations(
    players: int, seed: int, chance: float
) -> Iterator[tuple[GameState, Move, GameState]]:
    """A seeded random game in which, before each move, someone still in (the player to move
    or another) resigns with probability ``chance``."""
    state = new_game(players, seed)
    rng = random.Random(seed)
    while state.status != "finished":
        if rng.random() < chance:
            move: Move = Resign(rng.choice(state.still_in()))
        else:
            move = choose(rng, legal_moves(state))
        after = apply(state, move)
        yield state, move, after
        state = after


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_with_resignations_keeps_every_invariant_and_ends(
    players: int, seed: int
) -> None:
    start_bank: tuple[int, ...] | None = None
    turns = 0
    resigned = 0
    for state, move, after in playout_with_resignations(players, seed, chance=0.04):
        start_bank = start_bank or state.bank
        check_invariants(after, start_bank)
        assert after.turn == state.turn + 1
        if isinstance(move, Resign):
            resigned += 1
            assert after.resigned == (*state.resigned, move.seat)
            assert sum(after.bank) == sum(state.bank) + sum(state.players[move.seat].tokens)
            if move.seat != state.to_move and after.status != "finished":
                assert after.to_move == state.to_move, "the player to move stays the same"
            with pytest.raises(IllegalMoveError):
                apply(after, move)  # never twice
            for viewer in (None, *(p.name for p in after.players)):
                shown = view(after, viewer)
                gone = {r.card for r in state.players[move.seat].reserved}
                assert not gone & {r.card for p in shown.players for r in p.reserved}
        turns += 1
        assert turns < MAX_TURNS
    assert turns > 0 and after.status == "finished"
    assert outcome(after) and not set(outcome(after)) & {
        after.players[s].name for s in after.resigned
    }
    if len(after.still_in()) == 1:
        assert outcome(after) == [after.players[after.still_in()[0]].name]


def test_random_playouts_with_resignations_reach_their_rare_cases() -> None:
    """The random resignations above do resign players out of turn, on their turn, during
    the last round, holding reserved cards, and down to the last player standing."""
    seen: Counter[str] = Counter()
    for players in (2, 3, 4):
        for seed in SEEDS:
            for state, move, after in playout_with_resignations(players, seed, chance=0.04):
                if not isinstance(move, Resign):
                    continue
                seen["on turn" if move.seat == state.to_move else "out of turn"] += 1
                seen["reserved"] += bool(state.players[move.seat].reserved)
                seen["last round"] += state.status == "last_round"
                seen["last standing"] += len(after.still_in()) == 1
    wanted = ("on turn", "out of turn", "reserved", "last round", "last standing")
    assert all(seen[k] > 0 for k in wanted), seen


def test_playouts_of_the_same_seed_are_the_same_game() -> None:
    first = [m for _, m, _ in playout(3, 9)]
    assert first == [m for _, m, _ in playout(3, 9)]


def test_playouts_reach_the_rare_rules() -> None:
    """The random games do exercise returns, nobles, blind reserves and buys of reserved cards,
    so the invariants above cover them."""
    seen: Counter[str] = Counter()
    for players in (2, 3, 4):
        for seed in SEEDS:
            for state, move, _ in playout(players, seed):
                if any(move.returned):
                    seen["return"] += 1
                if move.noble:
                    seen["noble"] += 1
                if isinstance(move, Reserve) and move.deck:
                    seen["blind"] += 1
                if isinstance(move, Buy) and move.card in {r.card for r in state.player.reserved}:
                    seen["buy reserved"] += 1
                if isinstance(move, Buy) and move.pay[5]:
                    seen["gold"] += 1
    assert all(seen[k] > 0 for k in ("return", "noble", "blind", "buy reserved", "gold")), seen


def test_new_game_is_not_finished_and_lists_moves() -> None:
    assert legal_moves(new_game(4))
