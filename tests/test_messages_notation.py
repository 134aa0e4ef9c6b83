"""The move notation's and the time parsing's errors are codes of the catalogue and their
parameters, plain data that survives JSON, whose English is the sentence ``str()`` gives."""

from __future__ import annotations

import ast
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import Buy, GameState, Move, Pass, Resign, Take, apply, move_json
from referee.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    RefereeError,
    RequestError,
)
from referee.notation import as_move, format_move, parse, parse_request, request_from_json
from referee.timing import parse_deadline, parse_duration, parse_until
from referee.wording import english
from referee.wording.catalogue import entries, lookup
from referee.wording.words import fields
from tests.positions import bank, cards_of_colour, dealt, holding, new_game

T = bank
ROOT = Path(__file__).resolve().parents[1]
MODULES = [ROOT / "referee" / f for f in ("notation.py", "sentences.py", "timing.py")]
AREAS = ("notation", "json_move", "player", "duration", "deadline", "until")
ERRORS = {"InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError", "RequestError"}
NOW = datetime(2026, 12, 8, 14, 0, tzinfo=UTC)


def board() -> GameState:
    return dealt(2, top={1: ["1-12", "1-02", "1-03", "1-04", "1-05"], 2: ["2-07", "2-01"]})


def assert_coded(err: RefereeError) -> None:
    """``err`` is a code of the catalogue whose params are JSON and give its English."""
    assert err.code is not None, f"not coded: {err}"
    found = lookup(err.code)
    assert set(err.params) == set(found.params), err.code
    assert fields(found.text) | fields(found.plural or "") <= set(found.params)
    back = json.loads(json.dumps(err.params))
    if err.code.split(".")[0] in AREAS:
        assert back == err.params, "the params are plain data"
    assert english(err.code, back) == err.message
    if isinstance(err, MoveError) and err.text is not None:
        assert str(err) == f"{err.text!r}: {english(err.code, back)}"
    else:
        assert str(err) == english(err.code, back)


# -- text that is not a move ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "english_"),
    [
        ("", "notation.no_move", "no move found: write one of take red green blue | take 2 red"),
        ("hello there", "notation.not_an_action", "a move starts with take, reserve, buy or pass"),
        ("return red", "notation.no_action", "a move needs an action, take, reserve, buy or"),
        ("take red buy 1-12", "notation.one_at_a_time", "one move at a time: found take and buy;"),
        ("get red take blue buy 1-12", "notation.one_at_a_time", "found get and take and buy;"),
        ("resign now", "notation.resign_alone", "resign stands alone: write just 'resign'"),
        ("pass now please", "notation.pass_alone", "pass takes nothing after it; found 'now p"),
        ("take red noble n4 noble n9", "notation.two_nobles", "found noble N4 and N9"),
        ("take red pay 1 red", "notation.pay_with_buy", "'pay' goes with buy, not with "),
        ("buy 1-12 pay red pay blue", "notation.pay_once", "say 'pay' once, listing every"),
        ("take 2 3 red", "notation.two_numbers", "two numbers in a row after 'take': '3'"),
        ("take b g r", "notation.b_is_ambiguous", "'b' could be blue or black: write 'u'"),
        ("take 1-12", "notation.card_not_colour", "'take' lists colours, not a card like '1-12'"),
        ("take purple", "notation.not_a_colour", "'purple' is not a colour after 'take': use"),
        ("take 2 rgu", "notation.count_before_colour", "write '2 red', not '2 rgu'"),
        ("take 2", "notation.count_without_colour", "2 of what? name a colour after the number"),
        ("take", "notation.take_needs_colours", "for example 'take red green blue'"),
        ("pass return", "notation.return_needs_colours", "for example 'return white'"),
        ("buy 1-12 pay", "notation.pay_needs_colours", "'pay' needs colours, for example 'pay"),
        ("get", "notation.needs_colours", "'get' needs colours, for example 'get red'"),
        ("take red discard", "notation.needs_colours", "for example 'discard red'"),
        ("buy 4-01", "notation.not_a_card", "'4-01' is not a card id: card ids look like 2-07"),
        ("buy 1-99", "notation.no_such_card", "there is no card 1-99: level 1 runs 1-01 … 1-40"),
        ("purchase", "notation.card_missing", "purchase names one card, like 'purchase 1-12';"),
        ("buy 1-12 2-07", "notation.not_one_card", "like 'buy 1-12'; got '1-12 2-07'"),
        ("reserve deck 4", "notation.deck_level", "reserve from a deck names its level"),
        ("reserve 3", "notation.reserve_which", "write 'reserve deck 3' for the top card"),
        ("take red noble", "notation.noble_missing", "like 'noble N4'; got 'nothing'"),
        ("take red noble N11", "notation.not_a_noble", "like 'noble N4'; got 'n11'"),
        ("{not json", "json_move.not_json", "not valid JSON: Expecting property name"),
        ("[1, 2]", "notation.not_an_action", "a move starts with take, reserve, buy or pass"),
        ('{"type": "fly"}', "json_move.bad_type", "must be take, reserve, buy, pass or resign"),
        ('{"type": "pass", "x": 1}', "json_move.unknown_keys", "unknown keys ['x']: a move"),
        ('{"type": "resign", "card": "1-01"}', "json_move.resign_alone", "found ['card']"),
        ('{"type": "reserve"}', "json_move.card_or_deck", 'a reserve has either "card" or'),
        ('{"type": "reserve", "deck": 4}', "json_move.bad_deck", '"deck" is 1, 2 or 3, not 4'),
        ('{"type": "buy", "card": 12}', "json_move.buy_card", 'a buy has "card", a card id'),
        ('{"type": "pass", "noble": 4}', "json_move.bad_noble", 'like "N4", not 4'),
        ('{"type": "take", "gems": []}', "json_move.not_counts", '"gems" is an object of'),
        ('{"type": "take", "gems": {"pink": 1}}', "json_move.not_a_colour", "has 'pink': colo"),
        ('{"type": "take", "gems": {"red": "1"}}', "json_move.not_a_count", ".red must be a who"),
    ],
)
def test_text_that_is_not_a_move_is_refused_with_a_code_and_json_params(
    text: str, code: str, english_: str
) -> None:
    with pytest.raises(InvalidMoveError) as err:
        parse(board(), text)
    assert err.value.code == code
    assert english_ in str(err.value)
    assert err.value.text == text
    assert_coded(err.value)


def test_an_overlong_text_is_coded_about_its_first_sixty_characters() -> None:
    text = "take red " * 500
    with pytest.raises(InvalidMoveError) as err:
        parse_request(text)
    assert err.value.code == "notation.too_long"
    assert err.value.params == {"limit": 2000, "length": 4500}
    assert err.value.text == text[:60] + "…"
    said = "a move is at most 2000 characters; this text has 4500"
    assert str(err.value) == f"{text[:60] + '…'!r}: {said}"
    assert_coded(err.value)


def test_a_json_object_read_alone_is_coded_without_a_text() -> None:
    with pytest.raises(InvalidMoveError) as err:
        request_from_json([{"type": "pass"}])
    assert err.value.text is None
    assert str(err.value) == 'a JSON move is an object like {"type": "pass"}'
    assert_coded(err.value)


def test_no_move_found_shows_every_example_move() -> None:
    with pytest.raises(InvalidMoveError) as err:
        parse(board(), "...")
    assert str(err.value) == (
        "'...': no move found: write one of take red green blue | take 2 red | reserve 2-07 | "
        "reserve deck 3 | buy 1-12 | buy 1-12 pay 2 red 1 gold | pass (and, when needed, "
        "return white | noble N4)"
    )


# -- moves the game refuses ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "text", "player", "code", "said"),
    [
        (
            board(),
            "take red green blue",
            "zed",
            "player.unknown",
            "no player called 'zed' in this game; the players are alice, bob",
        ),
        (
            new_game(3),
            "resign",
            "zed",
            "player.unknown",
            "no player called 'zed' in this game; the players are alice, bob, carol",
        ),
        (
            board(),
            "take red green blue",
            "bob",
            "notation.not_your_turn",
            "it is alice's turn, not bob's",
        ),
        (
            apply(new_game(3), Resign(1)),
            "pass",
            "bob",
            "notation.resigned",
            "bob has resigned: they are out of the game and make no more moves",
        ),
        (
            apply(new_game(2), Resign(1)),
            "take red",
            None,
            "notation.game_over",
            "the game is over: no more moves can be played",
        ),
    ],
)
def test_a_move_for_a_player_who_cannot_move_is_refused_with_a_code(
    state: GameState, text: str, player: str | None, code: str, said: str
) -> None:
    with pytest.raises(IllegalMoveError) as err:
        parse(state, text, player)
    assert err.value.code == code
    assert str(err.value) == f"{text!r}: {said}"
    assert_coded(err.value)


def test_a_resignation_as_a_stranger_without_resolving_is_coded() -> None:
    with pytest.raises(IllegalMoveError) as err:
        as_move(new_game(2), parse_request("I resign"), "zed")
    assert err.value.code == "player.unknown"
    assert err.value.params == {"name": "zed", "players": ["alice", "bob"]}
    assert_coded(err.value)


@pytest.mark.parametrize(
    ("state", "text", "player"),
    [
        (holding(board(), tokens_=T(black=1)), "buy 1-12", None),
        (board(), "take red green blue return red", None),
        (board(), "take gold", None),
        (apply(new_game(3), Resign(1)), "resign", "bob"),
        (apply(new_game(2), Resign(1)), "resign", "alice"),
    ],
)
def test_the_engines_refusal_keeps_its_code_and_params_about_the_text(
    state: GameState, text: str, player: str | None
) -> None:
    request = parse_request(text)
    move = as_move(state, request, player)
    with pytest.raises(IllegalMoveError) as engine:
        apply(state, move)
    with pytest.raises(IllegalMoveError) as err:
        parse(state, text, player)
    assert (err.value.code, err.value.params) == (engine.value.code, engine.value.params)
    assert err.value.reason == engine.value.reason
    assert err.value.text == text
    if err.value.code is not None:  # the engine's own errors are coded in referee.engine
        assert_coded(err.value)


# -- moves that fit several legal moves ------------------------------------------------------------


def test_a_return_left_out_is_ambiguous_with_the_candidates_as_moves() -> None:
    state = holding(board(), tokens_=T(white=3, blue=3, black=3))
    with pytest.raises(AmbiguousMoveError) as err:
        parse(state, "take red green blue")
    assert err.value.code == "notation.ambiguous_return"
    assert err.value.params["after"] == 12 and err.value.params["excess"] == 2
    assert str(err.value).startswith(
        "'take red green blue': after this move you would hold 12 tokens: say which 2 to "
        f"return, for example '{err.value.candidates[0]}'. Candidates: "
    )
    assert "take blue green red, return 2 white" in err.value.candidates
    assert_coded(err.value)


def test_more_than_twelve_candidates_show_twelve_and_count_them_all() -> None:
    state = holding(board(), tokens_=T(white=3, blue=3, black=3))
    with pytest.raises(AmbiguousMoveError) as err:
        parse(state, "take red green blue")
    count = len(err.value.candidates)
    assert count > 12
    shown = "; ".join(err.value.candidates[:12])
    assert str(err.value).endswith(f"Candidates: {shown}; … ({count} in all)")
    candidates = err.value.params["candidates"]
    assert isinstance(candidates, dict) and candidates["code"] == "notation.candidates_more"


def test_a_noble_choice_left_out_is_ambiguous_naming_each_noble() -> None:
    cards = cards_of_colour("white", 4) + cards_of_colour("black", 4) + cards_of_colour("blue", 3)
    state = holding(dealt(2, nobles=["N4", "N9", "N1"]), cards=cards)
    with pytest.raises(AmbiguousMoveError) as err:
        parse(state, "take red green white")
    assert err.value.code == "notation.ambiguous_noble"
    assert str(err.value) == (
        "'take red green white': more than one noble would visit; choose one: noble N4 or "
        "noble N9. Candidates: take white green red, noble N4; take white green red, noble N9"
    )
    assert err.value.candidates == [
        "take white green red, noble N4",
        "take white green red, noble N9",
    ]
    assert_coded(err.value)


def test_the_wording_of_a_move_param_is_its_canonical_notation() -> None:
    moves: list[Move] = [
        Buy("1-12", T(white=1, black=2)),
        Buy("1-12", T()),
        Take(T(red=2), T(white=1), "N4"),
    ]
    for move in moves:
        said = english("notation.default_would_be_legal", {"move": move_json(move)})
        assert said == f"no legal move fits; {format_move(move)} would be legal"
    listed = {"code": "notation.candidates", "params": {"moves": [move_json(Pass())]}}
    assert english("notation.ambiguous", {"candidates": listed}) == (
        "this fits more than one legal move. Candidates: pass"
    )


# -- durations and dates ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["3", "d", "0d", "3 fortnights", "", "tomorrow"])
def test_an_unreadable_duration_is_coded_with_the_text_as_written(text: str) -> None:
    with pytest.raises(RequestError) as err:
        parse_duration(text)
    assert err.value.code == "duration.unreadable"
    assert str(err.value) == (
        f"{text!r} is not a duration: write a whole number and a unit, like 3d (days), "
        "36h (hours), 2w (weeks) or 90m (minutes)"
    )
    assert_coded(err.value)


@pytest.mark.parametrize("text", ["59m", "61d", "9w"])
def test_a_deadline_out_of_range_names_the_shortest_and_longest_as_durations(text: str) -> None:
    with pytest.raises(RequestError) as err:
        parse_deadline(text)
    assert err.value.code == "deadline.out_of_range"
    assert err.value.params == {"text": text, "shortest": 3600, "longest": 60 * 86400}
    said = f"a deadline of {text} is out of range: give between 1 hour and 60 days"
    assert str(err.value) == said
    assert_coded(err.value)


@pytest.mark.parametrize("text", ["tomorrow", "2027-13-01", "soon-ish", "  next week "])
def test_an_unreadable_end_of_absence_is_coded_with_the_text_as_written(text: str) -> None:
    with pytest.raises(RequestError) as err:
        parse_until(text, NOW)
    assert err.value.code == "until.unreadable"
    assert str(err.value) == (
        f"{text!r} is neither a date nor a duration: write a date like 2027-01-15, or a "
        "duration like 5d or 2w"
    )
    assert_coded(err.value)


# -- arbitrary text ------------------------------------------------------------------------------

WORDS = [
    *("take", "get", "reserve", "buy", "purchase", "pass", "resign", "return", "discard"),
    *("noble", "pay", "and", "the", "of", "red", "green", "blue", "white", "black", "gold"),
    *("r", "g", "u", "w", "k", "b", "*", "rgu", "rgb", "2", "3", "two", "0", "99", "none"),
    *("nothing", "1-12", "1-99", "4-01", "2-07", "deck", "level", "top", "1", "4", "n4"),
    *("N11", "purple", "ruby", "i", "hello"),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join))
def test_every_refusal_of_notation_like_text_is_coded_and_survives_json(text: str) -> None:
    for state, player in ((board(), None), (board(), "bob"), (new_game(3), "zed")):
        try:
            parse(state, text, player)
        except InvalidMoveError as err:
            assert_coded(err)
        except (IllegalMoveError, AmbiguousMoveError) as err:
            if err.code is not None or not isinstance(err, IllegalMoveError):
                assert_coded(err)


# -- the source ----------------------------------------------------------------------------------


def _calls(tree: ast.AST) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)]


def _error_class(call: ast.Call) -> str | None:
    """The error class a call constructs (``InvalidMoveError(...)``) or codes (``.of(...)``)."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in ERRORS:
        return func.id
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "of"
        and isinstance(func.value, ast.Name)
        and func.value.id in ERRORS
    ):
        return func.value.id
    return None


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_error_the_notation_and_timing_make_is_coded(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    made = [call for call in _calls(tree) if _error_class(call)]
    assert made, "the module makes errors"
    for call in made:
        where = f"{path.name}:{call.lineno}"
        if isinstance(call.func, ast.Attribute):  # X.of("code", ...): a literal code
            assert call.args and isinstance(call.args[0], ast.Constant), where
            assert isinstance(call.args[0].value, str), where
            lookup(call.args[0].value)
            assert len(call.args) == 1, f"{where}: params are named"
        else:  # X(code=..., params=...): no sentence
            assert not call.args, f"{where}: an error made from a sentence"
            assert {k.arg for k in call.keywords} >= {"code", "params"}, where


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_raise_is_a_coded_error_or_the_engines_error_about_the_text(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    helpers = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and node.returns is not None
        and re.search(r"Error\b", ast.unparse(node.returns))
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise) or node.exc is None:
            continue
        source = ast.unparse(node.exc)
        where = f"{path.name}:{node.lineno}: raise {source}"
        calls = _calls(node.exc)
        coded = any(_error_class(c) for c in calls)
        helper = any(isinstance(c.func, ast.Name) and c.func.id in helpers for c in calls)
        about = re.fullmatch(r"err\.about\([\w.]+\)", source) is not None
        assert coded or helper or about, where


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_code_the_source_names_is_in_the_catalogue(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pattern = re.compile(rf"({'|'.join(AREAS)})\.[a-z_]+")
    named = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and pattern.fullmatch(node.value)
    }
    assert named
    for code in named:
        lookup(code)


def test_every_entry_of_these_areas_is_said_somewhere_and_uses_exactly_its_params() -> None:
    source = "\n".join(path.read_text(encoding="utf-8") for path in MODULES)
    for found in entries():
        if found.code.split(".")[0] not in AREAS:
            continue
        assert f'"{found.code}"' in source, f"{found.code} is never said"
        assert fields(found.text) == set(found.params), found.code
        assert found.when, found.code
