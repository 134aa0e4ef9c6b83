"""What a game master does to games in the store: create, play, check, roll back, list.

The command line is a thin shell over these; the mail service plays moves through
:func:`play_move` too, so a move is judged and recorded the same way whichever way it came.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, Required, TypedDict, Unpack

from referee.addresses import AddressError, Addresses
from referee.engine import GameState, Move, Rules, apply, make_setup, new_seed
from referee.errors import RecordError, RequestError, SetupError, StoreError
from referee.notation import parse
from referee.record import (
    AmendedPlayer,
    AmendmentRecord,
    Replayed,
    SourceEntry,
    Terms,
    Timeout,
    TurnRecord,
    bot_address,
    digest,
    dump,
    initial_state,
    load_amendment,
    new_game_record,
    new_turn_record,
    now,
)
from referee.store import Store
from referee.timing import DEFAULT_DEADLINE, due_at


class Herald(Protocol):
    """Whoever tells the players what happens to their games: the mail service's letters
    (:class:`referee.mail.herald.MailHerald`). This module decides and records; it knows no
    mail, and tells a herald what happened."""

    def game_created(self, game: Replayed) -> None:
        """``game`` was created: its first board, to every player."""

    def turn_played(self, game: Replayed, played: Played, sha256: str) -> None:
        """``played`` is about to be written as the next turn of ``game``, its file with
        this hash: the news is queued now and goes out once the file exists."""

    def address_changed(self, game: Replayed, seat: int, was: str) -> None:
        """The player in ``seat`` has a new address (it was ``was``)."""


@dataclass(frozen=True)
class Played:
    """A move judged against a position: the position, the move, the position after it, and
    the turn record (written unless it was a dry run); and when the next move is due (None
    when the game is over)."""

    before: GameState
    move: Move
    after: GameState
    turn: TurnRecord
    due: datetime | None = None


def read_setup_file(path: Path) -> dict[str, Any]:
    """The ``--setup`` TOML file: ``decks = {1 = [...], ...}``, ``nobles``, ``bank``."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise SetupError(f"cannot read the set-up file {path}: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise SetupError(f"the set-up file {path} is not valid TOML: {err}") from None
    unknown = sorted(set(raw) - {"decks", "nobles", "bank"})
    if unknown:
        raise SetupError(f"{path}: unknown keys {unknown}; a set-up has decks, nobles and bank")
    decks = raw.get("decks", {})
    if not isinstance(decks, Mapping) or not all(
        isinstance(v, list) and all(isinstance(c, str) for c in v) for v in decks.values()
    ):
        raise SetupError(f"{path}: decks is a table of card id lists, like decks = {{1 = [...]}}")
    try:
        by_level = {int(level): list(cards) for level, cards in decks.items()}
    except ValueError:
        raise SetupError(f"{path}: deck levels are 1, 2 and 3, got {sorted(decks)}") from None
    nobles = raw.get("nobles")
    if nobles is not None and not (
        isinstance(nobles, list) and all(isinstance(n, str) for n in nobles)
    ):
        raise SetupError(f'{path}: nobles is a list of noble ids, like nobles = ["N1", "N4"]')
    bank = raw.get("bank", {})
    if not isinstance(bank, Mapping):
        raise SetupError(f"{path}: bank is a table of token counts, like bank = {{white = 4}}")
    return {"decks": by_level, "nobles": nobles, "bank": dict(bank)}


class NewGame(TypedDict, total=False):
    """What :func:`create_game` is told of a new game beside its players, by keyword: how it
    is dealt (``seed``: a fresh one when None; ``setup``: what the deal fixes) and its
    :class:`~referee.record.Terms` (``deadline`` None: the default time per move)."""

    seed: int | None
    setup: Mapping[str, Any] | None
    rules: Rules | None
    deadline: timedelta | None
    timeout: Timeout
    spectators: bool
    bots: Mapping[str, str] | None
    bot_seed: int | None
    language: str | None


def create_game(
    store: Store,
    game_id: str,
    players: Sequence[tuple[str, str]],
    *,
    herald: Herald | None = None,
    addresses: Addresses | None = None,
    **given: Unpack[NewGame],
) -> Replayed:
    """Create a game: shuffled from ``seed`` (a fresh one when None) except for what
    ``setup`` fixes. A player named in ``bots`` (name -> level) is a computer player; its
    address is not used (give ""), and its moves' randomness comes from ``bot_seed`` (the
    game's seed when None). The record stores the whole explicit set-up and the seed, and the
    game's terms: the time per move (``deadline``, 7 days when None), what happens when
    it passes (``timeout``: wait, or forfeit) and whether others may watch. The players'
    addresses are checked by ``addresses`` (no special-use domain when None). The ``herald``
    is told of it (the mail service's: each player's first board is queued)."""
    rules = given.get("rules") or Rules()
    fixed = given.get("setup") or {}
    seed = given.get("seed")
    chosen = new_seed() if seed is None else seed
    explicit = make_setup(
        len(players),
        chosen,
        rules,
        decks=fixed.get("decks"),
        nobles=fixed.get("nobles"),
        bank=fixed.get("bank"),
    )
    bots = dict(given.get("bots") or {})
    unknown = sorted(set(bots) - {name for name, _ in players})
    if unknown:
        raise RequestError(f"bot {unknown[0]} is not one of the players")
    players = [
        (name, bot_address(name) if name in bots else mail_address(name, email, addresses))
        for name, email in players
    ]
    deadline = given.get("deadline")
    terms = Terms(
        rules=rules,
        deadline=DEFAULT_DEADLINE if deadline is None else deadline,
        timeout=given.get("timeout", "wait"),
        spectators=given.get("spectators", False),
        bots=bots,
        bot_seed=given.get("bot_seed"),
        language=given.get("language"),
    )
    record = new_game_record(game_id, list(players), explicit, chosen, now(), terms)
    initial_state(record)  # checks names and the set-up before anything is written
    store.create(record)
    created = store.load(game_id)
    if herald is not None:
        herald.game_created(created)
    return created


def mail_address(player: str, address: str, rules: Addresses | None = None) -> str:
    """A player's mail address, checked by ``rules`` (syntax only: no look-ups on the
    network; special-use domains only where allowed) and with its domain in lower case;
    SetupError saying what is wrong with it and what would do."""
    try:
        return (rules or Addresses()).check(address)
    except AddressError as err:
        fix = (
            f'to play with addresses there on a private mail system, add "{err.allow}" to '
            "private_domains in the settings"
            if err.allow
            else f"give it as {player}=name@example.org"
        )
        raise SetupError(f"player {player}: {err}; {fix}") from None


def judge_move(
    replayed: Replayed, player: str, text: str, source: SourceEntry, at: datetime | None = None
) -> Played:
    """The move ``text`` of ``player`` at the game's current position, as a turn record made
    ``at`` that time (whole seconds; default now). Only the player to move may move, except
    to resign: ``resign`` is ``player``'s own, their turn or not."""
    before = replayed.state
    move = parse(before, text, player)
    after = apply(before, move)
    stamp = now() if at is None else at.astimezone(UTC).replace(microsecond=0)
    turn = new_turn_record(before, move, after, replayed.last_file, source, stamp)
    due = None if after.status == "finished" else due_at(stamp, replayed.record.time_per_move)
    return Played(before=before, move=move, after=after, turn=turn, due=due)


class Playing(TypedDict, total=False):
    """How :func:`play_move` plays a move, by keyword: only judged (``dry_run``), the
    ``herald`` told of it, and the time ``at`` which it is recorded (default now)."""

    dry_run: bool
    herald: Herald | None
    at: datetime | None


def play_move(
    store: Store,
    game_id: str,
    player: str,
    text: str,
    source: SourceEntry,
    **how: Unpack[Playing],
) -> Played:
    """Judge and (unless ``dry_run``) record one move, holding the game's lock throughout.
    The ``herald`` is told of the turn before it is written (the mail service's queues the
    new board for every player, sent once the turn is). ``at``: the time to record
    (default now)."""
    dry_run, herald, at = how.get("dry_run", False), how.get("herald"), how.get("at")
    with store.locked(game_id):
        replayed = store.load(game_id)
        _check_ruling(replayed, source, at or now())
        played = judge_move(replayed, player, text, source, at)
        if not dry_run:
            told = herald
            commit_turn(
                store,
                game_id,
                played,
                None if told is None else lambda sha: told.turn_played(replayed, played, sha),
            )
        return played


def ruling(as_of: datetime, reason: str, by: str) -> SourceEntry:
    """The source of a move a game master rules was sent in time, at ``as_of`` (a time
    without a zone is UTC): who ruled and why. RequestError without a reason."""
    if not reason.strip():
        raise RequestError(
            "a ruling needs a reason (--reason): it is kept in the turn and told to the players"
        )
    when = as_of if as_of.tzinfo is not None else as_of.replace(tzinfo=UTC)
    return SourceEntry(kind="ruling", as_of=when, by=by, reason=reason.strip())


def _check_ruling(replayed: Replayed, source: SourceEntry, at: datetime) -> None:
    """A ruling's time must fall within the game: after it was created, not after now."""
    if source.kind != "ruling" or source.as_of is None:
        return
    created = replayed.record.created
    if not created <= source.as_of <= at:
        raise RequestError(
            f"--as-of {source.as_of.isoformat()}: a move ruled sent in time must have been "
            f"sent after the game was created ({created.isoformat()}) and not after now "
            f"({at.isoformat()}); give the time the mail was sent, with its zone"
        )


def resign(
    store: Store,
    game_id: str,
    player: str,
    source: SourceEntry,
    at: datetime | None = None,
    herald: Herald | None = None,
) -> Played:
    """``player`` leaves the game, their turn or not (docs/rules.md, "Leaving a game"), recorded
    as a turn ``resign`` from ``source`` (``timeout`` for a forfeit at the deadline); the
    letters are queued as for any turn. IllegalMoveError when they cannot resign."""
    return play_move(store, game_id, player, "resign", source, herald=herald, at=at)


def move_due(replayed: Replayed, turn: int | None = None) -> datetime | None:
    """When the move awaited after ``turn`` (None: now) is, or was, due: the game's time per
    move after that turn was played (after the game was created, for turn 0); None once the
    game is finished there."""
    state = position(replayed, turn)
    if state.status == "finished":
        return None
    since = replayed.turns[state.turn - 1].at if state.turn else replayed.record.created
    return due_at(since, replayed.record.time_per_move)


def commit_turn(
    store: Store,
    game_id: str,
    played: Played,
    announce: Callable[[str], None] | None = None,
) -> None:
    """Write a turn, and first ``announce`` it (given the hash its file will have): the
    letters that announce a turn are queued naming the turn file and its hash, and are sent
    only once it exists, so the turn and its letters commit together."""
    data = dump(played.turn)
    if announce is not None:
        announce(digest(data))
    store.write_turn(game_id, played.turn.turn, data, after=(played.turn, played.after))


class Amending(TypedDict, total=False):
    """Who amends a game (``by``, always), who is told (``herald``), and what checks a new
    address (``addresses``: no special-use domain when None): :func:`change_address`'s
    keywords."""

    by: Required[str]
    herald: Herald | None
    addresses: Addresses | None


def change_address(
    store: Store, game_id: str, player: str, email: str, reason: str, **how: Unpack[Amending]
) -> tuple[Replayed, AmendmentRecord]:
    """Give ``player`` a new mail address, recorded as an amendment (who, when, why). Their
    reply key follows the address, so the old address can no longer move; the ``herald`` is
    told (the mail service's sends them the board at the new address)."""
    by, herald, addresses = how["by"], how.get("herald"), how.get("addresses")
    if not reason.strip():
        raise RequestError("a new address needs a reason (--reason): it is kept in the record")
    with store.locked(game_id):
        replayed = store.load(game_id)
        try:
            seat = replayed.state.seat_of(player)
        except KeyError as err:
            raise RequestError(str(err.args[0])) from None
        entry = replayed.record.players[seat]
        address = mail_address(entry.name, email, addresses)
        if address.lower() == entry.email.lower():
            raise RequestError(f"{entry.name}'s address is {entry.email} already")
        files = store.read_amendments(game_id)
        previous = files[-1][1] if files else (store.folder(game_id) / "game.toml").read_bytes()
        change = AmendmentRecord(
            amendment=len(files) + 1,
            at=now(),
            by=by,
            reason=reason.strip(),
            previous=digest(previous),
            player=AmendedPlayer(seat=seat, name=entry.name, email=address, was=entry.email),
        )
        store.write_amendment(game_id, change.amendment, dump(change))
        changed = store.load(game_id)
        if herald is not None:
            herald.address_changed(changed, seat, entry.email)
        return changed, change


def check_move(replayed: Replayed, player: str, text: str, turn: int | None) -> Move:
    """Would ``text`` have been legal for ``player`` at the position after ``turn``?"""
    return parse(position(replayed, turn), text, player)


def position(replayed: Replayed, turn: int | None) -> GameState:
    """The position after ``turn`` (0: the set-up; None: now)."""
    if turn is None:
        return replayed.state
    last = len(replayed.states) - 1
    if not 0 <= turn <= last:
        raise StoreError(f"turn {turn} is not in this game: it has turns 0 (set-up) to {last}")
    return replayed.states[turn]


def rollback(store: Store, game_id: str, to: int, reason: str) -> tuple[Replayed, Path]:
    """Undo every turn after ``to``: their files move to an archive folder with the reason."""
    if not reason.strip():
        raise StoreError("a rollback needs a reason (--reason): it is kept with the undone turns")
    with store.locked(game_id):
        replayed = store.load(game_id)
        last = len(replayed.turns)
        if not 0 <= to < last:
            raise StoreError(
                f"cannot roll game {game_id!r} back to turn {to}: it has turns 1 to {last}, so "
                f"--to must be 0 to {last - 1}"
            )
        folder = store.archive_turns(game_id, to, reason.strip(), now(), last - to)
        return store.load(game_id), folder


def _as_json(source: dict[str, Any]) -> dict[str, Any]:
    """A turn's source as JSON: a time in it (a ruling's ``as_of``) as ISO 8601 text, as
    every time of the log is written."""
    return {k: v.isoformat() if isinstance(v, datetime) else v for k, v in source.items()}


def log_entries(store: Store, game_id: str, replayed: Replayed) -> list[dict[str, Any]]:
    """Every turn (who, what, when, from where) and every rollback, in time order."""
    entries: list[dict[str, Any]] = [
        {
            "event": "turn",
            "turn": t.turn,
            "player": t.player,
            "move": t.move.text,
            "at": t.at.isoformat(),
            "source": _as_json(t.source.model_dump(exclude_none=True)),
        }
        for t in replayed.turns
    ]
    for r in store.rollbacks(game_id):
        at = r["at"]
        entries.append(
            {
                "event": "rollback",
                "to": r["to"],
                "undone": r["undone"],
                "reason": r["reason"],
                "at": at.isoformat() if hasattr(at, "isoformat") else str(at),
                "archive": r["folder"],
            }
        )
    for name, data in store.read_amendments(game_id):
        change = load_amendment(data, f"amendments/{name}")
        entries.append(
            {
                "event": "amendment",
                "at": change.at.isoformat(),
                "by": change.by,
                "reason": change.reason,
                "player": change.player.name,
                "email": change.player.email,
                "was": change.player.was,
            }
        )
    created = {"event": "created", "at": replayed.record.created.isoformat()}
    return [created, *sorted(entries, key=lambda e: str(e["at"]))]


def summaries(store: Store) -> list[dict[str, Any]]:
    """Every game: status, turn, who is to move, last activity (or why it cannot be read)."""
    rows: list[dict[str, Any]] = []
    for game_id in store.game_ids():
        try:
            replayed = store.load(game_id)
        except (RecordError, StoreError) as err:
            rows.append({"game": game_id, "status": "unreadable", "error": str(err)})
            continue
        state = replayed.state
        last = replayed.turns[-1].at if replayed.turns else replayed.record.created
        due = move_due(replayed)
        rows.append(
            {
                "game": game_id,
                "status": state.status,
                "turn": state.turn,
                "to_move": None if state.status == "finished" else state.player.name,
                "deadline": None if due is None else due.isoformat(),
                "players": [p.name for p in replayed.record.players],
                "last_activity": last.isoformat(),
            }
        )
    return rows
