"""Every kind of letter, written for a sample game: to check a game master's templates
(``templates_dir``) before the service uses them, and to look at the mails.

:func:`check_templates` renders each of them and, at the first that fails, raises a
ConfigurationError naming the template, its line and what went wrong.
"""

from __future__ import annotations

import traceback
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from jinja2 import TemplateError, TemplateSyntaxError

from referee.engine import Rules, legal_moves, make_setup, view
from referee.errors import ConfigurationError
from referee.games import Played, judge_move
from referee.invitations import Invitation, Seat
from referee.mail.judging.commands.inviting import cancelled_letters
from referee.mail.judging.commands.proposing import invitation_letters
from referee.mail.judging.commands.requests import help_commands
from referee.mail.judging.facts import GameFacts
from referee.mail.judging.notices import (
    not_a_move,
    not_handled,
    set_aside_for_game_master,
    too_large,
)
from referee.mail.judging.telling import (
    address_letter,
    legal_moves_of,
    overdue_letter,
    reminder_letter,
    to_player,
    to_someone,
    turn_letters,
    watcher_letters,
    welcome_letters,
)
from referee.mail.reading.inbound import Inbound
from referee.notation import format_move
from referee.record import Replayed, SourceEntry, dump, new_game_record, replay
from referee.wording.letter import Board, Letter
from referee.wording.messages import say
from referee.wording.writer import Writer

SAMPLE_TIME = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)


def sample_game(turns: int = 6) -> Replayed:
    """A 3-player game of a few turns (a blind reservation among them), in memory."""
    players = [("alice", "alice@example.org"), ("bob", "bob@example.org"), ("carol", "c@x.org")]
    rules = Rules()
    record = new_game_record("sample", players, make_setup(3, 2027, rules), 2027, SAMPLE_TIME)
    game = replay(record, dump(record), [])
    source = SourceEntry(kind="command-line")
    for n in range(turns):
        state = game.state
        moves = legal_moves(state)
        wanted = "reserve deck 3" if n == 1 else format_move(moves[n % len(moves)])
        played = judge_move(game, state.player.name, wanted, source, at=SAMPLE_TIME)
        game = game.then(played.turn, played.after)
    return game


def sample_letters() -> list[Letter]:
    """One letter of every kind the referee writes, for the sample game."""
    game = sample_game()
    record, state = game.record, game.state
    due = datetime(2027, 1, 11, 9, 0, tzinfo=UTC)
    letters = welcome_letters(replay(record, dump(record), []))
    before = Replayed(record, game.turns[:-1], game.states[:-1], b"")
    played = Played(game.states[-2], game.moves()[-1], state, game.turns[-1])
    watched = GameFacts(before, watchers=("zed@example.org",))
    letters += turn_letters(before, played, watched, "<m@x>", say("timeout.forfeit", player="bob"))
    letters += watcher_letters(record.id, state, ["zed@example.org"], due)
    name = state.player.name
    shown = Board(view(state, name), due.isoformat())
    refused = to_player(record, state.to_move, "refused-illegal", [say("judge.illegal")], shown)
    letters.append(
        replace(
            refused,
            quoted=("buy 1-99",),
            reason=say("card.unknown", card="1-99"),
            options=legal_moves_of(state),
            help=True,
            commands=tuple(help_commands("game")),
            listing=(
                say(
                    "history.line",
                    turn=1,
                    at=SAMPLE_TIME.isoformat(),
                    told=say("told.take", player="alice", gems=[0, 1, 1, 1, 0, 0]),
                ),
            ),
            listing_title=say("history.last", count=1, game=record.id),
        )
    )
    letters.append(address_letter(game, 0, "old@example.org"))
    told = [say("say.told", player="bob", game=record.id)]
    said = to_player(record, state.to_move, "said", told, shown)
    letters.append(replace(said, quoted=("gl hf!",), quoted_from="bob"))
    helped = to_someone(
        "zed@example.org", "Zed", "help", say("subject.help"), [say("help.referee")]
    )
    letters.append(
        replace(
            helped,
            commands=tuple(help_commands("referee")),
            help=True,
            listing=(
                say("games.running.yours", game="g1", status=say("games.playing"), turn=3),
            ),
            listing_title=say("games.listing", count=1),
            quoted=("hello",),
            reason=say("away.needs_time"),
        )
    )
    line = say("reminder.line", game="g1", turn=4, due=due.isoformat())
    letters.append(reminder_letter("bob@example.org", "bob", [line], False, None))
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
    letters += cancelled_letters(invitation, say("cancel.declined", address="bob@example.org"))
    mail = Inbound(sender="bob@example.org", subject="Re: g1", message_id="<b@x>")
    letters += [not_a_move(mail, "unauthorised"), too_large(mail, 2_000_000, 1_000_000)]
    letters += [
        not_handled(mail, True),
        set_aside_for_game_master("gm@x", mail, "ab12", "why", "g1"),
    ]
    return letters


def check_templates(templates_dir: Path | None) -> int:
    """Word every kind of letter and the terminal board with ``templates_dir``'s templates
    (falling back to the shipped ones); how many were worded. ConfigurationError naming the
    template and line of the first that fails."""
    return _checked(templates_dir)[1]


def checked_writer(templates_dir: Path | None) -> Writer:
    """A writer with ``templates_dir``'s templates, once they have worded every kind of
    letter (see :func:`check_templates`)."""
    return _checked(templates_dir)[0]


def _checked(templates_dir: Path | None) -> tuple[Writer, int]:
    writer = Writer.with_templates(templates_dir)
    try:
        letters = [writer.write(letter) for letter in sample_letters()]
        writer.board_text(view(sample_game().state), "sample")
    except TemplateError as err:
        raise ConfigurationError(
            f"the templates in {templates_dir} cannot be used: {_where(err)}: {err.message}; "
            "mend it, or remove it from the folder to use the shipped one"
        ) from None
    return writer, len(letters) + 1


def _where(err: TemplateError) -> str:
    """The template and line an error of rendering points at."""
    if isinstance(err, TemplateSyntaxError) and err.lineno:
        return f"{err.name or err.filename or 'a template'}, line {err.lineno}"
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        if frame.filename.endswith(".j2"):
            return f"{Path(frame.filename).name}, line {frame.lineno}"
    return "a template"
