"""Computer players: a move for the player to move, chosen from that player's view alone.

The whole interface::

    from referee.bots import LEVELS, choose
    move, reason = choose("search", view(state, name), random.Random(seed))

:func:`choose` takes a :class:`~referee.engine.view.GameView` (what the seat may see: deck
order and the others' blind reserved cards are not in it), the level, and a random
generator; it returns a :class:`Choice`: a legal move for the view's player and a line
saying why ("buys 2-05: 2 points and a blue bonus toward N4"). Nothing in this package is
handed the referee's :class:`~referee.engine.state.GameState`: the bots build positions of
their own from the view (:mod:`referee.bots.sight`), so a bot cannot peek, and a view that
is not a ``GameView`` is refused with ``TypeError``.

Levels (``LEVELS``):

``random``  a random action (take, reserve, buy; pass only when nothing else is legal),
            then a random way of playing it (payment, returned tokens, noble)
``greedy``  the action scored best one move ahead (:mod:`referee.bots.scoring`)
``search``  Monte Carlo tree search over positions dealt from the cards the view has not
            seen (:mod:`referee.bots.search`); ``budget`` playouts (default
            ``search.PLAYOUTS``); ``seconds`` optionally caps the time it takes
``expert``  the same search, its playouts scored by an evaluation learned from self-play
            (:mod:`referee.bots.expert`, :mod:`referee.bots.value`); ``budget`` playouts
            (default ``expert.PLAYOUTS``), ``seconds`` as for ``search``

Determinism: the move depends only on the view, the level, the budget and the state of
``rng``, so the same view and seed give the same move on any machine (pass a fresh
``random.Random(seed)``, for example seeded with the bot seed and the turn number). The one
exception is ``seconds``: a search cut short by the clock depends on the machine's speed.
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple

from referee.bots import expert as _expert
from referee.bots import search as _search
from referee.bots.actions import Action, action_of, own_actions
from referee.bots.greedy import choose_greedy, explain
from referee.bots.sight import ViewError, own_moves, viewer_seat
from referee.engine import GameView, Move
from referee.wording.messages import Message, say

#: The bot levels, weakest first.
LEVELS: Final = ("random", "greedy", "search", "expert")


class Choice(NamedTuple):
    """A bot's move and why, as a message (for a hint, a letter or a log): a bot says what
    it means, the letter writer words it."""

    move: Move
    why: Message


def choose(
    level: str,
    seen: GameView,
    rng: random.Random | int,
    budget: int | None = None,
    *,
    seconds: float | None = None,
) -> Choice:
    """The move the ``level`` bot plays from ``seen`` (the view of the seat to move).

    ``rng`` is a random generator, or a seed for one. ``budget`` is the number of playouts of
    the search and expert bots (the others ignore it); ``seconds`` caps their time (making the
    move depend on the machine's speed). Raises ``ValueError`` for an unknown level or a view
    the bot cannot play from (:class:`~referee.bots.sight.ViewError`: the public view, a
    finished game, another player's turn) and ``TypeError`` for anything not a view.
    """
    if level not in LEVELS:
        raise ValueError(f"no bot level {level!r}: the levels are {', '.join(LEVELS)}")
    seat = viewer_seat(seen)
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    if level == "random":
        by_action: dict[Action, list[Move]] = {}
        for move in own_moves(seen):
            by_action.setdefault(action_of(move), []).append(move)
        move = rng.choice(rng.choice(list(by_action.values())))
        return Choice(move, say("bot.at_random", move=explain(move, seen, seat)))
    options = own_actions(seen)
    if level == "greedy":
        move = choose_greedy(seen, seat, options, rng)
        return Choice(move, explain(move, seen, seat))
    if budget is not None and budget < 1:
        raise ValueError(f"a search budget is a number of playouts, 1 or more, not {budget}")
    if level == "expert":
        playouts = _expert.PLAYOUTS if budget is None else budget
        found = _search.search(
            seen, seat, options, rng, playouts, seconds, style=_expert.expert_style()
        )
    else:
        playouts = _search.PLAYOUTS if budget is None else budget
        found = _search.search(seen, seat, options, rng, playouts, seconds)
    why = explain(found.move, seen, seat)
    if found.playouts:
        why = say(
            "bot.searched",
            move=why,
            visits=found.visits,
            playouts=found.playouts,
            score=found.score,
        )
    else:
        why = say("bot.only_move", move=why)
    return Choice(found.move, why)


__all__ = ["LEVELS", "Choice", "ViewError", "choose"]
