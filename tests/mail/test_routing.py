"""Routing a reply to (game, player) and proving it comes from the player."""

from __future__ import annotations

from pathlib import Path

from referee.mail.routing import authentic, find_route, message_id, player_key, reply_address
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
    route = find_route([to], [], REFEREE)
    assert route is not None and (route.game, route.seat, route.key, route.turn) == (
        "g1",
        1,
        key,
        None,
    )


def test_a_reply_routes_by_the_message_it_answers_and_knows_its_turn() -> None:
    key = player_key(SECRET, "game-7", 2, "c@example.org")
    answered = message_id(REFEREE, "game-7", 2, key, 12)
    route = find_route(["referee@example.net"], ["<other@x>", answered], REFEREE)
    assert route is not None and (route.game, route.seat, route.turn) == ("game-7", 2, 12)
    route = find_route([reply_address(REFEREE, "game-7", 2, key)], [answered], REFEREE)
    assert route is not None and route.turn == 12


def test_mail_to_no_address_of_ours_has_no_route() -> None:
    assert (
        find_route(["someone@example.net", "referee+junk@example.net"], ["<x@y>"], REFEREE) is None
    )
    assert find_route(["referee+g1.0.abcdefghijklmnop@other.org"], [], REFEREE) is None


def test_only_the_registered_sender_with_the_right_key_is_authentic(tmp_path: Path) -> None:
    record = recorded_game(tmp_path, turns=0).load("g1").record
    key = player_key(SECRET, "g1", 0, "alice@example.org")
    route = find_route([reply_address(REFEREE, "g1", 0, key)], [], REFEREE)
    assert route is not None
    assert authentic(route, record, "alice@example.org", SECRET) is None
    assert "not from the player's registered address" in str(
        authentic(route, record, "mallory@example.org", SECRET)
    )
    assert authentic(route, record, "alice@example.org", b"z" * 32) == "the reply's key is wrong"
    wrong_seat = find_route([reply_address(REFEREE, "g1", 1, key)], [], REFEREE)
    assert wrong_seat is not None
    assert authentic(wrong_seat, record, "bob@example.org", SECRET) == "the reply's key is wrong"
