"""Judging a mail: pure. (the mail, where it is routed, the game) -> a ruling.

A ruling is a turn to record with the letters that announce it, or letters that answer or
refuse, or silence; and the folder the mail is filed in. Nothing here touches the disk, the
clock or the network; the service (:mod:`referee.service`) carries rulings out.

What players may write in a reply: one move, or the requests ``help``, ``board`` and
``moves``; how a reply is read is :mod:`referee.mail.reading`'s job.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from referee.engine import view
from referee.errors import AmbiguousMoveError, MoveError, RequestError
from referee.games import judge as judge_move
from referee.invitations import Invitation
from referee.mail.commands import Found, Scope, read_command
from referee.mail.commands.context import Context, Desk, Folder, Ruling
from referee.mail.commands.requests import answer_requests, help_commands
from referee.mail.deadlines import due_words
from referee.mail.inbound import Inbound, reply_text
from referee.mail.letters import (
    legal_texts,
    note_letter,
    over_line,
    player_letter,
    status_line,
    turn_letters,
)
from referee.mail.notices import reply_notice
from referee.mail.reading import read_reply
from referee.mail.routing import Route, authentic, authentic_invitation
from referee.notation import format_move, says_a_move
from referee.record import Replayed, SourceEntry

__all__ = ["Folder", "Ruling", "judge", "oversized"]


def judge(
    inbound: Inbound,
    route: Route | None,
    game: Replayed | None,
    secret: bytes,
    now: datetime,
    desk: Desk,
    invitation: Invitation | None = None,
) -> Ruling:
    """The ruling on one mail that arrived at ``now`` (the time a move is recorded at).

    ``desk`` is what the service knows beyond the game, to read; ``invitation`` the
    invitation a reply answers, when its route names a game proposed by mail and not
    started."""
    if inbound.unreadable:
        return Ruling("ignored", "quarantine", inbound.unreadable)
    if inbound.automatic:
        return Ruling("ignored", "quarantine", f"automatic mail: {inbound.automatic}")
    if inbound.spoofed:  # answering would send mail to someone who did not write
        return Ruling("ignored", "quarantine", f"forged sender: {inbound.spoofed}")
    written = reply_text(inbound.text)
    lines = tuple(written.splitlines())
    if route is None:
        ctx = Context("referee", inbound, now, desk, secret, lines=lines)
        return _commanded(ctx, read_command("referee", written))
    if game is None:
        if invitation is None:
            return _stranger(inbound, f"no game {route.game!r}", "no-game")
        refused = authentic_invitation(route, invitation, inbound.sender, secret)
        if refused:
            return _stranger(inbound, refused, "unauthorised")
        ctx = Context(
            "invitation",
            inbound,
            now,
            desk,
            secret,
            seat=route.seat,
            invitation=invitation,
            lines=lines,
        )
        return _commanded(ctx, read_command("invitation", written))
    refused = authentic(route, game.record, inbound.sender, secret)
    if refused:
        return _stranger(inbound, refused, "unauthorised")

    seat = route.seat
    player = game.record.players[seat]
    state = game.state
    ctx = Context(
        "game",
        inbound,
        now,
        desk,
        secret,
        game=game,
        seat=seat,
        route_turn=route.turn,
        lines=lines,
    )
    found = read_command("game", written)
    if found is not None:
        return _commanded(ctx, found)
    reading = read_reply(written)
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
            commands=help_commands("game") if help_ else (),
        )
        return Ruling(
            "refused", "refused", note, letters=[mail], limit=_limit(kind, state.turn, moves)
        )

    if state.status == "finished":
        return refuse("over", [over_line(state)], "the game is over")
    if not moves:
        if requests:
            return answer_requests(ctx, requests)
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
    watchers = desk.ledger.watchers(game.record.id)
    after = Replayed(game.record, [*game.turns, played.turn], [*game.states, played.after], b"")
    due = due_words(after, desk.ledger)
    return Ruling(
        "played",
        "done",
        f"turn {played.turn.turn}: {player.name} {format_move(played.move)}",
        played=played,
        letters=turn_letters(
            game.record,
            played.after,
            played.move,
            seat,
            answers,
            watchers=watchers,
            due=due,
            before=played.before,
        ),
    )


def _commanded(ctx: Context, found: Found | None) -> Ruling:
    """Carry out the command a mail holds, or say that it held none."""
    if found is None:
        return _no_command(ctx)
    try:
        return found.command.handle(ctx, found.argument)
    except (RequestError, MoveError) as err:
        reason = err.reason if isinstance(err, MoveError) else str(err)
        return _command_refused(ctx, found, reason)


def _no_command(ctx: Context) -> Ruling:
    """A mail to the referee (or an invitation reply) that holds no command: what would work."""
    where: dict[Scope, str] = {
        "referee": "The referee read your mail but found no command in it, so nothing was "
        "done. Write one of these as the first line of a mail to the referee:",
        "invitation": "Your reply held no answer to the invitation, so nothing was done. "
        "Reply with 'accept' (or 'accept as NAME') to play, or 'decline':",
        "game": "",
    }
    paragraphs = [where[ctx.scope]]
    if ctx.scope == "referee" and any(says_a_move(line) for line in ctx.lines):
        paragraphs.insert(
            0,
            "Your mail looks like a move, but it was not written as a reply in a game: to "
            "move, reply to the referee's latest board mail of your game.",
        )
    mail = note_letter(
        "no-command",
        ctx.sender,
        ctx.inbound.sender_name or ctx.sender,
        "Splendor referee: no command found",
        paragraphs,
        answers=ctx.inbound.message_id,
        commands=help_commands(ctx.scope),
        game=ctx.invitation.game if ctx.invitation else "",
        seat=ctx.seat if ctx.invitation else None,
    )
    return Ruling(
        "refused",
        "refused",
        "no command in the mail",
        letters=[mail],
        limit=f"no-command:{ctx.scope}",
    )


def _command_refused(ctx: Context, found: Found, reason: str) -> Ruling:
    """A command that could not be carried out: why, and how it is written."""
    command = found.command
    paragraphs = [f"Your command '{command.word}' was not carried out, so nothing changed."]
    usage = [(command.usage, command.summary)]
    if ctx.game is not None and ctx.seat is not None:
        state = ctx.game.state
        paragraphs.append(status_line(state, ctx.name))
        mail = player_letter(
            f"refused-{command.word}",
            view(state, ctx.name),
            ctx.record,
            ctx.seat,
            paragraphs,
            quoted=[found.line[:200]],
            reason=reason,
            commands=usage,
            answers=ctx.inbound.message_id,
        )
    else:
        mail = note_letter(
            f"refused-{command.word}",
            ctx.sender,
            ctx.inbound.sender_name or ctx.sender,
            f"Splendor referee: '{command.word}' not carried out",
            paragraphs,
            quoted=[found.line[:200]],
            reason=reason,
            commands=usage,
            answers=ctx.inbound.message_id,
            game=ctx.invitation.game if ctx.invitation else "",
            seat=ctx.seat if ctx.invitation else None,
        )
    turn = ctx.game.state.turn if ctx.game is not None else 0
    return Ruling(
        "refused",
        "refused",
        f"{command.word}: {reason}",
        letters=[mail],
        limit=_limit(f"command-{command.word}", turn, [found.line]),
    )


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
    if inbound.automatic or not inbound.sender or inbound.spoofed:
        why = inbound.automatic or inbound.spoofed or "no sender"
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
