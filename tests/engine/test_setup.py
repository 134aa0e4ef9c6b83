"""Components and set-up (docs/rules.md: Components, Set-up)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from referee.engine import CARDS, NOBLES, Rules, make_setup, start
from referee.engine.cards import LEVEL_CARDS
from referee.errors import SetupError
from tests.positions import NAMES, new_game

SHARED = Path(__file__).resolve().parents[3] / "shared" / "splendor"


def test_components_are_90_cards_40_30_20_by_level() -> None:
    assert len(CARDS) == 90
    assert [len(LEVEL_CARDS[level]) for level in (1, 2, 3)] == [40, 30, 20]
    assert all(card.id.startswith(f"{card.level}-") for card in CARDS.values())


def test_components_are_10_nobles_worth_3_points_each() -> None:
    assert list(NOBLES) == [f"N{i}" for i in range(1, 11)]
    assert all(noble.points == 3 for noble in NOBLES.values())


@pytest.mark.skipif(not SHARED.exists(), reason="the shared card data is not beside this checkout")
def test_card_and_noble_data_are_the_shared_data_unchanged() -> None:
    package = Path(__file__).resolve().parents[2] / "referee" / "data"
    for name in ("cards.csv", "nobles.csv"):
        with open(SHARED / name) as shared, open(package / name) as ours:
            assert list(csv.reader(ours)) == list(csv.reader(shared))


def test_card_costs_and_bonuses_are_read_by_colour() -> None:
    card = CARDS["1-12"]  # blue bonus, costs 1 white and 2 black
    assert (card.bonus_colour, card.points, card.cost) == ("blue", 0, (1, 0, 0, 0, 2))
    assert NOBLES["N4"].requires == (4, 0, 0, 0, 4)


@pytest.mark.parametrize(("players", "gems"), [(2, 4), (3, 5), (4, 7)])
def test_setup_bank_has_4_5_or_7_of_each_gem_and_always_5_gold(players: int, gems: int) -> None:
    state = new_game(players)
    assert state.bank == (gems, gems, gems, gems, gems, 5)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_4_face_up_cards_per_level_and_reveals_players_plus_one_nobles(
    players: int,
) -> None:
    state = new_game(players)
    for level, (row, deck) in enumerate(zip(state.board, state.decks, strict=True), start=1):
        assert len(row) == 4 and all(CARDS[c].level == level for c in row if c)
        assert len(deck) == len(LEVEL_CARDS[level]) - 4
    assert len(state.nobles) == players + 1
    assert state.to_move == 0 and state.turn == 0 and state.status == "playing"
    assert all(p.tokens == (0,) * 6 and not p.cards for p in state.players)


def test_setup_from_the_same_seed_deals_the_same_and_other_seeds_differ() -> None:
    assert make_setup(3, 42, Rules()) == make_setup(3, 42, Rules())
    assert make_setup(3, 42, Rules()) != make_setup(3, 43, Rules())


def test_setup_each_level_is_shuffled_separately_so_fixing_one_keeps_the_others() -> None:
    seeded = make_setup(2, 7, Rules())
    fixed = make_setup(2, 7, Rules(), decks={1: sorted(LEVEL_CARDS[1])})
    assert fixed.decks[0] == tuple(sorted(LEVEL_CARDS[1]))
    assert fixed.decks[1:] == seeded.decks[1:] and fixed.nobles == seeded.nobles


def test_setup_explicit_decks_are_dealt_top_first_in_slot_order() -> None:
    order = list(reversed(LEVEL_CARDS[2]))
    state = start(NAMES[:2], make_setup(2, 1, Rules(), decks={2: order}), Rules())
    assert state.board[1] == tuple(order[:4])
    assert state.decks[1] == tuple(order[4:])


def test_setup_explicit_nobles_and_bank_are_used() -> None:
    setup = make_setup(2, 1, Rules(), nobles=["N1", "N2", "N3"], bank={"red": 2})
    assert setup.nobles == ("N1", "N2", "N3")
    assert setup.bank == (4, 4, 4, 2, 4, 5)


def test_setup_gold_zero_is_a_house_rule_and_reserving_then_gives_no_gold() -> None:
    from referee.engine import Reserve, apply

    rules = Rules(gold=0)
    state = start(NAMES[:2], make_setup(2, 1, rules), rules)
    assert state.bank[5] == 0
    after = apply(state, Reserve(deck=1))
    assert after.players[0].tokens[5] == 0 and len(after.players[0].reserved) == 1


@pytest.mark.parametrize("players", [1, 5])
def test_setup_refuses_fewer_than_2_or_more_than_4_players(players: int) -> None:
    with pytest.raises(SetupError, match="2 to 4 players"):
        make_setup(players, 1, Rules())


@pytest.mark.parametrize(
    ("decks", "message"),
    [
        ({1: list(LEVEL_CARDS[1])[:-1]}, "missing: 1-40"),
        ({1: [*list(LEVEL_CARDS[1])[:-1], "1-01"]}, "1-01 more than once"),
        ({2: [*list(LEVEL_CARDS[2])[:-1], "1-01"]}, r"1-01 \(level 1\)"),
        ({4: []}, "the levels are 1, 2, 3"),
    ],
)
def test_setup_refuses_a_deck_that_is_not_its_whole_level_once(
    decks: dict[int, list[str]], message: str
) -> None:
    with pytest.raises(SetupError, match=message):
        make_setup(2, 1, Rules(), decks=decks)


@pytest.mark.parametrize(
    ("nobles", "message"),
    [
        (["N1", "N2"], "3 nobles revealed, not 2"),
        (["N1", "N1", "N2"], "more than once"),
        (["N1", "N2", "N11"], "no such noble: N11"),
    ],
)
def test_setup_refuses_nobles_that_are_not_players_plus_one_distinct(
    nobles: list[str], message: str
) -> None:
    with pytest.raises(SetupError, match=message):
        make_setup(2, 1, Rules(), nobles=nobles)


def test_setup_refuses_a_bank_whose_gold_disagrees_with_the_gold_option() -> None:
    with pytest.raises(SetupError, match="set the gold option to 3"):
        make_setup(2, 1, Rules(), bank={"gold": 3})


@pytest.mark.parametrize("names", [["alice", "Alice"], ["alice", "bo b"], ["alice", ""]])
def test_setup_refuses_duplicate_or_unwritable_player_names(names: list[str]) -> None:
    with pytest.raises(SetupError):
        start(names, make_setup(2, 1, Rules()), Rules())
