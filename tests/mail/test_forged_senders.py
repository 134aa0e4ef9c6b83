"""Forged senders: a command written to the referee's own address carries no reply key, so one
that changes someone's standing (away, back, language, timezone, mail, watch, unwatch, a game
proposed) takes effect only once the address confirms it by replying to a confirmation, or
when the receiving server the settings trust says DMARC (or DKIM aligned with From) passed
(docs/mail.md, "Who may move")."""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.invitations import Invitations
from referee.mail.reading.authentication import vouched_for
from referee.mail.state.ledger import Ledger
from tests.mail.club import RECEIVING_SERVER, REFEREE, Club, address, start
from tests.mail.players import deliver, reply_message


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return Club(tmp_path)


def ledger(club: Club) -> Ledger:
    return Ledger(club.games / ".mail")


def forged(club: Club, name: str, text: str, display: str = "") -> EmailMessage:
    """A mail from ``name``'s address to the referee that no server vouches for (anyone may
    have written it), handled; the confirmation ``name`` got."""
    before = club.count(name)
    club.write(name, text, display=display, vouched=False)
    club.serve()
    assert club.count(name) == before + 1
    asked = club.latest(name)
    assert "please confirm" in str(asked["Subject"])
    return asked


def confirm(club: Club, name: str, confirmation: EmailMessage, **options: object) -> None:
    """``name`` replies to ``confirmation`` as a mail program's Reply does (the reply says
    nothing in particular), and the referee handles it."""
    club.reply(name, "yes that was me", to=confirmation, **options)
    club.serve()


def token_of(confirmation: EmailMessage) -> str:
    found = re.search(r"\+confirm\.([a-z2-7]{16})@", str(confirmation["Reply-To"]))
    assert found, confirmation["Reply-To"]
    return found.group(1)


# -- a command that changes standing waits for its address ------------------------------------


def test_away_written_to_the_referee_waits_until_the_address_confirms_it(club: Club) -> None:
    start(club, "new splendor with bob@example.org")
    bob_before = club.count("bob")
    asked = forged(club, "ann", "away 5d")
    assert ledger(club).away_until(address("ann"), club.now + timedelta(days=1)) is None
    assert club.count("bob") == bob_before  # nobody told of an away not confirmed
    words = club.words("ann")
    assert "away 5d" in words and "reply to this mail" in words
    assert "lapses in 7 days" in words
    assert "takes effect at once" in words  # the way without a confirmation
    confirm(club, "ann", asked)
    assert ledger(club).away_until(address("ann"), club.now + timedelta(days=1)) is not None
    assert "away until" in club.words("ann")
    assert club.count("bob") == bob_before + 1  # told now


def test_a_game_proposed_in_someones_name_invites_nobody_until_they_confirm(club: Club) -> None:
    asked = forged(club, "ann", "new splendor with bob@example.org", display="Ann Lee")
    assert Invitations(club.games).ids() == []
    assert club.count("bob") == 0
    confirm(club, "ann", asked)
    (game,) = Invitations(club.games).ids()
    assert "invites you" in str(club.latest("bob")["Subject"])
    assert game in str(club.latest("bob")["Subject"])
    assert "Ann Lee" in club.words("bob")  # the name her own mail gave, not her reply's


@pytest.mark.parametrize(
    ("command", "took_effect"),
    [
        ("language cy", lambda c: Ledger(c.games / ".mail").choices(address("ann"))[0] == "cy"),
        (
            "timezone Asia/Dhaka",
            lambda c: Ledger(c.games / ".mail").choices(address("ann"))[1] == "Asia/Dhaka",
        ),
        (
            "mail digest",
            lambda c: Ledger(c.games / ".mail").mail_choice(address("ann")) == "digest",
        ),
    ],
)
def test_each_choice_written_to_the_referee_waits_for_its_confirmation(
    club: Club, command: str, took_effect: object
) -> None:
    asked = forged(club, "ann", command)
    assert callable(took_effect)
    assert not took_effect(club)
    confirm(club, "ann", asked)
    assert took_effect(club)


def test_watch_and_back_wait_for_their_confirmation_too(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org spectators")
    asked = forged(club, "dan", f"watch {game}")
    assert ledger(club).watchers(game) == []
    confirm(club, "dan", asked)
    assert ledger(club).watchers(game) == [address("dan")]
    club.write("ann", "away 5d")  # vouched for: at once
    club.serve()
    back = forged(club, "ann", "back")
    assert ledger(club).away_until(address("ann"), club.now) is not None
    confirm(club, "ann", back)
    assert ledger(club).away_until(address("ann"), club.now) is None


def test_commands_that_only_answer_are_answered_at_once(club: Club) -> None:
    for command, subject in [("help", "commands"), ("rules", "the rules"), ("games", "games")]:
        club.write("ann", command, vouched=False)
        club.serve()
        assert subject in str(club.latest("ann")["Subject"]).lower()
        assert "please confirm" not in str(club.latest("ann")["Subject"])


def test_the_same_command_in_a_game_takes_effect_at_once(club: Club) -> None:
    start(club, "new splendor with bob@example.org")
    club.reply("ann", "away 5d")  # a reply to her board: her key proves it is her
    club.serve()
    assert ledger(club).away_until(address("ann"), club.now + timedelta(days=1)) is not None
    assert "please confirm" not in str(club.latest("ann")["Subject"])


# -- who may confirm, and how ------------------------------------------------------------------


def test_a_confirmation_answered_from_another_address_changes_nothing(club: Club) -> None:
    start(club, "new splendor with bob@example.org")
    asked = forged(club, "ann", "away 5d")
    club.reply("bob", "confirm", to=asked)  # bob got hold of her mail somehow
    club.serve()
    assert ledger(club).away_until(address("ann"), club.now + timedelta(days=1)) is None
    assert "not read as a move" in str(club.latest("bob")["Subject"])


def test_a_guessed_confirmation_confirms_nothing(club: Club) -> None:
    forged(club, "ann", "away 5d")
    guess = EmailMessage()
    guess["From"] = address("ann")
    guess["To"] = "referee+confirm.aaaaaaaaaaaaaaaa@example.net"
    guess["Subject"] = "Re: confirm"
    guess["Message-ID"] = "<guess.1@example.org>"
    guess.set_content("yes")
    deliver(club.mail, "guess.eml", bytes(guess))
    club.serve()
    assert ledger(club).away_until(address("ann"), club.now + timedelta(days=1)) is None
    assert "nothing to confirm" in str(club.latest("ann")["Subject"])


def test_a_reply_that_keeps_only_in_reply_to_confirms(club: Club) -> None:
    """A mail program that answers the From address and drops the plus address."""
    asked = forged(club, "ann", "language eo")
    reply = reply_message(asked, address("ann"), "ok", message_id="<irt.1@example.org>", to=REFEREE)
    deliver(club.mail, "irt.eml", bytes(reply))
    club.serve()
    assert ledger(club).choices(address("ann"))[0] == "eo"


def test_a_reply_that_keeps_only_the_reply_address_confirms(club: Club) -> None:
    asked = forged(club, "ann", "language is")
    reply = reply_message(asked, address("ann"), "ok", message_id="<only-to.1@example.org>")
    del reply["In-Reply-To"], reply["References"]
    deliver(club.mail, "only-to.eml", bytes(reply))
    club.serve()
    assert ledger(club).choices(address("ann"))[0] == "is"


def test_a_confirmation_lapses_after_a_week(club: Club) -> None:
    asked = forged(club, "ann", "mail my-turn")
    club.serve(after=timedelta(days=8))
    confirm(club, "ann", asked)
    assert ledger(club).mail_choice(address("ann")) == "every-turn"
    assert "nothing to confirm" in str(club.latest("ann")["Subject"])


def test_a_second_reply_to_a_confirmation_changes_nothing_more(club: Club) -> None:
    asked = forged(club, "ann", "new splendor with bob@example.org")
    confirm(club, "ann", asked)
    confirm(club, "ann", asked)
    assert len(Invitations(club.games).ids()) == 1
    assert "nothing to confirm" in str(club.latest("ann")["Subject"])
    assert list((club.games / ".mail" / "confirm").iterdir()) == []


def test_the_same_forged_command_over_and_over_asks_once_a_day(club: Club) -> None:
    forged(club, "ann", "away 5d")
    for _ in range(3):
        club.write("ann", "away 5d", vouched=False)
        club.serve()
    assert club.count("ann") == 1
    club.serve(after=timedelta(days=1))
    club.write("ann", "away 5d", vouched=False)
    club.serve()
    assert club.count("ann") == 2


def test_lapsed_confirmations_are_cleared_away(club: Club) -> None:
    for n in range(3):
        forged(club, "ann", f"away {n + 2}d")
    folder = club.games / ".mail" / "confirm"
    assert len(list(folder.iterdir())) == 3
    club.serve(after=timedelta(days=8))
    forged(club, "bob", "away 2d")
    assert len(list(folder.iterdir())) == 1


def test_the_confirmation_carries_its_token_in_reply_to_and_message_id(club: Club) -> None:
    asked = forged(club, "ann", "away 5d")
    token = token_of(asked)
    assert str(asked["Message-ID"]).startswith(f"<confirm.{token}.")
    assert ledger(club).pending(token) is not None


# -- a server the settings trust vouches for the sender ----------------------------------------


def test_dmarc_pass_from_the_trusted_server_needs_no_confirmation(club: Club) -> None:
    club.write("ann", "away 5d")  # the receiving server says DMARC passed
    club.serve()
    assert ledger(club).away_until(address("ann"), club.now + timedelta(days=1)) is not None
    assert "please confirm" not in str(club.latest("ann")["Subject"])


@pytest.mark.parametrize(
    "results",
    [
        # written by someone else's server, or by the sender pretending to be ours
        ["mx.elsewhere.example; dmarc=pass header.from=example.org"],
        # ours, but for another domain than the From's
        [f"{RECEIVING_SERVER}; dmarc=pass header.from=other.example"],
        [f"{RECEIVING_SERVER}; dkim=pass header.d=other.example"],
        # ours on top found nothing; a forged one of our name further down says pass
        [
            f"{RECEIVING_SERVER}; spf=none smtp.mailfrom=example.org; dkim=none",
            f"{RECEIVING_SERVER}; dmarc=pass header.from=example.org",
        ],
        ["this is not an Authentication-Results header;;;"],
    ],
)
def test_results_that_do_not_vouch_for_the_sender_still_need_a_confirmation(
    club: Club, results: list[str]
) -> None:
    head = [f"Authentication-Results: {r}" for r in results]
    head += [
        f"From: {address('ann')}",
        f"To: {REFEREE}",
        "Subject: hi",
        "Message-ID: <results.1@example.org>",
    ]
    deliver(club.mail, "results.eml", "\r\n".join([*head, "", "away 5d", ""]).encode())
    club.serve()
    assert "please confirm" in str(club.latest("ann")["Subject"])
    assert ledger(club).away_until(address("ann"), club.now + timedelta(days=1)) is None


def test_without_a_trusted_server_every_such_command_is_confirmed(tmp_path: Path) -> None:
    club = Club(tmp_path)
    club.settings = club.settings.model_copy(update={"trusted_authserv_id": None})
    club.write("ann", "away 5d")  # DMARC passed, but no server is trusted
    club.serve()
    assert "please confirm" in str(club.latest("ann")["Subject"])


@pytest.mark.parametrize(
    ("results", "sender", "vouched"),
    [
        (["mx.a; dmarc=pass header.from=example.org"], "x@example.org", "DMARC pass"),
        (["MX.A ; dmarc=pass header.from=EXAMPLE.org"], "x@example.org", "DMARC pass"),
        (["mx.a; dkim=pass header.d=mail.example.org"], "x@example.org", "DKIM pass"),
        (["mx.a; dkim=pass header.d=example.org"], "x@lists.example.org", "DKIM pass"),
        (["mx.a; dkim=pass header.i=@example.org"], "x@example.org", "DKIM pass"),
        (["mx.a; dkim=pass header.d=org"], "x@example.org", None),
        (["mx.a; dkim=fail header.d=example.org"], "x@example.org", None),
        (["mx.a; dmarc=fail header.from=example.org"], "x@example.org", None),
        (["mx.b; dmarc=pass header.from=example.org"], "x@example.org", None),
        ([], "x@example.org", None),
        (["mx.a; dmarc=pass header.from=example.org"], "", None),
    ],
)
def test_which_authentication_results_vouch_for_a_sender(
    results: list[str], sender: str, vouched: str | None
) -> None:
    said = vouched_for(results, sender, "mx.a")
    assert (said or "").startswith(vouched or "") and (said is None) == (vouched is None)
