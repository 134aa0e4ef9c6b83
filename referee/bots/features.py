"""What the expert bot's learned evaluation reads of a position: a row of numbers per seat.

:func:`features` describes each seat of a :class:`~referee.engine.state.GameState` by the
numbers in :data:`NAMES`, in that order. The evaluation (:mod:`referee.bots.value`) scores each
seat from its row and turns the scores into shares of a win by a softmax over the seats
still in, so only what differs between seats matters: a fact of the whole table (how far
the game has gone) enters through its products with a seat's own facts.

The positions are the search's: dealt from the bot's view (:mod:`referee.bots.sight`), so
another player's blind reserved cards are whatever the dealer gave them. Every number is
scaled to lie roughly in 0..1 (points over the points to win, tokens over 10, ...), so
that one set of weights serves every target score and table size.

Changing this list changes what a model means: the model file names the features it was
trained on, and :mod:`referee.bots.value` refuses a model whose names differ.
"""

from __future__ import annotations

from typing import Final

from referee.bots import scoring
from referee.bots.scoring import CARD_FACTS, NOBLE_FACTS, bonus_weight, discount
from referee.engine import GameState

#: The features of a seat, in the order :func:`features` gives them.
NAMES: Final = (
    "points",  # prestige / points to win
    "bonuses",  # cards bought / 10
    "tokens",  # gem tokens held / 10
    "gold",  # gold held / 5
    "reserved",  # cards reserved / 3
    "nobles.near",  # sum over the nobles on the table of reach squared
    "nobles.best",  # the reach of the noble nearest
    "target.1",  # the best card in sight (worth's target value) / 5
    "target.2",  # the second best / 5
    "target.3",  # the third best / 5
    "affordable",  # cards in sight the seat can buy now / 4
    "affordable.points",  # the most points among them / 5
    "colours",  # colours of which the seat has a bonus / 5
    "worth",  # referee.bots.scoring.worth / points to win
    "lead",  # points minus the most points of another seat still in / points to win
    "reached",  # 1 when the seat has the points to win
    "to.move",  # 1 for the seat to move
    "still.to.play",  # 1 when the seat has still to move in this round (the last round counts)
    "cards",  # development cards bought / 20 (fewer win a tie)
    "points.late",  # points x how far the game is (the most points at the table / to win)
    "worth.late",  # worth x how far the game is
    "bonuses.late",  # bonuses x how far the game is
    "lead.reached",  # lead while someone has the points to win (the last round)
    "still.to.play.reached",  # still to play while someone has the points to win
)
WIDTH: Final = len(NAMES)


def features(state: GameState) -> list[list[float] | None]:
    """Per seat, the seat's row of :data:`NAMES` (None for a seat that resigned)."""
    to_win = state.rules.points_to_win or 15
    board = [card for row in state.board for card in row if card is not None]
    nobles = state.nobles
    players = state.players
    resigned = state.resigned
    points_in = [p.points for s, p in enumerate(players) if s not in resigned]
    most = max(points_in) if points_in else 0
    late = min(most / to_win, 1.0)
    someone_reached = 1.0 if most >= to_win else 0.0
    rows: list[list[float] | None] = []
    for seat, p in enumerate(players):
        if seat in resigned:
            rows.append(None)
            continue
        points = p.points
        bonuses = p.bonuses
        held = p.tokens
        reserved = [r.card for r in p.reserved]
        bonus_w = bonus_weight(points, to_win)
        near = 0.0
        best_noble = 0.0
        for noble in nobles:
            requires, total = NOBLE_FACTS[noble]
            met = 0
            for c in range(5):
                met += bonuses[c] if bonuses[c] < requires[c] else requires[c]
            reach = met / total
            near += reach * reach
            if reach > best_noble:
                best_noble = reach
        bw, bu, bg, br, bk = bonuses
        hw, hu, hg, hr, hk, gold = held
        a = b = c3 = 0.0
        can_buy = 0
        buy_points = 0
        for cards in (board, reserved):
            for card in cards:
                pts, _, (w, u, g, r, k) = CARD_FACTS[card]
                # the gold short, written out as in referee.bots.scoring.worth (this runs for
                # every seat of every playout's last position)
                w -= bw + hw
                u -= bu + hu
                g -= bg + hg
                r -= br + hr
                k -= bk + hk
                short = (w if w > 0 else 0) + (u if u > 0 else 0) + (g if g > 0 else 0)
                short += (r if r > 0 else 0) + (k if k > 0 else 0) - gold
                if short <= 0:
                    can_buy += 1
                    if pts > buy_points:
                        buy_points = pts
                v = (pts + bonus_w) * (discount(short) if short > 0 else 1.0)
                if v > c3:
                    if v > a:
                        a, b, c3 = v, a, b
                    elif v > b:
                        b, c3 = v, b
                    else:
                        c3 = v
        others = [q.points for s, q in enumerate(players) if s != seat and s not in resigned]
        lead = (points - (max(others) if others else 0)) / to_win
        # referee.bots.scoring.worth, from the parts worked out above
        value = (
            scoring.POINT * points
            + bonus_w * sum(bonuses)
            + 3 * scoring.NOBLE_REACH * near
            + scoring.TARGET_WEIGHTS[0] * a
            + scoring.TARGET_WEIGHTS[1] * b
            + scoring.TARGET_WEIGHTS[2] * c3
            + scoring.TOKEN * (hw + hu + hg + hr + hk)
            + scoring.GOLD_TOKEN * gold
            + scoring.RESERVED * len(reserved)
        ) / to_win
        bought = sum(bonuses)
        still_to_play = 1.0 if seat >= state.to_move else 0.0
        rows.append(
            [
                points / to_win,
                bought / 10,
                (hw + hu + hg + hr + hk) / 10,
                gold / 5,
                len(reserved) / 3,
                near,
                best_noble,
                a / 5,
                b / 5,
                c3 / 5,
                can_buy / 4,
                buy_points / 5,
                sum(1 for x in bonuses if x) / 5,
                value,
                lead,
                1.0 if points >= to_win else 0.0,
                1.0 if seat == state.to_move else 0.0,
                still_to_play,
                len(p.cards) / 20,
                points / to_win * late,
                value * late,
                bought / 10 * late,
                lead * someone_reached,
                still_to_play * someone_reached,
            ]
        )
    return rows
