"""The bots' ladder: every level against every other (and against an earlier version of each),
at 2, 3 and 4 players; win rates with 95% intervals, an OpenSkill rating a level, time a move.

Entrants are the levels named by ``--levels`` and, with ``--previous REF``, the same levels as
they were at the git commit ``REF`` (``search@v1``, ...): that version of the package is taken
from git into a temporary folder and plays in a process of its own, which is handed each
view and answers a move (both pickled: the engine's types must not have changed between the
two versions). At each table size every set of that many entrants plays ``--games`` games.

Game ``g`` of a table is dealt from seed ``SEED + g`` (so every table plays the same deals)
with the entrants' seats turned by ``g`` places (each sits at every seat equally often when
``--games`` is a multiple of the table size). A bot's random generator for a move is seeded
from the seed, the table, the game, the turn and the seat: a run replays exactly (the search
levels play a fixed number of playouts, not a time budget).

Scoring: a win counts 1, a win shared by k players 1/k each, and a game still going after
``--cap`` turns a player is a draw (1/players each). Win rates come with 95% Wilson score
intervals. The OpenSkill rating (Plackett-Luce, as ``referee standings`` rates players) is
fitted per table size from every game in a fixed order, each game ranking its players by
the outcome (the winners first, then by points and fewest cards); the ladder is sorted by
its ordinal, mu - 3 sigma. Speed, per entrant: the wall clock and the CPU time a move.

    python benchmarks/bots.py [--levels random,greedy,search,expert] [--players 2,3,4]
                              [--games 20] [--jobs 2] [--previous REF [--previous-levels L,...]]
                              [--seed 7100]
                              [--cap 100] [--playouts L=N,...]
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean
from typing import IO

from openskill.models import PlackettLuce

from referee.bots import LEVELS, choose
from referee.engine import GameView, Move, Rules, apply, make_setup, outcome, start, view

NAMES = ("alice", "bob", "carol", "dave")
ROOT = Path(__file__).resolve().parent.parent

#: What a process playing an earlier version runs: views in, moves out, pickled.
_OLD_BOTS = """
import pickle, random, sys
from referee.bots import LEVELS, choose
out, inp = sys.stdout.buffer, sys.stdin.buffer
pickle.dump(tuple(LEVELS), out); out.flush()
while True:
    try:
        level, seen, seed, budget = pickle.load(inp)
    except EOFError:
        break
    pickle.dump(choose(level, seen, random.Random(seed), budget).move, out); out.flush()
"""


class Version:
    """The bots as they were at a git commit, playing in a process of their own."""

    def __init__(self, ref: str) -> None:
        self.ref = ref
        self.folder = tempfile.mkdtemp(prefix=f"bots-{ref.replace('/', '-')}-")
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "referee"], check=True, capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", self.folder], input=archive.stdout, check=True)
        env = {**os.environ, "PYTHONPATH": self.folder}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _OLD_BOTS],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.to: IO[bytes] = self.process.stdin
        self.back: IO[bytes] = self.process.stdout
        self.levels: tuple[str, ...] = pickle.load(self.back)

    def close(self) -> None:
        self.to.close()
        self.process.wait()

    def choose(self, level: str, seen: GameView, seed: str, budget: int | None) -> Move:
        pickle.dump((level, seen, seed, budget), self.to)
        self.to.flush()
        move: Move = pickle.load(self.back)
        return move


_VERSIONS: dict[tuple[int, str], Version] = {}


def version(ref: str) -> Version:
    """The process playing the bots of ``ref`` for this process: each worker has its own
    (a worker forked from a process with one open must not share its pipes)."""
    key = (os.getpid(), ref)
    if key not in _VERSIONS:
        _VERSIONS[key] = Version(ref)
    return _VERSIONS[key]


@dataclass(frozen=True)
class Job:
    table: tuple[str, ...]  # the entrants, in the order they sit at game 0
    game: int
    seed: int
    cap: int
    budgets: tuple[tuple[str, int], ...]


@dataclass
class Played:
    table: tuple[str, ...]
    game: int
    seats: tuple[str, ...]  # who sat where
    shares: tuple[float, ...]  # per seat
    ranks: tuple[int, ...]  # per seat, 1 the best
    capped: bool
    turns: int
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)


def play(job: Job) -> Played:
    """One game of a table, each move chosen from the seat's view as a service would."""
    players = len(job.table)
    turn_by = job.game % players
    seats = job.table[turn_by:] + job.table[:turn_by]
    names = NAMES[:players]
    rules = Rules()
    state = start(names, make_setup(players, job.seed + job.game, rules), rules)
    budgets = dict(job.budgets)
    played = Played(job.table, job.game, seats, (), (), False, 0)
    label = "/".join(job.table)
    while state.status != "finished" and state.turn < job.cap * players:
        seat = state.to_move
        entrant = seats[seat]
        level, _, ref = entrant.partition("@")
        seed = f"{job.seed}/{label}/{job.game}/{state.turn}/{seat}"
        seen = view(state, names[seat])
        wall, cpu = time.perf_counter(), time.process_time()
        if ref:
            move = version(ref).choose(level, seen, seed, budgets.get(entrant))
        else:
            move = choose(level, seen, random.Random(seed), budgets.get(entrant)).move
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        played.wall.setdefault(entrant, []).append(wall)
        if not ref:  # another process's CPU time is not ours to count
            played.cpu.setdefault(entrant, []).append(cpu)
        state = apply(state, move)
    played.turns = state.turn
    if state.status != "finished":
        played.capped = True
        played.shares = tuple(1 / players for _ in seats)
        played.ranks = tuple(1 for _ in seats)
        return played
    winners = outcome(state)
    played.shares = tuple(1 / len(winners) if p.name in winners else 0.0 for p in state.players)
    order = sorted(
        {(p.name in winners, p.points, -len(p.cards)) for p in state.players}, reverse=True
    )
    played.ranks = tuple(
        1 + order.index((p.name in winners, p.points, -len(p.cards))) for p in state.players
    )
    return played


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``successes`` may be fractional:
    shared wins and draws count as fractions of a win)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(entrants: Sequence[str], games: Sequence[Played]) -> dict[str, tuple[float, float]]:
    """Each entrant's OpenSkill (Plackett-Luce) mu and sigma after ``games``, in order."""
    model = PlackettLuce()
    ratings = {e: model.rating(name=e) for e in entrants}
    for g in games:
        rated = model.rate([[ratings[e]] for e in g.seats], ranks=[float(r) for r in g.ranks])
        for e, (new,) in zip(g.seats, rated, strict=True):
            ratings[e] = new
    return {e: (float(r.mu), float(r.sigma)) for e, r in ratings.items()}


def _rate_text(won: float, n: int) -> str:
    low, high = wilson(won, n)
    return f"{won / n:6.1%} ({low:.0%}-{high:.0%})"


def report(players: int, entrants: Sequence[str], games: list[Played], began: float) -> None:
    print(
        f"\n== {players} players: {len(games)} games, "
        f"{sum(g.capped for g in games)} capped, {time.perf_counter() - began:.0f} s wall"
    )
    ratings = rate(entrants, games)
    ladder = sorted(entrants, key=lambda e: -(ratings[e][0] - 3 * ratings[e][1]))
    width = max(len(e) for e in entrants)
    print(
        f"{'':{width}}  OpenSkill ordinal (mu, sigma)   win rate, 95% interval (1/{players} even)"
    )
    for e in ladder:
        mine = [(g, g.seats.index(e)) for g in games if e in g.seats]
        won = sum(g.shares[s] for g, s in mine)
        mu, sigma = ratings[e]
        print(
            f"{e:>{width}}  {mu - 3 * sigma:6.2f} ({mu:5.2f}, {sigma:4.2f})"
            f"            {_rate_text(won, len(mine))} of {len(mine)} games"
        )
    if players == 2:
        print("\nhead to head: the row's win rate against the column (95% interval)")
        print(f"{'':{width}}  " + "  ".join(f"{e:>17}" for e in ladder))
        for a in ladder:
            cells = []
            for b in ladder:
                if a == b:
                    cells.append(f"{'-':>17}")
                    continue
                duel = [g for g in games if set(g.seats) == {a, b}]
                won = sum(g.shares[g.seats.index(a)] for g in duel)
                cells.append(f"{_rate_text(won, len(duel)):>17}" if duel else f"{'':>17}")
            print(f"{a:>{width}}  " + "  ".join(cells))
    print("\ntime a move: wall clock mean / 99th percentile / longest; CPU mean")
    for e in ladder:
        wall = sorted(t for g in games for t in g.wall.get(e, []))
        cpu = [t for g in games for t in g.cpu.get(e, [])]
        cpu_text = f"{mean(cpu) * 1000:.0f} ms" if cpu else "(another process)"
        print(
            f"{e:>{width}}  {mean(wall) * 1000:7.1f} ms / {wall[int(0.99 * (len(wall) - 1))]:.2f} s"
            f" / {wall[-1]:.2f} s; {cpu_text}; {len(wall)} moves"
        )
    sys.stdout.flush()


def _budgets(text: str) -> tuple[tuple[str, int], ...]:
    found = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        entrant, _, number = part.partition("=")
        found.append((entrant, int(number)))
    return tuple(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels")
    parser.add_argument("--players", default="2,3,4", help="table sizes, comma-separated")
    parser.add_argument("--games", type=int, default=20, help="games a table")
    parser.add_argument("--previous", help="also the levels as they were at this git commit")
    parser.add_argument(
        "--previous-levels", help="comma-separated: only these levels' earlier versions play"
    )
    parser.add_argument("--seed", type=int, default=7100)
    parser.add_argument("--cap", type=int, default=100, help="turns per player before a draw")
    parser.add_argument(
        "--playouts", default="", help="ENTRANT=N,...: playouts a move (search levels)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    args = parser.parse_args(argv)
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown:
        parser.error(f"unknown levels {unknown}: the levels are {', '.join(LEVELS)}")
    entrants = list(levels)
    if args.previous:
        asked = version(args.previous)
        before = asked.levels
        asked.close()  # the workers start their own
        del _VERSIONS[(os.getpid(), args.previous)]
        wanted = (args.previous_levels or args.levels).split(",")
        entrants += [f"{lv}@{args.previous}" for lv in levels if lv in before and lv in wanted]
    sizes = [int(n) for n in args.players.split(",")]
    print(
        f"bots ladder: {', '.join(entrants)}; {args.games} games a table, seed {args.seed}, "
        f"{args.jobs} job(s), games capped at {args.cap} turns a player (a draw)"
    )
    budgets = _budgets(args.playouts)
    for players in sizes:
        if players > len(entrants):
            continue
        jobs = [
            Job(table, g, args.seed, args.cap, budgets)
            for table in itertools.combinations(entrants, players)
            for g in range(args.games)
        ]
        began = time.perf_counter()
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                games = pool.map(play, jobs, chunksize=1)
        else:
            games = [play(job) for job in jobs]
        report(players, entrants, games, began)
    return 0


if __name__ == "__main__":
    sys.exit(main())
