"""Standings over finished games, checked by hand: played, won, shared, resigned, the
OpenSkill Plackett-Luce rating, head to head; only finished games count, and a game rolled
back to before its end stops counting."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from openskill.models import PlackettLuce
from typer.testing import CliRunner

from referee.cli import app
from referee.finish import Finish, Place
from referee.games import create_game, resign, rollback
from referee.record import SourceEntry
from referee.standings import finishes, head_to_head, standings
from referee.store import Store

CLI = SourceEntry(kind="command-line")
runner = CliRunner()


def mail(name: str) -> str:
    return f"{name}@example.org"


def game_won_by_resignations(store: Store, game: str, names: list[str], leave: list[str]) -> None:
    """A game ended by everyone in ``leave`` resigning, in that order."""
    create_game(store, game, [(n, mail(n)) for n in names], seed=1)
    for name in leave:
        resign(store, game, name, CLI)


def group(root: Path) -> Store:
    """Four games of alice, bob and carol, worked out by hand:

    - a: carol, then bob resign: alice wins; bob and carol share the last place;
    - b: alice resigns: bob wins;
    - c: carol resigns: bob wins;
    - d: still being played (does not count);
    - e: carol resigns, alice wins, then it is rolled back to its start (does not count).
    """
    store = Store(root)
    game_won_by_resignations(store, "a", ["alice", "bob", "carol"], ["carol", "bob"])
    game_won_by_resignations(store, "b", ["alice", "bob"], ["alice"])
    game_won_by_resignations(store, "c", ["bob", "carol"], ["carol"])
    game_won_by_resignations(store, "d", ["alice", "bob"], [])
    game_won_by_resignations(store, "e", ["alice", "carol"], ["carol"])
    rollback(store, "e", 0, "carol's resignation was a slip")
    return store


def test_standings_count_only_finished_games_as_their_records_stand(tmp_path: Path) -> None:
    lines = {s.player: s for s in standings(finishes(group(tmp_path)))}
    counted = {p: (s.played, s.won, s.shared, s.resigned) for p, s in lines.items()}
    assert counted == {
        mail("alice"): (2, 1, 0, 1),
        mail("bob"): (3, 2, 0, 1),
        mail("carol"): (2, 0, 0, 2),
    }


def test_the_rating_is_openskills_plackett_luce_over_the_games_in_the_order_they_ended(
    tmp_path: Path,
) -> None:
    model = PlackettLuce()
    r = {n: model.rating(name=mail(n)) for n in ("alice", "bob", "carol")}
    # a: alice 1st, bob and carol share 2nd; b: bob 1st, alice 2nd; c: bob 1st, carol 2nd
    [r["alice"]], [r["bob"]], [r["carol"]] = model.rate(
        [[r["alice"]], [r["bob"]], [r["carol"]]], ranks=[1, 2, 2]
    )
    [r["bob"]], [r["alice"]] = model.rate([[r["bob"]], [r["alice"]]], ranks=[1, 2])
    [r["bob"]], [r["carol"]] = model.rate([[r["bob"]], [r["carol"]]], ranks=[1, 2])
    lines = standings(finishes(group(tmp_path)))
    assert [s.player for s in lines] == [mail("bob"), mail("alice"), mail("carol")]
    for s in lines:
        expected = r[s.player.split("@")[0]]
        assert abs(s.rating - (expected.mu - 3 * expected.sigma)) < 1e-9


def test_a_shared_win_counts_as_shared_and_ranks_level() -> None:
    at = datetime(2027, 1, 1, tzinfo=UTC)
    tie = Finish(
        "t",
        at,
        (
            Place("ann@x", "ann", 1, 15, won=True, shared=True, resigned=False),
            Place("bo@x", "bo", 1, 15, won=True, shared=True, resigned=False),
            Place("cy@x", "cy", 3, 9, won=False, shared=False, resigned=False),
        ),
    )
    lines = {s.player: s for s in standings([tie])}
    assert (lines["ann@x"].won, lines["ann@x"].shared) == (0, 1)
    assert lines["ann@x"].rating == lines["bo@x"].rating > lines["cy@x"].rating
    assert head_to_head([tie], "ann@x", "bo@x").level == 1


def test_since_counts_only_games_that_ended_since() -> None:
    old = Finish("old", datetime(2026, 1, 1, tzinfo=UTC),
                 (Place("ann@x", "ann", 1, 15, True, False, False),
                  Place("bo@x", "bo", 2, 3, False, False, False)))  # fmt: skip
    new = Finish("new", datetime(2027, 1, 1, tzinfo=UTC),
                 (Place("bo@x", "bo", 1, 15, True, False, False),
                  Place("ann@x", "ann", 2, 3, False, False, False)))  # fmt: skip
    lines = standings([old, new], since=datetime(2026, 6, 1, tzinfo=UTC))
    assert [(s.player, s.played, s.won) for s in lines] == [("bo@x", 1, 1), ("ann@x", 1, 0)]


def test_bots_are_rated_as_players_named_by_level(tmp_path: Path) -> None:
    store = Store(tmp_path)
    for game, bot in (("x", "robo"), ("y", "tin")):
        create_game(store, game, [("ann", mail("ann")), (bot, "")], seed=2,
                    bots={bot: "greedy"})  # fmt: skip
        resign(store, game, bot, CLI)
    lines = {s.player: s for s in standings(finishes(store))}
    assert set(lines) == {mail("ann"), "bot:greedy"}
    assert (lines["bot:greedy"].played, lines["bot:greedy"].resigned) == (2, 2)


def test_referee_standings_prints_them_best_first_and_head_to_head(tmp_path: Path) -> None:
    group(tmp_path)
    games = ["--games-dir", str(tmp_path)]
    listed = runner.invoke(app, ["standings", "--json", *games])
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.output)
    assert [(r["player"], r["played"], r["won"]) for r in rows] == [
        (mail("bob"), 3, 2), (mail("alice"), 2, 1), (mail("carol"), 2, 0)
    ]  # fmt: skip
    assert all(isinstance(r["rating"], float) for r in rows)
    text = runner.invoke(app, ["standings", *games]).output
    assert "Standings over 3 finished game(s)" in text and "bob@example.org" in text
    vs = runner.invoke(app, ["standings", "--vs", mail("alice"), mail("bob"), "--json", *games])
    assert json.loads(vs.output) == {
        "a": mail("alice"), "b": mail("bob"), "games": ["a", "b"], "played": 2, "a_ahead": 1,
        "b_ahead": 1, "level": 0,
    }  # fmt: skip
    later = runner.invoke(app, ["standings", "--since", "2999-01-01", "--json", *games])
    assert json.loads(later.output) == []


def test_two_bots_of_one_level_in_one_game_count_once_at_the_better_place(tmp_path: Path) -> None:
    store = Store(tmp_path)
    create_game(store, "z", [("ann", mail("ann")), ("robo", ""), ("tin", "")], seed=2,
                bots={"robo": "greedy", "tin": "greedy"})  # fmt: skip
    resign(store, "z", "robo", CLI)
    resign(store, "z", "tin", CLI)
    (done,) = finishes(store)
    assert [p.player for p in done.places] == [mail("ann"), "bot:greedy"]
    lines = {s.player: s for s in standings([done])}
    assert lines["bot:greedy"].played == 1
