"""The registry of commands by mail: one unit per command, help generated from it, and how
a command is found in what a person wrote."""

from __future__ import annotations

from referee.mail.judging.commands import commands, lookup, read_command, read_command_in_sentences
from referee.mail.judging.commands.requests import help_commands

EVERY_COMMAND = {
    "referee": {
        "new", "games", "help", "rules", "watch", "unwatch", "away", "back", "language",
        "timezone", "standings", "mail",
    },
    "game": {
        "board", "moves", "help", "rules", "games", "history", "say", "resign", "undo",
        "accept", "decline", "away", "back", "language", "timezone", "standings", "rematch",
        "mail", "yes",
    },
    "invitation": {"accept", "decline", "help", "rules", "language", "timezone"},
}  # fmt: skip


def test_every_command_of_the_interface_is_registered_where_it_may_be_written() -> None:
    for scope, words in EVERY_COMMAND.items():
        assert {c.word for c in commands(scope)} == words  # type: ignore[arg-type]


def test_help_lists_each_commands_usage_and_summary_from_the_registry() -> None:
    for command in commands("game"):
        assert (command.usage, command.summary) in help_commands("game")
        assert command.example.split()[0] == command.word


def test_a_command_is_the_first_line_a_person_wrote_greetings_passed_over() -> None:
    found = read_command("referee", "Hi there,\n\naway 5d\n\nThanks!\nAnn")
    assert found is not None and found.command.word == "away" and found.argument == "5d"


def test_a_word_command_with_more_words_after_it_is_not_the_command() -> None:
    assert read_command("referee", "Games night was fun!") is None
    assert read_command("referee", "Games.") is not None


def test_a_move_written_before_a_command_makes_the_reply_a_move() -> None:
    assert read_command("game", "take red green blue\nhistory") is None
    found = read_command("game", "history 3\ntake red green blue")
    assert found is not None and found.argument == "3"


def test_a_word_alone_signed_under_a_move_the_sentences_read_is_no_command() -> None:
    assert read_command("game", "2 gwyrdd plis\n\nnei") is None  # (a name; Icelandic "no")
    assert read_command("game", "dwi am reserfio 1-09 de\n\nnei") is None
    found = read_command("game", "Hi Bo,\n\nnei")  # (no move before it: the answer)
    assert found is not None and found.command.word == "decline"
    undone = read_command("game", "I took two greens, sorry, wrong ones\n\nundo")
    assert undone is not None and undone.command.word == "undo"  # (no answer: a command)


def test_an_away_taken_back_is_no_away() -> None:
    assert (
        read_command_in_sentences("game", "Never mind the away till Friday, the trip is off.")
        is None
    )


def test_say_takes_the_rest_of_what_was_written_but_not_the_footer() -> None:
    found = read_command("game", "say Hello all\nsee you soon\n\nSent from my iPhone")
    assert found is not None and found.argument == "Hello all\nsee you soon"


def test_the_same_word_means_different_commands_in_different_places() -> None:
    game, invitation = lookup("game", "accept"), lookup("invitation", "accept")
    assert game is not None and invitation is not None and game is not invitation
    assert lookup("referee", "accept") is None
