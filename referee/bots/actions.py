"""Legal moves grouped into actions, one way of playing each, and what a move does to a hand.

The engine lists every payment, every multiset of returned tokens and every noble choice as
a move of its own. To a bot these are mostly the same decision, so moves are grouped by
*action* (take these gems, reserve this card or from this deck, buy this card, pass) and
each action is played one way (:func:`actions`): coloured tokens paid first and gold for
the rest, the tokens the player needs least given back (:func:`give_back`), and the first
noble the engine lists when several qualify (any of them is 3 points; the others still visit
later). Every move chosen this way is one of the engine's legal moves, unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from referee.bots.scoring import CARD_FACTS, NOBLE_FACTS, wants
from referee.bots.sight import Dealer
from referee.engine import (
    Buy,
    GameState,
    GameView,
    Move,
    Pass,
    Reserve,
    Resign,
    Take,
    legal_moves,
)
from referee.engine.cards import NO_TOKENS, Gems, Tokens
from referee.engine.state import RESERVE_LIMIT, TOKEN_LIMIT, TWO_OF_A_COLOUR_FROM

#: An action: what a move does, leaving out how it pays, what it returns and which noble
#: (``("take", gems)``, ``("reserve", card, deck)``, ``("buy", card)``, ``("pass",)``).
Action = tuple[object, ...]


def action_of(move: Move) -> Action:
    """The action a move makes, leaving out how it pays, what it returns and which noble."""
    match move:
        case Take(gems=gems):
            return ("take", gems)
        case Reserve(card=card, deck=deck):
            return ("reserve", card, deck)
        case Buy(card=card):
            return ("buy", card)
        case Pass():
            return ("pass",)
        case Resign(seat=seat):
            return ("resign", seat)


def tokens_after(move: Move, held: Tokens, bank_gold: int) -> Tokens:
    """The tokens the mover holds after ``move``."""
    match move:
        case Take(gems=gems):
            gain = gems
        case Reserve():
            gain = (0, 0, 0, 0, 0, 1 if bank_gold else 0)
        case Buy(pay=pay):
            gain = (-pay[0], -pay[1], -pay[2], -pay[3], -pay[4], -pay[5])
        case _:
            gain = (0, 0, 0, 0, 0, 0)
    out = move.returned
    return (
        held[0] + gain[0] - out[0],
        held[1] + gain[1] - out[1],
        held[2] + gain[2] - out[2],
        held[3] + gain[3] - out[3],
        held[4] + gain[4] - out[4],
        held[5] + gain[5] - out[5],
    )


def idle(move: Move) -> bool:
    """Whether ``move`` is a take that gives back exactly the tokens it takes."""
    return isinstance(move, Take) and move.returned == move.gems


@dataclass(frozen=True, slots=True)
class Hand:
    """One player's side of a position, as the bots score it."""

    points: int
    bonuses: Gems
    tokens: Tokens
    reserved: tuple[str, ...]


def hand_after(
    move: Move, hand: Hand, board: Sequence[str], nobles: Sequence[str], bank_gold: int
) -> tuple[Hand, list[str], list[str]]:
    """The mover's hand, the face-up cards and the nobles on the table after ``move``.

    A bought or reserved face-up card leaves the board and the card that replaces it is not
    known yet, so it is left out; a card reserved blind is unknown too and is left out of
    the hand (the slot it takes is counted by :func:`blind_slots`)."""
    points, bonuses, reserved = hand.points, hand.bonuses, hand.reserved
    board_after = list(board)
    match move:
        case Buy(card=card):
            pts, colour, _ = CARD_FACTS[card]
            points += pts
            b = list(bonuses)
            b[colour] += 1
            bonuses = (b[0], b[1], b[2], b[3], b[4])
            if card in reserved:
                reserved = tuple(c for c in reserved if c != card)
            else:
                board_after.remove(card)
        case Reserve(card=card) if card is not None:
            reserved = (*reserved, card)
            board_after.remove(card)
        case _:
            pass
    nobles_after = list(nobles)
    if move.noble is not None:
        points += 3
        nobles_after.remove(move.noble)
    tokens = tokens_after(move, hand.tokens, bank_gold)
    return Hand(points, bonuses, tokens, reserved), board_after, nobles_after


def blind_slots(move: Move) -> int:
    """1 when ``move`` reserves blind from a deck (a hand slot taken by an unknown card)."""
    return 1 if isinstance(move, Reserve) and move.card is None else 0


def closest_noble(bonuses: Gems, nobles: Sequence[str], colour: int) -> str | None:
    """The noble on the table that a bonus of ``colour`` brings closest (None: none needs
    that colour)."""
    best: tuple[float, str] | None = None
    for noble in nobles:
        requires, total = NOBLE_FACTS[noble]
        if requires[colour] > bonuses[colour]:
            met = sum(min(b, r) for b, r in zip(bonuses, requires, strict=True)) + 1
            if best is None or met / total > best[0]:
                best = (met / total, noble)
    return None if best is None else best[1]


def actions(state: GameState) -> dict[Action, Move]:
    """Each action of the player to move, played one way, built straight from the rules
    rather than picked from the engine's list of every variant (much the quicker when a
    player must return tokens): payments in coloured tokens first, gold for the rest;
    returns by :func:`give_back`; the first qualifying noble. Each is one of the moves
    ``legal_moves(state)`` lists (the tests hold it to that).

    A take whose best returns give back just the tokens taken changes nothing but the turn
    (:func:`idle`): it is left out unless nothing else is legal. Two players holding every
    token, each waiting for the other to buy first and give tokens back to the bank, would
    otherwise "take and give back" for ever: a search that sees a few rounds ahead finds no
    cost in waiting, and a greedy bot may value tokens in hand above a cheap card."""
    player = state.player
    held, bonuses, bank = player.tokens, player.bonuses, state.bank
    board = state.face_up()
    reserved = [r.card for r in player.reserved]
    noble_now = first_noble(state.nobles, bonuses)
    want: list[int] | None = None
    found: dict[Action, Move] = {}
    idle: dict[Action, Move] = {}  # takes best played giving back what they take
    count = held[0] + held[1] + held[2] + held[3] + held[4] + held[5]

    available = [c for c in range(5) if bank[c] > 0]
    takes: list[tuple[int, ...]] = (
        list(combinations(available, 3)) if len(available) >= 3 else [tuple(available)]
    )
    gems_list: list[Tokens] = []
    for group in takes:
        if group:
            gems_list.append(
                (
                    1 if 0 in group else 0,
                    1 if 1 in group else 0,
                    1 if 2 in group else 0,
                    1 if 3 in group else 0,
                    1 if 4 in group else 0,
                    0,
                )
            )
    for c in range(5):
        if bank[c] >= TWO_OF_A_COLOUR_FROM:
            double = [0, 0, 0, 0, 0, 0]
            double[c] = 2
            gems_list.append(_six(double))
    for gems in gems_list:
        returned = NO_TOKENS
        if count + sum(gems) > TOKEN_LIMIT:
            if want is None:
                want = wants(bonuses, reserved, board)
            returned = give_back(_plus(held, gems), want)
        if returned == gems:
            idle[("take", gems)] = Take(gems, returned, noble_now)
        else:
            found[("take", gems)] = Take(gems, returned, noble_now)

    if len(reserved) < RESERVE_LIMIT:
        gain = (0, 0, 0, 0, 0, 1 if bank[5] else 0)
        returned = NO_TOKENS
        if count + gain[5] > TOKEN_LIMIT:
            if want is None:
                want = wants(bonuses, reserved, board)
            returned = give_back(_plus(held, gain), want)
        for card in board:
            found[("reserve", card, None)] = Reserve(card, None, returned, noble_now)
        for level, deck in enumerate(state.decks, start=1):
            if deck:
                found[("reserve", None, level)] = Reserve(None, level, returned, noble_now)

    hw, hu, hg, hr, hk, gold = held
    bw, bu, bg, br, bk = bonuses
    for card in (*board, *reserved):
        _, colour, cost = CARD_FACTS[card]
        w, u, g, r, k = cost
        # the gold short, written out as in referee.engine.state.affordable (a function call per
        # card costs the search about 8% of its playouts a second)
        w -= bw + hw
        u -= bu + hu
        g -= bg + hg
        r -= br + hr
        k -= bk + hk
        short = (w if w > 0 else 0) + (u if u > 0 else 0) + (g if g > 0 else 0)
        if short + (r if r > 0 else 0) + (k if k > 0 else 0) > gold:
            continue
        pay = payment(cost, bonuses, held)
        if pay is not None:
            after = list(bonuses)
            after[colour] += 1
            found[("buy", card)] = Buy(card, pay, NO_TOKENS, first_noble(state.nobles, after))

    if not found:
        return idle or {("pass",): Pass(NO_TOKENS, noble_now)}
    return found


def own_actions(seen: GameView) -> dict[Action, Move]:
    """The actions of the viewer of ``seen`` (the player to move), played one way each.

    They depend on nothing hidden (the viewer's blind cards are in the view; deck sizes are
    public), so they are worked out on a position dealt without shuffling; each is checked
    against the engine's list of the moves legal there, which are the moves legal in the
    real game."""
    state = Dealer(seen).deal(None)
    legal = legal_moves(state)
    allowed = set(legal)
    found = {key: move for key, move in actions(state).items() if move in allowed}
    return found or {action_of(move): move for move in legal}  # the latter never expected


def payment(cost: Gems, bonuses: Gems, held: Tokens) -> Tokens | None:
    """Paying ``cost`` after ``bonuses`` with coloured tokens first and gold for the rest
    (the engine's default payment); None when ``held`` cannot pay it."""
    pay = [0, 0, 0, 0, 0, 0]
    for c in range(5):
        due = cost[c] - bonuses[c]
        if due > 0:
            pay[c] = due if due < held[c] else held[c]
            pay[5] += due - pay[c]
    if pay[5] > held[5]:
        return None
    return _six(pay)


def give_back(held: Tokens, want: Sequence[int]) -> Tokens:
    """The tokens to return from ``held`` to keep 10: one at a time, the gem colour held
    most beyond what the player wants (:func:`~referee.bots.scoring.wants`), gold last."""
    after = list(held)
    returned = [0, 0, 0, 0, 0, 0]
    excess = sum(held) - TOKEN_LIMIT
    while excess > 0:
        best, spare = 5, -99
        for c in range(5):
            if after[c] > 0 and after[c] - want[c] > spare:
                best, spare = c, after[c] - want[c]
        after[best] -= 1
        returned[best] += 1
        excess -= 1
    return _six(returned)


def first_noble(nobles: Sequence[str], bonuses: Sequence[int]) -> str | None:
    """The first noble on the table whose requirement ``bonuses`` meet (None: none)."""
    for noble in nobles:
        requires = NOBLE_FACTS[noble][0]
        if (
            bonuses[0] >= requires[0]
            and bonuses[1] >= requires[1]
            and bonuses[2] >= requires[2]
            and bonuses[3] >= requires[3]
            and bonuses[4] >= requires[4]
        ):
            return noble
    return None


def _plus(a: Tokens, b: Tokens) -> Tokens:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5])


def _six(counts: Sequence[int]) -> Tokens:
    w, u, g, r, k, o = counts
    return (w, u, g, r, k, o)
