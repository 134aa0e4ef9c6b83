"""The board as text and moves in words, where a player has resigned."""

from __future__ import annotations

from typing import Any

from referee.engine import Resign, Take, apply, view
from referee.engine.view import GameView
from referee.wording import ENGLISH
from referee.wording.told import told as told_message
from referee.wording.writer import Writer
from tests.positions import bank, holding, new_game

TAKE = Take(bank(white=1, blue=1, green=1))


def told(*args: Any) -> str:
    return ENGLISH.say(told_message(*args))


def board_text(shown: GameView, game: str) -> str:
    return Writer().board_text(shown, game)


def test_a_resignation_is_told_in_words() -> None:
    assert told(Resign(1), "bob") == "bob resigned and left the game"
    assert told(Resign(1), "bob", "bob") == "you resigned and left the game"


def test_the_board_marks_a_resigned_player() -> None:
    state = apply(new_game(3), Resign(1))
    text = board_text(view(state), "g1")
    assert "  bob (resigned: out of the game, cannot win): 0 points\n" in text
    assert "  alice (to move): 0 points\n" in text and "carol (resigned" not in text


def test_the_last_round_ends_after_the_last_seat_still_in_says_the_board() -> None:
    state = holding(new_game(4), 0, cards=["3-04", "3-08", "3-12"])
    state = apply(apply(state, TAKE), Resign(3))
    text = board_text(view(state), "g1")
    assert "last round: the game ends after carol's turn" in text
