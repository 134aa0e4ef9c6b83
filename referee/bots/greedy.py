"""The greedy bot: the action whose outcome :func:`~referee.bots.scoring.worth` scores best,
one move ahead, for the bot alone (it does not look at what the others may do next).

A bought or reserved face-up card is scored without the card that will replace it (unknown
until drawn); a card reserved blind is scored as its gold and a used hand slot only. Ties
are broken by the random generator, so the same view and seed give the same move.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from referee.bots.actions import Action, Hand, blind_slots, closest_noble, hand_after
from referee.bots.scoring import (
    CARD_FACTS,
    RESERVED,
    bonus_weight,
    lacking,
    worth,
)
from referee.engine import Buy, GameView, Move, Pass, Reserve, Take
from referee.engine.cards import GEM_COLOURS, TOKEN_COLOURS


def face_up(board: Sequence[Sequence[str | None]]) -> list[str]:
    return [card for row in board for card in row if card is not None]


def score(
    move: Move,
    hand: Hand,
    board: Sequence[str],
    nobles: Sequence[str],
    bank_gold: int,
    points_to_win: int,
) -> float:
    """The worth of the mover's hand after ``move`` (the greedy bot's score of a move)."""
    after, board_after, nobles_after = hand_after(move, hand, board, nobles, bank_gold)
    value = worth(
        after.points,
        after.bonuses,
        after.tokens,
        after.reserved,
        board_after,
        nobles_after,
        points_to_win,
    )
    return value + RESERVED * blind_slots(move)


def best_move(
    options: Iterable[Move],
    hand: Hand,
    board: Sequence[str],
    nobles: Sequence[str],
    bank_gold: int,
    points_to_win: int,
    rng: random.Random,
) -> Move:
    """The greedy choice among ``options`` (one move per action) of the player holding
    ``hand``; ties broken by ``rng``."""
    best: Move | None = None
    best_key = (-1e9, 0.0)
    for move in options:
        key = (score(move, hand, board, nobles, bank_gold, points_to_win), rng.random())
        if key > best_key:
            best, best_key = move, key
    assert best is not None, "a player to move has at least one action (a pass)"
    return best


def hand_of(seen: GameView, seat: int) -> Hand:
    """The hand of ``seat`` as ``seen`` shows it (the viewer's own: every card visible)."""
    me = seen.players[seat]
    return Hand(me.points, me.bonuses, me.tokens, tuple(r.card or "" for r in me.reserved))


def choose_greedy(
    seen: GameView, seat: int, options: dict[Action, Move], rng: random.Random
) -> Move:
    """The greedy bot's move for ``seat``, the viewer of ``seen``, among its ``options``."""
    return best_move(
        options.values(),
        hand_of(seen, seat),
        face_up(seen.board),
        seen.nobles,
        seen.bank[5],
        seen.rules.points_to_win,
        rng,
    )


def explain(move: Move, seen: GameView, seat: int) -> str:
    """One line saying what ``move`` does for the viewer and what it is for."""
    me = seen.players[seat]
    hand = hand_of(seen, seat)
    after, board_after, _ = hand_after(move, hand, face_up(seen.board), seen.nobles, seen.bank[5])
    match move:
        case Buy(card=card):
            pts, colour, _ = CARD_FACTS[card]
            text = f"buys {card}: {_points(pts)} and a {GEM_COLOURS[colour]} bonus"
            noble = closest_noble(me.bonuses, [n for n in seen.nobles if n != move.noble], colour)
            if noble is not None:
                text += f" toward {noble}"
        case Take(gems=gems):
            text = f"takes {describe_tokens(gems)}"
            target = _best_target(after, board_after, seen.rules.points_to_win)
            if target is not None:
                missing = lacking(CARD_FACTS[target][2], after.bonuses, after.tokens)
                text += f" toward {target}" + (
                    " (affordable next turn)" if missing == 0 else f" (then {missing} short)"
                )
        case Reserve(card=card, deck=deck):
            if card is not None:
                pts, colour, _ = CARD_FACTS[card]
                text = f"reserves {card} ({_points(pts)}, a {GEM_COLOURS[colour]} bonus)"
            else:
                text = f"reserves the top card of the level {deck} deck unseen"
            if seen.bank[5]:
                text += " and takes a gold"
        case Pass():
            text = "passes: no other move is possible"
        case _:
            text = "resigns"
    if any(move.returned):
        text += f", returning {describe_tokens(move.returned)}"
    if move.noble is not None:
        text += f"; {move.noble} visits (3 points)"
    return text


def describe_tokens(counts: tuple[int, ...]) -> str:
    """``(0, 0, 0, 2, 0, 1)`` -> ``"2 red, 1 gold"``."""
    return ", ".join(f"{n} {TOKEN_COLOURS[kind]}" for kind, n in enumerate(counts) if n)


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _best_target(hand: Hand, board: Sequence[str], points_to_win: int) -> str | None:
    bonus_w = bonus_weight(hand.points, points_to_win)
    best: tuple[float, str] | None = None
    for card in (*board, *hand.reserved):
        pts, _, cost = CARD_FACTS[card]
        value = (pts + bonus_w) * 0.7 ** lacking(cost, hand.bonuses, hand.tokens)
        if best is None or value > best[0]:
            best = (value, card)
    return None if best is None else best[1]
