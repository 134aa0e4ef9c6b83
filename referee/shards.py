"""Shards: the games shared out among several referee workers (``referee serve --lmtp``), with
the mail server routing each reply to the worker that keeps its game (docs/scaling.md).

A reply's plus address names what it answers: a game (``referee+GAME.SEAT.KEY@``) or a
confirmation (``referee+confirm.TOKEN@``). Which worker keeps it is told by the **last
letter of that name**, so that a regular expression can tell it too: Postfix's
``transport_maps`` route every reply with no table of games to keep up to date, and each
worker knows its own without asking the others. The letters are dealt out in turn (with two
workers: a, c, e … to the first, b, d, f … to the second); the names a worker makes itself
(games proposed by mail, confirmations) end in one of its own letters. A game moved off its
worker (``moved``) is named before the rule, in the map and in each worker's settings.

Nothing here reads or writes a file: :class:`Shards` is the plan, the same on every worker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: The letters a name may end in, those of base32 (which the names a worker makes are
#: written in) first: each of up to 32 workers has some of those.
ORDER = "abcdefghijklmnopqrstuvwxyz234567" + "0189_-"
BASE32 = ORDER[:32]
MOST_WORKERS = len(BASE32)


@dataclass(frozen=True)
class Shards:
    """Which worker keeps which games: ``workers`` are the workers' LMTP listeners in order
    (``HOST:PORT`` or ``unix:/path``; none: one service keeps every game), ``this`` the
    number (from 1) of the worker reading it, ``moved`` the games moved off the worker the
    rule gives them to, each with the number of the worker that keeps it now."""

    workers: tuple[str, ...] = ()
    this: int = 1
    moved: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.workers) > MOST_WORKERS:
            raise ValueError(f"at most {MOST_WORKERS} workers, not {len(self.workers)}")
        for number in [self.this, *self.moved.values()]:
            if not 1 <= number <= self.count:
                raise ValueError(f"worker {number}: the workers are 1 to {self.count}")

    @property
    def count(self) -> int:
        return max(len(self.workers), 1)

    @property
    def sharded(self) -> bool:
        return len(self.workers) > 1

    def owner(self, name: str) -> int:
        """The number of the worker that keeps the game or confirmation ``name``."""
        if name in self.moved:
            return self.moved[name]
        return by_rule(name, self.count)

    def keeps(self, name: str) -> bool:
        """Whether this worker keeps ``name``."""
        return self.owner(name) == self.this

    def letters(self, worker: int) -> str:
        """The last letters of the names ``worker`` keeps by the rule."""
        return "".join(c for i, c in enumerate(ORDER) if i % self.count == worker - 1)

    def settle(self, name: str) -> str:
        """``name`` made this worker's by the rule: its last letter changed, when it is
        another worker's, to one of this worker's base32 letters (the same one each time)."""
        if not name or by_rule(name, self.count) == self.this:
            return name
        own = [c for c in self.letters(self.this) if c in BASE32]
        return name[:-1] + own[ORDER.index(name[-1]) % len(own)]


def by_rule(name: str, workers: int) -> int:
    """The worker (from 1, of ``workers``) the rule gives ``name`` to: by its last letter."""
    last = name[-1:].lower()
    return ORDER.index(last) % workers + 1 if last and last in ORDER else 1


def listener_address(listener: str) -> tuple[str, int] | str:
    """Where a listener (``HOST:PORT``, ``[::1]:PORT`` or ``unix:/path``) is: (host, port)
    for TCP, or the path of a unix socket."""
    if listener.startswith("unix:"):
        return listener.removeprefix("unix:")
    host, _, port = listener.rpartition(":")
    return host.strip("[]"), int(port)


def nexthop(listener: str) -> str:
    """A worker's listener as Postfix's LMTP client names it: ``inet:HOST:PORT``
    (``inet:[::1]:PORT``) or ``unix:/path``."""
    where = listener_address(listener)
    if isinstance(where, str):
        return f"unix:{where}"
    host, port = where
    return f"inet:[{host}]:{port}" if ":" in host else f"inet:{host}:{port}"


def _posix_escape(text: str) -> str:
    """``text`` matched literally in a POSIX extended regular expression (Postfix's)."""
    return "".join("\\" + c if c in ".[]()*+?{}|^$\\" else c for c in text)


def _bracket(letters: str) -> str:
    """A bracket expression matching any of ``letters`` (a hyphen last, where it is literal)."""
    return "[" + letters.replace("-", "") + ("-" if "-" in letters else "") + "]"


def postfix_map(referee: str, shards: Shards) -> str:
    """The regexp table for Postfix's ``transport_maps`` that hands each reply to the worker
    that keeps its game: moved games first, then each worker's letters, then the referee's
    bare address (new games, ``games``, ``help``) and any other plus address to the first
    worker that answers, in order."""
    local, _, domain = referee.lower().partition("@")
    base = _posix_escape(local.split("+")[0])
    at = "@" + _posix_escape(domain)
    lines = [
        f"# Postfix transport_maps (regexp) for {shards.count} referee worker(s) of {referee}",
        "# made by `referee shard`; see docs/scaling.md",
    ]
    if shards.moved:
        lines.append("# games moved off the worker the rule gives them to")
        for game, worker in sorted(shards.moved.items()):
            pattern = f"/^{base}\\+{_posix_escape(game)}\\.[0-3]\\.[a-z2-7]{{16}}{at}$/"
            lines.append(f"{pattern}  lmtp:{nexthop(shards.workers[worker - 1])}")
    for worker, listener in enumerate(shards.workers, start=1):
        ends = _bracket(shards.letters(worker))
        lines.append(f"# worker {worker}: games and confirmations whose name ends in {ends}")
        game = f"[a-z0-9_-]*{ends}\\.[0-3]\\.[a-z2-7]{{16}}"
        confirm = f"confirm\\.[a-z2-7]{{15}}{ends}"
        lines.append(f"/^{base}\\+({game}|{confirm}){at}$/  lmtp:{nexthop(listener)}")
    every = ", ".join(nexthop(w) for w in shards.workers)
    lines.append("# the bare address, and anything else of the referee's: the first that answers")
    lines.append(f"/^{base}(\\+.*)?{at}$/  lmtp:{every}")
    return "\n".join(lines) + "\n"
