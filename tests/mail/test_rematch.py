"""``rematch``: a reply in a finished game invites the same players again, on the same terms;
the game's last letter says how."""

from __future__ import annotations

from pathlib import Path

from referee.invitations import Invitations
from tests.mail.club import Club, start


def test_rematch_in_a_finished_game_invites_the_same_players_on_the_same_terms(
    tmp_path: Path,
) -> None:
    club = Club(tmp_path)
    game = start(club, "new splendor with bob@example.org points 10 deadline 3d")
    club.reply("bob", "resign")
    club.serve()
    for name in ("ann", "bob"):
        assert "reply 'rematch'" in club.words(name)
    before = set(Invitations(club.games).ids())
    club.reply("bob", "rematch")
    club.serve()
    (again,) = set(Invitations(club.games).ids()) - before
    invitation = Invitations(club.games).get(again)
    assert invitation is not None and again != game
    assert invitation.proposer == "bob@example.org"
    assert {s.address for s in invitation.seats} == {"ann@example.org", "bob@example.org"}
    assert (invitation.points_to_win, invitation.deadline) == (10, "3d")
    assert "invit" in club.words("ann").lower() and again in club.words("ann")
    club.reply("ann", "accept")
    club.serve()
    assert club.store.has(again)


def test_rematch_before_the_game_is_over_is_refused_saying_when_it_works(
    tmp_path: Path,
) -> None:
    club = Club(tmp_path)
    game = start(club, "new splendor with bob@example.org")
    club.reply("bob", "rematch")
    club.serve()
    assert f"Game {game} is not over yet" in club.words("bob")
