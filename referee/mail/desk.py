"""What the service keeps beyond each game's record, and the snapshots it takes of it for the
judge: :class:`Desk` reads the games, the invitations and the ledger; :meth:`Desk.snapshot`
gathers, before a mail is judged, all that judging it may read (judging itself reads no
disk)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from referee.errors import RecordError, StoreError
from referee.finish import Finish, finish_of
from referee.invitations import Invitations
from referee.mail.judging.deadlines import facts_of
from referee.mail.judging.facts import GameFacts, Snapshot
from referee.mail.judging.judge import Received
from referee.mail.state.ledger import Ledger
from referee.record import GAME_ID, Replayed
from referee.standings import finishes
from referee.store import Store


@dataclass(frozen=True)
class Desk:
    """The games, the invitations and the ledger of one games folder, to read."""

    store: Store
    invitations: Invitations
    ledger: Ledger

    def facts(self, game: Replayed) -> GameFacts:
        """``game`` with what the ledger keeps about it."""
        return facts_of(game, self.ledger)

    def snapshot(
        self, mail: Received, base: Snapshot, now: datetime, game: Replayed | None = None
    ) -> Snapshot:
        """What judging ``mail`` at ``now`` may read: ``base`` (the service's own address,
        secret and rules for addresses) with the game it is routed to (``game``, loaded by the
        caller under its lock), the invitation it answers, and what its command needs."""
        seen = replace(base, sender_away=self.ledger.away_until(mail.inbound.sender, now))
        if mail.confirms is not None:
            seen = replace(seen, pending=self.ledger.pending(mail.confirms))
        if game is not None:
            seen = replace(seen, game=self.facts(game))
        elif mail.route is not None and mail.scope == "invitation":
            seen = replace(seen, invitation=self.invitations.get(mail.route.game))
        needs = mail.needs
        if "games" in needs or "finished" in needs:
            games, finished = self._games_of(mail.inbound.sender, over="finished" in needs)
            seen = replace(seen, games=tuple(games), finished=tuple(finished))
        if "invitations" in needs:
            seen = replace(seen, invitations=tuple(self.invitations.all()))
        if "named" in needs and mail.found is not None:
            seen = self._named(seen, mail.found.argument)
        if "finishes" in needs:
            seen = replace(seen, finishes=tuple(finishes(self.store)))
        if "started" in needs and seen.invitation is not None:
            started = self._load(seen.invitation.game)
            seen = replace(seen, started=started)
        return seen

    def _games_of(self, address: str, over: bool) -> tuple[list[GameFacts], list[Finish]]:
        """The games ``address`` plays in: those in play, and with ``over`` what those over
        came to (read from their over-notes: a game over is not replayed for this)."""
        me = address.lower()
        in_play = self.store.in_play()
        playing, finished = [], []
        for game_id in in_play:
            if me not in self.store.addresses(game_id):
                continue  # (not one of its players: not loaded)
            game = self._load(game_id)
            if game is None:
                continue
            if game.state.status == "finished":  # (over since it was last looked at)
                finish = finish_of(game)
                if over and finish is not None and any(p.player == me for p in finish.places):
                    finished.append(finish)
            elif any(p.email.lower() == me for p in game.record.players):
                playing.append(self.facts(game))
        if over:
            for game_id in sorted(set(self.store.game_ids()) - set(in_play)):
                finish = self.store.noted_finish(game_id)
                if finish is not None and any(p.player == me for p in finish.places):
                    finished.append(finish)
        return playing, finished

    def _named(self, seen: Snapshot, argument: str) -> Snapshot:
        game_id = argument.strip().casefold()
        if not GAME_ID.fullmatch(game_id) or not self.store.has(game_id):
            return seen
        try:
            return replace(seen, named=self.facts(self.store.load(game_id)))
        except (RecordError, StoreError):
            return replace(seen, named_unreadable=True)

    def _load(self, game_id: str) -> Replayed | None:
        if not self.store.has(game_id):
            return None
        try:
            return self.store.load(game_id)
        except (RecordError, StoreError):
            return None
