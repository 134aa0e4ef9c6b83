"""A game played by mail over the dir transport, for the mail tests: its games folder, its
mail folder, and the service run over them as `referee serve --once` runs it."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

from referee.engine import GameState
from referee.games import create_game
from referee.mail.herald import MailHerald
from referee.mail.transports.directory import DirTransport
from referee.service import Clock, Service, system_clock
from referee.settings import Settings
from referee.store import Store
from tests.mail.players import latest, reply

NAMES = ("alice", "bob", "carol", "dave")


def address(name: str) -> str:
    return f"{name}@example.org"


class Table:
    """A game, its mail folder, and a service over the dir transport."""

    def __init__(self, root: Path, players: int = 2, seed: int = 5, **settings: object) -> None:
        self.games = root / "games"
        self.mail = root / "mail"
        self.settings = Settings(
            games_dir=self.games, mail_dir=self.mail, address="referee@example.net", **settings
        )
        self.store = Store(self.games)
        create_game(
            self.store,
            "g1",
            [(n, address(n)) for n in NAMES[:players]],
            seed=seed,
            herald=MailHerald.of(self.games),
        )
        self.serve()
        self.sequence = 0

    def serve(self, now: datetime | None = None) -> None:
        """Handle what is waiting and send what is queued, once (at ``now``, if given)."""
        clock: Clock = system_clock if now is None else (lambda: now)
        service = Service(self.settings, DirTransport(self.mail), clock)
        asyncio.run(service.run(once=True))

    @property
    def state(self) -> GameState:
        return self.store.load("g1").state

    def reply(self, name: str, text: str, **kwargs: object) -> Path:
        self.sequence += 1
        mail = latest(self.mail, address(name))
        return reply(
            self.mail,
            mail,
            str(kwargs.pop("sender", address(name))),
            text,
            message_id=str(kwargs.pop("message_id", f"<m{self.sequence}.{name}@example.org>")),
            **kwargs,  # type: ignore[arg-type]
        )

    def folder(self, name: str) -> list[str]:
        return sorted(p.name for p in (self.mail / name).iterdir())
