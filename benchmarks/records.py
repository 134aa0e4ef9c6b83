"""Game records: replay speed, lookup among many games, size on disk.

Prints:
- the time to replay and verify a finished 4-player game (every seal, link, state hash and
  move checked), median of several runs;
- the time to load one game's current state from a games folder holding N game folders (the
  others are copies of game.toml files: loading one game must not look at them);
- the size of the finished game on disk: bytes in its files, and blocks used.

    python benchmarks/records.py [--folders 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from referee.engine import Buy, legal_moves
from referee.games import create_game, play_move
from referee.notation import format_move
from referee.record import SourceEntry
from referee.store import Store

PLAYERS = [(n, f"{n}@example.org") for n in ("ana", "bo", "cy", "dee")]


def finished_game(root: Path, seed: int) -> Store:
    store = Store(root)
    state = create_game(store, "finished", PLAYERS, seed=seed).state
    rng = random.Random(seed)
    source = SourceEntry(kind="command-line")
    while state.status != "finished":
        moves = legal_moves(state)
        move = rng.choice([m for m in moves if isinstance(m, Buy)] or moves)
        state = play_move(store, "finished", state.player.name, format_move(move), source).after
    return store


def timed(action: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "games"
        began = time.perf_counter()
        store = finished_game(root, args.seed)
        played = time.perf_counter() - began
        replayed = store.load("finished")
        turns = len(replayed.turns)
        print(f"records benchmark: a finished 4-player game of {turns} turns, seed {args.seed}")
        print(
            f"  recording it move by move (judge, write, fsync):  {played:8.3f} s "
            f"({played / turns * 1000:.1f} ms a move)"
        )
        replay_time = timed(lambda: store.load("finished"), args.runs)
        print(
            f"  replay and verify the whole game:                 {replay_time * 1000:8.1f} ms "
            f"({replay_time / turns * 1000:.2f} ms a turn)"
        )

        folder = root / "finished"
        files = [p for p in folder.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        blocks = sum(p.stat().st_blocks * 512 for p in files)
        print(
            f"  size on disk: {size / 1024:.1f} KiB in {len(files)} files "
            f"({size / turns:.0f} bytes a turn); {blocks / 1024:.0f} KiB of disk blocks"
        )

        alone = timed(lambda: store.load("finished"), args.runs)
        game_toml = (folder / "game.toml").read_bytes()
        began = time.perf_counter()
        for i in range(args.folders - 1):
            other = root / f"game-{i:05d}"
            (other / "turns").mkdir(parents=True)
            (other / "game.toml").write_bytes(game_toml)
        made = time.perf_counter() - began
        among = timed(lambda: store.load("finished"), args.runs)
        print(f"  load the current state, alone in the folder:     {alone * 1000:8.1f} ms")
        print(
            f"  load the current state among {args.folders:,} game folders: "
            f"{among * 1000:8.1f} ms (folders made in {made:.1f} s)"
        )
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
