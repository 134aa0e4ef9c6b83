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
from referee.engine.cards import GEM_COLOURS
from referee.wording.messages import Message, say


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


def explain(move: Move, seen: GameView, seat: int) -> Message:
    """What ``move`` does for the viewer and what it is for, as a message (a line)."""
    me = seen.players[seat]
    hand = hand_of(seen, seat)
    after, board_after, _ = hand_after(move, hand, face_up(seen.board), seen.nobles, seen.bank[5])
    said: Message
    match move:
        case Buy(card=card):
            pts, colour, _ = CARD_FACTS[card]
            facts = {"card": card, "points": pts, "colour": GEM_COLOURS[colour]}
            noble = closest_noble(me.bonuses, [n for n in seen.nobles if n != move.noble], colour)
            if noble is not None:
                said = say("bot.buys.toward", noble=noble, **facts)
            else:
                said = say("bot.buys", **facts)
        case Take(gems=gems):
            said = say("bot.takes", tokens=list(gems))
            target = _best_target(after, board_after, seen.rules.points_to_win)
            if target is not None:
                missing = lacking(CARD_FACTS[target][2], after.bonuses, after.tokens)
                if missing == 0:
                    said = say("bot.takes.toward_affordable", tokens=list(gems), card=target)
                else:
                    said = say("bot.takes.toward", tokens=list(gems), card=target, short=missing)
        case Reserve(card=card, deck=deck):
            gold = ".gold" if seen.bank[5] else ""
            if card is not None:
                pts, colour, _ = CARD_FACTS[card]
                said = say(f"bot.reserves{gold}", card=card, points=pts, colour=GEM_COLOURS[colour])
            else:
                said = say(f"bot.reserves_blind{gold}", level=deck)
        case Pass():
            said = say("bot.passes")
        case _:
            said = say("bot.resigns")
    if any(move.returned):
        said = say("bot.returning", move=said, tokens=list(move.returned))
    if move.noble is not None:
        said = say("bot.noble", move=said, noble=move.noble)
    return said


def _best_target(hand: Hand, board: Sequence[str], points_to_win: int) -> str | None:
    bonus_w = bonus_weight(hand.points, points_to_win)
    best: tuple[float, str] | None = None
    for card in (*board, *hand.reserved):
        pts, _, cost = CARD_FACTS[card]
        value = (pts + bonus_w) * 0.7 ** lacking(cost, hand.bonuses, hand.tokens)
        if best is None or value > best[0]:
            best = (value, card)
    return None if best is None else best[1]
