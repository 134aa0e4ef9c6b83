"""Routing a reply to (game, player) and proving it comes from the player."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.mail.reading.routing import (
    authentic,
    find_route,
    message_id,
    player_key,
    reply_address,
)
from tests.recorded import recorded_game

SECRET = b"k" * 32
REFEREE = "referee@example.net"


def test_keys_are_unguessable_per_game_seat_and_address() -> None:
    key = player_key(SECRET, "g1", 0, "alice@example.org")
    assert len(key) == 16 and key.isalnum()
    assert key == player_key(SECRET, "g1", 0, "ALICE@example.org")
    others = {
        player_key(SECRET, "g1", 1, "alice@example.org"),
        player_key(SECRET, "g2", 0, "alice@example.org"),
        player_key(b"x" * 32, "g1", 0, "alice@example.org"),
    }
    assert key not in others and len(others) == 3


def test_a_reply_routes_by_its_plus_address() -> None:
    key = player_key(SECRET, "g1", 1, "bob@example.org")
    to = reply_address(REFEREE, "g1", 1, key)
    assert to == f"referee+g1.1.{key}@example.net"
    route = find_route([to], [], [], REFEREE)
    assert route is not None and (route.game, route.seat, route.key, route.turn) == (
        "g1",
        1,
        key,
        None,
    )


def test_a_reply_routes_by_the_message_it_answers_and_knows_its_turn() -> None:
    key = player_key(SECRET, "game-7", 2, "c@example.org")
    answered = message_id(REFEREE, "game-7", 2, key, 12)
    route = find_route(["referee@example.net"], [], ["<other@x>", answered], REFEREE)
    assert route is not None and (route.game, route.seat, route.turn) == ("game-7", 2, 12)
    route = find_route([reply_address(REFEREE, "game-7", 2, key)], [answered], [], REFEREE)
    assert route is not None and route.turn == 12


def test_mail_to_no_address_of_ours_has_no_route() -> None:
    assert (
        find_route(["someone@example.net", "referee+junk@example.net"], ["<x@y>"], [], REFEREE)
        is None
    )
    assert find_route(["referee+g1.0.abcdefghijklmnop@other.org"], [], [], REFEREE) is None


def test_only_the_registered_sender_with_the_right_key_is_authentic(tmp_path: Path) -> None:
    record = recorded_game(tmp_path, turns=0).load("g1").record
    key = player_key(SECRET, "g1", 0, "alice@example.org")
    route = find_route([reply_address(REFEREE, "g1", 0, key)], [], [], REFEREE)
    assert route is not None
    assert authentic(route, record, "alice@example.org", SECRET) is None
    assert "not from the player's registered address" in str(
        authentic(route, record, "mallory@example.org", SECRET)
    )
    assert authentic(route, record, "alice@example.org", b"z" * 32) == "the reply's key is wrong"
    wrong_seat = find_route([reply_address(REFEREE, "g1", 1, key)], [], [], REFEREE)
    assert wrong_seat is not None
    assert authentic(wrong_seat, record, "bob@example.org", SECRET) == "the reply's key is wrong"


KEY = player_key(SECRET, "g1", 0, "alice@example.org")
TO = reply_address(REFEREE, "g1", 0, KEY)


def ours(turn: int, n: int = 0) -> str:
    """Our Message-ID of a mail to alice about ``turn`` (``n`` tells mails of a turn apart)."""
    return message_id(REFEREE, "g1", 0, KEY, turn, unique=f"{turn:x}{n}abc")


def chain(turns: int) -> list[str]:
    """The References of our mail of ``turns``: our earlier mails and alice's replies between
    them, oldest first, as the referee's letters carry them (ten at most)."""
    ids = []
    for t in range(turns):
        ids += [ours(t), f"<CAB{t}x=reply@mail.gmail.com>"]
    return ids[-10:]


def client_headers(shape: str, parent_turn: int) -> tuple[list[str], list[str]]:
    """(In-Reply-To, References) of a reply to our mail of ``parent_turn``, in the shape a
    kind of mail program writes them."""
    parent = ours(parent_turn)
    thread = [*chain(parent_turn), parent]
    return {
        # Gmail, Apple Mail, Thunderbird, K-9, FairEmail, mutt: the whole chain, oldest first
        "full-chain": ([parent], thread),
        # Outlook (Exchange): the first and the last few ids, trimmed in the middle
        "trimmed": ([parent], [thread[0], *thread[-3:]]),
        # a webmail that sets only In-Reply-To
        "in-reply-to-only": ([parent], []),
        # a client that sets only References
        "references-only": ([], thread),
        # References in an unexpected order: the newest of ours by turn still wins
        "shuffled": ([], [thread[-1], *reversed(thread[:-1])]),
        # In-Reply-To naming several ids, one of them ours (RFC 822 style)
        "several": (["<x@example.org>", parent], thread),
    }[shape]


SHAPES = ["full-chain", "trimmed", "in-reply-to-only", "references-only", "shuffled", "several"]


@pytest.mark.parametrize("turn", [0, 1, 5, 12, 40])
@pytest.mark.parametrize("shape", SHAPES)
def test_the_turn_answered_is_the_parent_in_any_clients_header_shape(shape: str, turn: int) -> None:
    in_reply_to, references = client_headers(shape, turn)
    for recipients in ([TO], ["referee@example.net"]):  # by plus address, and without it
        route = find_route(recipients, in_reply_to, references, REFEREE)
        assert route is not None and (route.game, route.seat, route.key) == ("g1", 0, KEY)
        assert route.turn == turn, (shape, recipients)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_reply_to_an_older_mail_of_the_thread_answers_that_older_turn(shape: str) -> None:
    in_reply_to, references = client_headers(shape, 3)
    # the player answers the mail of turn 3 although mails of later turns have come since
    route = find_route([TO], in_reply_to, references, REFEREE)
    assert route is not None and route.turn == 3


def test_in_reply_to_wins_over_a_newer_mail_named_in_references() -> None:
    # a reply to turn 4's mail whose References also name turn 6's (some clients keep the
    # ids of the whole conversation, later mails included)
    route = find_route([TO], [ours(4)], [*chain(4), ours(4), ours(6)], REFEREE)
    assert route is not None and route.turn == 4


def test_ids_of_other_players_and_games_do_not_give_the_turn() -> None:
    bob = message_id(REFEREE, "g1", 1, player_key(SECRET, "g1", 1, "bob@example.org"), 9)
    other_game = message_id(REFEREE, "g2", 0, player_key(SECRET, "g2", 0, "alice@example.org"), 8)
    route = find_route([TO], [bob], [other_game, ours(2)], REFEREE)
    assert route is not None and route.turn == 2
    route = find_route([TO], [bob], [other_game], REFEREE)
    assert route is not None and route.turn is None
