"""Full random games per second, for 2, 3 and 4 players, with a fixed seed.

The player to move lists all legal moves and picks a random buy if any buy is legal, else a
random legal move. Prints games/s, moves/s and the time to list legal moves.

    python benchmarks/engine.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from referee.engine import Buy, Rules, apply, legal_moves, make_setup, start

NAMES = ("alice", "bob", "carol", "dave")


def run(players: int, games: int, seed: int) -> tuple[float, int, float, float, int]:
    """(seconds in all, moves, seconds listing legal moves, seconds applying, moves listed)."""
    rng = random.Random(seed)
    rules = Rules()
    moves = listed = 0
    listing = applying = 0.0
    began = time.perf_counter()
    for game in range(games):
        state = start(NAMES[:players], make_setup(players, seed * 100_003 + game, rules), rules)
        while state.status != "finished":
            t0 = time.perf_counter()
            legal = legal_moves(state)
            t1 = time.perf_counter()
            buys = [m for m in legal if isinstance(m, Buy)]
            move = rng.choice(buys or legal)
            t2 = time.perf_counter()
            state = apply(state, move)
            t3 = time.perf_counter()
            listing += t1 - t0
            applying += t3 - t2
            moves += 1
            listed += len(legal)
    return time.perf_counter() - began, moves, listing, applying, listed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"engine benchmark: {args.games} games per player count, seed {args.seed}")
    print(
        f"{'players':>7} {'games/s':>9} {'moves/s':>9} {'moves/game':>10} "
        f"{'list µs':>8} {'apply µs':>8} {'legal/move':>10}"
    )
    for players in (2, 3, 4):
        run(players, max(args.games // 20, 1), args.seed + 1)  # warm the caches
        total, moves, listing, applying, listed = run(players, args.games, args.seed)
        print(
            f"{players:>7} {args.games / total:>9.1f} {moves / total:>9.0f} "
            f"{moves / args.games:>10.1f} {listing / moves * 1e6:>8.1f} "
            f"{applying / moves * 1e6:>8.1f} {listed / moves:>10.1f}"
        )


if __name__ == "__main__":
    main()
