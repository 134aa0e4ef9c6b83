"""The language of a letter (docs/languages.md, "The language of a letter"): its reader's
chosen language; else the language of the game a mail it answers was written in; else the
language of that mail's words; else the service's. Each through the dir transport."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.mail.club import Club, start
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
