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

An error that a player may read says what went wrong as data: a ``code`` and its ``params``
(``IllegalMoveError.of("buy.cannot_afford", card="1-13", ...)``), listed with every other
message in :mod:`referee.wording.catalogue` and docs/messages.md; a letter words it in its
reader's language. ``str()`` is the English sentence, for logs and the command line. An
error for the game master alone may still be given as a sentence.

This module imports nothing, so every layer (the engine included) may raise these. The
errors are worded at the edge: the wording layer, when it is loaded (the command line, the
service and the notation load it), gives its English (:func:`word_with`); without it a
coded error says its code and parameters.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Self

#: How a coded error is said in English (``code, params -> sentence``): given by
#: :mod:`referee.wording` when it is loaded; None until then.
_english: Callable[[str, Mapping[str, object]], str] | None = None


def word_with(english: Callable[[str, Mapping[str, object]], str]) -> None:
    """Say coded errors in English with ``english`` (the wording layer's, given once it is
    loaded: the errors sit below every layer and import none)."""
    global _english
    _english = english


class RefereeError(Exception):
    """Base of every error the referee raises on purpose: a sentence (``message``), or a
    ``code`` and its ``params`` whose English the catalogue gives."""

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message if message is not None else code)
        self.code = code
        self.params: dict[str, object] = dict(params or {})
        self._message = message

    @classmethod
    def of(cls, code: str, **params: object) -> Self:
        """The error ``code`` (a message of the catalogue) with its ``params``."""
        return cls(code=code, params=params)

    @property
    def message(self) -> str:
        """What went wrong, in English."""
        if self._message is None and self.code is not None:
            if _english is None:  # (no wording loaded: the data, as it is)
                return f"{self.code} {self.params}" if self.params else self.code
            return _english(self.code, self.params)
        return self._message or ""

    def __str__(self) -> str:
        return self.message


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
    """A move that cannot be played. ``text`` is the input it came from, when there was one;
    ``reason`` says why, in English."""

    def __init__(
        self,
        message: str | None = None,
        text: str | None = None,
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.text = text

    @property
    def reason(self) -> str:
        return self.message

    def about(self, text: str | None) -> Self:
        """The same error, about the input ``text``."""
        found = copy.copy(self)
        found.text = text
        return found

    def __str__(self) -> str:
        if self.text is None:
            return self.reason
        return f"{self.text!r}: {self.reason}"


class InvalidMoveError(MoveError):
    """The input is not move notation; the message says what was expected."""


class IllegalMoveError(MoveError):
    """The move is well-formed but the rules forbid it; the message names rule and facts."""


class AmbiguousMoveError(MoveError):
    """The move fits several legal moves; ``candidates`` are their canonical texts, ``moves``
    their JSON objects (for a letter that lists them in its reader's words)."""

    moves: list[dict[str, object]]

    def __init__(
        self,
        message: str | None = None,
        candidates: list[str] | None = None,
        text: str | None = None,
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, text, code=code, params=params)
        self.candidates = list(candidates or [])
        self.moves = []
