"""The bots' judgement of a position: one number per player, in prestige points.

:func:`worth` is what the greedy bot maximises one move ahead, and what the search bot's
playouts are scored by when they stop before the end of the game. It adds up, for one
player (the weights are the constants below)::

    points     1     per prestige point (cards and nobles)
    bonuses    0.5   per bonus (bought card), shrinking as the player nears the points to
                     win: a bonus pays off only on later purchases (never below 0.1)
    nobles     3 x 0.4 x reach**2 for each noble still on the table, where reach is the
                     share of its requirement the player's bonuses already meet
    targets    the three best cards in sight (face up, or reserved by the player), weighted
               1/2, 1/4 and 1/8: a card is worth its points plus a bonus (the bonus weight
               above), times 0.7 for every token the player still lacks to buy it once
               bonuses, tokens and gold are counted. This is where tokens are worth
               something: they bring cards within reach.
    tokens     0.05 per gem token and 0.15 per gold (ties and flexibility)
    reserved   -0.15 per reserved card (a hand slot used up)

So an affordable 3-point card in sight is worth 0.5 x 3.5 = 1.75 before it is bought, and
3 + 0.5 after; tokens taken toward a card that then lacks 2 tokens instead of 5 add
0.5 x 3.5 x (0.49 - 0.17). A player's own reserved cards count as targets; another player's
are theirs (in a determinised position their blind cards are the cards dealt to them).

:func:`wants` says which tokens a player would keep when over 10.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine import CARDS, NOBLES
from referee.engine.cards import Gems, Tokens

POINT = 1.0
BONUS = 0.5
BONUS_FLOOR = 0.1
NOBLE_REACH = 0.4
TARGET_WEIGHTS = (0.5, 0.25, 0.125)
LACKING = 0.7
TOKEN = 0.05
GOLD_TOKEN = 0.15
RESERVED = -0.15

#: card id -> (points, bonus colour, cost per gem colour): the hot loops read tuples.
CARD_FACTS: dict[str, tuple[int, int, Gems]] = {
    c.id: (c.points, c.bonus, c.cost) for c in CARDS.values()
}
#: noble id -> (requirement per gem colour, the requirement's total).
NOBLE_FACTS: dict[str, tuple[Gems, int]] = {
    n.id: (n.requires, sum(n.requires)) for n in NOBLES.values()
}
_DISCOUNT = tuple(LACKING**n for n in range(40))


def discount(lacking: int) -> float:
    """What a card lacking ``lacking`` tokens keeps of its worth: ``LACKING ** lacking``."""
    return _DISCOUNT[lacking] if lacking < len(_DISCOUNT) else 0.0


def bonus_weight(points: int, points_to_win: int) -> float:
    """What one more bonus is worth to a player with ``points``."""
    return BONUS * max(BONUS_FLOOR / BONUS, 1.0 - points / max(points_to_win, 1))


def lacking(cost: Gems, bonuses: Gems, held: Tokens) -> int:
    """How many tokens a player still lacks to buy a card of ``cost`` (gold counted)."""
    short = 0
    for c in range(5):
        d = cost[c] - bonuses[c] - held[c]
        if d > 0:
            short += d
    short -= held[5]
    return short if short > 0 else 0


def noble_reach(bonuses: Gems, noble: str) -> float:
    """The share of ``noble``'s requirement that ``bonuses`` meet (1.0: it visits)."""
    requires, total = NOBLE_FACTS[noble]
    met = 0
    for c in range(5):
        met += bonuses[c] if bonuses[c] < requires[c] else requires[c]
    return met / total


def worth(
    points: int,
    bonuses: Gems,
    held: Tokens,
    reserved: Sequence[str],
    board: Sequence[str],
    nobles: Sequence[str],
    points_to_win: int,
) -> float:
    """One player's worth in points: see the module's table."""
    bonus_w = bonus_weight(points, points_to_win)
    value = POINT * points + bonus_w * sum(bonuses)
    for noble in nobles:
        reach = noble_reach(bonuses, noble)
        value += 3 * NOBLE_REACH * reach * reach
    bw, bu, bg, br, bk = bonuses
    hw, hu, hg, hr, hk, gold = held
    a = b = c = 0.0  # the three best target values, best first
    for cards in (board, reserved):
        for card in cards:
            pts, _, cost = CARD_FACTS[card]
            w, u, g, r, k = cost
            # the gold short, written out as in referee.engine.state.affordable (a function call per
            # card costs the search about 8% of its playouts a second)
            w -= bw + hw
            u -= bu + hu
            g -= bg + hg
            r -= br + hr
            k -= bk + hk
            short = (w if w > 0 else 0) + (u if u > 0 else 0) + (g if g > 0 else 0)
            short += (r if r > 0 else 0) + (k if k > 0 else 0) - gold
            v = (pts + bonus_w) * _DISCOUNT[short if short > 0 else 0]
            if v > c:
                if v > a:
                    a, b, c = v, a, b
                elif v > b:
                    b, c = v, b
                else:
                    c = v
    wa, wb, wc = TARGET_WEIGHTS
    value += wa * a + wb * b + wc * c
    value += TOKEN * (hw + hu + hg + hr + hk) + GOLD_TOKEN * gold
    value += RESERVED * len(reserved)
    return value


def wants(bonuses: Gems, reserved: Sequence[str], board: Sequence[str]) -> list[int]:
    """Per gem colour, the most tokens of it any of the player's three best targets needs
    after bonuses: the tokens worth keeping. Targets are ranked as in :func:`worth` with
    no tokens held (what the player would aim for from scratch)."""
    bw, bu, bg, br, bk = bonuses
    ranked: list[tuple[float, tuple[int, int, int, int, int]]] = []
    for cards in (board, reserved):
        for card in cards:
            pts, _, (w, u, g, r, k) = CARD_FACTS[card]
            w = w - bw if w > bw else 0
            u = u - bu if u > bu else 0
            g = g - bg if g > bg else 0
            r = r - br if r > br else 0
            k = k - bk if k > bk else 0
            ranked.append(((pts + BONUS) * _DISCOUNT[w + u + g + r + k], (w, u, g, r, k)))
    ranked.sort(key=_first, reverse=True)
    want = [0, 0, 0, 0, 0]
    for _, need in ranked[:3]:
        for c in range(5):
            if need[c] > want[c]:
                want[c] = need[c]
    return want


def _first(item: tuple[float, object]) -> float:
    return item[0]
