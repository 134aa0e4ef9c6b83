"""Every mail program of the corpus (tests/mail/clients/) plays a move by replying to the
referee's mail over the dir transport: at turn 0, at a late turn deep in the thread, and a
reply to an older mail of the thread, which is refused as stale with the board as it is."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from referee.engine import Buy, legal_moves
from referee.notation import format_move
from tests.mail.clients import CLIENTS, Client, Sender
from tests.mail.dirtable import Table, address
from tests.mail.players import deliver, humanise, latest, mails_to, text_of

WHEN = datetime(2026, 12, 2, 9, 1, tzinfo=UTC)
SENDERS = {
    "alice": Sender("Alice Jones", address("alice")),
    "bob": Sender("Bob Ó Briain", address("bob")),
}


def client_plays(table: Table, client: Client, rng: random.Random) -> str:
    """The player to move replies with ``client`` to their latest mail, writing a legal move
    in everyday words; the service handles it. The move meant, in canonical notation."""
    state = table.state
    name = state.player.name
    moves = legal_moves(state)
    move = rng.choice([m for m in moves if isinstance(m, Buy)] or moves)
    original = latest(table.mail, address(name))
    raw = client.write(original, humanise(move, state, rng), SENDERS[name], WHEN, rng)
    table.sequence += 1
    deliver(table.mail, f"{client.name}-{table.sequence}.eml", raw)
    table.serve()
    return format_move(move)


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_a_reply_written_by_each_mail_program_plays_its_move_early_and_late(
    tmp_path: Path, name: str
) -> None:
    client = CLIENTS[name]
    table = Table(tmp_path, seed=sum(map(ord, name)))
    rng = random.Random(name)
    bobs_welcome = latest(table.mail, address("bob"))

    meant = client_plays(table, client, rng)  # turn 0: a thread of one mail
    game = table.store.load("g1")
    assert game.state.turn == 1, table.folder("refused")
    assert game.turns[-1].move.text == meant

    while table.state.turn < 7:  # the others reply as usual, the thread grows
        state = table.state
        moves = legal_moves(state)
        table.reply(state.player.name, humanise(rng.choice(moves), state, rng))
        table.serve()
        assert table.state.turn == state.turn + 1, table.folder("refused")

    meant = client_plays(table, client, rng)  # turn 7: long References chains
    game = table.store.load("g1")
    assert game.state.turn == 8, table.folder("refused")
    assert game.turns[-1].move.text == meant
    assert game.turns[-1].player == "bob"

    # bob answers his welcome mail, long gone, with the same program: stale
    state = table.state
    assert state.player.name == "alice"
    raw = client.write(bobs_welcome, "take red green blue", SENDERS["bob"], WHEN, rng)
    deliver(table.mail, f"{client.name}-stale.eml", raw)
    table.serve()
    assert table.state.turn == 8
    refusal = text_of(latest(table.mail, address("bob")))
    assert "Your reply answered the mail of turn 0" in refusal
    assert "moved on to turn 8" in refusal and "Splendor · game g1 · turn 8" in refusal
    assert len(mails_to(table.mail, address("bob"))) == 10  # 9 boards and the refusal
