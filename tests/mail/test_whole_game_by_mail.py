"""A whole 3-player game run by mail alone: proposed, accepted, watched, a move taken back,
a player resigning, another forfeiting at the deadline, played to the end (dir transport,
with the clock set as `serve --once --now` sets it)."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from referee.engine import Take, legal_moves, outcome
from referee.invitations import Invitations
from referee.notation import format_move
from tests.mail.club import Club


def test_a_three_player_game_started_by_mail_is_played_to_the_end(tmp_path: Path) -> None:
    club = Club(tmp_path)
    club.write(
        "ann",
        "Hi referee!\n\nnew splendor with bob@example.org cat@example.org deadline 2d "
        "timeout forfeit spectators",
        display="Ann Lee",
    )
    club.serve()
    (game,) = Invitations(club.games).ids()
    club.reply("bob", "accept as Bob")
    club.reply("cat", "Yes please!\n\naccept")
    club.serve(timedelta(hours=1))
    club.write("zed", f"watch {game}")
    club.serve()
    rng = random.Random(3)

    def who_moves() -> str:
        replayed = club.store.load(game)
        return replayed.record.players[replayed.state.to_move].email.split("@")[0]

    def play(turns: int, take: bool = False) -> None:
        for _ in range(turns):
            state = club.store.load(game).state
            moves = legal_moves(state)
            if take:
                moves = [m for m in moves if isinstance(m, Take)] or moves
            club.reply(who_moves(), format_move(rng.choice(moves)))
            club.serve(timedelta(hours=2))

    play(4)
    mover = who_moves()
    play(1, take=True)
    club.reply(mover, "undo")
    club.serve()
    for other in ("ann", "bob", "cat"):
        if other != mover:
            club.reply(other, "accept")
    club.serve()
    assert club.store.load(game).state.turn == 4 and who_moves() == mover

    quitter = next(n for n in ("ann", "bob", "cat") if n != who_moves())
    club.reply(quitter, "Sorry all, I have to stop.\n\nresign")
    club.serve()
    play(4)
    late = who_moves()
    club.serve(timedelta(days=2, hours=1))  # the deadline passes: forfeit

    final = club.store.load(game)
    assert final.state.status == "finished"
    sources = [t.source.kind for t in final.turns]
    assert sources.count("timeout") == 1 and final.turns[-1].player.casefold() == late
    assert [t.move.text for t in final.turns].count("resign") == 2
    (last,) = [p for p in final.record.players if p.email.split("@")[0] not in (quitter, late)]
    assert outcome(final.state) == [last.name]
    for name in ("ann", "bob", "cat", "zed"):
        assert str(club.latest(name)["Subject"]).startswith("Game over")
    blind = {r.card for s in final.states for p in s.players for r in p.reserved if r.blind}
    for mail in club.mails("zed"):
        for part in mail.walk():
            if part.get_content_maintype() == "text":
                shown = str(part.get_content())
                assert not any(card in shown for card in blind)
    assert len(final.turns) == final.state.turn == 10  # 4, resign, 4, forfeit (1 undone)
