"""What happens with time and by itself: reminders, moves past their deadline (a player
resigned, a bot standing in, the game master told), invitations that ran out, undo requests
that lapsed, and the turns of seats played by bots. Each is recorded and announced as any
turn is; the service runs this on its judging thread, never beside a mail being judged.

What is due is :func:`referee.mail.duties.duties`'s to say; this carries it out."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from datetime import datetime

from referee.bot_seats import STAND_IN_LEVEL, bot_move, bot_to_move, play_bots
from referee.errors import ConflictError, RecordError, StoreError
from referee.games import commit_turn, judge_move
from referee.mail.clerk import Clerk
from referee.mail.duties import Due, duties, reminders_to_send
from referee.mail.herald import MailHerald
from referee.mail.judging.commands.inviting import cancelled_letters
from referee.mail.judging.telling import (
    digest_letter,
    digest_lines,
    overdue_letter,
    reminder_letter,
    turn_letters,
)
from referee.record import SourceEntry, load_game
from referee.store import Glance, no_room_on_disk
from referee.wording.messages import say

log = logging.getLogger("referee.service")


def cannot_be_read(game_id: str, why: str) -> str:
    """What the log says of a game in play that cannot be read (a note for the game
    master, never read by a player)."""
    note = (
        f"game {game_id} cannot be read ({why}): its mail is set aside, and nothing in it "
        "moves until that is mended"
    )
    return note


class Runner:
    """Carries out what time has made due, and plays the bots, in one games folder.
    ``warn(about, said)`` says a fault met at every look once."""

    def __init__(
        self, clerk: Clerk, game_master: str | None, warn: Callable[[str, str | None], None]
    ) -> None:
        self.clerk = clerk
        self.desk = clerk.desk
        self.store = clerk.store
        self.outbox = clerk.spool.outbox
        self.game_master = game_master
        self.warn = warn
        #: by game in play: whether a bot has a seat, and game.toml's stamp when read (the
        #: seats never change: only a game with a bot is loaded to see whose turn it is)
        self._bot_seats: dict[str, tuple[tuple[int, int], bool]] = {}
        #: by game with a bot seat: its files at a glance when no bot was to move there (it
        #: is not loaded again until they change)
        self._no_bot_to_move: dict[str, Glance] = {}
        self._unreadable: set[str] = set()  # games in play said to be unreadable

    def do_duties(self, now: datetime) -> int:
        """Reminders, deadlines, invitations that ran out, undo requests that lapsed, at
        ``now``; how many things were done."""
        due = duties(self.desk, now)
        self._say_unreadable(due.unreadable)
        done = self._invitations(due, now)
        for game_id in due.undo_ended:
            self.desk.ledger.set_undo_request(None, game_id)
        done += self._overdue(due, now)
        done += self._digests(due, now)
        return done + self._reminders(due, now)

    def _say_unreadable(self, unreadable: dict[str, str]) -> None:
        """Say once of each game in play that cannot be read (and that it can again)."""
        for game_id in self._unreadable - unreadable.keys():
            self.warn(f"game {game_id}", None)
        for game_id, why in unreadable.items():
            self.warn(f"game {game_id}", cannot_be_read(game_id, why))
        self._unreadable = set(unreadable)

    def _digests(self, due: Due, now: datetime) -> int:
        """A letter to each player who chose a daily digest, of what happened in their games
        since they last heard (see duties)."""
        done = 0
        for address, owed in due.digests.items():
            lines, name = [], address
            for game_id, first in owed:
                try:
                    game = self.store.load(game_id)
                except (RecordError, StoreError):
                    continue
                lines += digest_lines(game, address, first)
                seats = [p.name for p in game.record.players if p.email.lower() == address]
                name = seats[0] if seats else name
            if lines:
                self.outbox.queue([digest_letter(address, name, lines)])
                log.info("digest to %s: %d turn(s)", address, len(lines))
                done += 1
            self.desk.ledger.note_digested(address, now)
        return done

    def _invitations(self, due: Due, now: datetime) -> int:
        done = 0
        for invitation in due.expired:
            why = "not everyone invited answered within 7 days."
            if self.desk.invitations.end(invitation.game, "cancelled", why, now):
                self.outbox.queue(cancelled_letters(invitation, say("cancel.expired")))
                log.info("invitation %s ran out: called off", invitation.game)
                done += 1
        return done

    def _overdue(self, due: Due, now: datetime) -> int:
        ledger, done = self.desk.ledger, 0
        for overdue in due.overdue:
            if overdue.policy in ("forfeit", "bot"):
                done += self.at_deadline(overdue.game, overdue.turn, overdue.name, now)
            elif not ledger.told_overdue(overdue.game, overdue.turn):
                if self.game_master:
                    told = overdue_letter(
                        self.game_master, overdue.game, overdue.name, overdue.turn, overdue.due
                    )
                    self.outbox.queue([told])
                ledger.note_overdue(overdue.game, overdue.turn, now)
                log.info("game %s waits past %s's deadline", overdue.game, overdue.name)
                done += 1
        return done

    def _reminders(self, due: Due, now: datetime) -> int:
        done = 0
        for address, reminders in reminders_to_send(self.desk, now, due).items():
            lines = [
                say(
                    "reminder.line.late" if r.late else "reminder.line",
                    game=r.game,
                    turn=r.turn + 1,
                    due=r.due.isoformat(),
                )
                for r in reminders
            ]
            late = any(r.late for r in reminders)
            one = reminders[0]  # about one game: a reply to it is a reply in that game
            about = (one.game, one.seat, one.turn) if len(reminders) == 1 else None
            names = {r.name for r in reminders}  # (their name in those games, when it is one)
            name = one.name if len(names) == 1 else ""
            self.outbox.queue([reminder_letter(address, name, lines, late, about)])
            self.desk.ledger.note_reminded(address, now, [r.key for r in reminders])
            log.info("reminded %s of %d move(s)", address, len(reminders))
            done += 1
        return done

    def at_deadline(self, game_id: str, turn: int, name: str, now: datetime) -> int:
        """``name``'s move is past its deadline in a game whose policy acts: ``forfeit``
        resigns them; ``bot`` has a bot play this one turn for them."""
        try:
            with self.store.locked(game_id, wait=0):
                game = self.store.load(game_id)
                if game.state.turn != turn or game.state.status == "finished":
                    return 0  # moved meanwhile
                if game.record.timeout == "bot":
                    chosen = bot_move(game, name, STAND_IN_LEVEL, stand_in=True)
                    text, source = chosen.text, chosen.source
                    extra = say(
                        "timeout.stand_in", player=name, level=STAND_IN_LEVEL, why=chosen.why
                    )
                else:
                    text, source = "resign", SourceEntry(kind="timeout")
                    extra = say("timeout.forfeit", player=name)
                played = judge_move(game, name, text, source, at=now)
                letters = turn_letters(game, played, self.desk.facts(game), None, extra)
                queue = self.clerk.announce(game_id, played, letters)
                commit_turn(self.store, game_id, played, queue)
        except ConflictError:
            return 0  # busy: the next look
        log.info("game %s: %s's deadline passed: %s (turn %d)", game_id, name, text, turn + 1)
        return 1

    def _has_bot_seat(self, game_id: str) -> bool:
        """Whether a bot plays in ``game_id`` (read from game.toml once; True when it
        cannot be read, so that the game is loaded and the fault said)."""
        path = os.path.join(self.store.root, game_id, "game.toml")
        try:
            info = os.stat(path)
            stamp = (info.st_ino, info.st_mtime_ns)
            known = self._bot_seats.get(game_id)
            if known is not None and known[0] == stamp:
                return known[1]
            with open(path, "rb") as game_file:
                seated = any(p.bot for p in load_game(game_file.read()).players)
        except (OSError, RecordError):
            return True
        self._bot_seats[game_id] = (stamp, seated)
        return seated

    def play_bots(self, now: datetime) -> int:
        """Play the turns of seats played by bots, in every game where one is to move; how
        many were played. Each is recorded with source bot and announced like any turn."""
        count = 0
        herald = MailHerald(self.clerk.spool, self.desk.ledger)
        in_play = self.store.in_play()
        for gone in self._bot_seats.keys() - set(in_play):
            del self._bot_seats[gone]
            self._no_bot_to_move.pop(gone, None)
        for game_id in in_play:
            if not self._has_bot_seat(game_id):
                continue
            idle = self._no_bot_to_move.pop(game_id, None)
            if idle is not None and self.store.unchanged(game_id, idle):
                self._no_bot_to_move[game_id] = idle
                continue
            glance = self.store.glance(game_id)  # (before loading: a turn meanwhile shows)
            try:
                if bot_to_move(self.store.load(game_id)) is None:
                    if glance is not None:
                        self._no_bot_to_move[game_id] = glance
                    continue
                played = play_bots(self.store, game_id, herald, at=now)
            except (RecordError, StoreError, OSError) as err:
                if isinstance(err, OSError) and no_room_on_disk(err):
                    self.warn("bots", f"the bots wait: the games folder takes no writes ({err})")
                    break  # every other game's bots would meet the same
                self.warn(f"game {game_id}", cannot_be_read(game_id, str(err)))
                continue  # (the duties say when it can be read again)
            self.warn("bots", None)
            for turn in played:
                log.info("game %s: turn %d: %s (bot)", game_id, turn.turn.turn, turn.turn.move.text)
            count += len(played)
        return count
