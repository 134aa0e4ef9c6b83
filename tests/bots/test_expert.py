"""The expert bot: its model ships in the wheel and is read as data, its features of a known
position, the winning buy, a seeded game replayed move for move, and the training script
(a tiny run, reproducible from its seed)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from referee.bots import choose
from referee.bots.features import NAMES, WIDTH, features
from referee.bots.scoring import worth
from referee.bots.value import MODEL_FILE, ModelError, model_of, shipped_model
from referee.engine import Buy, GameState, apply, outcome, view
from referee.wording import ENGLISH
from tests.positions import bank, dealt, holding, new_game, without_cards

ROOT = Path(__file__).parents[2]


def last_round_with_a_winning_buy() -> GameState:
    """Bob, last to move in the round, has 13 points and can buy 2-03 (2 points, 5 red):
    that ends the game with him ahead of alice's 14."""
    alice_cards, bob_cards = ["3-04", "3-08", "3-07"], ["3-12", "3-10", "3-02"]
    state = without_cards(dealt(2, top={2: ["2-03"]}, seed=8), alice_cards + bob_cards)
    state = holding(state, 0, cards=alice_cards)
    state = holding(state, 1, cards=bob_cards, tokens_=bank(white=1, blue=1, red=5, black=1))
    return replace(state, to_move=1, turn=1)


def test_the_model_is_read_from_the_installed_wheel(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
    )
    (wheel,) = tmp_path.glob("referee-*.whl")
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), wheel],
        check=True,
    )
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); import referee; "
        "from referee.bots.value import shipped_model; m = shipped_model(); "
        "print(referee.__file__); print(len(m.weights), len(m.hidden), m.made['command'])"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe, str(site)],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout.splitlines()
    assert found[0].startswith(str(site)), found  # the wheel's package, not the checkout's
    model = shipped_model()
    assert found[1] == f"{WIDTH} {len(model.hidden)} {model.made['command']}"


def test_the_shipped_model_says_what_made_it() -> None:
    made = shipped_model().made
    assert made["script"] == "scripts/train-bot"
    assert made["command"].startswith("scripts/train-bot ")
    assert made["positions"] > 10_000 and made["games"] > 100
    assert isinstance(made["script_version"], int) and isinstance(made["seed"], int)
    for played in made["self_play"]:  # what played the games it learned from
        assert played["command"].startswith("scripts/train-bot ") and played["teacher"]
    assert sum(played["positions"] for played in made["self_play"]) == made["positions"]


def test_a_model_for_other_features_or_not_numbers_is_refused() -> None:
    data = json.loads((ROOT / "referee" / "data" / MODEL_FILE).read_text())
    assert model_of(data) == shipped_model()
    with pytest.raises(ModelError, match="other features"):
        model_of({**data, "features": [*data["features"][:-1], "something.else"]})
    with pytest.raises(ModelError, match="format"):
        model_of({**data, "format": 99})
    with pytest.raises(ModelError, match="'weights' is not a list"):
        model_of({**data, "weights": [*data["weights"][:-1], "__import__('os')"]})
    with pytest.raises(ModelError, match="'mean' is not a list"):
        model_of({**data, "mean": data["mean"][:-1]})
    with pytest.raises(ModelError, match="'scale'"):
        model_of({**data, "scale": [0.0] * WIDTH})
    with pytest.raises(ModelError, match="JSON object"):
        model_of([1, 2, 3])


def test_the_features_of_a_known_position() -> None:
    state = last_round_with_a_winning_buy()
    alice, bob = (dict(zip(NAMES, row, strict=True)) for row in features(state) if row)
    assert (alice["points"], bob["points"]) == (14 / 15, 13 / 15)
    assert alice["bonuses"] == bob["bonuses"] == 3 / 10
    assert (alice["tokens"], bob["tokens"]) == (0.0, 8 / 10)
    assert alice["gold"] == bob["gold"] == alice["reserved"] == bob["reserved"] == 0.0
    assert (alice["lead"], bob["lead"]) == (1 / 15, -1 / 15)
    assert alice["reached"] == bob["reached"] == 0.0
    assert (alice["to.move"], bob["to.move"]) == (0.0, 1.0)
    assert (alice["still.to.play"], bob["still.to.play"]) == (0.0, 1.0)  # alice has moved
    assert alice["cards"] == bob["cards"] == 3 / 20
    assert alice["points.late"] == pytest.approx(14 / 15 * 14 / 15)
    assert alice["lead.reached"] == alice["still.to.play.reached"] == 0.0
    assert bob["affordable"] >= 1 / 4 and bob["affordable.points"] >= 2 / 5  # 2-03 at least
    board = [c for row in state.board for c in row if c is not None]
    p = state.players[1]
    assert bob["worth"] == pytest.approx(
        worth(p.points, p.bonuses, p.tokens, [], board, state.nobles, 15) / 15
    )


def test_a_resigned_seat_has_no_row_and_no_share_of_the_win() -> None:
    state = replace(new_game(3, 4), resigned=(1,))
    rows = features(state)
    assert rows[1] is None and rows[0] is not None and rows[2] is not None
    shares = shipped_model().shares(state)
    assert shares[1] == 0.0 and sum(shares) == pytest.approx(1.0)


def test_the_expert_finds_the_buy_that_wins_the_game() -> None:
    state = last_round_with_a_winning_buy()
    choice = choose("expert", view(state, "bob"), 3, 300)
    assert choice.move == Buy("2-03", bank(red=5))
    assert ENGLISH.say(choice.why).startswith("buys 2-03: 2 points")
    assert "\n" not in ENGLISH.say(choice.why)  # a hint's reason is one line
    after = apply(state, choice.move)
    assert after.status == "finished" and outcome(after) == ["bob"]


def test_the_model_favours_the_player_who_has_won_the_race() -> None:
    """After bob's winning buy is made in the model's eyes (he leads on points with the
    round over for both), the model gives him the larger share."""
    state = last_round_with_a_winning_buy()
    bob_far_ahead = holding(state, 1, cards=["3-12", "3-10", "3-02", "3-01", "3-03"])
    alice_share, bob_share = shipped_model().shares(bob_far_ahead)
    assert bob_share > alice_share


def _seeded_game(seed: int) -> list[str]:
    state = new_game(2, seed)
    levels = ("expert", "greedy") if seed % 2 else ("greedy", "expert")
    moves = []
    while state.status != "finished" and state.turn < 200:
        seat = state.to_move
        seen = view(state, state.players[seat].name)
        move = choose(levels[seat], seen, random.Random(f"{seed}/{state.turn}"), 25).move
        moves.append(repr(move))
        state = apply(state, move)
    return moves


def test_a_seeded_game_with_the_expert_is_played_again_move_for_move() -> None:
    first = _seeded_game(11)
    assert len(first) > 20
    assert _seeded_game(11) == first


def test_the_training_script_makes_the_same_model_from_the_same_seed(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import train_bot
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    made = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.json"
        args = ["--games", "3", "--playouts", "3", "--epochs", "2", "--hidden", "2"]
        assert train_bot.main([*args, "--seed", "4", "--out", str(out)]) == 0
        made.append(json.loads(out.read_text()))
    model = model_of(made[0])  # what it writes, the bot reads
    assert len(model.hidden) == 2 and made[0]["made"]["games"] == 3
    assert made[0]["made"]["command"] == "scripts/train-bot " + " ".join(
        [*args, "--seed", "4", "--out", str(tmp_path / "a.json")]
    )
    for key in ("mean", "scale", "weights", "hidden", "bias", "out"):
        assert made[0][key] == made[1][key], key
