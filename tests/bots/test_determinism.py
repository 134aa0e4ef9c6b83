"""The same view and seed give the same move: in this process and in another one (where
string hashing, and so the order of sets, differs)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from referee.bots import LEVELS, choose
from referee.engine import view
from tests.bots.positions import random_positions

PROBE = """
import random, sys
from referee.bots import choose
from referee.engine import view
from tests.bots.positions import random_positions
state = list(random_positions(2, every=9))[3]
print(choose("search", view(state, state.player.name), random.Random(5), 80))
"""


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_and_seed_give_the_same_move(level: str) -> None:
    for state in list(random_positions(3, every=11))[:8]:
        seen = view(state, state.player.name)
        first = choose(level, seen, random.Random(7), 40)
        again = choose(level, seen, random.Random(7), 40)
        assert first == again
        assert choose(level, seen, 7, 40) == first  # a seed is as good as a generator


def test_the_search_is_the_same_in_another_process_with_other_string_hashes() -> None:
    state = list(random_positions(2, every=9))[3]
    here = str(choose("search", view(state, state.player.name), random.Random(5), 80))
    for hash_seed in ("1", "2"):
        there = subprocess.run(
            [sys.executable, "-c", PROBE],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": hash_seed, "PATH": ""},
        ).stdout.strip()
        assert there == here


def test_a_different_seed_may_give_a_different_but_still_legal_move() -> None:
    state = list(random_positions(1, every=5))[2]
    seen = view(state, state.player.name)
    moves = {choose("random", seen, seed).move for seed in range(20)}
    assert len(moves) > 1
