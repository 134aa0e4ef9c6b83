"""Write the moves of a seeded random game of GAME as a moves file for `referee play`.

    python scripts/random_game.py GAME --games-dir DIR --seed N > moves.txt

Replays GAME from its record, then plays on in memory (a random buy when one is legal, else
a random legal move, as benchmarks/engine.py does) and prints one `NAME MOVE` line per move,
in the canonical notation, until the game ends. Nothing is written to the game.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from referee.engine import Buy, apply, legal_moves
from referee.notation import format_move
from referee.store import Store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games-dir", type=Path, default=Path("games"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    state = Store(args.games_dir).load(args.game).state
    rng = random.Random(args.seed)
    while state.status != "finished":
        moves = legal_moves(state)
        move = rng.choice([m for m in moves if isinstance(m, Buy)] or moves)
        print(f"{state.player.name} {format_move(move)}")
        state = apply(state, move)


if __name__ == "__main__":
    main()
