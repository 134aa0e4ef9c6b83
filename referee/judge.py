"""Judging a mail: pure. (the mail, where it is routed, the game) -> a ruling.

A ruling is a turn to record with the letters that announce it, or letters that answer or
refuse, or silence; and the folder the mail is filed in. Nothing here touches the disk, the
clock or the network; the service (:mod:`referee.service`) carries rulings out.

What players may write in a reply: one move, or the requests ``help``, ``board`` and
``moves``; how a reply is read is :mod:`referee.mail.reading`'s job.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from referee.engine import legal_moves, view
from referee.errors import AmbiguousMoveError, MoveError
from referee.games import Played
from referee.games import judge as judge_move
from referee.mail.compose import Letter
from referee.mail.inbound import Inbound, reply_text
from referee.mail.letters import (
    legal_texts,
    over_line,
    player_letter,
    status_line,
    turn_letters,
)
from referee.mail.notices import reply_notice
from referee.mail.reading import read_reply
from referee.mail.routing import Route, authentic
from referee.notation import format_move
from referee.record import Replayed, SourceEntry

Folder = Literal["done", "refused", "quarantine"]


@dataclass(frozen=True)
class Ruling:
    """What to do with one mail. ``limit`` names the kind of error reply, when the letters
    are error replies that go out at most once a day per sender and kind."""

    outcome: Literal["played", "answered", "refused", "ignored"]
    folder: Folder
    note: str
    played: Played | None = None
    letters: list[Letter] = field(default_factory=list)
    limit: str | None = None


def judge(
    inbound: Inbound, route: Route | None, game: Replayed | None, secret: bytes, now: datetime
) -> Ruling:
    """The ruling on one mail that arrived at ``now`` (the time a move is recorded at)."""
    if inbound.unreadable:
        return Ruling("ignored", "quarantine", inbound.unreadable)
    if inbound.automatic:
        return Ruling("ignored", "quarantine", f"automatic mail: {inbound.automatic}")
    if route is None or game is None:
        why = "it names no game of ours" if route is None else f"no game {route.game!r}"
        return _stranger(inbound, why, "no-game")
    refused = authentic(route, game.record, inbound.sender, secret)
    if refused:
        return _stranger(inbound, refused, "unauthorised")

    seat = route.seat
    player = game.record.players[seat]
    state = game.state
    reading = read_reply(reply_text(inbound.text))
    moves, requests, others = reading.move, reading.requests, reading.passed
    answers = inbound.message_id
    mine = view(state, player.name)

    def refuse(
        kind: str,
        paragraphs: list[str],
        note: str,
        quoted: Sequence[str] = (),
        help_: bool = False,
        reason: str | None = None,
    ) -> Ruling:
        mail = player_letter(
            kind,
            mine,
            game.record,
            seat,
            paragraphs,
            answers=answers,
            quoted=quoted,
            help_=help_,
            reason=reason,
        )
        return Ruling(
            "refused", "refused", note, letters=[mail], limit=_limit(kind, state.turn, moves)
        )

    if state.status == "finished":
        return refuse("over", [over_line(state)], "the game is over")
    if not moves:
        if requests:
            return _answer_requests(game, seat, requests, answers)
        return refuse(
            "no-move",
            ["Your reply held no move, so nothing was played."],
            "no move in the reply",
            quoted=others[:10],
            help_=True,
            reason=reading.near_miss(),
        )
    text = "\n".join(moves)
    if route.turn is not None and route.turn < state.turn:
        return refuse(
            "stale",
            [
                f"Your reply answered the mail of turn {route.turn}, but the game has moved on "
                f"to turn {state.turn} since. Nothing was played: here is the board now. If "
                "your move still stands, reply to this mail with it.",
            ],
            f"stale: answers turn {route.turn}, the game is at turn {state.turn}",
            quoted=moves,
        )
    source = SourceEntry(kind="mail", message_id=inbound.message_id)
    try:
        played = judge_move(game, player.name, text, source, at=now)
    except MoveError as err:
        return _refusal(game, seat, moves, err, answers)
    return Ruling(
        "played",
        "done",
        f"turn {played.turn.turn}: {player.name} {format_move(played.move)}",
        played=played,
        letters=turn_letters(game.record, played.after, played.move, seat, answers),
    )


def _answer_requests(game: Replayed, seat: int, requests: list[str], answers: str | None) -> Ruling:
    state = game.state
    name = game.record.players[seat].name
    yours = state.player.name == name
    paragraphs = ["Nothing was played; here is what you asked for.", status_line(state, name)]
    wants_moves = "moves" in requests
    shown: Sequence[str] = ()
    title = ""
    if wants_moves:
        if yours:
            shown = [format_move(m) for m in legal_moves(state)]
            title = f"Every move you may make now ({len(shown)}):"
        else:
            paragraphs.append("It is not your turn, so you have no moves to make now.")
    mail = player_letter(
        "+".join(dict.fromkeys(requests)),
        view(state, name),
        game.record,
        seat,
        paragraphs,
        options=shown,
        options_title=title,
        help_="help" in requests,
        answers=answers,
        all_options=wants_moves,
    )
    return Ruling("answered", "done", f"answered {', '.join(requests)}", letters=[mail])


def _refusal(
    game: Replayed, seat: int, moves: list[str], err: MoveError, answers: str | None
) -> Ruling:
    state = game.state
    name = game.record.players[seat].name
    kind = {"InvalidMoveError": "invalid", "IllegalMoveError": "illegal"}.get(
        type(err).__name__, "ambiguous"
    )
    choices: Sequence[str]
    if isinstance(err, AmbiguousMoveError):
        choices = err.candidates
        title = "Say which one you mean; each of these can be sent back as it is:"
    elif state.player.name == name:
        choices = legal_texts(state)
        title = "What you may do now:"
    else:
        choices, title = (), ""
    paragraphs = {
        "invalid": "Your move could not be read, so nothing was played.",
        "illegal": "Your move is not allowed, so nothing was played.",
        "ambiguous": "Your move could mean more than one thing, so nothing was played.",
    }[kind]
    mail = player_letter(
        f"refused-{kind}",
        view(state, name),
        game.record,
        seat,
        [paragraphs, status_line(state, name)],
        quoted=moves,
        reason=err.reason,
        options=choices,
        options_title=title,
        help_=kind == "invalid",
        answers=answers,
        all_options=isinstance(err, AmbiguousMoveError),
    )
    return Ruling(
        "refused",
        "refused",
        f"{kind}: {err.reason}",
        letters=[mail],
        limit=_limit(kind, state.turn, moves),
    )


def _limit(kind: str, turn: int, written: list[str]) -> str:
    """The kind of an error reply to a player, for the once-a-day limit: the same refusal of
    the same words at the same turn (a mail loop) is sent once; a new attempt is answered."""
    said = " ".join(" ".join(written).casefold().split())
    return f"{kind}@{turn}:{said}"


def _stranger(inbound: Inbound, why: str, kind: str) -> Ruling:
    """A short refusal to someone who may not move here: never a board or a hand."""
    mail = reply_notice(
        inbound,
        kind,
        "Splendor referee: your mail was not read as a move",
        "Hello,\n\nThe Splendor referee received your mail but did not read it as a move: "
        "only a player of a game, replying from their registered address to a mail the "
        "referee sent them, can move.\n\nIf you are a player, reply to the latest mail "
        "from the referee from the address you registered with.\n\n-- \nThe Splendor "
        "referee (this notice is sent at most once a day)\n",
    )
    return Ruling("refused", "refused", f"not a player's reply: {why}", letters=[mail], limit=kind)


def oversized(inbound: Inbound, size: int, limit: int) -> Ruling:
    """A mail too large to read: set aside unread, its sender told (once a day)."""
    if inbound.automatic or not inbound.sender:
        why = inbound.automatic or "no sender"
        return Ruling("ignored", "quarantine", f"oversized ({size} bytes) and {why}")
    mail = reply_notice(
        inbound,
        "oversized",
        "Splendor referee: your mail was too large to read",
        f"Hello,\n\nYour mail of {size:,} bytes is larger than the Splendor referee reads "
        f"({limit:,} bytes), so it was set aside unread and nothing was played.\n\nPlease "
        "reply again with your move as plain text, without attachments or pictures.\n\n"
        "-- \nThe Splendor referee (this notice is sent at most once a day)\n",
    )
    return Ruling(
        "refused", "quarantine", f"oversized: {size} bytes", letters=[mail], limit="oversized"
    )
