"""The expert bot: the search bot's tree search (:mod:`referee.bots.search`), scoring its
playouts by the learned evaluation (:mod:`referee.bots.value`) instead of the hand-made one.

A playout deals a position from the bot's view, walks the tree, plays ``ROLLOUT_TURNS``
round(s) of the rollout policy and asks the model each seat's chance of winning from where
it stopped (a finished game scores its result, as in the search bot). The model was
trained on the outcomes of games the bots played against themselves (``scripts/train-bot``),
so it judges a position by who went on to win from positions like it, not by a table of
weights written by hand.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from referee.bots.search import Style
from referee.bots.value import Judge, Model, shipped_model

#: Playouts a move when no budget is given.
PLAYOUTS: Final = 1500
#: Rounds of the rollout policy before the model is asked.
ROLLOUT_TURNS: Final = 1


def style_of(model: Model) -> Style:
    """How the expert plays out and scores a playout with ``model``."""
    return Style(ROLLOUT_TURNS, Judge(model).shares)


@cache
def expert_style() -> Style:
    """The expert's playouts, with the model the package ships (made once)."""
    return style_of(shipped_model())
