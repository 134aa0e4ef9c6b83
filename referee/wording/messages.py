"""What to say, as data: a :class:`Message` is a code of the catalogue and its parameters.

Deciding code (the judge, the commands, the deadline runner, the engine's refusals) says
*what* a reader is told this way; only the letter writer turns a message into words, in the
reader's language. A message's parameters are plain data (text, numbers, lists, a move as
its JSON object, a time as ISO 8601, another message), so a message can wait in the outbox
as JSON and be worded when its letter is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.errors import RefereeError


@dataclass(frozen=True)
class Message:
    """One thing to say: ``code`` names it in the catalogue, ``params`` fill it in."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": {k: _plain(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> Message:
        params = body.get("params") or {}
        return cls(str(body["code"]), {k: _message_back(v) for k, v in params.items()})


def message_of(err: RefereeError) -> Message:
    """What an error says, as a message: its code and params (an error given as a sentence
    only, for the game master, is said as it is)."""
    if err.code is not None:
        return Message(err.code, err.params)
    return Message("error.said", {"text": err.message})


def say(code: str, **params: Any) -> Message:
    """The message ``code`` with ``params``: ``say("letter.stale", answered=3, now=5)``."""
    return Message(code, params)


def _plain(value: Any) -> Any:
    """A parameter as JSON: tuples as lists, messages as objects marked as such."""
    if isinstance(value, Message):
        return {"message": value.to_json()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _message_back(value: Any) -> Any:
    if isinstance(value, Mapping) and set(value) == {"message"}:
        return Message.from_json(value["message"])
    if isinstance(value, list):
        return [_message_back(v) for v in value]
    return value
