"""What players and spectators are told by the letters that follow a game: the welcome, the
board after every move, a changed address, reminders; and the small pieces every letter in
a game shares (whose turn it is, the subject, the moves one may make). As data: each is a
:class:`~referee.wording.letter.Letter` of messages, which the letter writer words.

Every letter is made from its reader's own view (:func:`referee.engine.view.view`), so it
shows them their own hand and nothing hidden from them. Bots are never written to: a seat
played by a bot gets no letter (its moves reach the others in their boards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from referee.engine import Buy, GameState, GameView, Pass, Reserve, Take, legal_moves, move_json
from referee.engine import view as view_of
from referee.engine.moves import move_from_json
from referee.engine.rules import outcome
from referee.games import Played
from referee.mail.judging.facts import GameFacts
from referee.record import GameRecord, Replayed, TurnRecord
from referee.wording.catalogue import lookup
from referee.wording.letter import Board, LastMove, Letter
from referee.wording.messages import Message, say
from referee.wording.told import ruled, told


def welcome_letters(game: Replayed) -> list[Letter]:
    """The first board, to every player."""
    state = game.states[0]
    record = game.record
    due = record.created + record.time_per_move
    seats = [say("letter.seat", player=p.name, seat=p.seat) for p in record.players]
    welcome = say(
        "letter.welcome",
        game=record.id,
        seats=seats,
        points=state.rules.points_to_win,
        deadline=int(record.time_per_move.total_seconds()),
    )
    letters = []
    for p in people(record):
        yours = state.player.name == p.name
        first = (
            say("letter.first.yours") if yours else say("letter.first", player=state.player.name)
        )
        board = Board(view_of(state, p.name), due.isoformat())
        letter = to_player(record, p.seat, "welcome", [welcome, first], board)
        letters.append(replace(letter, options=legal_moves_of(state) if yours else (), help=True))
    return letters


def addressed(message: Message, reader: str) -> Message:
    """``message`` as said to ``reader``: its ``.you`` form when it is about them (its
    ``player``) and the catalogue has one ("Your move was not made…", not "bob's move…")."""
    if message.params.get("player") != reader:
        return message
    try:
        lookup(f"{message.code}.you")
    except KeyError:
        return message
    params = {k: v for k, v in message.params.items() if k != "player"}
    return say(f"{message.code}.you", **params)


def turn_letters(
    before: Replayed,
    played: Played,
    facts: GameFacts,
    answers: str | None = None,
    extra: Message | None = None,
) -> list[Letter]:
    """The letters that announce a played turn: the new board to every player, telling them
    what happened (``extra``: anything more to say of it), and the public board to every
    spectator; ``answers`` is the mail it was played from (the mover's letter answers it).
    The one way a turn is announced, whoever played it: a player's mail, the service at a
    deadline, a bot, or the game master."""
    record = before.record
    after = before.then(played.turn, played.after)
    state = played.after
    due = facts.due(after)
    mover = played.before.seat_of(played.turn.player)
    last = LastMove(move_json(played.move), played.turn.player, played.before.board)
    letters = []
    for p in people(record):
        yours = state.status != "finished" and state.player.name == p.name
        choice = facts.mail_of(p.email)
        if choice != "every-turn" and not yours and not _must_hear(played, p.name, extra):
            continue  # they chose mail only when it is their move: told then
        says = [say("letter.turn", turn=state.turn, told=told(played.move, last.player, p.name))]
        if choice != "every-turn":
            says = _since_their_move(after, p.name)
        if extra is not None:
            says.append(addressed(extra, p.name))
        if (ruling := ruled(played.turn, p.name)) is not None:
            says.append(ruling)
        says.append(status(state, p.name))
        if state.status == "finished":
            says.append(say("letter.rematch"))
        board = Board(view_of(state, p.name), _iso(due), last)
        letter = to_player(record, p.seat, "turn", says, board)
        letters.append(
            replace(
                letter,
                options=legal_moves_of(state) if yours else (),
                answers=answers if p.seat == mover else None,
            )
        )
    return letters + watcher_letters(record.id, state, facts.watchers, due, last)


def rollback_letters(game: Replayed, facts: GameFacts, reason: str) -> list[Letter]:
    """To every player of ``game``, just rolled back by the game master: that it was, to
    which turn, why, and the board as it is now (with the moves, to the player to move)."""
    state = game.state
    told = say("letter.rolled_back", game=game.record.id, turn=state.turn, reason=reason)
    due = _iso(facts.due())
    letters = []
    for p in people(game.record):
        yours = state.status != "finished" and state.player.name == p.name
        board = Board(view_of(state, p.name), due)
        letter = to_player(game.record, p.seat, "rolled-back", [told, status(state, p.name)], board)
        letters.append(replace(letter, options=legal_moves_of(state) if yours else ()))
    return letters


def _must_hear(played: Played, name: str, extra: Message | None) -> bool:
    """Whether a turn is told to ``name`` even though they chose mail only at their move:
    the game ended; a game master ruled (everyone is told); something more is said of it (a
    forfeit, a bot standing in); or it was their own turn, played by someone else (the game
    master, the clock, a bot standing in) rather than by their own mail."""
    if played.after.status == "finished" or extra is not None:
        return True
    source = played.turn.source
    return source.kind == "ruling" or (played.turn.player == name and source.kind != "mail")


def after_own_move(turns: Sequence[TurnRecord], name: str) -> int:
    """The first turn after ``name``'s own last one among ``turns`` (1: they have not moved)."""
    own = [t.turn for t in turns if t.player == name]
    return own[-1] + 1 if own else 1


def told_from(
    played: Replayed, name: str, first: int, code: str = "letter.turn", **said: Any
) -> list[Message]:
    """Turns ``first`` on of the game ``played`` as ``name`` is told them: each in the message
    ``code``, given the turn, what happened, and ``said``."""
    pairs = list(zip(played.turns, played.moves(), strict=True))[first - 1 :]
    return [say(code, **said, turn=t.turn, told=told(m, t.player, name)) for t, m in pairs]


def _since_their_move(game: Replayed, name: str) -> list[Message]:
    """Every turn of ``game`` since ``name``'s own move before its last turn (all of them
    before their first): what a player who gets mail only at their move (and when one of
    their turns is played for them) reads."""
    return told_from(game, name, after_own_move(game.turns[:-1], name))


def digest_lines(game: Replayed, address: str, first: int) -> list[Message]:
    """Turns ``first`` on of ``game`` as the player at ``address`` is told them in a digest."""
    seats = [p for p in game.record.players if p.email.lower() == address.lower()]
    name = seats[0].name if seats else ""
    return told_from(game, name, first, "digest.line", game=game.record.id)


def digest_letter(address: str, name: str, lines: Sequence[Message]) -> Letter:
    """The daily digest of a player who chose ``mail digest``: what happened in their games."""
    letter = to_someone(address, name, "digest", say("subject.digest"), [say("digest.intro")])
    return replace(letter, listing=tuple(lines), listing_title=say("digest.listing"))


def watcher_letters(
    game: str,
    state: GameState,
    watchers: Sequence[str],
    due: datetime | None = None,
    last: LastMove | None = None,
) -> list[Letter]:
    """The public board, to each spectator of ``game``: what the public may see, never a
    player's hand beyond it."""
    public = view_of(state)
    says = []
    if last is not None:
        says.append(say("letter.turn", turn=state.turn, told=_told_json(last)))
    says += [status(state, ""), say("letter.watching", game=game)]
    return [
        replace(
            to_someone(watcher, "", "watch", board_subject(game, public, "", "watch"), says),
            game=game,
            turn=public.turn,
            board=Board(public, _iso(due), last),
        )
        for watcher in watchers
    ]


def address_letter(game: Replayed, seat: int, was: str) -> Letter:
    """The board, to a player at the new address a game master gave them."""
    state = game.state
    player = game.record.players[seat]
    yours = state.status != "finished" and state.player.name == player.name
    said = say("letter.address", game=game.record.id, was=was, address=player.email)
    board = Board(view_of(state, player.name))
    letter = to_player(game.record, seat, "address", [said, status(state, player.name)], board)
    return replace(letter, options=legal_moves_of(state) if yours else (), help=True)


def letters_for_turn(game: Replayed, turn: int) -> list[Letter]:
    """The letters that announce ``turn`` (0: the welcome), rebuilt from the record."""
    if turn == 0:
        return welcome_letters(game)
    before = Replayed(game.record, game.turns[: turn - 1], game.states[:turn], b"")
    entry = game.turns[turn - 1]
    played = Played(game.states[turn - 1], game.moves()[turn - 1], game.states[turn], entry, None)
    answers = entry.source.message_id if entry.source.kind == "mail" else None
    return turn_letters(before, played, GameFacts(before), answers)


def to_player(
    record: GameRecord, seat: int, kind: str, says: Sequence[Message], board: Board
) -> Letter:
    """A letter of ``kind`` to the player in ``seat``, showing ``board`` (their own view),
    with their reply address in the game."""
    player = record.players[seat]
    return Letter(
        game=record.id,
        seat=seat,
        to=player.email,
        name=player.name,
        turn=board.view.turn,
        kind=kind,
        subject=board_subject(record.id, board.view, player.name, kind),
        says=tuple(says),
        board=board,
    )


def to_someone(to: str, name: str, kind: str, subject: Message, says: Sequence[Message]) -> Letter:
    """A letter of ``kind`` to anyone (a spectator, someone invited, whoever wrote to the
    referee): no board and no reply address unless given (``replace(letter, board=…)``)."""
    return Letter(game="", seat=None, to=to, name=name, turn=0, kind=kind, subject=subject,
                  says=tuple(says))  # fmt: skip


def board_subject(game: str, shown: GameView, name: str, kind: str) -> Message:
    """The subject of a letter with a board: the game, the turn, and what matters now."""
    if kind.startswith("refused") or kind in ("stale", "no-move", "over"):
        return say("subject.not_played", game=game, turn=shown.turn)
    if kind == "reading":
        return say("subject.reading", game=game, turn=shown.turn)
    if shown.status == "finished":
        return say("subject.over", game=game, turn=shown.turn, winners=list(shown.winners))
    if shown.to_move == name:
        return say("subject.your_move", game=game, turn=shown.turn)
    return say("subject.to_move", game=game, turn=shown.turn, player=shown.to_move)


def status(state: GameState, name: str) -> Message:
    """Whose turn it is, to ``name`` ("": a spectator), or how the game ended."""
    if state.status == "finished":
        return over(state)
    mover = state.player.name
    if state.status == "last_round":
        last = state.players[-1].name
        if mover == name:
            return say("letter.status.yours.last_round", last=last)
        return say("letter.status.theirs.last_round", player=mover, last=last)
    if mover == name:
        return say("letter.status.yours")
    return say("letter.status.theirs", player=mover)


def over(state: GameState) -> Message:
    """How a finished game ended: who won, with how many points."""
    winners = outcome(state)
    best = max(p.points for p in state.players)
    return say("letter.over", winners=winners, points=best)


def legal_moves_of(state: GameState) -> tuple[dict[str, Any], ...]:
    """Every legal move of the player to move, as JSON: buys first (the moves people look
    for), then takes, reserves, and pass."""
    order = {Buy: 0, Take: 1, Reserve: 2, Pass: 3}
    moves = sorted(legal_moves(state), key=lambda m: order[type(m)])
    return tuple(move_json(m) for m in moves)


def reminder_letter(
    address: str,
    name: str,
    reminders: Sequence[Message],
    late: bool,
    about: tuple[str, int, int] | None,
) -> Letter:
    """One letter to a player whose move is due in one game or more (``reminders``: one a
    game), greeting them by ``name`` (their name in those games; "": none). When it is
    ``about`` one game (its id, the player's seat and the turn now), it carries the
    player's reply address there: a reply to it with a move plays."""
    said = say("reminder.late") if late else say("reminder.soon")
    reply = say("reminder.reply.one") if about else say("reminder.reply.many")
    subject = say("subject.reminder.late") if late else say("subject.reminder.soon")
    letter = replace(
        to_someone(address, name, "reminder", subject, [said, reply]),
        listing=tuple(reminders),
        listing_title=say("reminder.listing"),
    )
    if about is None:
        return letter
    game, seat, turn = about
    return replace(letter, game=game, seat=seat, turn=turn)


def overdue_letter(game_master: str, game: str, name: str, turn: int, due: datetime) -> Letter:
    """To the game master, once: a game waits past a deadline (timeout policy ``wait``)."""
    subject = say("subject.overdue", game=game, player=name)
    return to_someone(
        game_master,
        "",  # the game master: greeted without a name
        "overdue",
        subject,
        [
            say("overdue.waiting", game=game, player=name, turn=turn + 1, due=due.isoformat()),
            say("overdue.settle", game=game, player=name),
        ],
    )


def people(record: GameRecord) -> list[Any]:
    """The players who read mail: never those played by bots."""
    return [p for p in record.players if p.bot is None]


def _iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def _told_json(last: LastMove) -> Message:
    return told(move_from_json(last.move), last.player)
