"""Whom each letter is worded for: the language and time zone of its reader, decided when it
is sent (so a letter queued before someone wrote ``language cy`` goes out in Welsh).

A reader's language is, first found: the one their address chose (``language``, kept in
the ledger); the language of the game or invitation the letter is about; the language the
letter was given when it was queued (``Letter.language``: of the game the mail it answers
was written in, or of that mail's words); the service's ``language`` setting. Their time
zone is the one they chose (``timezone``), else UTC.
"""

from __future__ import annotations

from referee.errors import RefereeError
from referee.invitations import Invitations
from referee.mail.state.ledger import Ledger
from referee.record import load_game
from referee.store import Store
from referee.wording.letter import Letter
from referee.wording.vocabulary import languages
from referee.wording.writer import Reader


class Readers:
    """The reader of each letter of one games folder."""

    def __init__(
        self, ledger: Ledger, store: Store, invitations: Invitations, default: str = "en"
    ) -> None:
        self.ledger = ledger
        self.store = store
        self.invitations = invitations
        self.default = default if default in languages() else "en"
        #: game -> its language, read once (a record or a proposal is written once)
        self._games: dict[str, str | None] = {}

    def of(self, letter: Letter) -> Reader:
        """Whom ``letter`` is worded for."""
        language, zone = self.ledger.choices(letter.to)
        if language not in languages():
            language = self.game_language(letter.game) or self._given(letter) or self.default
        return Reader(language, zone)

    @staticmethod
    def _given(letter: Letter) -> str | None:
        return letter.language if letter.language in languages() else None

    def game_language(self, game: str) -> str | None:
        """The language ``game`` (or the invitation to it) was set to, if any."""
        if not game:
            return None
        if game in self._games:
            return self._games[game]
        try:
            if self.store.has(game):
                record = load_game((self.store.folder(game) / "game.toml").read_bytes())
                language = record.language
            else:
                invitation = self.invitations.get(game)
                if invitation is None:
                    return None  # not kept: it may be proposed yet
                language = invitation.language
        except (RefereeError, OSError, ValueError):
            return None  # not kept: read again when the record can be read
        self._games[game] = language if language in languages() else None
        return self._games[game]
