"""The language of a letter (docs/languages.md, "The language of a letter"): its reader's
chosen language; else the language of the game a mail it answers was written in; else the
language of that mail's words; else the service's. Each through the dir transport."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.wording.vocabulary import vocabulary
from tests.mail.club import Club, play_one, start, to_move
from tests.wording_checks import english_in, mail_text


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return Club(tmp_path)


def _in_welsh(mail: EmailMessage) -> None:
    """That ``mail`` is wholly Welsh: its Content-Language, its HTML's lang, and none of the
    referee's English in it."""
    assert mail["Content-Language"] == "cy", mail["Subject"]
    seen = mail_text(mail)
    assert english_in(seen, "cy") == [], seen
    html = mail.get_body(("html",))
    assert html is None or '<html lang="cy">' in str(html.get_content())


@pytest.mark.parametrize(
    "command",
    ["rules", "games", "standings", "away 3d", "timezone Europe/London", "mail my-turn", "help"],
)
def test_an_answer_written_in_a_welsh_game_is_welsh_in_its_thread(club: Club, command: str) -> None:
    game = start(club, "new splendor with bob@example.org language cy")
    club.reply("bob", command)
    club.serve()
    answer = club.latest("bob")
    _in_welsh(answer)
    assert f"+{game}." in str(answer["Reply-To"])  # (a reply to it is a reply in the game)
    assert str(answer["To"]).split("<")[0].strip() == "bob"  # (their name in the game)


def test_a_command_refused_in_a_welsh_game_is_welsh_and_named_in_welsh(club: Club) -> None:
    start(club, "new splendor with bob@example.org language cy")
    club.reply("bob", "decline")  # (no undo waits for an answer)
    club.serve()
    refused = club.latest("bob")
    _in_welsh(refused)
    assert "gorchymyn \u2018gwrthod\u2019" in mail_text(refused)  # (not 'decline': what
    # they wrote is quoted as they wrote it)


def test_a_mail_written_in_welsh_to_the_referee_is_answered_in_welsh(club: Club) -> None:
    club.write("dai", "Helo,\n\ngemau\n\nDiolch, Dai")
    club.serve()
    _in_welsh(club.latest("dai"))


def test_a_proposal_written_in_welsh_is_confirmed_in_welsh(club: Club) -> None:
    club.write("dai", "cychwyn splendor gyda bob@example.org iaith cy", vouched=False)
    club.serve()
    _in_welsh(club.latest("dai"))


def test_a_welsh_reply_in_a_game_of_the_services_language_keeps_the_games_language(
    club: Club,
) -> None:
    start(club, "new splendor with bob@example.org")
    club.reply("bob", "Helo! rheolau plis")  # (Welsh, in a game with no language of its own)
    club.serve()
    assert club.latest("bob")["Content-Language"] == "en"  # (as every letter of the game)


def test_a_mail_in_english_to_the_referee_is_answered_in_english(club: Club) -> None:
    club.write("dai", "Hi,\n\ngames\n\nThanks, Dai")
    club.serve()
    assert club.latest("dai")["Content-Language"] == "en"


def test_a_chosen_language_wins_over_the_language_a_mail_is_written_in(club: Club) -> None:
    club.write("dai", "language eo")
    club.serve()
    club.write("dai", "gemau")
    club.serve()
    assert club.latest("dai")["Content-Language"] == "eo"


# -- every kind of letter, in each language ----------------------------------------------------


def _written_in(language: str) -> Callable[[str], str]:
    """The word ``language`` writes for a command (``commands.X``) or an option
    (``options.X``), or for a move concept or colour."""
    return vocabulary(language).word


@pytest.mark.parametrize("language", ["cy", "is", "eo", "bn"])
def test_every_kind_of_letter_of_a_game_in_another_language_is_wholly_in_it(
    club: Club, language: str
) -> None:
    """A whole game's letters, in a game made in ``language`` by a proposal written in it:
    invitations, the proposer's confirmation, welcomes, boards, each command's answer in the
    game and at the referee's address, refusals, a reading asked back and played with
    "yes", an undo asked and declined, a watcher's letters, reminders and the notice of a
    late move, a resignation, the end, and a rematch's invitations. Every one of them says
    it is in ``language`` (Content-Language, ``<html lang>``) and carries none of the
    referee's English."""
    w = _written_in(language)
    command = lambda name: w(f"commands.{name}")  # noqa: E731
    option = lambda name: w(f"options.{name}")  # noqa: E731
    game = start(
        club,
        f"{command('new')} {option('splendor')} {option('with')} bob@example.org "
        f"{option('and')} cat@example.org {option('language')} {language} "
        f"{option('spectators')}",
    )
    # every command, as a reply in the game
    for said in (
        command("rules"),
        command("games"),
        command("standings"),
        command("board"),
        command("moves"),
        command("history"),
        command("help"),
        f"{command('mail')} {option('my_turn')}",
        f"{command('timezone')} Europe/London",
        f"{command('away')} 3d",
        command("back"),
        f"{command('say')} :-)",
        command("decline"),  # (nothing to decline: refused)
        command("yes"),  # (nothing asked: refused)
        command("rematch"),  # (not over: refused)
    ):
        club.reply("cat" if to_move(club, game) != "cat" else "bob", said)
        club.serve(timedelta(minutes=1))
    # moves: refused, no move at all, a reading asked back and played with yes, a move
    mover = to_move(club, game)
    club.reply(mover, f"{w('buy')} 1-99")
    club.serve(timedelta(minutes=1))
    club.reply(mover, ":-)")
    club.serve(timedelta(minutes=1))
    colours = " ".join(w(c) for c in ("white", "blue", "green"))
    club.reply(mover, f"{w('take')} {colours} zzyzx")
    club.serve(timedelta(minutes=1))
    club.reply(mover, command("yes"))
    club.serve(timedelta(minutes=1))
    # an undo asked by whoever took, and declined
    taker = mover
    club.reply(taker, command("undo"))
    club.serve(timedelta(minutes=1))
    other = next(n for n in ("ann", "bob", "cat") if n != taker)
    club.reply(other, command("decline"))
    club.serve(timedelta(minutes=1))
    # a stranger, at the referee's address: commands, and watching the game
    for said in (command("games"), command("standings"), command("rules"), command("help")):
        club.write("dai", said)
        club.serve(timedelta(minutes=1))
    club.write("dai", f"{command('watch')} {game}")
    club.serve(timedelta(minutes=1))
    play_one(club, game, take_only=True)
    # reminders, and the notice of a late move
    club.serve(timedelta(days=6, hours=12))
    club.serve(timedelta(days=1))
    # resignations, the end, a rematch
    club.reply(to_move(club, game), command("resign"))
    club.serve(timedelta(minutes=1))
    club.reply(to_move(club, game), command("resign"))
    club.serve(timedelta(minutes=1))
    assert club.store.load(game).state.status != "playing"
    club.reply("ann", command("rematch"))
    club.serve(timedelta(minutes=1))

    letters = [m for name in ("ann", "bob", "cat", "dai") for m in club.mails(name)]
    assert len(letters) > 50
    subjects: set[str] = set()
    for letter in letters:
        assert letter["Content-Language"] == language, (letter["To"], letter["Subject"])
        seen = mail_text(letter)
        assert english_in(seen, language) == [], seen
        html = letter.get_body(("html",))
        if html is not None:
            assert f'<html lang="{language}">' in str(html.get_content()), letter["Subject"]
        subjects.add(str(letter["Subject"]))
    assert len(subjects) >= 25, sorted(subjects)  # (so many kinds were written)


def test_a_one_word_command_above_an_english_phone_footer_is_answered_in_its_language(
    club: Club,
) -> None:
    club.write("dai", "gemau")  # (and "Sent from my iPhone" under it: the phone's, not Dai's)
    club.serve()
    _in_welsh(club.latest("dai"))
