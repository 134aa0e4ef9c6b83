"""Train the expert bot's evaluation (referee/bots/value.py) from games the bots play against
themselves, and write the model the package ships (referee/data/expert.json).

1. **Self-play.** Game ``g`` is dealt from seed ``SEED + g`` for 2, 2, 3 and 4 players in
   turn (two games in four are duels: the level the service is asked for most). Each seat is
   played by the search bot at ``--playouts`` playouts a move or, one seat in
   ``--greedy-share``, by the greedy bot, so that the positions cover weaker play too; with
   ``--teacher expert`` the seats are the expert bot with the model in ``--teacher-model``
   instead of the search bot (the next generation learns from the last). Every position of
   the game is kept with its seats' rows of :mod:`referee.bots.features` and labelled with
   the game's outcome: 1 for the winner (1/k each for a win shared by k), 0 for the others.
   A game still going after ``--cap`` turns a player is dropped.
2. **Fitting.** The model of :mod:`referee.bots.value` (a softmax over the seats of a score:
   a linear part and a hidden layer of ``--hidden`` tanh units) is fitted by maximum
   likelihood (cross-entropy against the outcome shares) with Adam and a little weight decay,
   on the positions of nine games in ten; the tenth are held out, and the held-out loss and
   accuracy are printed beside those of the search bot's hand-made evaluation. numpy does the
   fitting (``pip install -e '.[train]'``); playing needs nothing but the Python it writes.
3. **The model** is written as JSON with the script's version, the command that made it,
   the seed, the games, the positions and the CPU seconds each step took.

Every random choice comes from the seed (the games' deals, each move's generator, the
shuffles of the fitting), so the same command gives the same model on any machine with the
same numpy; ``--jobs`` only spreads the games over processes.

    scripts/train-bot [--games 1200] [--seed 35000] [--playouts 150] [--jobs 2]
                      [--hidden 8] [--out referee/data/expert.json] [--positions FILE]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from referee.bots import choose
from referee.bots import search as search_bot
from referee.bots.actions import own_actions
from referee.bots.features import NAMES, WIDTH, features
from referee.bots.value import FORMAT, Model, model_of
from referee.engine import GameState, Rules, apply, make_setup, outcome, start, view

#: This script's version: written into the model; raise it when a change here changes models.
VERSION = 1
NAMES_AT_TABLE = ("alice", "bob", "carol", "dave")
TABLE_SIZES = (2, 2, 3, 4)
MOST_SEATS = 4


@dataclass(frozen=True)
class Game:
    number: int
    seed: int
    playouts: int
    greedy_share: float
    cap: int
    teacher: str
    teacher_model: str | None


@dataclass
class Played:
    rows: list[list[list[float] | None]]  # per position, per seat
    shares: list[float]  # the outcome: each seat's share of the win
    cpu: float


_TEACHER: dict[str, search_bot.Style] = {}


def _teacher_style(path: str) -> search_bot.Style:
    if path not in _TEACHER:
        from referee.bots import expert

        model = model_of(json.loads(Path(path).read_text(encoding="utf-8")))
        _TEACHER[path] = expert.style_of(model)
    return _TEACHER[path]


def play(game: Game) -> Played | None:
    """One self-play game: its positions' rows and its outcome (None if capped)."""
    began = time.process_time()
    players = TABLE_SIZES[game.number % len(TABLE_SIZES)]
    names = NAMES_AT_TABLE[:players]
    rules = Rules()
    state: GameState = start(names, make_setup(players, game.seed + game.number, rules), rules)
    picker = random.Random(f"{game.seed}/{game.number}/seats")
    greedy = [picker.random() < game.greedy_share for _ in range(players)]
    if all(greedy):
        greedy[picker.randrange(players)] = False
    rows: list[list[list[float] | None]] = []
    while state.status != "finished" and state.turn < game.cap * players:
        rows.append(features(state))
        seat = state.to_move
        rng = random.Random(f"{game.seed}/{game.number}/{state.turn}/{seat}")
        seen = view(state, names[seat])
        if greedy[seat]:
            move = choose("greedy", seen, rng).move
        else:
            style = None if game.teacher == "search" else _teacher_style(game.teacher_model or "")
            move = search_bot.search(
                seen, seat, own_actions(seen), rng, game.playouts, style=style
            ).move
        state = apply(state, move)
    if state.status != "finished":
        return None
    winners = outcome(state)
    shares = [1 / len(winners) if p.name in winners else 0.0 for p in state.players]
    return Played(rows, shares, time.process_time() - began)


def as_arrays(games: list[Played]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Positions as arrays: rows (N, 4, WIDTH), a mask of seats in (N, 4), the outcome shares
    (N, 4) and the number of the game each position came from (N,)."""
    total = sum(len(g.rows) for g in games)
    x = np.zeros((total, MOST_SEATS, WIDTH))
    mask = np.zeros((total, MOST_SEATS), dtype=bool)
    y = np.zeros((total, MOST_SEATS))
    game_of = np.zeros(total, dtype=np.int64)
    i = 0
    for number, g in enumerate(games):
        for position in g.rows:
            for seat, row in enumerate(position):
                if row is not None:
                    x[i, seat] = row
                    mask[i, seat] = True
                    y[i, seat] = g.shares[seat]
            game_of[i] = number
            i += 1
    return x, mask, y, game_of


def _softmax(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(scores), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def _forward(params: dict[str, np.ndarray], z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = np.tanh(z @ params["hidden"].T + params["bias"])
    return z @ params["weights"] + h @ params["out"], h


def loss_and_accuracy(
    params: dict[str, np.ndarray], z: np.ndarray, mask: np.ndarray, y: np.ndarray
) -> tuple[float, float]:
    """Mean cross-entropy of the outcome shares and how often the favourite won."""
    p = _softmax(_forward(params, z)[0], mask)
    loss = -np.sum(y * np.log(np.clip(p, 1e-12, 1.0)), axis=1).mean()
    favourite = np.argmax(np.where(mask, p, -1.0), axis=1)
    accuracy = (y[np.arange(len(y)), favourite] > 0).mean()
    return float(loss), float(accuracy)


def fit(
    z: np.ndarray,
    mask: np.ndarray,
    y: np.ndarray,
    hidden: int,
    seed: int,
    epochs: int,
    decay: float,
) -> dict[str, np.ndarray]:
    """Adam on mini-batches of 1024 positions (z: standardised rows)."""
    rng = np.random.default_rng(seed)
    params = {
        "weights": np.zeros(WIDTH),
        "hidden": rng.normal(0.0, 0.3, (hidden, WIDTH)),
        "bias": np.zeros(hidden),
        "out": rng.normal(0.0, 0.1, hidden),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    rate, beta1, beta2, step = 0.01, 0.9, 0.999, 0
    for epoch in range(epochs):
        order = rng.permutation(len(z))
        for start_at in range(0, len(z), 1024):
            batch = order[start_at : start_at + 1024]
            zb, mb, yb = z[batch], mask[batch], y[batch]
            scores, h = _forward(params, zb)
            p = _softmax(scores, mb)
            # d loss / d score = p - y (the shares of each position sum to 1)
            ds = np.where(mb, p - yb, 0.0) / len(batch)
            grads = {
                "weights": np.einsum("ns,nsf->f", ds, zb),
                "out": np.einsum("ns,nsh->h", ds, h),
            }
            dh = ds[:, :, None] * params["out"] * (1 - h * h)
            grads["hidden"] = np.einsum("nsh,nsf->hf", dh, zb)
            grads["bias"] = dh.sum(axis=(0, 1))
            step += 1
            for k, g in grads.items():
                g = g + decay * params[k]
                m, v = moments[k]
                m *= beta1
                m += (1 - beta1) * g
                v *= beta2
                v += (1 - beta2) * g * g
                m_hat = m / (1 - beta1**step)
                v_hat = v / (1 - beta2**step)
                params[k] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)
        if epoch == epochs // 2:
            rate /= 3
    return params


def hand_made_loss(x: np.ndarray, mask: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The search bot's own judgement of the same positions (softmax of SHARPNESS x worth;
    the worth feature is worth / points to win, so x 15)."""
    worth = x[:, :, NAMES.index("worth")] * 15 * search_bot.SHARPNESS
    p = _softmax(worth, mask)
    loss = -np.sum(y * np.log(np.clip(p, 1e-12, 1.0)), axis=1).mean()
    favourite = np.argmax(np.where(mask, p, -1.0), axis=1)
    return float(loss), float((y[np.arange(len(y)), favourite] > 0).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200, help="self-play games")
    parser.add_argument("--seed", type=int, default=35000)
    parser.add_argument("--playouts", type=int, default=150, help="the players' playouts a move")
    parser.add_argument("--greedy-share", type=float, default=0.2, help="seats played greedily")
    parser.add_argument("--teacher", choices=("search", "expert"), default="search")
    parser.add_argument("--teacher-model", help="the model the expert teacher plays with")
    parser.add_argument(
        "--cap", type=int, default=100, help="turns a player before a game is dropped"
    )
    parser.add_argument("--hidden", type=int, default=8, help="tanh units of the hidden layer")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--decay", type=float, default=1e-4, help="weight decay")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--out", type=Path, default=Path("referee/data/expert.json"))
    parser.add_argument(
        "--positions", type=Path, help="keep the positions here (.npz), or read them if it exists"
    )
    parser.add_argument(
        "--more-positions",
        type=Path,
        action="append",
        default=[],
        help="also fit on the positions kept in this file by an earlier run (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.teacher == "expert" and not args.teacher_model:
        parser.error("--teacher expert needs --teacher-model FILE")
    command = "scripts/train-bot " + shlex.join(sys.argv[1:] if argv is None else argv)
    began = time.perf_counter()
    if args.positions is not None and args.positions.exists():
        kept = np.load(args.positions)
        x, mask, y, game_of = kept["x"], kept["mask"], kept["y"], kept["game_of"]
        play_cpu = float(kept["cpu"])
        if list(kept["names"]) != list(NAMES):
            parser.error(f"{args.positions} holds other features: delete it to play again")
        sources = [json.loads(str(kept["made"]))]
        print(f"read {len(x)} positions of {game_of.max() + 1} games from {args.positions}")
    else:
        games = [
            Game(
                g,
                args.seed,
                args.playouts,
                args.greedy_share,
                args.cap,
                args.teacher,
                args.teacher_model,
            )
            for g in range(args.games)
        ]
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                played = pool.map(play, games, chunksize=4)
        else:
            played = [play(g) for g in games]
        finished = [p for p in played if p is not None]
        play_cpu = sum(p.cpu for p in finished)
        x, mask, y, game_of = as_arrays(finished)
        sources = [_self_play(args, command, len(finished), len(x), play_cpu)]
        print(
            f"played {len(finished)} games ({len(played) - len(finished)} capped, dropped): "
            f"{len(x)} positions, {play_cpu:.0f} CPU s, "
            f"{time.perf_counter() - began:.0f} s wall"
        )
        if args.positions is not None:
            np.savez_compressed(
                args.positions,
                x=x,
                mask=mask,
                y=y,
                game_of=game_of,
                cpu=play_cpu,
                names=np.array(NAMES),
                made=json.dumps(sources[0]),
            )
    for more in args.more_positions:
        kept = np.load(more)
        if list(kept["names"]) != list(NAMES):
            parser.error(f"{more} holds other features")
        x = np.concatenate([x, kept["x"]])
        mask = np.concatenate([mask, kept["mask"]])
        y = np.concatenate([y, kept["y"]])
        game_of = np.concatenate([game_of, kept["game_of"] + game_of.max() + 1])
        play_cpu += float(kept["cpu"])
        sources.append(json.loads(str(kept["made"])))
        print(f"and {len(kept['x'])} positions of {kept['game_of'].max() + 1} games from {more}")
    fit_began = time.process_time()
    held_out = game_of % 10 == 9
    seats_in = x[mask]
    mean = seats_in.mean(axis=0)
    scale = seats_in.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = np.where(mask[:, :, None], (x - mean) / scale, 0.0)
    params = fit(
        z[~held_out], mask[~held_out], y[~held_out], args.hidden, args.seed, args.epochs, args.decay
    )
    fit_cpu = time.process_time() - fit_began
    loss = accuracy = None
    if held_out.any():  # (fewer than ten games hold none out)
        loss, accuracy = loss_and_accuracy(params, z[held_out], mask[held_out], y[held_out])
        base_loss, base_accuracy = hand_made_loss(x[held_out], mask[held_out], y[held_out])
        print(
            f"held-out positions ({held_out.sum()}): cross-entropy {loss:.4f}, the favourite "
            f"won {accuracy:.1%}; the search bot's evaluation: {base_loss:.4f}, "
            f"{base_accuracy:.1%} (fitted in {fit_cpu:.0f} CPU s)"
        )
    model = Model(
        names=tuple(NAMES),
        mean=tuple(float(v) for v in mean),
        scale=tuple(float(v) for v in scale),
        weights=tuple(float(v) for v in params["weights"]),
        hidden=tuple(tuple(float(v) for v in unit) for unit in params["hidden"]),
        bias=tuple(float(v) for v in params["bias"]),
        out=tuple(float(v) for v in params["out"]),
        made=_made(args, command, sources, x, game_of, play_cpu, fit_cpu, loss, accuracy),
    )
    args.out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} (format {FORMAT}, {args.out.stat().st_size} bytes)")
    return 0


def _self_play(
    args: argparse.Namespace, command: str, games: int, positions: int, cpu: float
) -> dict[str, Any]:
    """What played the games of a positions file: kept with them, and in the model."""
    teacher = "search" if args.teacher == "search" else f"expert with {args.teacher_model}"
    return {
        "command": command,
        "seed": args.seed,
        "teacher": teacher,
        "teacher_playouts": args.playouts,
        "greedy_share": args.greedy_share,
        "games": games,
        "positions": positions,
        "cpu_seconds": round(cpu),
    }


def _made(
    args: argparse.Namespace,
    command: str,
    sources: list[dict[str, Any]],
    x: np.ndarray,
    game_of: np.ndarray,
    play_cpu: float,
    fit_cpu: float,
    loss: float | None,
    accuracy: float | None,
) -> dict[str, Any]:
    return {
        "script": "scripts/train-bot",
        "script_version": VERSION,
        "command": command,
        "seed": args.seed,
        "self_play": sources,
        "games": int(game_of.max()) + 1,
        "positions": len(x),
        "self_play_cpu_seconds": round(play_cpu),
        "fit_cpu_seconds": round(fit_cpu),
        "held_out_cross_entropy": None if loss is None else round(loss, 4),
        "held_out_favourite_won": None if accuracy is None else round(accuracy, 4),
        "numpy": np.__version__,
    }


if __name__ == "__main__":
    sys.exit(main())
