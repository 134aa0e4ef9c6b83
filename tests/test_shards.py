"""Games shared out among several workers: the rule by a name's last letter, the names a
worker makes, the Postfix table `referee shard` prints (checked with Postfix's own
``postmap``), each worker's settings, and what a worker's LMTP door takes, refuses and
hands on."""

from __future__ import annotations

import json
import random
import subprocess
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli import app
from referee.errors import ConfigurationError
from referee.games import create_game
from referee.mail.reading.routing import message_id, reply_address
from referee.mail.transports.sharding import Door
from referee.settings import load_settings
from referee.shards import BASE32, MOST_WORKERS, ORDER, Shards, postfix_map
from referee.store import Store

REFEREE = "referee@example.org"
KEY = "abcdefghijklmnop"
game_ids = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,11}", fullmatch=True)


def plan(count: int, this: int = 1, moved: dict[str, int] | None = None) -> Shards:
    return Shards(tuple(f"127.0.0.1:{2401 + n}" for n in range(count)), this, moved or {})


@given(game_ids, st.integers(1, MOST_WORKERS))
def test_every_game_is_kept_by_exactly_one_worker(game: str, count: int) -> None:
    keepers = [n for n in range(1, count + 1) if plan(count, n).keeps(game)]
    assert keepers == [plan(count).owner(game)]


@given(st.text(BASE32, min_size=8, max_size=16), st.integers(1, MOST_WORKERS), st.data())
def test_the_names_a_worker_makes_are_its_own_and_the_same_each_time(
    name: str, count: int, data: st.DataObject
) -> None:
    this = data.draw(st.integers(1, count))
    shards = plan(count, this)
    settled = shards.settle(name)
    assert shards.keeps(settled) and settled == shards.settle(name)
    assert settled[:-1] == name[:-1] and settled[-1] in BASE32
    if shards.keeps(name):
        assert settled == name


def test_the_letters_are_dealt_out_in_turn_so_each_worker_has_a_fair_share() -> None:
    shards = plan(3)
    shares = [shards.letters(n) for n in (1, 2, 3)]
    assert sorted("".join(shares)) == sorted(ORDER)
    assert [sum(c in BASE32 for c in s) for s in shares] == [11, 11, 10]


def test_a_moved_game_is_kept_where_it_was_moved_to() -> None:
    shards = plan(2, 2, {"g1": 1})
    assert plan(2).owner("g1") == 2  # by the rule
    assert shards.owner("g1") == 1 and not shards.keeps("g1")
    assert shards.owner("g3") == 2  # the others stay


def test_one_service_keeps_every_game() -> None:
    assert all(Shards().keeps(g) for g in ("g1", "g2", "mabcdefg", "x_"))


def postmap(table: Path, keys: list[str]) -> dict[str, str]:
    """What Postfix's own table lookup finds for each key (a regexp table, as trivial-rewrite
    reads transport_maps)."""
    (table.parent / "main.cf").write_text("myhostname = localhost\nmydomain = localdomain\n")
    found = subprocess.run(
        ["postmap", "-c", str(table.parent), "-q", "-", f"regexp:{table}"],
        input="\n".join(keys) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(line.split("\t", 1) for line in found.stdout.splitlines())


def test_postfix_sends_every_reply_to_the_worker_that_keeps_its_game(tmp_path: Path) -> None:
    rng = random.Random(23)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789_-"
    games = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9))) for _ in range(300)]
    names = [*(rng.choice("abc123") + g for g in games), "moved-here", "g1", "x_", "y-"]
    shards = plan(3, 1, {"moved-here": 3})
    table = tmp_path / "shards"
    table.write_text(postfix_map(REFEREE, shards))
    replies = {reply_address(REFEREE, g, n % 4, KEY): g for n, g in enumerate(names)}
    replies[f"referee+confirm.{KEY[:-1]}z@example.org"] = f"{KEY[:-1]}z"
    shouted = {a.upper(): g for a, g in replies.items()}  # mail programs change case
    keys = [*replies, *shouted, REFEREE, "referee+help@example.org", "other@example.org"]
    found = postmap(table, keys)
    for address, name in {**replies, **shouted}.items():
        listener = shards.workers[shards.owner(name) - 1]
        assert found[address] == f"lmtp:inet:{listener}", address
    every = "lmtp:inet:127.0.0.1:2401, inet:127.0.0.1:2402, inet:127.0.0.1:2403"
    assert found[REFEREE] == found["referee+help@example.org"] == every
    assert "other@example.org" not in found  # not the referee's: Postfix's own routing


def test_the_map_escapes_the_referees_own_address_and_names_unix_and_ipv6_workers(
    tmp_path: Path,
) -> None:
    shards = Shards(("[::1]:2401", "unix:/run/referee/2.sock"), 1, {})
    table = tmp_path / "shards"
    table.write_text(postfix_map("the.referee@games.example.org", shards))
    g1 = reply_address("the.referee@games.example.org", "g1", 0, KEY)  # worker 2's
    g2 = reply_address("the.referee@games.example.org", "g2", 0, KEY)
    found = postmap(table, [g1, g2, "theXreferee@games.example.org"])
    assert found == {g1: "lmtp:unix:/run/referee/2.sock", g2: "lmtp:inet:[::1]:2401"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_referee_shard_prints_the_table_and_each_workers_settings(tmp_path: Path) -> None:
    code, out = run("shard", "--workers", "2", "--address", REFEREE)
    assert code == 0
    assert out.startswith("# Postfix transport_maps (regexp) for 2 referee worker(s)")
    assert "lmtp:inet:127.0.0.1:2401, inet:127.0.0.1:2402" in out
    assert '#   workers = ["127.0.0.1:2401", "127.0.0.1:2402"]' in out
    assert "#   shard = 2    (on the worker listening on 127.0.0.1:2402)" in out
    table = tmp_path / "shards"
    table.write_text(out)  # the settings at its end are comments to Postfix
    assert postmap(table, [REFEREE])[REFEREE].startswith("lmtp:inet:127.0.0.1:2401")


def test_referee_shard_takes_the_workers_and_moved_games_from_the_config(tmp_path: Path) -> None:
    config = tmp_path / "referee.toml"
    config.write_text(
        f'address = "{REFEREE}"\n[lmtp]\nlisten = "10.0.0.2:24"\nshard = 2\n'
        'workers = ["10.0.0.1:24", "10.0.0.2:24"]\nmoved = { g1 = 1 }\n'
    )
    code, out = run("shard", "--workers", "2", "--config", str(config), "--json")
    assert code == 0, out
    told = json.loads(out)
    assert told["workers"][1] == {
        "shard": 2,
        "listen": "10.0.0.2:24",
        "letters": plan(2).letters(2),
    }
    assert told["moved"] == {"g1": 1}
    assert (
        r"/^referee\+g1\.[0-3]\.[a-z2-7]{16}@example\.org$/  lmtp:inet:10.0.0.1:24"
        in (told["transport_map"])
    )
    code, out = run(
        "shard", "--workers", "3", "--config", str(config)
    )  # three: ports in a row from listen
    assert code == 0 and "lmtp:inet:10.0.0.2:24, inet:10.0.0.2:25, inet:10.0.0.2:26" in out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--workers", "0"], "--workers 0: the games are shared by 1 to 32 workers"),
        (["--workers", "33"], "--workers 33"),
        (["--workers", "2", "--lmtp", "a:1"], "1 --lmtp for --workers 2: name each worker's"),
        (["--workers", "1", "--lmtp", "nowhere"], "--lmtp 'nowhere': give HOST:PORT"),
    ],
)
def test_referee_shard_says_what_is_wrong_with_what_it_is_given(args: list[str], said: str) -> None:
    code, out = run("shard", *args)
    assert code != 0 and said in out


@pytest.mark.parametrize(
    ("lmtp", "said"),
    [
        ("shard = 1", "shard needs workers"),
        ('workers = ["a:1", "b:2"]', "say which one this is: shard = 1"),
        ('workers = ["a:1", "b:2"]\nshard = 3', "worker 3: the workers are 1 to 2"),
        ('workers = ["a:1", "b:2"]\nshard = 1\nmoved = { g1 = 4 }', "worker 4"),
        ('workers = ["a"]\nshard = 1', "lmtp.workers.0"),
    ],
)
def test_a_workers_settings_that_do_not_fit_are_refused_naming_the_setting(
    tmp_path: Path, lmtp: str, said: str
) -> None:
    config = tmp_path / "referee.toml"
    config.write_text(f'[lmtp]\nlisten = "127.0.0.1:2401"\n{lmtp}\n')
    with pytest.raises(ConfigurationError, match=said.replace("(", r"\(").replace("[", r"\[")):
        load_settings(config)


def door(this: int, moved: dict[str, int] | None = None, held: tuple[str, ...] = ()) -> Door:
    return Door(REFEREE, plan(2, this, moved), lambda game: game in held)


def test_a_worker_takes_its_own_games_and_refuses_the_others_for_now() -> None:
    g1, g2 = (reply_address(REFEREE, g, 0, KEY) for g in ("g1", "g2"))  # worker 2's, 1's
    assert door(2).refusal(g1) is None
    refused = door(1).refusal(g1)
    assert refused is not None and "g1 is kept by worker 2 (127.0.0.1:2402)" in refused
    assert door(1).refusal(g2) is None
    token = f"{KEY[:-1]}b"  # a confirmation of worker 2's
    assert door(1).refusal(f"referee+confirm.{token}@example.org") is not None
    assert door(2).refusal(f"referee+confirm.{token}@example.org") is None
    assert door(1).refusal(REFEREE) is None and door(2).refusal("referee+help@example.org") is None


def test_a_game_moved_here_is_refused_until_its_folder_is_here() -> None:
    g1 = reply_address(REFEREE, "g1", 0, KEY)
    refused = door(1, {"g1": 1}).refusal(g1)
    assert refused is not None and "folder is not here yet" in refused
    assert door(1, {"g1": 1}, held=("g1",)).refusal(g1) is None
    assert door(2, {"g1": 1}, held=("g1",)).refusal(g1) is not None  # moved away


def bare_reply(answering: str) -> bytes:
    message = EmailMessage()
    message["From"] = "alice@example.org"
    message["To"] = REFEREE
    message["In-Reply-To"] = answering
    message["References"] = f"<older@example.org> {answering}"
    message.set_content("take red green blue")
    return message.as_bytes()


def test_a_reply_to_another_workers_game_by_the_bare_address_is_handed_on_to_its_plus_address() -> (
    None
):
    board = message_id(REFEREE, "g1", 1, KEY, 7)  # g1 is worker 2's
    onward = door(1).onward([REFEREE], bare_reply(board))
    assert onward is not None
    assert (onward.recipient, onward.worker, onward.listener) == (
        reply_address(REFEREE, "g1", 1, KEY),
        2,
        "127.0.0.1:2402",
    )
    assert door(2).onward([REFEREE], bare_reply(board)) is None  # its own: taken
    assert door(1).onward([REFEREE], bare_reply("<someone@else.org>")) is None  # a new mail
    plus = reply_address(REFEREE, "g1", 1, KEY)
    assert door(1).onward([plus], bare_reply(board)) is None  # by the plus address: refused


def test_a_worker_will_not_make_a_game_another_worker_is_to_keep(tmp_path: Path) -> None:
    config = tmp_path / "referee.toml"
    config.write_text(
        f'address = "{REFEREE}"\ngames_dir = "{tmp_path / "games"}"\n[lmtp]\n'
        'listen = "127.0.0.1:2401"\nshard = 1\nworkers = ["127.0.0.1:2401", "127.0.0.1:2402"]\n'
    )
    players = ["--player", "alice=alice@example.org", "--player", "bob=bob@example.org"]
    code, out = run("new", "g1", *players, "--config", str(config))
    assert code != 0
    assert "game 'g1' is for worker 2 (127.0.0.1:2402) to keep, not this one (shard 1)" in out
    assert not (tmp_path / "games" / "g1").exists()
    code, out = run("new", "g2", *players, "--config", str(config))
    assert code == 0, out


def test_referee_shard_pin_keeps_here_the_games_more_workers_would_give_to_another(
    tmp_path: Path,
) -> None:
    games = tmp_path / "games"
    config = tmp_path / "referee.toml"
    config.write_text(
        f'address = "{REFEREE}"\ngames_dir = "{games}"\n[lmtp]\nlisten = "127.0.0.1:2401"\n'
        'shard = 1\nworkers = ["127.0.0.1:2401", "127.0.0.1:2402"]\n'
        "moved = { gb = 1, gc = 2 }\n"
    )
    store = Store(games)
    players = [("alice", "alice@example.org"), ("bob", "bob@example.org")]
    for game in ("g2", "g4", "ga", "gb", "gc"):  # gc: moved away, its folder not gone yet
        create_game(store, game, players, seed=1)
    assert [plan(3).owner(g) for g in ("g2", "g4", "ga")] == [3, 2, 1]
    code, out = run("shard", "--workers", "3", "--pin", "--config", str(config))
    assert code == 0, out
    assert out.splitlines()[-1] == "moved = { g2 = 1, g4 = 1, gb = 1 }"
    code, out = run("shard", "--workers", "3", "--pin", "--config", str(config), "--json")
    assert json.loads(out) == {"worker": 1, "workers": 3, "moved": {"g2": 1, "g4": 1, "gb": 1}}
    code, out = run("shard", "--workers", "1", "--pin", "--config", str(config))
    assert code == 0 and out.splitlines()[-1] == "moved = { gb = 1 }"  # one keeps all
