"""The command line of docs/interface.md, through typer's runner and the installed command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.record import load_game, load_turn
from referee.timing import due_at
from tests.recorded import recorded_game

runner = CliRunner()
PLAYERS = ["--player", "alice=alice@example.org", "--player", "bob=bob@example.org"]


def cli(games: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--games-dir", str(games)])
    return result.exit_code, result.stdout, result.stderr


def test_new_creates_a_game_and_shows_the_board(tmp_path: Path) -> None:
    code, out, _ = cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    assert code == 0
    assert "Created game g1: alice (seat 0), bob (seat 1). alice moves first." in out
    assert "BANK      white 4  blue 4  green 4  red 4  black 4  gold 5" in out
    assert (tmp_path / "g1" / "game.toml").is_file()


def test_new_with_a_setup_file_fixes_decks_nobles_and_bank(tmp_path: Path) -> None:
    setup = tmp_path / "setup.toml"
    level2 = [f"2-{i:02d}" for i in range(30, 0, -1)]
    setup.write_text(
        f'decks = {{2 = {json.dumps(level2)}}}\nnobles = ["N1", "N2", "N3"]\nbank = {{red = 2}}\n'
    )
    code, out, err = cli(tmp_path, "new", "g1", *PLAYERS, "--setup", str(setup), "--json")
    assert code == 0, err
    state = json.loads(out)
    assert state["board"]["2"] == ["2-30", "2-29", "2-28", "2-27"]
    assert state["nobles"] == ["N1", "N2", "N3"] and state["bank"]["red"] == 2


def test_new_rule_options_and_bad_requests(tmp_path: Path) -> None:
    code, out, _ = cli(
        tmp_path, "new", "g1", *PLAYERS, "--points-to-win", "10", "--gold", "0", "--json"
    )
    assert code == 0 and json.loads(out)["rules"] == {"points_to_win": 10, "gold": 0}
    code, _, err = cli(tmp_path, "new", "g2", "--player", "alice")
    assert code == 1 and "write NAME=EMAIL" in err
    code, _, err = cli(tmp_path, "new", "g3", "--player", "alice=a@x.org")
    assert code == 1 and "2 to 4 players, not 1" in err
    code, _, err = cli(tmp_path, "new", "G 4", *PLAYERS)
    assert code == 1 and "game id 'G 4'" in err
    code, _, _ = cli(tmp_path, "new")
    assert code == 2


def test_move_plays_and_refuses_with_exit_1_and_the_reason(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    code, out, _ = cli(tmp_path, "move", "g1", "alice", "take red green blue")
    assert code == 0 and "Turn 1: alice played take blue green red" in out
    code, out, err = cli(tmp_path, "move", "g1", "alice", "take red green blue")
    assert code == 1 and out == "" and "it is bob's turn, not alice's" in err
    code, out, _ = cli(tmp_path, "move", "g1", "bob", "take 2 x", "--json")
    error = json.loads(out)["error"]
    assert code == 1 and error["kind"] == "invalid" and error["input"] == "take 2 x"


def test_move_dry_run_judges_without_playing(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    code, out, _ = cli(tmp_path, "move", "g1", "alice", "reserve deck 3", "--dry-run")
    assert code == 0 and "alice would play reserve deck 3" in out
    assert not list((tmp_path / "g1" / "turns").iterdir())


def test_move_accepts_a_json_move(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    code, out, _ = cli(
        tmp_path, "move", "g1", "alice", '{"type": "take", "gems": {"white": 2}}', "--json"
    )
    body = json.loads(out)
    assert code == 0 and body["move"]["gems"] == {"white": 2} and body["turn"] == 1


def test_ambiguous_move_under_json_lists_candidates(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    moves = [
        ("alice", "take white blue green"),
        ("bob", "take red black white"),
        ("alice", "take red black white"),
        ("bob", "take blue green black"),
        ("alice", "take blue green red"),  # alice holds 9
        ("bob", "take white blue green"),
    ]
    for name, text in moves:
        assert cli(tmp_path, "move", "g1", name, text)[0] == 0
    code, out, _ = cli(tmp_path, "move", "g1", "alice", "take red black", "--json")
    error = json.loads(out)["error"]
    assert code == 1 and error["kind"] == "ambiguous"
    assert "you would hold 11 tokens: say which 1 to return" in error["message"]
    assert "take red black, return white" in error["candidates"]


def test_show_as_a_player_and_after_a_turn_and_as_json(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    cli(tmp_path, "move", "g1", "alice", "reserve deck 3")
    code, mine, _ = cli(tmp_path, "show", "g1", "--as", "alice")
    assert code == 0 and "(reserved blind)" in mine and "As alice sees it." in mine
    code, public, _ = cli(tmp_path, "show", "g1")
    assert "a level 3 card, reserved blind (hidden)" in public
    code, out, _ = cli(tmp_path, "show", "g1", "--turn", "0", "--json")
    assert json.loads(out)["turn"] == 0 and json.loads(out)["players"][0]["reserved"] == []
    code, out, _ = cli(tmp_path, "show", "g1", "--as", "bob", "--json")
    assert json.loads(out)["players"][0]["reserved"][0]["card"] is None
    code, _, err = cli(tmp_path, "show", "g1", "--turn", "5")
    assert code == 1 and "turn 5 is not in this game" in err
    code, _, err = cli(tmp_path, "show", "g1", "--as", "zed")
    assert code == 1 and "no player called 'zed'" in err


def test_legal_lists_every_move_as_text_or_json(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    code, out, _ = cli(tmp_path, "legal", "g1")
    assert code == 0 and out.startswith("alice to move at turn 0: ")
    assert "  take white blue green\n" in out and "  reserve deck 3\n" in out
    code, out, _ = cli(tmp_path, "legal", "g1", "--json")
    body = json.loads(out)
    assert (
        body["player"] == "alice"
        and {"type": "reserve", "deck": 3, "return": {}, "noble": None} in body["moves"]
    )


def test_play_runs_a_moves_file_and_stops_at_the_first_refusal_naming_its_line(
    tmp_path: Path,
) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    moves = tmp_path / "moves.txt"
    moves.write_text(
        "# opening\nalice take red green blue\n\nbob take 2 white\n"
        "alice take 2 white\nbob reserve deck 1\n"
    )
    code, out, err = cli(tmp_path, "play", "g1", "--moves", str(moves))
    assert code == 1 and "Turn 2: bob take 2 white" in out
    assert "line 5" in err and "taking 2 white needs at least 4 white" in err
    code, out, _ = cli(tmp_path, "log", "g1")
    assert "moves file" in out and "line 4" in out


def test_replay_verify_names_the_first_bad_turn(tmp_path: Path) -> None:
    recorded_game(tmp_path, turns=6)
    code, out, _ = cli(tmp_path, "replay", "g1", "--verify")
    assert code == 0 and "Verified: 6 turns" in out
    (tmp_path / "g1" / "turns" / "0004.toml").unlink()
    code, out, err = cli(tmp_path, "replay", "g1", "--verify")
    assert code == 1 and "turn 4 is missing" in err
    code, out, _ = cli(tmp_path, "replay", "g1", "--verify", "--json")
    assert json.loads(out)["error"]["turn"] == 4
    code, out, err = cli(tmp_path, "replay", "g1")
    assert code == 0 and "stopped at turn 4" in err
    code, _, err = cli(tmp_path, "show", "g1")
    assert code == 1 and "turn 4 is missing" in err


def test_rollback_check_log_and_games_for_the_game_master(tmp_path: Path) -> None:
    recorded_game(tmp_path, turns=6)
    code, out, _ = cli(tmp_path, "rollback", "g1", "--to", "4", "--reason", "misread reply")
    assert code == 0 and "back at turn 4" in out
    code, out, _ = cli(tmp_path, "log", "g1")
    assert "ROLLBACK to turn 4 (2 undone" in out and "misread reply" in out
    code, out, _ = cli(tmp_path, "check", "g1", "alice", "take 2 red", "--turn", "0")
    assert code == 0 and "Legal after turn 0: alice take 2 red" in out
    code, out, err = cli(tmp_path, "check", "g1", "bob", "take 2 red", "--turn", "0")
    assert code == 1 and "it is alice's turn, not bob's" in err
    code, out, _ = cli(tmp_path, "games")
    assert out.startswith("g1") and "turn   4" in out
    code, out, _ = cli(tmp_path, "games", "--json")
    assert json.loads(out)[0]["turn"] == 4


def test_games_json_is_the_list_interface_md_gives(tmp_path: Path) -> None:
    """docs/interface.md: `referee games --json` prints
    `[{"game", "status", "turn", "to_move", "deadline", "players"}]`: a list, not an object."""
    recorded_game(tmp_path, turns=2)
    code, out, _ = cli(tmp_path, "games", "--json")
    rows = json.loads(out)
    assert code == 0 and isinstance(rows, list) and len(rows) == 1
    assert {"game", "status", "turn", "to_move", "deadline", "players"} <= set(rows[0])
    assert rows[0]["game"] == "g1" and rows[0]["status"] == "playing" and rows[0]["turn"] == 2


def test_games_dir_comes_from_the_environment_too(tmp_path: Path) -> None:
    result = runner.invoke(app, ["new", "g1", *PLAYERS], env={"REFEREE_GAMES_DIR": str(tmp_path)})
    assert result.exit_code == 0 and (tmp_path / "g1").is_dir()


def installed_referee() -> str:
    found = shutil.which("referee", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("the referee command is not installed beside this Python")
    return found


def test_the_installed_command_plays_a_move(tmp_path: Path) -> None:
    referee = installed_referee()
    env = {"REFEREE_GAMES_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    subprocess.run(
        [referee, "new", "g1", *PLAYERS, "--seed", "3"], env=env, check=True, capture_output=True
    )
    done = subprocess.run(
        [referee, "move", "g1", "alice", "take 2 red", "--json"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["turn"] == 1
    refused = subprocess.run(
        [referee, "move", "g1", "alice", "pass"], env=env, capture_output=True, text=True
    )
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.startswith("referee: 'pass': it is bob's turn")
    usage = subprocess.run([referee, "move"], env=env, capture_output=True, text=True)
    assert usage.returncode == 2


def test_outbox_shows_letters_waiting_to_be_sent(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    code, out, _ = cli(tmp_path, "outbox")
    assert code == 0
    assert "2 letter(s) waiting to be sent, 0 refused for good." in out
    assert "to alice@example.org: Your move · Splendor g1 · turn 0" in out
    code, out, _ = cli(tmp_path, "outbox", "--json")
    body = json.loads(out)
    assert [r["to"] for r in body["waiting"]] == ["alice@example.org", "bob@example.org"]
    assert body["failed"] == []


THREE = [*PLAYERS, "--player", "carol=carol@example.org"]


def test_new_takes_a_deadline_a_timeout_policy_and_spectators(tmp_path: Path) -> None:
    code, out, err = cli(
        tmp_path,
        "new",
        "g1",
        *PLAYERS,
        "--deadline",
        "3d",
        "--timeout",
        "forfeit",
        "--spectators",
        "--json",
    )
    assert code == 0, err
    record = load_game((tmp_path / "g1" / "game.toml").read_bytes())
    assert (record.deadline, record.timeout, record.spectators) == ("3d", "forfeit", True)
    assert json.loads(out)["deadline"] == (record.created + timedelta(days=3)).isoformat()
    cli(tmp_path, "new", "g2", *PLAYERS)
    record = load_game((tmp_path / "g2" / "game.toml").read_bytes())
    assert (record.time_per_move, record.timeout, record.spectators) == (
        timedelta(days=7),
        "wait",
        False,
    )
    code, _, err = cli(tmp_path, "new", "g3", *PLAYERS, "--deadline", "90d")
    assert code == 1 and "a deadline of 90d is out of range" in err
    code, _, err = cli(tmp_path, "new", "g3", *PLAYERS, "--deadline", "soon")
    assert code == 1 and "'soon' is not a duration" in err
    code, _, err = cli(tmp_path, "new", "g3", *PLAYERS, "--timeout", "never")
    assert code == 1 and "--timeout 'never': write wait, forfeit or bot" in err
    assert not (tmp_path / "g3").exists()


def test_resign_leaves_the_game_out_of_turn_and_is_refused_twice(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *THREE, "--seed", "7")
    code, out, err = cli(tmp_path, "resign", "g1", "bob")
    assert code == 0, err
    assert out == "Turn 1: bob resigned and left the game.\nalice to move.\n"
    code, out, err = cli(tmp_path, "resign", "g1", "bob")
    assert code == 1 and out == ""
    assert err == (
        "referee: 'resign': bob has resigned already and is out of the game: only "
        "a player still in (alice, carol) can resign\n"
    )
    code, out, err = cli(tmp_path, "move", "g1", "bob", "take red green blue")
    assert code == 1 and "bob has resigned: they are out of the game" in err
    code, out, _ = cli(tmp_path, "move", "g1", "carol", "I resign", "--json")
    body = json.loads(out)
    assert code == 0 and body["player"] == "carol" and body["move"] == {"type": "resign"}
    assert body["text"] == "resign" and body["state"]["status"] == "finished"
    assert body["state"]["winners"] == ["alice"] and body["state"]["deadline"] is None
    code, out, _ = cli(tmp_path, "resign", "g1", "alice", "--json")
    error = json.loads(out)["error"]
    assert code == 1 and error["kind"] == "illegal"
    assert error["message"] == "the game is over: alice cannot resign from a finished game"


def test_show_marks_resigned_players_and_never_shows_their_reserved_cards(
    tmp_path: Path,
) -> None:
    cli(tmp_path, "new", "g1", *THREE, "--seed", "7")
    cli(tmp_path, "move", "g1", "alice", "reserve deck 3")
    secret = json.loads(cli(tmp_path, "show", "g1", "--as", "alice", "--json")[1])["players"][0][
        "reserved"
    ][0]["card"]
    assert secret is not None
    assert cli(tmp_path, "resign", "g1", "alice")[0] == 0  # out of turn: bob is to move
    for viewer in ([], ["--as", "alice"], ["--as", "bob"], ["--as", "carol"]):
        code, out, _ = cli(tmp_path, "show", "g1", *viewer, "--json")
        body = json.loads(out)
        assert code == 0 and secret not in out
        assert [p["resigned"] for p in body["players"]] == [True, False, False]
        assert body["players"][0]["reserved"] == [] and body["to_move"] == "bob"
    code, out, _ = cli(tmp_path, "show", "g1")
    assert "alice (resigned: out of the game, cannot win): 0 points" in out
    assert "bob (to move): 0 points" in out and secret not in out
    code, out, _ = cli(tmp_path, "show", "g1", "--turn", "1", "--as", "alice", "--json")
    assert secret in out, "before resigning, alice saw her own blind card"


def test_show_json_says_when_the_move_is_due(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7", "--deadline", "2d")
    created = load_game((tmp_path / "g1" / "game.toml").read_bytes()).created
    body = json.loads(cli(tmp_path, "show", "g1", "--json")[1])
    assert list(body)[:5] == ["game", "turn", "status", "to_move", "deadline"]
    assert body["deadline"] == (created + timedelta(days=2)).isoformat()
    cli(tmp_path, "move", "g1", "alice", "take red green blue")
    played = load_turn((tmp_path / "g1" / "turns" / "0001.toml").read_bytes(), "0001.toml")
    body = json.loads(cli(tmp_path, "show", "g1", "--json")[1])
    assert body["deadline"] == (played.at + timedelta(days=2)).isoformat()
    body = json.loads(cli(tmp_path, "show", "g1", "--turn", "0", "--json")[1])
    assert body["deadline"] == (created + timedelta(days=2)).isoformat()
    rows = json.loads(cli(tmp_path, "games", "--json")[1])
    assert rows[0]["deadline"] == (played.at + timedelta(days=2)).isoformat()


def test_due_at_is_the_deadline_after_the_last_move() -> None:
    since = datetime(2027, 1, 1, 12, tzinfo=UTC)
    assert due_at(since, timedelta(days=3)) == datetime(2027, 1, 4, 12, tzinfo=UTC)


def test_log_and_replay_show_a_resignation_like_any_turn(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *THREE, "--seed", "7")
    cli(tmp_path, "move", "g1", "alice", "reserve deck 1")
    cli(tmp_path, "resign", "g1", "carol")
    cli(tmp_path, "move", "g1", "bob", "resign")
    code, out, _ = cli(tmp_path, "log", "g1")
    assert code == 0 and "turn   2  carol      resign  [command line]" in out
    code, out, _ = cli(tmp_path, "replay", "g1", "--verify")
    assert code == 0 and "Verified: 3 turns" in out and "   3  bob        resign" in out
    assert "finished: alice wins" in out
    code, out, _ = cli(tmp_path, "replay", "g1", "--verify", "--json")
    assert json.loads(out)["state"]["deadline"] is None
    rows = json.loads(cli(tmp_path, "games", "--json")[1])
    assert rows[0]["status"] == "finished" and rows[0]["deadline"] is None


def test_log_json_shows_a_move_ruled_sent_in_time_with_its_time_as_text(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *THREE, "--seed", "7")
    sent = datetime.now(UTC).replace(microsecond=0)  # (after the game was made, not after now)
    code, _, err = cli(
        tmp_path, "move", "g1", "alice", "reserve deck 1",
        "--as-of", sent.isoformat(), "--reason", "sent before the deadline",
    )  # fmt: skip
    assert code == 0, err
    code, out, err = cli(tmp_path, "log", "g1", "--json")
    assert code == 0, err
    (turn,) = [e for e in json.loads(out)["log"] if e["event"] == "turn"]
    assert turn["source"]["as_of"] == sent.isoformat()
    assert turn["source"]["reason"] == "sent before the deadline"


def test_version_prints_the_installed_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"referee {metadata.version('referee')}\n"


def test_the_docs_never_tell_a_game_master_to_use_sudo() -> None:
    """Debian has no sudo unless one installs it: the steps say "as root" instead."""
    root = Path(__file__).parents[1]
    told = [root / "README.md", *sorted((root / "docs").glob("*.md")),
            root / "scripts" / "install-service"]  # fmt: skip
    for path in told:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if "sudo" in line and "Debian has no `sudo`" not in line:
                assert "put `sudo` before" in line, f"{path.name}:{number}: {line}"


# -- languages -------------------------------------------------------------------------------


def test_new_with_a_language_records_it_and_shows_the_board_in_it(tmp_path: Path) -> None:
    code, out, _ = cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7", "--language", "cy")
    assert code == 0 and "BANC      gwyn 4  glas 4" in out
    assert load_game((tmp_path / "g1" / "game.toml").read_bytes()).language == "cy"
    code, out, _ = cli(tmp_path, "show", "g1", "--lang", "bn")
    assert code == 0 and "ব্যাংক" in out
    code, out, _ = cli(tmp_path, "show", "g1")
    assert code == 0 and "BANK      white 4" in out  # the settings' language: English
    code, _, err = cli(tmp_path, "show", "g1", "--lang", "xx")
    assert code != 0 and "'xx'" in err and "cy" in err and "bn" in err


def test_player_sets_a_players_language_and_time_zone(tmp_path: Path) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    code, out, _ = cli(
        tmp_path, "player", "g1", "bob", "--language", "is", "--timezone", "atlantic/reykjavik",
        "--json",
    )  # fmt: skip
    assert code == 0
    assert json.loads(out) == {
        "game": "g1", "player": "bob", "email": "bob@example.org", "language": "is",
        "timezone": "Atlantic/Reykjavik", "mail": "every-turn",
    }  # fmt: skip
    code, _, err = cli(tmp_path, "player", "g1", "bob", "--timezone", "Mars/Olympus")
    assert code != 0 and "Mars/Olympus" in err
    code, _, err = cli(tmp_path, "player", "g1", "bob")
    assert code != 0 and "--email" in err and "--language" in err


def test_player_with_a_new_address_and_a_language_keeps_both_and_says_both_as_json(
    tmp_path: Path,
) -> None:
    cli(tmp_path, "new", "g1", *PLAYERS, "--seed", "7")
    code, out, err = cli(
        tmp_path, "player", "g1", "bob", "--email", "bob@new.example.org", "--reason", "moved",
        "--language", "cy", "--json",
    )  # fmt: skip
    assert code == 0, err
    told = json.loads(out)
    assert (told["email"], told["was"], told["amendment"]) == (
        "bob@new.example.org", "bob@example.org", 1,
    )  # fmt: skip
    assert told["language"] == "cy"
    code, out, _ = cli(tmp_path, "player", "g1", "bob", "--mail", "my-turn", "--json")
    assert code == 0 and json.loads(out)["language"] == "cy"  # kept for the new address


def test_export_writes_the_replay_page_in_the_language_asked_for(tmp_path: Path) -> None:
    games = Path(__file__).parents[1] / "games"
    page = tmp_path / "page.html"
    code, _, _ = cli(games, "export", "example", "--html", str(page), "--lang", "eo")
    assert code == 0 and '<html lang="eo">' in page.read_text()
