"""Game records: the versioned TOML of a game and of each turn, and replay. No filesystem.

A game is ``game.toml`` (players, rule options, the explicit set-up, the seed) and one file per
accepted move, ``turns/NNNN.toml``. Each file ends in a ``[seal]`` table holding the SHA-256 of
every byte above it, so an edited file no longer matches its seal. Each turn also records
the hash of the file before it (``game.toml`` for turn 1) and of the complete state before
and after the move, so a missing, reordered, replaced or extra turn breaks the chain.
:func:`replay` rebuilds every position from the record and, checking all of this, names the
first turn that does not fit.

Records hold moves, not positions: positions are always rebuilt by replaying the moves.

Formats: 1 is the first; 2 adds a game's time options (``deadline``, ``timeout``,
``spectators``), resignations (move ``resign``) and the turn source ``timeout``. A format-1
file reads as a game with the default options. A file of format 2 would not read in a
referee that knows only format 1, and is refused there as newer rather than as malformed.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, TypeVar

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from referee.engine import GameState, Move, Resign, Rules, Setup, apply, move_json, start
from referee.engine.cards import TOKEN_COLOURS
from referee.errors import MoveError, RecordError, ReplayError, RequestError
from referee.notation import as_move, format_move, request_from_json
from referee.timing import DEFAULT_DEADLINE, format_duration, parse_deadline, parse_duration

#: The format this referee writes. It reads this and every older format.
FORMAT = 2

#: What happens when a player's move is overdue: keep waiting (and reminding), resign them,
#: or have a bot play that one turn for them.
Timeout = Literal["wait", "forfeit", "bot"]
TIMEOUTS: tuple[Timeout, ...] = ("wait", "forfeit", "bot")
#: The address a seat played by a bot has in the record: it is never written to.
BOT_DOMAIN = "bots.invalid"


def bot_address(name: str) -> str:
    """The address of a seat played by a bot (``name@bots.invalid``: never written to)."""
    return f"{name.lower()}@{BOT_DOMAIN}"


GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
_SEAL = b"\n[seal]\n"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PlayerEntry(_Model):
    """A seat: its player's name and address, or (``bot``) the level of the computer player
    that plays it, whose address (``NAME@bots.invalid``) is never written to."""

    name: str
    email: str
    seat: int
    bot: str | None = None


class RulesEntry(_Model):
    points_to_win: int = 15
    gold: int = 5


class SetupEntry(_Model):
    """The explicit set-up: each level's deck top first (first 4 dealt), nobles, the bank."""

    decks: dict[str, list[str]]
    nobles: list[str]
    bank: dict[str, int]


class GameRecord(_Model):
    """A game's file. ``deadline`` is the time a player has for each move, written as
    :func:`~referee.timing.format_duration` writes it (``7d``, ``36h``); ``timeout`` what
    happens when it passes; ``spectators`` whether others may watch. A format-1 file has
    none of the three and reads with the defaults."""

    format: int = FORMAT
    id: str
    created: datetime
    players: list[PlayerEntry]
    rules: RulesEntry = Field(default_factory=RulesEntry)
    setup: SetupEntry
    seed: int | None = None
    #: The seed of the bots' randomness (None: the game's seed); a bot's move at a turn
    #: depends only on its view, its level and this seed with the turn number.
    bot_seed: int | None = None
    deadline: str = format_duration(DEFAULT_DEADLINE)
    timeout: Timeout = "wait"
    spectators: bool = False
    #: The language of the game's letters to those who chose none (None: the service's).
    language: str | None = None

    @field_validator("deadline")
    @classmethod
    def _a_duration(cls, value: str) -> str:
        # Any duration reads (the range is checked when a game is created, so that a record
        # stays readable should the range change); it is kept as written, so the seal holds.
        try:
            parse_duration(value)
        except RequestError as err:
            raise ValueError(err.args[0]) from None
        return value

    @property
    def time_per_move(self) -> timedelta:
        """``deadline`` as a span of time."""
        return parse_duration(self.deadline)


class MoveEntry(_Model):
    """A move as canonical text and as its JSON object (a null noble left out: TOML has no
    null)."""

    text: str
    json_: dict[str, Any] = Field(alias="json")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class SourceEntry(_Model):
    """Where a move came from: the command line, a mail (its Message-ID), a moves file, the
    clock (``timeout``: a player resigned by the ``forfeit`` policy at their deadline), or a
    computer player (``bot``: its ``level`` and ``seed``; ``stand_in`` when it played one
    overdue turn for an absent player under the ``bot`` policy), or a game master's ruling
    (``ruling``: a move ruled sent in time, ``as_of`` when it was sent, ``by`` whom and
    ``reason``; ``message_id`` the mail, when the game master names it)."""

    kind: Literal["command-line", "mail", "moves-file", "timeout", "bot", "ruling"]
    message_id: str | None = None
    file: str | None = None
    line: int | None = None
    level: str | None = None
    seed: int | None = None
    stand_in: bool | None = None
    as_of: datetime | None = None
    by: str | None = None
    reason: str | None = None

    def describe(self) -> str:
        if self.kind == "mail":
            return f"mail {self.message_id}"
        if self.kind == "moves-file":
            return f"moves file {self.file}, line {self.line}"
        if self.kind == "timeout":
            return "deadline passed (forfeit)"
        if self.kind == "bot":
            who = "a bot standing in at the deadline" if self.stand_in else "bot"
            return f"{who} ({self.level}, seed {self.seed})"
        if self.kind == "ruling":
            sent = self.as_of.isoformat() if self.as_of else "(no time)"
            return f"game master's ruling by {self.by}: sent in time, at {sent}: {self.reason}"
        return "command line"


class AmendedPlayer(_Model):
    seat: int
    name: str
    email: str
    was: str


class AmendmentRecord(_Model):
    """A change to a game's record after it was made (a player's address), with who made it,
    when and why. ``previous`` is the hash of the file before it (game.toml for the first),
    so amendments are a chain of their own, beside the turns'."""

    format: int = FORMAT
    amendment: int
    at: datetime
    by: str
    reason: str
    previous: str
    player: AmendedPlayer


class TurnRecord(_Model):
    """One turn. ``player`` is who moved: the player to move, or, for a resignation, the
    player who resigned (their turn or not)."""

    format: int = FORMAT
    turn: int
    player: str
    at: datetime
    previous: str
    state_before: str
    state_after: str
    move: MoveEntry
    source: SourceEntry


# ---------------------------------------------------------------------------------------------
# Building records


@dataclass(frozen=True)
class Terms:
    """A game's terms, as its record keeps them: the rule options, the time per move and
    what happens when it passes (``timeout``), whether others may watch, the seats played by
    computer players (name -> level) and the seed of their moves (the game's seed when
    None), and the game's language (None: the service's default)."""

    rules: Rules = field(default_factory=Rules)
    deadline: timedelta = DEFAULT_DEADLINE
    timeout: Timeout = "wait"
    spectators: bool = False
    bots: Mapping[str, str] = field(default_factory=dict)
    bot_seed: int | None = None
    language: str | None = None


def new_game_record(
    game_id: str,
    players: list[tuple[str, str]],
    setup: Setup,
    seed: int | None,
    created: datetime,
    terms: Terms = Terms(),
) -> GameRecord:
    """A new game's record. ``players`` are (name, address) in seat order; a name in
    ``terms.bots`` (name -> level) is a seat played by a computer player, its address
    unused."""
    if not GAME_ID.fullmatch(game_id):
        raise RecordError(
            f"game id {game_id!r} must be lower-case letters, digits, '-' and '_', starting "
            "with a letter or digit"
        )
    written = format_duration(terms.deadline)
    if parse_deadline(written) != terms.deadline:
        raise RequestError(
            f"a deadline of {terms.deadline} is not a whole number of minutes: give one like "
            f"{written}"
        )
    rules = terms.rules
    return GameRecord(
        id=game_id,
        created=created,
        players=[
            PlayerEntry(name=n, email=e, seat=i, bot=terms.bots.get(n))
            for i, (n, e) in enumerate(players)
        ],
        rules=RulesEntry(points_to_win=rules.points_to_win, gold=rules.gold),
        setup=SetupEntry(
            decks={str(level): list(deck) for level, deck in enumerate(setup.decks, start=1)},
            nobles=list(setup.nobles),
            bank=dict(zip(TOKEN_COLOURS, setup.bank, strict=True)),
        ),
        seed=seed,
        bot_seed=terms.bot_seed,
        deadline=written,
        timeout=terms.timeout,
        spectators=terms.spectators,
        language=terms.language,
    )


def initial_state(record: GameRecord) -> GameState:
    """The opening position a game record describes."""
    rules = Rules(points_to_win=record.rules.points_to_win, gold=record.rules.gold)
    decks = record.setup.decks
    d1, d2, d3 = (tuple(decks.get(str(level), [])) for level in (1, 2, 3))
    w, u, g, r, k, o = (record.setup.bank.get(c, 0) for c in TOKEN_COLOURS)
    setup = Setup(decks=(d1, d2, d3), nobles=tuple(record.setup.nobles), bank=(w, u, g, r, k, o))
    return start([p.name for p in record.players], setup, rules)


def new_turn_record(
    before: GameState,
    move: Move,
    after: GameState,
    previous_file: bytes,
    source: SourceEntry,
    at: datetime,
) -> TurnRecord:
    return TurnRecord(
        turn=after.turn,
        player=mover(before, move),
        at=at,
        previous=digest(previous_file),
        state_before=state_digest(before),
        state_after=state_digest(after),
        move=MoveEntry(
            text=format_move(move),
            json={k: v for k, v in move_json(move).items() if v is not None},
        ),
        source=source,
    )


def mover(state: GameState, move: Move) -> str:
    """Who makes ``move`` in ``state``: the player to move, or the one who resigns."""
    if isinstance(move, Resign):
        return state.players[move.seat].name
    return state.player.name


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def state_digest(state: GameState) -> str:
    """A hash of the complete state, secrets included (deck order, blind cards).

    Part of the record format: the state is written as this JSON array, whatever the engine's
    classes look like, so records stay valid when the code changes. Bonuses and points are
    left out, as they follow from the cards and nobles. The seats that resigned and the cards
    that left the game are appended only once someone has resigned, so every position without
    a resignation (every game recorded before resigning existed) keeps its digest.
    """
    body = [
        [state.rules.points_to_win, state.rules.gold],
        state.bank,
        state.board,
        state.decks,
        state.nobles,
        [
            [p.name, p.tokens, p.cards, [[r.card, r.blind] for r in p.reserved], p.nobles]
            for p in state.players
        ],
        state.to_move,
        state.turn,
        state.passes,
        state.status,
    ]
    if state.resigned:
        body += [list(state.resigned), list(state.left)]
    return digest(json.dumps(body, separators=(",", ":")).encode())


def now() -> datetime:
    """The time to stamp on a record: UTC, whole seconds."""
    return datetime.now(UTC).replace(microsecond=0)


# ---------------------------------------------------------------------------------------------
# TOML in and out


def dump(model: GameRecord | TurnRecord | AmendmentRecord) -> bytes:
    """The sealed TOML of a record: its fields, then a [seal] with the hash of what is above."""
    body = model.model_dump(mode="python", by_alias=True, exclude_none=True)
    text = tomli_w.dumps(body).encode()
    return text + _SEAL + f'sha256 = "{hashlib.sha256(text).hexdigest()}"\n'.encode()


_M = TypeVar("_M", GameRecord, TurnRecord, AmendmentRecord)


def load_game(data: bytes, name: str = "game.toml") -> GameRecord:
    return _load(GameRecord, data, name)


def load_turn(data: bytes, name: str) -> TurnRecord:
    return _load(TurnRecord, data, name)


def load_amendment(data: bytes, name: str) -> AmendmentRecord:
    return _load(AmendmentRecord, data, name)


def amended(record: GameRecord, game_file: bytes, files: list[tuple[str, bytes]]) -> GameRecord:
    """``record`` with its amendments (name, bytes, in name order) carried out; RecordError
    names the first that is missing, out of place, edited, or about another player."""
    players = list(record.players)
    previous = game_file
    for expected, (name, data) in enumerate(files, start=1):
        where = f"amendments/{name}"
        if name != f"{expected:04d}.toml":
            raise RecordError(f"{where} is out of place: expected amendments/{expected:04d}.toml")
        change = load_amendment(data, where)
        if change.amendment != expected or change.previous != digest(previous):
            raise RecordError(
                f"{where} does not follow the file before it: amendments were renamed, "
                "swapped or added by hand"
            )
        seat = change.player.seat
        if not 0 <= seat < len(players) or players[seat].name != change.player.name:
            raise RecordError(f"{where} names no player of this game")
        players[seat] = players[seat].model_copy(update={"email": change.player.email})
        previous = data
    return record.model_copy(update={"players": players}) if files else record


def _load(kind: type[_M], data: bytes, name: str) -> _M:
    """Read a record: its format first (a newer one is refused as such), then its seal,
    then its fields."""
    at = data.rfind(_SEAL)
    body = data if at < 0 else data[:at]
    try:
        raw = tomllib.loads(body.decode())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise RecordError(f"{name} is not readable TOML ({err}): it may be cut short") from None
    version = raw.get("format")
    if not isinstance(version, int) or version < 1:
        raise RecordError(f"{name} has no valid format number (format = {version!r})")
    if version > FORMAT:
        raise RecordError(
            f"{name} is format {version}, newer than this referee reads (format {FORMAT} and "
            "older): upgrade referee to open it"
        )
    if at < 0:
        raise RecordError(f"{name} has no [seal]: it was cut short or written by hand")
    seal = re.fullmatch(rb'sha256 = "([0-9a-f]{64})"\n?', data[at + len(_SEAL) :])
    if not seal or seal.group(1).decode() != hashlib.sha256(body).hexdigest():
        raise RecordError(f"{name} does not match its seal: it was edited after it was written")
    try:
        return kind.model_validate(raw)
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in err.errors()
        )
        raise RecordError(f"{name} does not hold a valid record: {problems}") from None


# ---------------------------------------------------------------------------------------------
# Replay


@dataclass(frozen=True)
class Replayed:
    """A game rebuilt from its record: ``states[n]`` is the position after turn ``n``."""

    record: GameRecord
    turns: list[TurnRecord]
    states: list[GameState]
    #: The bytes of the last file of the record (the last turn's, or game.toml's): the next
    #: turn records their hash.
    last_file: bytes
    #: Why the replay stopped before the end of the record (only when not strict).
    problem: ReplayError | None = None

    @property
    def state(self) -> GameState:
        return self.states[-1]

    def moves(self) -> list[Move]:
        return [_turn_move(self.states[t.turn - 1], t) for t in self.turns]

    def then(self, turn: TurnRecord, state: GameState) -> Replayed:
        """This game with one more turn played (not yet written: no file of its own)."""
        return Replayed(self.record, [*self.turns, turn], [*self.states, state], b"")


def replay(
    record: GameRecord,
    game_file: bytes,
    turn_files: list[tuple[str, bytes]],
    strict: bool = True,
) -> Replayed:
    """Rebuild the game from ``game.toml``'s bytes and the turn files (name, bytes) in name
    order, checking every seal, link, state hash and move. ReplayError names the first bad
    turn; when not ``strict``, the game is rebuilt up to it and the error kept in
    ``problem``."""
    start = Replayed(record=record, turns=[], states=[initial_state(record)], last_file=game_file)
    return replay_more(start, turn_files, strict)


def replay_more(
    replayed: Replayed, turn_files: list[tuple[str, bytes]], strict: bool = True
) -> Replayed:
    """``replayed`` carried on through the turn files that come after its last turn, with
    every check :func:`replay` makes (the first new file must be the next turn and follow
    the last file already replayed)."""
    if replayed.problem is not None:
        raise ValueError("a replay that stopped at a bad turn cannot be carried on")
    state, previous = replayed.state, replayed.last_file
    states, turns = list(replayed.states), list(replayed.turns)
    try:
        for expected, (name, data) in enumerate(turn_files, start=len(turns) + 1):
            turn, state = _replay_turn(state, expected, name, data, previous, turns)
            states.append(state)
            turns.append(turn)
            previous = data
    except ReplayError as err:
        if strict:
            raise
        return Replayed(replayed.record, turns, states, previous, problem=err)
    return Replayed(record=replayed.record, turns=turns, states=states, last_file=previous)


def _replay_turn(
    state: GameState,
    expected: int,
    name: str,
    data: bytes,
    previous: bytes,
    earlier: list[TurnRecord],
) -> tuple[TurnRecord, GameState]:
    """Turn ``expected`` read from file ``name``, and the position after it; ReplayError if
    any check fails."""
    number = _turn_number(name)
    if number is None:
        raise ReplayError(f"turns/{name} is not a turn file name (expected NNNN.toml)", expected)
    if number != expected:
        if number > expected:
            raise ReplayError(
                f"turn {expected} is missing: turns/{name} comes after turn {expected - 1}",
                expected,
            )
        raise ReplayError(f"turns/{name} is out of place: expected turn {expected}", expected)
    try:
        turn = load_turn(data, f"turns/{name}")
    except RecordError as err:
        raise ReplayError(f"turn {expected}: {err}", expected) from None
    if turn.turn != expected:
        raise ReplayError(
            f"turns/{name} says it is turn {turn.turn}: files were renamed or swapped",
            expected,
        )
    if turn.previous != digest(previous):
        what = "game.toml" if expected == 1 else f"turn {expected - 1}"
        raise ReplayError(
            f"turn {expected} does not follow {what}: the file before it was replaced, or "
            "turn files were swapped or added by hand",
            expected,
        )
    # The previous turn's state_after was checked against this very position already.
    before = earlier[-1].state_after if earlier else state_digest(state)
    if turn.state_before != before:
        raise ReplayError(f"turn {expected} was played on a different position", expected)
    move = _turn_move(state, turn)
    try:
        after = apply(state, move)
    except MoveError as err:
        raise ReplayError(
            f"turn {expected} ({turn.move.text}) is illegal: {err}", expected
        ) from None
    if turn.player != mover(state, move):
        raise ReplayError(
            f"turn {expected} is recorded as {turn.player}'s, but it was "
            f"{state.player.name}'s turn",
            expected,
        )
    if turn.state_after != state_digest(after):
        raise ReplayError(f"turn {expected} does not lead to the recorded position", expected)
    return turn, after


def _turn_move(state: GameState, turn: TurnRecord) -> Move:
    """The move of a turn, read from its JSON form (complete: returns, noble and payment
    given); its text must be that move's canonical text."""
    try:
        move = as_move(state, request_from_json(turn.move.json_), turn.player)
    except MoveError as err:
        raise ReplayError(f"turn {turn.turn}: its move cannot be read: {err}", turn.turn) from None
    if format_move(move) != turn.move.text:
        raise ReplayError(
            f"turn {turn.turn}: its text {turn.move.text!r} and its JSON name different moves",
            turn.turn,
        )
    return move


def _turn_number(name: str) -> int | None:
    m = re.fullmatch(r"(\d{4,})\.toml", name)
    return int(m.group(1)) if m else None
