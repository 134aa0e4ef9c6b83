"""The end of a turn: the 10-token limit and noble visits (docs/rules.md: End of a turn)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.engine import CARDS, Buy, GameState, Pass, Reserve, Take, apply, legal_moves
from referee.engine.rules import token_returns
from referee.errors import IllegalMoveError
from tests.positions import bank, bonuses_for, cards_of_colour, dealt, holding, new_game

T = bank

# -- Token limit --------------------------------------------------------------------------------


def test_token_limit_over_ten_returns_tokens_in_the_same_move_down_to_exactly_ten() -> None:
    state = holding(new_game(2), tokens_=T(white=3, blue=3, black=3))  # 9 held
    after = apply(state, Take(T(red=1, green=1, blue=1), returned=T(white=2)))
    assert after.players[0].tokens == T(white=1, blue=4, green=1, red=1, black=3)
    assert sum(after.players[0].tokens) == 10
    assert after.bank == T(white=6, blue=3, green=3, red=3, black=4, gold=5)


def test_token_limit_returns_may_include_the_tokens_just_taken() -> None:
    state = holding(new_game(2), tokens_=T(white=4, blue=3, black=3))  # 10 held
    after = apply(state, Take(T(red=2), returned=T(red=2)))
    assert after.players[0].tokens == state.players[0].tokens


def test_token_limit_counts_gold_so_a_reserve_at_ten_returns_one() -> None:
    state = holding(new_game(2), tokens_=T(white=4, blue=3, black=3))
    with pytest.raises(IllegalMoveError, match=r"you hold 11 tokens .*return exactly 1"):
        apply(state, Reserve(deck=1))
    after = apply(state, Reserve(deck=1, returned=T(gold=1)))
    assert after.players[0].tokens == state.players[0].tokens and after.bank[5] == 5


def test_token_limit_return_is_refused_at_ten_or_fewer() -> None:
    state = holding(new_game(2), tokens_=T(white=3, blue=3, black=1))  # 7 + 3 = 10
    with pytest.raises(IllegalMoveError, match=r"only for a player above 10; .* you hold 10"):
        apply(state, Take(T(red=1, green=1, blue=1), returned=T(white=1)))


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        (T(white=1), "return exactly 2 .*not 1"),
        (T(white=3), "return exactly 2 .*not 3"),
        (T(gold=2), "cannot return 2 gold: after this move you hold 0"),
    ],
)
def test_token_limit_return_must_be_the_excess_from_tokens_held(
    returned: tuple[int, ...], message: str
) -> None:
    state = holding(new_game(2), tokens_=T(white=3, blue=3, black=3))
    with pytest.raises(IllegalMoveError, match=message):
        apply(state, Take(T(red=1, green=1, blue=1), returned=returned))  # type: ignore[arg-type]


def test_token_limit_each_multiset_of_returns_is_a_move_of_its_own_once() -> None:
    returns = token_returns(T(white=2, blue=1, black=9))  # 12 held: return 2
    assert set(returns) == {
        T(white=2),
        T(white=1, blue=1),
        T(white=1, black=1),
        T(blue=1, black=1),
        T(black=2),
    }
    assert len(returns) == len(set(returns))
    state = holding(new_game(2), tokens_=T(white=3, blue=3, black=3))
    takes = [
        m for m in legal_moves(state) if isinstance(m, Take) and m.gems == T(red=1, green=1, blue=1)
    ]
    assert (
        len(takes)
        == len({m.returned for m in takes})
        == len(token_returns(T(white=3, blue=4, green=1, red=1, black=3)))
    )


# -- Nobles -------------------------------------------------------------------------------------


def noble_ready(noble: str, missing_colour: str) -> tuple[GameState, str]:
    """A player one card short of ``noble``: the missing card (of ``missing_colour``) is face up
    and affordable with the gold held."""
    cards = bonuses_for(noble)
    last = next(c for c in cards if c in cards_of_colour(missing_colour, 8))
    cards.remove(last)
    state = dealt(
        2, top={1: [last]}, nobles=["N1", "N2", noble] if noble not in ("N1", "N2") else None
    )
    state = holding(state, cards=cards, tokens_=T(gold=5))
    return state, last


def test_noble_visits_at_the_end_of_the_turn_the_bonuses_meet_its_requirement() -> None:
    state, last = noble_ready("N4", "black")  # N4: 4 white, 4 black
    buy = next(m for m in legal_moves(state) if isinstance(m, Buy) and m.card == last)
    assert buy.noble == "N4"
    after = apply(state, buy)
    me = after.players[0]
    assert me.nobles == ("N4",) and "N4" not in after.nobles
    assert me.points == sum(CARDS[c].points for c in me.cards) + 3


def test_noble_visit_cannot_be_refused() -> None:
    state, last = noble_ready("N4", "black")
    buy = next(m for m in legal_moves(state) if isinstance(m, Buy) and m.card == last)
    with pytest.raises(IllegalMoveError, match="N4 visits at the end of this move and cannot be"):
        apply(state, replace(buy, noble=None))


def test_noble_that_does_not_qualify_or_is_not_on_the_table_is_refused() -> None:
    state = new_game(2)
    absent = next(n for n in ("N1", "N2", "N3", "N4", "N5") if n not in state.nobles)
    with pytest.raises(IllegalMoveError, match=f"{absent} is not on the table"):
        apply(state, Take(T(red=1, green=1, blue=1), noble=absent))
    present = state.nobles[0]
    with pytest.raises(IllegalMoveError, match=f"{present} requires bonuses of .* yours are none"):
        apply(state, Take(T(red=1, green=1, blue=1), noble=present))


def test_noble_at_most_one_per_turn_and_the_player_chooses_then_the_other_visits_later() -> None:
    # N4 needs 4 white 4 black, N9 needs 3 white 3 blue 3 black: give both at once.
    cards = cards_of_colour("white", 4) + cards_of_colour("black", 4) + cards_of_colour("blue", 3)
    state = holding(dealt(2, nobles=["N4", "N9", "N1"]), cards=cards)
    choices = {m.noble for m in legal_moves(state) if isinstance(m, Take)}
    assert choices == {"N4", "N9"}
    after = apply(state, Take(T(red=1, green=1, white=1), noble="N9"))
    assert after.players[0].nobles == ("N9",) and after.nobles == ("N4", "N1")
    after = apply(after, Take(T(red=1, green=1, white=1)))  # the other player
    later = legal_moves(after)
    assert {m.noble for m in later} == {"N4"}
    assert apply(after, later[0]).players[0].nobles == ("N9", "N4")


def test_noble_still_qualifying_visits_even_on_a_pass() -> None:
    cards = cards_of_colour("white", 4) + cards_of_colour("black", 4)
    state = replace(dealt(2, nobles=["N4", "N1", "N2"]), bank=T(gold=0))
    state = holding(
        state, cards=cards, reserved=[("3-01", False), ("3-02", False), ("3-03", False)]
    )
    state = replace(state, board=((None,) * 4,) * 3, decks=((), (), ()))
    assert legal_moves(state) == [Pass(noble="N4")]
    assert apply(state, Pass(noble="N4")).players[0].points == 3
