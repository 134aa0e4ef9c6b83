"""Computer players on the command line: seats played by bots (referee new --bot), a game
of bots played out (referee play-bots), and a hint (referee hint)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from referee.cli import app
from referee.engine import legal_moves
from referee.notation import format_move
from referee.store import Store

runner = CliRunner()


def referee(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_game_of_bots_is_played_out_and_replays_without_a_bot(tmp_path: Path) -> None:
    games = str(tmp_path)
    code, _, err = referee("new", "b1", "--bot", "robo=greedy", "--bot", "rando=random",
                           "--seed", "4", "--games-dir", games)  # fmt: skip
    assert code == 0, err
    code, out, err = referee("play-bots", "b1", "--json", "--games-dir", games)
    assert code == 0, err
    body = json.loads(out)
    assert body["status"] == "finished" and body["played"]
    game = Store(tmp_path).load("b1")
    assert all(t.source.kind == "bot" and t.source.seed is not None for t in game.turns)
    assert {t.source.level for t in game.turns} == {"greedy", "random"}
    assert referee("replay", "b1", "--verify", "--games-dir", games)[0] == 0


def test_the_same_seeds_give_the_same_bot_game(tmp_path: Path) -> None:
    for name in ("x1", "x2"):
        referee("new", name, "--bot", "a=greedy", "--bot", "b=random", "--seed", "9",
                "--bot-seed", "12", "--games-dir", str(tmp_path))  # fmt: skip
        referee("play-bots", name, "--games-dir", str(tmp_path))
    store = Store(tmp_path)
    moves = [[t.move.text for t in store.load(g).turns] for g in ("x1", "x2")]
    assert moves[0] == moves[1] and moves[0]


def test_play_bots_stops_at_a_persons_turn_and_sends_the_person_the_boards(
    tmp_path: Path,
) -> None:
    games = str(tmp_path)
    referee("new", "h1", "--bot", "robo=greedy", "--player", "ann=ann@example.org",
            "--seed", "2", "--games-dir", games)  # fmt: skip
    game = Store(tmp_path).load("h1")
    assert [p.name for p in game.record.players] == ["ann", "robo"]  # bots after people
    code, out, _ = referee("play-bots", "h1", "--games-dir", games)
    assert code == 0 and "ann to move" in out  # ann moves first: nothing to play
    referee("move", "h1", "ann", format_move(legal_moves(game.state)[0]), "--games-dir", games)
    code, out, _ = referee("play-bots", "h1", "--games-dir", games)
    assert "robo (bot)" in out and Store(tmp_path).load("h1").state.turn == 2
    outbox = [p.read_text() for p in (tmp_path / ".mail" / "outbox").glob("*.json")]
    assert outbox and not [o for o in outbox if "bots.invalid" in o]  # never mail to a bot


def test_hint_says_what_a_bot_would_play_and_why(tmp_path: Path) -> None:
    games = str(tmp_path)
    referee("new", "g1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org",
            "--seed", "5", "--games-dir", games)  # fmt: skip
    code, out, err = referee("hint", "g1", "ann", "--level", "greedy", "--json",
                             "--games-dir", games)  # fmt: skip
    assert code == 0, err
    body = json.loads(out)
    state = Store(tmp_path).load("g1").state
    assert body["move"] in [format_move(m) for m in legal_moves(state)] and body["why"]
    code, _, err = referee("hint", "g1", "bob", "--games-dir", games)
    assert code == 1 and "ann's turn" in err
    code, _, err = referee("hint", "g1", "ann", "--level", "genius", "--games-dir", games)
    assert code == 1 and "random, greedy, search" in err


def test_hint_from_the_expert_is_a_legal_move_and_one_line_of_why(tmp_path: Path) -> None:
    games = str(tmp_path)
    referee("new", "e1", "--player", "ann=ann@example.org", "--bot", "deep=expert",
            "--seed", "6", "--games-dir", games)  # fmt: skip
    code, out, err = referee("hint", "e1", "ann", "--level", "expert", "--json",
                             "--games-dir", games)  # fmt: skip
    assert code == 0, err
    body = json.loads(out)
    state = Store(tmp_path).load("e1").state
    assert body["level"] == "expert"
    assert body["move"] in [format_move(m) for m in legal_moves(state)]
    assert body["why"] and "\n" not in body["why"]
    referee("move", "e1", "ann", body["move"], "--games-dir", games)
    code, out, err = referee("play-bots", "e1", "--json", "--games-dir", games)
    assert code == 0, err  # the expert seat answers
    assert Store(tmp_path).load("e1").turns[-1].source.level == "expert"
