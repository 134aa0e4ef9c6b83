"""``help``, ``rules``, ``board`` and ``moves``: answers that change nothing."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine import legal_moves, view
from referee.mail.commands import Scope, command, commands, read_command
from referee.mail.commands.context import Context, Ruling
from referee.mail.letters import note_letter, player_letter, status_line
from referee.mail.reading import read_reply
from referee.notation import format_move

#: A summary of the rules, as ``rules`` sends it (../shared/RULES.md in short).
RULES_SUMMARY = [
    "Splendor for 2 to 4 players. On your turn do one thing: take 3 gem tokens of different "
    "colours; or take 2 of one colour when 4 or more of it are in the bank; or reserve a "
    "card (face up, or the top of a deck unseen) and take a gold token (a joker) if any is "
    "left, holding at most 3 reserved; or buy a face-up or reserved card, paying its cost "
    "less your bonuses, gold standing in for any colour. Pass only when nothing else is "
    "possible.",
    "Every card you buy is a permanent bonus of its colour, and some give prestige points. "
    "You may hold at most 10 tokens: return the extra at the end of your move. A noble visits "
    "at the end of your turn when your bonuses meet its needs (3 points; one a turn, your "
    "choice when several could).",
    "When someone reaches 15 points (or the game's target) the round is finished so that "
    "everyone has had as many turns, and the game ends: most points wins, ties go to the "
    "fewest cards bought, and a tie after that is shared. If every player passes in a row, "
    "the game ends too.",
    "Leaving: a player may resign at any time (their tokens go back to the bank, their "
    "reserved cards leave the game unseen, they cannot win); turns pass over them, and the "
    "last player left wins. A player whose move's deadline passes may be resigned, when the "
    "game was made so.",
]


def help_commands(scope: Scope) -> list[tuple[str, str]]:
    """What ``help`` lists for ``scope``: each command's usage and line of help."""
    return [(c.usage, c.summary) for c in commands(scope)]


@command(
    "help",
    usage="help",
    summary="this list of commands (in a game: how to move, too)",
    example="help",
    scopes=("referee", "game", "invitation"),
    order=90,
)
def help_(ctx: Context, argument: str) -> Ruling:
    if ctx.scope == "game":
        return answer_requests(ctx, _requests(ctx))
    where = {
        "referee": "Write these to the referee's own address, one at the top of a mail:",
        "invitation": "Reply to your invitation with one of these:",
    }[ctx.scope]
    paragraphs = [where]
    if ctx.scope == "referee":
        paragraphs.append(
            "In a game, reply to the referee's latest mail with a move or one of: "
            + ", ".join(c.usage for c in commands("game"))
            + "."
        )
    mail = note_letter(
        "help",
        ctx.sender,
        ctx.inbound.sender_name or ctx.sender,
        "Splendor referee: commands",
        paragraphs,
        answers=ctx.inbound.message_id,
        commands=help_commands(ctx.scope),
        game=ctx.invitation.game if ctx.invitation else "",
        seat=ctx.seat if ctx.invitation else None,
    )
    return Ruling("answered", "done", "answered help", letters=[mail])


@command(
    "rules",
    usage="rules",
    summary="a summary of the rules of Splendor",
    example="rules",
    scopes=("referee", "game", "invitation"),
    order=91,
)
def rules(ctx: Context, argument: str) -> Ruling:
    paragraphs = list(RULES_SUMMARY)
    if ctx.game is not None:
        r = ctx.record.rules
        paragraphs.insert(0, f"In game {ctx.record.id}: {r.points_to_win} points to win.")
    mail = note_letter(
        "rules",
        ctx.sender,
        ctx.inbound.sender_name or ctx.sender,
        "Splendor referee: the rules",
        paragraphs,
        answers=ctx.inbound.message_id,
    )
    return Ruling("answered", "done", "answered rules", letters=[mail])


@command(
    "board",
    usage="board",
    summary="the board and your hand again",
    example="board",
    scopes=("game",),
    order=10,
)
def board(ctx: Context, argument: str) -> Ruling:
    return answer_requests(ctx, _requests(ctx))


@command(
    "moves",
    usage="moves",
    summary="every move you may make now",
    example="moves",
    scopes=("game",),
    order=11,
)
def moves(ctx: Context, argument: str) -> Ruling:
    return answer_requests(ctx, _requests(ctx))


def _requests(ctx: Context) -> list[str]:
    """Every one-word request of the reply (``board`` and ``moves`` together are one
    answer)."""
    reading = read_reply("\n".join(ctx.lines))
    found = read_command("game", "\n".join(ctx.lines))
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
    wants_help = "help" in requests
    mail = player_letter(
        "+".join(dict.fromkeys(requests)),
        view(state, name),
        ctx.record,
        ctx.seat,
        paragraphs,
        options=shown,
        options_title=title,
        help_=wants_help,
        answers=ctx.inbound.message_id,
        all_options=wants_moves,
        commands=help_commands("game") if wants_help else (),
        due=ctx.due,
    )
    return Ruling("answered", "done", f"answered {', '.join(requests)}", letters=[mail])
