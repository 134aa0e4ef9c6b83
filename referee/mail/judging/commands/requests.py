"""``help``, ``rules``, ``board`` and ``moves``: answers that change nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from referee.engine import legal_moves, move_json, view
from referee.mail.judging.commands import (
    command,
    commands,
    read_command,
    read_command_in_sentences,
)
from referee.mail.judging.ruling import Context, Ruling, Scope
from referee.mail.judging.telling import status, to_player, to_someone
from referee.mail.reading.reply import read_reply
from referee.wording.letter import Board, Letter
from referee.wording.messages import Message, say

#: The paragraphs of ``rules``: a summary of docs/rules.md (catalogue: rules.summary.N).
RULES_SUMMARY = ("rules.summary.1", "rules.summary.2", "rules.summary.3", "rules.summary.4")


def help_commands(scope: Scope) -> list[tuple[Message, Message]]:
    """What ``help`` lists for ``scope``: how each command is written, and what it does."""
    return [c.described() for c in commands(scope)]


def to_sender(ctx: Context, kind: str, subject: Message, says: Sequence[Message]) -> Letter:
    """A letter answering the mail of ``ctx``, to its sender; when they wrote to an
    invitation, with its reply address."""
    letter = to_someone(ctx.sender, ctx.inbound.sender_name or ctx.sender, kind, subject, says)
    letter = replace(letter, answers=ctx.inbound.message_id)
    if ctx.scope == "invitation" and ctx.invitation is not None:
        return replace(letter, game=ctx.invitation.game, seat=ctx.seat)
    return letter


@command(
    "help",
    example="help",
    scopes=("referee", "game", "invitation"),
    order=90,
)
def help_(ctx: Context, argument: str) -> Ruling:
    if ctx.scope == "game":
        return answer_requests(ctx, _requests(ctx))
    says = [say(f"help.{ctx.scope}")]
    if ctx.scope == "referee":
        says.append(say("help.in_game", commands=[c.usage for c in commands("game")]))
    letter = to_sender(ctx, "help", say("subject.help"), says)
    # to the referee's own address, how moves are written too: a newcomer learns it before
    # a game has started
    letter = replace(
        letter, commands=tuple(help_commands(ctx.scope)), help=ctx.scope == "referee"
    )
    return Ruling("answered", "done", "answered help", letters=[letter])


@command(
    "rules",
    example="rules",
    scopes=("referee", "game", "invitation"),
    order=91,
)
def rules(ctx: Context, argument: str) -> Ruling:
    says = [say(code) for code in RULES_SUMMARY]
    if ctx.game is not None:
        says.insert(0, say("rules.game", game=ctx.record.id, points=ctx.record.rules.points_to_win))
    letter = replace(
        to_someone(ctx.sender, ctx.inbound.sender_name or ctx.sender, "rules",
                   say("subject.rules"), says),
        answers=ctx.inbound.message_id,
    )  # fmt: skip
    return Ruling("answered", "done", "answered rules", letters=[letter])


@command("board", example="board", scopes=("game",), order=10)
def board(ctx: Context, argument: str) -> Ruling:
    return answer_requests(ctx, _requests(ctx))


@command("moves", example="moves", scopes=("game",), order=11)
def moves(ctx: Context, argument: str) -> Ruling:
    return answer_requests(ctx, _requests(ctx))


def _requests(ctx: Context) -> list[str]:
    """Every one-word request of the reply (``board`` and ``moves`` together are one
    answer)."""
    reading = read_reply("\n".join(ctx.lines))
    written = "\n".join(ctx.lines)
    found = read_command("game", written) or read_command_in_sentences("game", written)
    words = list(reading.requests)
    if found is not None and found.command.word not in words:
        words.insert(0, found.command.word)
    return words


def answer_requests(ctx: Context, requests: Sequence[str]) -> Ruling:
    """The board, every move, or help (or several), to a player of the game."""
    assert ctx.game is not None and ctx.seat is not None
    state = ctx.game.state
    name = ctx.name
    yours = state.status != "finished" and state.player.name == name
    says = [say("requests.answer"), status(state, name)]
    wants_moves = "moves" in requests
    shown: tuple[dict[str, object], ...] = ()
    title = None
    if wants_moves:
        if yours:
            shown = tuple(move_json(m) for m in legal_moves(state))
            title = say("requests.every_move", count=len(shown))
        else:
            says.append(say("requests.not_your_turn"))
    wants_help = "help" in requests
    kind = "+".join(dict.fromkeys(requests))
    letter = to_player(ctx.record, ctx.seat, kind, says, Board(view(state, name), ctx.due))
    letter = replace(
        letter,
        options=shown,
        options_title=title,
        help=wants_help,
        answers=ctx.inbound.message_id,
        all_options=wants_moves,
        commands=tuple(help_commands("game")) if wants_help else (),
    )
    return Ruling("answered", "done", f"answered {', '.join(requests)}", letters=[letter])
