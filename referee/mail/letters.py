"""The letters players get: the welcome, the board after every move, and answers.

Every letter is built from the recipient's own view (:func:`referee.engine.view.view`), so it
shows them their own hand and nothing hidden from them.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine import (
    Buy,
    GameState,
    GameView,
    Move,
    Pass,
    Reserve,
    Take,
    legal_moves,
    outcome,
    view,
)
from referee.mail.compose import LastMove, Letter, letter
from referee.notation import format_move
from referee.record import GameRecord, Replayed
from referee.render import told
from referee.timing import when


def welcome_letters(game: Replayed) -> list[Letter]:
    """The first board, to every player."""
    state = game.states[0]
    names = ", ".join(f"{p.name} (seat {p.seat})" for p in game.record.players)
    letters = []
    for p in game.record.players:
        yours = state.player.name == p.name
        due = when(game.record.created + game.record.time_per_move)
        paragraphs = [
            f"Welcome to Splendor game {game.record.id}. The players, in turn order: {names}. "
            f"The first to {state.rules.points_to_win} points ends the game at the end of "
            f"that round. Each move is due {game.record.deadline} after the one before.",
            "You move first: reply to this mail with your move."
            if yours
            else f"{state.player.name} moves first; you will get the board after every move.",
        ]
        letters.append(
            player_letter(
                "welcome",
                view(state, p.name),
                game.record,
                p.seat,
                paragraphs,
                options=legal_texts(state) if yours else (),
                help_=True,
                due=due,
            )
        )
    return letters


def turn_letters(
    record: GameRecord,
    after: GameState,
    move: Move,
    mover: int,
    answers: str | None,
    watchers: Sequence[str] = (),
    due: str = "",
    extra: str = "",
    before: GameState | None = None,
) -> list[Letter]:
    """The new board after a move, to every player, telling them what happened; and the
    public board to every spectator in ``watchers``. ``due``: when the next move is due, in
    words, for the player to move; ``before``: the position before the move, so that the
    board can show the slots it refilled."""
    mover_name = record.players[mover].name
    last = LastMove(move, mover_name, before.board if before is not None else after.board)
    letters = []
    for p in record.players:
        paragraphs = [f"Turn {after.turn}: {told(move, mover_name, p.name)}."]
        if extra:
            paragraphs.append(extra)
        paragraphs.append(status_line(after, p.name))
        yours = after.status != "finished" and after.player.name == p.name
        letters.append(
            player_letter(
                "turn",
                view(after, p.name),
                record,
                p.seat,
                paragraphs,
                options=legal_texts(after) if yours else (),
                answers=answers if p.seat == mover else None,
                due=due,
                last=last,
            )
        )
    return letters + watcher_letters(record.id, after, move, mover_name, watchers, due, last)


def watcher_letters(
    game: str,
    after: GameState,
    move: Move | None,
    mover: str,
    watchers: Sequence[str],
    due: str = "",
    last: LastMove | None = None,
) -> list[Letter]:
    """The public board, to each spectator of ``game``: what the public may see, never a
    player's hand beyond it."""
    public = view(after)
    happened = f"Turn {after.turn}: {told(move, mover)}." if move is not None else ""
    letters = []
    for watcher in watchers:
        letters.append(
            note_letter(
                "watch",
                watcher,
                watcher,
                subject(game, public, "", "watch"),
                [
                    *([happened] if happened else []),
                    status_line(after, ""),
                    f"You are watching game {game}: write 'unwatch {game}' to the referee to stop.",
                ],
                shown=public,
                game=game,
                due=due,
                last=last,
            )
        )
    return letters


def address_letter(game: Replayed, seat: int, was: str) -> Letter:
    """The board, to a player at the new address a game master gave them."""
    state = game.state
    player = game.record.players[seat]
    yours = state.status != "finished" and state.player.name == player.name
    return player_letter(
        "address",
        view(state, player.name),
        game.record,
        seat,
        [
            f"The game master has changed your address in Splendor game {game.record.id} "
            f"from {was} to {player.email}: from now on only mail from {player.email}, "
            "replying to the referee's mails sent there, can move for you.",
            status_line(state, player.name),
        ],
        options=legal_texts(state) if yours else (),
        help_=True,
    )


def letters_for_turn(game: Replayed, turn: int) -> list[Letter]:
    """The letters that announce ``turn`` (0: the welcome), rebuilt from the record."""
    if turn == 0:
        return welcome_letters(game)
    moves = game.moves()
    entry = game.turns[turn - 1]
    mover = next(p.seat for p in game.record.players if p.name == entry.player)
    answers = entry.source.message_id if entry.source.kind == "mail" else None
    return turn_letters(
        game.record,
        game.states[turn],
        moves[turn - 1],
        mover,
        answers,
        before=game.states[turn - 1],
    )


def player_letter(
    kind: str,
    shown: GameView,
    record: GameRecord,
    seat: int,
    paragraphs: Sequence[str],
    *,
    answers: str | None = None,
    quoted: Sequence[str] = (),
    reason: str | None = None,
    options: Sequence[str] = (),
    options_title: str = "",
    help_: bool = False,
    all_options: bool = False,
    listing: Sequence[str] = (),
    listing_title: str = "",
    commands: Sequence[tuple[str, str]] = (),
    due: str = "",
    last: LastMove | None = None,
) -> Letter:
    """A letter to the player in ``seat``, showing ``shown``: their own view; ``due``: when
    the move now awaited is due, in words, shown with the board; ``last``: the move that led
    to it, highlighted on the board."""
    player = record.players[seat]
    return letter(
        kind,
        shown,
        record.id,
        to=player.email,
        name=player.name,
        seat=seat,
        turn=shown.turn,
        subject=subject(record.id, shown, player.name, kind),
        paragraphs=paragraphs,
        quoted=quoted,
        reason=reason,
        options=options,
        options_title=options_title or ("What you may do now:" if options else ""),
        help_=help_,
        answers=answers,
        all_options=all_options,
        listing=listing,
        listing_title=listing_title,
        commands=commands,
        due=due,
        last=last,
    )


def note_letter(
    kind: str,
    to: str,
    name: str,
    subject: str,
    paragraphs: Sequence[str],
    *,
    answers: str | None = None,
    listing: Sequence[str] = (),
    listing_title: str = "",
    commands: Sequence[tuple[str, str]] = (),
    shown: GameView | None = None,
    game: str = "",
    seat: int | None = None,
    turn: int = 0,
    quoted: Sequence[str] = (),
    reason: str | None = None,
    due: str = "",
    last: LastMove | None = None,
) -> Letter:
    """A letter to anyone (a spectator, someone invited, whoever wrote to the referee): a
    board only when ``shown`` (a view that person may see) is given. With a ``seat``, the
    letter carries that seat's reply address in ``game`` (an invitation's)."""
    return letter(
        kind,
        shown,
        game,
        to=to,
        name=name,
        seat=seat,
        turn=shown.turn if shown is not None else turn,
        subject=subject,
        paragraphs=paragraphs,
        answers=answers,
        listing=listing,
        listing_title=listing_title,
        commands=commands,
        quoted=quoted,
        reason=reason,
        due=due,
        last=last,
    )


def subject(game: str, shown: GameView, name: str, kind: str) -> str:
    if kind.startswith("refused") or kind in ("stale", "no-move", "over"):
        what = "move not played"
    elif shown.status == "finished":
        what = (
            f"game over: {' and '.join(shown.winners)} win{'s' if len(shown.winners) == 1 else ''}"
        )
    elif shown.to_move == name:
        what = "your move"
    else:
        what = f"{shown.to_move} to move"
    return f"Splendor {game} · turn {shown.turn} · {what}"


def status_line(state: GameState, name: str) -> str:
    if state.status == "finished":
        return over_line(state)
    last = ""
    if state.status == "last_round":
        last = f" This is the last round: the game ends after {state.players[-1].name}'s turn."
    if state.player.name == name:
        return f"It is your turn: reply to this mail with your move.{last}"
    return f"It is {state.player.name}'s turn; you will get the board after every move.{last}"


def over_line(state: GameState) -> str:
    winners = outcome(state)
    best = max(p.points for p in state.players)
    names = " and ".join(winners)
    return f"The game is over: {names} win{'s' if len(winners) == 1 else ''} with {best} points."


def legal_texts(state: GameState) -> list[str]:
    """Every legal move of the player to move, in canonical notation: buys first (the moves
    people look for), then takes, reserves, and pass."""
    order = {Buy: 0, Take: 1, Reserve: 2, Pass: 3}
    moves = sorted(legal_moves(state), key=lambda m: order[type(m)])
    return [format_move(m) for m in moves]


def reminder_letter(
    address: str,
    lines: Sequence[str],
    late: bool,
    game: str = "",
    seat: int | None = None,
    turn: int = 0,
) -> Letter:
    """One mail to a player whose move is due in one game or more (``lines``: one a game).
    When it is about one game (``game``, the player's ``seat`` and the ``turn`` now), it
    carries the player's reply address there: a reply to it with a move plays."""
    said = (
        "A move of yours is past its deadline; the other players are waiting for it."
        if late
        else "A move of yours is due soon."
    )
    return note_letter(
        "reminder",
        address,
        address,
        "Splendor referee: " + ("your move is overdue" if late else "your move is due soon"),
        [
            said,
            (
                "Reply to this mail with your move"
                if game
                else "Reply to the latest board mail of each game with your move"
            )
            + "; write 'away 5d' (or a date) to the referee to pause your deadlines while you "
            "cannot play, or 'resign' in a game you will not finish.",
        ],
        listing=lines,
        listing_title="Your moves to make:",
        game=game,
        seat=seat,
        turn=turn,
    )


def overdue_letter(game_master: str, game: str, name: str, turn: int, due: str) -> Letter:
    """To the game master, once: a game waits past a deadline (timeout policy ``wait``)."""
    return note_letter(
        "overdue",
        game_master,
        "game master",
        f"Splendor referee: game {game} is stuck on {name}'s move",
        [
            f"In game {game}, {name}'s move (turn {turn + 1}) was due by {due} and has not "
            "come. The game's timeout policy is 'wait', so the referee keeps reminding them "
            "once a day and the game waits. You are told once.",
            f"To settle it: referee resign {game} {name} (they leave the game), or referee "
            f"player {game} {name} --email ADDRESS --reason WHY (another address plays on).",
        ],
    )
