"""Standings: who is ahead over the games a group has finished.

Per player address: games played, won, shared (a win tied with others), resigned or
forfeited, and a rating for multiplayer games from the OpenSkill library's Plackett-Luce
model (Weng and Lin's Bayesian rating: each finished game is a ranking of its players; not a
rating written by hand). A rating is shown as its ordinal (mu - 3 sigma): a newcomer starts at
0 and it grows as their results show their skill with less doubt.

Only finished games count, as their records stand now: a game rolled back to before its end
stops counting. A computer player is rated as a player named by its level (``bot:greedy``),
across every game it played; people are known by their address (``referee player --email``
moves their results along with them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from openskill.models import PlackettLuce, PlackettLuceRating

from referee.errors import RecordError, StoreError
from referee.finish import Finish
from referee.store import Store


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings."""

    player: str
    name: str
    played: int
    won: int
    shared: int
    resigned: int
    rating: float
    mu: float
    sigma: float

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "name": self.name,
            "played": self.played,
            "won": self.won,
            "shared": self.shared,
            "resigned": self.resigned,
            "rating": round(self.rating, 2),
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
        }


@dataclass(frozen=True)
class HeadToHead:
    """Two players' results in the finished games they played together."""

    a: str
    b: str
    games: tuple[str, ...]
    a_ahead: int
    b_ahead: int
    level: int

    def to_json(self) -> dict[str, object]:
        return {
            "a": self.a,
            "b": self.b,
            "games": list(self.games),
            "played": len(self.games),
            "a_ahead": self.a_ahead,
            "b_ahead": self.b_ahead,
            "level": self.level,
        }


def finishes(store: Store) -> list[Finish]:
    """Every finished game in ``store``, in the order they ended (games that cannot be read
    are left out: `referee games` names them)."""
    found = []
    for game_id in store.game_ids():
        try:
            done = store.finish(game_id)
        except (RecordError, StoreError):
            continue
        if done is not None:
            found.append(done)
    return sorted(found, key=lambda f: (f.ended, f.game))


def standings(games: Iterable[Finish], since: datetime | None = None) -> list[Standing]:
    """The standings over ``games`` (those that ended at or after ``since``), best first:
    by rating, then wins, then fewest games."""
    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    counts: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for game in sorted(games, key=lambda f: (f.ended, f.game)):
        if since is not None and game.ended < since:
            continue
        for place in game.places:
            names[place.player] = place.name
            tally = counts.setdefault(place.player, [0, 0, 0, 0])
            tally[0] += 1
            tally[1] += place.won and not place.shared
            tally[2] += place.shared
            tally[3] += place.resigned
            if place.player not in ratings:
                ratings[place.player] = model.rating(name=place.player)
        if len(game.places) < 2:
            continue
        teams = [[ratings[p.player]] for p in game.places]
        rated = model.rate(teams, ranks=[float(p.rank) for p in game.places])
        for place, (new,) in zip(game.places, rated, strict=True):
            ratings[place.player] = new
    lines = []
    for player, (played, won, shared, resigned) in counts.items():
        rating = ratings[player]
        mu, sigma = float(rating.mu), float(rating.sigma)
        ordinal = mu - 3 * sigma
        lines.append(
            Standing(player, names[player], played, won, shared, resigned, ordinal, mu, sigma)
        )
    return sorted(lines, key=lambda s: (-s.rating, -s.won, s.played, s.player))


def head_to_head(games: Sequence[Finish], a: str, b: str) -> HeadToHead:
    """``a`` against ``b`` (addresses, or bot:LEVEL) in the finished games both played: who
    finished ahead of the other how often."""
    a, b = a.lower(), b.lower()
    together, a_ahead, b_ahead, level = [], 0, 0, 0
    for game in games:
        ranks = {p.player: p.rank for p in game.places}
        if a not in ranks or b not in ranks:
            continue
        together.append(game.game)
        if ranks[a] < ranks[b]:
            a_ahead += 1
        elif ranks[b] < ranks[a]:
            b_ahead += 1
        else:
            level += 1
    return HeadToHead(a, b, tuple(together), a_ahead, b_ahead, level)
