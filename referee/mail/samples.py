"""Every kind of letter, written for a sample game: to check a game master's templates
(``templates_dir``) before the service uses them, and to look at the mails.

:func:`check_templates` renders each of them and, at the first that fails, raises a
ConfigurationError naming the template, its line and what went wrong.
"""

from __future__ import annotations

import traceback
from datetime import UTC, datetime
from pathlib import Path

from jinja2 import TemplateError, TemplateSyntaxError

from referee.engine import Rules, legal_moves, make_setup, view
from referee.errors import ConfigurationError
from referee.games import judge
from referee.invitations import Invitation, Seat
from referee.mail.commands.inviting import cancelled_letters
from referee.mail.commands.proposing import invitation_letters
from referee.mail.commands.requests import help_commands
from referee.mail.compose import Letter
from referee.mail.letters import (
    address_letter,
    note_letter,
    overdue_letter,
    player_letter,
    reminder_letter,
    turn_letters,
    watcher_letters,
    welcome_letters,
)
from referee.notation import format_move
from referee.record import Replayed, SourceEntry, dump, new_game_record, replay
from referee.render import board_text, use_templates

SAMPLE_TIME = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)


def sample_game(turns: int = 6) -> Replayed:
    """A 3-player game of a few turns (a blind reservation among them), in memory."""
    players = [("alice", "alice@example.org"), ("bob", "bob@example.org"), ("carol", "c@x.org")]
    rules = Rules()
    record = new_game_record(
        "sample", players, rules, make_setup(3, 2027, rules), 2027, SAMPLE_TIME
    )
    game = replay(record, dump(record), [])
    source = SourceEntry(kind="command-line")
    for n in range(turns):
        state = game.state
        moves = legal_moves(state)
        wanted = "reserve deck 3" if n == 1 else format_move(moves[n % len(moves)])
        played = judge(game, state.player.name, wanted, source, at=SAMPLE_TIME)
        game = Replayed(record, [*game.turns, played.turn], [*game.states, played.after], b"")
    return game


def sample_letters() -> list[Letter]:
    """One letter of every kind the referee writes, for the sample game."""
    game = sample_game()
    record, state = game.record, game.state
    last = game.moves()[-1]
    mover = state.seat_of(game.turns[-1].player)
    due = "Mon 11 Jan 2027, 09:00 UTC"
    letters = welcome_letters(replay(record, dump(record), []))
    before = game.states[-2]
    letters += turn_letters(
        record, state, last, mover, "<m@x>", ["zed@example.org"], due, before=before
    )
    letters += watcher_letters(record.id, state, None, "", ["zed@example.org"])
    name = state.player.name
    letters.append(
        player_letter(
            "refused-illegal",
            view(state, name),
            record,
            state.to_move,
            ["Your move is not allowed, so nothing was played."],
            quoted=["buy 1-99"],
            reason="there is no card 1-99",
            options=[format_move(m) for m in legal_moves(state)],
            help_=True,
            commands=help_commands("game"),
            listing=["turn 1 · alice took blue"],
            listing_title="History:",
            due=due,
        )
    )
    letters.append(address_letter(game, 0, "old@example.org"))
    letters.append(
        note_letter(
            "help",
            "zed@example.org",
            "Zed",
            "Splendor referee: commands",
            ["Write these to the referee:"],
            commands=help_commands("referee"),
            listing=["g1 · playing · turn 3"],
            listing_title="Your games:",
            quoted=["hello"],
            reason="why",
        )
    )
    letters.append(reminder_letter("bob@example.org", ["game g1, turn 4: due by …"], False))
    letters.append(overdue_letter("gm@example.org", "g1", "bob", 3, due))
    invitation = Invitation(
        game="msample",
        proposer="alice@example.org",
        at=SAMPLE_TIME,
        mail="<p@x>",
        seed=1,
        points_to_win=15,
        gold=5,
        deadline="3d",
        spectators=True,
        seats=(Seat("alice@example.org", True, True, "alice"), Seat("bob@example.org")),
    )
    letters += invitation_letters(invitation, "Alice")
    letters += cancelled_letters(invitation, "bob declined.")
    return letters


def check_templates(templates_dir: Path | None) -> int:
    """Render every kind of letter and the terminal board with ``templates_dir``'s templates
    (falling back to the shipped ones); how many were rendered. ConfigurationError naming
    the template and line of the first that fails."""
    use_templates(templates_dir)
    try:
        letters = sample_letters()
        game = sample_game()
        board_text(view(game.state), "sample")
    except TemplateError as err:
        raise ConfigurationError(
            f"the templates in {templates_dir} cannot be used: {_where(err)}: {err.message}; "
            "mend it, or remove it from the folder to use the shipped one"
        ) from None
    return len(letters) + 1


def _where(err: TemplateError) -> str:
    """The template and line an error of rendering points at."""
    if isinstance(err, TemplateSyntaxError) and err.lineno:
        return f"{err.name or err.filename or 'a template'}, line {err.lineno}"
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        if frame.filename.endswith(".j2"):
            return f"{Path(frame.filename).name}, line {frame.lineno}"
    return "a template"
