"""Every exception the referee raises, in one tree.

::

    RefereeError                  anything the referee refuses; safe to show to a person
    ├── SetupError                a set-up (players, decks, nobles, bank, rule options) that
    │                             cannot start a game
    └── MoveError                 a move that cannot be played; ``text`` is the input as given
        ├── InvalidMoveError      not move notation at all: says what was expected
        ├── IllegalMoveError      well-formed, but the rules forbid it now: names the rule
        │                         and the facts behind it
        └── AmbiguousMoveError    well-formed and could be legal, but fits several legal moves:
                                  ``candidates`` lists them in canonical notation

The move errors follow python-chess: ``InvalidMoveError``, ``IllegalMoveError`` and
``AmbiguousMoveError`` are also ``ValueError`` so callers may treat them as bad input.
This module imports nothing, so every layer (the engine included) may raise these.
"""

from __future__ import annotations


class RefereeError(Exception):
    """Base of every error the referee raises on purpose."""


class SetupError(RefereeError, ValueError):
    """A game set-up that breaks the rules of set-up (player count, decks, nobles, bank)."""


class MoveError(RefereeError, ValueError):
    """A move that cannot be played. ``text`` is the input it came from, when there was one."""

    def __init__(self, message: str, text: str | None = None) -> None:
        super().__init__(message)
        self.reason = message
        self.text = text

    def __str__(self) -> str:
        if self.text is None:
            return self.reason
        return f"{self.text!r}: {self.reason}"


class InvalidMoveError(MoveError):
    """The input is not move notation; the message says what was expected."""


class IllegalMoveError(MoveError):
    """The move is well-formed but the rules forbid it; the message names rule and facts."""


class AmbiguousMoveError(MoveError):
    """The move fits several legal moves; ``candidates`` are their canonical texts."""

    def __init__(self, message: str, candidates: list[str], text: str | None = None) -> None:
        super().__init__(message, text)
        self.candidates = candidates
