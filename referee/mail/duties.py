"""What falls due with time, read from the games and the ledger at ``now``: reminders, moves
past their deadline, invitations that ran out, undo requests overtaken by a deadline.

Pure but for reading (the clock is an argument): :func:`duties` says what is due; the
service carries it out (:meth:`referee.service.Service.do_duties`).

The rules (docs/interface.md, "Time"):

- the player to move is reminded when half their time is gone, and again 24 hours before
  the deadline (when the time per move is over two days: else the half-time reminder is the
  one); at most one reminder mail to an address in any 24 hours, covering all its games;
- at the deadline the game's ``timeout`` acts: ``forfeit`` resigns the player (a turn with
  source ``timeout``); ``wait`` keeps reminding, once a day, and tells the game master once;
- deadlines pause while their player is away (see :func:`referee.mail.state.ledger.paused`);
- an invitation unanswered after 7 days is called off;
- a player who chose ``mail digest`` gets, once the oldest move it would tell is a day old
  and at most once in any 24 hours, a letter of what happened in each of their games since
  their own last move there (and since their last digest), unless it is their move there
  (that letter came at once, telling all of it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from referee.errors import RecordError, StoreError
from referee.invitations import Invitation
from referee.mail.desk import Desk
from referee.mail.judging.deadlines import due_at, move_came, time_per_move, timeout_policy
from referee.mail.judging.telling import after_own_move
from referee.mail.state.ledger import Ledger
from referee.record import Replayed

DAY = timedelta(hours=24)


@dataclass(frozen=True)
class Reminder:
    """One game of an address whose move is due: ``key`` names the reminder
    (``game@turn:kind``), so that each is sent once."""

    game: str
    name: str
    turn: int
    due: datetime
    key: str
    late: bool
    seat: int = 0


@dataclass(frozen=True)
class Overdue:
    """A move past its deadline: resign its player (``forfeit``) or tell the game master
    (``wait``, once)."""

    game: str
    turn: int
    name: str
    policy: str
    due: datetime


@dataclass
class Due:
    """Everything due at one moment."""

    reminders: dict[str, list[Reminder]] = field(default_factory=dict)  # by address
    overdue: list[Overdue] = field(default_factory=list)
    expired: list[Invitation] = field(default_factory=list)
    undo_ended: list[str] = field(default_factory=list)  # games whose undo request lapsed
    #: by address: the games to tell in a digest, each with the first turn to tell
    digests: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    #: by address: every game with moves a digest would tell, the first, and when it came
    owed: dict[str, list[tuple[str, int, datetime]]] = field(default_factory=dict)
    #: games in play that cannot be read, and why (nothing in them is due until mended)
    unreadable: dict[str, str] = field(default_factory=dict)


def duties(desk: Desk, now: datetime) -> Due:
    """What is due at ``now``."""
    due = Due()
    ledger = desk.ledger
    for invitation in desk.invitations.all():
        if invitation.status == "invited" and now >= invitation.expires:
            due.expired.append(invitation)
    for game_id in desk.store.in_play():
        try:
            game = desk.store.load(game_id)
        except (RecordError, StoreError, OSError) as err:  # the service says so once
            due.unreadable[game_id] = str(err)
            continue
        state = game.state
        _digests(game, ledger, now, due)
        deadline = due_at(game, ledger)
        if deadline is None:
            continue
        request = ledger.undo_request(game_id)
        if request is not None and (request.turn != state.turn or now >= deadline):
            due.undo_ended.append(game_id)
        player = game.record.players[state.to_move]
        if player.bot is not None:  # played by the service at once (Service.play_bots)
            continue
        if ledger.away_until(player.email, now) is not None:
            continue
        policy = timeout_policy(game.record)
        if now >= deadline:
            due.overdue.append(Overdue(game_id, state.turn, player.name, policy, deadline))
            if policy in ("forfeit", "bot"):
                continue
        came = move_came(game)
        span = time_per_move(game.record)
        kinds = []
        if now >= deadline:
            kinds.append(f"late{(now - deadline) // DAY}")
        elif span > 2 * DAY and now >= deadline - DAY:
            kinds.append("day")
        elif now >= came + (deadline - came) / 2:
            kinds.append("half")
        for kind in kinds:
            due.reminders.setdefault(player.email.lower(), []).append(
                Reminder(
                    game_id,
                    player.name,
                    state.turn,
                    deadline,
                    f"{game_id}@{state.turn}:{kind}",
                    now >= deadline,
                    state.to_move,
                )
            )
    _digests_due(due, now)
    return due


def _digests(game: Replayed, ledger: Ledger, now: datetime, due: Due) -> None:
    """The turns of ``game`` owed to each player who chose a daily digest: those since their
    own last move and their last digest (:func:`_digests_due` says when they go out)."""
    state = game.state
    if state.status == "finished":
        return
    for seat, player in enumerate(game.record.players):
        if player.bot is not None or seat == state.to_move:
            continue
        if ledger.mail_choice(player.email) != "digest":
            continue
        last = ledger.digested(player.email)
        if last is not None and now - last < DAY:
            continue
        first = after_own_move(game.turns, player.name)
        told = [t for t in game.turns[first - 1 :] if last is None or t.at > last]
        if told:
            owed = due.owed.setdefault(player.email.lower(), [])
            owed.append((game.record.id, told[0].turn, told[0].at))


def _digests_due(due: Due, now: datetime) -> None:
    """The digests that go out now: to each address whose oldest move to tell, in any of its
    games, is a day old; each tells every game with moves to tell (so that none is left for
    a day that never comes)."""
    for address, owed in due.owed.items():
        if now - min(at for _, _, at in owed) >= DAY:
            due.digests[address] = [(game, first) for game, first, _ in owed]


def reminders_to_send(desk: Desk, now: datetime, due: Due) -> dict[str, list[Reminder]]:
    """The reminders to mail now, by address: those not sent before, to addresses that have
    had no reminder mail in the last 24 hours (the rest wait for the next day's mail)."""
    sending: dict[str, list[Reminder]] = {}
    for address, reminders in due.reminders.items():
        last, sent = desk.ledger.reminded(address)
        fresh = [r for r in reminders if r.key not in sent]
        if not fresh or (last is not None and now - last < DAY):
            continue
        sending[address] = fresh
    return sending
