"""Strength and speed of the bots: whole games between bot levels, fixed seeds, seats rotated.

Pairings (the first level is the bot measured; the others fill the remaining seats):

    greedy-random-2   greedy vs random, 2 players          target: greedy wins >= 95%
    search-greedy-2   search vs greedy, 2 players          target: search wins >= 70%
    search-greedy-3   search vs 2 greedy, 3 players        target: search wins > 1/3
    search-greedy-4   search vs 3 greedy, 4 players        target: search wins > 1/4
                                                           (search: <= 2 s a move)

Game ``g`` of a pairing is dealt from seed ``SEED + g`` and the measured bot sits at seat
``g % players``, so every seat is played equally often. A bot's random generator for a move
is seeded from the seed, the game, the turn and the seat: a run replays exactly (the search
bot runs a fixed number of playouts, not a time budget, unless ``--seconds`` is given).

Scoring: a win counts 1; a win shared by k players counts 1/k to each; a game still running
after ``--cap`` turns per player counts as a draw, 1/players to each. The win rate is the
measured bot's total over the games, shown with a 95% Wilson score interval. Speed, for
each level: wall-clock seconds a move (average, 99th percentile, longest, and how many
moves took over 2 s) and CPU seconds a move (what the bot needs when it has a core to
itself; the wall clock also counts whatever else the machine is doing); and the search
bot's playouts per CPU second.

    python benchmarks/bots.py [--games 200] [--pairings search-greedy-2,...] [--jobs 2]
                              [--playouts N] [--seconds S] [--seed 7100] [--cap 100]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import mean

from referee.bots import choose
from referee.bots import search as search_bot
from referee.bots.actions import own_actions
from referee.engine import Rules, apply, make_setup, outcome, start, view

NAMES = ("alice", "bob", "carol", "dave")
PAIRINGS = {
    "greedy-random-2": ("greedy", "random", 2, 0.95),
    "search-greedy-2": ("search", "greedy", 2, 0.70),
    "search-greedy-3": ("search", "greedy", 3, 1 / 3),
    "search-greedy-4": ("search", "greedy", 4, 1 / 4),
}


@dataclass
class GameResult:
    score: float  # the measured bot's share of the win
    outcome: str  # "win", "shared", "loss" or "capped"
    turns: int
    # per level: the wall-clock and the CPU seconds of each of its moves
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    playouts: int = 0
    search_cpu: float = 0.0


@dataclass(frozen=True)
class Job:
    pairing: str
    game: int
    seed: int
    cap: int
    playouts: int | None
    seconds: float | None


def play(job: Job) -> GameResult:
    """One game of the pairing; the measured bot at seat ``game % players``. Each move is
    chosen from the seat's view, as a service would."""
    level, other, players, _ = PAIRINGS[job.pairing]
    rules = Rules()
    names = NAMES[:players]
    state = start(names, make_setup(players, job.seed + job.game, rules), rules)
    measured = job.game % players
    levels = [level if seat == measured else other for seat in range(players)]
    result = GameResult(0.0, "", 0)
    while state.status != "finished" and state.turn < job.cap * players:
        seat = state.to_move
        rng = random.Random(f"{job.seed}/{job.pairing}/{job.game}/{state.turn}/{seat}")
        seen = view(state, names[seat])
        wall, cpu = time.perf_counter(), time.process_time()
        if levels[seat] == "search":
            # What choose("search", ...) does, keeping the count of playouts.
            found = search_bot.search(
                seen,
                seat,
                own_actions(seen),
                rng,
                job.playouts or search_bot.PLAYOUTS,
                job.seconds,
            )
            move = found.move
            result.playouts += found.playouts
        else:
            move = choose(levels[seat], seen, rng).move
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        result.wall.setdefault(levels[seat], []).append(wall)
        result.cpu.setdefault(levels[seat], []).append(cpu)
        if levels[seat] == "search":
            result.search_cpu += cpu
        state = apply(state, move)
    result.turns = state.turn
    if state.status != "finished":
        result.score, result.outcome = 1 / players, "capped"
        return result
    winners = outcome(state)
    if names[measured] not in winners:
        result.outcome = "loss"
    else:
        result.score = 1 / len(winners)
        result.outcome = "win" if len(winners) == 1 else "shared"
    return result


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``successes`` may be fractional:
    shared wins and draws count as fractions of a win)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def report(pairing: str, results: Iterable[GameResult], began: float) -> None:
    level, other, players, target = PAIRINGS[pairing]
    results = list(results)
    n = len(results)
    total = sum(r.score for r in results)
    low, high = wilson(total, n)
    tally = {k: sum(1 for r in results if r.outcome == k) for k in ("win", "shared", "loss")}
    capped = [g for g, r in enumerate(results) if r.outcome == "capped"]
    reached = total / n >= target if target >= 0.5 else total / n > target
    verdict = "met" if reached else "NOT met"
    if reached:
        verdict += " (the whole interval too)" if low >= target else " (not the whole interval)"
    print(
        f"{pairing}: {level} vs {other}, {players} players, {n} games: "
        f"{level} win rate {total / n:.1%} (95% CI {low:.1%} - {high:.1%}); target "
        f"{'>=' if target >= 0.5 else '>'} {target:.0%}: {verdict}"
    )
    print(
        f"    {tally['win']} won, {tally['shared']} shared, {tally['loss']} lost, "
        f"{len(capped)} capped (draws{_games(capped)}); "
        f"{sum(r.turns for r in results) / n / players:.1f} turns "
        f"per player on average; {time.perf_counter() - began:.0f} s wall"
    )
    for lv in sorted({k for r in results for k in r.wall}):
        wall = sorted(t for r in results for t in r.wall.get(lv, []))
        cpu = sorted(t for r in results for t in r.cpu.get(lv, []))
        slow = sum(1 for t in wall if t > 2.0)
        print(
            f"    {lv:>6}: {len(wall)} moves; wall clock a move: {mean(wall) * 1000:.1f} ms on "
            f"average, {wall[int(0.99 * (len(wall) - 1))]:.2f} s at the 99th percentile, "
            f"{wall[-1]:.2f} s the longest, {slow} over 2 s; CPU a move: "
            f"{mean(cpu) * 1000:.1f} ms on average, {cpu[-1]:.2f} s the longest"
        )
    playouts = sum(r.playouts for r in results)
    searching = sum(r.search_cpu for r in results)
    if playouts:
        print(f"    search: {playouts / searching:.0f} playouts a CPU second")
    sys.stdout.flush()


def _games(numbers: list[int]) -> str:
    return ": games " + ", ".join(map(str, numbers)) if numbers else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument(
        "--pairings", default=",".join(PAIRINGS), help=f"comma-separated: {', '.join(PAIRINGS)}"
    )
    parser.add_argument("--seed", type=int, default=7100)
    parser.add_argument("--cap", type=int, default=100, help="turns per player before a draw")
    parser.add_argument("--playouts", type=int, default=None, help="search playouts a move")
    parser.add_argument("--seconds", type=float, default=None, help="search time cap a move")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    args = parser.parse_args()
    pairings = [p.strip() for p in args.pairings.split(",") if p.strip()]
    unknown = [p for p in pairings if p not in PAIRINGS]
    if unknown:
        parser.error(f"unknown pairings {unknown}: choose from {', '.join(PAIRINGS)}")
    print(
        f"bots benchmark: {args.games} games a pairing, seed {args.seed}, search "
        f"{args.playouts or search_bot.PLAYOUTS} playouts a move"
        + (f" (at most {args.seconds} s)" if args.seconds else "")
        + f", {args.jobs} job(s), games capped at {args.cap} turns a player (a draw)"
    )
    for pairing in pairings:
        jobs = [
            Job(pairing, g, args.seed, args.cap, args.playouts, args.seconds)
            for g in range(args.games)
        ]
        began = time.perf_counter()
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                results = pool.map(play, jobs, chunksize=1)
        else:
            results = [play(job) for job in jobs]
        report(pairing, results, began)


if __name__ == "__main__":
    main()
