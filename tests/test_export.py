"""`referee export GAME --html FILE [--as NAME]`: one self-contained page replaying a game,
which fetches nothing and shows no card a viewer may not see."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.engine import view
from referee.errors import ConfigurationError, RequestError
from referee.export import _Styles, replay_page
from referee.games import create_game, play_move
from referee.record import Replayed, SourceEntry
from referee.store import Store
from referee.wording.writer import Writer
from tests.recorded import players, recorded_game

GAMES = Path(__file__).parents[1] / "games"
CLI = SourceEntry(kind="command-line")
runner = CliRunner()


def cli(games: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--games-dir", str(games)])
    return result.exit_code, result.stdout, result.stderr


def example() -> Replayed:
    return Store(GAMES).load("example")


@functools.cache
def public_example() -> str:
    """The example game's public replay page (made once: it takes half a second)."""
    return replay_page(example(), "example").html


def shows(html: str, card: str) -> bool:
    """Whether a card id appears anywhere in the page (markup, text, comments, scripts)."""
    return re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", html) is not None


def blind_game(root: Path) -> tuple[Store, str]:
    """A 2-player game in which alice reserves the top of the level 3 deck, blind; the card's
    id. Then bob takes tokens: the game goes on."""
    games = Store(root)
    create_game(games, "g1", players(2), seed=5)
    played = play_move(games, "g1", "alice", "reserve deck 3", CLI)
    card = played.after.players[0].reserved[0].card
    play_move(games, "g1", "bob", "take red green blue", CLI)
    return games, card


# -- no network -------------------------------------------------------------------------------


def test_the_page_fetches_nothing_and_links_only_within_itself() -> None:
    html = public_example()
    assert not re.search(r"https?:", html, re.IGNORECASE)
    assert not re.search(r"\bsrc\s*=", html, re.IGNORECASE)
    assert not re.search(r"url\s*\(|@import|<link\b|<img\b|<iframe\b|<object\b|<embed\b", html)
    assert all(href.startswith("#") for href in re.findall(r'href\s*=\s*"([^"]*)"', html))
    assert "default-src 'none'" in html  # and the page forbids any load besides itself
    assert "<style>" in html and "<script>" in html  # the styles and the script are inline


def test_the_boards_inline_styles_become_one_style_sheet() -> None:
    html = public_example()
    assert 'style="' not in html
    assert len(html) < 2_000_000  # 113 boards; inline, their styles alone weighed 3 MB
    styles = _Styles()
    made = styles.classed(
        '<p class="a" style="color:red;">x</p><br style="margin:0"/><b style="color:red;">'
    )
    assert made == '<p class="a bs0">x</p><br class="bs1"/><b class="bs0">'
    assert styles.css() == ".bs0 { color:red; }\n.bs1 { margin:0 }"
    assert styles.classed('<i style="a:b{c}">') == '<i style="a:b{c}">'  # left as it was


# -- every turn -------------------------------------------------------------------------------


def test_every_turn_is_in_the_page_with_its_move_and_mover() -> None:
    replayed = example()
    page = replay_page(replayed, "example")
    html = page.html
    last = len(replayed.turns)
    assert page.turns == last == 112 and page.viewer is None
    assert [int(n) for n in re.findall(r'<section class="turn" id="turn-(\d+)"', html)] == list(
        range(last + 1)
    )
    assert f'max="{last}"' in html  # the slider reaches the last turn
    assert "The set-up: the cards are dealt and the nobles drawn; ana moves first." in html
    turn = replayed.turns[0]
    assert f'<span class="mover">{turn.player}</span> moved' in html
    section = html[html.index('id="turn-42"') : html.index('id="turn-43"')]
    assert "bo reserved a level 3 card from the deck, unseen." in section
    assert "Game example · turn 42" in section  # the shared board of that turn


def test_each_turn_shows_the_board_of_that_position() -> None:
    replayed = example()
    html = replay_page(replayed, "example").html
    for turn in (0, 1, 57, 112):
        start = html.index(f'id="turn-{turn}"')
        end = html.find("</section>", start)
        section = html[start:end]
        board = view(replayed.states[turn]).board
        for card in (c for row in board for c in row if c):
            assert f'data-card="{card}"' in section


def test_the_last_turn_shows_the_result() -> None:
    html = public_example()
    last = html[html.index('id="turn-112"') :]
    assert "The game is over: cy wins." in last
    assert '<tr class="winner"><td>cy</td><td class="n">16</td>' in last
    assert "The game is over" not in html[: html.index('id="turn-112"')]


def test_a_game_that_goes_on_says_so_at_its_last_turn(tmp_path: Path) -> None:
    games = recorded_game(tmp_path, turns=3)
    page = replay_page(games.load("g1"), "g1")
    assert page.turns == 3
    assert "The game goes on: these are the turns played so far." in page.html
    assert "The game is over" not in page.html


# -- who sees what ----------------------------------------------------------------------------


def test_a_blind_card_is_only_in_its_owners_export_of_a_finished_game() -> None:
    replayed = example()
    public = public_example()
    as_bo = replay_page(replayed, "example", "bo").html
    as_ana = replay_page(replayed, "example", "ana").html
    # bo reserved 3-19 blind at turn 42, dee 3-11 at turn 76; neither was ever shown
    for card in ("3-19", "3-11"):
        assert not shows(public, card) and not shows(as_ana, card)
    assert shows(as_bo, "3-19") and not shows(as_bo, "3-11")
    assert "you reserved a level 3 card from the deck, unseen." in as_bo
    assert shows(replay_page(replayed, "example", "dee").html, "3-11")


def test_a_blind_card_of_a_game_that_goes_on_is_in_no_export(tmp_path: Path) -> None:
    games, card = blind_game(tmp_path)
    replayed = games.load("g1")
    assert not shows(replay_page(replayed, "g1").html, card)
    with pytest.raises(RequestError) as refused:
        replay_page(replayed, "g1", "alice")
    assert str(refused.value) == (
        "cannot export game g1 as alice: it is not finished (turn 2, alice to move), and "
        "alice's view shows cards the others may not see yet; leave out --as for the public "
        "view, or export as alice once the game is over"
    )


def test_a_player_who_resigned_sees_not_even_their_own_blind_card(tmp_path: Path) -> None:
    games = Store(tmp_path)
    create_game(games, "g1", players(2), seed=5)
    card = play_move(games, "g1", "alice", "reserve deck 3", CLI).after.players[0].reserved[0]
    play_move(games, "g1", "alice", "resign", CLI)
    replayed = games.load("g1")
    assert replayed.state.status == "finished"
    assert card.card is not None
    early = replay_page(replayed, "g1", "alice").html
    assert shows(early[: early.index('id="turn-2"')], card.card)  # hers, until she resigned
    assert not shows(early[early.index('id="turn-2"') :], card.card)
    assert not shows(replay_page(replayed, "g1", "bob").html, card.card)
    assert not shows(replay_page(replayed, "g1").html, card.card)


def test_as_names_a_player_of_the_game() -> None:
    with pytest.raises(RequestError, match="no player called 'zed' in this game"):
        replay_page(example(), "example", "zed")
    assert replay_page(example(), "example", "BO").viewer == "bo"


# -- the command ------------------------------------------------------------------------------


def test_export_writes_the_page_and_says_what_it_shows(tmp_path: Path) -> None:
    out = tmp_path / "example.html"
    code, stdout, err = cli(GAMES, "export", "example", "--html", str(out))
    assert code == 0, err
    assert stdout.startswith(f"Wrote {out}: game example, turns 0 to 112, the public view (")
    assert out.read_text(encoding="utf-8") == public_example()
    code, stdout, _ = cli(GAMES, "export", "example", "--html", str(out), "--as", "bo", "--json")
    body = json.loads(stdout)
    assert code == 0 and body["viewer"] == "bo" and body["turns"] == 112
    assert body["bytes"] == out.stat().st_size and shows(out.read_text(encoding="utf-8"), "3-19")
    assert [p.name for p in tmp_path.iterdir()] == ["example.html"]  # no temporary file left


def test_export_to_standard_output() -> None:
    code, stdout, _ = cli(GAMES, "export", "example", "--html", "-")
    assert code == 0 and stdout.startswith("<!DOCTYPE html>") and 'id="turn-112"' in stdout


def test_export_as_a_player_of_a_game_that_goes_on_is_refused(tmp_path: Path) -> None:
    blind_game(tmp_path / "games")
    out = tmp_path / "g1.html"
    code, stdout, err = cli(tmp_path / "games", "export", "g1", "--html", str(out), "--as", "alice")
    assert code == 1 and stdout == "" and not out.exists()
    assert err.count("\n") == 1 and err.startswith("referee: cannot export game g1 as alice: ")
    assert "leave out --as for the public view" in err
    code, stdout, _ = cli(
        tmp_path / "games", "export", "g1", "--html", str(out), "--as", "alice", "--json"
    )
    assert code == 1 and json.loads(stdout)["error"]["kind"] == "request"
    code, _, err = cli(tmp_path / "games", "export", "g1", "--html", str(out))
    assert code == 0 and out.is_file(), err


def test_export_refuses_what_it_cannot_write(tmp_path: Path) -> None:
    code, _, err = cli(GAMES, "export", "example", "--html", str(tmp_path / "no" / "x.html"))
    assert code == 1 and "cannot write" in err and "No such file or directory" in err
    code, _, err = cli(GAMES, "export", "example", "--html", str(tmp_path))
    assert code == 1 and "that is a folder" in err
    code, _, err = cli(GAMES, "export", "nope", "--html", str(tmp_path / "x.html"))
    assert code == 1 and "no game 'nope'" in err


def test_a_game_masters_replay_template_that_fails_is_named(tmp_path: Path) -> None:
    (tmp_path / "replay.html.j2").write_text("<p>\n{{ no_such_thing.at_all }}</p>\n")
    with pytest.raises(ConfigurationError) as refused:
        replay_page(example(), "example", writer=Writer.with_templates(tmp_path))
    assert str(refused.value).startswith(
        "the replay page cannot be made: replay.html.j2, line 2: 'no_such_thing' is undefined"
    )
    (tmp_path / "replay.html.j2").write_text("turns {{ last }}")
    restyled = replay_page(example(), "example", writer=Writer.with_templates(tmp_path))
    assert restyled.html == "turns 112"
