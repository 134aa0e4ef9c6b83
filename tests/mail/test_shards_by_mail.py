"""Two referee workers behind one Postfix, sharing the games (docs/scaling.md): Postfix routes
each reply by the table `referee shard` prints, each worker takes only its own games'
mail over LMTP, and twenty games are played to their ends, each by its own worker only."""

from __future__ import annotations

import random
import time
import tomllib
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from referee.bots import choose
from referee.cli import app
from referee.engine import Rules, view
from referee.games import create_game
from referee.mail.herald import MailHerald
from referee.mail.reading.routing import routed_name
from referee.mail.state.spool import Spool
from referee.notation import format_move
from referee.shards import Shards
from tests.mail.players import reply_message
from tests.mail.servers import MailProgram, Referee, wait_until
from tests.mailservers import MailServers, free_port

PLAYERS = [f"p{n:02d}" for n in range(40)]
GAMES = [f"s{n:02d}" for n in range(1, 21)]
USER = "shared"


@pytest.fixture(scope="module")
def servers() -> Iterator[MailServers]:
    with MailServers([USER, *PLAYERS, "postmaster"]) as running:
        yield running


def workers(servers: MailServers, root: Path) -> tuple[list[Referee], Shards]:
    """Two workers of the referee's address, each with its own games folder and LMTP
    listener, the same routing secret, and Postfix routing by `referee shard`'s table."""
    listeners = [f"127.0.0.1:{free_port()}" for _ in range(2)]
    for number in (1, 2):
        (root / f"worker{number}").mkdir()
    made = [
        Referee(
            servers,
            USER,
            root / f"worker{number}",
            lmtp={"listen": listener, "workers": listeners, "shard": number},
            poll_seconds=30,
        )
        for number, listener in enumerate(listeners, start=1)
    ]
    secret = Spool(made[0].games).lock.secret()  # shared, as docs/scaling.md says
    Spool(made[1].games).lock.root.mkdir(parents=True, exist_ok=True)
    kept = Spool(made[1].games).lock.root / "secret"
    kept.write_text(secret.hex() + "\n")
    kept.chmod(0o600)
    by = [arg for listener in listeners for arg in ("--lmtp", listener)]
    table = CliRunner().invoke(
        app, ["shard", "--workers", "2", *by, "--address", servers.address(USER)]
    )
    assert table.exit_code == 0, table.output
    servers.route_by_map(table.output)
    return made, Shards(tuple(listeners))


def made(servers: MailServers, keeper: Referee, game: str, players: list[str], seed: int) -> None:
    """A game of ``players`` in the games folder of the worker that keeps it."""
    create_game(
        keeper.store,
        game,
        [(p, servers.address(p)) for p in players],
        seed=seed,
        herald=MailHerald.of(keeper.games),
    )


def board_of(program: MailProgram, game: str, turn: int) -> EmailMessage | None:
    """The board of ``game`` at ``turn`` in the player's inbox, once it has come."""
    for mail in reversed(program.mails()):
        subject = str(mail["Subject"])
        if f"Splendor {game} " in subject and subject.endswith(f"turn {turn}"):
            return mail
    return None


def test_twenty_games_are_each_played_to_the_end_by_the_worker_that_keeps_them(
    servers: MailServers, tmp_path: Path
) -> None:
    referees, shards = workers(servers, tmp_path)
    owner = {game: referees[shards.owner(game) - 1] for game in GAMES}
    assert sorted(shards.owner(g) for g in GAMES) == [1] * 10 + [2] * 10
    seats = {game: (PLAYERS[2 * n], PLAYERS[2 * n + 1]) for n, game in enumerate(GAMES)}
    for n, game in enumerate(GAMES):
        create_game(
            owner[game].store,
            game,
            [(p, servers.address(p)) for p in seats[game]],
            seed=n,
            rules=Rules(points_to_win=3),  # (short games: 16 turns or so)
            herald=MailHerald.of(owner[game].games),
        )
    programs = {name: MailProgram(servers, name) for name in PLAYERS}
    try:
        for program in programs.values():
            program.empty()
        for referee in referees:
            referee.start()
        play_to_the_end(servers, owner, programs, shards)
        # each worker's doctor sends its test mail where Postfix routes it to that worker
        env = {"REFEREE_SMTP__PASSWORD": servers.password(USER)}
        for number, referee in enumerate(referees, start=1):
            doctor = ["doctor", "--config", str(referee.config), "--wait", "30"]
            checked = CliRunner().invoke(app, doctor, env=env)
            assert checked.exit_code == 0, checked.stdout
            assert f"LMTP: worker {number} of 2, keeping the games whose id" in checked.stdout
            assert "was handed over by LMTP in" in checked.stdout
        for game in GAMES:
            final = owner[game].store.load(game).state
            for name in seats[game]:
                assert board_of(programs[name], game, final.turn) is not None, (game, name)
    finally:
        for program in programs.values():
            program.close()
        stopped = [referee.stop() for referee in referees]
    assert stopped == [0, 0]
    # each worker judged its own games only, and holds no other
    for number, referee in enumerate(referees, start=1):
        held = sorted(p.name for p in referee.games.iterdir() if (p / "game.toml").exists())
        assert held == [g for g in GAMES if shards.owner(g) == number]
        done = sorted((referee.games / ".lmtp" / "done").glob("*.eml"))
        routed = [delivered_to(path) for path in done]
        assert all(shards.owner(name) == number for name in routed), routed
        refused = list((referee.games / ".lmtp" / "refused").glob("*.eml"))
        assert refused == [], referee.log_text()[-3000:]
        assert "Traceback" not in referee.log_text()
    assert "mail handed on to worker 2" in referees[0].log_text()
    assert "status=bounced" not in (servers.root / "postfix.log").read_text()


def play_to_the_end(
    servers: MailServers,
    owner: dict[str, Referee],
    programs: dict[str, MailProgram],
    shards: Shards,
) -> None:
    """Every game played to its end, each move a greedy bot's, written by the player to move
    as a reply to the board of that turn once it has come. One reply goes to the bare address
    (a mail program that drops the plus part): Postfix hands it to the first worker, which
    hands it on to the second, keeping that game."""
    by_bare = next(g for g in GAMES if shards.owner(g) == 2), 3
    rng = random.Random(23)
    answered: set[tuple[str, int]] = set()
    deadline = time.monotonic() + 180
    while True:
        states = {game: owner[game].store.load(game).state for game in GAMES}
        if all(s.status == "finished" for s in states.values()):
            return
        playing = {game: state.turn for game, state in states.items() if state.status != "finished"}
        logs = "\n".join(r.log_text()[-2000:] for r in {id(r): r for r in owner.values()}.values())
        assert time.monotonic() < deadline, f"games still in play, at turn: {playing}\n{logs}"
        for game, state in states.items():
            if state.status == "finished" or (game, state.turn) in answered:
                continue
            mover = state.player.name
            board = board_of(programs[mover], game, state.turn)
            if board is None:
                continue
            move = choose("greedy", view(state, mover), rng).move
            bare = servers.address(USER) if (game, state.turn) == by_bare else None
            programs[mover].send(
                reply_message(
                    board,
                    programs[mover].address,
                    format_move(move),
                    message_id=f"<{game}.{state.turn}.{time.time_ns()}@{mover}.example.org>",
                    to=bare,
                )
            )
            answered.add((game, state.turn))
        time.sleep(0.05)


def delivered_to(path: Path) -> str:
    """The game a mail kept by a worker was handed over for (its Delivered-To plus part)."""
    head = path.read_bytes().split(b"\r\n\r\n", 1)[0].decode()
    for line in head.splitlines():
        if line.startswith("Delivered-To: "):
            name = routed_name(line.split(": ", 1)[1].partition("@")[0].partition("+")[2])
            assert name is not None, line
            return name
    raise AssertionError(f"no Delivered-To in {path}")


def test_a_reply_sent_to_the_wrong_worker_waits_in_postfix_until_the_map_points_right(
    servers: MailServers, tmp_path: Path
) -> None:
    referees, shards = workers(servers, tmp_path)
    game = next(g for g in GAMES if shards.owner(g) == 2)
    players = PLAYERS[:2]
    keeper = referees[1]
    made(servers, keeper, game, players, seed=1)
    programs = {name: MailProgram(servers, name) for name in players}
    try:
        for program in programs.values():
            program.empty()
        for referee in referees:
            referee.start()
        # the map with the workers the wrong way round: the game's replies go to worker 1
        by = ["--lmtp", shards.workers[1], "--lmtp", shards.workers[0]]
        wrong = CliRunner().invoke(
            app, ["shard", "--workers", "2", *by, "--address", servers.address(USER)]
        )
        servers.route_by_map(wrong.output)
        state = keeper.store.load(game).state
        mover = programs[state.player.name]
        wait_until(lambda: board_of(mover, game, 0) is not None, "the first board")
        board = board_of(mover, game, 0)
        assert board is not None
        move = choose("greedy", view(state, state.player.name), random.Random(1)).move
        mover.send(reply_message(board, mover.address, format_move(move), message_id="<wrong@p00>"))
        log = servers.root / "postfix.log"
        wait_until(
            lambda: "451 4.3.0" in log.read_text() and "status=deferred" in log.read_text(),
            "Postfix to be told to try again",
        )
        assert f"{game} is kept by worker 2" in referees[0].log_text()
        assert keeper.store.load(game).state.turn == 0  # nobody judged it
        right = [arg for listener in shards.workers for arg in ("--lmtp", listener)]
        table = CliRunner().invoke(
            app, ["shard", "--workers", "2", *right, "--address", servers.address(USER)]
        )
        servers.route_by_map(table.output)
        servers.flush_queue()  # (as a postmaster does once a map is mended: postqueue -f)
        wait_until(
            lambda: keeper.store.load(game).state.turn == 1,
            lambda: (
                f"the reply played\n{log.read_text()[-2000:]}\n{referees[0].log_text()[-1500:]}"
                f"\n{keeper.log_text()[-1500:]}"
            ),
            60,
        )
        wait_until(keeper.quiet, "the letters to go out")
        assert list((referees[0].games / ".lmtp" / "done").glob("*.eml")) == []
        assert len(list((keeper.games / ".lmtp" / "done").glob("*.eml"))) == 1  # once
    finally:
        for program in programs.values():
            program.close()
        for referee in referees:
            referee.stop()


def test_a_game_relocated_to_the_other_worker_goes_on_there_in_the_same_threads(
    servers: MailServers, tmp_path: Path
) -> None:
    referees, shards = workers(servers, tmp_path)
    first, second = referees
    game = next(g for g in GAMES if shards.owner(g) == 1)
    players = PLAYERS[:2]
    made(servers, first, game, players, seed=2)
    programs = {name: MailProgram(servers, name) for name in players}
    rng = random.Random(2)

    def answer(keeper: Referee) -> tuple[MailProgram, EmailMessage]:
        """The player to move answers the board of this turn: their mail program, and the
        board answered."""
        state = keeper.store.load(game).state
        mover = programs[state.player.name]
        wait_until(lambda: board_of(mover, game, state.turn) is not None, "the board")
        board = board_of(mover, game, state.turn)
        assert board is not None
        move = choose("greedy", view(state, state.player.name), rng).move
        mid = f"<{game}.{state.turn}.{time.time_ns()}@{mover.user}.example.org>"
        mover.send(reply_message(board, mover.address, format_move(move), message_id=mid))
        return mover, board

    try:
        for program in programs.values():
            program.empty()
        for referee in referees:
            referee.start()
        answer(first)
        wait_until(lambda: first.store.load(game).state.turn == 1, "turn 1 at the first")
        wait_until(first.quiet, "the first's letters to go out")
        # docs/scaling.md, "Moving a game": every worker's settings and the map say where it
        # goes; the worker it leaves is stopped while it is relocated
        for referee in referees:
            referee.stop()
            config = tomllib.loads(referee.config.read_text())
            config["lmtp"]["moved"] = {game: 2}
            referee.config.write_text(tomli_w.dumps(config))
        table = CliRunner().invoke(app, ["shard", "--workers", "2", "--config", str(first.config)])
        assert table.exit_code == 0 and f"\\+{game}\\." in table.output, table.output
        servers.route_by_map(table.output)
        second.start()
        mover, board = answer(first)  # to the second worker, which has not the game yet
        wait_until(
            lambda: "its folder is not here yet" in second.log_text(), "the second to refuse"
        )
        moved = CliRunner().invoke(
            app, ["relocate", game, "--to", str(second.games), "--config", str(first.config)]
        )
        assert moved.exit_code == 0, moved.output
        first.start()
        wait_until(  # (so that stopping it below stops a service, not Python starting up)
            lambda: first.log_text().count("referee service for") == 2, "the first to start again"
        )
        wait_until(lambda: second.store.load(game).state.turn == 2, "the reply played", 60)
        wait_until(second.quiet, "the second's letters to go out")
        wait_until(lambda: board_of(mover, game, 2) is not None, "the board of turn 2")
        after = board_of(mover, game, 2)  # sent by the second worker, in the same thread
        assert after is not None and str(board["Message-ID"]) in str(after["References"])
        answer(second)
        wait_until(lambda: second.store.load(game).state.turn == 3, "turn 3 at the second")
    finally:
        for program in programs.values():
            program.close()
        stopped = [referee.stop() for referee in referees]
    assert stopped == [0, 0]
    assert len(list((first.games / ".lmtp" / "done").glob("*.eml"))) == 1
    assert len(list((second.games / ".lmtp" / "done").glob("*.eml"))) == 2  # each once
    assert not first.store.has(game) and (first.games / ".relocated" / game).is_dir()
