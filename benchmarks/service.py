"""The referee service's own cost per move, with no mail server: the dir transport.

Creates GAMES two-player games and plays ROUNDS rounds: in each, every game's player to
move replies to their latest board (a reply dropped into the inbox, the board quoted below
the move, as from a mail program), then the service handles the whole inbox and sends every
letter (`referee serve --once`, in this process). Prints moves per second and the wall and
CPU time a move costs the service: reading and judging the reply, recording the turn,
writing and sending both players' boards. With --profile, where that time goes. With
--turns N, each game has N turns played (from the command line) before the measured rounds,
and neither they nor the measured moves end it while another move would not: what a move
costs late in a long game, beside --turns 0.

    python benchmarks/service.py [--games 50] [--rounds 20] [--turns 0] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).parents[1]))

import referee.service
from referee.engine import Buy, GameState, Move, apply, legal_moves
from referee.games import create_game, play_move
from referee.mail.herald import MailHerald
from referee.mail.transports.directory import DirTransport
from referee.notation import format_move
from referee.record import SourceEntry
from referee.service import Service
from referee.settings import Settings
from referee.store import Store
from tests.mail.players import humanise, quick_reply

T = TypeVar("T")


class InlineExecutor(Executor):
    """Runs what it is given at once, on the calling thread."""

    def __init__(self, *_: object, **__: object) -> None:
        pass

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as err:
            future.set_exception(err)
        return future


def lasting(state: GameState, rng: random.Random) -> Move | None:
    """A move that does not end the game (no player reaches 15 points), often a card bought:
    a long game's position, whose board fills as a real one's does. None when every move
    would end it."""
    legal = legal_moves(state)
    going_on = [m for m in legal if max(p.points for p in apply(state, m).players) < 15]
    bought = [m for m in going_on if isinstance(m, Buy)]
    if not going_on:
        return None
    return rng.choice(bought if bought and rng.random() < 0.5 else going_on)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games in flight (default 50)")
    parser.add_argument("--rounds", type=int, default=20, help="moves per game (default 20)")
    parser.add_argument(
        "--turns", type=int, default=0, help="turns played in each game first (default 0)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        games_dir, mail_dir = Path(root) / "games", Path(root) / "mail"
        store = Store(games_dir, remember=True)
        names = [f"g{n:02d}" for n in range(options.games)]
        rng = random.Random(options.seed)
        first: dict[str, int] = {}  # each game's turns before the measured rounds
        for n, name in enumerate(names):
            players = [(f"p{n:02d}{s}", f"p{n:02d}{s}@example.org") for s in "ab"]
            herald = MailHerald.of(games_dir)
            create_game(store, name, players, seed=options.seed + n, herald=herald)
            for _ in range(options.turns):
                state = store.load(name).state
                move = lasting(state, rng)
                if move is None:
                    break
                source = SourceEntry(kind="command-line")
                play_move(store, name, state.player.name, format_move(move), source, herald=herald)
            first[name] = store.load(name).state.turn
        settings = Settings(games_dir=games_dir, mail_dir=mail_dir, address="ref@example.net")
        service = Service(settings, DirTransport(mail_dir))
        profile = cProfile.Profile() if options.profile else None
        if profile:  # judge on the event loop's thread, where the profiler looks
            referee.service.ThreadPoolExecutor = InlineExecutor  # type: ignore[misc]
        wall = cpu = 0.0
        moves = 0

        def serve(measured: bool = True) -> tuple[float, float]:
            began, began_cpu = time.perf_counter(), time.process_time()
            if profile and measured:
                profile.enable()
            asyncio.run(service.run(once=True))
            if profile and measured:
                profile.disable()
            return time.perf_counter() - began, time.process_time() - began_cpu

        serve(measured=False)  # the welcome letters, and the boards of the turns played first
        for round_ in range(options.rounds):
            latest = {p.name.split("-", 1)[1]: p for p in sorted((mail_dir / "outbox").iterdir())}
            for name in names:
                state = store.load(name).state
                if state.status == "finished":
                    continue
                legal = legal_moves(state)
                move = lasting(state, rng) if options.turns else None
                if move is None:
                    move = rng.choice([m for m in legal if isinstance(m, Buy)] or legal)
                sender = f"{state.player.name}@example.org"
                _, reply = quick_reply(
                    latest[f"{sender}.eml"].read_bytes(),
                    sender,
                    humanise(move, state, rng),
                    message_id=f"<{name}.{round_}@example.org>",
                )
                (mail_dir / "inbox" / f"{name}.{round_}.eml").write_bytes(reply)
                moves += 1
            took, took_cpu = serve()
            wall, cpu = wall + took, cpu + took_cpu
        played = sum(store.load(name).state.turn - first[name] for name in names)
        assert played == moves, f"{moves} replies, {played} moves played"
    print(
        f"{options.games} games, {moves} moves over the dir transport after "
        f"{sum(first.values()) / len(first):.0f} turns each: "
        f"{moves / wall:.0f} moves/s; a move costs the service {wall / moves * 1000:.1f} ms "
        f"({cpu / moves * 1000:.1f} ms of CPU)"
    )
    if profile:
        order, shown = os.environ.get("SORT", "tottime"), int(os.environ.get("TOP", "30"))
        pstats.Stats(profile).sort_stats(order).print_stats(shown)


if __name__ == "__main__":
    main()
