"""The search bot: information-set Monte Carlo tree search (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012) over determinised positions.

Every playout:

1. deals a position consistent with the bot's view (:func:`~referee.bots.sight.determinise`:
   the unseen cards shuffled into the decks and the others' blind reserved cards);
2. walks down one tree shared by all playouts, whose edges are *actions* (take these gems,
   buy this card, ...; each played one way, see :func:`~referee.bots.actions.actions`). At
   a node it tries the next untried action legal in this position (at the root in the
   greedy bot's order of preference, deeper at random) and stops there; when all have been
   tried it follows the action with the best UCB score for the player to move there,
   ``mean + EXPLORATION * sqrt(ln(available) / visits)`` (as in ISMCTS, ``available``
   counts the playouts in which the action was legal);
3. plays on with a cheap policy (:func:`rollout_move`: buy the card worth most points if
   one can be bought, else take tokens toward the best card in reach; one move in ten at
   random) for at most ``ROLLOUT_TURNS`` rounds;
4. scores the end: 1 shared among the winners when the game has ended, else each player's
   chance from :func:`~referee.bots.scoring.worth` (a softmax, ``SHARPNESS`` per point);
5. adds each player's score to the nodes of the actions that player chose.

Steps 3 and 4 are the search's :class:`Style` (:data:`SEARCH`); the expert bot
(:mod:`referee.bots.expert`) runs the same search with a style of its own: one round of the
rollout policy, then an evaluation learned from self-play in place of ``worth``.

The move played is the root action tried most often. With a playout budget and a seed the
search is deterministic: the same view and seed give the same move on any machine. A time
limit (``seconds``) stops it earlier on a slow machine, and then the move depends on speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.bots.actions import (
    Action,
    actions,
    first_noble,
    give_back,
    idle,
    payment,
)
from referee.bots.greedy import face_up, hand_of, score
from referee.bots.scoring import CARD_FACTS, discount, worth
from referee.bots.sight import Dealer
from referee.engine import Buy, GameState, GameView, Move, Take, apply, legal_moves, outcome
from referee.engine.cards import NO_TOKENS
from referee.engine.state import TOKEN_LIMIT, TWO_OF_A_COLOUR_FROM
from referee.errors import IllegalMoveError

#: Playouts per move when no budget is given.
PLAYOUTS = 1000
#: The exploration constant of UCB (rewards lie in 0..1).
EXPLORATION = 0.7
#: Rounds played by the rollout policy before the position is scored.
ROLLOUT_TURNS = 3
#: How sure a lead in worth makes a player of winning: softmax(SHARPNESS * worth).
SHARPNESS = 0.6
#: How often the rollout policy plays a random action instead.
RANDOM_MOVES = 0.1


@dataclass(frozen=True, slots=True)
class Style:
    """How a search plays out and scores a playout: ``rollout_turns`` rounds of the rollout
    policy, then ``evaluate`` (each seat's share of a win from a position not finished)."""

    rollout_turns: int
    evaluate: Callable[[GameState], list[float]]


class Node:
    """An action in the tree: who chose it and how it fared for them."""

    __slots__ = ("available", "children", "mover", "visits", "wins")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.wins = 0.0
        self.available = 1


@dataclass(frozen=True, slots=True)
class Searched:
    """What a search found: the move, the playouts run, how often the move was tried and
    its mean score, and the seconds it took."""

    move: Move
    playouts: int
    visits: int
    score: float
    seconds: float


def search(
    seen: GameView,
    seat: int,
    options: dict[Action, Move],
    rng: random.Random,
    playouts: int = PLAYOUTS,
    seconds: float | None = None,
    style: Style | None = None,
) -> Searched:
    """Run ``playouts`` playouts (fewer if ``seconds`` run out first) from ``seen``, the view
    of ``seat`` (the player to move), whose actions are ``options``
    (:func:`~referee.bots.actions.own_actions`); ``style`` says how a playout ends (by
    default :data:`SEARCH`)."""
    style = SEARCH if style is None else style
    began = time.perf_counter()
    deadline = None if seconds is None else began + seconds
    if len(options) == 1:
        (move,) = options.values()
        return Searched(move, 0, 0, 0.0, time.perf_counter() - began)
    dealer = Dealer(seen)
    order = _greedy_order(options, seen, seat)
    root = Node(seat)
    done = 0
    while done < playouts:
        if deadline is not None and done and time.perf_counter() > deadline:
            break
        _playout(root, order, dealer.deal(rng), rng, style)
        done += 1
    best = max(root.children, key=lambda k: (root.children[k].visits, root.children[k].wins))
    child = root.children[best]
    return Searched(
        options[best], done, child.visits, child.wins / child.visits, time.perf_counter() - began
    )


def _greedy_order(options: dict[Action, Move], seen: GameView, seat: int) -> list[Action]:
    """The root's actions, best first by the greedy bot's score (stable on ties)."""
    hand = hand_of(seen, seat)
    board = face_up(seen.board)
    points_to_win = seen.rules.points_to_win
    scored = [
        (-score(move, hand, board, seen.nobles, seen.bank[5], points_to_win), i, key)
        for i, (key, move) in enumerate(options.items())
    ]
    scored.sort(key=lambda item: (item[0], item[1]))
    return [key for _, _, key in scored]


def _playout(
    root: Node, root_order: list[Action], state: GameState, rng: random.Random, style: Style
) -> None:
    node = root
    path = [root]
    while state.status != "finished":
        options = actions(state)
        keys: Sequence[Action] = root_order if node is root else list(options)
        children = node.children
        untried = [k for k in keys if k not in children]
        if untried:
            key = untried[0] if node is root else rng.choice(untried)
            child = Node(state.to_move)
            children[key] = child
            state = apply(state, options[key])
            path.append(child)
            break
        best_key = keys[0]
        best_ucb = -1.0
        for key in keys:
            child = children[key]
            child.available += 1
            ucb = child.wins / child.visits + EXPLORATION * math.sqrt(
                math.log(child.available) / child.visits
            )
            if ucb > best_ucb:
                best_key, best_ucb = key, ucb
        node = children[best_key]
        state = apply(state, options[best_key])
        path.append(node)
    rewards = _rollout(state, rng, style)
    for visited in path:
        visited.visits += 1
        visited.wins += rewards[visited.mover]


def rollout_move(state: GameState, rng: random.Random) -> Move:
    """The playout policy: one move in ten a random action; else buy the affordable card
    worth most points (the first in sight on ties), coloured tokens first; else take tokens
    toward the card in sight best in reach (points and a bonus, 0.7 per token lacking),
    giving back what it needs least when over 10; else (no gem left in the bank) a random
    action."""
    if rng.random() < RANDOM_MOVES:
        return rng.choice(list(actions(state).values()))
    player = state.player
    held, bonuses = player.tokens, player.bonuses
    hw, hu, hg, hr, hk, gold = held
    bw, bu, bg, br, bk = bonuses
    buy: str | None = None
    buy_points = -1
    target: str | None = None
    target_value = -1.0
    for card in (*state.face_up(), *(r.card for r in player.reserved)):
        pts, _, (w, u, g, r, k) = CARD_FACTS[card]
        # the gold short, written out as in referee.engine.state.affordable (a function call per
        # card costs the search about 8% of its playouts a second)
        w -= bw + hw
        u -= bu + hu
        g -= bg + hg
        r -= br + hr
        k -= bk + hk
        short = (w if w > 0 else 0) + (u if u > 0 else 0) + (g if g > 0 else 0)
        short += (r if r > 0 else 0) + (k if k > 0 else 0)
        if short <= gold:
            if pts > buy_points:
                buy, buy_points = card, pts
        else:
            value = (pts + 0.5) * discount(short - gold)
            if value > target_value:
                target, target_value = card, value
    if buy is not None:
        _, colour, cost = CARD_FACTS[buy]
        pay = payment(cost, bonuses, held)
        assert pay is not None
        after = list(bonuses)
        after[colour] += 1
        return Buy(buy, pay, NO_TOKENS, first_noble(state.nobles, after))
    bank = state.bank
    available = [c for c in range(5) if bank[c] > 0]
    if not available:
        return rng.choice(list(actions(state).values()))
    lack = [0, 0, 0, 0, 0]
    if target is not None:
        cost = CARD_FACTS[target][2]
        lack = [max(cost[c] - bonuses[c] - held[c], 0) for c in range(5)]
    gems = [0, 0, 0, 0, 0, 0]
    lacking = [c for c in available if lack[c]]
    if len(lacking) == 1 and lack[lacking[0]] >= 2 and bank[lacking[0]] >= TWO_OF_A_COLOUR_FROM:
        gems[lacking[0]] = 2
    else:
        rng.shuffle(available)
        available.sort(key=lambda c: -lack[c])
        for c in available[:3]:
            gems[c] = 1
    w, u, g, r, k, o = (h + t for h, t in zip(held, gems, strict=True))
    after_take = (w, u, g, r, k, o)
    returned = give_back(after_take, lack) if sum(after_take) > TOKEN_LIMIT else NO_TOKENS
    w, u, g, r, k, o = gems
    take = Take((w, u, g, r, k, o), returned, first_noble(state.nobles, bonuses))
    if idle(take):  # it would change nothing: do something else
        return rng.choice(list(actions(state).values()))
    return take


def _rollout(state: GameState, rng: random.Random, style: Style) -> list[float]:
    plies = style.rollout_turns * len(state.players)
    while plies and state.status != "finished":
        try:
            state = apply(state, rollout_move(state, rng))
        except IllegalMoveError:  # a case the policy does not foresee: any legal move
            state = apply(state, rng.choice(legal_moves(state)))
        plies -= 1
    if state.status == "finished":
        return scores(state)
    return style.evaluate(state)


def scores(state: GameState) -> list[float]:
    """Each seat's share of a win: the winners' shares once the game is over, else a softmax
    of the players' worth (players who resigned get 0)."""
    if state.status == "finished":
        winners = outcome(state)
        return [1.0 / len(winners) if p.name in winners else 0.0 for p in state.players]
    board = state.face_up()
    values: list[float | None] = []
    for seat, p in enumerate(state.players):
        if seat in state.resigned:
            values.append(None)
            continue
        values.append(
            worth(
                p.points,
                p.bonuses,
                p.tokens,
                [r.card for r in p.reserved],
                board,
                state.nobles,
                state.rules.points_to_win,
            )
        )
    top = max(v for v in values if v is not None)
    weights = [0.0 if v is None else math.exp(SHARPNESS * (v - top)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


#: The search bot's playouts: three rounds of the rollout policy, then :func:`scores`.
SEARCH = Style(ROLLOUT_TURNS, scores)
