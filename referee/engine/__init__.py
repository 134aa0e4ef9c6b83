"""The pure rules engine: standard library and ``referee.errors`` only; no I/O, no clock.

The public surface, re-exported here::

    make_setup / start      a set-up (explicit or from a seed) and the opening position
    legal_moves / apply     every legal move; a move played (or IllegalMoveError saying why);
                            Resign, open to every player still in, is applied but never listed
    outcome                 the winners of a finished game
    view                    what one player, or the public, may see
"""

from referee.engine.cards import CARDS, GEM_COLOURS, NOBLES, TOKEN_COLOURS, Card, Noble, Tokens
from referee.engine.moves import Buy, Move, Pass, Reserve, Resign, Take, move_json
from referee.engine.rules import apply, default_payment, legal_moves, outcome
from referee.engine.setup import Setup, make_setup, new_seed, start
from referee.engine.state import GameState, Player, Reservation, Rules
from referee.engine.view import GameView, PlayerView, ReservedView, view

__all__ = [
    "CARDS",
    "GEM_COLOURS",
    "NOBLES",
    "TOKEN_COLOURS",
    "Buy",
    "Card",
    "GameState",
    "GameView",
    "Move",
    "Noble",
    "Pass",
    "Player",
    "PlayerView",
    "Reservation",
    "Reserve",
    "ReservedView",
    "Resign",
    "Rules",
    "Setup",
    "Take",
    "Tokens",
    "apply",
    "default_payment",
    "legal_moves",
    "make_setup",
    "move_json",
    "new_seed",
    "outcome",
    "start",
    "view",
]
