"""A board letter's moves, grouped as a player thinks of them: the takes as "any three of
..." and "two of one colour", every affordable card with what it costs, reserving any
face-up card or a deck; each group with one move written in full that reads back as that
move, in every language."""

from __future__ import annotations

import pytest

from referee.engine import Buy, Take, legal_moves, move_json
from referee.notation import parse
from referee.wording.choices import choices
from referee.wording.vocabulary import languages
from referee.wording.words import Words
from tests.positions import bank, holding, new_game


def test_a_fresh_game_offers_three_different_two_alike_and_reserving() -> None:
    state = new_game(2, seed=1)
    groups = choices([move_json(m) for m in legal_moves(state)])
    assert [g.title.code for g in groups] == [
        "choices.take_different", "choices.take_two", "choices.reserve"
    ]  # fmt: skip
    different, two, reserve = groups
    assert different.title.params == {
        "count": 3, "colours": ["white", "blue", "green", "red", "black"]
    }  # fmt: skip
    assert two.title.params["colours"] == ["white", "blue", "green", "red", "black"]
    assert reserve.title.params == {"levels": ["1", "2", "3"]}


def test_every_affordable_card_is_listed_once_with_what_it_would_cost() -> None:
    state = holding(new_game(2, seed=1), tokens_=bank(white=3, blue=3, green=3, red=3, black=3))
    moves = legal_moves(state)
    affordable = {m.card for m in moves if isinstance(m, Buy)}
    assert affordable
    (buy, *_rest) = choices([move_json(m) for m in moves])
    assert buy.title.code == "choices.buy" and buy.title.params["count"] == len(affordable)
    assert sorted(m["card"] for m in buy.moves) == sorted(affordable)
    assert all(m["pay"] for m in buy.moves)  # what it would cost


@pytest.mark.parametrize("language", languages())
def test_each_example_is_a_whole_move_that_reads_back_as_itself(language: str) -> None:
    state = holding(new_game(3, seed=4), tokens_=bank(white=2, blue=3, green=2, red=1, black=1))
    words = Words(language, "UTC")
    moves = legal_moves(state)
    for group in choices([move_json(m) for m in moves]):
        for example in (group.example, *group.moves):
            written = words.move(example)
            assert move_json(parse(state, written)) == dict(example), written


def test_when_every_take_must_give_back_the_group_says_how_many() -> None:
    state = holding(new_game(2, seed=1), tokens_=bank(white=3, blue=3, green=2, red=1, black=1))
    groups = choices([move_json(m) for m in legal_moves(state)])
    different = next(g for g in groups if g.title.code == "choices.take_different")
    assert different.note is not None and different.note.params == {"count": 3}
    assert isinstance(parse(state, Words("en", "UTC").move(different.example)), Take)
