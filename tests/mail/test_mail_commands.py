"""Commands by mail, each through the dir transport: starting a game by mail, and what
players, spectators and strangers may write (docs/interface.md, "Commands by mail")."""

from __future__ import annotations

import json
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.engine import legal_moves
from referee.games import play_move
from referee.invitations import Invitations
from referee.mail.herald import MailHerald
from referee.mail.judging.commands import commands
from referee.notation import format_move
from referee.record import SourceEntry
from referee.wording import ENGLISH
from tests.mail.club import GAME_MASTER, Club, address, play_one, propose, start, to_move
from tests.mail.players import mails_to, text_of


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return Club(tmp_path)


# -- starting a game by mail -----------------------------------------------------------------


def test_new_sends_each_invited_address_an_invitation_with_its_own_reply_to(club: Club) -> None:
    game = propose(club, "Hi!\n\nnew splendor with bob@example.org, cat@example.org deadline 3d")
    bob, cat = club.latest("bob"), club.latest("cat")
    assert bob["Reply-To"] != cat["Reply-To"]
    assert f"+{game}." in str(bob["Reply-To"])
    text = club.text("bob")
    assert "Ann Lee (ann@example.org) invites you" in text
    assert "cat@example.org" in text and "3 days" in text and "15 points" in text
    assert "called off" in text  # the deadline to answer
    assert "your game is proposed" in str(club.latest("ann")["Subject"])


def test_game_starts_when_all_accept_and_everyone_gets_the_first_board(club: Club) -> None:
    game = start(club)
    replayed = club.store.load(game)
    assert sorted(p.email for p in replayed.record.players) == [
        address("ann"),
        address("bob"),
        address("cat"),
    ]
    for name in ("ann", "bob", "cat"):
        assert f"Splendor {game} · turn 0" in str(club.latest(name)["Subject"])
    assert Invitations(club.games).get(game).status == "started"  # type: ignore[union-attr]


def test_accept_as_name_gives_the_name_the_others_see(club: Club) -> None:
    game = propose(club, "new splendor with bob@example.org")
    club.reply("bob", "accept as Robert")
    club.serve()
    names = {p.email: p.name for p in club.store.load(game).record.players}
    assert names == {address("ann"): "Ann", address("bob"): "Robert"}


def test_a_reply_to_the_invitation_plays_once_the_game_has_started(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org")
    who = to_move(club, game)
    state = club.store.load(game).state
    club.reply(who, format_move(legal_moves(state)[0]))
    club.serve()
    assert club.store.load(game).state.turn == 1


def test_decline_calls_the_game_off_and_tells_everyone(club: Club) -> None:
    game = propose(club)
    club.reply("bob", "No thanks, busy.\n\ndecline")
    club.serve()
    assert not club.store.has(game)
    for name in ("ann", "bob", "cat"):
        assert "called off" in str(club.latest(name)["Subject"])
    assert "bob@example.org declined" in club.words("cat")


def test_an_invitation_unanswered_for_7_days_is_called_off(club: Club) -> None:
    game = propose(club)
    club.reply("bob", "accept")
    club.serve(timedelta(days=6))
    assert Invitations(club.games).get(game).status == "invited"  # type: ignore[union-attr]
    club.serve(timedelta(days=1, minutes=1))
    assert Invitations(club.games).get(game).status == "cancelled"  # type: ignore[union-attr]
    assert "7 days" in club.text("cat")
    club.reply("cat", "accept")
    club.serve()
    assert not club.store.has(game)


def test_an_invitation_answered_from_another_address_is_refused(club: Club) -> None:
    game = propose(club)
    club.reply("eve", "accept", to=club.latest("bob"))
    club.serve()
    invitation = Invitations(club.games).get(game)
    assert invitation is not None
    assert all(s.accepted is None for s in invitation.seats if not s.proposer)
    assert "not read" in club.text("eve")


def test_accept_twice_is_refused_and_changes_nothing(club: Club) -> None:
    propose(club)
    club.reply("bob", "accept")
    club.serve()
    club.reply("bob", "accept as Other")
    club.serve()
    assert "already" in club.text("bob")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("new splendor with ann@example.org", "your own address"),
        ("new splendor with bob@example.org bob@example.org", "named twice"),
        (
            "new splendor with b@example.org c@example.org d@example.org e@example.org",
            "2 to 4 players",
        ),
        ("new splendor with bob-at-example", "not a mail address"),
        ("new splendor with bob@example.org deadline 10y", "not a duration"),
        ("new chess with bob@example.org", "new splendor with ADDRESS"),
    ],
)
def test_a_proposal_that_cannot_be_made_is_answered_with_why(
    club: Club, text: str, why: str
) -> None:
    club.write("ann", text)
    club.serve()
    assert Invitations(club.games).ids() == []
    assert why in club.text("ann")


def test_a_special_use_domain_is_refused_saying_what_it_is_and_who_may_allow_it(
    club: Club,
) -> None:
    club.write("ann", "new splendor with bob@splendor.test")
    club.serve()
    assert Invitations(club.games).ids() == []
    said = " ".join(club.text("ann").split())
    assert (
        "'bob@splendor.test' cannot be invited: its domain ends in .test, a special-use name "
        "reserved for testing (RFC 6761), which mail from the internet never reaches; this "
        "referee plays only with addresses mail can reach; its game master can allow "
        "splendor.test for a private mail system"
    ) in said
    assert "write each friend's address in full" not in said


def test_a_special_use_domain_listed_in_private_domains_may_be_invited(club: Club) -> None:
    club.settings = club.settings.model_copy(update={"private_domains": ["splendor.test"]})
    club.write("ann", "new splendor with bob@Splendor.Test carol@lan.splendor.test")
    club.serve()
    (game,) = Invitations(club.games).ids()
    invitation = Invitations(club.games).get(game)
    assert invitation is not None
    invited = [s.address for s in invitation.seats]
    assert sorted(invited) == ["ann@example.org", "bob@splendor.test", "carol@lan.splendor.test"]


def test_one_address_proposes_at_most_a_few_games_an_hour(club: Club) -> None:
    for n in range(4):
        club.write("ann", f"new splendor with friend{n}@example.org")
    club.serve()
    assert len(Invitations(club.games).ids()) == 3
    assert "in the last hour" in club.text("ann")
    club.serve(timedelta(hours=1, minutes=1))
    club.write("ann", "new splendor with friend9@example.org")
    club.serve()
    assert len(Invitations(club.games).ids()) == 4


# -- commands to the referee's own address ------------------------------------------------------


def test_help_lists_every_command_from_the_registry(club: Club) -> None:
    club.write("zed", "help")
    club.serve()
    text = " ".join(club.text("zed").split())  # long lines are wrapped
    for command in commands("referee"):
        usage, summary = ENGLISH.say(command.usage), ENGLISH.say(command.summary)
        assert usage in text and " ".join(summary.split()) in text
    html = club.latest("zed").get_body(("html",))
    assert html is not None and "new splendor with" in str(html.get_content())


def test_help_to_the_referees_own_address_also_shows_how_moves_are_written(
    club: Club,
) -> None:
    club.write("zed", "help")
    club.serve()
    text = " ".join(club.text("zed").split())
    assert "HOW MOVES ARE WRITTEN, once you play: reply to the latest mail of your game" in text
    assert "take red green blue 3 tokens of different colours" in text
    assert "HOW TO MOVE: reply to this mail" not in text  # there is no game to reply in yet


def test_a_mail_with_no_command_is_told_what_would_work(club: Club) -> None:
    club.write("zed", "Hello, how do I play?")
    club.serve()
    assert "found no command" in club.text("zed")
    assert "games" in club.text("zed")


def test_rules_sends_a_summary_of_the_rules(club: Club) -> None:
    club.write("zed", "rules")
    club.serve()
    assert "15 points" in club.text("zed") and "noble" in club.text("zed")


def test_games_lists_only_the_senders_games_from_any_address(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org")
    other = propose(club, "new splendor with cat@example.org")
    club.write("bob", "games")
    club.serve()
    text = club.text("bob")
    assert game in text and other not in text
    club.write("cat", "games")
    club.serve()
    assert (
        other in club.text("cat") and "invited" in club.text("cat") and game not in club.text("cat")
    )
    club.write("zed", "games")
    club.serve()
    assert "has no games" in club.text("zed")


def test_watch_a_game_without_spectators_is_refused(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org")
    club.write("zed", f"watch {game}")
    club.serve()
    assert "not created with spectators" in club.text("zed")


def test_a_spectator_gets_the_public_board_after_every_turn_and_no_blind_card(
    club: Club,
) -> None:
    game = start(club, "new splendor with bob@example.org spectators")
    club.write("zed", f"watch {game}")
    club.serve()
    assert "You are now watching" in club.text("zed")
    seen = club.count("zed")
    who = to_move(club, game)
    club.reply(who, "reserve deck 3")
    club.serve()
    assert club.count("zed") == seen + 1
    replayed = club.store.load(game)
    blind = replayed.state.players[replayed.state.seat_of(replayed.turns[-1].player)].reserved
    assert blind and blind[0].blind
    for mail in club.mails("zed"):
        for part in mail.walk():
            if part.get_content_maintype() == "text":
                assert blind[0].card not in str(part.get_content())
    club.write("zed", f"unwatch {game}")
    club.serve()
    seen = club.count("zed")
    play_one(club, game)
    assert club.count("zed") == seen


def test_away_for_10_years_is_capped_with_a_clear_answer(club: Club) -> None:
    club.write("ann", "away 3650d")
    club.serve()
    assert "the longest one can be away" in club.words("ann")
    club.write("ann", "away 2037-01-01")
    club.serve()
    assert "the longest one can be away" in club.words("ann")


def test_away_pauses_deadlines_and_tells_the_other_players(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org deadline 2d timeout forfeit")
    who = to_move(club, game)
    other = "bob" if who == "ann" else "ann"
    club.write(who, "away 5d")
    club.serve()
    assert "is away until" in club.text(other)
    club.serve(timedelta(days=4))
    assert club.store.load(game).state.turn == 0  # paused: not forfeited
    club.write(who, "back")
    club.serve()
    assert "is back" in club.text(other)
    club.serve(timedelta(days=2, hours=1))
    assert club.store.load(game).state.status == "finished"  # forfeited: the other wins


# -- commands in a game -----------------------------------------------------------------------


def test_history_lists_the_turns_played(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org")
    first = play_one(club, game)
    play_one(club, game)
    club.reply(first, "history")
    club.serve()
    text = club.text(first)
    assert "turn   1" in text and "turn   2" in text
    club.reply(first, "history 1")
    club.serve()
    assert "turn   1" not in club.text(first) and "turn   2" in club.text(first)


def test_say_reaches_every_other_player_and_spectator(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org cat@example.org spectators")
    club.write("zed", f"watch {game}")
    club.serve()
    club.reply("bob", "say Good luck, everyone!\nMay the best win.")
    club.serve()
    for name in ("ann", "cat", "zed"):
        assert "Good luck, everyone!" in club.text(name)
        assert "May the best win." in club.text(name)
        said = club.words(name)  # (who wrote it, just above it: never "You wrote:")
        assert "bob says, in game" in said and "You wrote:" not in said
        assert said.index("bob says, in game") < said.index("Good luck, everyone!")
    assert "sent to 3 others" in club.text("bob")
    assert "You wrote:" in club.text("bob")  # (the writer's own words, quoted back)


def test_say_with_a_megabyte_of_text_is_cut(club: Club) -> None:
    start(club, "new splendor with bob@example.org")
    club.reply("bob", "say " + ("blah " * 80 + "\n") * 2200)  # 880 kB: under the size cap
    club.serve()
    said = club.text("ann")
    assert "blah" in said and len(said) < 20_000
    assert "only the first" in club.text("bob")


def test_resign_by_mail_out_of_turn_leaves_the_game(club: Club) -> None:
    game = start(club)
    waiting = next(
        p.email.split("@")[0]
        for p in club.store.load(game).record.players
        if p.email.split("@")[0] != to_move(club, game)
    )
    club.reply(waiting, "resign")
    club.serve()
    replayed = club.store.load(game)
    assert replayed.turns[-1].move.text == "resign"
    assert replayed.turns[-1].player.casefold() != to_move(club, game)
    assert "resigned" in club.text(to_move(club, game))


def test_i_resign_by_mail_in_a_reply_with_a_greeting_and_a_footer_leaves_the_game(
    club: Club,
) -> None:
    game = start(club, "new splendor with bob@example.org")
    mover = to_move(club, game)
    club.reply(mover, "Hi all,\n\nI resign.\n\nThanks for the game!\n\nSent from my iPhone")
    club.serve()
    replayed = club.store.load(game)
    assert replayed.state.status == "finished"
    assert replayed.turns[-1].move.text == "resign"


def test_undo_by_a_player_whose_move_was_not_last_is_refused(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org")
    mover = play_one(club, game, take_only=True)
    other = "bob" if mover == "ann" else "ann"
    club.reply(other, "undo")
    club.serve()
    assert "not yours" in club.text(other)
    assert club.store.load(game).state.turn == 1


def test_undo_with_every_other_player_accepting_takes_the_move_back(club: Club) -> None:
    game = start(club)
    mover = play_one(club, game, take_only=True)
    club.reply(mover, "undo")
    club.serve()
    others = [n for n in ("ann", "bob", "cat") if n != mover]
    assert "asks to take back turn 1" in club.text(others[0])
    club.reply(others[0], "accept")
    club.serve()
    assert club.store.load(game).state.turn == 1
    club.reply(others[1], "accept")
    club.serve()
    assert club.store.load(game).state.turn == 0
    assert "was taken back" in club.text(mover)
    assert to_move(club, game) == mover


def test_a_declined_undo_leaves_the_move(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org")
    mover = play_one(club, game, take_only=True)
    other = "bob" if mover == "ann" else "ann"
    club.reply(mover, "undo")
    club.serve()
    club.reply(other, "decline")
    club.serve()
    assert club.store.load(game).state.turn == 1
    assert "declined" in club.text(mover)


def test_commands_in_the_quoted_part_are_ignored(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org")
    who = to_move(club, game)
    board = club.latest(who)
    quoted = EmailMessage()  # the mail being answered, as it shows in the reply's quote
    for header in ("From", "To", "Subject", "Message-ID", "Reply-To", "References"):
        if board[header] is not None:
            quoted[header] = str(board[header])
    quoted.set_content("resign\n\nsay boo\n\nundo\n\naway 5d\n")
    club.reply(who, "Thanks, thinking about it.", to=quoted)
    club.serve()
    replayed = club.store.load(game)
    assert replayed.state.turn == 0
    assert club.desk_ledger().away_until(address(who), club.now) is None
    assert "held no move" in club.text(who)


# -- time ------------------------------------------------------------------------------------


def test_reminders_at_half_time_and_a_day_before_at_most_one_mail_a_day(club: Club) -> None:
    start(club, "new splendor with bob@example.org deadline 4d")
    game = Invitations(club.games).ids()[0]
    who = to_move(club, game)
    before = club.count(who)
    club.serve(timedelta(days=1))
    assert club.count(who) == before
    club.serve(timedelta(days=1, minutes=1))  # half time
    assert club.count(who) == before + 1
    assert "due soon" in str(club.latest(who)["Subject"]) and game in club.text(who)
    club.serve(timedelta(hours=23))  # a day before the deadline, but within 24 h of the last
    assert club.count(who) == before + 1
    club.serve(timedelta(hours=1, minutes=1))
    assert club.count(who) == before + 2


def test_a_game_that_waits_tells_the_game_master_once(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org deadline 1d")
    club.serve(timedelta(days=1, minutes=1))
    # by the To header: a player's Reply-To may end in "gm@example.net" too (its routing key)
    told = mails_to(club.mail, GAME_MASTER)
    assert len(told) == 1 and game in text_of(told[0])
    club.serve(timedelta(days=1, minutes=1))
    assert len(mails_to(club.mail, GAME_MASTER)) == 1
    assert club.store.load(game).state.turn == 0


def test_a_move_made_by_the_game_master_reaches_spectators_and_says_when_the_next_is_due(
    club: Club,
) -> None:
    game = start(club, "new splendor with bob@example.org spectators deadline 2d")
    club.write("zed", f"watch {game}")
    club.serve()
    seen = club.count("zed")
    replayed = club.store.load(game)
    name = replayed.state.player.name
    play_move(
        club.store,
        game,
        name,
        format_move(legal_moves(replayed.state)[0]),
        SourceEntry(kind="command-line"),
        herald=MailHerald.of(club.games),
        at=club.now,
    )
    club.serve()
    assert club.count("zed") == seen + 1
    assert "Your move is due by" in club.text(to_move(club, game))


def test_referee_games_lists_invited_and_cancelled_games(club: Club) -> None:
    invited = propose(club, "new splendor with bob@example.org")
    cancelled = propose(club, "new splendor with cat@example.org")
    club.reply("cat", "decline")
    club.serve()
    result = CliRunner().invoke(app, ["games", "--json", "--games-dir", str(club.games)])
    assert result.exit_code == 0, result.output
    rows = {r["game"]: r for r in json.loads(result.stdout)}
    assert rows[invited]["status"] == "invited" and rows[invited]["turn"] == 0
    assert rows[cancelled]["status"] == "cancelled"
    for key in ("game", "status", "turn", "to_move", "deadline", "players"):
        assert key in rows[invited]


@pytest.mark.parametrize(
    "results",
    [
        "mx.example.net; spf=pass smtp.mailfrom=example.org; dkim=none; dmarc=fail",
        "mx.example.net; spf=fail smtp.mailfrom=example.org; dkim=none",
    ],
)
def test_a_mail_whose_server_says_its_sender_is_forged_is_never_answered(
    club: Club, results: str
) -> None:
    game = start(club, "new splendor with bob@example.org")
    who = to_move(club, game)
    forged = write_with_results(club, "ann", "away 5d", results)
    club.serve()
    assert club.count("ann") == forged
    assert (club.mail / "quarantine").iterdir()
    club.reply(who, format_move(legal_moves(club.store.load(game).state)[0]),
               extra_headers={"Authentication-Results": results})  # fmt: skip
    club.serve()
    assert club.store.load(game).state.turn == 0


def test_a_mail_whose_server_vouches_for_its_sender_is_read(club: Club) -> None:
    write_with_results(club, "ann", "rules", "mx.example.net; spf=fail; dkim=pass; dmarc=pass")
    club.serve()
    assert "the rules" in str(club.latest("ann")["Subject"])


def write_with_results(club: Club, name: str, text: str, results: str) -> int:
    """``name`` writes ``text`` to the referee, our server having added ``results``; how
    many mails ``name`` had before."""
    before = club.count(name)
    path = club.mail / "inbox" / f"forged{before}{name}.eml"
    head = [
        f"Authentication-Results: {results}",
        f"From: {address(name)}",
        "To: referee@example.net",
        "Subject: x",
        f"Message-ID: <forged{before}.{name}@example.org>",
    ]
    path.write_bytes("\r\n".join([*head, "", text, ""]).encode())
    return before


def test_after_an_undo_the_move_is_due_counting_from_the_undo(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org deadline 2d timeout forfeit")
    club.serve(timedelta(days=1, hours=20))
    mover = play_one(club, game, take_only=True)
    other = "bob" if mover == "ann" else "ann"
    club.reply(mover, "undo")
    club.serve()
    club.reply(other, "accept")
    club.serve(timedelta(hours=8))  # 2 days and 4 hours after turn 0's board
    replayed = club.store.load(game)
    assert replayed.state.turn == 0 and replayed.state.status == "playing"
    assert "Your move is due by" in club.text(mover)


def test_a_reminder_about_one_game_can_be_answered_with_a_move(club: Club) -> None:
    game = start(club, "new splendor with bob@example.org deadline 2d")
    club.serve(timedelta(days=1, hours=1))
    who = to_move(club, game)
    assert "due soon" in str(club.latest(who)["Subject"])
    club.reply(who, format_move(legal_moves(club.store.load(game).state)[0]))
    club.serve()
    assert club.store.load(game).state.turn == 1


def test_a_move_written_to_the_referee_instead_of_as_a_reply_is_told_how_to_move(
    club: Club,
) -> None:
    club.write("ann", "take red green blue")
    club.serve()
    assert "reply to the referee's latest board mail" in club.words("ann")
