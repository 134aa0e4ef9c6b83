"""The two value types of the corpus: who replies, and with which program."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage


@dataclass(frozen=True)
class Sender:
    """The player who presses Reply."""

    name: str
    address: str


#: write(original, move, sender, when, rng) -> the raw reply (RFC 5322, CRLF line ends)
Writer = Callable[[EmailMessage, str, Sender, datetime, random.Random], bytes]


@dataclass(frozen=True)
class Client:
    """A mail program, as it writes a reply."""

    name: str
    description: str
    write: Writer
