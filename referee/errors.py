"""Every exception the referee raises, in one tree.

::

    RefereeError                  anything the referee refuses; safe to show to a person
    ├── SetupError                a set-up (players, decks, nobles, bank, rule options) that
    │                             cannot start a game
    ├── RecordError               a game record that cannot be read: bad TOML, wrong fields,
    │   │                         a newer format than this referee knows
    │   └── ReplayError           a record that reads but does not replay: a turn missing,
    │                             altered, out of order or illegal; ``turn`` names the first
    ├── StoreError                the games folder refuses: no such game, the game exists
    │   └── ConflictError         another writer got there first (turn taken, game locked)
    ├── RequestError              a request that cannot be carried out as written (a malformed
    │                             option value, an unknown player, an unreadable file)
    ├── ConfigurationError        the settings, or the owner or permissions of a folder, stop
    │                             the referee: running again will not help until they are
    │                             mended (the command line exits with 78, EX_CONFIG)
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


class RecordError(RefereeError):
    """A game record (game.toml or a turn file) that cannot be read as it is."""


class ReplayError(RecordError):
    """A record that does not replay; ``turn`` is the first bad turn (0: the game file)."""

    def __init__(self, message: str, turn: int) -> None:
        super().__init__(message)
        self.turn = turn


class StoreError(RefereeError):
    """The games folder cannot do what was asked: no such game, a game that exists already."""


class ConflictError(StoreError):
    """Another writer got there first: the turn is written already, or the game is locked."""


class ConfigurationError(RefereeError):
    """Settings, or a folder's owner or permissions, that stop the referee until mended."""


class RequestError(RefereeError):
    """A request that cannot be carried out as written: says what was expected."""


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
