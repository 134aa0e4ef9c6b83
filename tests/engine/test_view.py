"""Hidden information (docs/rules.md: Hidden information) and the state JSON of
docs/interface.md."""

from __future__ import annotations

import json

from referee.engine import Reserve, Take, apply, view
from tests.positions import bank, new_game, playout

T = bank


def blind_reserved_game() -> tuple:  # type: ignore[type-arg]
    state = new_game(2)
    secret = state.decks[2][0]
    state = apply(state, Reserve(deck=3))  # alice reserves blind
    state = apply(state, Reserve(card=state.board[0][0]))  # bob reserves face up
    return state, secret


def test_a_blind_reserved_card_is_seen_only_by_its_owner() -> None:
    state, secret = blind_reserved_game()
    alice, bob, public = view(state, "alice"), view(state, "bob"), view(state)
    assert alice.players[0].reserved[0].card == secret
    assert bob.players[0].reserved[0].card is None and public.players[0].reserved[0].card is None
    assert bob.players[0].reserved[0].level == 3 and bob.players[0].reserved[0].blind
    for v in (bob, public):
        assert secret not in json.dumps(v.to_json())
    assert secret in json.dumps(alice.to_json())  # the owner's own JSON does name it


def test_a_face_up_reserved_card_is_public() -> None:
    state, _ = blind_reserved_game()
    card = state.players[1].reserved[0].card
    assert view(state).players[1].reserved[0].card == card
    assert view(state, "alice").players[1].reserved[0].card == card


def test_deck_order_is_never_in_any_view_only_deck_sizes() -> None:
    for _state, _move, after in playout(2, 3):
        for viewer in (None, "alice", "bob"):
            body = view(after, viewer).to_json()
            assert body["decks"] == {str(i + 1): len(d) for i, d in enumerate(after.decks)}
            shown = json.dumps(body)
            blind_mine = {
                r.card for p in after.players if p.name == viewer for r in p.reserved if r.blind
            }
            for deck in after.decks:
                for card in deck:
                    assert f'"{card}"' not in shown
            for p in after.players:
                for r in p.reserved:
                    if r.blind and r.card not in blind_mine:
                        assert f'"{r.card}"' not in shown


def test_view_json_has_the_shape_of_interface_md() -> None:
    state = apply(new_game(2), Take(T(red=1, green=1, blue=1)))
    body = view(state, "alice").to_json("g1")
    assert list(body) == [
        "game",
        "turn",
        "status",
        "to_move",
        "winners",
        "rules",
        "bank",
        "board",
        "decks",
        "nobles",
        "players",
    ]
    assert body["game"] == "g1" and body["turn"] == 1 and body["to_move"] == "bob"
    assert body["rules"] == {"points_to_win": 15, "gold": 5}
    assert body["bank"] == {"white": 4, "blue": 3, "green": 3, "red": 3, "black": 4, "gold": 5}
    assert [len(body["board"][level]) for level in "123"] == [4, 4, 4]
    alice = body["players"][0]
    assert alice == {
        "name": "alice",
        "tokens": {"blue": 1, "green": 1, "red": 1},
        "bonuses": {},
        "cards": [],
        "nobles": [],
        "points": 0,
        "reserved": [],
        "resigned": False,
    }


def test_a_finished_game_has_no_one_to_move_and_names_its_winners() -> None:
    *_, (_, _, last) = playout(2, 5)
    body = view(last).to_json()
    assert body["status"] == "finished" and body["to_move"] is None and body["winners"]
