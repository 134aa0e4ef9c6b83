"""Running the referee for real: one configuration for every command, a games folder written
only by its owner, and one line (never a traceback) for a configuration or permission error."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee import owner
from referee.cli import app
from referee.cli.common import EXIT_CONFIG

ROOT = Path(__file__).parents[1]
PLAYERS = ["--player", "alice=alice@example.org", "--player", "bob=bob@example.org"]
runner = CliRunner()


def referee(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def test_every_command_reads_the_games_folder_from_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = tmp_path / "var" / "games"
    config = tmp_path / "referee.toml"
    config.write_text(f'games_dir = "{games}"\naddress = "splendor@example.org"\n')
    monkeypatch.chdir(tmp_path)
    assert referee("new", "g1", *PLAYERS, "--config", str(config))[0] == 0
    assert (games / "g1" / "game.toml").is_file() and not (tmp_path / "games").exists()
    for args in (["show", "g1"], ["legal", "g1"], ["log", "g1"], ["games"], ["outbox"],
                 ["replay", "g1", "--verify"], ["check", "g1", "alice", "take 2 red"]):  # fmt: skip
        code, out, err = referee(*args, "--config", str(config))
        assert code == 0, (args, err)
    code, out, _ = referee("games", "--json", env={"REFEREE_CONFIG": str(config)})
    assert code == 0 and json.loads(out)[0]["game"] == "g1"
    code, out, _ = referee("move", "g1", "alice", "take red green blue", "--config", str(config))
    assert code == 0 and "Turn 1" in out
    assert len(list((games / ".mail" / "outbox").glob("*.json"))) == 4  # welcomes and boards
    assert not (tmp_path / "games").exists()


def test_the_command_line_wins_over_the_environment_over_the_config_file(tmp_path: Path) -> None:
    for name in ("file", "env", "flag"):
        folder = str(tmp_path / name)
        assert referee("new", f"g-{name}", *PLAYERS, "--games-dir", folder)[0] == 0
    config = tmp_path / "referee.toml"
    config.write_text(f'games_dir = "{tmp_path / "file"}"\n')

    def listed(*args: str, **env: str) -> list[str]:
        code, out, err = referee("games", "--json", *args, env=env)
        assert code == 0, err
        return [row["game"] for row in json.loads(out)]

    assert listed(REFEREE_CONFIG=str(config)) == ["g-file"]
    assert listed("--config", str(config)) == ["g-file"]
    env = {"REFEREE_CONFIG": str(config), "REFEREE_GAMES_DIR": str(tmp_path / "env")}
    assert listed(**env) == ["g-env"]
    assert listed("--games-dir", str(tmp_path / "flag"), **env) == ["g-flag"]


@pytest.mark.parametrize(
    "args",
    [["games"], ["outbox"], ["show", "g1"], ["log", "g1"], ["move", "g1", "alice", "pass"],
     ["rollback", "g1", "--to", "0", "--reason", "x"]],
    ids=lambda a: a[0],
)  # fmt: skip
def test_a_command_that_finds_no_games_folder_says_so_and_creates_nothing(
    tmp_path: Path, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = referee(*args)
    assert code == 1
    assert "there is no games folder games: give the right one with --games-dir or --config" in err
    assert list(tmp_path.iterdir()) == []


def test_a_bad_config_file_stops_serve_with_one_line_and_the_configuration_status(
    tmp_path: Path,
) -> None:
    code, _, err = referee("serve", "--once", "--config", str(tmp_path / "missing.toml"))
    assert code == EXIT_CONFIG and err.count("\n") == 1 and "no config file" in err
    bad = tmp_path / "bad.toml"
    bad.write_text('address = "not an address"\npoll_seconds = -1\n')
    code, _, err = referee("serve", "--once", "--config", str(bad))
    assert code == EXIT_CONFIG and err.count("\n") == 1
    assert "address" in err and "poll_seconds" in err
    none = tmp_path / "none.toml"
    none.write_text(f'games_dir = "{tmp_path / "games"}"\n')
    code, _, err = referee("serve", "--once", "--config", str(none))
    assert code == EXIT_CONFIG and "no mail transport" in err
    code, _, err = referee("show", "g1", "--config", str(bad))  # other commands: status 1
    assert code == 1 and "are not valid" in err


# -- a games folder that belongs to another user ----------------------------------------------

needs_root = pytest.mark.skipif(
    os.geteuid() != 0, reason="needs root, to give files to another user (nobody)"
)


def give(path: Path, user: str = "nobody") -> None:
    """Hand ``path`` (and all it holds) to ``user``, as if that user had written it."""
    shutil.chown(path, user)
    for inner in path.rglob("*") if path.is_dir() else []:
        shutil.chown(inner, user)


@needs_root
def test_a_command_that_would_write_another_users_games_folder_refuses_in_one_line(
    tmp_path: Path,
) -> None:
    games = tmp_path / "games"
    assert referee("new", "g1", *PLAYERS, "--games-dir", str(games))[0] == 0
    give(games)  # the service's user's, say
    before = sorted(str(p) for p in games.rglob("*"))
    for args in (["move", "g1", "alice", "take red green blue"], ["new", "g2", *PLAYERS],
                 ["rollback", "g1", "--to", "0", "--reason", "x"],
                 ["play", "g1", "--moves", str(tmp_path / "moves.txt")]):  # fmt: skip
        code, _, err = referee(*args, "--games-dir", str(games))
        assert code == 1, args
        assert err == (
            f"referee: the games folder {games} belongs to nobody, but this runs as root: run "
            "it as nobody (runuser -u nobody -- referee …, or as root through the installed "
            "referee command), so that nobody can still write everything it holds\n"
        )
    assert sorted(str(p) for p in games.rglob("*")) == before  # not a lock file more
    assert referee("show", "g1", "--games-dir", str(games))[0] == 0  # reading is fine
    code, _, err = referee("serve", "--once", "--mail-dir", str(tmp_path / "mail"),
                           "--games-dir", str(games))  # fmt: skip
    assert code == EXIT_CONFIG
    assert err == (
        f"referee: the games folder {games} belongs to nobody, but the service was started "
        "as root: run it as nobody, with runuser -u nobody -- referee serve …, or as root "
        "through the installed referee command; run as root, it would leave files nobody "
        "cannot write\n"
    )


@needs_root
def test_root_starting_the_installed_services_folder_is_told_to_run_it_as_its_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = tmp_path / "games"
    assert referee("new", "g1", *PLAYERS, "--games-dir", str(games))[0] == 0
    give(games)  # the installed service's folder: its user is nobody here
    unit = tmp_path / "referee.service"
    unit.write_text("[Service]\nUser=nobody\nGroup=nobody\n")
    monkeypatch.setattr(owner, "INSTALLED_UNIT", unit)
    code, _, err = referee("serve", "--once", "--mail-dir", str(tmp_path / "mail"),
                           "--games-dir", str(games))  # fmt: skip
    assert code == EXIT_CONFIG
    assert "chown" not in err  # (the folder is right: it is the command that is wrong)
    assert "run it as nobody (systemctl start referee, as installed)" in err


@needs_root
@pytest.mark.parametrize("left", [".mail/outbox", "g1/.lock", "g1/turns"])
def test_the_service_meets_a_file_left_by_another_user_with_one_line_and_no_restart(
    tmp_path: Path, left: str
) -> None:
    games = tmp_path / "games"
    assert referee("new", "g1", *PLAYERS, "--games-dir", str(games))[0] == 0
    (games / "g1" / ".lock").touch()
    give(games / left)  # written by a game master's command run as another user
    mail = tmp_path / "mail"
    code, _, err = referee("serve", "--once", "--mail-dir", str(mail), "--games-dir", str(games))
    assert code == EXIT_CONFIG
    assert err == (
        f"referee: {games / left} belongs to nobody, but the service runs as root (a command "
        f"was run as nobody): give the folder to the service's user with chown -R USER: "
        f"{games}, USER being the user the service is to run as (not root), and run the "
        "service and game-master commands as that user, not as root\n"
    )


@needs_root
def test_a_file_of_another_user_names_the_installed_services_user_in_its_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = tmp_path / "games"
    assert referee("new", "g1", *PLAYERS, "--games-dir", str(games))[0] == 0
    give(games / "g1" / "turns")
    unit = tmp_path / "referee.service"
    unit.write_text("[Service]\nUser=nobody\n")
    monkeypatch.setattr(owner, "INSTALLED_UNIT", unit)
    code, _, err = referee("serve", "--once", "--mail-dir", str(tmp_path / "mail"),
                           "--games-dir", str(games))  # fmt: skip
    assert code == EXIT_CONFIG
    assert f"chown -R nobody: {games}" in err and "chown -R root" not in err


@pytest.mark.parametrize(
    ("me", "folder_owner", "installed", "named"),
    [
        (1000, 0, None, "the runner"),  # whoever runs the service is its user
        (0, 1000, None, "the owner"),  # root: the folder's owner
        (0, 0, "referee", "referee"),  # root's folder: the installed service's user
        (0, 0, None, None),  # nobody to name: never root
    ],
)
def test_the_service_user_a_hint_names_is_never_root(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    me: int,
    folder_owner: int,
    installed: str | None,
    named: str | None,
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    real_stat = Path.stat

    def stat(path: Path, **kwargs: bool) -> os.stat_result:
        found = real_stat(path, **kwargs)
        if path != folder:
            return found
        fields = list(found)
        fields[4] = folder_owner  # st_uid
        return os.stat_result(fields)

    names = {0: "root", 1000: "the owner" if me == 0 else "the runner"}
    monkeypatch.setattr(owner.os, "geteuid", lambda: me)
    monkeypatch.setattr(Path, "stat", stat)
    monkeypatch.setattr(owner, "user_name", lambda uid: names[uid])
    unit = tmp_path / "referee.service"
    if installed:
        unit.write_text(f"[Service]\nUser={installed}\n")
    monkeypatch.setattr(owner, "INSTALLED_UNIT", unit)
    assert owner.service_user(folder) == named
    assert not owner.hand_over(folder).startswith("chown -R root")


# -- players' addresses in special-use domains ---------------------------------------------------


def test_a_player_in_a_special_use_domain_is_refused_with_the_reason_unless_allowed(
    tmp_path: Path,
) -> None:
    games = str(tmp_path / "games")
    local = ["--player", "ann=ann@example.org", "--player", "bob=bob@host.local"]
    code, _, err = referee("new", "g1", *local, "--games-dir", games)
    assert code == 1
    assert err == (
        "referee: player bob: 'bob@host.local' cannot play: its domain "
        "ends in .local, a special-use name for names on one local network only (multicast "
        "DNS, RFC 6762), which mail from the internet never reaches; to play with addresses "
        'there on a private mail system, add "host.local" to private_domains in the settings\n'
    )
    config = tmp_path / "referee.toml"
    config.write_text('private_domains = ["local"]\n')
    assert referee("new", "g1", *local, "--games-dir", games, "--config", str(config))[0] == 0
    # the referee's own domain is always allowed: its players share its private mail system
    own = {"REFEREE_ADDRESS": "splendor@club.test"}
    club = ["--player", "ann=ann@club.test", "--player", "bob=bob@club.test"]
    assert referee("new", "g2", *club, "--games-dir", games, env=own)[0] == 0
    code, _, err = referee("player", "g2", "bob", "--email", "bob@other.test", "--reason", "x",
                           "--games-dir", games, env=own)  # fmt: skip
    assert code == 1 and "its domain ends in .test" in err and '"other.test"' in err
    code, _, _ = referee("player", "g2", "bob", "--email", "bob@lab.club.test", "--reason", "x",
                         "--games-dir", games, env=own)  # fmt: skip
    assert code == 0
